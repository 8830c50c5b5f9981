//! `cargo xtask <task>`: the one place that knows the order of the steps.
//!
//! - `setup`: install what a fresh Debian 12 machine lacks (idempotent).
//! - `rom`: build the ROMs, print the path of `target/gba/terrain.gba`.
//! - `run`: build and run the ROM: an mGBA window when a display exists,
//!   otherwise headless with screenshots.
//! - `test`: formatting and lints, host tests, ROM build, emulator tests.
//! - `bench`: every benchmark; each writes JSON lines under `target/bench/`.

mod cmd;
mod rom;
mod setup;

use anyhow::Result;
use clap::{Parser, Subcommand};
use cmd::{cargo, have_command, root, run};
use std::path::PathBuf;
use std::process::Command;

#[derive(Debug, Parser)]
#[command(
    about = "Tasks of the GBA terrain project",
    after_help = "Examples:\n  cargo xtask run\n  cargo xtask test\n  cargo xtask test --bless   # rewrite golden images"
)]
struct Args {
    #[command(subcommand)]
    task: Task,
}

#[derive(Debug, Subcommand)]
enum Task {
    /// Install the Debian packages and the rust-src component the build needs.
    Setup,
    /// Build the ROMs into target/gba/ and print the product's path.
    Rom,
    /// Build and run the ROM (a window if a display exists, else headless).
    Run {
        /// Run headless even when a display exists.
        #[arg(long)]
        headless: bool,
        /// Frames to run headless (60 per second).
        #[arg(long, default_value_t = 300)]
        frames: u32,
    },
    /// Run every test: lints, host tests, ROM build, emulator tests.
    Test {
        /// Rewrite golden images from this run instead of comparing.
        #[arg(long)]
        bless: bool,
        /// Skip `cargo fmt --check` and clippy.
        #[arg(long)]
        no_lint: bool,
    },
    /// Check formatting and run clippy -D warnings on the host workspace and the ROM.
    Lint,
    /// Run every benchmark and print its table (JSON lines in target/bench/).
    Bench,
}

fn main() -> std::process::ExitCode {
    match task(Args::parse().task) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn task(task: Task) -> Result<()> {
    match task {
        Task::Setup => setup::setup(),
        Task::Rom => {
            setup::setup()?;
            let path = rom::build()?;
            println!("{}", path.display());
            Ok(())
        }
        Task::Run { headless, frames } => run_rom(headless, frames),
        Task::Test { bless, no_lint } => test(bless, no_lint),
        Task::Lint => {
            setup::setup()?;
            lint()
        }
        Task::Bench => bench(),
    }
}

fn lint() -> Result<()> {
    run(cargo().current_dir(root()).args(["fmt", "--all", "--check"]))?;
    run(cargo().current_dir(root().join("rom")).args(["fmt", "--check"]))?;
    run(cargo().current_dir(root()).args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--quiet",
        "--",
        "-D",
        "warnings",
    ]))?;
    run(cargo().current_dir(root().join("rom")).args([
        "clippy",
        "--release",
        "--bins",
        "--examples",
        "--quiet",
        "--",
        "-D",
        "warnings",
    ]))?;
    Ok(())
}

fn test(bless: bool, no_lint: bool) -> Result<()> {
    setup::setup()?;
    if !no_lint {
        eprintln!("== lint");
        lint()?;
    }
    eprintln!("== host tests");
    run(cargo().current_dir(root()).args(["test", "--quiet"]))?;
    eprintln!("== ROM build");
    let gba = rom::build()?;
    eprintln!("built {}", gba.display());
    eprintln!("== emulator tests");
    let mut c = cargo();
    c.current_dir(root()).args(["test", "--quiet", "--package", "e2e"]).env("TERRAIN_ROM_DIR", rom::gba_dir());
    if bless {
        c.env("TERRAIN_BLESS", "1");
    }
    run(&mut c)?;
    eprintln!("all tests passed");
    Ok(())
}

/// A key timeline for the headless demo run.
const DEMO_KEYS: &str = "0:,30:RIGHT,60:DOWN,90:LEFT+UP,150:";

fn run_rom(headless: bool, frames: u32) -> Result<()> {
    setup::setup()?;
    let gba = rom::build()?;
    println!("ROM: {}", gba.display());
    let display = std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some();
    if display && !headless {
        let emulator = ["mgba-qt", "mgba"].into_iter().find(|e| have_command(e));
        let emulator = match emulator {
            Some(e) => e,
            None => {
                setup::apt_install(&["mgba-sdl"])?;
                "mgba"
            }
        };
        eprintln!("running {} in {emulator} (close the window to stop)", gba.display());
        return run(Command::new(emulator).arg(&gba));
    }
    let out = root().join("target/run");
    std::fs::create_dir_all(&out)?;
    let mut shots: Vec<PathBuf> = Vec::new();
    let mut c = cargo();
    c.current_dir(root()).args(["run", "--quiet", "--release", "--package", "mgba-test-runner", "--"]);
    c.arg(&gba).args(["--frames", &frames.to_string(), "--keys", DEMO_KEYS]);
    for f in (60..=frames).step_by(60) {
        let p = out.join(format!("frame-{f:05}.png"));
        c.arg("--screenshot").arg(format!("{f}:{}", p.display()));
        shots.push(p);
    }
    eprintln!("no display: running {frames} frames headless");
    run(&mut c)?;
    println!("screenshots in {}", out.display());
    Ok(())
}

fn bench() -> Result<()> {
    setup::setup()?;
    rom::build()?;
    run(cargo().current_dir(root()).args(["run", "--quiet", "--release", "--package", "bench", "--"]))
}
