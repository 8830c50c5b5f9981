//! The terrain ROM: fly over an endless tiled world.
//!
//! D-pad: forward/back and turn; L/R: strafe; A/B: climb/descend (the flight
//! also climbs ahead of terrain); START: a new world; SELECT: next view (3D,
//! 3D with tile borders as lines, top-down map of the land); SELECT held +
//! D-pad up/down: pitch; L+R together: HUD on/off; SELECT + START: bookmark
//! the world and camera in SRAM (resumed at power-on; both say so on screen).
#![no_std]
#![no_main]

use core::fmt::Write;
use gba::prelude::Color;
use terrain::rng::Rng;
use terrain::{Window, World};
use terrain_rom::cycles::{CYCLES_PER_REFRESH, Cycles};
use terrain_rom::hud::{self, Align, Hud};
use terrain_rom::input::{Keys, bit};
use terrain_rom::log::{Level, Line};
use terrain_rom::panic::error_screen;
use terrain_rom::progress::Progress;
use terrain_rom::statics::Static;
use terrain_rom::text::TextWriter;
use terrain_rom::video::{Mode4, Page, set_palette};
use terrain_rom::vram::VramTarget;
use terrain_rom::{bookmark, log, map, refresh, tiles, wait_vblank};
use voxel::cache::TexelCache;
use voxel::flight::{self, Controls, Relief};
use voxel::palette::{MOODS, Mood, ui};
use voxel::{Camera, Columns, Landscape, Options, PageSky, Parts};

/// Tile references around the camera: 64 a side (4 KB, EWRAM: read by the
/// texel cache's fills and the flight, written when the camera crosses a
/// tile; the march reads only the few its groups' tops need, so IWRAM would
/// save only about 250 cycles a frame, and the 4 KB are left to a game).
const WINDOW: usize = 64;
/// Seed of the first world.
const FIRST_SEED: u32 = 1;

/// The world: grid, tables and placement (9.7 KB, EWRAM: read by the
/// window's fills when it scrolls, not by the march).
static WORLD: Static<World> = Static::new(World::empty());
static TILE_WINDOW: Static<Window<WINDOW>> = Static::new(Window::new());
/// The texels round the camera (160 KB, EWRAM: `.bss`).
static TEXEL_CACHE: Static<TexelCache> = Static::new(TexelCache::new());
/// The bank's block tops, for the flight (4 KB, EWRAM).
static RELIEF: Static<Relief> = Static::new(Relief::new());
/// The map view's land, kept between frames (16 KB, EWRAM).
static MAP_LAND: Static<map::Land> = Static::new(map::Land::new());
/// Altitude of the frame that times the render's set-up (in the first 3D
/// frame), world px:
/// high enough above any bank that every group of slices is hidden (the far
/// slice, 776 px away, projects the bank's top below the screen), low enough
/// that `eye * FOCAL / z` fits 32 bits at the nearest slice.
const SETUP_ALTITUDE: i32 = 1500;
/// How long an on-screen message stays: two seconds of refreshes.
const MESSAGE_REFRESHES: u32 = 120;

/// What the screen shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    Terrain,
    Boundaries,
    Map,
}

impl View {
    fn next(self) -> View {
        match self {
            View::Terrain => View::Boundaries,
            View::Boundaries => View::Map,
            View::Map => View::Terrain,
        }
    }

    fn number(self) -> u32 {
        self as u32
    }
}

/// Times the render's set-up alone for the benchmark, in the first 3D frame
/// (its texel cache built, the main loop already replaying keys): a frame
/// from so high up that every band of slices is hidden in every column (no
/// sample, no draw, no group test: the slice tables, each column's rays,
/// band records and steps past the bands) into `page`, with no memory of
/// its sky (so with a whole sky fill, which the bench takes off; the first
/// frame then draws over it).
///
/// The frame before it, 8 px higher (so that the timed one builds its slice
/// tables again), is logged apart as `first`: the first at the bank's
/// height scale, whose reciprocals for the bottom chain `Landscape::new`
/// computed (else this frame would).
///
/// `options` are the frame's (the march draws only with the cache's marks).
fn time_set_up(land: &mut Landscape<'_, WINDOW>, camera: &Camera, options: Options, page: Page) {
    let high = Camera { z: SETUP_ALTITUDE << 8, pitch: 0, ..*camera };
    land.follow_cache(&high);
    let t = Cycles::now();
    let higher = Camera { z: (SETUP_ALTITUDE + 8) << 8, ..high };
    voxel::render(&land.scene(), &higher, options, &mut VramTarget::new(page));
    let first = t.elapsed();
    let t = Cycles::now();
    let set_up = voxel::render(&land.scene(), &high, options, &mut VramTarget::new(page));
    log!(
        "setup cycles={} samples={} skipped={} passed={} first={}",
        t.elapsed(),
        set_up.samples,
        set_up.skipped,
        set_up.passed_groups,
        first
    );
}

/// Times the texel cache's upkeep a line at a time for the benchmark (in the
/// first 3D frame, after the set-up): from `camera` moved back (by less than
/// 8 px in x and in y) to where its far ring's centre sits on the corner of
/// an entry, a follow that moves nothing, then two moves of 4 world px east
/// and two south. The first move each way reads one near-ring line (128
/// texels), the second that and one far-ring line (256 entries): each logged
/// as cycles and entries read. Then back to `camera`.
fn time_cache_lines(land: &mut Landscape<'_, WINDOW>, camera: &Camera) {
    let wrap = (land.size_px() << 8).wrapping_sub(1);
    let (fx, fy) = voxel::cache::centre(camera.x >> 8, camera.y >> 8, camera.heading, voxel::cache::FAR_AHEAD);
    let mut at = Camera {
        x: camera.x.wrapping_sub((fx & 7) << 8) & wrap,
        y: camera.y.wrapping_sub((fy & 7) << 8) & wrap,
        ..*camera
    };
    land.follow_cache(&at);
    let mut line = Line::new(Level::Debug);
    line.text("cache_lines");
    for (name, east, south) in [("still", 0, 0), ("east", 4, 0), ("east", 4, 0), ("south", 0, 4), ("south", 0, 4)] {
        at.x = at.x.wrapping_add(east << 8) & wrap;
        at.y = at.y.wrapping_add(south << 8) & wrap;
        let t = Cycles::now();
        let read = land.follow_cache(&at).map_or(0, |u| u.written);
        let cycles = t.elapsed();
        line.text(" ").text(name).text("=").uint(cycles).text("/").uint(read);
    }
    drop(line);
    land.follow_cache(camera);
}

/// Writes the sky's work in a 3D frame as the log gives it: `fill=` the
/// rows filled with the sky first (160: the whole page) and `sky=` the rows
/// repainted per column; `-` for the map view (the tests and the bench read
/// them back).
fn sky_work(line: &mut Line, work: Option<(u32, u32)>) -> &mut Line {
    match work {
        Some((filled, repainted)) => line.text(" fill=").uint(filled).text(" sky=").uint(repainted),
        None => line.text(" fill=- sky=-"),
    }
}

/// Writes a world and camera as the log gives them: `seed=0x... x=.. y=.. z=..
/// heading=.. pitch=..` (the tests read these words back).
fn place<'l>(line: &'l mut Line, seed: u32, c: &Camera) -> &'l mut Line {
    line.text("seed=").hex(seed).text(" x=").uint(c.x).text(" y=").uint(c.y).text(" z=").int(c.z);
    line.text(" heading=").uint(c.heading as u32).text(" pitch=").int(c.pitch as i32)
}

/// Logs a bookmark `saved` or `resumed` from `slot`, with its sequence
/// number, world and camera.
fn log_bookmark(what: &str, slot: usize, sequence: u32, seed: u32, camera: &Camera) {
    let mut line = Line::new(Level::Info);
    line.text("bookmark ").text(what).text(": slot ").uint(slot as u32).text(" sequence ").uint(sequence).text(" ");
    place(&mut line, seed, camera);
}

fn load_palette(palette: &[u16; 256]) {
    for (i, c) in palette.iter().enumerate() {
        set_palette(i as u8, Color(*c));
    }
}

/// Logs the landscape's world (`cycles`: what making it took).
fn log_world(land: &Landscape<'_, WINDOW>, cycles: u32) {
    log!(
        "world seed={:#010x} tiles={} mood={} new_world_cycles={} fingerprint={:#010x}",
        land.seed(),
        land.bank().tile_count(),
        MOODS[Mood::of(land.seed()).base].0,
        cycles,
        land.world().fingerprint()
    );
}

/// Makes the world of `seed`; returns the cycles it took (without the
/// fingerprint, which is only for the log).
fn new_world(land: &mut Landscape<'_, WINDOW>, seed: u32) -> u32 {
    let t = Cycles::now();
    land.new_world(seed);
    let cycles = t.elapsed();
    log_world(land, cycles);
    t.elapsed()
}

/// Refreshes between two writes of the HUD's text (10 a second): what a
/// reader can follow, and the frames between cost nothing for it.
const HUD_REFRESHES: u32 = 6;
/// Refreshes after its last write when the HUD's text is written whatever
/// the frame's cycles: a text due is left to a frame with room for it (one
/// whose work, the text's included, fits a refresh), but not longer.
const HUD_OVERDUE: u32 = 3 * HUD_REFRESHES;

/// The HUD's text: three rows across the top of the screen, each a
/// full-width bar (text never passes the right edge: what would is dropped).
fn write_hud(hud: &mut Hud, seed: u32, camera: &Camera, fps_tenths: u32, cycles: u32, window: u32) {
    // "SEED {:08X}  FPS {:>2}.{}", "X {:<5}  Y {:<5}  Z {}", "CYC {:<8} WIN {}".
    let (whole, tenth) = (fps_tenths / 10, fps_tenths % 10);
    hud.row(0).text("SEED ").hex8(seed).text("  FPS ").uint(whole, 2, Align::Right).text(".").uint(
        tenth,
        0,
        Align::Left,
    );
    hud.row(1)
        .text("X ")
        .uint(camera.x >> 8, 5, Align::Left)
        .text("  Y ")
        .uint(camera.y >> 8, 5, Align::Left)
        .text("  Z ")
        .int(camera.z >> 8, 0, Align::Left);
    hud.row(2).text("CYC ").uint(cycles, 8, Align::Left).text(" WIN ").uint(window, 0, Align::Left);
}

/// The HUD's colours: the background palette's text and bar entries.
fn hud_colours(palette: &[u16; 256]) -> (Color, Color) {
    (Color(palette[ui::WHITE as usize]), Color(palette[ui::HUD_BG as usize]))
}

/// A short message in a box near the bottom of the screen.
fn draw_message(page: Page, text: &str) {
    let len = text.len().min(terrain_rom::text::COLUMNS - 2);
    let col = (terrain_rom::text::COLUMNS - len) / 2;
    let (x, y) = ((col - 1) * 8, 17 * 8 - 4);
    page.fill_rect(x, y, (len + 2) * 8, 16, ui::BOUNDARY);
    page.fill_rect(x + 1, y + 1, (len + 2) * 8 - 2, 14, ui::HUD_BG);
    let mut w = TextWriter::line(page, col, 17, ui::WHITE, ui::HUD_BG);
    let _ = w.write_str(&text[..len]);
}

fn controls(keys: &Keys, select_used: &mut bool) -> Controls {
    let held = keys.held_bits();
    let axis = |plus: u16, minus: u16| -> i8 { (held & plus != 0) as i8 - (held & minus != 0) as i8 };
    let mut c = Controls {
        turn: axis(bit::RIGHT, bit::LEFT),
        // Not with SELECT held: SELECT + R switches the columns.
        strafe: if held & bit::SELECT != 0 { 0 } else { axis(bit::R, bit::L) },
        climb: axis(bit::A, bit::B),
        ..Controls::default()
    };
    if held & bit::SELECT != 0 {
        c.pitch = axis(bit::DOWN, bit::UP);
        if c.pitch != 0 {
            *select_used = true;
        }
    } else {
        c.forward = axis(bit::UP, bit::DOWN);
    }
    c
}

#[unsafe(no_mangle)]
extern "C" fn main() -> ! {
    terrain_rom::init();
    refresh::start();
    let mut screen = Mode4::init();
    log!("terrain-rom {}: boot ok", env!("CARGO_PKG_VERSION"));

    let world = WORLD.take();
    let window = TILE_WINDOW.take();
    let cache = TEXEL_CACHE.take();
    let relief = RELIEF.take();
    let map_land = MAP_LAND.take();
    // Checking a packed bank (and building its relief, if `tilebake pack`
    // put none after it) shows progress once it looks like taking more than
    // a moment.
    let (_, packed_len) = tiles::slot();
    let packed_relief = tiles::packed_relief();
    let relief_work = if packed_relief.is_some() { 0 } else { packed_len };
    let progress = Progress::new(
        "LOADING TILE BANK",
        packed_len / 1024,
        tiles::check_work(packed_len).saturating_add(relief_work),
    );
    let t = Cycles::now();
    // SAFETY: nothing writes object tiles 512 and on until the HUD loads its
    // glyphs, below, and no object shows them (`Mode4::init` hid them all);
    // one call.
    let (source, parsed, scans) = unsafe { tiles::with_obj_vram(|tables| tiles::load(tables, &progress)) };
    let check_cycles = t.elapsed();
    let bank = match parsed {
        Ok(bank) => bank,
        Err(e) => {
            log!(Level::Error, "bad tile bank ({:?}): {}", source, e);
            error_screen("BAD TILE BANK", format_args!("{e}\n\nRebake it with tilebake\nand pack it again."));
            loop {
                wait_vblank();
            }
        }
    };
    let per_byte = |cycles: u32, bytes: u32| {
        let c = tiles::ScanCycles::per_byte_100(cycles, bytes);
        (c / 100, c % 100)
    };
    let (all, crc, colours) = (
        per_byte(check_cycles, scans.crc_bytes.max(1)),
        per_byte(scans.crc, scans.crc_bytes),
        per_byte(scans.colours, scans.colour_bytes),
    );
    if scans.crc_bytes > 0 {
        log!(
            "bank {:?}: {} tiles of {} px, {} colours, checked in {} cycles ({}.{:02} cycles per byte: crc {}.{:02}, colours {}.{:02})",
            source,
            bank.tile_count(),
            bank.tile_size(),
            bank.palette_len(),
            check_cycles,
            all.0,
            all.1,
            crc.0,
            crc.1,
            colours.0,
            colours.1
        );
    } else {
        log!(
            "bank {:?}: {} tiles of {} px, {} colours, structure checked in {} cycles",
            source,
            bank.tile_count(),
            bank.tile_size(),
            bank.palette_len(),
            check_cycles
        );
    }
    // The relief: its file, baked with the built-in bank or put after a
    // packed one by `tilebake pack`; else (a ROM packed without one, or a
    // file that is not this bank's) every texel's height read once (ARM
    // code, eight texels a burst).
    let t = Cycles::now();
    let file = match source {
        tiles::Source::BuiltIn => Some(("built in", &tiles::BUILT_IN_RELIEF[..])),
        tiles::Source::Packed(_) => packed_relief.map(|f| ("packed", f)),
    };
    let loaded = match file {
        // The tops' CRC by the fast scan, its tables in object VRAM again.
        // SAFETY: as the bank's check above: the HUD loads its glyphs
        // later, no object shows those tiles, and the call does not nest.
        Some((from, bytes)) => match unsafe {
            tiles::with_obj_vram(|tables| relief.load_file_with(&bank, bytes, &tiles::FastScan::new(tables, None)))
        } {
            Ok(()) => {
                log!(
                    "relief: {}, loaded in {} cycles, top {} px, floor slope {}",
                    from,
                    t.elapsed(),
                    relief.top_px(),
                    relief.slope()
                );
                true
            }
            Err(e) => {
                log!(Level::Error, "relief ({}) refused: {}; built instead", from, e);
                // The texels' reading, left out of the bar's total.
                progress.add_work(packed_len - relief_work);
                false
            }
        },
        None => false,
    };
    if !loaded {
        let bl = flight::blocks_log2(bank.tile_size());
        let tile_bytes = 2 * bank.tile_size() * bank.tile_size();
        relief.build(&bank, |_, texels, size, out| {
            tiles::tile_tops(texels, size, bl, out);
            progress.advance(tile_bytes as u32);
        });
        let texels = bank.tile_count() * bank.tile_size() * bank.tile_size();
        let relief_cycles = t.elapsed();
        let relief_per = per_byte(relief_cycles, texels as u32);
        log!(
            "relief: {} texels in {} cycles ({}.{:02} per texel), top {} px, floor slope {}",
            texels,
            relief_cycles,
            relief_per.0,
            relief_per.1,
            relief.top_px(),
            relief.slope()
        );
    }
    log!("loading: {} cycles, progress shown {}", t.elapsed().wrapping_add(check_cycles), progress.shown());
    let mut colours = [0u16; 52];
    for (i, c) in colours.iter_mut().enumerate().take(bank.palette_len()) {
        *c = bank.colour(i);
    }
    let colours = &colours[..bank.palette_len()];

    // A bookmark from battery-backed SRAM, if a valid one is there.
    let (resume, slots) = bookmark::newest();
    log!("bookmark slots: 0 {:?}, 1 {:?}", slots[0].map(|b| b.sequence), slots[1].map(|b| b.sequence));
    let mut seed = resume.map_or(FIRST_SEED, |(_, b)| b.seed);
    let t = Cycles::now();
    let parts = Parts { world, window, cache: Some(cache), relief: Some(relief) };
    let mut land = match Landscape::new(bank, parts, seed) {
        Ok(land) => land,
        Err(e) => {
            log!(Level::Error, "bad tile bank ({:?}): {}", source, e);
            error_screen("BAD TILE BANK", format_args!("{e}\n\nRebake it with tilebake\nand pack it again."));
            loop {
                wait_vblank();
            }
        }
    };
    log_world(&land, t.elapsed());
    let mut palette = voxel::palette::build(colours, &Mood::of(seed));
    load_palette(&palette);

    // Start near the world's corner, heading diagonally: the first seconds of
    // any flight cross the wrap in both directions.
    let world_px = land.size_px();
    let mut camera = Camera { x: (world_px - 160) << 8, y: (world_px - 96) << 8, z: 0, heading: 8192, pitch: 0 };
    camera.z = (land.ground_height(camera.x >> 8, camera.y >> 8) + 80) << 8;
    land.settle(&mut camera);
    // A message on screen until this refresh.
    let mut message: Option<(&str, u32)> = None;
    if let Some((slot, b)) = resume {
        let wrap = (world_px << 8).wrapping_sub(1);
        camera = Camera { x: b.camera.x & wrap, y: b.camera.y & wrap, ..b.camera };
        land.settle(&mut camera);
        log_bookmark("resumed", slot, b.sequence, b.seed, &camera);
        message = Some(("BOOKMARK RESUMED", refresh::count().wrapping_add(MESSAGE_REFRESHES)));
        log!("message shown: BOOKMARK RESUMED");
    }

    // A 3D frame's whole-page sky fill (after a pitch move, a view change or
    // a message), timed alone for the benchmark (always the same work).
    let t = Cycles::now();
    voxel::march::sky(&mut VramTarget::new(screen.back()), 0);
    log!("sky cycles={}", t.elapsed());

    let mut keys = Keys::default();
    let mut view = View::Terrain;
    let mut hud = false;
    let mut columns = Columns::Pairs;
    let (fg, bg) = hud_colours(&palette);
    let mut hud_text = Hud::init(fg, bg);
    // The HUD text's last hand-over to the VBlank interrupt: its cycles;
    // the objects the interrupt wrote since the last frame.
    let (mut hud_show_cycles, mut hud_objects);
    // The HUD's text is written HUD_REFRESHES refreshes after its last
    // write (refresh `hud_from`), its FPS the frames drawn since
    // (`hud_frames`); `hud_toggled`: a toggle asks for the text this frame;
    // `hud_show`: a hand-over is still due (of a text written while the
    // interrupt held the last, or of the HUD's hiding): the next frame's
    // preparation makes it.
    let (mut hud_from, mut hud_frames, mut hud_toggled, mut hud_show) = (0u32, 0u32, false, false);
    // What the last write of the HUD's text took (a guess before the
    // first); the most cycles a frame took since.
    let (mut hud_write_cycles, mut hud_most) = (8_000u32, 0u32);
    // A new world's palette, loaded when its first frame is shown.
    let mut palette_due = false;
    let mut select_used = false;
    let mut frame: u32 = 0;
    let mut done = refresh::count();
    let mut window_cycles = 0u32;
    // Whether the render's set-up was timed (in the first 3D frame).
    let mut set_up_timed = false;
    // The most cycles a frame's log line took, since the last report.
    let mut log_cycles = 0u32;
    // What each page holds of the sky from its last 3D frame.
    let mut page_skies = [PageSky::new(), PageSky::new()];
    loop {
        // The next frame's preparation, none of which touches a page: the
        // keys and the flight of every refresh since the last one, the
        // window and the texel cache. It runs while the last frame's page
        // waits for its VBlank (the CPU would sleep), so that the render can
        // start as the page is shown. A frame shows the flight of at least
        // one refresh more than the last: if the last frame ended within the
        // refresh its own flight reached, the preparation waits for the next
        // (and its page shows then).
        refresh::wait_past(done);
        let now = refresh::count();
        let first = if now.wrapping_sub(done) > refresh::KEY_LOG as u32 { now - refresh::KEY_LOG as u32 } else { done };
        let refreshes = now.wrapping_sub(done);
        let t = Cycles::now();
        let mut world_cycles = 0;
        // The flight's own cycles: motion, floor and look-ahead, once a
        // refresh replayed.
        let mut flight_cycles = 0;
        let mut r = first;
        while r != now {
            r = r.wrapping_add(1);
            keys.advance(refresh::keys_at(r));
            let pressed = keys.pressed_bits();
            let held = keys.held_bits();
            // A fresh SELECT press is not used yet (before the combinations
            // below, which may use it at once: SELECT and START together).
            if pressed & bit::SELECT != 0 {
                select_used = false;
            }
            if pressed & bit::START != 0 && held & bit::SELECT != 0 {
                // SELECT + START: bookmark this world and camera.
                select_used = true;
                let (slot, b) = bookmark::save(seed, &camera);
                log_bookmark("saved", slot, b.sequence, seed, &camera);
                message = Some(("BOOKMARK SAVED", r.wrapping_add(MESSAGE_REFRESHES)));
                log!("message shown: BOOKMARK SAVED");
            } else if pressed & bit::START != 0 {
                seed = Rng::new(seed ^ r).next_u32();
                world_cycles += new_world(&mut land, seed);
                palette = voxel::palette::build(colours, &Mood::of(seed));
                // Loaded with the new world's first frame (the page shown
                // now is the old world's).
                palette_due = true;
                // A new world under the camera: onto its ground at once.
                land.settle(&mut camera);
            }
            if keys.released_bits() & bit::SELECT != 0 && !select_used {
                view = view.next();
            }
            if held & bit::SELECT == 0
                && held & (bit::L | bit::R) == bit::L | bit::R
                && pressed & (bit::L | bit::R) != 0
            {
                hud = !hud;
                // Written this frame, its first FPS this frame's own (from
                // the last frame's end), and handed over by it; hidden by
                // the next frame's preparation.
                (hud_from, hud_frames, hud_most, hud_toggled, hud_show) = (done, 0, 0, true, !hud);
            }
            if held & bit::SELECT != 0 && pressed & bit::R != 0 {
                // SELECT + R: 240 columns (one per pixel) or 120 (pairs).
                select_used = true;
                columns = if columns == Columns::Pairs { Columns::Pixels } else { Columns::Pairs };
            }
            let c = controls(&keys, &mut select_used);
            let tf = Cycles::now();
            land.fly(&mut camera, c, 1);
            flight_cycles += tf.elapsed();
        }
        done = now;
        let tw = Cycles::now();
        let up = land.follow(&camera);
        if up.tiles > 0 {
            window_cycles = tw.elapsed();
        }
        let mut cache_cycles = 0;
        let mut cache_entries = 0;
        if view != View::Map {
            let tc = Cycles::now();
            // The boundary view's lines are the cache's texels: a change of
            // view to or from it refills the cache here.
            land.mark_boundaries(view == View::Boundaries);
            cache_entries = land.follow_cache(&camera).map_or(0, |u| u.written);
            cache_cycles = tc.elapsed();
        }
        let prepare_cycles = t.elapsed() - world_cycles;
        // The last frame shown: its page is free. The HUD's text goes to the
        // VBlank interrupt, which shows it at the next VBlank.
        refresh::wait_shown();
        let th = Cycles::now();
        if hud_show && hud_text.queue(hud) {
            hud_show = false;
        }
        hud_show_cycles = th.elapsed();
        hud_objects = hud::take_written();

        // The frame: drawn into the page not shown.
        let t = Cycles::now();
        let page = screen.back();
        // The back page's number, for its memory of the sky.
        let back = screen.shown() ^ 1;
        let (mut samples, mut skipped) = (0, 0);
        // The rows the render filled with the sky first, and the sky rows
        // it repainted (3D views).
        let mut sky_work_done = None;
        match view {
            View::Terrain | View::Boundaries => {
                let options = Options { boundaries: view == View::Boundaries, columns };
                if !set_up_timed {
                    time_set_up(&mut land, &camera, options, page);
                    time_cache_lines(&mut land, &camera);
                    set_up_timed = true;
                }
                let sky = &mut page_skies[back];
                let stats = voxel::render(&land.scene(), &camera, options, &mut VramTarget::with_sky(page, sky));
                (samples, skipped) = (stats.samples, stats.skipped);
                sky_work_done = Some((stats.sky_rows_filled, stats.repainted_rows));
            }
            View::Map => {
                page_skies[back].invalidate();
                page.clear(ui::GREY);
                map::draw(page, map_land, &land.scene(), land.seed(), &camera, 56, 8);
            }
        }
        let render_cycles = t.elapsed();
        if let Some((text, until)) = message {
            if (until.wrapping_sub(now) as i32) > 0 {
                draw_message(page, text);
                page_skies[back].invalidate();
            } else {
                message = None;
            }
        }
        if hud {
            hud_frames += 1;
            let since = now.wrapping_sub(hud_from);
            let so_far = prepare_cycles + t.elapsed();
            // Due, and in a frame with room for it (its cycles so far and the
            // last write's and hand-over's within one refresh), or overdue:
            // a heavy frame leaves the text to the next (on the scripted
            // flight, a few frames in a hundred).
            if hud_toggled
                || since >= HUD_OVERDUE
                || (since >= HUD_REFRESHES && so_far + hud_show_cycles + hud_write_cycles <= CYCLES_PER_REFRESH)
            {
                // Frames per second over the refreshes since the last write
                // (59.73 refreshes a second), in tenths.
                let span = since.max(1);
                let fps_tenths = 5973 * hud_frames.min(span) / (10 * span);
                let tw = Cycles::now();
                // CYC: the most cycles of a frame since the last write (this
                // one's so far): the heavy frames a reader looks for, which
                // are not the ones with room for the text.
                write_hud(&mut hud_text, seed, &camera, fps_tenths, hud_most.max(so_far), window_cycles);
                // Handed to the interrupt at once (shown at the next
                // VBlank); if it still holds the last text, by the next
                // frame's preparation.
                hud_show = !hud_text.queue(true);
                hud_write_cycles = tw.elapsed();
                (hud_from, hud_frames, hud_most) = (now, 0, 0);
            }
        }
        hud_toggled = false;
        // A frame's cycles: its preparation (flight, window, cache), render,
        // HUD text and its hand-over (the interrupt's object writes count in
        // whatever they interrupt); a new world's cost is on its own `world`
        // line.
        let cycles = prepare_cycles + t.elapsed() + hud_show_cycles;
        hud_most = hud_most.max(cycles);
        // The page shows as soon as the switch cannot be seen (at once in
        // VBlank or while the display draws the sky rows both pages hold
        // alike, else at the next VBlank), whatever comes after.
        let horizon = voxel::render::horizon(camera.pitch);
        let mut same_rows = page_skies[back].sky_rows(horizon).min(page_skies[back ^ 1].sky_rows(horizon));
        if palette_due {
            // A new world's first frame: its palette and the page together,
            // in VBlank (the pages share no rows in either palette).
            refresh::wait_vblank();
            load_palette(&palette);
            let (fg, bg) = hud_colours(&palette);
            Hud::set_colours(fg, bg);
            (palette_due, same_rows) = (false, 0);
        }
        let shown = screen.flip(same_rows);
        let line = FrameLog {
            n: frame,
            page: back as u32,
            view,
            columns: columns.count() as u32,
            cycles,
            render: render_cycles,
            window: if up.tiles > 0 { window_cycles } else { 0 },
            window_tiles: up.tiles,
            cache: cache_cycles,
            cache_entries,
            flight: flight_cycles,
            samples,
            skipped,
            sky: sky_work_done,
            refreshes,
            hud_objects,
            shown,
            same_rows,
            seed,
            camera,
        };
        // The frame's line (by `log::Line`: through `core::fmt` it cost a
        // ninth of a refresh in mGBA; on hardware it is skipped), then the
        // next frame's preparation, both while the page waits if it does.
        // The tests stop a run at the end of the refresh that logs a
        // frame's line and read its page: the frame that draws over it (the
        // one after next) prepares only after the refresh the next one
        // prepared in (`wait_past`), so in a later refresh.
        let tl = Cycles::now();
        line.write();
        // What the line costs in mGBA, outside the frame's count: the most
        // in every 256 frames (the bench reports it).
        log_cycles = log_cycles.max(tl.elapsed());
        if frame % 256 == 255 {
            log!("frame_log max_cycles={} frames=256", log_cycles);
            log_cycles = 0;
        }
        frame = frame.wrapping_add(1);
    }
}

/// What a frame's log line says (`frame n=... page=...`: the bench and the
/// tests read it).
struct FrameLog {
    n: u32,
    page: u32,
    view: View,
    columns: u32,
    cycles: u32,
    render: u32,
    window: u32,
    window_tiles: u32,
    cache: u32,
    cache_entries: u32,
    flight: u32,
    samples: u32,
    skipped: u32,
    /// Rows filled with the sky, rows repainted (`None` in the map view).
    sky: Option<(u32, u32)>,
    refreshes: u32,
    hud_objects: u32,
    shown: refresh::Shown,
    same_rows: u32,
    seed: u32,
    camera: Camera,
}

impl FrameLog {
    fn write(&self) {
        let mut line = Line::new(Level::Debug);
        line.text("frame n=").uint(self.n).text(" page=").uint(self.page);
        line.text(" view=").uint(self.view.number()).text(" columns=").uint(self.columns);
        line.text(" cycles=").uint(self.cycles).text(" render=").uint(self.render);
        line.text(" window=").uint(self.window).text(" window_tiles=").uint(self.window_tiles);
        line.text(" cache=").uint(self.cache).text(" cache_entries=").uint(self.cache_entries);
        line.text(" flight=").uint(self.flight);
        line.text(" samples=").uint(self.samples).text(" skipped=").uint(self.skipped);
        sky_work(&mut line, self.sky).text(" refreshes=").uint(self.refreshes).text(" hud_objects=");
        line.uint(self.hud_objects).text(" shown=").text(self.shown.word()).text(" same_rows=").uint(self.same_rows);
        line.text(" ");
        place(&mut line, self.seed, &self.camera);
    }
}
