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

/// `--sav FILE` as the command line does it: SRAM read from the file when it
/// exists, written back at the end; a bookmark (SELECT + START) made in one run
/// resumes in the next.
#[test]
fn a_bookmark_resumes_through_a_sav_file() {
    use mgba_test_runner::{KeyScript, read_sav, run, write_sav};
    let sav = std::env::temp_dir().join(format!("e2e-bookmark-{}.sav", std::process::id()));
    std::fs::remove_file(&sav).ok();
    let rom = e2e::rom("terrain");
    let boot = |keys: &str, frames: u32| {
        let save = read_sav(&sav).unwrap();
        let config = RunConfig { frames, keys: keys.parse::<KeyScript>().unwrap(), save, ..Default::default() };
        let report = run(&rom, &config).unwrap();
        report.verdict().unwrap();
        write_sav(&sav, &report.save).unwrap();
        report
    };
    let first = boot("1:UP+RIGHT,91:SELECT,95:SELECT+START,99:,101:UP", 140);
    let saved = first.lines().find(|l| l.starts_with("bookmark saved:")).expect("a bookmark saved").to_string();
    assert_eq!(std::fs::metadata(&sav).unwrap().len(), 32768, "32 KB of SRAM written back");
    let second = boot("", 40);
    let resumed = second.lines().find(|l| l.starts_with("bookmark resumed:")).expect("the bookmark resumed");
    let place = |l: &str| {
        let f = e2e::fields(l);
        ["seed", "x", "y", "z", "heading", "pitch"].map(|k| f[k].to_string())
    };
    assert_eq!(place(&saved), place(resumed));
    std::fs::remove_file(&sav).ok();
}
