//! The product ROM boots, logs, shows its picture, and reacts to the keypad.

use e2e::{actual_dir, golden, run_rom};
use mgba_test_runner::{GoldenMode, KeyScript, RunConfig, check_golden};

/// The picture above the HUD (its last two text rows show cycle counts, which
/// change with every optimisation and are checked by the benchmarks instead).
#[test]
fn boots_logs_and_matches_its_golden() {
    let report = run_rom("terrain", RunConfig { frames: 30, ..Default::default() });
    report.verdict().unwrap();
    assert!(report.lines().any(|l| l.contains("boot ok")), "log: {:?}", report.log);
    let picture = report.last_frame.unwrap().crop(0, 0, 240, 144);
    check_golden(&picture, &golden("boot.png"), &actual_dir(), GoldenMode::from_env()).unwrap();
}

#[test]
fn input_changes_the_picture() {
    let still = run_rom("terrain", RunConfig { frames: 40, ..Default::default() });
    let keys: KeyScript = "1:RIGHT+DOWN,21:".parse().unwrap();
    let moved = run_rom("terrain", RunConfig { frames: 40, keys, ..Default::default() });
    still.verdict().unwrap();
    moved.verdict().unwrap();
    let (a, b) = (still.last_frame.unwrap(), moved.last_frame.unwrap());
    let (differing, _) = a.diff(&b);
    assert!(differing > 100, "only {differing} pixels changed with keys held");
}
