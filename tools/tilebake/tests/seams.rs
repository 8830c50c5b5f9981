//! Continuity, measured on worlds exactly as the ROM places them: the
//! paper's placement (tiles as cut) shows cliffs and islands, the old edge
//! fade flattens every border, and corner placement on the default assets
//! is in the natural range on every measure.

use std::path::PathBuf;
use tilebake::measure::{LATTICE_SHOWS, measure};
use tilebake::seams::fade_edges;
use tilebake::{Options, PlacementKind};

fn assets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

fn bake(edit: impl FnOnce(&mut Options)) -> Vec<u8> {
    let mut options = Options::from_manifest(&assets().join("terrain.toml")).unwrap();
    edit(&mut options);
    tilebake::bake(&options, &mut |_, _, _| {}).unwrap().bytes
}

#[test]
fn every_edge_texel_is_the_same_after_the_fade() {
    let mut tiles: Vec<Vec<u16>> =
        (0..5u16).map(|t| (0..64u16).map(|i| bank::texel((i * 7 + t * 40) as u8, (i % 5) as u8)).collect()).collect();
    fade_edges(&mut tiles, 8, 3);
    let edge = tiles[0][0];
    for t in &tiles {
        for i in 0..8 {
            for (x, y) in [(i, 0), (i, 7), (0, i), (7, i)] {
                assert_eq!(t[y * 8 + x], edge, "texel ({x}, {y})");
            }
        }
        // The middle is untouched.
        assert_ne!(t[3 * 8 + 3], edge);
    }
}

#[test]
fn the_papers_placement_and_the_fade_fail_in_opposite_ways() {
    let plain = bake(|o| o.placement = PlacementKind::Paper);
    let faded = bake(|o| {
        o.placement = PlacementKind::Paper;
        o.seam_band = 6;
    });
    let p = measure(&bank::parse(&plain).unwrap(), 1, 24).unwrap();
    let f = measure(&bank::parse(&faded).unwrap(), 1, 24).unwrap();
    // Tiles as cut: borders are cliffs and colour steps, tiles are islands.
    assert!(p.height_step > 3.0 && p.colour_step > 2.0, "plain placement: {p:?}");
    assert!(p.neighbour_correlation.abs() < 0.2 && p.height_grid > 2.0, "plain placement: {p:?}");
    // Faded: borders flattened to one level, a frame round every tile.
    assert!(f.height_step < 0.5 && f.height_spread < 0.5, "faded edges: {f:?}");
}

/// The goals, on the default assets, for three seeds: steps and
/// spreads at borders within 0.8..1.25 of the inside, landforms across tiles
/// (neighbour correlation at least 0.4), no grid (our own measures:
/// a natural map scores about 0 on both), and no lattice: nothing repeated
/// at every tile corner or edge of a kind stands out of the land round it
/// (below 5; shared borders repeat the land's own texels, about 2 to 4.5).
#[test]
fn corner_placement_reads_as_one_landscape() {
    let bytes = bake(|_| {});
    let bank = bank::parse(&bytes).unwrap();
    for seed in [1, 2, 3] {
        let m = measure(&bank, seed, 32).unwrap();
        for (name, v) in [
            ("height step", m.height_step),
            ("colour step", m.colour_step),
            ("height spread", m.height_spread),
            ("colour spread", m.colour_spread),
        ] {
            assert!((0.8..=1.25).contains(&v), "seed {seed}: {name} {v:.3}: {m:?}");
        }
        assert!(m.neighbour_correlation >= 0.4, "seed {seed}: {m:?}");
        assert!(m.height_grid < 0.5 && m.colour_grid < 0.8, "seed {seed}: {m:?}");
        assert!(m.height_periodicity.abs() < 0.1 && m.colour_periodicity.abs() < 0.1, "seed {seed}: {m:?}");
        assert!(m.height_lattice < LATTICE_SHOWS && m.colour_lattice < LATTICE_SHOWS, "seed {seed}: {m:?}");
    }
}

/// The README's own example (`tilebake generate --seed 7 --size 512`, baked
/// with the defaults) shows no lattice either: its corner patch for high
/// ground once held a fleck of snow, white at every high vertex where the
/// land round it is rock (colour lattice 7.2 to 7.3 on these seeds; now
/// about 3.6).
#[test]
fn the_readmes_example_shows_no_lattice() {
    let d = tempfile::tempdir().unwrap();
    let [height, texture] = tilebake::generate::write(7, 512, &d.path().join("gen")).unwrap();
    let options = Options::new(vec![tilebake::Pair { height, texture }]);
    let bytes = tilebake::bake(&options, &mut |_, _, _| {}).unwrap().bytes;
    let bank = bank::parse(&bytes).unwrap();
    for seed in [1, 2, 3] {
        let m = measure(&bank, seed, 32).unwrap();
        assert!(m.height_lattice < LATTICE_SHOWS && m.colour_lattice < LATTICE_SHOWS, "seed {seed}: {m:?}");
    }
}
