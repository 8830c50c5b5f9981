//! The reference renderer on the host: every pixel drawn, deterministic,
//! flying never goes below the ground.

use proptest::prelude::*;
use std::sync::OnceLock;
use terrain::{Window, World};
use voxel::cache::TexelCache;
use voxel::flight::{CLEARANCE, CLIMB, Controls, Relief};
use voxel::palette;
use voxel::{Camera, Frame, Landscape, Options, Parts, Scene, render};

/// A small bank: 4 tiles of 32 px, heights in ridges, 3 colours, one world
/// pixel per height unit.
fn bank_bytes() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| bank_with_scale(bank::HEIGHT_SCALE_ONE))
}

fn bank_with_scale(height_scale: u16) -> Vec<u8> {
    {
        let mut texels = Vec::new();
        for t in 0..4u32 {
            for y in 0..32u32 {
                for x in 0..32u32 {
                    let h = ((x * 7 + y * 3 + t * 50) % 200) as u8;
                    texels.push(bank::texel(h, ((x / 8 + t) % 3) as u8));
                }
            }
        }
        let palette = [0x03E0, 0x7C00, 0x001F];
        let placement = bank::Placement::Paper;
        bank::encode(&bank::Contents { tile_size: 32, palette: &palette, tiles: &texels, placement, height_scale })
            .unwrap()
    }
}

/// The memory of a landscape, on the heap.
#[derive(Default)]
struct Memory {
    world: Box<World>,
    window: Box<Window<64>>,
    cache: Box<TexelCache>,
}

impl Memory {
    /// The world of `seed` drawn with `bank`, in this memory (with the
    /// texel cache if `cache`, with `relief` if given).
    fn land<'a>(&'a mut self, bank: &'a [u8], seed: u32, cache: bool, relief: Option<&'a Relief>) -> Landscape<'a, 64> {
        let cache = if cache { Some(&mut *self.cache) } else { None };
        let parts = Parts { world: &mut self.world, window: &mut self.window, cache, relief };
        Landscape::new(bank::parse(bank).unwrap(), parts, seed).unwrap()
    }
}

fn frame_of(seed: u32, camera: Camera, options: Options) -> Frame {
    let mut memory = Memory::default();
    let mut land = memory.land(bank_bytes(), seed, false, None);
    let mut frame = Frame([0xEE; 240 * 160]);
    land.render(&camera, options, &mut frame);
    frame
}

fn camera() -> Camera {
    Camera { x: 1000 << 8, y: 2000 << 8, z: 500 << 8, heading: 5000, pitch: 0 }
}

#[test]
fn every_pixel_is_drawn_and_pairs_match() {
    for (cam, opts) in [
        (camera(), Options::default()),
        (Camera { z: 40 << 8, pitch: 40, ..camera() }, Options { boundaries: true, ..Options::default() }),
        (Camera { z: 690 << 8, pitch: -50, heading: 60000, ..camera() }, Options::default()),
    ] {
        let f = frame_of(7, cam, opts);
        assert!(!f.0.contains(&0xEE), "{cam:?}: a pixel was left undrawn");
        assert!(f.0.chunks_exact(2).all(|p| p[0] == p[1]), "columns are two pixels wide");
        let sky = f.0.iter().filter(|&&c| (palette::SKY_BASE..palette::TERRAIN_BASE).contains(&c)).count();
        let ground = f.0.iter().filter(|&&c| c >= palette::TERRAIN_BASE).count();
        assert!(ground > 0, "{cam:?}: no ground");
        assert!(sky > 0 || cam.z < 100 << 8, "{cam:?}: no sky from up high");
    }
}

/// The counters add up: every pixel pair is terrain or sky, every span is a
/// draw, and the spans' rows are the terrain's.
#[test]
fn counters_add_up() {
    let mut memory = Memory::default();
    let mut land = memory.land(bank_bytes(), 7, false, None);
    let cam = camera();
    let mut frame = Frame::default();
    let stats = land.render(&cam, Options::default(), &mut frame);
    assert_eq!(stats.span_rows + stats.sky_rows, 120 * 160);
    assert!(stats.draws > 120 && stats.draws <= stats.samples, "{stats:?}");
    let sky_entries = voxel::palette::SKY_BASE..voxel::palette::SKY_BASE + voxel::palette::SKY_LEN;
    let sky = frame.0.iter().filter(|&&c| sky_entries.contains(&c)).count() as u32;
    assert_eq!(sky, 2 * stats.sky_rows, "sky pixels are the sky rows' pairs");
}

/// Over flat ground, the boundary view's marks are the tile grid's lines:
/// they join into long groups (one holding a quarter of all marks or more, 12
/// marks a group or more on average), not scattered dots (the old marks,
/// wherever a sample happened to land within a width of a border: about 6 a
/// group, the largest 6% of them, in the first of these views).
#[test]
fn boundaries_are_lines_on_the_ground() {
    let texels: Vec<u16> = (0..4 * 32 * 32).map(|i| bank::texel(40, (i / 1024 % 3) as u8)).collect();
    let bytes = bank::encode(&bank::Contents {
        tile_size: 32,
        palette: &[0x03E0, 0x7C00, 0x001F],
        tiles: &texels,
        placement: bank::Placement::Paper,
        height_scale: bank::HEIGHT_SCALE_ONE,
    })
    .unwrap();
    let mut memory = Memory::default();
    let mut land = memory.land(&bytes, 7, false, None);
    for (heading, pitch, z) in [(5000u16, -50i16, 200), (20000, 0, 120), (40000, -30, 400)] {
        let cam = Camera { heading, pitch, z: z << 8, ..camera() };
        let mut frame = Frame::default();
        land.render(&cam, Options { boundaries: true, ..Options::default() }, &mut frame);
        let marked: Vec<bool> = frame.0.iter().map(|&c| voxel::palette::is_mark(c)).collect();
        let total = marked.iter().filter(|m| **m).count();
        let mut seen = vec![false; marked.len()];
        let mut groups = Vec::new();
        for start in 0..marked.len() {
            if !marked[start] || seen[start] {
                continue;
            }
            let (mut stack, mut size) = (vec![start], 0);
            seen[start] = true;
            while let Some(i) = stack.pop() {
                size += 1;
                let (x, y) = ((i % 240) as i32, (i / 240) as i32);
                for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
                    let (nx, ny) = (x + dx, y + dy);
                    if (0..240).contains(&nx) && (0..160).contains(&ny) {
                        let j = (ny * 240 + nx) as usize;
                        if marked[j] && !seen[j] {
                            seen[j] = true;
                            stack.push(j);
                        }
                    }
                }
            }
            groups.push(size);
        }
        groups.sort_unstable();
        let largest = groups.last().copied().unwrap_or(0);
        assert!(
            total > 300 && largest * 4 > total && total > 12 * groups.len(),
            "heading {heading} pitch {pitch}: {total} marks in {} groups, the largest {largest}",
            groups.len()
        );
    }
}

#[test]
fn boundaries_add_boundary_pixels() {
    let plain = frame_of(7, camera(), Options::default());
    let marked = frame_of(7, camera(), Options { boundaries: true, ..Options::default() });
    assert!(!plain.0.iter().any(|&c| voxel::palette::is_mark(c)));
    assert!(marked.0.iter().filter(|&&c| voxel::palette::is_mark(c)).count() > 200);
}

#[test]
fn same_inputs_same_frame_and_the_world_shows() {
    assert!(frame_of(7, camera(), Options::default()) == frame_of(7, camera(), Options::default()));
    assert!(frame_of(7, camera(), Options::default()) != frame_of(8, camera(), Options::default()));
    let turned = Camera { heading: 20000, ..camera() };
    assert!(frame_of(7, camera(), Options::default()) != frame_of(7, turned, Options::default()));
}

/// The height scale multiplies every height, on the ground and on screen.
#[test]
fn height_scale_stretches_the_relief() {
    let cam = camera();
    let twice_bytes = bank_with_scale(512);
    let (mut one, mut two) = (Memory::default(), Memory::default());
    let (mut one, mut twice) = (one.land(bank_bytes(), 7, false, None), two.land(&twice_bytes, 7, false, None));
    one.follow(&cam);
    twice.follow(&cam);
    let (a, b) = (one.scene(), twice.scene());
    assert_eq!(
        (one.ground_height(cam.x >> 8, cam.y >> 8), twice.ground_height(cam.x >> 8, cam.y >> 8)),
        (a.ground(cam.x >> 8, cam.y >> 8), b.ground(cam.x >> 8, cam.y >> 8))
    );
    let mut differ = 0;
    for k in 0..50u32 {
        let (x, y) = ((cam.x >> 8) + k * 37 % 300, (cam.y >> 8) + k * 53 % 300);
        assert_eq!(b.ground(x, y), 2 * a.ground(x, y));
        differ += (a.ground(x, y) != 0) as u32;
    }
    assert!(differ > 10, "the test area is not all flat");
    let (mut fa, mut fb) = (Frame::default(), Frame::default());
    render(&a, &cam, Options::default(), &mut fa);
    render(&b, &cam, Options::default(), &mut fb);
    // Taller terrain covers more of the screen: fewer sky pixels.
    let sky = |f: &Frame| f.0.iter().filter(|&&c| (palette::SKY_BASE..palette::TERRAIN_BASE).contains(&c)).count();
    assert!(sky(&fb) < sky(&fa), "{} vs {}", sky(&fb), sky(&fa));
}

/// The ground height is the texel's anywhere in the world, not only in the
/// window round the camera, and wraps with the world.
#[test]
fn ground_height_is_exact_everywhere() {
    let mut memory = Memory::default();
    let mut land = memory.land(bank_bytes(), 7, false, None);
    let side = land.size_px();
    assert_eq!(side, 16384);
    let mut seen = std::collections::HashSet::new();
    for k in 0..400u32 {
        let (x, y) = (k.wrapping_mul(2_654_435_761) % side, k.wrapping_mul(40_503) % side);
        let cam = Camera { x: x << 8, y: y << 8, ..camera() };
        let far = land.ground_height(x, y);
        land.follow(&cam);
        assert_eq!(far, land.scene().ground(x, y), "({x}, {y})");
        assert_eq!(land.ground_height(x + side, y + 3 * side), far);
        seen.insert(far);
    }
    assert!(seen.len() > 50, "the heights vary: {}", seen.len());
}

/// A new world is another world, drawn with the same bank, and the window
/// follows it (the frame changes; the same seed gives back the same frame).
#[test]
fn a_new_world_replaces_the_old() {
    let mut memory = Memory::default();
    let mut land = memory.land(bank_bytes(), 7, false, None);
    let (mut a, mut b, mut c) = (Frame::default(), Frame::default(), Frame::default());
    land.render(&camera(), Options::default(), &mut a);
    land.new_world(8);
    assert_eq!(land.seed(), 8);
    land.render(&camera(), Options::default(), &mut b);
    land.new_world(7);
    land.render(&camera(), Options::default(), &mut c);
    assert!(a != b && a == c);
    assert!(a == frame_of(7, camera(), Options::default()));
}

/// The texel cache holds exactly the world's texels round the camera (near
/// ring: every texel; far ring: every other one), after any walk or jump.
fn check_cache(
    cache: &voxel::cache::TexelCache,
    scene: &Scene<'_, 64>,
    px: u32,
    py: u32,
    heading: u16,
) -> Result<(), TestCaseError> {
    use voxel::cache::{FAR, FAR_AHEAD, FAR_RADIUS, NEAR, NEAR_AHEAD, NEAR_RADIUS};
    let centre = |reach: u32| voxel::cache::centre(px, py, heading, reach);
    let (nx, ny) = centre(NEAR_AHEAD);
    let (tx, ty) = (nx >> 2, ny >> 2);
    for j in 0..2 * NEAR_RADIUS {
        for i in (0..2 * NEAR_RADIUS).step_by(7) {
            let (x, y) = (tx.wrapping_sub(NEAR_RADIUS).wrapping_add(i), ty.wrapping_sub(NEAR_RADIUS).wrapping_add(j));
            let got = cache.near()[(y as usize & (NEAR - 1)) * NEAR + (x as usize & (NEAR - 1))];
            prop_assert_eq!(got, scene.texel(x << 2, y << 2), "near texel ({}, {})", x, y);
        }
    }
    let (fx, fy) = centre(FAR_AHEAD);
    let (fx, fy) = (fx >> 3, fy >> 3);
    for j in (0..2 * FAR_RADIUS).step_by(3) {
        for i in (0..2 * FAR_RADIUS).step_by(5) {
            let (x, y) = (fx.wrapping_sub(FAR_RADIUS).wrapping_add(i), fy.wrapping_sub(FAR_RADIUS).wrapping_add(j));
            let got = cache.far()[(y as usize & (FAR - 1)) * FAR + (x as usize & (FAR - 1))];
            prop_assert_eq!(got, scene.texel(x << 3, y << 3), "far entry ({}, {})", x, y);
        }
    }
    Ok(())
}

/// Every texel the march reads is in the cache: all 120 rays x 96 samples,
/// the far bands at even texels, stepped and read the way the ARM march
/// steps and reads them: one packed position (`render::pack`, from the exact
/// one at the first band and at the first far one), whose fields' top bits
/// index the rings; the texel wanted is the world's at the packed position.
fn check_rays(cache: &voxel::cache::TexelCache, scene: &Scene<'_, 64>, cam: &Camera) -> Result<(), TestCaseError> {
    use voxel::projection::{BAND_LEN, BAND_STEP, BANDS, Z0};
    use voxel::render::{FAR_FROM, pack, pack_shift, pack_step, unpack};
    let wmask = scene.world_px() - 1;
    let (cos, sin) = (voxel::trig::cos(cam.heading), voxel::trig::sin(cam.heading));
    for col in 0..120i32 {
        let u = ((2 * col + 1 - 120) * voxel::trig::ONE) / 120;
        let (dx, dy) = (cos - ((sin * u) >> 14), sin + ((cos * u) >> 14));
        let mut px = cam.x.wrapping_add(((dx * Z0 as i32) >> 6) as u32);
        let mut py = cam.y.wrapping_add(((dy * Z0 as i32) >> 6) as u32);
        let far = (px.wrapping_add(((dx * FAR_FROM) >> 6) as u32), py.wrapping_add(((dy * FAR_FROM) >> 6) as u32));
        let mut p = 0;
        for (band, &step) in BAND_STEP.iter().enumerate().take(BANDS) {
            let step = step as i32;
            let (sx, sy) = (((dx * step) >> 6) as u32, ((dy * step) >> 6) as u32);
            let k = pack_shift(band);
            if band == 0 {
                p = pack(px, py, k);
            } else if band == voxel::cache::NEAR_BANDS {
                p = pack(far.0, far.1, k);
            }
            for _ in 0..BAND_LEN {
                px = px.wrapping_add(sx);
                py = py.wrapping_add(sy);
                p = p.wrapping_add(pack_step(sx as i32, sy as i32, k));
                // The world position of the packed one, world px.
                let (ux, uy) = unpack(p, px, py, k);
                let (wx, wy) = (ux >> (8 - k), uy >> (8 - k));
                let lod = if band < voxel::cache::NEAR_BANDS { !0u32 } else { !7u32 };
                let want = scene.texel((wx & wmask) & lod, (wy & wmask) & lod);
                let got = if band < voxel::cache::NEAR_BANDS {
                    cache.near()[((p >> 25) * 128 + ((p >> 9) & 127)) as usize]
                } else {
                    cache.far()[((p >> 24) * 256 + ((p >> 8) & 255)) as usize]
                };
                prop_assert_eq!(got, want, "column {} band {} at ({}, {})", col, band, wx, wy);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn every_texel_the_march_reads_is_cached(x: u32, y: u32, heading: u16, turns in prop::collection::vec(any::<i16>(), 0..6)) {
        let mut memory = Memory::default();
        let mut land = memory.land(bank_bytes(), 9, true, None);
        let mut cam = Camera { x: x & ((16384 << 8) - 1), y: y & ((16384 << 8) - 1), z: 300 << 8, heading, pitch: 0 };
        for turn in std::iter::once(0).chain(turns) {
            cam.heading = cam.heading.wrapping_add(turn as u16);
            cam.x = cam.x.wrapping_add((turn as i32 as u32) << 6) & ((16384 << 8) - 1);
            land.follow(&cam);
            land.follow_cache(&cam).unwrap();
            check_rays(land.cache().unwrap(), &land.scene(), &cam)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn the_texel_cache_follows_the_camera(x: u32, y: u32, moves in prop::collection::vec((-40i32..=40, -40i32..=40, any::<u16>()), 1..12)) {
        let mut memory = Memory::default();
        let mut land = memory.land(bank_bytes(), 5, true, None);
        let (mut px, mut py) = (x & 16383, y & 16383);
        let mut heading = 0u16;
        for (k, (dx, dy, turn)) in moves.into_iter().enumerate() {
            // Mostly small turns, sometimes any heading.
            heading = if k % 3 == 2 { turn } else { heading.wrapping_add(turn % 2048) };
            // Every fourth move a jump far away; else a few texels.
            if k % 4 == 3 {
                px = px.wrapping_add((dx as u32) << 8) & 16383;
            } else {
                px = px.wrapping_add(dx as u32) & 16383;
                py = py.wrapping_add(dy as u32) & 16383;
            }
            let cam = Camera { x: px << 8, y: py << 8, heading, ..Camera::default() };
            land.follow(&cam);
            let up = land.follow_cache(&cam).unwrap();
            prop_assert!(up.written > 0 || k > 0);
            check_cache(land.cache().unwrap(), &land.scene(), px, py, heading)?;
        }
    }
}

proptest! {
    #[test]
    fn flying_never_goes_below_the_ground(x: u32, y: u32, heading: u16, z in 0i32..(800 << 8),
                                          moves in prop::collection::vec((-1i8..=1, -1i8..=1, -1i8..=1, -1i8..=1, 1u32..4), 1..40)) {
        let relief = Box::new(Relief::of(&bank::parse(bank_bytes()).unwrap()));
        // Half the flights with the relief (following the ground ahead), half without.
        let mut memory = Memory::default();
        let mut land = memory.land(bank_bytes(), 3, false, if z & 1 == 0 { Some(&relief) } else { None });
        let mut cam = Camera { x: x & ((16384 << 8) - 1), y: y & ((16384 << 8) - 1), z, heading, pitch: 0 };
        for (k, (forward, turn, strafe, climb, refreshes)) in moves.into_iter().enumerate() {
            land.follow(&cam);
            let z0 = cam.z;
            land.fly(&mut cam, Controls { forward, turn, strafe, climb, pitch: 0 }, refreshes);
            prop_assert!(cam.z >> 8 >= land.ground_height(cam.x >> 8, cam.y >> 8) + CLEARANCE);
            prop_assert!(cam.x < 16384 << 8 && cam.y < 16384 << 8);
            // With the relief, after the first move (which may start below
            // the floor), the altitude never jumps.
            if z & 1 == 0 && k > 0 {
                let n = refreshes as i32;
                prop_assert!(cam.z - z0 <= (relief.max_rise() * n) << 8, "rose {} px in {} refreshes", (cam.z - z0) >> 8, n);
                prop_assert!(z0 - cam.z <= CLIMB * n, "fell {} px in {} refreshes", (z0 - cam.z) >> 8, n);
            }
        }
    }
}

/// A bank of walls: tile 0 low ground, tile 1 a plateau 250 px up (paper
/// placement scatters them, so every border between them is a cliff), in
/// stripes of 4 colours.
fn walls_bank() -> Vec<u8> {
    let mut texels = Vec::new();
    for t in 0..2u32 {
        for y in 0..32u32 {
            for x in 0..32u32 {
                let h = if t == 1 { 250 } else { ((x + y) % 8) as u8 as u32 };
                texels.push(bank::texel(h as u8, ((x / 8 + 2 * t) % 4) as u8));
            }
        }
    }
    let palette = [0x03E0, 0x7C00, 0x001F, 0x7FFF];
    bank::encode(&bank::Contents {
        tile_size: 32,
        palette: &palette,
        tiles: &texels,
        placement: bank::Placement::Paper,
        height_scale: bank::HEIGHT_SCALE_ONE,
    })
    .unwrap()
}

/// Flying at walls from anywhere: the camera climbs ahead of them, so the
/// screen never fills with one (no frame mostly one colour) and the altitude
/// rises at most `max_rise` a refresh. Without the relief, the same flights
/// fly into walls: the test can fail.
#[test]
fn walls_are_climbed_before_they_fill_the_screen() {
    let bytes = walls_bank();
    let bank = bank::parse(&bytes).unwrap();
    let relief = Box::new(Relief::of(&bank));
    assert_eq!(relief.top_px(), 250);
    let fly_route = |start: u32, with_relief: bool| -> (f64, i32) {
        let mut memory = Memory::default();
        let mut land = memory.land(&bytes, 11, false, if with_relief { Some(&relief) } else { None });
        let mut cam = Camera {
            x: (start * 977 % 16384) << 8,
            y: (start * 3571 % 16384) << 8,
            z: 0,
            heading: (start * 7919) as u16,
            pitch: 0,
        };
        land.settle(&mut cam);
        let (mut worst_share, mut worst_rise) = (0.0f64, 0);
        for r in 0..400u32 {
            // Forward, with a turn now and then.
            let turn = if r % 100 < 20 { 1 } else { 0 };
            let z0 = cam.z;
            land.fly(&mut cam, Controls { forward: 1, turn, ..Controls::default() }, 1);
            land.follow(&cam);
            worst_rise = worst_rise.max((cam.z - z0) >> 8);
            if r % 4 == 0 {
                let mut frame = Frame::default();
                land.render(&cam, Options::default(), &mut frame);
                let mut counts = [0u32; 256];
                for p in frame.0.iter() {
                    counts[*p as usize] += 1;
                }
                let share = *counts.iter().max().unwrap() as f64 / frame.0.len() as f64;
                worst_share = worst_share.max(share);
            }
        }
        (worst_share, worst_rise)
    };
    let (mut old_share, mut old_rise) = (0.0f64, 0);
    for start in 1..=6 {
        let (share, rise) = fly_route(start, true);
        assert!(share < 0.85, "start {start}: a frame {:.0}% one colour", share * 100.0);
        assert!(rise <= relief.max_rise(), "start {start}: rose {rise} px in a refresh");
        let (share, rise) = fly_route(start, false);
        old_share = old_share.max(share);
        old_rise = old_rise.max(rise);
    }
    assert!(old_share > 0.95 && old_rise > 100, "without the relief: {old_share} {old_rise}: the walls are too easy");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    /// The skips never change a frame: with the bank's relief (groups of
    /// slices its top cannot show in are passed over) and without (any
    /// height: fewer skips), random cameras over two banks, in both column
    /// modes, draw the same pixels with the same draws and rows, and march
    /// the same slices.
    #[test]
    fn skipping_hidden_groups_never_changes_a_frame(seed: u32, x: u32, y: u32, heading: u16, above in 1i32..600,
                                                    pitch in -90i16..=90, walls: bool, boundaries: bool,
                                                    pixels: bool) {
        let walls_bytes;
        let bytes: &[u8] = if walls { walls_bytes = walls_bank(); &walls_bytes } else { bank_bytes() };
        let relief = Box::new(Relief::of(&bank::parse(bytes).unwrap()));
        #[cfg(feature = "pixel-columns")]
        let columns = if pixels { voxel::Columns::Pixels } else { voxel::Columns::Pairs };
        #[cfg(not(feature = "pixel-columns"))]
        let columns = {
            let _ = pixels;
            voxel::Columns::Pairs
        };
        let options = Options { boundaries, columns };
        let draw = |relief: Option<&Relief>| {
            let mut memory = Memory::default();
            let mut land = memory.land(bytes, seed, false, relief);
            let mut cam = Camera { x: x & ((16384 << 8) - 1), y: y & ((16384 << 8) - 1), z: 0, heading, pitch };
            land.follow(&cam);
            cam.z = (land.ground_height(cam.x >> 8, cam.y >> 8) + above) << 8;
            let mut frame = Frame([0xEE; 240 * 160]);
            let stats = land.render(&cam, options, &mut frame);
            (frame, stats)
        };
        let (with, skipping) = draw(Some(&relief));
        let (without, plain) = draw(None);
        prop_assert!(with == without, "the skips changed the frame");
        prop_assert_eq!((skipping.draws, skipping.runs, skipping.span_rows), (plain.draws, plain.runs, plain.span_rows));
        prop_assert_eq!(skipping.samples + skipping.skipped, plain.samples + plain.skipped);
        prop_assert!(skipping.skipped >= plain.skipped, "a lower top skips at least as much");
    }
}
