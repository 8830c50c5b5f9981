//! Building the ROMs: the product (`terrain`) and the harness test ROMs
//! (`rom/examples/*`), each turned into a `.gba` under `target/gba/`.

use crate::cmd::{cargo, root, run};
use anyhow::{Context, Result};
use gbarom::iwram::{ENGINE_HOT, FLIGHT_HOT};
use std::path::PathBuf;
use std::process::Command;

/// The ROM's target directory (`rom/.cargo/config.toml`'s `target-dir`).
fn rom_target() -> PathBuf {
    root().join("target/rom")
}

/// The ROM's ELF files (release), by name.
pub fn elf_dir() -> PathBuf {
    rom_target().join("thumbv4t-none-eabi/release")
}

/// Cargo in the ROM's workspace (`rom/`), building into its own target
/// directory whatever the caller's `CARGO_TARGET_DIR` says: the ROM's files
/// are looked for there, and a host build's directory would mix in.
pub fn rom_cargo() -> Command {
    let mut c = cargo();
    c.current_dir(root().join("rom")).env("CARGO_TARGET_DIR", rom_target());
    c
}

/// Cargo in the agb example's workspace, into its own target directory
/// (as [`rom_cargo`]).
pub fn example_cargo() -> Command {
    let mut c = cargo();
    c.current_dir(example_dir()).env("CARGO_TARGET_DIR", root().join("target").join(EXAMPLE));
    c
}

/// Where the `.gba` files go.
pub fn gba_dir() -> PathBuf {
    root().join("target/gba")
}

/// The product ROM.
pub fn terrain_gba() -> PathBuf {
    gba_dir().join("terrain.gba")
}

/// Binaries of `rom/` besides the product: the benchmark ROM and the in-ROM
/// tests of the ARM kernels (the window fills at 16 tiles a side apart, in
/// `window_kernels`: a second window size's IWRAM code beside the march
/// would leave `kernels` none to spare).
pub const BINS: &[&str] = &["bench_terrain", "kernels", "window_kernels"];
/// ROMs whose hot code is checked, with name fragments of the functions that
/// must be ARM code in IWRAM (see `gbarom::iwram`), in groups.
const HOT: &[(&str, &[&[&str]])] = &[
    (
        "terrain",
        &[
            ENGINE_HOT,
            FLIGHT_HOT,
            &[
                "terrain_fill_block",
                "terrain_fill_bytes",
                "terrain_fill_line",
                "terrain_corner_line",
                "crc32_arm",
                "max_colour_arm",
                "tile_tops_arm",
            ],
        ],
    ),
    ("bench_terrain", &[&["8recenter", "7move_to", "7rebuild", "10regenerate"]]),
    ("kernels", &[ENGINE_HOT, FLIGHT_HOT, &["terrain_fill_line", "terrain_corner_line"]]),
    (
        "window_kernels",
        &[&["8recenter", "7move_to", "7rebuild", "10regenerate", "terrain_fill_line", "terrain_corner_line"]],
    ),
];

/// Harness self-test ROMs in `rom/examples/`.
pub const EXAMPLES: &[&str] = &["bad_memory", "panics", "crc_check"];

/// Builds every ROM (release) and writes the `.gba` files; returns the product's path.
pub fn build() -> Result<PathBuf> {
    run(rom_cargo().args(["build", "--release", "--bins", "--examples"]))?;
    std::fs::create_dir_all(gba_dir())?;
    let mut elves = vec![("terrain".to_string(), elf_dir().join("terrain"))];
    for bin in BINS {
        elves.push((bin.to_string(), elf_dir().join(bin)));
    }
    for ex in EXAMPLES {
        elves.push((ex.to_string(), elf_dir().join("examples").join(ex)));
    }
    for (name, elf) in elves {
        let bytes = std::fs::read(&elf).with_context(|| format!("reading {}", elf.display()))?;
        let title = if name == "terrain" { gbarom::PRODUCT_TITLE.to_string() } else { format!("T-{name}") };
        let mut gba = gbarom::elf_to_gba(&bytes, &gbarom::Header::new(&title))?;
        // The ROM's length into its bank slot, for `tilebake pack` to tell a
        // copy cut short (the harness self-test ROMs have no slot).
        bank::slot::stamp_length(&mut gba);
        gbarom::check_header(&gba).map_err(|e| anyhow::anyhow!("{name}.gba: {e}"))?;
        let out = gba_dir().join(format!("{name}.gba"));
        write_atomic(&out, &gba)?;
        if let Some((_, groups)) = HOT.iter().find(|(n, _)| *n == name) {
            let required: Vec<&str> = groups.iter().flat_map(|g| g.iter().copied()).collect();
            let report = gbarom::iwram::check(&elf, &required)?;
            eprintln!(
                "{name}: IWRAM check ok: {} ARM functions, {} of 28,416 bytes used, no calls into ROM",
                report.functions.len(),
                report.used
            );
        }
    }
    Ok(terrain_gba())
}

/// The example game on agb (`examples/agb-flyover`, its own workspace).
pub const EXAMPLE: &str = "agb-flyover";

/// The agb example's directory.
pub fn example_dir() -> PathBuf {
    root().join("examples").join(EXAMPLE)
}

/// Builds the agb example (release) into `target/gba/agb-flyover.gba`, its
/// header fixed by our gbarom (no `agb-gbafix` binary to install), its hot
/// code checked like the ROM's; returns its path.
pub fn build_example() -> Result<PathBuf> {
    run(example_cargo().args(["build", "--release"]))?;
    let elf = root().join("target").join(EXAMPLE).join("thumbv4t-none-eabi/release").join(EXAMPLE);
    let bytes = std::fs::read(&elf).with_context(|| format!("reading {}", elf.display()))?;
    let gba = gbarom::elf_to_gba(&bytes, &gbarom::Header::new("AGB-FLYOVER"))?;
    gbarom::check_header(&gba).map_err(|e| anyhow::anyhow!("{EXAMPLE}.gba: {e}"))?;
    std::fs::create_dir_all(gba_dir())?;
    let out = gba_dir().join(format!("{EXAMPLE}.gba"));
    write_atomic(&out, &gba)?;
    let report = gbarom::iwram::check(&elf, &[ENGINE_HOT, FLIGHT_HOT].concat())?;
    eprintln!(
        "{EXAMPLE}: {} bytes; IWRAM check ok: {} ARM functions, {} bytes of IWRAM used, no calls into ROM",
        gba.len(),
        report.functions.len(),
        report.used
    );
    Ok(out)
}

/// Writes a file through a temporary name and a rename: never half-written.
pub fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> Result<()> {
    gbarom::write_atomic(path, bytes).with_context(|| format!("writing {}", path.display()))
}
