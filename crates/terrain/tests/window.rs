//! The window always equals the lookup, after any walk, teleport, wrap or new world.

use bank::{CONFIGS, ConfigTiles, Corners, Placement};
use proptest::prelude::*;
use terrain::{Window, World, WorldParams, class_band};

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
