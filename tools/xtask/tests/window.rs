//! `cargo xtask run` with a display: the emulator's window comes up under a
//! virtual X server (Xvfb) and stays up, even though root's PATH lacks
//! /usr/games, where Debian installs `mgba-sdl`'s `mgba`.
//!
//! Installs Debian's `xvfb` when it is missing (xtask installs `mgba-sdl`);
//! skips, saying why, only where there is no apt-get to install it with.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A child process killed (SIGKILL) and reaped on drop.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        self.0.kill().ok();
        self.0.wait().ok();
    }
}

fn on_path(name: &str) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|d| d.join(name).is_file())
}

/// Installs the Debian package `xvfb` (the machine runs as root in CI).
fn install_xvfb() -> Result<(), String> {
    let apt = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("apt-get: {e}"))
    };
    let install = ["install", "-y", "-qq", "--no-install-recommends", "xvfb"];
    if apt(&install)?.status.success() {
        return Ok(());
    }
    apt(&["update", "-qq"])?;
    let out = apt(&install)?;
    if !out.status.success() {
        return Err(format!("apt-get install xvfb failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(())
}

/// A display number no X server uses.
fn free_display() -> u32 {
    (90..400)
        .find(|n| {
            !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists() && !Path::new(&format!("/tmp/.X{n}-lock")).exists()
        })
        .expect("a free X display number")
}

/// Starts Xvfb on `:n` and waits for its socket.
fn start_xvfb(n: u32) -> Killed {
    let child = Command::new("Xvfb")
        .args([format!(":{n}").as_str(), "-screen", "0", "640x480x24", "-nolisten", "tcp"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start Xvfb");
    let xvfb = Killed(child);
    let socket = PathBuf::from(format!("/tmp/.X11-unix/X{n}"));
    let start = Instant::now();
    while !socket.exists() {
        assert!(start.elapsed() < Duration::from_secs(10), "Xvfb :{n} did not come up");
        std::thread::sleep(Duration::from_millis(50));
    }
    xvfb
}

#[test]
fn run_opens_the_emulator_window_without_usr_games_in_path() {
    if !on_path("Xvfb") {
        if !on_path("apt-get") {
            eprintln!("SKIPPED: no Xvfb and no apt-get to install Debian's xvfb with");
            return;
        }
        install_xvfb().unwrap();
    }
    let dir = std::env::temp_dir().join(format!("xtask-window-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rom = dir.join("tiny.gba");
    std::fs::write(&rom, gbarom::tiny::rom()).unwrap();
    // Root's PATH on a fresh Debian machine: no /usr/games.
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(std::env::split_paths(&path).filter(|d| !d.starts_with("/usr/games"))).unwrap();
    let display = free_display();
    let _xvfb = start_xvfb(display);
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["run", "--seconds", "3", "--rom"])
        .arg(&rom)
        .env("PATH", &path)
        .env("DISPLAY", format!(":{display}"))
        .env_remove("WAYLAND_DISPLAY")
        // mGBA writes its settings here, not in the user's home.
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .expect("run xtask");
    let stderr = String::from_utf8_lossy(&out.stderr);
    std::fs::remove_dir_all(&dir).ok();
    assert!(out.status.success(), "xtask run failed:\n{stderr}");
    assert!(stderr.contains("stayed up for 3 s"), "{stderr}");
    let in_path = ["mgba-qt", "mgba"].iter().any(|e| std::env::split_paths(&path).any(|d| d.join(e).is_file()));
    if !in_path {
        assert!(stderr.contains("/usr/games/mgba"), "the emulator should come from /usr/games:\n{stderr}");
    }
    assert!(start.elapsed() < Duration::from_secs(60), "took {:?}", start.elapsed());
}
