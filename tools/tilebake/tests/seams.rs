//! The seam fade: every tile edge ends up at one height and one colour, and
//! the seam measure drops from clearly visible to invisible.

use std::path::PathBuf;
use tilebake::seams::{fade_edges, measure};

fn assets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

fn bake(band: u32) -> Vec<u8> {
    let mut options = tilebake::Options::from_manifest(&assets().join("terrain.toml")).unwrap();
    options.seam_band = band;
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
fn the_seam_measure_drops_below_1_2() {
    let plain = bake(0);
    let faded = bake(6);
    let p = measure(&bank::parse(&plain).unwrap(), 1, 24);
    let f = measure(&bank::parse(&faded).unwrap(), 1, 24);
    // Tiles as cut: borders are cliffs and colour steps.
    assert!(p.height_ratio > 3.0 && p.colour_ratio > 2.0, "plain placement: {p:?}");
    // Faded: no worse than the inside of a tile (the goal, 1.2).
    assert!(f.height_ratio <= 1.2 && f.colour_ratio <= 1.2, "faded edges: {f:?}");
}
