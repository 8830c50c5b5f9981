//! The harness catches what it must: bad memory accesses and panics.

use e2e::run_rom;
use mgba_test_runner::{RunConfig, RunFailure};

#[test]
fn bad_memory_read_fails_the_run() {
    let report = run_rom("bad_memory", RunConfig { frames: 10, ..Default::default() });
    assert!(report.lines().any(|l| l.contains("reading 0x10000000")), "log: {:?}", report.log);
    match report.verdict() {
        Err(RunFailure::BadMemory { first, .. }) => {
            assert!(first.contains("Bad memory"), "{first}")
        }
        other => panic!("expected a bad memory failure, got {other:?}"),
    }
}

#[test]
fn panic_fails_the_run_with_its_message() {
    let report = run_rom("panics", RunConfig { frames: 60, ..Default::default() });
    match report.verdict() {
        Err(RunFailure::Fatal { message, frame }) => {
            assert!(message.contains("deliberate panic after 3 frames"), "{message}");
            assert!(message.contains("panics.rs"), "location missing: {message}");
            assert!(frame <= 5, "panic reported at frame {frame}");
        }
        other => panic!("expected a Fatal failure, got {other:?}"),
    }
    // The run stops at the panic, and the screen shows it (red background).
    assert!(report.frames < 60);
    let frame = report.last_frame.expect("a frame");
    assert_eq!(frame.pixel(239, 159), 12, "panic screen background is BGR555 red 12");
}
