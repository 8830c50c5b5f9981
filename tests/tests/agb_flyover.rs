//! The example game on agb (`examples/agb-flyover`, built by `cargo xtask
//! example` or `cargo xtask test`): it boots, flies, draws the terrain in
//! mode 4 and shows its craft (an agb object) over it.

use e2e::{fields, run_rom};
use mgba_test_runner::{Frame, KeyScript, RunConfig, RunReport};

const ROM: &str = "agb-flyover";
/// The craft's body colour (BGR555 magenta), which no landscape palette has.
const CRAFT: u16 = 0x7C1F;
/// A screen refresh, in cycles.
const REFRESH: u32 = 280_896;

fn fly(frames: u32, keys: &str) -> RunReport {
    let keys: KeyScript = keys.parse().unwrap();
    let report = run_rom(ROM, RunConfig { frames, keys, ..Default::default() });
    report.verdict().unwrap();
    report
}

fn colours(frame: &Frame) -> usize {
    let mut seen = std::collections::HashSet::new();
    seen.extend(frame.pixels().iter().copied());
    seen.len()
}

#[test]
fn boots_flies_and_shows_its_craft_over_the_terrain() {
    let report = fly(90, "1:");
    assert!(report.lines().any(|l| l.contains("agb-flyover: boot ok")), "log: {:?}", report.log);
    let frames: Vec<_> = report.lines().filter(|l| l.starts_with("frame n=")).collect();
    assert!(frames.len() >= 2, "too few frames logged: {frames:?}");
    // Flying forward: the camera moved between the first and the last logged frame.
    let (a, b) = (fields(frames[0]), fields(frames[frames.len() - 1]));
    assert!(a["x"] != b["x"] || a["y"] != b["y"], "the camera did not move: {a:?} {b:?}");
    let cycles: Vec<u32> = frames.iter().map(|l| fields(l)["cycles"].parse().unwrap()).collect();
    eprintln!("agb-flyover frame cycles (every 16th frame): {cycles:?}");
    // Each frame is shown at a VBlank: frame to frame is a whole number of
    // refreshes (agb's commit alone would go ahead mid-screen when a VBlank
    // passed during the render).
    for &c in &cycles[1..] {
        let refreshes = (c + REFRESH / 2) / REFRESH;
        assert!(refreshes >= 1 && c.abs_diff(refreshes * REFRESH) < 1000, "frame of {c} cycles: not flipped at VBlank");
    }

    let picture = report.last_frame.unwrap();
    let n = colours(&picture);
    assert!(n >= 16, "the picture has only {n} colours: not a landscape");
    // The craft flies at the screen's centre column, a little below the horizon.
    let craft = picture.crop(104, 56, 32, 48);
    let body = craft.pixels().iter().filter(|&&c| c == CRAFT).count();
    assert!((20..=256).contains(&body), "{body} craft pixels round the screen centre");
    let elsewhere = picture.pixels().iter().filter(|&&c| c == CRAFT).count() - body;
    assert_eq!(elsewhere, 0, "craft colour away from the craft");
}

#[test]
fn the_view_changes_while_flying_and_steering() {
    let a = fly(60, "1:").last_frame.unwrap();
    let b = fly(120, "1:,61:RIGHT+UP").last_frame.unwrap();
    let (differing, _) = a.diff(&b);
    assert!(differing > 2000, "only {differing} pixels changed in a second of flight");
}
