//! The `tilebake` command line. Every error is one line naming the file and
//! the problem, with exit status 2; nothing is written unless the command
//! succeeds.

use anyhow::Result;
use clap::{Parser, Subcommand};
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
        /// A heightmap (grey PNG, 8 or 16 bits); repeat with --texture for more pairs.
        #[arg(long = "height")]
        heights: Vec<PathBuf>,
        /// The texture of the heightmap given in the same position.
        #[arg(long = "texture")]
        textures: Vec<PathBuf>,
        /// Tile side in pixels: 8, 16, 32, 64 or 128 [default: 32].
        #[arg(long)]
        tile_size: Option<u32>,
        /// Palette colours, 2..=52 [default: 52].
        #[arg(long)]
        colours: Option<u32>,
        /// How worlds place the tiles: corners (matched borders, one landscape)
        /// or paper (tiles as cut, the paper's method) [default: corners].
        #[arg(long)]
        placement: Option<tilebake::PlacementKind>,
        /// Corner classes (low ground .. high ground), 2 or 3 [default: 3].
        #[arg(long)]
        classes: Option<u32>,
        /// Which turns and mirrors of the source tiles may be cut from: all,
        /// upright, or auto (upright when the texture has baked lighting)
        /// [default: auto].
        #[arg(long)]
        orientations: Option<tilebake::bake::Orientations>,
        /// World pixels per height unit (0.0625..=8), or auto: a natural mean
        /// slope [default: auto].
        #[arg(long)]
        height_scale: Option<tilebake::HeightScale>,
        /// Paper placement: fade the outer N texels of every tile to a common
        /// height and colour [default: 0, tiles as cut].
        #[arg(long)]
        seam_band: Option<u32>,
        /// A TOML sidecar with tile_size, colours, placement, classes,
        /// height_scale, seam_band and [[pair]] height/texture entries
        /// (instead of the options above).
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
        /// Output prefix.
        #[arg(short, long)]
        output: PathBuf,
        /// World seed for the map.
        #[arg(long, default_value_t = 1)]
        seed: u32,
        /// Side of the mapped area, in tiles.
        #[arg(long, default_value_t = 24)]
        tiles: u32,
    },
    /// Put a bank into a built terrain ROM (no Rust toolchain needed).
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
    /// tiles' correlation, grid contrast and periodicity (0 = natural).
    #[command(after_help = "Example:\n  tilebake seams my.bank --seed 1")]
    Seams {
        /// The bank.
        bank: PathBuf,
        /// World seed.
        #[arg(long, default_value_t = 1)]
        seed: u32,
        /// Side of the measured area, in tiles (4..=64).
        #[arg(long, default_value_t = 32)]
        tiles: u32,
    },
    /// Write a square of a seeded world as the ROM places it: DIR/height.png
    /// (texel heights, 8-bit grey) and DIR/colour.png (bank colours, no fog).
    #[command(after_help = "Example:\n  tilebake world my.bank --seed 1 --tiles 16 -o world/")]
    World {
        /// The bank.
        bank: PathBuf,
        /// World seed.
        #[arg(long, default_value_t = 1)]
        seed: u32,
        /// Side of the square, in tiles (1..=64).
        #[arg(long, default_value_t = 16)]
        tiles: u32,
        /// Directory for height.png and colour.png.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Make a heightmap + texture pair from a seed (fractal noise, biome colours).
    #[command(after_help = "Example:\n  tilebake generate --seed 1 --size 256 -o assets/")]
    Generate {
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u32,
        /// Side in pixels (a multiple of 128, up to 4096).
        #[arg(long, default_value_t = 256)]
        size: u32,
        /// Directory for height.png and texture.png.
        #[arg(short, long)]
        output: PathBuf,
    },
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => {
            // clap's own message (usage errors exit 2; --help and --version exit 0).
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match run(args.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tilebake: error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(command: Command) -> Result<()> {
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
            let options = match manifest {
                Some(m) => Options::from_manifest(&m)?,
                None => {
                    if heights.len() != textures.len() {
                        return Err(tilebake::Error::Pairs { heights: heights.len(), textures: textures.len() }.into());
                    }
                    let pairs =
                        heights.into_iter().zip(textures).map(|(height, texture)| Pair { height, texture }).collect();
                    Options {
                        tile_size: tile_size.unwrap_or(32),
                        colours: colours.unwrap_or(bank::MAX_COLOURS as u32),
                        pairs,
                        placement: placement.unwrap_or_default(),
                        classes: classes.unwrap_or(3),
                        orientations: orientations.unwrap_or_default(),
                        seam_band: seam_band.unwrap_or(0),
                        height_scale: height_scale.unwrap_or_default(),
                    }
                }
            };
            let start = std::time::Instant::now();
            let bar = std::io::stderr().is_terminal().then(|| {
                let b = indicatif::ProgressBar::new(1);
                b.set_style(
                    indicatif::ProgressStyle::with_template("{msg:>14} [{bar:40}] {pos}/{len}").expect("template"),
                );
                b
            });
            let mut progress = |stage: &str, done: u64, total: u64| {
                if let Some(b) = &bar {
                    b.set_message(stage.to_string());
                    b.set_length(total.max(1));
                    b.set_position(done);
                }
            };
            let baked = tilebake::bake(&options, &mut progress)?;
            if let Some(b) = bar {
                b.finish_and_clear();
            }
            tilebake::io::write_atomic(&output, &baked.bytes)?;
            for n in &baked.notes {
                eprintln!("tilebake: note: {n}");
            }
            println!(
                "{}: {} tiles stored ({} cut, {} duplicates merged), {} colours, {} bytes, {:.0} ms",
                output.display(),
                baked.tiles_stored,
                baked.tiles_cut,
                baked.tiles_cut - baked.tiles_stored,
                baked.colours,
                baked.bytes.len(),
                start.elapsed().as_secs_f64() * 1000.0
            );
        }
        Command::Inspect { bank } => print!("{}", tilebake::inspect::report(&bank)?),
        Command::Preview { bank, output, seed, tiles } => {
            for p in tilebake::preview::write(&bank, &output, seed, tiles)? {
                println!("wrote {}", p.display());
            }
        }
        Command::Pack { base, bank, output } => {
            let size = tilebake::pack::pack_files(&base, &bank, &output)?;
            println!("{}: {size} bytes, bank from {}", output.display(), bank.display());
        }
        Command::Seams { bank, seed, tiles } => {
            let bytes = tilebake::inspect::load(&bank)?;
            let b = bank::parse(&bytes).map_err(|source| tilebake::Error::Bank { path: bank.clone(), source })?;
            if !(4..=tilebake::measure::MAX_TILES).contains(&tiles) {
                return Err(tilebake::Error::Option(format!(
                    "--tiles {tiles} is outside 4..={}",
                    tilebake::measure::MAX_TILES
                ))
                .into());
            }
            let m = tilebake::measure::measure(&b, seed, tiles);
            println!("{}: seed {seed}, {tiles} x {tiles} tiles", bank.display());
            for (k, v) in m.fields() {
                println!("  {k:<24} {v:.3}");
            }
        }
        Command::World { bank, seed, tiles, output } => {
            for p in tilebake::world::write(&bank, seed, tiles, &output)? {
                println!("wrote {}", p.display());
            }
        }
        Command::Generate { seed, size, output } => {
            for p in tilebake::generate::write(seed, size, &output)? {
                println!("wrote {}", p.display());
            }
        }
    }
    Ok(())
}
