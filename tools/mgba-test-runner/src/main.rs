//! `mgba-test-runner`: run a GBA ROM headless and fail on panics, bad memory
//! accesses and golden mismatches.

use anyhow::{Context, Result, bail};
use clap::Parser;
use mgba_test_runner::{
    Echo, GifCapture, GoldenMode, KeyScript, RunConfig, read_sav, rom, run, sav_to_write, write_sav,
};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const AFTER_HELP: &str = "\
Frames:
  A frame is one screen refresh (280,896 cycles, about 1/60 s), numbered from 1
  by every option: --frames N runs frames 1 to N. --keys N:KEYS holds KEYS from
  the start of frame N (its VBlank: the ROM can read them before frame N's
  picture is drawn). --screenshot, --golden and --gif take frame N's picture:
  the screen as frame N ends. [N] before an echoed log line is the frame it was written
  in. A ROM's own frame counter may count fewer: drawing one picture can take
  several refreshes.

Output:
  stdout: the files written and the frames run. stderr: the ROM's Error and
  Fatal log lines (every line with -v, none with -q), then the verdict.

Exit status:
  0  the run is clean
  1  the ROM panicked (an mGBA Fatal log line), touched bad memory, or a golden
     image differs, is missing (then written) or unreadable
  2  bad usage or input: a bad option, a missing or invalid ROM or save file,
     an output that cannot be written

Example:
  mgba-test-runner target/gba/terrain.gba --frames 300 \\
    --keys '1:RIGHT,60:RIGHT+A,120:' --screenshot 120:shot.png --sav terrain.sav";

/// Run a GBA ROM (a .gba file, or an ELF converted on the fly) headless in mGBA.
#[derive(Debug, Parser)]
#[command(version, after_help = AFTER_HELP)]
struct Args {
    /// The ROM: a .gba file or the ROM's ELF.
    rom: PathBuf,
    /// Frames to run: screen refreshes 1 to N.
    #[arg(long, default_value_t = 60, value_name = "N")]
    frames: u32,
    /// Key timeline `FRAME:KEY+KEY,...`: `1:RIGHT,60:RIGHT+A,120:` holds RIGHT
    /// in frames 1-59, RIGHT+A in 60-119, then nothing.
    #[arg(long, default_value = "", value_name = "FRAME:KEYS,...")]
    keys: KeyScript,
    /// Save frame N's picture (the screen as frame N ends) to a PNG (repeatable).
    #[arg(long = "screenshot", value_parser = frame_path, value_name = "N:PATH.png")]
    screenshots: Vec<(u32, PathBuf)>,
    /// Compare frame N's picture with a golden PNG; a missing one is written (repeatable).
    #[arg(long = "golden", value_parser = frame_path, value_name = "N:PATH.png")]
    goldens: Vec<(u32, PathBuf)>,
    /// Rewrite the golden images instead of comparing.
    #[arg(long)]
    bless: bool,
    /// Record an animated GIF of the pictures of frames FROM to TO, one in EVERY.
    #[arg(long, value_parser = gif_spec, value_name = "PATH:FROM:TO:EVERY")]
    gif: Option<GifCapture>,
    /// Stop when the ROM logs a line containing this text.
    #[arg(long, value_name = "TEXT", value_parser = not_empty)]
    stop_on: Option<String>,
    /// Battery save file: loaded into SRAM if it exists, written back (atomically)
    /// at the end of the run.
    #[arg(long, value_name = "FILE")]
    sav: Option<PathBuf>,
    /// Echo every line the ROM logs, and mGBA's memory warnings.
    #[arg(long, short, conflicts_with = "quiet")]
    verbose: bool,
    /// Echo nothing of the ROM's log, not even its errors (the verdict still prints).
    #[arg(long, short)]
    quiet: bool,
}

fn frame_path(s: &str) -> Result<(u32, PathBuf), String> {
    let (n, p) = s.split_once(':').ok_or_else(|| format!("`{s}` is not FRAME:PATH"))?;
    let n: u32 = n.parse().map_err(|_| format!("`{n}` is not a frame number"))?;
    if n == 0 {
        return Err("frames count from 1 (frame 1 is the first screen refresh)".into());
    }
    if p.is_empty() {
        return Err(format!("`{s}` has no file name"));
    }
    if !p.to_ascii_lowercase().ends_with(".png") {
        return Err(format!("`{p}`: pictures are written as PNG: give a file name ending in .png"));
    }
    Ok((n, PathBuf::from(p)))
}

fn not_empty(s: &str) -> Result<String, String> {
    if s.is_empty() { Err("an empty text would stop at the first line the ROM logs".into()) } else { Ok(s.to_string()) }
}

fn gif_spec(s: &str) -> Result<GifCapture, String> {
    let parts: Vec<&str> = s.rsplitn(4, ':').collect();
    if parts.len() != 4 {
        return Err(format!("`{s}` is not PATH:FROM:TO:EVERY"));
    }
    let n = |v: &str| v.parse::<u32>().map_err(|_| format!("`{v}` is not a number"));
    let (every, to, from) = (n(parts[0])?, n(parts[1])?, n(parts[2])?);
    if from == 0 || to < from || every == 0 {
        return Err("need 1 <= FROM <= TO and EVERY >= 1 (frames count from 1)".into());
    }
    Ok(GifCapture { path: PathBuf::from(parts[3]), from, to, every })
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(a) => a,
        // --help and --version: clap's own text.
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // One line: clap's error paragraph joined (it may name the
            // missing arguments on the lines after its first), and where to
            // read more.
            let text = e.render().to_string();
            let error = text.split("\n\n").next().unwrap_or("").lines().map(str::trim).filter(|l| !l.is_empty());
            let error = error.collect::<Vec<_>>().join(" ");
            let error = if error.is_empty() { "error: invalid arguments".to_string() } else { error };
            complain(&format!("{error} (see mgba-test-runner --help)"));
            return ExitCode::from(2);
        }
    };
    match real_main(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            complain(&format!("error: {e:#}"));
            ExitCode::from(2)
        }
    }
}

/// A line to standard error; if it cannot take it, the exit code still tells.
fn complain(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// A line to standard output; an error if it cannot take it.
fn say(line: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}").and_then(|()| out.flush()).context("standard output: cannot write")
}

/// Every capture must fall inside the run.
fn check_frames(args: &Args) -> Result<()> {
    if args.frames == 0 {
        bail!("--frames 0: run at least one frame");
    }
    let past = |what: &str, n: u32, path: &Path| -> Result<()> {
        if n > args.frames {
            bail!("{what} {n}:{}: frame {n} is past the last frame (--frames {})", path.display(), args.frames);
        }
        Ok(())
    };
    for (n, path) in &args.screenshots {
        past("--screenshot", *n, path)?;
    }
    for (n, path) in &args.goldens {
        past("--golden", *n, path)?;
    }
    if let Some(g) = &args.gif {
        past("--gif", g.to, &g.path)?;
    }
    Ok(())
}

fn load_rom(path: &Path) -> Result<Vec<u8>> {
    let bytes = match rom::load(path) {
        Ok(b) => b,
        Err(e @ rom::RomError::Read { .. }) => bail!("{e}"),
        Err(e) => bail!("{}: {e}", path.display()),
    };
    if let Err(e) = rom::check_header(&bytes) {
        bail!("{}: not a GBA ROM: {e}", path.display());
    }
    Ok(bytes)
}

fn real_main(args: Args) -> Result<bool> {
    check_frames(&args)?;
    let bytes = load_rom(&args.rom)?;
    let save = match &args.sav {
        Some(path) => {
            let save = read_sav(path)?;
            // Its directory now, as for screenshots: the write comes after the run.
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("{}: cannot make its directory", path.display()))?;
            }
            save
        }
        None => None,
    };
    let echo = match (args.verbose, args.quiet) {
        (true, _) => Echo::All,
        (_, true) => Echo::Off,
        _ => Echo::Errors,
    };
    let config = RunConfig {
        frames: args.frames,
        keys: args.keys,
        screenshots: args.screenshots,
        goldens: args.goldens,
        actual_dir: std::env::temp_dir(),
        golden_mode: Some(if args.bless { GoldenMode::Bless } else { GoldenMode::Check }),
        save: save.clone(),
        stop_on: args.stop_on,
        gif: args.gif,
        echo,
    };
    let report = match run(&bytes, &config) {
        Ok(r) => r,
        Err(mgba_test_runner::RunFailure::Load(e)) => bail!("{}: {e}", args.rom.display()),
        Err(e) => return Err(e.into()),
    };
    for path in &report.screenshots {
        let what = if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gif")) { "gif" } else { "screenshot" };
        say(&format!("{what}: {}", path.display()))?;
    }
    if let Some(path) = &args.sav {
        let back = sav_to_write(save.as_deref(), &report.save);
        write_sav(path, &back)?;
        say(&format!("save: {} ({} bytes)", path.display(), back.len()))?;
    }
    say(&format!("frames run: {}", report.frames))?;
    match report.verdict() {
        Ok(()) => Ok(true),
        Err(e) => {
            complain(&format!("FAILED: {e}"));
            Ok(false)
        }
    }
}
