//! Hands the ROM's own linker script to rust-lld (absolute path, so the build
//! works from any directory).
fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    println!("cargo:rustc-link-arg=-T{dir}/gba.ld");
    println!("cargo:rerun-if-changed=gba.ld");
}
