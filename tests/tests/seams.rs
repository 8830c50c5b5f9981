//! Seams before and after, as golden frames (kept as documentation images):
//! the same ROM with the paper's placement (tiles as cut) and the default
//! (corner tiles).

use e2e::{actual_dir, golden, rom, root};
use mgba_test_runner::{GoldenMode, RunConfig, check_golden, run};

#[test]
fn seams_before_and_after() {
    let mut options = tilebake::Options::from_manifest(&root().join("assets/terrain.toml")).unwrap();
    assert_eq!(options.placement, tilebake::PlacementKind::Corners, "the default set is a corner set");
    options.placement = tilebake::PlacementKind::Paper;
    let plain = tilebake::bake(&options, &mut |_, _, _| {}).unwrap().bytes;
    let before = tilebake::pack::pack("terrain.gba".as_ref(), &rom("terrain"), &plain).unwrap();
    for (name, bytes) in [("seams-before.png", before), ("seams-after.png", rom("terrain"))] {
        // A packed bank is checked at boot (its CRC: about 0.7 s for 512 KB).
        let report = run(&bytes, &RunConfig { frames: 150, ..Default::default() }).unwrap();
        report.verdict().unwrap();
        let frame = report.last_frame.unwrap();
        check_golden(&frame, &golden(name), &actual_dir(), GoldenMode::from_env())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
