//! The flight, pinned: each input's motion worked out by hand (speed, turn,
//! strafe, climb, pitch, the refreshes' cap, the world's wrap), the floor
//! and the look-ahead over a tile designed for it, the floor over random
//! blocks against a brute force, the ease up to the
//! look-ahead, and a scripted flight over pyramids (every position pinned,
//! and never below the floor, never rising faster than `max_rise`).

use terrain::{Window, World};
use voxel::flight::{
    CEILING, CLEARANCE, CLIMB, Controls, FILE_LEN, FLOOR_REACH, PER_TILE, PITCH_LIMIT, Relief, ReliefFileError,
    blocks_log2, tile_tops,
};
use voxel::{Camera, Landscape, Parts};

/// A bank of one tile of 32 texels (128 world px, 4 x 4 blocks of 32 px):
/// block (1, 1) (world px 32..64 x 32..64, modulo 128) is 100 high, blocks
/// (0, 1) and (1, 0) are 97, the rest is ground at 0. `height_scale` in 8.8.
fn tower_bank(height_scale: u16) -> Vec<u8> {
    let mut texels = Vec::new();
    for y in 0..32u32 {
        for x in 0..32u32 {
            let h = match (x / 8, y / 8) {
                (1, 1) => 100,
                (0, 1) | (1, 0) => 97,
                _ => 0,
            };
            texels.push(bank::texel(h, (x / 8) as u8));
        }
    }
    encode(32, &texels, height_scale)
}

/// A bank of one flat tile of `n` texels at height `h`.
fn flat_bank(n: u32, h: u8) -> Vec<u8> {
    encode(n, &vec![bank::texel(h, 0); (n * n) as usize], bank::HEIGHT_SCALE_ONE)
}

/// Pyramids: 4 tiles of 32 texels, tile `t` 24 units higher than `t - 1`.
fn pyramids() -> Vec<u8> {
    let mut texels = Vec::new();
    for t in 0..4u32 {
        for y in 0..32u32 {
            for x in 0..32u32 {
                let tri = |v: u32| v.min(31 - v) * 2;
                texels.push(bank::texel((t * 24 + tri(x) * 2 + tri(y)) as u8, 0));
            }
        }
    }
    encode(32, &texels, bank::HEIGHT_SCALE_ONE)
}

fn encode(n: u32, texels: &[u16], height_scale: u16) -> Vec<u8> {
    bank::encode(&bank::Contents {
        tile_size: n as u16,
        palette: &[0x03E0, 0x7C00, 0x001F, 0x7FFF],
        tiles: texels,
        placement: bank::Placement::Paper,
        height_scale,
    })
    .unwrap()
}

#[derive(Default)]
struct Memory {
    world: Box<World>,
    window: Box<Window<64>>,
}

impl Memory {
    fn land<'a>(&'a mut self, bytes: &'a [u8], relief: Option<&'a Relief>) -> Landscape<'a, 64> {
        let parts = Parts { world: &mut self.world, window: &mut self.window, cache: None, relief };
        Landscape::new(bank::parse(bytes).unwrap(), parts, 5).unwrap()
    }
}

fn relief_of(bytes: &[u8]) -> Box<Relief> {
    Box::new(Relief::of(&bank::parse(bytes).unwrap()))
}

const fn controls(forward: i8, turn: i8, strafe: i8, climb: i8, pitch: i8) -> Controls {
    Controls { forward, turn, strafe, climb, pitch }
}

/// Blocks a tile side: 1 for 8 texels, 2 for 16, 4 for 32 and more.
#[test]
fn blocks_per_tile_side() {
    let got: Vec<u32> = [8, 16, 32, 64, 128].iter().map(|&n| blocks_log2(n)).collect();
    assert_eq!(got, [0, 1, 2, 2, 2]);
    // The tops of a 16-texel tile: 2 x 2 blocks of 8 texels.
    let texels: Vec<u16> = (0..256u16).map(|i| (i % 16) + 20 * (i / 128)).collect();
    let mut out = [9; PER_TILE];
    tile_tops(&texels, 16, &mut out);
    assert_eq!(out[..4], [7, 15, 27, 35]);
    assert!(out[4..].iter().all(|&t| t == 0));
}

/// Every tile size's block tops are the highest texel of each block (a
/// plain max over the block's rows and columns, on varied heights).
#[test]
fn tile_tops_are_each_blocks_highest_texel() {
    let mut seed = 12345u32;
    for n in [8usize, 16, 32, 64, 128] {
        let mut next = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (seed >> 16) as usize
        };
        // Ground of 0..=100, and in each block one peak of its own height
        // at a place of its own: every block's top differs, at every size.
        let mut texels: Vec<u16> = (0..n * n).map(|i| bank::texel((next() % 101) as u8, i as u8)).collect();
        let (per, side) = (1usize << blocks_log2(n), n >> blocks_log2(n));
        for b in 0..per * per {
            let (bx, by, at) = (b % per, b / per, next() % (side * side));
            texels[(by * side + at / side) * n + bx * side + at % side] = bank::texel(110 + 8 * b as u8, 0);
        }
        let mut want = [0u8; PER_TILE];
        for by in 0..per {
            for bx in 0..per {
                want[by * per + bx] = (0..side * side)
                    .map(|i| texels[(by * side + i / side) * n + bx * side + i % side] as u8)
                    .max()
                    .unwrap();
            }
        }
        let mut out = [9; PER_TILE];
        tile_tops(&texels, n, &mut out);
        assert_eq!(out, want, "{n} texels a side");
    }
}

/// The relief's figures: its top, the floor's slope (2, or steeper so that
/// the top is reached within 192 px: (top + 191) / 192), its reach (top /
/// slope, rounded up) and the most it rises a refresh (5 px flown at the
/// slope, at least 4).
#[test]
fn relief_figures_are_pinned() {
    let tower = relief_of(&tower_bank(256));
    assert_eq!((tower.top_px(), tower.slope(), tower.max_rise()), (100, 2, 10));
    assert_eq!(format!("{tower:?}"), "Relief { blocks_log2: 2, top: 100, top_px: 100, slope: 2, reach: 50, .. }");
    // The tallest tile is the last of four: all of them count.
    let pyramids = relief_of(&pyramids());
    assert_eq!((pyramids.top_px(), pyramids.slope()), (3 * 24 + 60 + 30, 2));
    // 144 units of 8 px: 1152 px, slope (1152 + 191) / 192 = 6, reach 192.
    let tall = encode(32, &vec![bank::texel(144, 0); 1024], 2048);
    let tall = relief_of(&tall);
    assert_eq!(format!("{tall:?}"), "Relief { blocks_log2: 2, top: 144, top_px: 1152, slope: 6, reach: 192, .. }");
    assert_eq!(tall.max_rise(), 30);
    // 255 units of 1156/256 px: 1151 px, slope 6, reach (1151 + 5) / 6 = 192.
    let tall = encode(32, &vec![bank::texel(255, 0); 1024], 1156);
    let tall = relief_of(&tall);
    assert_eq!(format!("{tall:?}"), "Relief { blocks_log2: 2, top: 255, top_px: 1151, slope: 6, reach: 192, .. }");
    // Low ground: slope 2, the ease's 4 px bound the rise... 5 * 2 = 10.
    let low = relief_of(&flat_bank(16, 3));
    assert_eq!(format!("{low:?}"), "Relief { blocks_log2: 1, top: 3, top_px: 3, slope: 2, reach: 2, .. }");
    assert_eq!(low.max_rise(), 10);
    assert_eq!(FLOOR_REACH, 192);
}

/// A relief file loads back into the same relief; a file of the wrong
/// length, or another bank's, changes nothing.
#[test]
fn relief_files_load_back() {
    let bytes = tower_bank(256);
    let bank = bank::parse(&bytes).unwrap();
    let tower = relief_of(&bytes);
    assert_eq!(tower.tops()[..PER_TILE], [0, 97, 0, 0, 97, 100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    let file = tower.file().unwrap();
    let mut loaded = Box::new(Relief::new());
    assert_eq!(loaded.load_file(&bank, &file[1..]), Err(ReliefFileError::Length(FILE_LEN - 1)));
    let other = tower_bank(255);
    let other = bank::parse(&other).unwrap();
    assert!(matches!(loaded.load_file(&other, &file), Err(ReliefFileError::OtherBank { .. })));
    // A top changed after writing (a flash error, a hand edit): refused.
    let mut flipped = file;
    flipped[FILE_LEN - 1] ^= 0x80;
    let e = loaded.load_file(&bank, &flipped).unwrap_err();
    assert!(matches!(e, ReliefFileError::Corrupt { .. }) && e.to_string().starts_with("corrupt: "), "{e}");
    assert_eq!(format!("{loaded:?}"), format!("{:?}", Relief::new()));
    assert!(loaded.tops().iter().all(|&t| t == 0));
    assert_eq!(loaded.load_file(&bank, &file), Ok(()));
    assert_eq!(format!("{loaded:?}"), format!("{tower:?}"));
    assert!(loaded.tops() == tower.tops());
}

/// The floor over the tower tile: the highest block top round the point
/// less 2 px per px of (Chebyshev) distance to the block's nearest pixel,
/// worked out by hand at a few points and checked everywhere on a grid
/// against a brute-force maximum over the blocks round it.
#[test]
fn the_floor_over_a_tower() {
    let bytes = tower_bank(256);
    let relief = relief_of(&bytes);
    let mut memory = Memory::default();
    let mut land = memory.land(&bytes, Some(&relief));
    land.follow(&Camera { x: 1000 << 8, y: 1000 << 8, ..Camera::default() });
    let scene = land.scene();
    let floor = |x: u32, y: u32| relief.floor(&scene, x, y);
    // (896, 896) is a tile's corner. On the tower; on a 97 block 22 px from
    // it (100 - 44 is lower); past it (7 px: 100 - 14); diagonally 32 px
    // from it; on a 97 block 1 px from it (98, in x and in y); its last
    // pixel and the next; 47 px from it diagonally (100 - 94; the next
    // tile's is 50 px away).
    let by_hand = [
        ((896 + 40, 896 + 40), 100),
        ((896 + 10, 896 + 40), 97),
        ((896 + 70, 896 + 40), 86),
        ((896, 896), 36),
        ((896 + 31, 896 + 40), 98),
        ((896 + 40, 896 + 31), 98),
        ((896 + 63, 896 + 40), 100),
        ((896 + 64, 896 + 40), 98),
        ((896 + 110, 896 + 110), 6),
    ];
    for ((x, y), want) in by_hand {
        assert_eq!(floor(x, y), want, "floor at ({x}, {y})");
    }
    // Brute force: every block within 3 of the point's.
    let top = |bx: i32, by: i32| match (bx.rem_euclid(4), by.rem_euclid(4)) {
        (1, 1) => 100,
        (0, 1) | (1, 0) => 97,
        _ => 0,
    };
    let dist = |p: i32, b: i32| {
        if p < 32 * b {
            32 * b - p
        } else if p >= 32 * b + 32 {
            p - (32 * b + 31)
        } else {
            0
        }
    };
    for y in (768..1280).step_by(5) {
        for x in (768..1280).step_by(3) {
            let (bx, by) = (x / 32, y / 32);
            let mut want = top(bx, by);
            for j in by - 3..=by + 3 {
                for i in bx - 3..=bx + 3 {
                    let d = dist(x, i).max(dist(y, j));
                    if d <= 50 {
                        want = want.max(top(i, j) - 2 * d);
                    }
                }
            }
            assert_eq!(floor(x as u32, y as u32), want, "floor at ({x}, {y})");
        }
    }
}

/// The floor over random blocks (4 tiles of 4 x 4 blocks, each block one
/// random height; low banks and tall ones, whose slope is steeper; and banks
/// whose first two tiles are low, like the sea, which the floor passes over
/// whole), at 20,000 random points each: the most of the camera's own block
/// top and, over every block within the reach, its top less the slope times
/// its Chebyshev distance, by brute force.
#[test]
fn the_floor_is_the_highest_cone_over_random_blocks() {
    let mut rng = terrain::rng::Rng::new(0xF100);
    let rounds = [
        (256u16, 120u32, false),
        (2048, 255, false),
        (256, 255, false),
        (512, 40, false),
        (256, 255, true),
        (2048, 200, true),
    ];
    for (round, (scale, max_h, seas)) in rounds.into_iter().enumerate() {
        let heights: Vec<u32> =
            (0..4 * 16).map(|b| rng.next_u32() % (if seas && b < 2 * 16 { 6 } else { max_h + 1 })).collect();
        let mut texels = Vec::new();
        for t in 0..4 {
            for y in 0..32u32 {
                for x in 0..32u32 {
                    texels.push(bank::texel(heights[t * 16 + (y / 8 * 4 + x / 8) as usize] as u8, 0));
                }
            }
        }
        let bytes = encode(32, &texels, scale);
        let relief = relief_of(&bytes);
        let mut memory = Memory::default();
        let mut land = memory.land(&bytes, Some(&relief));
        let (slope, top_px) = (relief.slope(), relief.top_px());
        let reach = (top_px + slope - 1) / slope;
        // The window (64 tiles of 128 px) round (4000, 4000) holds every
        // block the points below can reach.
        land.follow(&Camera { x: 4000 << 8, y: 4000 << 8, ..Camera::default() });
        let scene = land.scene();
        for _ in 0..20_000 {
            let (x, y) = (3000 + rng.next_u32() % 2000, 3000 + rng.next_u32() % 2000);
            // The top of block (bx, by) (32 world px), world px.
            let top = |bx: i32, by: i32| {
                let tile = scene.window().get((bx / 4) as u32, (by / 4) as u32) as usize;
                let h = relief.tops()[tile * PER_TILE + (by % 4 * 4 + bx % 4) as usize] as i32;
                (h * scale as i32) >> 8
            };
            let dist = |p: i32, b: i32| (32 * b - p).max(p - (32 * b + 31)).max(0);
            let (x, y) = (x as i32, y as i32);
            let mut want = top(x / 32, y / 32);
            for by in (y - reach) / 32..=(y + reach) / 32 {
                for bx in (x - reach) / 32..=(x + reach) / 32 {
                    let d = dist(x, bx).max(dist(y, by));
                    if d <= reach {
                        want = want.max(top(bx, by) - slope * d);
                    }
                }
            }
            assert_eq!(relief.floor(&scene, x as u32, y as u32), want, "round {round}: floor at ({x}, {y})");
        }
    }
}

/// The look-ahead over the tower tile, by hand: the first sample is 16 px
/// ahead (a quarter of that below the top it finds), then 32, 64, 96 ...;
/// the rays 30 degrees either side find what the heading's misses.
#[test]
fn the_look_ahead_over_a_tower() {
    let bytes = tower_bank(256);
    let relief = relief_of(&bytes);
    let mut memory = Memory::default();
    let mut land = memory.land(&bytes, Some(&relief));
    land.follow(&Camera { x: 1000 << 8, y: 1000 << 8, ..Camera::default() });
    let scene = land.scene();
    let look = |x: u32, y: u32, h: u16| relief.look_ahead(&scene, 896 + x, 896 + y, h);
    // On the tower: 16 px ahead, still on it.
    assert_eq!(look(40, 40, 0), 96);
    // A 97 block 16 px ahead: 93 (the tower, 32 ahead, gives 92).
    assert_eq!(look(10, 40, 0), 93);
    // Looking along +x over the ground: the ray 30 degrees left (towards -y)
    // meets the next tile's tower 96 px out (at (182, 51)): 100 - 24.
    assert_eq!(look(100, 100, 0), 76);
    // The same place looking along -x: the ray 30 degrees right (towards +y)
    // meets a 97 block 64 px out (at (44, 132)): 97 - 16.
    assert_eq!(look(100, 100, 32768), 81);
    // Over flat ground 20 high: 16 px ahead, 4 px lower.
    let flat = flat_bank(32, 20);
    let flat_relief = relief_of(&flat);
    let mut memory = Memory::default();
    let mut land = memory.land(&flat, Some(&flat_relief));
    land.follow(&Camera::default());
    assert_eq!(flat_relief.look_ahead(&land.scene(), 50, 50, 12345), 16);
}

/// Each input, by hand, over flat ground 20 px high without a relief (the
/// camera keeps 12 px above it): 3 px a refresh forward or sideways, 256
/// angle steps a turn, 2 px a climb, 2 rows a pitch step, at most 8
/// refreshes counted; the world wraps.
#[test]
fn each_input_moves_the_camera_by_hand() {
    let bytes = flat_bank(32, 20);
    let mut memory = Memory::default();
    let mut land = memory.land(&bytes, None);
    let side = land.size_px() << 8;
    let start = Camera { x: 1000 << 8, y: 2000 << 8, z: 100 << 8, heading: 0, pitch: 0 };
    let fly = |land: &mut Landscape<'_, 64>, cam: Camera, c: Controls, r: u32| {
        let mut cam = cam;
        land.follow(&cam);
        land.fly(&mut cam, c, r);
        cam
    };
    let cases: [(Camera, Controls, u32, Camera); 16] = [
        // Forward 3 refreshes along +x: 9 px; back along -x.
        (start, controls(1, 0, 0, 0, 0), 3, Camera { x: 1009 << 8, ..start }),
        (start, controls(-1, 0, 0, 0, 0), 3, Camera { x: 991 << 8, ..start }),
        // Along +y (heading a quarter turn).
        (
            Camera { heading: 16384, ..start },
            controls(1, 0, 0, 0, 0),
            2,
            Camera { y: 2006 << 8, heading: 16384, ..start },
        ),
        // Strafe right at heading 0 is +y; at a quarter turn, -x.
        (start, controls(0, 0, 1, 0, 0), 1, Camera { y: 2003 << 8, ..start }),
        (start, controls(0, 0, -1, 0, 0), 1, Camera { y: 1997 << 8, ..start }),
        (
            Camera { heading: 16384, ..start },
            controls(0, 0, 1, 0, 0),
            1,
            Camera { x: 997 << 8, heading: 16384, ..start },
        ),
        // Forward and right at 45 degrees (cos = sin = 11585 / 16384): x
        // stays, y gains 2 * (11585 * 768 >> 14) = 1086 / 256 px.
        (
            Camera { heading: 8192, ..start },
            controls(1, 0, 1, 0, 0),
            1,
            Camera { y: (2000 << 8) + 1086, heading: 8192, ..start },
        ),
        // Turns: 256 steps a refresh, either way; more than 8 refreshes count 8.
        (start, controls(0, 1, 0, 0, 0), 3, Camera { heading: 768, ..start }),
        (start, controls(0, -1, 0, 0, 0), 2, Camera { heading: 65024, ..start }),
        (start, controls(0, 1, 0, 0, 0), 20, Camera { heading: 2048, ..start }),
        // Turn and forward together: the new heading moves the camera.
        (
            Camera { heading: 16384 - 256, ..start },
            controls(1, 1, 0, 0, 0),
            1,
            Camera { y: (2000 << 8) + 768, heading: 16384, ..start },
        ),
        // Climb 2 px a refresh, descend down to 12 px above the ground.
        (start, controls(0, 0, 0, 1, 0), 4, Camera { z: 108 << 8, ..start }),
        (start, controls(0, 0, 0, -1, 0), 4, Camera { z: 92 << 8, ..start }),
        (Camera { z: 35 << 8, ..start }, controls(0, 0, 0, -1, 0), 8, Camera { z: 32 << 8, ..start }),
        // Pitch 2 rows a refresh, within +-50.
        (start, controls(0, 0, 0, 0, 1), 5, Camera { pitch: 10, ..start }),
        (Camera { pitch: -45, ..start }, controls(0, 0, 0, 0, -1), 5, Camera { pitch: -PITCH_LIMIT, ..start }),
    ];
    for (k, (from, c, r, want)) in cases.into_iter().enumerate() {
        assert_eq!(fly(&mut land, from, c, r), want, "case {k}: {c:?} for {r}");
    }
    // The ceiling: climbing stops at 700 px.
    let high = fly(&mut land, Camera { z: (CEILING - 1) << 8, ..start }, controls(0, 0, 0, 1, 0), 3);
    assert_eq!(high.z, CEILING << 8);
    // Below the ground: lifted to 12 px above it at once.
    let low = fly(&mut land, Camera { z: 0, ..start }, Controls::default(), 1);
    assert_eq!(low.z, (20 + CLEARANCE) << 8);
    // Over the world's edge, forward along -x from x = 1: 2 px short of the side.
    let edge = fly(&mut land, Camera { x: 1 << 8, heading: 32768, ..start }, controls(1, 0, 0, 0, 0), 1);
    assert_eq!((edge.x, edge.y), (side - (2 << 8), start.y));
    assert_eq!(CLIMB, 2 << 8);
}

/// With the relief: the camera eases up towards the look-ahead (a quarter
/// of the way a refresh, at most 4 px a refresh), keeps above the floor,
/// and descending stops at the look-ahead; settling lifts it at once.
#[test]
fn the_ease_to_the_look_ahead() {
    let bytes = tower_bank(256);
    let relief = relief_of(&bytes);
    let mut memory = Memory::default();
    let mut land = memory.land(&bytes, Some(&relief));
    // At (100, 100) of a tile looking along +x: look-ahead 76, target 88 px;
    // floor 26 (the tower 37 px away diagonally), 38 px with the clearance.
    let start = Camera { x: (896 + 100) << 8, y: (896 + 100) << 8, z: 40 << 8, heading: 0, pitch: 0 };
    land.follow(&start);
    assert_eq!(relief.floor(&land.scene(), 996, 996), 26);
    let mut cam = start;
    let mut zs = Vec::new();
    for r in [1, 2, 1, 8, 1, 1, 8, 8, 1] {
        land.fly(&mut cam, Controls::default(), r);
        zs.push(cam.z);
    }
    // A quarter of what is left to 88 px (rounded up), at most 4 px a
    // refresh: 40 -> 44 -> 52 (2 refreshes) -> 56 -> 64 (8 refreshes: a
    // quarter of 32) -> 68 -> 72 -> 76 -> 79 -> 81.25 ((2304 + 3) / 4 = 576).
    let px = |p: i32| p << 8;
    assert_eq!(
        zs,
        [px(44), px(52), px(56), px(64), px(68), px(72), px(76), px(79), px(81) + 64],
        "{:?}",
        zs.iter().map(|z| *z as f64 / 256.0).collect::<Vec<_>>()
    );
    // Descending stops at the target (88 px).
    let mut cam = Camera { z: px(92), ..start };
    for _ in 0..4 {
        land.fly(&mut cam, controls(0, 0, 0, -1, 0), 1);
    }
    assert_eq!(cam.z, px(88));
    // Climbing beats the ease: 2 px a refresh on top of nothing (the ease
    // only lifts).
    let mut cam = Camera { z: px(200), ..start };
    land.fly(&mut cam, controls(0, 0, 0, 1, 0), 3);
    assert_eq!(cam.z, px(206));
    // Settling: at once onto the higher of floor and look-ahead (76), plus 12.
    let mut cam = Camera { z: 0, ..start };
    land.settle(&mut cam);
    assert_eq!(cam.z, px(88));
    let mut cam = Camera { z: px(300), ..start };
    land.settle(&mut cam);
    assert_eq!(cam.z, px(300));
    // Without a relief: onto the ground plus 12.
    let flat = flat_bank(32, 20);
    let mut memory = Memory::default();
    let mut land = memory.land(&flat, None);
    let mut cam = Camera { z: 0, ..start };
    land.settle(&mut cam);
    assert_eq!(cam.z, px(32));
}

/// A scripted flight over the pyramids with the relief: every input in
/// turn, 1 to 3 refreshes a step. Each step's camera is pinned (an FNV-1a
/// hash of them all, and a few by value); the camera never goes below the
/// floor plus the clearance and never rises more than `max_rise` a refresh.
#[test]
fn a_scripted_flight_over_pyramids() {
    let bytes = pyramids();
    let relief = relief_of(&bytes);
    let mut memory = Memory::default();
    let mut land = memory.land(&bytes, Some(&relief));
    let mut cam = Camera { x: 3000 << 8, y: 7000 << 8, z: 0, heading: 1000, pitch: 0 };
    land.settle(&mut cam);
    let script = [
        controls(1, 0, 0, 0, 0),
        controls(1, 1, 0, 0, 0),
        controls(1, 0, 1, 0, 0),
        controls(1, -1, 0, 1, 0),
        controls(0, 0, -1, -1, 1),
        controls(-1, 0, 0, 0, -1),
        controls(1, 0, 0, -1, 0),
    ];
    let mut hash = 0x811C_9DC5u32;
    let mut states = Vec::new();
    for step in 0..300u32 {
        let c = script[(step / 10) as usize % script.len()];
        let r = 1 + step % 3;
        let before = cam;
        land.follow(&cam);
        land.fly(&mut cam, c, r);
        land.follow(&cam);
        let floor = (relief.floor(&land.scene(), cam.x >> 8, cam.y >> 8) + CLEARANCE) << 8;
        assert!(cam.z >= floor, "step {step}: {cam:?} below the floor {floor}");
        assert!(cam.z - before.z <= (relief.max_rise() * r as i32) << 8, "step {step}: rose too fast");
        for v in [cam.x, cam.y, cam.z as u32, cam.heading as u32, cam.pitch as u32] {
            for b in v.to_le_bytes() {
                hash = (hash ^ b as u32).wrapping_mul(0x0100_0193);
            }
        }
        if step % 60 == 59 {
            states.push(cam);
        }
    }
    // After 60, 120, ... 300 steps (x, y and z in 24.8: the camera flies
    // about 880 px along +x, 280 along +y, between 130 and 220 px high).
    let cam = |x, y, z, heading, pitch| Camera { x, y, z, heading, pitch };
    let want = [
        cam(800_779, 1_808_534, 44_032, 1256, -2),
        cam(864_829, 1_828_024, 33_792, 1512, 40),
        cam(913_822, 1_862_428, 55_296, 1000, 2),
        cam(949_220, 1_877_059, 39_936, 6120, 0),
        cam(993_091, 1_874_230, 36_206, 6632, -2),
    ];
    assert_eq!(states, want, "{states:#?}");
    assert_eq!(hash, 0x84FF_68C4, "the 300 cameras changed");
}
