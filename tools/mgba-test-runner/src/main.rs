//! `mgba-test-runner`: run a GBA ROM headless and fail on panics, bad memory
//! accesses and golden mismatches.

use anyhow::{Context, Result, bail};
use clap::Parser;
use mgba_test_runner::{GoldenMode, KeyScript, RunConfig, rom, run};
use std::path::PathBuf;
use std::process::ExitCode;

/// Run a GBA ROM (a .gba file, or an ELF converted on the fly) headless in mGBA.
///
/// Exit status: 0 when the run is clean, 1 when the ROM panicked (mGBA Fatal
/// log line), touched bad memory, or a golden image differs; 2 for bad usage.
#[derive(Debug, Parser)]
#[command(
    version,
    after_help = "Example:\n  mgba-test-runner target/gba/terrain.gba --frames 300 \\\n    --keys '0:RIGHT,60:RIGHT+A,120:' --screenshot 120:shot.png --golden 60:tests/golden/boot.png"
)]
struct Args {
    /// The ROM: a .gba file or the ROM's ELF.
    rom: PathBuf,
    /// Frames to run.
    #[arg(long, default_value_t = 60)]
    frames: u32,
    /// Key timeline `FRAME:KEY+KEY,...`, e.g. `0:RIGHT,60:RIGHT+A,120:`.
    #[arg(long, default_value = "")]
    keys: KeyScript,
    /// Save the screen after frame N: `N:PATH.png` (repeatable).
    #[arg(long = "screenshot", value_parser = frame_path)]
    screenshots: Vec<(u32, PathBuf)>,
    /// Compare the screen after frame N with a golden PNG: `N:PATH.png` (repeatable).
    #[arg(long = "golden", value_parser = frame_path)]
    goldens: Vec<(u32, PathBuf)>,
    /// Rewrite the golden images instead of comparing.
    #[arg(long)]
    bless: bool,
    /// Record an animated GIF of frames FROM..=TO, one in EVERY: `PATH:FROM:TO:EVERY`.
    #[arg(long, value_parser = gif_spec)]
    gif: Option<mgba_test_runner::GifCapture>,
    /// Stop when the ROM logs a line containing this text.
    #[arg(long)]
    stop_on: Option<String>,
    /// Do not echo the ROM's log.
    #[arg(long, short)]
    quiet: bool,
}

fn frame_path(s: &str) -> Result<(u32, PathBuf), String> {
    let (n, p) = s.split_once(':').ok_or_else(|| format!("`{s}` is not FRAME:PATH"))?;
    let n: u32 = n.parse().map_err(|_| format!("`{n}` is not a frame number"))?;
    if n == 0 {
        return Err("frames count from 1".into());
    }
    Ok((n, PathBuf::from(p)))
}

fn gif_spec(s: &str) -> Result<mgba_test_runner::GifCapture, String> {
    let parts: Vec<&str> = s.rsplitn(4, ':').collect();
    if parts.len() != 4 {
        return Err(format!("`{s}` is not PATH:FROM:TO:EVERY"));
    }
    let n = |v: &str| v.parse::<u32>().map_err(|_| format!("`{v}` is not a number"));
    let (every, to, from) = (n(parts[0])?, n(parts[1])?, n(parts[2])?);
    if from == 0 || to < from || every == 0 {
        return Err("need 1 <= FROM <= TO and EVERY >= 1".into());
    }
    Ok(mgba_test_runner::GifCapture { path: PathBuf::from(parts[3]), from, to, every })
}

fn main() -> ExitCode {
    let args = Args::parse();
    match real_main(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn real_main(args: Args) -> Result<bool> {
    let bytes = rom::load(&args.rom).with_context(|| format!("loading {}", args.rom.display()))?;
    if let Err(e) = rom::check_header(&bytes) {
        bail!("{}: not a valid GBA ROM header: {e}", args.rom.display());
    }
    let config = RunConfig {
        frames: args.frames,
        keys: args.keys,
        screenshots: args.screenshots,
        goldens: args.goldens,
        actual_dir: std::env::temp_dir(),
        golden_mode: Some(if args.bless { GoldenMode::Bless } else { GoldenMode::Check }),
        stop_on: args.stop_on,
        gif: args.gif,
        echo: !args.quiet,
        ..Default::default()
    };
    let report = run(&bytes, &config)?;
    for path in &report.screenshots {
        println!("screenshot: {}", path.display());
    }
    println!("frames run: {}", report.frames);
    match report.verdict() {
        Ok(()) => Ok(true),
        Err(e) => {
            eprintln!("FAILED: {e}");
            Ok(false)
        }
    }
}
