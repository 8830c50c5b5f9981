//! The `tilebake` command line. Every error is one line naming the file and
//! the problem, with exit status 2; nothing is written unless the command
//! succeeds.

use anyhow::Result;
use clap::{CommandFactory, Parser, Subcommand};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use tilebake::{Options, Pair};

/// Heightmap and texture PNGs into GBA tile banks.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Cut heightmap + texture pairs into tiles and write a bank.
    #[command(after_help = "Examples:\n  tilebake bake --height h.png --texture t.png --tile-size 32 -o my.bank\n  \
                            tilebake bake --manifest assets/terrain.toml -o my.bank")]
    Bake {
        /// A heightmap PNG (grey, 8 or 16 bits; a colour one is read as its luminance); repeat with --texture for more
        /// pairs. At most 8192 x 8192 pixels.
        #[arg(long = "height")]
        heights: Vec<PathBuf>,
        /// The texture of the heightmap given in the same position.
        #[arg(long = "texture")]
        textures: Vec<PathBuf>,
        /// Tile side in texels (pixels of the PNGs): 8, 16, 32, 64 or 128 [default: 32];
        /// each image's width and height must be multiples of it.
        #[arg(long, allow_negative_numbers = true)]
        tile_size: Option<i64>,
        /// Palette colours, 2..=52 [default: 52].
        #[arg(long, allow_negative_numbers = true)]
        colours: Option<i64>,
        /// How worlds place the tiles: corners (matched borders, one landscape)
        /// or paper (tiles as cut, the paper's method) [default: corners].
        #[arg(long)]
        placement: Option<tilebake::PlacementKind>,
        /// Corner classes (low ground .. high ground), 2 or 3 [default: 3].
        #[arg(long, allow_negative_numbers = true)]
        classes: Option<i64>,
        /// Which turns and mirrors of the source tiles may be cut from: all,
        /// upright, or auto (upright when the texture has baked lighting)
        /// [default: auto].
        #[arg(long)]
        orientations: Option<tilebake::bake::Orientations>,
        /// World pixels per height unit (0.0625..=8), or auto: a natural mean
        /// slope [default: auto].
        #[arg(long, allow_negative_numbers = true)]
        height_scale: Option<tilebake::HeightScale>,
        /// Paper placement: fade the outer N texels of every tile to a common
        /// height and colour, 0..=half the tile size [default: 0, tiles as cut].
        #[arg(long, allow_negative_numbers = true)]
        seam_band: Option<i64>,
        /// A TOML sidecar with tile_size, colours, placement, classes,
        /// orientations, height_scale, seam_band (each optional, with the
        /// defaults above) and [[pair]] height/texture entries (paths
        /// relative to it), instead of the options above.
        #[arg(long, conflicts_with_all = ["heights", "textures", "tile_size", "colours", "placement", "classes", "orientations", "height_scale", "seam_band"])]
        manifest: Option<PathBuf>,
        /// The bank to write.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Show what a bank holds: tiles, palette, checksum, memory (paper's Table 5 form).
    #[command(after_help = "Example:\n  tilebake inspect my.bank")]
    Inspect {
        /// The bank.
        bank: PathBuf,
    },
    /// Write a contact sheet (<prefix>-tiles.png) and a seeded world map (<prefix>-map.png).
    #[command(after_help = "Example:\n  tilebake preview my.bank -o preview/my --seed 7")]
    Preview {
        /// The bank.
        bank: PathBuf,
        /// Output prefix: PREFIX-tiles.png and PREFIX-map.png; a directory (DIR/, or one that exists)
        /// gets DIR/<bank>-tiles.png and DIR/<bank>-map.png.
        #[arg(short, long)]
        output: PathBuf,
        /// World seed for the map.
        #[arg(long, allow_negative_numbers = true, default_value_t = 1)]
        seed: u32,
        /// Side of the mapped area, in tiles (1..=64).
        #[arg(long, allow_negative_numbers = true, default_value_t = 24)]
        tiles: i64,
    },
    /// Put a bank into a built terrain ROM: target/gba/terrain.gba from `cargo xtask rom`, or one you
    /// were given (then no Rust toolchain is needed).
    #[command(after_help = "Example:\n  tilebake pack target/gba/terrain.gba my.bank -o mine.gba")]
    Pack {
        /// The ROM to start from.
        base: PathBuf,
        /// The bank to put in.
        bank: PathBuf,
        /// The ROM to write.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Measure how much a seeded world looks like one landscape: steps and
    /// spreads at tile borders against inside (1 = natural), neighbouring
    /// tiles' correlation, grid contrast, periodicity and lattice (0 =
    /// natural; a lattice of 5 or more shows from above).
    #[command(after_help = "Example:\n  tilebake seams my.bank --seed 1")]
    Seams {
        /// The bank.
        bank: PathBuf,
        /// World seed.
        #[arg(long, allow_negative_numbers = true, default_value_t = 1)]
        seed: u32,
        /// Side of the measured area, in tiles (4..=64).
        #[arg(long, allow_negative_numbers = true, default_value_t = 32)]
        tiles: i64,
    },
    /// Write a square of a seeded world as the ROM places it: DIR/height.png
    /// (texel heights, 8-bit grey) and DIR/colour.png (bank colours, no fog).
    #[command(after_help = "Example:\n  tilebake world my.bank --seed 1 --tiles 16 -o world/")]
    World {
        /// The bank.
        bank: PathBuf,
        /// World seed.
        #[arg(long, allow_negative_numbers = true, default_value_t = 1)]
        seed: u32,
        /// Side of the square, in tiles (1..=64).
        #[arg(long, allow_negative_numbers = true, default_value_t = 16)]
        tiles: i64,
        /// Directory for height.png and colour.png (made if missing; a file
        /// there that `world` did not write is not replaced).
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Write a bank's relief file (the highest texel of each block of each
    /// tile, and the bank's CRC-32): a game loads it with
    /// voxel::flight::Relief::load_file instead of reading every tile at
    /// start-up.
    #[command(after_help = "Example:\n  tilebake relief my.bank -o my.relief")]
    Relief {
        /// The bank.
        bank: PathBuf,
        /// The relief file to write.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Make a heightmap + texture pair from a seed (fractal noise, biome colours).
    #[command(after_help = "Example:\n  tilebake generate --seed 1 --size 256 -o assets/")]
    Generate {
        /// Seed.
        #[arg(long, allow_negative_numbers = true, default_value_t = 1)]
        seed: u32,
        /// Side in pixels (a multiple of 128, 128..=4096).
        #[arg(long, allow_negative_numbers = true, default_value_t = 256)]
        size: i64,
        /// Directory for height.png and texture.png (made if missing; a file
        /// there that `generate` did not write is not replaced).
        #[arg(short, long)]
        output: PathBuf,
    },
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => {
            use clap::error::ErrorKind;
            // --help, --version, and bare `tilebake` (which shows the help).
            if !e.use_stderr() || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                let _ = e.print();
                return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
            }
            // Lossy: a path that is not UTF-8 is still named in the message.
            let argv: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
            complain(&format!("error: {}", usage_error(&e, &argv)));
            return ExitCode::from(2);
        }
    };
    let progress = Progress::new();
    let typed = wholes(&args.command);
    let result = run(args.command, &progress).map_err(|e| as_typed(e, &typed));
    progress.clear();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            complain(&format!("error: {e}"));
            ExitCode::from(2)
        }
    }
}

/// A whole-number option as the commands take it. The command line reads
/// them as `i64`, so that `--tile-size -8` gets the option's own range
/// error (`use 8, 16, 32, 64 or 128`), not clap's `0..=4294967295`: a value
/// that does not fit a `u32` becomes `u32::MAX`, outside every such option's
/// range, and [`as_typed`] puts the value typed back into the error.
fn narrow(v: i64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// The whole-number options of `command` given values [`narrow`] changes,
/// by their keys (`tile_size`).
fn wholes(command: &Command) -> Vec<(&'static str, i64)> {
    let all: Vec<(&'static str, Option<i64>)> = match command {
        Command::Bake { tile_size, colours, classes, seam_band, .. } => {
            vec![("tile_size", *tile_size), ("colours", *colours), ("classes", *classes), ("seam_band", *seam_band)]
        }
        Command::Preview { tiles, .. } | Command::Seams { tiles, .. } | Command::World { tiles, .. } => {
            vec![("tiles", Some(*tiles))]
        }
        Command::Generate { size, .. } => vec![("size", Some(*size))],
        _ => Vec::new(),
    };
    all.into_iter().filter_map(|(k, v)| Some((k, v?))).filter(|&(_, v)| narrow(v) as i64 != v).collect()
}

/// `e`, its range error naming the value typed where [`narrow`] changed it.
fn as_typed(e: anyhow::Error, typed: &[(&'static str, i64)]) -> anyhow::Error {
    match e.downcast::<tilebake::Error>() {
        Ok(tilebake::Error::Range { manifest: None, key, value, problem }) => {
            let value = typed.iter().find(|(k, _)| *k == key).map_or(value, |(_, v)| v.to_string());
            tilebake::Error::Range { manifest: None, key, value, problem }.into()
        }
        Ok(other) => other.into(),
        Err(e) => e,
    }
}

/// clap's usage error in one line: the error, a suggestion if clap has one,
/// and where to read more (`unexpected argument '--bogus' (see tilebake bake --help)`).
fn usage_error(e: &clap::Error, argv: &[String]) -> String {
    let text = e.render().to_string();
    let mut message = String::new();
    let mut tips = Vec::new();
    // Paragraphs: "error: ...", clap's tips, "Usage: ...", "For more information ...".
    for paragraph in text.split("\n\n") {
        let joined = paragraph.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ");
        if let Some(tip) = joined.strip_prefix("tip: ") {
            // Suggestions help; "to pass '--x' as a value, use '-- --x'" does not.
            if tip.contains("similar") || tip.contains("exists") {
                tips.push(tip.to_string());
            }
        } else if let Some(error) = joined.strip_prefix("error: ") {
            message = error.strip_suffix(" found").unwrap_or(error).to_string();
        }
    }
    if message.is_empty() {
        // Not clap's usual form: its first line, as it is.
        message = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("invalid arguments").to_string();
    }
    let subcommands: Vec<String> = Args::command().get_subcommands().map(|c| c.get_name().to_string()).collect();
    let sub = argv.iter().skip(1).find(|a| !a.starts_with('-'));
    let help = match sub.filter(|s| subcommands.contains(*s)) {
        Some(s) => format!("tilebake {s} --help"),
        None => "tilebake --help".to_string(),
    };
    tips.push(format!("see {help}"));
    format!("{message} ({})", tips.join("; "))
}

/// What a long command is doing, on stderr: a bar on a terminal; otherwise,
/// once the command has run for [`QUIET`], a plain line per stage and every
/// [`EVERY`] how far it is (so a short command's only line is its result or
/// its error).
struct Progress {
    terminal: bool,
    bar: std::cell::OnceCell<indicatif::ProgressBar>,
    lines: Lines<std::io::Stderr>,
}

/// How long a command runs before plain progress lines start.
const QUIET: std::time::Duration = std::time::Duration::from_secs(1);
/// How often a long stage says how far it is, in plain progress lines.
const EVERY: std::time::Duration = std::time::Duration::from_secs(10);

impl Progress {
    fn new() -> Self {
        Progress {
            terminal: std::io::stderr().is_terminal(),
            bar: std::cell::OnceCell::new(),
            lines: Lines::new(std::io::stderr(), QUIET, EVERY),
        }
    }

    fn update(&self, stage: &str, done: u64, total: u64) {
        if !self.terminal {
            self.lines.stage(stage, done, total);
            return;
        }
        let b = self.bar.get_or_init(|| {
            let b = indicatif::ProgressBar::new(1);
            b.set_style(
                indicatif::ProgressStyle::with_template("{msg:>16} [{bar:40}] {percent:>3}% {elapsed}")
                    .expect("template")
                    .progress_chars("=> "),
            );
            b.enable_steady_tick(std::time::Duration::from_millis(200));
            b
        });
        b.set_message(stage.to_string());
        b.set_length(total.max(1));
        b.set_position(done.min(total.max(1)));
    }

    /// Removes the bar (before the result or an error is printed).
    fn clear(&self) {
        if let Some(b) = self.bar.get() {
            b.finish_and_clear();
        }
    }
}

/// Plain progress: `tilebake: <stage> (from <seconds> s in)` as a stage
/// starts (the seconds since the command started, not the stage's length),
/// for stages starting once `quiet` has passed since then; and while a stage
/// lasts, every `every`, `tilebake: <stage>, <percent>% (at <seconds> s)`
/// (a long bake is not silent for a minute; its first such line also tells
/// of a stage that started inside the quiet time).
struct Lines<W: std::io::Write> {
    out: std::cell::RefCell<W>,
    start: std::time::Instant,
    quiet: std::time::Duration,
    every: std::time::Duration,
    stage: std::cell::RefCell<String>,
    /// When the current stage's last line was written (since `start`).
    said: std::cell::Cell<Option<std::time::Duration>>,
}

impl<W: std::io::Write> Lines<W> {
    fn new(out: W, quiet: std::time::Duration, every: std::time::Duration) -> Self {
        Lines {
            out: std::cell::RefCell::new(out),
            start: std::time::Instant::now(),
            quiet,
            every,
            stage: std::cell::RefCell::new(String::new()),
            said: std::cell::Cell::new(None),
        }
    }

    /// `stage` has done `done` of `total` units of work.
    fn stage(&self, stage: &str, done: u64, total: u64) {
        let elapsed = self.start.elapsed();
        let mut current = self.stage.borrow_mut();
        let starts = *current != stage;
        if starts {
            *current = stage.to_string();
            self.said.set(None);
        }
        if elapsed < self.quiet {
            return;
        }
        let secs = elapsed.as_secs_f64();
        let mut out = self.out.borrow_mut();
        match self.said.get() {
            _ if starts => {
                let _ = writeln!(out, "tilebake: {stage} (from {secs:.1} s in)");
            }
            Some(t) if elapsed.saturating_sub(t) < self.every => return,
            _ => {
                let percent = done.min(total) * 100 / total.max(1);
                let _ = writeln!(out, "tilebake: {stage}, {percent}% (at {secs:.1} s)");
            }
        }
        self.said.set(Some(elapsed));
    }
}

/// Prints a line of output on one line ([`tilebake::io::one_line`]); an
/// error if standard output cannot take it (closed, or a full disk).
fn say(line: String) -> Result<()> {
    print_out(&format!("{}\n", tilebake::io::one_line(&line)))
}

/// Writes `text` to standard output; an error if it cannot take it.
fn print_out(text: &str) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| anyhow::anyhow!("standard output: cannot write: {}", tilebake::error::words(&e)))
}

/// Writes `tilebake: TEXT` to standard error on one line: notes and errors.
/// If standard error cannot take it there is nowhere to say so: the exit
/// code still tells.
fn complain(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "tilebake: {}", tilebake::io::one_line(text));
}

fn run(command: Command, progress: &Progress) -> Result<()> {
    match command {
        Command::Bake {
            heights,
            textures,
            tile_size,
            colours,
            placement,
            classes,
            orientations,
            height_scale,
            seam_band,
            manifest,
            output,
        } => {
            let options = match &manifest {
                Some(m) => Options::from_manifest(m)?,
                None => {
                    if placement == Some(tilebake::bake::PlacementKind::Paper) {
                        let given = [("--classes", classes.is_some()), ("--orientations", orientations.is_some())];
                        if let Some((flag, _)) = given.into_iter().find(|(_, g)| *g) {
                            anyhow::bail!("{flag} applies to --placement corners only: drop it or the placement");
                        }
                    }
                    let pairs = heights
                        .iter()
                        .zip(&textures)
                        .map(|(h, t)| Pair { height: h.clone(), texture: t.clone() })
                        .collect();
                    let d = Options::new(pairs);
                    let options = Options {
                        tile_size: tile_size.map_or(d.tile_size, narrow),
                        colours: colours.map_or(d.colours, narrow),
                        placement: placement.unwrap_or(d.placement),
                        classes: classes.map_or(d.classes, narrow),
                        orientations: orientations.unwrap_or(d.orientations),
                        seam_band: seam_band.map_or(d.seam_band, narrow),
                        height_scale: height_scale.unwrap_or(d.height_scale),
                        ..d
                    };
                    options.check_values()?;
                    if heights.len() != textures.len() {
                        return Err(tilebake::Error::Pairs { heights: heights.len(), textures: textures.len() }.into());
                    }
                    options
                }
            };
            let mut inputs: Vec<&std::path::Path> =
                options.pairs.iter().flat_map(|p| [p.height.as_path(), p.texture.as_path()]).collect();
            inputs.extend(manifest.as_deref());
            tilebake::io::refuse_overwriting_inputs(&output, &inputs)?;
            tilebake::io::check_output(&output)?;
            let start = std::time::Instant::now();
            let baked = tilebake::bake(&options, &mut |stage, done, total| progress.update(stage, done, total))?;
            progress.clear();
            tilebake::io::write_atomic(&output, &baked.bytes)?;
            for n in &baked.notes {
                complain(&format!("note: {n}"));
            }
            say(format!(
                "{}: {} stored ({} cut, {} merged), {}, {} bytes, {:.0} ms",
                output.display(),
                count(baked.tiles_stored, "tile", "tiles"),
                baked.tiles_cut,
                count(baked.tiles_cut - baked.tiles_stored, "duplicate", "duplicates"),
                count(baked.colours, "colour", "colours"),
                baked.bytes.len(),
                start.elapsed().as_secs_f64() * 1000.0
            ))?;
        }
        Command::Inspect { bank } => print_out(&tilebake::inspect::report(&bank)?)?,
        Command::Preview { bank, output, seed, tiles } => {
            for p in tilebake::preview::write(&bank, &output, seed, narrow(tiles))? {
                say(format!("wrote {}", p.display()))?;
            }
        }
        Command::Pack { base, bank, output } => {
            let size = tilebake::pack::pack_files(&base, &bank, &output)?;
            say(format!("{}: {size} bytes, bank (and its relief) from {}", output.display(), bank.display()))?;
        }
        Command::Seams { bank, seed, tiles } => {
            let tiles = narrow(tiles);
            let max = tilebake::measure::MAX_TILES;
            if !(4..=max).contains(&tiles) {
                return Err(tilebake::Error::range("tiles", tiles, format!("is outside 4..={max}")).into());
            }
            let bytes = tilebake::inspect::load(&bank)?;
            let b = bank::parse(&bytes).map_err(|source| tilebake::Error::Bank { path: bank.clone(), source })?;
            let most = tilebake::measure::max_tiles(b.tile_size());
            if tiles > most {
                let problem = format!(
                    "is more than {most} tiles of {} texels ({} texels a side at most)",
                    b.tile_size(),
                    tilebake::measure::MAX_SIDE
                );
                return Err(tilebake::Error::range("tiles", tiles, problem).into());
            }
            let m = tilebake::measure::measure(&b, seed, tiles)
                .map_err(|reason| tilebake::Error::Landscape { path: bank.clone(), reason })?;
            say(format!("{}: seed {seed}, {tiles} x {tiles} tiles", bank.display()))?;
            for ((k, v), meaning) in m.fields().into_iter().zip(tilebake::measure::MEANINGS) {
                print_out(&format!("  {k:<24} {v:>7.3}  {meaning}\n"))?;
            }
        }
        Command::World { bank, seed, tiles, output } => {
            for p in tilebake::world::write(&bank, seed, narrow(tiles), &output)? {
                say(format!("wrote {}", p.display()))?;
            }
        }
        Command::Relief { bank, output } => {
            tilebake::relief::write(&bank, &output)?;
            say(format!("wrote {} (for {})", output.display(), bank.display()))?;
        }
        Command::Generate { seed, size, output } => {
            for p in tilebake::generate::write(seed, narrow(size), &output)? {
                say(format!("wrote {}", p.display()))?;
            }
        }
    }
    Ok(())
}

/// `n` and its noun: "1 tile", "2 tiles".
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_progress_is_a_line_per_stage_after_the_quiet_time() {
        let hour = std::time::Duration::from_secs(3600);
        let lines = Lines::new(Vec::new(), std::time::Duration::ZERO, hour);
        for stage in ["loading", "loading", "palette", "palette", "corner tiles"] {
            lines.stage(stage, 1, 2);
        }
        let text = String::from_utf8(lines.out.into_inner()).unwrap();
        let stages: Vec<&str> = text.lines().map(|l| l.split(" (").next().unwrap()).collect();
        assert_eq!(stages, ["tilebake: loading", "tilebake: palette", "tilebake: corner tiles"], "{text}");
        let quiet = Lines::new(Vec::new(), hour, std::time::Duration::ZERO);
        quiet.stage("loading", 1, 2);
        assert!(quiet.out.into_inner().is_empty(), "a short command printed progress");
    }

    /// A long stage says how far it is every so often (here at every call).
    #[test]
    fn plain_progress_tells_a_long_stage_how_far_it_is() {
        let zero = std::time::Duration::ZERO;
        let lines = Lines::new(Vec::new(), zero, zero);
        for (stage, done) in [("cutting", 0), ("cutting", 30), ("cutting", 100), ("writing", 5)] {
            lines.stage(stage, done, 100);
        }
        let text = String::from_utf8(lines.out.into_inner()).unwrap();
        let said: Vec<&str> = text.lines().map(|l| l.split(" (").next().unwrap()).collect();
        assert_eq!(
            said,
            ["tilebake: cutting", "tilebake: cutting, 30%", "tilebake: cutting, 100%", "tilebake: writing"],
            "{text}"
        );
    }

    #[test]
    fn usage_errors_are_one_line() {
        let argv = ["tilebake", "bake", "--heigth", "h.png"].map(String::from);
        let e = Args::try_parse_from(&argv).unwrap_err();
        let line = usage_error(&e, &argv);
        assert!(!line.contains('\n') && line.contains("'--heigth'") && line.contains("'--height'"), "{line}");
        assert!(line.ends_with("see tilebake bake --help)"), "{line}");
    }
}
