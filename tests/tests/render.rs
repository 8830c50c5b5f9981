//! The flyable ROM: the GBA's frames equal the host's reference renderer
//! pixel for pixel; golden frames of each view; a pinned scripted flight.

use e2e::{FrameLog, actual_dir, golden, reference_frame, run_rom};
use mgba_test_runner::{GoldenMode, KeyScript, RunConfig, check_golden};

/// Runs the ROM with `keys` until it logs its frame `n`, and returns that
/// frame's log and the palette indices of the page it was drawn into.
fn rendered(keys: &str, n: u32) -> (FrameLog, Vec<u8>) {
    let stop = format!("frame n={n} ");
    let config =
        RunConfig { frames: 4000, keys: keys.parse::<KeyScript>().unwrap(), stop_on: Some(stop), ..Default::default() };
    let report = run_rom("terrain", config);
    report.verdict().unwrap();
    let log = report.lines().filter_map(FrameLog::parse).find(|f| f.n == n).expect("frame line");
    let page = report.vram[log.page * 0xA000..log.page * 0xA000 + 240 * 160].to_vec();
    (log, page)
}

fn assert_equal(what: &str, log: &FrameLog, gba: &[u8]) {
    let host = reference_frame(log);
    let differing: Vec<usize> = (0..gba.len()).filter(|&i| gba[i] != host.0[i]).collect();
    assert!(
        differing.is_empty(),
        "{what}: {} of 38400 pixels differ from the host render, first at ({}, {}): GBA {} host {}; camera {:?}",
        differing.len(),
        differing[0] % 240,
        differing[0] / 240,
        gba[differing[0]],
        host.0[differing[0]],
        log
    );
}

#[test]
fn rom_frames_equal_the_host_reference() {
    // Straight, turning while climbing, and looking down.
    for (keys, n) in [("1:UP", 20), ("1:UP+RIGHT+A,41:UP+LEFT", 50), ("1:UP,11:SELECT+DOWN,41:UP+B", 45)] {
        let (log, page) = rendered(keys, n);
        assert_eq!(log.view, 0);
        assert_equal(keys, &log, &page);
    }
}

#[test]
fn boundary_view_equals_the_host_reference() {
    let (log, page) = rendered("21:SELECT,25:UP", 40);
    assert_eq!(log.view, 1, "SELECT goes to the boundary view");
    assert_equal("boundaries", &log, &page);
}

/// Goldens of still scenes: the keys stop well before the capture, and the
/// flight replays the keys of every refresh, so the picture does not depend on
/// how fast frames are drawn.
#[test]
fn golden_views() {
    for (name, keys, frame) in [
        ("view-terrain.png", "", 60),
        ("view-boundaries.png", "21:SELECT,25:", 60),
        ("view-map.png", "21:SELECT,25:,29:SELECT,33:", 60),
        ("flight-pinned.png", "1:UP,101:UP+RIGHT,201:UP+A,301:UP+LEFT+L,401:UP+B,501:", 540),
    ] {
        let config = RunConfig { frames: frame, keys: keys.parse::<KeyScript>().unwrap(), ..Default::default() };
        let report = run_rom("terrain", config);
        report.verdict().unwrap();
        let screen = report.last_frame.unwrap();
        check_golden(&screen, &golden(name), &actual_dir(), GoldenMode::from_env())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
