//! Pinned frames of the host's reference renderer: fixed banks (generated
//! here, every tile size the bank format allows), fixed worlds and cameras,
//! and the frames they make, pixel for pixel (an FNV-1a hash of the frame,
//! the counters, and pixels worked out by hand from the projection tables).
//!
//! The hashed frames were looked at (`VOXEL_FRAMES=/some/dir cargo test -p
//! voxel --test frames` writes each as a PPM there) and are right: hills of
//! the bank's pyramids, fog towards the distance, the sky's gradient, and
//! in the boundary view the tile grid as lines on the ground.

use terrain::{Window, World};
use voxel::flight::Relief;
use voxel::palette::{self, Mood, SKY_BASE, SKY_LEN, terrain as fogged};
use voxel::projection::{INV_Z, Z};
use voxel::render::{HEIGHT, WIDTH};
use voxel::{Camera, Frame, Landscape, Options, Parts, Stats, Target};

/// The bank's colours (BGR555): greens, browns, white, blue.
const COLOURS: [u16; 6] = [0x03E0, 0x0200, 0x0D4A, 0x1D8F, 0x7FFF, 0x7C00];

/// A bank of `count` tiles of `n` texels: a pyramid per tile (its height
/// rising towards the tile's centre, tile `t` 24 units higher than tile
/// `t - 1`), coloured by height, with odd texels a colour apart (so a
/// sample at an odd texel shows).
fn pyramids(n: u32, count: u32, height_scale: u16) -> Vec<u8> {
    let mut texels = Vec::new();
    for t in 0..count {
        for y in 0..n {
            for x in 0..n {
                let tri = |v: u32| v.min(n - 1 - v) * 64 / n;
                let h = (t * 24 + tri(x) * 2 + tri(y)).min(255);
                let colour = (h / 40 + (x & 1)) % COLOURS.len() as u32;
                texels.push(bank::texel(h as u8, colour as u8));
            }
        }
    }
    encode(n, &texels, height_scale)
}

/// A bank of one flat tile of `n` texels, height `h`: every world cell is
/// that tile; texel x of a row has colour x mod 4, plus 2 on odd rows.
fn flat(n: u32, h: u8) -> Vec<u8> {
    let texels: Vec<u16> = (0..n * n).map(|i| bank::texel(h, (i % n % 4 + 2 * (i / n % 2)) as u8)).collect();
    encode(n, &texels, bank::HEIGHT_SCALE_ONE)
}

fn encode(n: u32, texels: &[u16], height_scale: u16) -> Vec<u8> {
    bank::encode(&bank::Contents {
        tile_size: n as u16,
        palette: &COLOURS,
        tiles: texels,
        placement: bank::Placement::Paper,
        height_scale,
    })
    .unwrap()
}

/// The memory of a landscape, on the heap.
#[derive(Default)]
struct Memory {
    world: Box<World>,
    window: Box<Window<64>>,
}

impl Memory {
    fn land<'a>(&'a mut self, bytes: &'a [u8], seed: u32) -> Landscape<'a, 64> {
        self.land_with(bytes, seed, None)
    }

    fn land_with<'a>(&'a mut self, bytes: &'a [u8], seed: u32, relief: Option<&'a Relief>) -> Landscape<'a, 64> {
        let parts = Parts { world: &mut self.world, window: &mut self.window, cache: None, relief };
        Landscape::new(bank::parse(bytes).unwrap(), parts, seed).unwrap()
    }
}

/// FNV-1a, 32 bits.
fn fnv(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811C_9DC5u32, |h, &b| (h ^ b as u32).wrapping_mul(0x0100_0193))
}

/// Renders `camera`'s frame of the world of `seed` drawn with `bytes` (every
/// pixel starts at 0xEE, which no frame uses); writes it as a PPM named
/// `name` into `$VOXEL_FRAMES` if that is set.
///
/// Drawn twice, with the bank's relief (as the ROM draws, skipping the slices
/// its top cannot show in) and without (the top then any height): the
/// frames must be the same and the slices marched (samples + skipped) too.
/// Returns the frame and the counters with the relief.
fn render(bytes: &[u8], seed: u32, camera: Camera, options: Options, name: &str) -> (Frame, Stats) {
    let relief = Relief::of(&bank::parse(bytes).unwrap());
    let mut without = Frame([0xEE; WIDTH * HEIGHT]);
    let plain = Memory::default().land(bytes, seed).render(&camera, options, &mut without);
    let mut memory = Memory::default();
    let mut land = memory.land_with(bytes, seed, Some(&relief));
    let mut frame = Frame([0xEE; WIDTH * HEIGHT]);
    let stats = land.render(&camera, options, &mut frame);
    assert!(frame == without, "{name}: the relief's skips changed the frame");
    assert_eq!(
        (stats.draws, stats.span_rows, stats.samples + stats.skipped),
        (plain.draws, plain.span_rows, plain.samples + plain.skipped),
        "{name}: the skips changed what was drawn or the slices marched"
    );
    // The groups the relief's skips pass over draw nothing: without them
    // they are sampled, and silent.
    assert_eq!(
        plain.silent_samples,
        stats.silent_samples + (stats.skipped - plain.skipped),
        "{name}: the silent samples are not those the skips spare and those left"
    );
    if let Some(dir) = std::env::var_os("VOXEL_FRAMES") {
        let colours: Vec<u16> = (0..land.bank().palette_len()).map(|i| land.bank().colour(i)).collect();
        let pal = palette::build(&colours, &Mood::PLAIN);
        let mut ppm = format!("P6 {WIDTH} {HEIGHT} 255\n").into_bytes();
        for &p in frame.0.iter() {
            let c = pal[p as usize];
            ppm.extend([(c & 31) as u8 * 8, (c >> 5 & 31) as u8 * 8, (c >> 10 & 31) as u8 * 8]);
        }
        std::fs::write(std::path::Path::new(&dir).join(format!("{name}.ppm")), ppm).unwrap();
    }
    assert!(!frame.0.contains(&0xEE), "{name}: a pixel was left undrawn");
    (frame, stats)
}

/// `camera` with its altitude `camera.z` above the ground under it.
fn above_ground(bytes: &[u8], seed: u32, camera: Camera) -> Camera {
    let mut memory = Memory::default();
    let land = memory.land(bytes, seed);
    Camera { z: (land.ground_height(camera.x >> 8, camera.y >> 8) << 8) + camera.z, ..camera }
}

/// The cameras of the hashed frames (altitudes above the ground): level and straight along +x, at an
/// angle looking down with the boundary view, looking up low over the
/// ground, straight along +y, and along -x.
fn cameras(side: u32) -> [(Camera, Options); 5] {
    let at = |x: u32, y: u32| ((x % side) << 8 | 0x80, (y % side) << 8 | 0x40);
    let (x0, y0) = at(1000, 2000);
    let (x1, y1) = at(5123, 777);
    let (x2, y2) = at(300, 9000);
    [
        (Camera { x: x0, y: y0, z: 110 << 8, heading: 0, pitch: 0 }, Options::default()),
        (
            Camera { x: x1, y: y1, z: 150 << 8, heading: 5000, pitch: 25 },
            Options { boundaries: true, ..Options::default() },
        ),
        (Camera { x: x2, y: y2, z: 70 << 8 | 0x55, heading: 40000, pitch: -30 }, Options::default()),
        (
            Camera { x: x0, y: y1, z: 90 << 8, heading: 16384, pitch: 10 },
            Options { boundaries: true, ..Options::default() },
        ),
        (Camera { x: x1, y: y2, z: 130 << 8, heading: 32768, pitch: -5 }, Options::default()),
    ]
}

/// Flat ground 10 px below the eye, looking along +x from x = 1004: the
/// frame worked out by hand. Slice s (distance Z[s]) lands on row
/// 60 + (10 * INV_Z[s] >> 16); the rows down from the horizon are the
/// slices (s = 2, z = 14: row 145 = 60 + 85; s = 0 and 1 land at 180 and
/// 160, below the screen), each coloured by the texel at x = 1004 + Z[s]
/// (texel (x mod 128) / 4, colour that mod 4; the far bands read even
/// texels only), in its band's fog block. Every tile size gives the same
/// frame (the texels repeat every 4), and so do 240 columns.
#[test]
fn flat_ground_straight_ahead_worked_out_by_hand() {
    assert_eq!((Z[2], INV_Z[2], (10 * INV_Z[2]) >> 16), (14, 561_737, 85));
    let camera = Camera { x: 1004 << 8, y: 2000 << 8, z: 30 << 8, heading: 0, pitch: 0 };
    let mut first: Option<Frame> = None;
    for n in [8, 16, 32, 64, 128] {
        let (frame, stats) = render(&flat(n, 20), 1, camera, Options::default(), &format!("flat{n}"));
        let at = |x: usize, y: usize| frame.0[y * WIDTH + x];
        // (row, palette index): the slice, its distance, the texel's x and colour.
        for (row, want) in [
            (159, fogged(2, 0)), // s 2, z 14, x 1018, texel 30
            (145, fogged(2, 0)),
            (144, fogged(3, 0)), // s 3, z 16, x 1020, texel 31
            (135, fogged(3, 0)),
            (126, fogged(3, 0)), // s 4, z 18, x 1022, texel 31
            (125, fogged(0, 0)), // s 5, z 20, x 1024, texel 0
            (100, fogged(2, 0)), // s 10, z 30, x 1034, texel 2
            (80, fogged(2, 0)),  // s 20, z 60, x 1064, texel 10
            (70, fogged(2, 0)),  // s 32, z 110, x 1114, texel 22
            (67, fogged(1, 0)),  // s 39, z 152, x 1156, texel 1
            (66, fogged(3, 0)),  // s 43, z 176, x 1180, texel 7
            (65, fogged(1, 0)),  // s 47, z 200, x 1204, texel 13
            (64, fogged(0, 1)),  // s 53, band 3: z 248, x 1252, even texel 24
            (63, fogged(2, 1)),  // s 60, z 304, x 1308, even texel 6 (not 7)
            (62, fogged(2, 2)),  // s 69, band 4: z 400, x 1404, even texel 30 (not 31)
            (61, fogged(0, 3)),  // s 84, band 5: z 600, x 1604, even texel 16 (not 17)
            // The sky: SKY_BASE + 31 at the horizon, 31 * d / 100 less d rows
            // above it (rounded towards 0).
            (60, SKY_BASE + SKY_LEN - 1),
            (59, SKY_BASE + 31),
            (56, SKY_BASE + 31 - 1),
            (20, SKY_BASE + 31 - 12),
            (0, SKY_BASE + 31 - 18),
        ] {
            assert_eq!((at(120, row), at(121, row)), (want, want), "tile size {n}, row {row}");
        }
        // Flat ground: every column has the same rows (its colours differ):
        // 61 of sky, the rest terrain in 37 spans (the slices that reach a
        // new row). 80 samples taken: the groups of slices 72..80 and
        // 88..96 reach no new row (s 69 draws row 62, s 84 row 61 and none
        // after it), which the relief's top (the ground's 20) tells
        // beforehand, so they are skipped. The draws come in 13 runs:
        // slices 2 to 24 draw one after another, then runs of one or two
        // slices with hidden ones between (26-27, 29-30, 32, 34, 36, 39, 43,
        // 47, 53, 60, 69, 84).
        for col in 0..120 {
            let sky =
                (0..HEIGHT).take_while(|&y| (SKY_BASE..SKY_BASE + SKY_LEN).contains(&frame.0[y * WIDTH + 2 * col]));
            assert_eq!(sky.count(), 61, "column {col}");
        }
        assert_eq!(
            stats,
            Stats {
                samples: 120 * 80,
                draws: 120 * 37,
                runs: 120 * 13,
                span_rows: 120 * 99,
                sky_rows: 120 * 61,
                skipped: 120 * 16,
                passed_groups: 120 * 2, // the two groups above, each by its test
                sky_rows_filled: 160,
                repainted_rows: 0,
                silent_samples: 0, // each group marched draws (without the relief, the two above are silent)
                bottom_samples: 120 * 3, // slices 0 and 1 (below the screen) and 2 (the first draw)
            }
        );
        #[cfg(feature = "pixel-columns")]
        {
            // 240 columns: looking straight along +x every ray steps x exactly
            // as the pairs' rays do (the heading's sine is 0) and the ground is
            // flat, so each pixel column has the same rows as the pairs: 61 of
            // sky, 37 spans, from twice the samples, draws and rows. (Colours
            // differ: the texels' rows alternate, and the rays fan out in y.)
            let pixels = Options { columns: voxel::Columns::Pixels, ..Options::default() };
            let (fine, fine_stats) = render(&flat(n, 20), 1, camera, pixels, &format!("flat{n}-240"));
            for x in 0..WIDTH {
                let sky = (0..HEIGHT).take_while(|&y| (SKY_BASE..SKY_BASE + SKY_LEN).contains(&fine.0[y * WIDTH + x]));
                assert_eq!(sky.count(), 61, "tile size {n}, 240 columns: pixel column {x}");
            }
            assert_eq!(
                fine_stats,
                Stats {
                    samples: 240 * 80,
                    draws: 240 * 37,
                    runs: 240 * 13,
                    span_rows: 240 * 99,
                    sky_rows: 240 * 61,
                    skipped: 240 * 16,
                    passed_groups: 240 * 2,
                    sky_rows_filled: 160,
                    repainted_rows: 0,
                    silent_samples: 0,
                    bottom_samples: 240 * 3,
                }
            );
        }
        match &first {
            None => first = Some(frame),
            Some(f) => assert!(f == &frame, "tile size {n} draws another frame"),
        }
    }
}

/// Pinned frames: pyramids of every tile size (8 to 128 texels; two height
/// scales besides 1), five cameras each (see [`cameras`]): the frame's
/// FNV-1a hash and the counters (samples, draws, span rows, sky rows).
#[test]
fn pinned_frames_of_every_tile_size() {
    #[rustfmt::skip]
    let want: [(u32, u16, usize, u32, [u32; 5]); 30] = [
        (8, 256, 0, 0x8BF938E9, [10560, 1215, 11401, 7799, 960]),
        (8, 256, 1, 0xA38FEE1B, [8640, 1092, 7723, 11477, 2880]),
        (8, 256, 2, 0x2DC376FB, [7808, 924, 16309, 2891, 3712]),
        (8, 256, 3, 0xE2200D71, [7144, 1067, 11155, 8045, 4376]),
        (8, 256, 4, 0xE4877F39, [9600, 1294, 11053, 8147, 1920]),
        (16, 256, 0, 0x25464839, [7680, 1641, 9982, 9218, 3840]),
        (16, 256, 1, 0x389C87B3, [9576, 1327, 8058, 11142, 1944]),
        (16, 256, 2, 0xDD654C55, [8792, 1323, 16065, 3135, 2728]),
        (16, 256, 3, 0x66DA955B, [9600, 1666, 9099, 10101, 1920]),
        (16, 256, 4, 0xFE19A837, [9600, 1444, 11812, 7388, 1920]),
        (32, 256, 0, 0xD76307C9, [8768, 1548, 11994, 7206, 2752]),
        (32, 256, 1, 0xD1614C81, [8640, 1783, 7116, 12084, 2880]),
        (32, 256, 2, 0x6EE4095F, [11320, 2489, 15176, 4024, 200]),
        (32, 256, 3, 0xACC3C705, [10560, 2544, 9572, 9628, 960]),
        (32, 256, 4, 0x80F0E32B, [11520, 1944, 11812, 7388, 0]),
        (32, 384, 0, 0x92B00B95, [4230, 1669, 18461, 739, 2512]),
        (32, 384, 1, 0x7B586FE3, [10560, 1429, 7742, 11458, 960]),
        (32, 384, 2, 0x69474825, [10944, 1977, 15984, 3216, 576]),
        (32, 384, 3, 0xE29D66FF, [9736, 1709, 10638, 8562, 1784]),
        (32, 384, 4, 0x87EA753D, [5550, 1437, 17061, 2139, 1944]),
        (64, 256, 0, 0xBC46CF0B, [7344, 2709, 13930, 5270, 4176]),
        (64, 256, 1, 0xE73AB7B7, [9600, 2757, 7944, 11256, 1920]),
        (64, 256, 2, 0xE154DE99, [10008, 3365, 15247, 3953, 1512]),
        (64, 256, 3, 0xBDA884F5, [10560, 3725, 10597, 8603, 960]),
        (64, 256, 4, 0x697A7599, [9600, 3025, 11303, 7897, 1920]),
        (128, 200, 0, 0xEA4BD7E3, [8640, 4764, 10388, 8812, 2880]),
        (128, 200, 1, 0xBC3420AB, [7680, 3932, 6699, 12501, 3840]),
        (128, 200, 2, 0xC5848E31, [9600, 6416, 14957, 4243, 1920]),
        (128, 200, 3, 0xE8A5E733, [9560, 4676, 9922, 9278, 1960]),
        (128, 200, 4, 0x6080B161, [8640, 5127, 11912, 7288, 2880]),
    ];
    let mut got = Vec::new();
    for &(n, scale, k, _, _) in want.iter() {
        let bytes = pyramids(n, 4, scale);
        let side = Memory::default().land(&bytes, 3).size_px();
        let (cam, opts) = cameras(side)[k];
        let cam = above_ground(&bytes, 3, cam);
        let (f, s) = render(&bytes, 3, cam, opts, &format!("pyramids{n}_{scale}_{k}"));
        got.push((n, scale, k, fnv(&f.0), [s.samples, s.draws, s.span_rows, s.sky_rows, s.skipped]));
    }
    let table: String = got.iter().map(|(n, sc, k, h, s)| format!("({n}, {sc}, {k}, 0x{h:08X}, {s:?}),\n")).collect();
    assert!(got == want, "frames changed; now:\n{table}");
}

/// Pitch moves the horizon: looking down 12 rows, the flat frame's terrain
/// rows are 12 lower (the sky keeps its gradient from the horizon); the
/// height scale multiplies the heights (height 10 at scale 2 is height 20
/// at scale 1: the same frame).
#[test]
fn pitch_shifts_the_rows_and_the_scale_multiplies_heights() {
    let camera = Camera { x: 1004 << 8, y: 2000 << 8, z: 30 << 8, heading: 0, pitch: 0 };
    let (level, _) = render(&flat(32, 20), 1, camera, Options::default(), "level");
    let (down, _) = render(&flat(32, 20), 1, Camera { pitch: 12, ..camera }, Options::default(), "down");
    assert!(level.0[..WIDTH * 148] == down.0[WIDTH * 12..], "rows shift by the pitch");
    let texels = vec![bank::texel(10, 1); 32 * 32];
    let twice = bank::encode(&bank::Contents {
        tile_size: 32,
        palette: &COLOURS,
        tiles: &texels,
        placement: bank::Placement::Paper,
        height_scale: 512,
    })
    .unwrap();
    let mut memory = Memory::default();
    let land = memory.land(&twice, 1);
    assert_eq!((land.scene().height_scale(), land.ground_height(5, 5)), (512, 20));
    let (tall, _) = render(&twice, 1, camera, Options::default(), "twice");
    // The same rows as the flat ground at 20 (colour 1 everywhere).
    let same_rows = |a: &Frame, b: &Frame| {
        a.0.iter().zip(b.0.iter()).all(|(p, q)| (*p >= palette::TERRAIN_BASE) == (*q >= palette::TERRAIN_BASE))
    };
    assert!(same_rows(&tall, &level));
    assert_eq!(tall.0[159 * WIDTH + 120], fogged(1, 0));
}

/// A frame's pixels: `put` writes the pair of pixels of a column on a row
/// and nothing outside the frame; `span` writes rows y0 .. y1 only; a
/// frame in memory is no VRAM page.
#[test]
fn a_frame_writes_inside_itself_only() {
    #[repr(C)]
    struct Guarded {
        frame: Frame,
        guard: [u8; 512],
    }
    let mut g = Box::new(Guarded { frame: Frame::default(), guard: [0; 512] });
    g.frame.put(119, 159, 7);
    g.frame.put(0, 0, 8);
    let mut want = Frame::default();
    want.0[159 * WIDTH + 238] = 7;
    want.0[159 * WIDTH + 239] = 7;
    want.0[0] = 8;
    want.0[1] = 8;
    assert!(g.frame == want);
    // Outside: a column past the last, a row past the bottom, both.
    for (col, y) in [(120, 0), (200, 0), (0, 160), (5, 161), (120, 160)] {
        g.frame.put(col, y, 9);
    }
    assert!(g.frame == want && g.guard == [0; 512], "a pixel outside the frame was written");
    g.frame.span(3, 10, 13, 5);
    g.frame.span(4, 7, 7, 6);
    for y in 0..HEIGHT {
        let in_span = (10..13).contains(&y);
        assert_eq!(g.frame.0[y * WIDTH + 6], if in_span { 5 } else { 0 }, "row {y}");
        assert_eq!(g.frame.0[y * WIDTH + 8], 0, "an empty span draws nothing");
    }
    assert_eq!((g.frame.vram_column(0), g.frame.vram_column(7)), (None, None));
}

/// The scene's texel addressing: tile t's texel (x, y) sits at
/// t * n^2 + y * n + x of the bank's texels (coordinates modulo the tile
/// side), a tile the bank lacks reads tile 0 (address) or 0 (texel).
#[test]
fn tile_texels_are_addressed_in_the_bank() {
    for n in [8u32, 16, 32, 64, 128] {
        let bytes = pyramids(n, 4, bank::HEIGHT_SCALE_ONE);
        let bank = bank::parse(&bytes).unwrap();
        let mut memory = Memory::default();
        let land = memory.land(&bytes, 3);
        let scene = land.scene();
        assert_eq!((scene.tile_log2(), scene.tile_px_log2()), (n.trailing_zeros(), n.trailing_zeros() + 2));
        let base = scene.tile_texel_address(0, 0, 0);
        for (t, x, y) in [(0u8, 0u32, 0u32), (1, 3, 5), (3, n - 1, n - 1), (2, n + 1, 2 * n + 3)] {
            let (xi, yi) = ((x % n) as usize, (y % n) as usize);
            let i = t as usize * (n * n) as usize + yi * n as usize + xi;
            assert_eq!(scene.tile_texel_address(t, x, y), base + 2 * i, "tile size {n}, tile {t}");
            let (h, c) = bank.texel(t as usize, xi, yi);
            assert_eq!(scene.tile_texel(t, x, y), bank::texel(h, c));
        }
        assert_eq!(scene.tile_texel_address(4, 1, 2), scene.tile_texel_address(0, 1, 2), "tile 4 is not in the bank");
        assert_eq!(scene.tile_texel_address(255, 1, 2), scene.tile_texel_address(0, 1, 2));
        assert_eq!(scene.tile_texel(4, 1, 2), 0);
        assert_eq!(scene.height_scale(), 256);
    }
}

/// The landscape's texel anywhere: (height, colour) of the flat bank's
/// texel (x / 4 mod 32, y / 4 mod 32); its debug form names the seed; its
/// errors say what is wrong.
#[test]
fn landscape_texels_debug_and_errors() {
    let bytes = flat(32, 20);
    let mut memory = Memory::default();
    let land = memory.land(&bytes, 9);
    // x 1018: texel 30 (colour 2); y 2004: texel 21, odd (+2).
    assert_eq!(
        (land.texel(1018, 2000), land.texel(1018, 2004), land.texel(1018 + 16384, 3)),
        ((20, 2), (20, 4), (20, 2))
    );
    let debug = format!("{land:?}");
    assert!(debug.starts_with("Landscape { seed: 9, world: World { params: "), "{debug}");
    assert!(debug.ends_with(".. }"), "{debug}");
    use voxel::{LandscapeError, SceneError};
    let errors = [
        (LandscapeError::World(terrain::ParamError::TileCount(0)), "tile_count 0 is outside 1..=256"),
        (
            LandscapeError::Scene(SceneError::TileCount { world: 5, bank: 4 }),
            "the world places 5 tiles, the bank has 4",
        ),
        (LandscapeError::Scene(SceneError::Texels), "the bank's texels do not match its header"),
    ];
    for (e, want) in errors {
        assert_eq!(e.to_string(), want);
    }
}

/// The boundary view recolours the texels on tile borders and nothing
/// else: over flat ground, from cameras all round, a frame with it differs
/// from the plain one only in marks (`palette::MARK`) at the plain pixel's
/// own fog level (the same ground, its colour swapped), and has marks.
#[test]
fn boundaries_only_recolour_border_texels() {
    for (k, heading) in [0u16, 9000, 16384, 40000].into_iter().enumerate() {
        let camera = Camera { x: 2000 << 8, y: (1000 + 77 * k as u32) << 8, z: 40 << 8, heading, pitch: -20 };
        let (plain, _) = render(&flat(32, 20), 1, camera, Options::default(), "plain");
        let (marked, _) =
            render(&flat(32, 20), 1, camera, Options { boundaries: true, ..Options::default() }, "marked");
        let mut marks = 0;
        for (&p, &m) in plain.0.iter().zip(marked.0.iter()) {
            if p != m {
                let fog = (p - palette::TERRAIN_BASE) / palette::TERRAIN_STRIDE;
                assert_eq!(m, fogged(palette::MARK, fog), "heading {heading}: {p} became {m}");
                marks += 1;
            }
        }
        assert!(marks > 100, "heading {heading}: {marks} marks");
    }
}

/// The skips by the tiles under each group's ground (`render::group_tops`)
/// never hide a texel: over a world of low and high tiles, from cameras
/// all round (every heading, low and high, looking up and down), the frame
/// with the relief equals the frame without it ([`render`] checks that and
/// the slices marched; the reference renderer asserts, in debug builds,
/// that no sample is above its group's top), and near the ground the skips
/// save samples.
#[test]
fn group_tops_never_hide_a_texel() {
    let mut seed = 0x1234_5678u32;
    let mut next = |n: u32| {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) % n
    };
    for n in [8, 32, 128] {
        let bytes = pyramids(n, 4, bank::HEIGHT_SCALE_ONE);
        let side = Memory::default().land(&bytes, 5).size_px();
        let (mut with, mut without) = (0, 0);
        for k in 0..24 {
            let camera = Camera {
                x: next(side) << 8 | next(256),
                y: next(side) << 8 | next(256),
                z: ((2 + next(160)) << 8) as i32,
                heading: next(65536) as u16,
                pitch: next(61) as i16 - 30,
            };
            let camera = above_ground(&bytes, 5, camera);
            let options = Options { boundaries: k % 3 == 0, ..Options::default() };
            let (_, stats) = render(&bytes, 5, camera, options, &format!("tops{n}_{k}"));
            let plain = Memory::default().land(&bytes, 5).render(&camera, options, &mut Frame([0; WIDTH * HEIGHT]));
            (with, without) = (with + stats.samples, without + plain.samples);
        }
        assert!(with < without, "tile size {n}: {with} samples with the tops, {without} without");
    }
}
