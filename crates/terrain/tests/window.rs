//! The window always equals the lookup, after any walk, teleport, wrap or new world.

use bank::{CONFIGS, ConfigTiles, Corners, Placement};
use proptest::prelude::*;
use terrain::{Update, Window, World, WorldParams, class_band};

fn check<const N: usize>(win: &Window<N>, world: &World) -> Result<(), TestCaseError> {
    let (ox, oy) = win.origin();
    let m = world.size_tiles() - 1;
    for j in 0..N as u32 {
        for i in 0..N as u32 {
            let (tx, ty) = ((ox + i) & m, (oy + j) & m);
            prop_assert!(win.covers(world, tx, ty));
            prop_assert_eq!(win.get(tx, ty), world.tile_at(tx, ty), "tile ({}, {})", tx, ty);
            // Unwrapped coordinates address the same reference.
            prop_assert_eq!(win.get(tx + m + 1, ty.wrapping_sub(m + 1)), world.tile_at(tx, ty));
        }
    }
    prop_assert!(!win.covers(world, ox.wrapping_sub(1) & m, oy) || N as u32 > m);
    Ok(())
}

#[derive(Debug, Clone)]
enum Move {
    Step(i8, i8),
    Teleport(u32, u32),
    NewWorld(u32),
}

fn moves() -> impl Strategy<Value = Vec<Move>> {
    prop::collection::vec(
        prop_oneof![
            8 => (-3i8..=3, -3i8..=3).prop_map(|(x, y)| Move::Step(x, y)),
            1 => (any::<u32>(), any::<u32>()).prop_map(|(x, y)| Move::Teleport(x, y)),
            1 => any::<u32>().prop_map(Move::NewWorld),
        ],
        1..60,
    )
}

/// The paper's placement, or corner placement with random tables that suit
/// spacing 2^`spacing_log2` (2 classes need no band; 3 need one).
fn placement(spacing_log2: u8) -> impl Strategy<Value = Placement> {
    let band = class_band(spacing_log2);
    let corners = (any::<bool>(), 1u8..=40, prop::collection::vec((any::<u8>(), 1u8..=8), CONFIGS)).prop_map(
        move |(three, t1, configs)| {
            let classes = if three && band < 200 { 3 } else { 2 };
            let thresholds = if classes == 3 { [t1, (t1 as u16 + band) as u8, 0] } else { [t1 + 100, 0, 0] };
            let mut c = [ConfigTiles::default(); CONFIGS];
            for (e, (first, count)) in c.iter_mut().zip(configs) {
                *e = ConfigTiles { first: first.min(255 - count), count };
            }
            Placement::Corners(Corners { classes, thresholds, configs: c })
        },
    );
    prop_oneof![Just(Placement::Paper), corners]
}

fn walk<const N: usize>(
    params: WorldParams,
    placement: &Placement,
    seed: u32,
    moves: &[Move],
) -> Result<(), TestCaseError> {
    let mut world = World::with_placement(seed, params, placement).unwrap();
    let mut win = Window::<N>::new();
    let (mut cx, mut cy) = (0u32, 0u32);
    win.recenter(&world, cx, cy);
    check(&win, &world)?;
    for m in moves {
        match *m {
            Move::Step(dx, dy) => {
                cx = cx.wrapping_add(dx as i32 as u32);
                cy = cy.wrapping_add(dy as i32 as u32);
            }
            Move::Teleport(x, y) => (cx, cy) = (x, y),
            Move::NewWorld(s) => {
                world.regenerate(s, params).unwrap();
                win.invalidate();
            }
        }
        let up = win.recenter(&world, cx, cy);
        if let Move::Step(dx, dy) = *m
            && !up.rebuilt
        {
            let expect = (dx.unsigned_abs() as u32 + dy.unsigned_abs() as u32) * N as u32;
            prop_assert_eq!(up.tiles, expect, "only what scrolls in is computed");
        }
        check(&win, &world)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn window16_equals_lookup(
        (g, s, p) in (2u8..=4, 2u8..=4).prop_flat_map(|(g, s)| (Just(g), Just(s), placement(s))),
        seed: u32,
        moves in moves(),
    ) {
        walk::<16>(WorldParams { grid_log2: g, spacing_log2: s, tile_count: 16 }, &p, seed, &moves)?;
    }

    #[test]
    fn window64_equals_lookup(p in placement(3), seed: u32, moves in moves()) {
        walk::<64>(WorldParams::DEFAULT, &p, seed, &moves)?;
    }

    /// The smallest world a 16-wide window fits: the window covers the world
    /// exactly, and every step wraps.
    #[test]
    fn window_as_wide_as_the_world(p in placement(2), seed: u32, moves in moves()) {
        walk::<16>(WorldParams { grid_log2: 2, spacing_log2: 2, tile_count: 5 }, &p, seed, &moves)?;
    }
}

#[test]
fn flying_for_ever_in_one_direction() {
    let world = World::new(3, WorldParams::DEFAULT).unwrap();
    let mut win = Window::<64>::new();
    let n = world.size_tiles();
    // Three times round the world, diagonally, one tile per step.
    for k in 0..3 * n {
        let up = win.recenter(&world, k, k.wrapping_mul(2));
        if k > 0 {
            assert!(!up.rebuilt);
            assert_eq!(up.tiles, 3 * 64);
        }
    }
    let (ox, oy) = win.origin();
    for j in 0..64 {
        for i in 0..64 {
            assert_eq!(win.get(ox + i, oy + j), world.tile_at(ox + i, oy + j));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    /// Cells of two tiles (spacing 2^1): whole cells too narrow for the word
    /// stores, filled a tile at a time.
    #[test]
    fn window16_on_two_tile_cells(g in 3u8..=5, p in placement(1), seed: u32, moves in moves()) {
        walk::<16>(WorldParams { grid_log2: g, spacing_log2: 1, tile_count: 16 }, &p, seed, &moves)?;
    }
}

/// Pinned sizes: the side is N; the RAM is the N x N references, the origin
/// (two u32) and the valid flag, padded to 4 bytes.
#[test]
fn side_and_ram_are_pinned() {
    assert_eq!(Window::<16>::side(), 16);
    assert_eq!(Window::<64>::side(), 64);
    assert_eq!(Window::<16>::ram_bytes(), 16 * 16 + 12);
    assert_eq!(Window::<64>::ram_bytes(), 64 * 64 + 12);
}

/// `recenter` puts the camera's tile at window position N / 2 on both axes,
/// wrapping round the world (128 tiles).
#[test]
fn recenter_centres_the_camera() {
    let world = World::new(5, WorldParams::DEFAULT).unwrap();
    let mut win = Window::<16>::new();
    win.recenter(&world, 40, 50);
    assert_eq!(win.origin(), (32, 42));
    win.recenter(&world, 3, 130);
    assert_eq!(win.origin(), (123, 122));
    let mut win = Window::<64>::new();
    win.recenter(&world, 100, 7);
    assert_eq!(win.origin(), (68, 103));
}

/// `covers`: exactly the N x N tiles from the origin (wrapping), nothing
/// before the first build or after `invalidate`.
#[test]
fn covers_exactly_the_window() {
    let world = World::new(5, WorldParams::DEFAULT).unwrap();
    let mut win = Window::<16>::new();
    assert!(!win.covers(&world, 0, 0));
    win.recenter(&world, 40, 50);
    let cases = [
        ((32, 42), true),
        ((47, 57), true),
        ((47 + 128, 57 + 256), true),
        ((31, 42), false),
        ((48, 42), false),
        ((32, 41), false),
        ((32, 58), false),
        ((48, 57), false),
        ((47, 58), false),
    ];
    for ((tx, ty), want) in cases {
        assert_eq!(win.covers(&world, tx, ty), want, "tile ({tx}, {ty})");
    }
    // Over the seam: origin (123, 122), the window ends at (10, 9) wrapped.
    win.recenter(&world, 3, 130);
    assert!(win.covers(&world, 10, 9) && win.covers(&world, 123, 122));
    assert!(!win.covers(&world, 11, 9) && !win.covers(&world, 10, 10) && !win.covers(&world, 122, 122));
    win.invalidate();
    assert!(!win.covers(&world, 3, 2));
}

/// `ring_row(r)` is ring row r mod N, where tile (tx, ty) sits at column
/// tx mod N of row ty mod N.
#[test]
fn ring_rows_hold_the_tiles() {
    let world = World::new(11, WorldParams::DEFAULT).unwrap();
    let mut win = Window::<16>::new();
    win.recenter(&world, 40, 50);
    let (ox, oy) = win.origin();
    for ty in oy..oy + 16 {
        for tx in ox..ox + 16 {
            let t = world.tile_at(tx, ty);
            assert_eq!(win.ring_row(ty as usize % 16)[tx as usize % 16], t, "tile ({tx}, {ty})");
            assert_eq!(win.ring_row(ty as usize + 32)[tx as usize % 16], t, "tile ({tx}, {ty}), row + 2N");
        }
    }
}

/// What each move reports: a build is N x N tiles; a step of k < N tiles
/// along one axis, either way, N * k tiles and no rebuild, also over the seam
/// and up to half the world (N - 1 = 63 of 128 tiles: the shortest way round
/// is still forward); N tiles or more rebuild. The window equals the lookup
/// after each.
#[test]
fn updates_count_what_scrolls_in() {
    let world = World::new(8, WorldParams::DEFAULT).unwrap();
    let mut win = Window::<64>::new();
    let rebuilt = Update { tiles: 64 * 64, rebuilt: true };
    let scrolled = |k: u32| Update { tiles: 64 * k, rebuilt: false };
    let moves = [
        ((0, 0), rebuilt),
        ((1, 0), scrolled(1)),
        ((0, 0), scrolled(1)),
        ((0, 127), scrolled(1)),
        ((0, 0), scrolled(1)),
        ((63, 0), scrolled(63)),
        ((0, 0), scrolled(63)),
        ((0, 63), scrolled(63)),
        ((0, 0), scrolled(63)),
        ((125, 3), scrolled(6)),
        ((61, 3), rebuilt),
        ((61, 67), rebuilt),
    ];
    for ((cx, cy), want) in moves {
        assert_eq!(win.recenter(&world, cx, cy), want, "to ({cx}, {cy})");
        check(&win, &world).unwrap();
    }
    win.invalidate();
    assert_eq!(win.recenter(&world, 61, 67), rebuilt);
}

/// Debug output names the window's side, origin and state.
#[test]
fn debug_shows_side_origin_and_state() {
    let world = World::new(5, WorldParams::DEFAULT).unwrap();
    let mut win = Window::<16>::default();
    assert_eq!(format!("{win:?}"), "Window { n: 16, origin: (0, 0), valid: false }");
    win.recenter(&world, 40, 50);
    assert_eq!(format!("{win:?}"), "Window { n: 16, origin: (32, 42), valid: true }");
}

/// `line` from (`tx`, `ty`), `len` tiles, against the lookup of each.
/// Tile `i` of the line from (`tx`, `ty`), along a row or (`down`) a column.
fn along((tx, ty): (u32, u32), down: bool, i: usize) -> (u32, u32) {
    if down { (tx, ty.wrapping_add(i as u32)) } else { (tx.wrapping_add(i as u32), ty) }
}

fn line_matches<const N: usize>(
    win: &Window<N>,
    world: &World,
    (tx, ty): (u32, u32),
    down: bool,
    len: usize,
) -> Result<(), TestCaseError> {
    let mut out = vec![0xEE; len + 1];
    win.line(world, tx, ty, down, &mut out[..len]);
    for (i, &t) in out[..len].iter().enumerate() {
        let (x, y) = along((tx, ty), down, i);
        prop_assert_eq!(t, world.tile_at(x, y), "tile {} of the line, ({}, {})", i, x, y);
    }
    prop_assert_eq!(out[len], 0xEE, "nothing written past the line");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Lines that start inside, outside or across the window, wrap round the
    /// world, or meet a window never filled (or out of date).
    #[test]
    fn line_equals_lookup(
        (g, s, p) in (2u8..=4, 2u8..=4).prop_flat_map(|(g, s)| (Just(g), Just(s), placement(s))),
        seed: u32,
        centre in (any::<u32>(), any::<u32>()),
        from in (-40i32..40, -40i32..40),
        down: bool,
        len in 0usize..200,
        state in 0u8..3,
    ) {
        let params = WorldParams { grid_log2: g, spacing_log2: s, tile_count: 16 };
        let world = World::with_placement(seed, params, &p).unwrap();
        let mut win = Window::<16>::new();
        if state == 1 {
            win.recenter(&world, centre.0, centre.1);
        }
        if state == 2 {
            // Out of date: filled from another world, then invalidated.
            let other = World::with_placement(seed ^ 0x5A5A_5A5A, params, &p).unwrap();
            win.recenter(&other, centre.0, centre.1);
            win.invalidate();
        }
        let start = (centre.0.wrapping_add(from.0 as u32), centre.1.wrapping_add(from.1 as u32));
        line_matches(&win, &world, start, down, len)?;
    }

    /// Every tile the window holds comes from its ring, the rest from the
    /// world (the speed contract: a ring copy is a load, a walk a few adds).
    /// Seen by breaking the window's own contract on purpose: the ring is
    /// filled from world `a`, the line asked of world `b`, so each tile
    /// tells where it came from.
    #[test]
    fn line_copies_every_tile_the_window_holds(
        p in placement(3),
        seeds in (any::<u32>(), any::<u32>()),
        centre in (any::<u32>(), any::<u32>()),
        from in (-24i32..24, -24i32..24),
        down: bool,
        len in 0usize..200,
    ) {
        let params = WorldParams { grid_log2: 3, spacing_log2: 3, tile_count: 16 };
        let a = World::with_placement(seeds.0, params, &p).unwrap();
        let b = World::with_placement(seeds.1, params, &p).unwrap();
        let mut win = Window::<16>::new();
        win.recenter(&a, centre.0, centre.1);
        let (tx, ty) = (centre.0.wrapping_add(from.0 as u32), centre.1.wrapping_add(from.1 as u32));
        let mut out = vec![0; len];
        win.line(&b, tx, ty, down, &mut out);
        for (i, &t) in out.iter().enumerate() {
            let (x, y) = along((tx, ty), down, i);
            let from = if win.covers(&a, x, y) { &a } else { &b };
            prop_assert_eq!(t, from.tile_at(x, y), "tile {} of the line, ({}, {})", i, x, y);
        }
    }

    /// A window as wide as the world holds every line: it comes back in
    /// after each lap.
    #[test]
    fn line_round_a_world_as_wide_as_the_window(p in placement(2), seed: u32, start in (any::<u32>(), any::<u32>()), down: bool, len in 0usize..80) {
        let world = World::with_placement(seed, WorldParams { grid_log2: 2, spacing_log2: 2, tile_count: 5 }, &p).unwrap();
        let mut win = Window::<16>::new();
        win.recenter(&world, start.0 ^ 7, start.1);
        line_matches(&win, &world, start, down, len)?;
    }
}
