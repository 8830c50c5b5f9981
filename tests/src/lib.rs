//! Helpers for the end-to-end tests: where the built ROMs and goldens are.
//!
//! The ROMs are built by `cargo xtask test` (or `cargo xtask rom`) into
//! `target/gba/`; `TERRAIN_ROM_DIR` overrides that.

use mgba_test_runner::{RunConfig, RunReport, run};
use std::path::PathBuf;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ has a parent").to_path_buf()
}

/// The bytes of `target/gba/<name>.gba`.
pub fn rom(name: &str) -> Vec<u8> {
    let dir = std::env::var_os("TERRAIN_ROM_DIR").map(PathBuf::from).unwrap_or_else(|| root().join("target/gba"));
    let path = dir.join(format!("{name}.gba"));
    std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; build the ROMs first with `cargo xtask rom`", path.display()))
}

/// A golden image path under `tests/golden/`.
pub fn golden(name: &str) -> PathBuf {
    root().join("tests/golden").join(name)
}

/// Where frames that differ from their golden are saved.
pub fn actual_dir() -> PathBuf {
    root().join("target/golden-actual")
}

/// Runs ROM `name` with `config` (its actual_dir set), failing the test on a load error.
pub fn run_rom(name: &str, mut config: RunConfig) -> RunReport {
    config.actual_dir = actual_dir();
    run(&rom(name), &config).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A release ELF of the ROM workspace: a binary (`terrain`) or an example.
pub fn elf(name: &str, example: bool) -> PathBuf {
    let dir = root().join("target/rom/thumbv4t-none-eabi/release");
    if example { dir.join("examples").join(name) } else { dir.join(name) }
}
