//! Corner placement: tiles chosen by the classes of their four corners, so
//! neighbours share the classes of the vertices between them.

use bank::{CONFIGS, ConfigTiles, Corners, Placement, config, corners};
use proptest::prelude::*;
use terrain::{ParamError, World, WorldParams, class_band};

/// Three classes, each configuration `c` owning tiles `c % 31 * 8 ..` (8 of
/// them; every seventh configuration one).
fn three_classes(t1: u8, t2: u8) -> Placement {
    let mut configs = [ConfigTiles::default(); CONFIGS];
    for (c, e) in configs.iter_mut().enumerate() {
        *e = ConfigTiles { first: (c % 31 * 8) as u8, count: if c % 7 == 0 { 1 } else { 8 } };
    }
    Placement::Corners(Corners { classes: 3, thresholds: [t1, t2, 0], configs })
}

fn corner_world(seed: u32, params: WorldParams) -> World {
    World::with_placement(seed, params, &three_classes(100, 164)).unwrap()
}

/// Pinned: the first 8 x 4 tiles of a seeded corner world, computed by hand
/// from the definition (field, class, configuration, variant) in the test.
#[test]
fn tile_follows_the_definition() {
    let w = corner_world(7, WorldParams::DEFAULT);
    let p = three_classes(100, 164);
    let Placement::Corners(c) = p else { unreachable!() };
    for ty in 0..4 {
        for tx in 0..8 {
            // The field at each corner (8.6 fixed point at spacing 8), its
            // integer part's class, the top-left vertex's random bits.
            let class = |x: u32, y: u32| c.class_of((w.value_at(x, y) >> 6) as u8);
            let cfg = config(class(tx, ty), class(tx + 1, ty), class(tx, ty + 1), class(tx + 1, ty + 1));
            let e = c.configs[cfg as usize];
            let t = w.tile_at(tx, ty);
            assert!((e.first..e.first + e.count).contains(&t), "tile ({tx}, {ty}): {t} not in {e:?}");
            assert_eq!(w.vertex_class(tx, ty), class(tx, ty));
            let bit = |x: u32, y: u32| (w.vertex_entry(x, y) >> 2) & 1;
            let combination = bank::combination(bit(tx, ty), bit(tx + 1, ty), bit(tx, ty + 1), bit(tx + 1, ty + 1));
            let want = e.first + if e.count == 1 { 0 } else { combination };
            assert_eq!(t, want, "tile ({tx}, {ty})");
        }
    }
}

#[test]
fn bands_narrower_than_the_field_moves_are_refused() {
    assert_eq!(class_band(3), 64);
    assert_eq!(class_band(4), 32);
    let p = WorldParams::DEFAULT;
    assert!(World::with_placement(1, p, &three_classes(100, 164)).is_ok());
    assert_eq!(
        World::with_placement(1, p, &three_classes(100, 163)).unwrap_err(),
        ParamError::ClassBand { spacing_log2: 3, need: 64 }
    );
    // A wider spacing moves the field less per tile.
    assert!(World::with_placement(1, WorldParams { spacing_log2: 4, ..p }, &three_classes(100, 132)).is_ok());
}

/// The combinations of a configuration are used about equally often.
#[test]
fn combinations_are_balanced() {
    let w = corner_world(11, WorldParams::DEFAULT);
    let n = w.size_tiles();
    let mut uses = [0u32; 256];
    for y in 0..n {
        for x in 0..n {
            uses[w.tile_at(x, y) as usize] += 1;
        }
    }
    // All-lowland tiles (class 1 everywhere): configuration 0x55 owns tiles
    // 0x55 % 31 * 8 = 184 .. 192.
    let used = &uses[184..192];
    let total: u32 = used.iter().sum();
    assert!(total > 2000, "{used:?}");
    for &u in used {
        let share = u as f64 * 8.0 / total as f64;
        assert!((0.75..1.33).contains(&share), "{used:?}");
    }
}

proptest! {
    /// With bands as wide as `class_band`, no tile has corners more than one
    /// class apart: the bank only needs configurations of two neighbouring classes.
    #[test]
    fn corners_stay_within_two_neighbouring_classes(seed: u32, t1 in 1u8..=120, extra in 0u8..40, s in 3u8..=5) {
        let params = WorldParams { spacing_log2: s, ..WorldParams::DEFAULT };
        let t2 = (t1 as u16 + class_band(s) + extra as u16).min(255) as u8;
        let w = World::with_placement(seed, params, &three_classes(t1, t2)).unwrap();
        let n = w.size_tiles();
        for y in (0..n).step_by(3) {
            for x in 0..n {
                let c = [w.vertex_class(x, y), w.vertex_class(x + 1, y), w.vertex_class(x, y + 1), w.vertex_class(x + 1, y + 1)];
                let (lo, hi) = (c.iter().min().unwrap(), c.iter().max().unwrap());
                prop_assert!(hi - lo <= 1, "tile ({}, {}) corners {:?}", x, y, c);
            }
        }
    }

    /// Neighbours agree on the classes of the vertices they share, so the
    /// tile on each side of an edge was baked for that edge's two classes.
    #[test]
    fn neighbours_share_edge_classes(seed: u32, x: u32, y: u32) {
        let w = corner_world(seed, WorldParams::DEFAULT);
        let placement = three_classes(100, 164);
        let Placement::Corners(c) = placement else { unreachable!() };
        let cfg_of = |t: u8| (0..CONFIGS).find(|&k| {
            let e = c.configs[k];
            // Configurations with the same tiles share them; any will do for the classes
            // when the class of each corner is checked below.
            (e.first..e.first + e.count).contains(&t)
        });
        let t = w.tile_at(x, y);
        prop_assert!(cfg_of(t).is_some());
        let right = corners(config(w.vertex_class(x + 1, y), w.vertex_class(x + 2, y), w.vertex_class(x + 1, y + 1), w.vertex_class(x + 2, y + 1)));
        let here = corners(config(w.vertex_class(x, y), w.vertex_class(x + 1, y), w.vertex_class(x, y + 1), w.vertex_class(x + 1, y + 1)));
        // My right edge (TR, BR) is my right neighbour's left edge (TL, BL).
        prop_assert_eq!((here[1], here[3]), (right[0], right[2]));
    }

    #[test]
    fn corner_walkers_equal_the_lookup(seed: u32, x: u32, y: u32, n in 1usize..300, s in 3u8..=7, g in 2u8..=6) {
        let params = WorldParams { grid_log2: g, spacing_log2: s, tile_count: 256 };
        let w = World::with_placement(seed, params, &three_classes(60, 200)).unwrap();
        let mut row = vec![0u8; n];
        let mut col = vec![0u8; n];
        w.fill_row(x, y, &mut row);
        w.fill_column(x, y, &mut col);
        for i in 0..n as u32 {
            prop_assert_eq!(row[i as usize], w.tile_at(x.wrapping_add(i), y), "row {}", i);
            prop_assert_eq!(col[i as usize], w.tile_at(x, y.wrapping_add(i)), "column {}", i);
        }
    }
}

/// A seeded corner world pinned whole (its fingerprint, which also pins the
/// shuffle of the vertex table), and its largest tile: configuration 30 (30
/// mod 31 = 30, not a multiple of 7) names tiles 240 ..= 247.
#[test]
fn corner_world_is_pinned() {
    let w = corner_world(7, WorldParams::DEFAULT);
    assert_eq!(w.fingerprint(), 0xFDD5_CB3E);
    assert_eq!(w.max_tile(), 247);
    assert!(w.is_corners());
    // A configuration of no tiles counts as one: its first.
    let mut configs = [ConfigTiles { first: 3, count: 2 }; CONFIGS];
    configs[17] = ConfigTiles { first: 200, count: 0 };
    configs[18] = ConfigTiles { first: 190, count: 10 };
    let p = Placement::Corners(Corners { classes: 2, thresholds: [90, 0, 0], configs });
    let w = World::with_placement(1, WorldParams::DEFAULT, &p).unwrap();
    assert_eq!(w.max_tile(), 200);
    // Every tile of configuration 17 is its first; none passes the largest.
    let mut seventeen = 0;
    for y in 0..w.size_tiles() {
        for x in 0..w.size_tiles() {
            let [tl, tr, bl, br] = [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(dx, dy)| w.vertex_class(x + dx, y + dy));
            let tile = w.tile_at(x, y);
            assert!(tile <= w.max_tile(), "tile ({x}, {y}) is {tile}");
            if config(tl, tr, bl, br) == 17 {
                assert_eq!(tile, 200, "tile ({x}, {y})");
                seventeen += 1;
            }
        }
    }
    assert!(seventeen > 0);
    configs[18].count = 12;
    let p = Placement::Corners(Corners { classes: 2, thresholds: [90, 0, 0], configs });
    assert_eq!(World::with_placement(1, WorldParams::DEFAULT, &p).unwrap().max_tile(), 201);
}

/// Corner sets made by hand may claim more classes than the three
/// thresholds allow (banks hold 2 ..= 3): only the three thresholds are
/// read, so the classes stay 0 ..= 3 and nothing indexes past them.
#[test]
fn more_classes_than_thresholds_read_only_the_three() {
    let configs = [ConfigTiles { first: 0, count: 1 }; CONFIGS];
    let p = Placement::Corners(Corners { classes: 9, thresholds: [40, 110, 180], configs });
    let w = World::with_placement(5, WorldParams::DEFAULT, &p).unwrap();
    let mut seen = [false; 4];
    for y in 0..128 {
        for x in 0..128 {
            seen[w.vertex_class(x, y) as usize] = true;
        }
    }
    assert!(seen.iter().filter(|&&s| s).count() >= 2);
}
