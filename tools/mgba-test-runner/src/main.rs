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
    /// Frames to run: screen refreshes 1 to N (at most 1,000,000: 4.6 hours
    /// of the GBA's time, minutes of mGBA's).
    #[arg(long, default_value_t = 60, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=MAX_FRAMES as i64))]
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

/// The most frames a run takes (`--frames`).
const MAX_FRAMES: u32 = 1_000_000;
/// The most pictures a GIF takes (20 s at 60 a second; each is held in
/// memory until the run ends, 115 KB apiece).
const MAX_GIF_PICTURES: u32 = 1200;
/// The most refreshes between two of a GIF's pictures (a minute).
const MAX_GIF_EVERY: u32 = 3600;
/// The largest ROM or ELF read (a GBA ROM is at most 32 MiB; an ELF with
/// its debug information more).
const MAX_ROM_FILE: u64 = 256 << 20;

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
    if every > MAX_GIF_EVERY {
        return Err(format!("EVERY {every}: at most {MAX_GIF_EVERY} refreshes (a minute) between pictures"));
    }
    let pictures = (to - from) / every + 1;
    if pictures > MAX_GIF_PICTURES {
        return Err(format!(
            "{pictures} pictures: a GIF takes at most {MAX_GIF_PICTURES} (each is held in memory): raise EVERY or narrow FROM..TO"
        ));
    }
    let path = parts[3];
    if !path.to_ascii_lowercase().ends_with(".gif") {
        return Err(format!("`{path}`: the animation is written as GIF: give a file name ending in .gif"));
    }
    Ok(GifCapture { path: PathBuf::from(path), from, to, every })
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

/// A path as the file system resolves it, for telling whether two name the
/// same file: canonical if it exists, else its directory's canonical path
/// and its name.
fn identity(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    match (dir.canonicalize(), path.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => path.to_path_buf(),
    }
}

/// The files the run writes (screenshots, goldens, the GIF, the save): none
/// the ROM, none given twice (the second would overwrite the first: a
/// screenshot over a golden, say), none anything but a regular file where
/// one exists (`/dev/null`: the atomic write would put a file in its place);
/// and `--bless` only with goldens to rewrite.
fn check_outputs(args: &Args) -> Result<()> {
    if args.bless && args.goldens.is_empty() {
        bail!("--bless rewrites the goldens given with --golden N:PATH.png, and there are none");
    }
    let mut outputs: Vec<(String, &Path)> = Vec::new();
    outputs.extend(args.screenshots.iter().map(|(n, p)| (format!("--screenshot {n}:{}", p.display()), p.as_path())));
    outputs.extend(args.goldens.iter().map(|(n, p)| (format!("--golden {n}:{}", p.display()), p.as_path())));
    if let Some(g) = &args.gif {
        outputs.push((format!("--gif {}", g.path.display()), g.path.as_path()));
    }
    if let Some(p) = &args.sav {
        outputs.push((format!("--sav {}", p.display()), p.as_path()));
    }
    let rom = identity(&args.rom);
    let mut seen: Vec<(PathBuf, &str)> = Vec::new();
    for (what, path) in &outputs {
        let id = identity(path);
        if id == rom {
            bail!("{what}: that is the ROM, which the run reads: give another file");
        }
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            bail!("{what}: not a regular file (a device, a pipe or a directory?): outputs are files");
        }
        if let Some((_, first)) = seen.iter().find(|(p, _)| *p == id) {
            bail!("{what}: the same file as {first}: one would overwrite the other");
        }
        seen.push((id, what));
    }
    Ok(())
}

fn load_rom(path: &Path) -> Result<Vec<u8>> {
    // A device or a pipe (`/dev/zero`) would be read until memory ran out.
    let meta = std::fs::metadata(path).with_context(|| format!("{}: cannot read", path.display()))?;
    if !meta.is_file() {
        bail!("{}: not a regular file (a device, a pipe or a directory?): give a .gba or ELF file", path.display());
    }
    if meta.len() > MAX_ROM_FILE {
        bail!("{}: {} bytes: far more than a GBA ROM (32 MiB) or its ELF", path.display(), meta.len());
    }
    let bytes = match rom::load(path) {
        Ok(b) => b,
        Err(e @ rom::RomError::Read { .. }) => bail!("{e}"),
        Err(e) => bail!("{}: {e}", path.display()),
    };
    if let Err(e) = rom::check_header(&bytes) {
        bail!("{}: not a GBA ROM: {e}", path.display());
    }
    if let Some(built) = built_length(&bytes)
        && bytes.len() < built
    {
        bail!("{}: {} bytes, but its bank slot says {built}: the file is cut short", path.display(), bytes.len());
    }
    Ok(bytes)
}

/// How long a ROM of this project was when built (its one bank slot's
/// stamp, or the end of a bank packed into it), if it says: a ROM cut short
/// would run, crash back to its start and log nothing wrong.
fn built_length(rom: &[u8]) -> Option<usize> {
    let slot = bank::slot::positions(rom).find_map(|i| bank::slot::Slot::read(&rom[i..]))?;
    let end = slot.offset as usize + slot.len as usize;
    // (A bank packed after the slot may spell the marker: the first is the ROM's.)
    (slot.len > 0).then_some(end)
}

fn real_main(args: Args) -> Result<bool> {
    check_frames(&args)?;
    check_outputs(&args)?;
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
    // What a stop (`--stop-on`) could leave out: the frames it needs.
    let wanted: Vec<(String, u32)> = args
        .screenshots
        .iter()
        .map(|(n, p)| (format!("--screenshot {n}:{}", p.display()), *n))
        .chain(args.goldens.iter().map(|(n, p)| (format!("--golden {n}:{}", p.display()), *n)))
        .chain(args.gif.iter().map(|g| (format!("--gif {}", g.path.display()), g.from)))
        .collect();
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
    // Pictures past the frame a `--stop-on` stopped at were not taken (nor
    // goldens compared): an error, not a clean run.
    let missed: Vec<String> = wanted
        .iter()
        .filter(|(_, n)| *n > report.frames)
        .map(|(what, n)| format!("{what}: frame {n} never came"))
        .collect();
    if !missed.is_empty() {
        bail!("the run stopped at frame {} (--stop-on): {}", report.frames, missed.join("; "));
    }
    match report.verdict() {
        Ok(()) => Ok(true),
        Err(e) => {
            complain(&format!("FAILED: {e}"));
            Ok(false)
        }
    }
}
