//! Build script of the ROM:
//! - hands our linker script to rust-lld (absolute path: works from anywhere);
//! - bakes the default tile set from `assets/terrain.toml` into
//!   `$OUT_DIR/default.bank`, and its relief file (the flight's block tops,
//!   `voxel::flight::Relief::file`) into `$OUT_DIR/default.relief`, which
//!   `src/tiles.rs` includes; the bake uses at most cargo's `-j` threads.
use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    println!("cargo:rustc-link-arg=-T{}", dir.join("gba.ld").display());
    println!("cargo:rerun-if-changed=gba.ld");

    let manifest = dir.join("../assets/terrain.toml");
    println!("cargo:rerun-if-changed={}", manifest.display());
    let options = tilebake::Options::from_manifest(&manifest).unwrap_or_else(|e| panic!("{e}"));
    for pair in &options.pairs {
        println!("cargo:rerun-if-changed={}", pair.height.display());
        println!("cargo:rerun-if-changed={}", pair.texture.display());
    }
    // On as many threads as cargo's `-j` allows (NUM_JOBS; every core
    // without it): the bank is the same whatever the count.
    let jobs = std::env::var("NUM_JOBS").ok().and_then(|j| j.parse().ok()).unwrap_or(0);
    let baked =
        tilebake::with_threads(jobs, || tilebake::bake(&options, &mut |_, _, _| {})).unwrap_or_else(|e| panic!("{e}"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("default.bank");
    tilebake::io::write_atomic(&out, &baked.bytes).unwrap_or_else(|e| panic!("{e}"));
    let bank = bank::parse(&baked.bytes).unwrap_or_else(|e| panic!("{e}"));
    let relief = voxel::flight::Relief::of(&bank);
    let out = out.with_extension("relief");
    tilebake::io::write_atomic(&out, &relief.file().expect("built")).unwrap_or_else(|e| panic!("{e}"));
}
