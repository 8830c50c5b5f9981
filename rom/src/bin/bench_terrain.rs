//! Benchmark ROM for the terrain core: the paper's Tables 2, 3 and 5 measured
//! for our implementation and for a straightforward one of the paper's method
//! (`terrain::paper`), side by side in one run. Every figure is a cycle count
//! from the cascaded timers, logged as `bench key=value ...` lines that
//! `cargo xtask bench` turns into a table and `target/bench/terrain.jsonl`.
//! Each window is also checked against the plain lookup (`check` lines).
#![no_std]
#![no_main]

use terrain::paper::{PaperWindow, PaperWorld};
use terrain::{Window, World, WorldParams};
use terrain_rom::cycles::{self, Cycles};
use terrain_rom::statics::Static;
use terrain_rom::{log, wait_vblank};

/// The view of Table 2: 1024 x 1024 pixels, with a 4 x 4 grid (256 px apart).
const VIEW_PX: u32 = 1024;
const GRID_PX: u32 = 256;
/// Camera positions each measurement is averaged over (tile coordinates).
const SPOTS: [(u32, u32); 8] = [(0, 0), (1, 3), (5, 2), (7, 7), (10, 13), (33, 17), (62, 41), (91, 100)];
/// Single-tile moves averaged for the row and column updates.
const MOVES: u32 = 32;

/// In EWRAM, as in the product ROM.
static WORLD: Static<World> = Static::new(World::empty());
#[unsafe(link_section = ".iwram.w8")]
static W8: Static<Window<8>> = Static::new(Window::new());
#[unsafe(link_section = ".iwram.w16")]
static W16: Static<Window<16>> = Static::new(Window::new());
#[unsafe(link_section = ".iwram.w32")]
static W32: Static<Window<32>> = Static::new(Window::new());
#[unsafe(link_section = ".iwram.w64")]
static W64: Static<Window<64>> = Static::new(Window::new());
/// 16 KB: EWRAM.
static W128: Static<Window<128>> = Static::new(Window::new());
static PAPER_WORLD: Static<PaperWorld> = Static::new(PaperWorld::empty());
static P8: Static<PaperWindow<8>> = Static::new(PaperWindow::new());
static P16: Static<PaperWindow<16>> = Static::new(PaperWindow::new());
static P32: Static<PaperWindow<32>> = Static::new(PaperWindow::new());
static P64: Static<PaperWindow<64>> = Static::new(PaperWindow::new());
static P128: Static<PaperWindow<128>> = Static::new(PaperWindow::new());

fn log2(x: u32) -> u8 {
    (31 - x.leading_zeros()) as u8
}

/// World parameters for tiles of `tile_px`: a 4 x 4 grid spanning the view.
fn params(tile_px: u32) -> WorldParams {
    WorldParams { grid_log2: 2, spacing_log2: log2(GRID_PX / tile_px), tile_count: 16 }
}

/// Checks every reference of `window` against the lookup; logs failures.
fn check<const N: usize>(what: &str, window: &Window<N>, world: &World) -> bool {
    let (ox, oy) = window.origin();
    let mut bad = 0u32;
    for j in 0..N as u32 {
        for i in 0..N as u32 {
            if window.get(ox + i, oy + j) != world.tile_at(ox + i, oy + j) {
                bad += 1;
            }
        }
    }
    if bad != 0 {
        log!("check FAILED {}: {} of {} references differ from the lookup", what, bad, N * N);
    }
    bad == 0
}

/// A corner placement for the benchmark: two classes (no band to respect at
/// any spacing), every configuration with its eight combinations.
fn corners() -> bank::Placement {
    let mut configs = [bank::ConfigTiles::default(); bank::CONFIGS];
    for (c, e) in configs.iter_mut().enumerate() {
        *e = bank::ConfigTiles { first: (c % 31 * 8) as u8, count: bank::COMBINATIONS };
    }
    bank::Placement::Corners(bank::Corners { classes: 2, thresholds: [128, 0, 0], configs })
}

/// `impl` names in the log: the paper's placement through our window, or
/// corner placement.
fn impl_name(placement: &bank::Placement) -> &'static str {
    match placement {
        bank::Placement::Paper => "ours",
        bank::Placement::Corners(_) => "corners",
    }
}

fn ours_rebuild<const N: usize>(
    window: &mut Window<N>,
    world: &mut World,
    mem: &str,
    placement: &bank::Placement,
) -> bool {
    let tile_px = VIEW_PX / N as u32;
    world.set_placement(params(tile_px), placement).unwrap();
    world.regenerate(7, params(tile_px)).unwrap();
    let overhead = cycles::overhead();
    let mut total = 0;
    let mut ok = true;
    for (x, y) in SPOTS {
        window.invalidate();
        let t = Cycles::now();
        window.recenter(world, x, y);
        total += t.elapsed() - overhead;
        ok &= check("rebuild", window, world);
    }
    log!(
        "bench impl={} name=rebuild tile_size={} window={} grid=4 cycles={} bytes={} mem={}",
        impl_name(placement),
        tile_px,
        N,
        total / SPOTS.len() as u32,
        Window::<N>::ram_bytes(),
        mem
    );
    ok
}

fn paper_rebuild<const N: usize>(window: &mut PaperWindow<N>, world: &mut PaperWorld) {
    let tile_px = VIEW_PX / N as u32;
    world.reset(7, 4, GRID_PX, 16);
    let overhead = cycles::overhead();
    let mut total = 0;
    for (x, y) in SPOTS {
        let t = Cycles::now();
        window.rebuild(world, x, y, tile_px);
        total += t.elapsed() - overhead;
    }
    log!(
        "bench impl=paper name=rebuild tile_size={} window={} grid=4 cycles={} bytes={} mem=ewram",
        tile_px,
        N,
        total / SPOTS.len() as u32,
        PaperWindow::<N>::ram_bytes()
    );
}

/// One-tile moves of the 64 x 64 window of 16 px tiles: rows (moving in y)
/// and columns (moving in x).
fn ours_scroll(window: &mut Window<64>, world: &mut World, placement: &bank::Placement) -> bool {
    world.set_placement(params(16), placement).unwrap();
    world.regenerate(7, params(16)).unwrap();
    let overhead = cycles::overhead();
    let mut ok = true;
    for (name, dx, dy) in [("row", 0u32, 1u32), ("column", 1, 0)] {
        let (mut x, mut y) = (5u32, 9u32);
        window.invalidate();
        window.recenter(world, x, y);
        let mut total = 0;
        for _ in 0..MOVES {
            x = x.wrapping_add(dx);
            y = y.wrapping_add(dy);
            let t = Cycles::now();
            let up = window.recenter(world, x, y);
            total += t.elapsed() - overhead;
            ok &= up.tiles == 64 && !up.rebuilt;
        }
        ok &= check(name, window, world);
        log!(
            "bench impl={} name={} tile_size=16 window=64 grid=4 cycles={} bytes={} mem=iwram",
            impl_name(placement),
            name,
            total / MOVES,
            Window::<64>::ram_bytes()
        );
    }
    // A call that moves nothing: the fixed cost inside the figures above.
    window.recenter(world, 77, 77);
    let t = Cycles::now();
    let still = window.recenter(world, 77, 77);
    let cost = t.elapsed() - overhead;
    ok &= still.tiles == 0;
    log!(
        "bench impl={} name=still tile_size=16 window=64 grid=4 cycles={} bytes=0 mem=iwram",
        impl_name(placement),
        cost
    );
    ok
}

/// The paper repopulates the whole array on every move.
fn paper_scroll(window: &mut PaperWindow<64>, world: &mut PaperWorld) {
    world.reset(7, 4, GRID_PX, 16);
    let overhead = cycles::overhead();
    for (name, dx, dy) in [("row", 0u32, 1u32), ("column", 1, 0)] {
        let (mut x, mut y) = (5u32, 9u32);
        let mut total = 0;
        for _ in 0..4 {
            x += dx;
            y += dy;
            let t = Cycles::now();
            window.rebuild(world, x, y, 16);
            total += t.elapsed() - overhead;
        }
        log!(
            "bench impl=paper name={} tile_size=16 window=64 grid=4 cycles={} bytes={} mem=ewram",
            name,
            total / 4,
            PaperWindow::<64>::ram_bytes()
        );
    }
}

fn new_worlds(world: &mut World, paper: &mut PaperWorld) {
    let overhead = cycles::overhead();
    for side in [4u32, 8, 12, 16] {
        if side.is_power_of_two() {
            let p = WorldParams { grid_log2: log2(side), spacing_log2: 3, tile_count: 16 };
            let t = Cycles::now();
            world.regenerate(0x1234 + side, p).unwrap();
            let c = t.elapsed() - overhead;
            log!("bench impl=ours name=new_world grid={} cycles={} bytes={} mem=iwram", side, c, World::ram_bytes());
        } else {
            log!("bench impl=ours name=new_world grid={} cycles=none bytes={} mem=iwram", side, World::ram_bytes());
        }
        paper.reset(side, side as usize, GRID_PX, 16);
        let t = Cycles::now();
        paper.new_grid();
        let grid_only = t.elapsed() - overhead;
        let t = Cycles::now();
        paper.new_world();
        let c = t.elapsed() - overhead;
        log!(
            "bench impl=paper name=new_world grid={} cycles={} grid_only_cycles={} bytes={} mem=ewram",
            side,
            c,
            grid_only,
            PaperWorld::ram_bytes()
        );
    }
}

#[unsafe(no_mangle)]
extern "C" fn main() -> ! {
    terrain_rom::init();
    log!("bench terrain: start (cycle counter overhead {} cycles, subtracted)", cycles::overhead());
    let world = WORLD.take();
    let paper_world = PAPER_WORLD.take();
    let mut ok = true;
    let (w8, w16, w32, w64, w128) = (W8.take(), W16.take(), W32.take(), W64.take(), W128.take());
    for placement in [bank::Placement::Paper, corners()] {
        ok &= ours_rebuild(w8, world, "iwram", &placement);
        ok &= ours_rebuild(w16, world, "iwram", &placement);
        ok &= ours_rebuild(w32, world, "iwram", &placement);
        ok &= ours_rebuild(w64, world, "iwram", &placement);
        ok &= ours_rebuild(w128, world, "ewram", &placement);
        ok &= ours_scroll(w64, world, &placement);
    }
    world.set_placement(WorldParams::DEFAULT, &bank::Placement::Paper).unwrap();
    paper_rebuild(P8.take(), paper_world);
    paper_rebuild(P16.take(), paper_world);
    paper_rebuild(P32.take(), paper_world);
    let p64 = P64.take();
    paper_rebuild(p64, paper_world);
    paper_rebuild(P128.take(), paper_world);
    paper_scroll(p64, paper_world);
    new_worlds(world, paper_world);
    log!("bench impl=ours name=ram what=world bytes={}", World::ram_bytes());
    log!("bench impl=paper name=ram what=world bytes={}", PaperWorld::ram_bytes());
    log!("bench terrain: done, checks {}", if ok { "ok" } else { "FAILED" });
    loop {
        wait_vblank();
    }
}
