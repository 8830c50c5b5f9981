//! In-ROM tests of the hand-written ARM kernels against their portable Rust
//! twins, on random inputs, in the emulator (`tests/tests/kernels.rs` runs it):
//!
//! - the window fills (`crates/terrain/src/fill_kernels.rs`: cell blocks, partial
//!   cells, the line walker; and the corner walker in IWRAM), in windows of
//!   64 tiles a side (`windows.rs`; the `window_kernels` ROM checks 16):
//!   random worlds of both placements, random walks, jumps and new worlds;
//!   after every move each reference equals `World::tile_at`, the portable
//!   lookup; so does a random line of `Window::line` after each move (ring
//!   copies, the corner walker, the line walker into a buffer);
//! - the column march (`crates/voxel/src/march.rs`, reading the texel cache,
//!   which the cache's ARM run copy fills, `crates/voxel/src/cache.rs`):
//!   random cameras over the built-in bank, with its relief (the groups of
//!   slices its top cannot show in are skipped) and without (every height
//!   possible), in both column modes; the frame it draws equals the
//!   portable renderer's, byte for byte, and so do its samples and skipped
//!   slices. A timer interrupt renders inside most marches of 120 columns,
//!   at a random time (as a game's interrupt handler could): that render
//!   must draw nothing, and the interrupted frame stays whole
//!   (`kernels: interrupts: ...`). Frames of 120 columns go to RAM laid out as mode 4; frames of
//!   240 to VRAM itself, whose byte stores fill both pixels of a pair (what
//!   the odd pixel's halfword stores must undo); and single pixels written
//!   into VRAM pairs the way a target's `put_pixel` does, against a copy in
//!   RAM;
//! - the texel cache's line copies (`crates/voxel/src/cache.rs`: a lone
//!   line's runs, `voxel_cache_runs`; lines that cross the same tiles,
//!   `copy_lines`): every sixth frame of a flight that moves it a few lines
//!   at a time, every entry of both rings is the world's texel by the
//!   portable lookup; and the word copy of the near ring's rows
//!   (`copy_texels`) against a plain loop, at every word alignment.
//!
//! - the HUD's number writers (`rom/src/hud.rs`) against `core::fmt`, on edge
//!   and random values, both alignments, signed and hexadecimal;
//! - the log's line writer (`rom/src/log.rs`, the product's line of every
//!   frame): per value a line by it and one by `core::fmt`, which the host
//!   test compares, and a line of 288 bytes, which goes to mGBA as 255
//!   bytes and the rest, marked as such, and must reach the harness whole.
//!
//! Logs `kernels: done, N window moves, M frames (S slices skipped with the relief, T without; pixel pairs
//! filled to the top in one pixel only: E even, O odd), H HUD numbers, P pixels written into VRAM pairs,
//! C texel copies, checks ok` (or FAILED with
//! the first difference), then how many frames stepped past hidden bands
//! (`kernels: hidden bands: ...`) and the sky's figures (`kernels: sky: ...`).
#![no_std]
#![no_main]

mod windows;

use core::fmt::Write;
use gba::prelude::*;
use terrain::rng::Rng;
use terrain::{Window, World};
use terrain_rom::hud::{Align, RowWriter};
use terrain_rom::log;
use terrain_rom::log::{Level, Line};
use terrain_rom::statics::Static;
use terrain_rom::text::COLUMNS;
use voxel::cache::TexelCache;
use voxel::flight::{PER_TILE, Relief, tile_tops};
use voxel::{Camera, Columns, Frame, Landscape, Options, Parts, Target};

static WORLD: Static<World> = Static::new(World::empty());
static W64: Static<Window<64>> = Static::new(Window::new());
static CACHE: Static<TexelCache> = Static::new(TexelCache::new());
static RELIEF: Static<Relief> = Static::new(Relief::new());
static PORTABLE: Static<Frame> = Static::new(Frame([0; 240 * 160]));
static FAST: Static<Page> = Static::new(Page([0; 240 * 160]));

/// A page's bytes, word aligned (the sky is stored by word).
#[repr(C, align(4))]
struct Page([u8; 240 * 160]);

/// A frame with mode 4's layout, drawn by the fast path, with or without a
/// memory of its sky: in RAM a byte store
/// writes the even byte of a pixel pair only, so the even bytes are the
/// frame; in VRAM (page 0, for frames of 240 columns) it fills the pair, as
/// on screen. (`put_pixel`'s byte store is right in RAM only; the test draws
/// into VRAM through the march alone, whose odd pixels store halfwords.)
struct RamPage<'a>(usize, Option<&'a mut voxel::PageSky>);

// SAFETY: `RamPage` wraps the address of a 38,400-byte static (`FAST`) or of
// mode 4 VRAM page 0, word aligned, laid out as a mode 4 page.
unsafe impl Target for RamPage<'_> {
    #[instruction_set(arm::a32)]
    #[inline(always)]
    fn put(&mut self, col: usize, y: usize, c: u8) {
        if col < 120 && y < 160 {
            // SAFETY: inside the 38,400-byte buffer.
            unsafe { *((self.0 + y * 240 + 2 * col) as *mut u8) = c };
        }
    }

    #[instruction_set(arm::a32)]
    #[inline(always)]
    fn put_pixel(&mut self, x: usize, y: usize, c: u8) {
        if x < 240 && y < 160 {
            // SAFETY: inside the 38,400-byte buffer.
            unsafe { *((self.0 + y * 240 + x) as *mut u8) = c };
        }
    }

    #[instruction_set(arm::a32)]
    #[inline(always)]
    fn vram_column(&self, col: usize) -> Option<usize> {
        Some(self.0 + 2 * col)
    }

    #[instruction_set(arm::a32)]
    #[inline(always)]
    fn page_sky(&mut self) -> Option<&mut voxel::PageSky> {
        self.1.as_deref_mut()
    }
}

/// Random cameras over the built-in bank: the march (fast path, through the
/// texel cache) against the portable renderer, with the bank's relief and
/// without. A third of the frames are low and steep (at the flight's
/// clearance, the horizon raised 35 to 50 rows, looking down; 240 columns):
/// ground above the eye fills columns to the top there, and pairs whose one
/// pixel does while the other stays open at row 0 test the odd pixel's early
/// exit and its sky rows from the top.
/// Returns the frames checked, the slices the march skipped with the relief
/// and without, and the pixel pairs filled to the top in the even pixel
/// only and in the odd one only.
fn frames(rng: &mut Rng, world: &mut World, window: &mut Window<64>, count: u32) -> Option<Drawn> {
    let progress = terrain_rom::progress::Progress::new("KERNELS", 0, 1);
    // SAFETY: this ROM shows no objects and writes no object tiles; one call.
    let (_, parsed, _) =
        unsafe { terrain_rom::tiles::with_obj_vram(|tables| terrain_rom::tiles::load(tables, &progress)) };
    let bank = parsed.ok()?;
    let cache = CACHE.take();
    let portable = PORTABLE.take();
    let fast = &mut FAST.take().0;
    let mut skipped = [0; 2];
    let mut one_full = [0; 2];
    let mut stepped = [0; 3];
    let mut interrupts = [0; 2];
    // The relief as the ROM builds it for a packed bank (ARM code), against
    // the portable build: the renderer trusts its top.
    let relief = RELIEF.take();
    let bl = voxel::flight::blocks_log2(bank.tile_size());
    let mut differ = None;
    relief.build(&bank, |t, texels, n, out| {
        terrain_rom::tiles::tile_tops(texels, n, bl, out);
        let mut want = [0; PER_TILE];
        tile_tops(texels, n, &mut want);
        if *out != want && differ.is_none() {
            differ = Some(t);
        }
    });
    if let Some(t) = differ {
        log!("kernels: relief FAILED: tile {}: the ARM block tops differ from the portable ones", t);
        return None;
    }
    // Half the frames with the bank's relief (its top bounds the skips), half
    // without (any height: fewer skips).
    for (half, relief) in [Some(&*relief), None].into_iter().enumerate() {
        let parts = Parts { world: &mut *world, window: &mut *window, cache: Some(&mut *cache), relief };
        let mut land = Landscape::new(bank, parts, 0).ok()?;
        for k in 0..count / 2 {
            let seed = rng.next_u32();
            // A new world empties the cache: the first render below is the
            // portable renderer's, reading the window and the bank.
            land.new_world(seed);
            let mut camera = random_camera(rng, land.size_px());
            camera.pitch = (rng.next_u32() % 101) as i16 - 50;
            land.follow(&camera);
            let steep = k >= count / 3;
            let above = if steep { voxel::flight::CLEARANCE } else { 12 + (rng.next_u32() % 400) as i32 };
            camera.z = (land.ground_height(camera.x >> 8, camera.y >> 8) + above) << 8;
            if steep {
                camera.pitch = 5 * (k - count / 3) as i16 - 50;
            }
            let columns = if k % 4 >= 2 || steep { Columns::Pixels } else { Columns::Pairs };
            let options = Options { boundaries: k % 3 == 2, columns };
            if land.cache().is_some_and(|c| c.is_valid()) {
                log!("kernels: march FAILED: the cache was not emptied by a new world");
                return None;
            }
            let slow = voxel::render(&land.scene(), &camera, options, portable);
            land.mark_boundaries(options.boundaries);
            land.follow_cache(&camera)?;
            let vram = terrain_rom::video::Page::new(0);
            let quick = if columns == Columns::Pairs {
                // A render the march's interrupt makes draws nothing, and
                // this frame is whole.
                let page = &mut RamPage(fast.as_mut_ptr() as usize, None);
                interrupts[1] += 1;
                let ticks = INTERRUPT_TICKS.start + rng.next_u32() % INTERRUPT_TICKS.len() as u32;
                let (quick, inner) = interrupted(&land.scene(), &camera, options, page, ticks);
                match inner {
                    Some(s) if s == voxel::Stats::default() => interrupts[0] += 1,
                    None => {} // the frame ended first
                    Some(s) => {
                        log!("kernels: march FAILED: a render inside the march returned {:?}", s);
                        return None;
                    }
                }
                quick
            } else {
                let quick = voxel::render(&land.scene(), &camera, options, &mut RamPage(vram.as_ptr() as usize, None));
                read_page(vram, fast);
                quick
            };
            if (quick.samples, quick.skipped) != (slow.samples, slow.skipped) {
                log!(
                    "kernels: march FAILED: seed={:#x} camera {:?} relief={}: {} samples and {} skipped by the march, {} and {} by the portable renderer",
                    seed,
                    camera,
                    relief.is_some(),
                    quick.samples,
                    quick.skipped,
                    slow.samples,
                    slow.skipped
                );
                return None;
            }
            // No sky to keep (no `PageSky`): the whole page was filled with
            // the sky first, and no column repaints any.
            if quick.repainted_rows != 0 {
                log!("kernels: march FAILED: {} sky rows repainted without a PageSky", quick.repainted_rows);
                return None;
            }
            skipped[half] += quick.skipped;
            // Bands every column stepped past at once (their groups are
            // skipped, not passed by a test): into a near band, into a far
            // one, or past all six.
            let hidden = (quick.skipped / 8 - quick.passed_groups) / (2 * columns.count() as u32);
            if hidden > 0 {
                stepped[(hidden >= 3) as usize + (hidden >= 6) as usize] += 1;
            }
            if columns == Columns::Pixels {
                let sky = voxel::palette::SKY_BASE..voxel::palette::SKY_BASE + voxel::palette::SKY_LEN;
                for c in 0..120 {
                    match (sky.contains(&portable.0[2 * c]), sky.contains(&portable.0[2 * c + 1])) {
                        (false, true) => one_full[0] += 1,
                        (true, false) => one_full[1] += 1,
                        _ => {}
                    }
                }
            }
            // 120 columns: the even byte of each pair (RAM does not mirror
            // byte stores); 240: every byte.
            let step = 240 / columns.count();
            for y in 0..160 {
                for x in (0..240).step_by(step) {
                    let (a, b) = (fast[y * 240 + x], portable.0[y * 240 + x]);
                    if a != b {
                        log!(
                            "kernels: march FAILED: seed={:#x} camera {:?} boundaries={} columns={} relief={}: pixel ({}, {}) is {} by the march, {} by the portable renderer",
                            seed,
                            camera,
                            options.boundaries,
                            columns.count(),
                            relief.is_some(),
                            x,
                            y,
                            a,
                            b
                        );
                        return None;
                    }
                }
            }
        }
    }
    let parts = Parts { world: &mut *world, window: &mut *window, cache: Some(&mut *cache), relief: Some(&*relief) };
    let mut land = Landscape::new(bank, parts, rng.next_u32()).ok()?;
    let repainted = repaints(rng, &mut land, portable, fast, 2 * count)?;
    Some(Drawn { frames: count, skipped, one_full, stepped, repainted, interrupts })
}

/// A camera anywhere over a world `world_px` wide, at any heading, at
/// altitude 0 and pitch 0.
fn random_camera(rng: &mut Rng, world_px: u32) -> Camera {
    // Anywhere, to the 256th of a pixel (the march's packed positions round
    // each step and start from the exact one: its fraction matters).
    let x = (rng.next_u32() % world_px) << 8 | (rng.next_u32() & 255);
    let y = (rng.next_u32() % world_px) << 8 | (rng.next_u32() & 255);
    Camera { x, y, z: 0, heading: rng.next_u32() as u16, pitch: 0 }
}

/// Copies VRAM page `page` into `out`, a halfword at a time (VRAM's reads
/// as the display would see them).
fn read_page(page: terrain_rom::video::Page, out: &mut [u8; 240 * 160]) {
    for (i, pair) in out.chunks_exact_mut(2).enumerate() {
        // SAFETY: a mode 4 page holds 19,200 halfwords.
        let v = unsafe { page.as_ptr().add(i).read_volatile() };
        (pair[0], pair[1]) = (v as u8, (v >> 8) as u8);
    }
}

/// What [`frames`] checked.
struct Drawn {
    /// Frames drawn by both renderers from random cameras.
    frames: u32,
    /// Slices the march skipped with the relief and without.
    skipped: [u32; 2],
    /// Pixel pairs filled to the top in the even pixel only, in the odd only.
    one_full: [u32; 2],
    /// Frames whose columns stepped past hidden bands into a near band, into
    /// a far band, and past all six (`render::hidden_bands`).
    stepped: [u32; 3],
    /// From [`repaints`]: frames, the frames that repainted their sky, the
    /// sky rows they repainted, whole-page fills, fills of part of the page.
    repainted: [u32; 5],
    /// Frames of 120 columns a timer interrupt rendered inside (drawing
    /// nothing), and such frames in all (the others ended first).
    interrupts: [u32; 2],
}

/// Every entry of both rings of `land`'s texel cache, which the flight
/// moved a few lines at a time (the ARM run copy of `voxel::cache`), is the
/// world's texel round `camera` (near: texel (x, y); far: texel (2x, 2y)),
/// by the portable lookup; `k` names the frame in the log.
fn cache_holds_the_world(land: &Landscape<'_, 64>, camera: &Camera, k: u32) -> Option<()> {
    use voxel::cache::{FAR, FAR_AHEAD, FAR_RADIUS, NEAR, NEAR_AHEAD, NEAR_RADIUS, centre};
    let cache = land.cache()?;
    let (px, py) = (camera.x >> 8, camera.y >> 8);
    // The boundary view's marks: texels on tile borders in its colour.
    let in_tile = (1u32 << (land.tile_px_log2() - voxel::render::TEXEL_SHIFT)) - 1;
    for (ahead, radius, side, shift) in [(NEAR_AHEAD, NEAR_RADIUS, NEAR, 2), (FAR_AHEAD, FAR_RADIUS, FAR, 3)] {
        let ring: &[u16] = if side == NEAR { cache.near() } else { cache.far() };
        let (cx, cy) = centre(px, py, camera.heading, ahead);
        let (x0, y0) = ((cx >> shift).wrapping_sub(radius), (cy >> shift).wrapping_sub(radius));
        for j in 0..2 * radius {
            for i in 0..2 * radius {
                let (x, y) = (x0.wrapping_add(i), y0.wrapping_add(j));
                let got = ring[(y as usize & (side - 1)) * side + (x as usize & (side - 1))];
                let (h, mut c) = land.texel(x << shift, y << shift);
                let (tx, ty) = ((x << shift) >> voxel::render::TEXEL_SHIFT, (y << shift) >> voxel::render::TEXEL_SHIFT);
                if cache.marks() && voxel::render::on_border(tx & in_tile, ty & in_tile, side == FAR) {
                    c = voxel::palette::MARK;
                }
                if got != bank::texel(h, c) {
                    log!(
                        "kernels: cache FAILED: frame {} camera {:?}: {} ring entry ({}, {}) is {:#06x}, the world's texel {:#06x}",
                        k,
                        camera,
                        if side == NEAR { "near" } else { "far" },
                        x,
                        y,
                        got,
                        bank::texel(h, c)
                    );
                    return None;
                }
            }
        }
    }
    Some(())
}

/// A flight of `count` frames drawn by the product's target into one VRAM
/// page (page 0: in the kernels ROM's display mode, tiles, byte stores to page 1's last
/// rows would go to object VRAM, which ignores them) that remembers its sky (`voxel::PageSky`), each compared,
/// every byte, with the portable render of the same camera: frames that
/// repaint only the sky that changed must equal frames drawn whole. The
/// flight goes forward, turns, climbs and dives (column tops move up and
/// down); every 7th frame moves the pitch (the sky filled first, part of the
/// page or all of it), every 10th switches the column mode, and every 4th of
/// 8 shows the boundary view. Returns the frames, the frames that repainted,
/// the rows they repainted, the whole-page fills and the fills of part of
/// the page.
fn repaints(
    rng: &mut Rng,
    land: &mut Landscape<'_, 64>,
    portable: &mut Frame,
    fast: &mut [u8; 240 * 160],
    count: u32,
) -> Option<[u32; 5]> {
    let mut camera = random_camera(rng, land.size_px());
    land.follow(&camera);
    land.settle(&mut camera);
    let mut sky = voxel::PageSky::new();
    let page = terrain_rom::video::Page::new(0);
    let (mut repainting, mut rows, mut fills, mut partial) = (0, 0, 0, 0);
    let mut columns = Columns::Pairs;
    let mut climb = 1i8;
    for k in 0..count {
        if k % 8 == 0 {
            // Climb for a while, then dive: tops rise and fall.
            climb = if rng.next_u32() & 1 == 0 { 1 } else { -1 };
        }
        let controls = voxel::flight::Controls {
            forward: 1,
            turn: (rng.next_u32() % 3) as i8 - 1,
            strafe: 0,
            climb,
            pitch: if k % 7 == 6 { (rng.next_u32() % 3) as i8 - 1 } else { 0 },
        };
        land.fly(&mut camera, controls, 2);
        if k % 10 == 9 {
            columns = if columns == Columns::Pairs { Columns::Pixels } else { Columns::Pairs };
        }
        let options = Options { boundaries: k % 8 >= 4, columns };
        land.follow(&camera);
        land.mark_boundaries(options.boundaries);
        land.follow_cache(&camera)?;
        if k % 6 == 5 {
            cache_holds_the_world(land, &camera, k)?;
        }
        let quick =
            voxel::render(&land.scene(), &camera, options, &mut RamPage(page.as_ptr() as usize, Some(&mut sky)));
        // The target has no `vram_column`: the reference path.
        voxel::render(&land.scene(), &camera, options, &mut *portable);
        match quick.sky_rows_filled {
            0 => {}
            160 => fills += 1,
            _ => partial += 1,
        }
        if quick.repainted_rows > 0 {
            repainting += 1;
            rows += quick.repainted_rows;
        }
        read_page(page, fast);
        if let Some(i) = (0..fast.len()).find(|&i| fast[i] != portable.0[i]) {
            log!(
                "kernels: sky repaint FAILED: frame {} camera {:?} boundaries={} columns={} filled={}: pixel ({}, {}) is {} on the page, {} by the portable renderer",
                k,
                camera,
                options.boundaries,
                columns.count(),
                quick.sky_rows_filled,
                i % 240,
                i / 240,
                fast[i],
                portable.0[i]
            );
            return None;
        }
    }
    Some([count, repainting, rows, fills, partial])
}

/// A row of text written by `core::fmt`.
struct FmtRow {
    bytes: [u8; COLUMNS],
    len: usize,
}

impl core::fmt::Write for FmtRow {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for &b in s.as_bytes() {
            if self.len < COLUMNS {
                self.bytes[self.len] = b;
                self.len += 1;
            }
        }
        Ok(())
    }
}

/// The HUD's number writers against `core::fmt`'s `{:<w$}`, `{:>w$}` and
/// `{:08X}`, on edge values and random ones. Returns the numbers checked.
fn hud_numbers(rng: &mut Rng) -> Option<u32> {
    // Text: a `?` per character outside printable ASCII (two and three
    // UTF-8 bytes, a control character), as `chars()` would count them.
    let mut ours = [0u8; COLUMNS];
    RowWriter::new(&mut ours).text("\u{e9}\u{2013}x\u{7}~\u{1F600}");
    if !ours.starts_with(b"??x?~? ") {
        log!("kernels: hud FAILED: text {:?}", core::str::from_utf8(&ours).unwrap_or("?"));
        return None;
    }
    let edges =
        [0, 1, 9, 10, 99, 100, 12_345, 65_535, 65_536, 81_919, 99_999, 100_000, 999_999_999, 1_000_000_000, u32::MAX];
    let mut checked = 0;
    for k in 0..64 {
        let v = if k < edges.len() { edges[k] } else { rng.next_u32() >> (rng.next_u32() % 32) };
        let s = if k % 2 == 0 { v as i32 } else { (v as i32).wrapping_neg() };
        let s = if k == 16 { i32::MIN } else { s };
        let width = k % 12;
        for case in 0..5 {
            let mut ours = [0u8; COLUMNS];
            let mut theirs = FmtRow { bytes: [b' '; COLUMNS], len: 0 };
            {
                let mut w = RowWriter::new(&mut ours);
                let align = if case % 2 == 0 { Align::Left } else { Align::Right };
                match case {
                    0 | 1 => w.uint(v, width, align),
                    2 | 3 => w.int(s, width, align),
                    _ => w.hex8(v),
                };
                let _ = match case {
                    0 => write!(theirs, "{v:<width$}"),
                    1 => write!(theirs, "{v:>width$}"),
                    2 => write!(theirs, "{s:<width$}"),
                    3 => write!(theirs, "{s:>width$}"),
                    _ => write!(theirs, "{v:08X}"),
                };
            }
            if ours != theirs.bytes {
                log!(
                    "kernels: hud FAILED: case {} of {} ({}), width {}: {:?} by the HUD, {:?} by core::fmt",
                    case,
                    v,
                    s,
                    width,
                    core::str::from_utf8(&ours).unwrap_or("?"),
                    core::str::from_utf8(&theirs.bytes).unwrap_or("?")
                );
                return None;
            }
            checked += 1;
        }
    }
    Some(checked)
}

/// The log's own number writers ([`Line`], the product's line of every
/// frame) against `core::fmt`: per value, a line by each, `kernels: line
/// ours ...` and `kernels: line fmt ...`, which the host test compares; then
/// one line of 288 bytes, which mGBA gets in two messages (255 bytes, then
/// the rest, marked as the line's rest) and the harness joins: `kernels:
/// long` and the numbers 1000 to 1054.
fn log_lines(rng: &mut Rng) {
    let edges = [0, 9, 10, 65_535, 65_536, 81_919, 81_920, 4_294_967_295];
    for k in 0..16 {
        let v = if k < edges.len() { edges[k] } else { rng.next_u32() >> (rng.next_u32() % 32) };
        let s = if k % 2 == 0 { v as i32 } else { (v as i32).wrapping_neg() };
        let s = if k == 3 { i32::MIN } else { s };
        Line::new(Level::Info).text("kernels: line ours ").uint(v).text(" ").int(s).text(" ").hex(v);
        log!("kernels: line fmt {} {} {:#010x}", v, s, v);
    }
    let mut line = Line::new(Level::Info);
    line.text("kernels: long");
    for n in 1000..1055 {
        line.text(" ").uint(n);
    }
}

/// `voxel::render::put_in_pair` (what a target's `put_pixel` writes VRAM
/// with) on mode 4 VRAM itself, where a byte store would fill both pixels:
/// random pixels of 64 pairs of page 1 written one at a time, against a copy
/// in RAM. Returns the pixels written.
fn pixels_in_pairs(rng: &mut Rng) -> Option<u32> {
    let page = terrain_rom::video::Page::new(1).as_ptr();
    let mut model = [0u8; 128];
    for (i, pair) in model.chunks_exact_mut(2).enumerate() {
        let v = rng.next_u32() as u16;
        (pair[0], pair[1]) = (v as u8, (v >> 8) as u8);
        // SAFETY: page 1 of mode 4 VRAM holds 19,200 halfwords.
        unsafe { page.add(i).write_volatile(v) };
    }
    let writes = 256;
    for _ in 0..writes {
        let x = (rng.next_u32() % 128) as usize;
        let c = rng.next_u32() as u8;
        // SAFETY: a halfword of VRAM page 1 (x < 128).
        unsafe { voxel::render::put_in_pair(page.add(x / 2) as usize, x & 1 == 1, c) };
        model[x] = c;
    }
    for (i, pair) in model.chunks_exact(2).enumerate() {
        // SAFETY: as above.
        let v = unsafe { page.add(i).read_volatile() };
        if (v as u8, (v >> 8) as u8) != (pair[0], pair[1]) {
            log!("kernels: pixels FAILED: pair {} is {:#06x} in VRAM, {:02x}{:02x} written", i, v, pair[1], pair[0]);
            return None;
        }
    }
    Some(writes)
}

/// The render a timer interrupt makes while the march runs (a game's
/// interrupt handler could): the scene's address, the camera, the page to
/// draw into, and what that render returned (nothing must be drawn: the
/// march holds its statics). Set before the timer starts; the handler alone
/// writes `got`, read after the march.
struct Interrupting {
    scene: usize,
    camera: Camera,
    /// The interrupted render's (the boundary view's marks must match the
    /// cache's for the march's path).
    options: Options,
    page: usize,
    got: Option<voxel::Stats>,
}

static mut INTERRUPTING: Option<Interrupting> = None;

/// When the timer interrupts the render, in ticks of 64 cycles: from 12,800
/// cycles in (past the dispatch, into the march's set-up) to 204,800 (the
/// column loop of most frames; past a short frame's end, the timer is
/// stopped before it fires).
const INTERRUPT_TICKS: core::ops::Range<u32> = 200..3200;

extern "C" fn on_timer(bits: IrqBits) {
    if bits.timer0() {
        TIMER0_CONTROL.write(TimerControl::new());
        // SAFETY: `frames` set it before it started the timer and reads it
        // after the render; the main loop does not run meanwhile.
        #[allow(clippy::deref_addrof)] // the raw pointer is the sanctioned way to a `static mut`
        let interrupting = unsafe { &mut *(&raw mut INTERRUPTING) };
        if let Some(i) = interrupting.as_mut() {
            // SAFETY: the address of the scene the interrupted render reads,
            // alive until that render returns.
            let scene = unsafe { &*(i.scene as *const voxel::Scene<'_, 64>) };
            i.got = Some(voxel::render(scene, &i.camera, i.options, &mut RamPage(i.page, None)));
        }
    }
}

/// `voxel::render` of `scene` into `page`, interrupted `ticks` (of 64
/// cycles) in by a render of its own into VRAM page 0, unless it ends first;
/// returns the render's stats and what the interrupting render returned, if
/// it ran.
fn interrupted(
    scene: &voxel::Scene<'_, 64>,
    camera: &Camera,
    options: Options,
    page: &mut RamPage<'_>,
    ticks: u32,
) -> (voxel::Stats, Option<voxel::Stats>) {
    let other = terrain_rom::video::Page::new(0).as_ptr() as usize;
    let i = Interrupting {
        scene: scene as *const voxel::Scene<'_, 64> as usize,
        camera: *camera,
        options,
        page: other,
        got: None,
    };
    // SAFETY: the timer is off: nothing else touches it.
    unsafe { (&raw mut INTERRUPTING).write_volatile(Some(i)) };
    let (handler, enabled) = (RUST_IRQ_HANDLER.read(), IE.read());
    RUST_IRQ_HANDLER.write(Some(on_timer));
    IE.write(enabled.with_timer0(true));
    TIMER0_RELOAD.write((ticks as u16).wrapping_neg());
    TIMER0_CONTROL.write(TimerControl::new().with_scale(TimerScale::_64).with_overflow_irq(true).with_enabled(true));
    let stats = voxel::render(scene, camera, options, page);
    TIMER0_CONTROL.write(TimerControl::new());
    IE.write(enabled);
    RUST_IRQ_HANDLER.write(handler);
    // SAFETY: the timer is off again.
    let got = unsafe { (&raw mut INTERRUPTING).replace(None) };
    (stats, got.and_then(|i| i.got))
}

/// Halfwords in ROM (`.rodata`), for [`texel_copies`].
static ROM_HALVES: [u16; 64] = {
    let mut t = [0u16; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (i as u16).wrapping_mul(0x9E37) ^ 0x5A5A;
        i += 1;
    }
    t
};

/// The texel cache's word copy (`voxel::cache::copy_texels`) against a
/// plain loop: random runs of 0 to 40 texels between random places of two
/// buffers (each place's word alignment random: the same for both, a
/// halfword to a word boundary first, or not, a halfword at a time), from
/// ROM (as the cache copies a bank's texels) and from RAM. Returns the
/// copies checked.
fn texel_copies(rng: &mut Rng) -> Option<u32> {
    let rom = &ROM_HALVES;
    let mut ram = [0u16; 64];
    for t in ram.iter_mut() {
        *t = rng.next_u32() as u16;
    }
    let copies = 256;
    for k in 0..copies {
        let n = (rng.next_u32() % 41) as usize;
        let (from, to) = ((rng.next_u32() % 24) as usize, (rng.next_u32() % 24) as usize);
        let src: &[u16] = if k % 2 == 0 { &rom[from..from + n] } else { &ram[from..from + n] };
        let mut dst = [0xDEADu16; 72];
        voxel::cache::copy_texels(&mut dst[to..to + n], src);
        let bad = (0..72).find(|&i| dst[i] != if (to..to + n).contains(&i) { src[i - to] } else { 0xDEAD });
        if let Some(i) = bad {
            log!("kernels: texel copy FAILED: {} texels from {} to {}: entry {} is {:#06x}", n, from, to, i, dst[i]);
            return None;
        }
    }
    Some(copies)
}

#[unsafe(no_mangle)]
extern "C" fn main() -> ! {
    terrain_rom::init();
    log!("kernels: start");
    let mut rng = Rng::new(0x5EED);
    let world = WORLD.take();
    let w64 = W64.take();
    let large = windows::windows(&mut rng, world, w64, 6);
    let drawn = frames(&mut rng, world, w64, 24);
    let numbers = hud_numbers(&mut rng);
    let pixels = pixels_in_pairs(&mut rng);
    let copies = texel_copies(&mut rng);
    log_lines(&mut rng);
    match (large, drawn, numbers, pixels, copies) {
        (Some(a), Some(d), Some(h), Some(p), Some(c)) => {
            // The done line last: the tests stop the run on it.
            log!(
                "kernels: hidden bands: {} frames stepped past them into a near band, {} into a far one, {} past all",
                d.stepped[0],
                d.stepped[1],
                d.stepped[2]
            );
            log!(
                "kernels: interrupts: {} of {} frames of 120 columns rendered inside by a timer interrupt, which drew nothing",
                d.interrupts[0],
                d.interrupts[1]
            );
            log!(
                "kernels: sky: {} frames on a page that remembers its sky ({} repainted {} rows, {} filled it whole, {} filled part of it)",
                d.repainted[0],
                d.repainted[1],
                d.repainted[2],
                d.repainted[3],
                d.repainted[4]
            );
            log!(
                "kernels: done, {} window moves, {} frames ({} slices skipped with the relief, {} without; pixel pairs filled to the top in one pixel only: {} even, {} odd), {} HUD numbers, {} pixels written into VRAM pairs, {} texel copies, checks ok",
                a,
                d.frames,
                d.skipped[0],
                d.skipped[1],
                d.one_full[0],
                d.one_full[1],
                h,
                p,
                c
            );
        }
        _ => log!("kernels: done, checks FAILED"),
    }
    loop {
        terrain_rom::wait_vblank();
    }
}
