//! The product ROM boots, logs, shows its picture, and reacts to the keypad.

use e2e::{golden, run_rom};
use mgba_test_runner::{KeyScript, RunConfig};

#[test]
fn boots_logs_and_matches_its_golden() {
    let report = run_rom(
        "terrain",
        RunConfig {
            frames: 30,
            goldens: vec![(30, golden("boot.png"))],
            ..Default::default()
        },
    );
    report.verdict().unwrap();
    assert!(
        report.lines().any(|l| l.contains("boot ok")),
        "log: {:?}",
        report.log
    );
}

#[test]
fn input_changes_the_picture() {
    let still = run_rom(
        "terrain",
        RunConfig {
            frames: 40,
            ..Default::default()
        },
    );
    let keys: KeyScript = "0:RIGHT+DOWN,20:".parse().unwrap();
    let moved = run_rom(
        "terrain",
        RunConfig {
            frames: 40,
            keys,
            ..Default::default()
        },
    );
    still.verdict().unwrap();
    moved.verdict().unwrap();
    let (a, b) = (still.last_frame.unwrap(), moved.last_frame.unwrap());
    let (differing, _) = a.diff(&b);
    assert!(
        differing > 100,
        "only {differing} pixels changed with keys held"
    );
}
