//! `cargo xtask run --rom FILE`: another ROM than ours, headless; a missing or
//! invalid file is a one-line error naming it.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-run-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `xtask run ARGS` with no display.
fn xtask_run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .arg("run")
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .output()
        .expect("run xtask")
}

#[test]
fn a_missing_or_invalid_rom_is_one_line_naming_it() {
    let dir = scratch("bad");
    let missing = dir.join("missing.gba");
    let text = dir.join("notes.gba");
    std::fs::write(&text, "not a ROM at all, just some words").unwrap();
    let mut broken = gbarom::tiny::rom();
    broken[0xBD] ^= 0xFF;
    let bad_header = dir.join("broken.gba");
    std::fs::write(&bad_header, &broken).unwrap();
    for (path, says) in
        [(&missing, "No such file"), (&text, "too short for a header"), (&bad_header, "header checksum")]
    {
        let out = xtask_run(&["--rom", path.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{}: {err}", path.display());
        assert_eq!(err.lines().count(), 1, "not one line: {err}");
        assert!(err.contains(path.to_str().unwrap()) && err.contains(says), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // --seconds is for the window: without a display it is a usage error.
    let out = xtask_run(&["--rom", bad_header.to_str().unwrap(), "--seconds", "1"]);
    assert!(!out.status.success());
    std::fs::remove_dir_all(dir).ok();
}

/// The headless path runs the given ROM in the harness: its screenshots show
/// the tiny ROM's screen, not the terrain.
#[test]
fn run_rom_headless_runs_that_rom() {
    let dir = scratch("headless");
    let rom = dir.join("tiny.gba");
    std::fs::write(&rom, gbarom::tiny::rom()).unwrap();
    let shot = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/run/frame-00060.png");
    std::fs::remove_file(&shot).ok();
    let out = xtask_run(&["--rom", rom.to_str().unwrap(), "--headless", "--frames", "60"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(&format!("ROM: {}", rom.display())), "{stdout}");
    let frame = bgr555(&shot);
    // Green backdrop (no A held in the demo keys), whatever SRAM held.
    assert!(frame.iter().all(|p| p & 0x7FE0 == gbarom::tiny::GREEN), "{} is not the tiny ROM's screen", shot.display());
    // Quiet by default: the tiny ROM's info line is not echoed, its error line is.
    assert!(!err.contains("tiny: hello") && err.contains("tiny: an error line"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

/// A PNG's pixels in BGR555.
fn bgr555(path: &std::path::Path) -> Vec<u16> {
    let img = image::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).to_rgb8();
    img.pixels().map(|p| (p[0] as u16 >> 3) | ((p[1] as u16 >> 3) << 5) | ((p[2] as u16 >> 3) << 10)).collect()
}
