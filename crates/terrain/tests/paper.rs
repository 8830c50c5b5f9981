//! The paper's method as published (`terrain::paper`), the benchmark's
//! baseline: the C `rand()` it draws from, the lookup worked out from its
//! formula (bilinear interpolation of the grid, random table, modulo), pinned
//! outputs for fixed seeds, wrap and range, and the reference array's rebuild.

use terrain::paper::{CRand, MAX_GRID, PaperWindow, PaperWorld, TABLE_LEN};

/// The lookup of the doc comments, written out apart from the crate: grid
/// values drawn row by row, then the table, from one `rand()` sequence; the
/// value at a pixel interpolated along x on the cell's top and bottom edges,
/// then along y, each step rounded down; the table entry modulo the tile
/// count.
struct Model {
    side: u64,
    spacing: u64,
    tiles: u64,
    grid: Vec<Vec<u64>>,
    table: Vec<u64>,
}

impl Model {
    fn new(rand: &mut CRand, side: usize, spacing: u32, tiles: u16) -> Model {
        let grid = (0..side).map(|_| (0..side).map(|_| rand.rand() as u64).collect()).collect();
        let table = (0..TABLE_LEN).map(|_| rand.rand() as u64).collect();
        Model { side: side as u64, spacing: spacing as u64, tiles: tiles as u64, grid, table }
    }

    fn tile(&self, px: u32, py: u32) -> u16 {
        let (s, n) = (self.spacing, self.side);
        let (px, py) = (px as u64, py as u64);
        // Cell corners, wrapping round the grid, and the pixel's offsets in the cell.
        let (x0, y0) = ((px / s % n) as usize, (py / s % n) as usize);
        let (x1, y1) = ((x0 + 1) % n as usize, (y0 + 1) % n as usize);
        let (fx, fy) = (px % s, py % s);
        let g = &self.grid;
        let lerp = |a: u64, b: u64, f: u64| (a * (s - f) + b * f) / s;
        let top = lerp(g[y0][x0], g[y0][x1], fx);
        let bottom = lerp(g[y1][x0], g[y1][x1], fx);
        let v = lerp(top, bottom, fy);
        (self.table[v as usize % TABLE_LEN] % self.tiles) as u16
    }
}

/// `srand(1)` then `rand()`: the ANSI C sample generator's well-known
/// sequence (C89 section 4.10.2.2), 15-bit values.
#[test]
fn crand_is_the_c_standard_sample() {
    let mut r = CRand::new(1);
    let got: Vec<u16> = (0..16).map(|_| r.rand()).collect();
    assert_eq!(
        got,
        [16838, 5758, 10113, 17515, 31051, 5627, 23010, 7419, 16212, 4086, 2749, 12767, 9084, 12060, 32225, 17543]
    );
    // Every result is 15 bits, whatever the seed's high bits.
    let mut r = CRand::new(0xFFFF_FFFF);
    assert!((0..10_000).map(|_| r.rand()).all(|v| v <= 0x7FFF));
    let mut r = CRand::new(0xFFFF_FFFF);
    assert!((0..10_000).map(|_| r.rand()).any(|v| v >= 0x4000));
}

/// Seed 1, a 2 x 2 grid 4 pixels apart and more tiles than `rand()` has
/// values (so the tile is the table entry itself). The grid is the first four
/// draws, [[16838, 5758], [10113, 17515]], the table the next 256. Worked by
/// hand, e.g. pixel (2, 0): top = (16838 * 2 + 5758 * 2) / 4 = 11298, fy = 0
/// so v = 11298, index 11298 % 256 = 34, the 39th draw; pixel (4, 0) is grid
/// point (1, 0): v = 5758, index 126. (The values were checked with an
/// independent script of the same formulas.)
#[test]
fn lookup_worked_by_hand() {
    let w = PaperWorld::new(1, 2, 4, 32768);
    let mut r = CRand::new(1);
    let draws: Vec<u16> = (0..4 + TABLE_LEN).map(|_| r.rand()).collect();
    assert_eq!(draws[..4], [16838, 5758, 10113, 17515]);
    let table = &draws[4..];
    assert_eq!(w.tile_at_px(2, 0), table[34]);
    assert_eq!(w.tile_at_px(4, 0), table[126]);
    assert_eq!(w.tile_at_px(0, 0), table[16838 % 256]);
    let pinned = [
        ((0, 0), 13870),
        ((2, 0), 6561),
        ((0, 2), 14566),
        ((2, 2), 25089),
        ((3, 1), 17116),
        ((4, 0), 25885),
        ((7, 7), 9874),
        // One grid side (2 points, 4 pixels apart) further: pixel (0, 0) again.
        ((8, 0), 13870),
    ];
    for ((px, py), want) in pinned {
        assert_eq!(w.tile_at_px(px, py), want, "pixel ({px}, {py})");
    }
}

/// A 5 x 5 grid 37 pixels apart (neither a power of two), 7 tiles: tiles at
/// pixels (29 x + 3, 41 y + 5), one row of the table per y, worked out by an
/// independent script of the doc comments' formulas.
#[test]
fn odd_sizes_give_pinned_tiles() {
    let w = PaperWorld::new(12345, 5, 37, 7);
    let want = [
        "3533215164141546",
        "5105203514412024",
        "4623302600313505",
        "4010221531041040",
        "6203425403113000",
        "5661255112123513",
    ];
    for (y, row) in want.iter().enumerate() {
        let got: String = (0..16).map(|x| w.tile_at_px(x * 29 + 3, y as u32 * 41 + 5).to_string()).collect();
        assert_eq!(&got, row, "row {y}");
    }
}

/// The benchmark's shape (16 x 16 grid, 256 pixels apart, 16 tiles), seed
/// 42: FNV-1a over the tiles of the first 64 x 64 pixels, pinned (computed
/// by the independent script).
#[test]
fn benchmark_world_fingerprint_is_pinned() {
    let w = PaperWorld::new(42, 16, 256, 16);
    let mut h: u32 = 0x811C_9DC5;
    for y in 0..64 {
        for x in 0..64 {
            h = (h ^ w.tile_at_px(x, y) as u32).wrapping_mul(0x0100_0193);
        }
    }
    assert_eq!(h, 0x2334_13FA);
}

/// Every pixel of two whole worlds and then some (wrapping), several shapes:
/// the crate's lookup equals the model, stays below the tile count, and
/// repeats with the world's period in pixels.
#[test]
fn lookup_equals_the_formula_everywhere() {
    for (seed, side, spacing, tiles) in [(7u32, 3usize, 5u32, 11u16), (99, 4, 16, 16), (3, 2, 3, 1000), (5, 16, 6, 5)] {
        let w = PaperWorld::new(seed, side, spacing, tiles);
        let m = Model::new(&mut CRand::new(seed), side, spacing, tiles);
        let period = side as u32 * spacing;
        for py in 0..2 * period + 3 {
            for px in 0..2 * period + 3 {
                let t = w.tile_at_px(px, py);
                assert_eq!(t, m.tile(px, py), "world {seed}: pixel ({px}, {py})");
                assert!(t < tiles);
                assert_eq!(t, w.tile_at_px(px + period, py + 3 * period));
            }
        }
    }
}

/// Out-of-range shapes are clamped, as `reset` says: side to 2..=16, spacing
/// to at least 1 pixel, tile count to at least 1 (then every tile is 0).
#[test]
fn shapes_are_clamped() {
    let same = |a: &PaperWorld, b: &PaperWorld, period: u32| {
        (0..period).all(|y| (0..period).all(|x| a.tile_at_px(x, y) == b.tile_at_px(x, y)))
    };
    assert!(same(&PaperWorld::new(4, 1, 8, 9), &PaperWorld::new(4, 2, 8, 9), 32));
    assert!(same(&PaperWorld::new(4, 40, 2, 9), &PaperWorld::new(4, MAX_GRID, 2, 9), 64));
    assert!(same(&PaperWorld::new(4, 3, 0, 9), &PaperWorld::new(4, 3, 1, 9), 6));
    let one = PaperWorld::new(4, 3, 5, 0);
    assert!((0..30).all(|y| (0..30).all(|x| one.tile_at_px(x, y) == 0)));
}

/// The same seed gives the same world; `reset` in place gives what `new`
/// does; another seed another world.
#[test]
fn worlds_repeat_per_seed() {
    let a = PaperWorld::new(77, 8, 10, 16);
    let mut b = PaperWorld::empty();
    b.reset(77, 8, 10, 16);
    let c = PaperWorld::new(78, 8, 10, 16);
    let tiles = |w: &PaperWorld| -> Vec<u16> {
        (0..80).flat_map(|y| (0..80).map(move |x| (x, y))).map(|(x, y)| w.tile_at_px(x, y)).collect()
    };
    assert_eq!(tiles(&a), tiles(&b));
    assert_ne!(tiles(&a), tiles(&c));
    // An empty world is all tile 0.
    assert!(tiles(&PaperWorld::empty()).iter().all(|&t| t == 0));
}

/// `new_world` draws a new grid and table from where the sequence left off;
/// `new_grid` only a new grid, keeping the table.
#[test]
fn new_world_and_new_grid_continue_the_sequence() {
    let (side, spacing, tiles) = (4usize, 9u32, 13u16);
    let mut r = CRand::new(2024);
    let first = Model::new(&mut r, side, spacing, tiles);
    let second = Model::new(&mut r, side, spacing, tiles);
    let mut grid_only = Model::new(&mut r, side, spacing, tiles);
    grid_only.table = second.table.clone();
    let check = |w: &PaperWorld, m: &Model, what: &str| {
        for py in 0..36 {
            for px in 0..36 {
                assert_eq!(w.tile_at_px(px, py), m.tile(px, py), "{what}: pixel ({px}, {py})");
            }
        }
    };
    let mut w = PaperWorld::new(2024, side, spacing, tiles);
    check(&w, &first, "new");
    w.new_world();
    check(&w, &second, "new_world");
    w.new_grid();
    check(&w, &grid_only, "new_grid");
}

/// The RAM figures the benchmark prints: the reference array is N x N 16-bit
/// references; the world is its struct (two 16 x 16 arrays of u16 and a few
/// words).
#[test]
fn ram_figures_are_pinned() {
    assert_eq!(PaperWindow::<4>::ram_bytes(), 32);
    assert_eq!(PaperWindow::<16>::ram_bytes(), 512);
    assert_eq!(PaperWindow::<64>::ram_bytes(), 8192);
    assert_eq!(PaperWindow::<64>::ram_bytes(), core::mem::size_of::<PaperWindow<64>>());
    assert_eq!(PaperWorld::ram_bytes(), core::mem::size_of::<PaperWorld>());
    // Grid and table, 1024 bytes, plus side, spacing, tile count and the
    // generator's state, padded to the pointer size.
    #[cfg(target_pointer_width = "64")]
    assert_eq!(PaperWorld::ram_bytes(), 1048);
    #[cfg(target_pointer_width = "32")]
    assert_eq!(PaperWorld::ram_bytes(), 1040);
}

/// `rebuild` looks each reference up at its tile's centre pixel, the first
/// at tile (`tx0`, `ty0`); `get(i, j)` is column i, row j. Pinned for the
/// benchmark's shape (computed by the independent script), and equal to the
/// lookup for an odd one.
#[test]
fn rebuild_looks_up_tile_centres() {
    let w = PaperWorld::new(42, 16, 256, 16);
    let mut win = PaperWindow::<4>::new();
    win.rebuild(&w, 3, 5, 16);
    let want = [[9, 4, 8, 1], [1, 6, 15, 12], [0, 4, 5, 2], [3, 10, 8, 7]];
    for (j, row) in want.iter().enumerate() {
        for (i, &t) in row.iter().enumerate() {
            assert_eq!(win.get(i, j), t, "reference ({i}, {j})");
        }
    }
    let w = PaperWorld::new(8, 5, 21, 9);
    let mut win = PaperWindow::<16>::default();
    for (tx0, ty0, tile_px) in [(0, 0, 8), (7, 2, 16), (11, 30, 5)] {
        win.rebuild(&w, tx0, ty0, tile_px);
        for j in 0..16u32 {
            for i in 0..16u32 {
                let (px, py) = ((tx0 + i) * tile_px + tile_px / 2, (ty0 + j) * tile_px + tile_px / 2);
                assert_eq!(win.get(i as usize, j as usize), w.tile_at_px(px, py), "{tile_px} px: ({i}, {j})");
            }
        }
    }
}

/// Tile coordinates past `u32::MAX` wrap, as C's unsigned arithmetic (and
/// the world) does: no overflow. A world of 256 px (16 grid points 16 px
/// apart) repeats every 16 tiles of 16 px, and 2^32 is a multiple of that:
/// tile -4 is tile 12.
#[test]
fn rebuild_wraps_round_u32() {
    let w = PaperWorld::new(42, 16, 16, 16);
    let (mut a, mut b) = (PaperWindow::<4>::new(), PaperWindow::<4>::new());
    a.rebuild(&w, 0u32.wrapping_sub(4), 0u32.wrapping_sub(4), 16);
    b.rebuild(&w, 12, 12, 16);
    for j in 0..4 {
        for i in 0..4 {
            assert_eq!(a.get(i, j), b.get(i, j), "reference ({i}, {j})");
        }
    }
}
