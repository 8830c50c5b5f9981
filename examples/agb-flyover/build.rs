//! Bakes the default tile set (`assets/terrain.toml`) into
//! `$OUT_DIR/default.bank` with the tilebake library, as the project's own ROM
//! does, and the flight's relief file (`Relief::file`) into `$OUT_DIR/default.relief`;
//! `src/land.rs` includes both. (agb's own build script hands the linker its
//! `gba.ld`, which places the engine's `.iwram.*` sections in IWRAM.)
use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let manifest = dir.join("../../assets/terrain.toml");
    println!("cargo:rerun-if-changed={}", manifest.display());
    let options = tilebake::Options::from_manifest(&manifest).unwrap_or_else(|e| panic!("{e}"));
    for pair in &options.pairs {
        println!("cargo:rerun-if-changed={}", pair.height.display());
        println!("cargo:rerun-if-changed={}", pair.texture.display());
    }
    let baked = tilebake::bake(&options, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{e}"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("default.bank");
    tilebake::io::write_atomic(&out, &baked.bytes).unwrap_or_else(|e| panic!("{e}"));
    let bank = bank::parse(&baked.bytes).unwrap_or_else(|e| panic!("{e}"));
    let relief = voxel::flight::Relief::of(&bank);
    tilebake::io::write_atomic(&out.with_extension("relief"), &relief.file().expect("built"))
        .unwrap_or_else(|e| panic!("{e}"));
}
