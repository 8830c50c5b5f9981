//! `cargo xtask <task>`: the one place that knows the order of the steps.
//!
//! - `setup`: install what a fresh Debian 12 machine lacks (idempotent).
//! - `rom`: build the ROMs, print the path of `target/gba/terrain.gba`.
//! - `example`: build the agb example game, print the path of
//!   `target/gba/agb-flyover.gba`.
//! - `run`: build and run the ROM (or `--rom FILE`): an mGBA window when a
//!   display exists (the emulator looked for in PATH, then /usr/games),
//!   otherwise headless in the harness with screenshots.
//! - `test`: formatting and lints, host tests, ROM and example builds, emulator tests.
//! - `bench`: every benchmark; each writes JSON lines under `target/bench/`.

mod cmd;
mod rom;
mod setup;

use anyhow::Result;
use anyhow::{Context, bail};
use clap::{Parser, Subcommand};
use cmd::{cargo, find_emulator, root, run};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

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
    /// Build the example game on agb (examples/agb-flyover) into target/gba/ and print its path.
    Example,
    /// Build and run the ROM (a window if a display exists, else headless).
    Run {
        /// Run headless even when a display exists.
        #[arg(long)]
        headless: bool,
        /// Frames to run headless (screen refreshes, 60 per second).
        #[arg(long, default_value_t = 300)]
        frames: u32,
        /// Run this ROM (a .gba file, e.g. one made by `tilebake pack`) instead
        /// of building target/gba/terrain.gba.
        #[arg(long, value_name = "FILE")]
        rom: Option<PathBuf>,
        /// Close the window after this many seconds, failing if the emulator
        /// exited before (a smoke test of the window).
        #[arg(long, value_name = "SECONDS")]
        seconds: Option<u64>,
    },
    /// Run every test: lints, host tests, ROM build, emulator tests, and a 36,000-frame soak
    /// (about 10 minutes in all, more on a first build).
    Test {
        /// Rewrite golden images from this run instead of comparing.
        #[arg(long)]
        bless: bool,
        /// Skip `cargo fmt --check` and clippy.
        #[arg(long)]
        no_lint: bool,
    },
    /// Check formatting, run clippy -D warnings and build the docs without warnings: host workspace, ROM, agb example.
    Lint,
    /// Run every benchmark and print its table (JSON lines in target/bench/).
    Bench,
    /// Regenerate the README's pictures in docs/ (flight GIF, views, tile set previews).
    Docs,
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
        Task::Setup => {
            setup::setup()?;
            println!("setup: Debian's {} and nightly's rust-src are installed", setup::PACKAGES.join(", "));
            Ok(())
        }
        Task::Rom => {
            setup::setup()?;
            let path = rom::build()?;
            println!("{}", path.display());
            Ok(())
        }
        Task::Example => {
            setup::setup()?;
            let path = rom::build_example()?;
            println!("{}", path.display());
            Ok(())
        }
        Task::Run { headless, frames, rom, seconds } => run_rom(headless, frames, rom.as_deref(), seconds),
        Task::Test { bless, no_lint } => test(bless, no_lint),
        Task::Lint => {
            setup::setup()?;
            lint()?;
            lint_example()
        }
        Task::Bench => bench(),
        Task::Docs => docs(),
    }
}

/// Clippy on the agb example. Run after its release build, it only checks
/// the example's own crates (seconds); run first, it would also check agb and
/// `core` for the GBA (minutes), which the build then compiles anyway.
fn lint_example() -> Result<()> {
    run(rom::example_cargo().args(["clippy", "--release", "--quiet", "--", "-D", "warnings"]))
}

fn lint() -> Result<()> {
    run(cargo().current_dir(root()).args(["fmt", "--all", "--check"]))?;
    run(cargo().current_dir(root().join("rom")).args(["fmt", "--check"]))?;
    run(cargo().current_dir(rom::example_dir()).args(["fmt", "--check"]))?;
    run(cargo().current_dir(root()).args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--quiet",
        "--",
        "-D",
        "warnings",
    ]))?;
    run(rom::rom_cargo().args(["clippy", "--release", "--bins", "--examples", "--quiet", "--", "-D", "warnings"]))?;
    // The API docs build without a warning, host crates and ROM.
    let mut doc = cargo();
    doc.current_dir(root()).args(["doc", "--workspace", "--no-deps", "--quiet"]).env("RUSTDOCFLAGS", "-D warnings");
    run(&mut doc)?;
    // In the release profile, as the clippy run above: it reuses that run's
    // check of `core` (built from source), where the dev profile's took CI
    // 50 s more.
    let mut doc = rom::rom_cargo();
    doc.args(["doc", "--release", "--no-deps", "--quiet"]).env("RUSTDOCFLAGS", "-D warnings");
    run(&mut doc)?;
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
    // The renderer without its 240-column mode, as a game may build it.
    run(cargo().current_dir(root()).args(["test", "--quiet", "--package", "voxel", "--no-default-features"]))?;
    eprintln!("== ROM build");
    let gba = rom::build()?;
    eprintln!("built {}", gba.display());
    eprintln!("== example game (agb)");
    let t = Instant::now();
    let example = rom::build_example()?;
    eprintln!("built {} in {:.0} s", example.display(), t.elapsed().as_secs_f64());
    if !no_lint {
        lint_example()?;
    }
    eprintln!("== emulator tests");
    let e2e = |args: &[&str]| -> Result<()> {
        let mut c = cargo();
        c.current_dir(root()).args(["test", "--quiet", "--package", "e2e"]).args(args);
        c.env("TERRAIN_ROM_DIR", rom::gba_dir());
        if bless {
            c.env("TERRAIN_BLESS", "1");
        }
        run(&mut c)
    };
    e2e(&["--", "--skip", "soak"])?;
    eprintln!("== soak: 36,000 frames of scripted flight");
    e2e(&["--test", "soak", "--", "--nocapture"])?;
    eprintln!("all tests passed");
    Ok(())
}

/// A key timeline for the headless demo run: cruise, bank right while
/// climbing, bank left, dive (harness frames: screen refreshes from 1).
const DEMO_KEYS: &str = "1:UP,91:UP+RIGHT+A,171:UP,231:UP+LEFT,301:UP+B,361:UP";

/// The demo's keys for `rom`: the route above for the terrain ROM (also
/// after `tilebake pack`), or its turns alone for any other ROM: in the agb
/// example the craft flies forward by itself, and up, A and B climb or dive.
fn demo_keys(rom: &Path) -> String {
    keys_for(&gbarom::load(rom).unwrap_or_default())
}

/// [`demo_keys`] of a ROM's bytes.
fn keys_for(rom: &[u8]) -> String {
    if gbarom::is_product(rom) {
        return DEMO_KEYS.to_string();
    }
    let turns_only = |entry: &str| -> String {
        let (frame, keys) = entry.split_once(':').unwrap_or((entry, ""));
        let kept: Vec<&str> = keys.split('+').filter(|k| !["UP", "A", "B"].contains(k)).collect();
        format!("{frame}:{}", kept.join("+"))
    };
    DEMO_KEYS.split(',').map(turns_only).collect::<Vec<_>>().join(",")
}

/// The harness's command line, run through cargo: the dev profile, whose
/// dependencies `cargo xtask test` builds anyway (optimised, see the
/// workspace's profiles; the emulation is libmgba's C code), where a
/// release build of them took CI a minute and a half more.
fn runner() -> Command {
    let mut c = cargo();
    c.current_dir(root()).args(["run", "--quiet", "--package", "mgba-test-runner", "--"]);
    c
}

/// tilebake's command line, run through cargo.
fn tilebake() -> Command {
    let mut c = cargo();
    c.current_dir(root()).args(["run", "--quiet", "--release", "--package", "tilebake", "--"]);
    c
}

/// Checks a ROM given with `--rom`: it must be readable and have a valid
/// cartridge header. Errors are one line naming the file.
fn check_rom(path: &Path) -> Result<PathBuf> {
    let bytes = gbarom::load(path).map_err(|e| match e {
        gbarom::RomError::Read { .. } => anyhow::anyhow!("{e}"),
        e => anyhow::anyhow!("{}: {e}", path.display()),
    })?;
    if let Err(e) = gbarom::check_header(&bytes) {
        bail!("{}: not a GBA ROM: {e}", path.display());
    }
    std::path::absolute(path).with_context(|| format!("{}: no absolute path", path.display()))
}

fn run_rom(headless: bool, frames: u32, rom: Option<&Path>, seconds: Option<u64>) -> Result<()> {
    let given = rom.map(check_rom).transpose()?;
    let display = std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some();
    let window = display && !headless;
    if seconds.is_some() && !window {
        bail!(
            "--seconds closes the emulator's window: it needs a display (DISPLAY or WAYLAND_DISPLAY) and no --headless"
        );
    }
    setup::setup()?;
    let gba = match given {
        Some(path) => path,
        None => rom::build()?,
    };
    println!("ROM: {}", gba.display());
    if window {
        let emulator = match find_emulator() {
            Some(e) => e,
            None => {
                setup::apt_install(&["mgba-sdl"])?;
                find_emulator().context("installed Debian's mgba-sdl, but found no `mgba` in PATH or /usr/games")?
            }
        };
        return match seconds {
            None => {
                eprintln!("running {} in {} (close the window to stop)", gba.display(), emulator.display());
                run(Command::new(&emulator).arg(&gba))
            }
            Some(s) => window_for(&emulator, &gba, Duration::from_secs(s)),
        };
    }
    let out = root().join("target/run");
    std::fs::create_dir_all(&out)?;
    // This run's pictures only: an earlier, longer run's would stay beside them.
    for entry in std::fs::read_dir(&out)? {
        let path = entry?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if (name.starts_with("frame-") && name.ends_with(".png")) || name == "flight.gif" {
            std::fs::remove_file(&path).with_context(|| format!("could not remove {}", path.display()))?;
        }
    }
    // The harness, built first where its progress shows (about a minute the first time).
    eprintln!("building the emulator harness (mgba-test-runner)");
    run(cargo().current_dir(root()).args(["build", "--package", "mgba-test-runner"]))?;
    let mut c = runner();
    c.arg(&gba).args(["--frames", &frames.to_string(), "--keys", &demo_keys(&gba)]);
    for f in (60..=frames).step_by(60) {
        c.arg("--screenshot").arg(format!("{f}:{}", out.join(format!("frame-{f:05}.png")).display()));
    }
    // The GIF: from the first second on, at most 7 seconds, 15 pictures a second.
    let gif = out.join("flight.gif");
    if frames >= 60 {
        c.arg("--gif").arg(format!("{}:60:{}:4", gif.display(), frames.min(420)));
    }
    if display {
        eprintln!("--headless: running {frames} frames in the harness");
    } else {
        eprintln!("no display: running {frames} frames headless");
    }
    run(&mut c)?;
    println!("screenshots (one a second) and flight.gif in {}", out.display());
    Ok(())
}

/// Runs `emulator` on `gba` for `time`, fails if it exits before, then kills it.
fn window_for(emulator: &Path, gba: &Path, time: Duration) -> Result<()> {
    eprintln!("running {} in {} for {} s", gba.display(), emulator.display(), time.as_secs());
    let mut child =
        Command::new(emulator).arg(gba).spawn().with_context(|| format!("could not start {}", emulator.display()))?;
    let start = Instant::now();
    while start.elapsed() < time {
        if let Some(status) = child.try_wait()? {
            bail!(
                "{} exited after {:.1} s ({status}): the window did not stay up",
                emulator.display(),
                start.elapsed().as_secs_f64()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    // mgba-sdl ignores SIGTERM; Child::kill sends SIGKILL.
    child.kill().with_context(|| format!("could not stop {}", emulator.display()))?;
    child.wait()?;
    eprintln!("{} stayed up for {} s; closed it", emulator.display(), time.as_secs());
    Ok(())
}

fn docs() -> Result<()> {
    setup::setup()?;
    let gba = rom::build()?;
    let docs = root().join("docs");
    std::fs::create_dir_all(&docs)?;
    let mut c = runner();
    c.arg(&gba).args(["--frames", "420", "--keys", DEMO_KEYS]);
    c.arg("--gif").arg(format!("{}:60:420:4", docs.join("flight.gif").display()));
    run(&mut c)?;
    for (name, keys) in [
        ("view-terrain.png", "1:UP,61:"),
        ("view-boundaries.png", "1:UP,61:,71:SELECT,75:"),
        ("view-240-columns.png", "1:UP,61:,71:SELECT+R,75:"),
    ] {
        let mut c = runner();
        c.arg(&gba).args(["--frames", "120", "--keys", keys]);
        c.arg("--screenshot").arg(format!("120:{}", docs.join(name).display()));
        run(&mut c)?;
    }
    let bank = root().join("target/default.bank");
    run(tilebake().args(["bake", "--manifest", "assets/terrain.toml", "-o"]).arg(&bank))?;
    run(tilebake()
        .arg("preview")
        .arg(&bank)
        .arg("-o")
        .arg(docs.join("default"))
        .args(["--seed", "1", "--tiles", "12"]))?;
    run(tilebake().arg("inspect").arg(&bank))?;
    // The paper's placement beside ours: the same assets, from above (16 x 16
    // tiles of world seed 1 as the ROM places them) and in flight.
    let work = root().join("target/docs");
    std::fs::create_dir_all(&work)?;
    let manifest = std::fs::read_to_string(root().join("assets/terrain.toml"))?
        .replace("placement = \"corners\"", "placement = \"paper\"")
        // Classes are the corner placement's: tilebake refuses them with paper.
        .replace("classes = 3\n", "")
        .replace("\"height.png\"", &format!("{:?}", root().join("assets/height.png")))
        .replace("\"texture.png\"", &format!("{:?}", root().join("assets/texture.png")));
    let paper_manifest = work.join("paper.toml");
    std::fs::write(&paper_manifest, manifest)?;
    let paper = work.join("paper.bank");
    run(tilebake().args(["bake", "--manifest"]).arg(&paper_manifest).arg("-o").arg(&paper))?;
    for (name, b) in [("paper", &paper), ("ours", &bank)] {
        let dir = work.join(format!("{name}-world"));
        run(tilebake().arg("world").arg(b).args(["--seed", "1", "--tiles", "16", "-o"]).arg(&dir))?;
        std::fs::copy(dir.join("colour.png"), docs.join(format!("{name}-map.png")))?;
        std::fs::copy(dir.join("height.png"), docs.join(format!("{name}-heights.png")))?;
    }
    let packed = work.join("paper.gba");
    run(tilebake().arg("pack").arg(&gba).arg(&paper).arg("-o").arg(&packed))?;
    for (name, rom) in [("paper", &packed), ("ours", &gba)] {
        let mut c = runner();
        c.arg(rom).args(["--frames", "150", "--keys", "1:UP,41:UP+RIGHT,71:UP,101:", "--quiet"]);
        c.arg("--screenshot").arg(format!("150:{}", docs.join(format!("{name}-flight.png")).display()));
        run(&mut c)?;
    }
    println!("docs/ regenerated");
    Ok(())
}

fn bench() -> Result<()> {
    setup::setup()?;
    rom::build()?;
    run(cargo().current_dir(root()).args(["run", "--quiet", "--release", "--package", "bench", "--"]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_roms_get_the_routes_turns_alone() {
        let mut rom = vec![0u8; 0xC0];
        rom[0xA0..0xA7].copy_from_slice(b"TERRAIN");
        rom[0xAC..0xB0].copy_from_slice(&gbarom::GAME_CODE);
        assert_eq!(keys_for(&rom), DEMO_KEYS);
        rom[0xA0..0xAB].copy_from_slice(b"AGB-FLYOVER");
        assert_eq!(keys_for(&rom), "1:,91:RIGHT,171:,231:LEFT,301:,361:");
        assert_eq!(keys_for(&[]), "1:,91:RIGHT,171:,231:LEFT,301:,361:");
    }
}
