//! Builds the C shim over the system libmgba (Debian: `libmgba-dev`).
fn main() {
    println!("cargo:rerun-if-changed=shim/runner.c");
    if !std::path::Path::new("/usr/include/mgba/core/core.h").exists() {
        println!(
            "cargo:warning=mGBA headers not found: run `cargo xtask setup` \
             (installs Debian's libmgba-dev)"
        );
    }
    cc::Build::new().file("shim/runner.c").warnings(true).compile("mgba_runner_shim");
    println!("cargo:rustc-link-lib=mgba");
}
