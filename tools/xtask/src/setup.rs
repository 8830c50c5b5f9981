//! `cargo xtask setup`: makes a fresh Debian 12 machine ready. Idempotent, and
//! quick (two package queries) when everything is already there.

use crate::cmd::{have_command, run, run_quiet};
use anyhow::{Result, bail};
use std::process::Command;

/// Debian packages the build and the emulator tests need.
pub const PACKAGES: &[&str] = &["libmgba-dev", "gcc", "libc6-dev"];

fn missing_packages(packages: &[&str]) -> Vec<String> {
    packages
        .iter()
        .filter(|p| {
            let out = Command::new("dpkg-query").args(["-W", "-f=${Status}", p]).output();
            !matches!(out, Ok(o) if String::from_utf8_lossy(&o.stdout).contains("install ok installed"))
        })
        .map(|p| p.to_string())
        .collect()
}

/// Installs Debian packages that are missing (as root, or through sudo).
pub fn apt_install(packages: &[&str]) -> Result<()> {
    let missing = missing_packages(packages);
    if missing.is_empty() {
        return Ok(());
    }
    if !have_command("apt-get") {
        bail!("missing system packages {missing:?} and no apt-get here: install them by hand");
    }
    let is_root = Command::new("id").arg("-u").output().map(|o| o.stdout.starts_with(b"0")).unwrap_or(false);
    let prefix: Vec<&str> = if is_root { vec![] } else { vec!["sudo"] };
    eprintln!("setup: installing {}", missing.join(" "));
    let apt = |args: &[&str]| -> Result<()> {
        let mut all: Vec<&str> = prefix.clone();
        all.extend_from_slice(args);
        let mut c = Command::new(all[0]);
        c.args(&all[1..]).env("DEBIAN_FRONTEND", "noninteractive");
        run_quiet(&mut c)
    };
    let mut install: Vec<&str> = vec!["apt-get", "install", "-y", "-qq", "--no-install-recommends"];
    install.extend(missing.iter().map(String::as_str));
    if apt(&install).is_err() {
        // A fresh machine has no package lists yet.
        apt(&["apt-get", "update", "-qq"])?;
        apt(&install)?;
    }
    Ok(())
}

fn rust_src_installed() -> bool {
    let out = Command::new("rustup").args(["component", "list", "--installed", "--toolchain", "nightly"]).output();
    matches!(out, Ok(o) if String::from_utf8_lossy(&o.stdout).lines().any(|l| l.starts_with("rust-src")))
}

/// Installs what the build needs.
pub fn setup() -> Result<()> {
    apt_install(PACKAGES)?;
    if !rust_src_installed() {
        eprintln!("setup: rustup component add rust-src --toolchain nightly");
        run(Command::new("rustup").args(["component", "add", "rust-src", "--toolchain", "nightly"]))?;
    }
    Ok(())
}
