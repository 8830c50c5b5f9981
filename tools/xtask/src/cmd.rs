//! Running commands, and where things are.

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("tools/xtask is two levels down").to_path_buf()
}

/// The cargo that runs us.
pub fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

/// Runs a command, its output going to ours; fails on a non-zero exit.
pub fn run(cmd: &mut Command) -> Result<()> {
    let status = cmd.status().with_context(|| format!("could not start {cmd:?}"))?;
    if !status.success() {
        bail!("{} failed ({status})", describe(cmd));
    }
    Ok(())
}

/// Runs a command, showing its output only when it fails.
pub fn run_quiet(cmd: &mut Command) -> Result<()> {
    let out = cmd.stdin(Stdio::null()).output().with_context(|| format!("could not start {cmd:?}"))?;
    if !out.status.success() {
        eprintln!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        bail!("{} failed ({})", describe(cmd), out.status);
    }
    Ok(())
}

fn describe(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// True if `name` is on the PATH.
pub fn have_command(name: &str) -> bool {
    std::env::var_os("PATH").map(|paths| std::env::split_paths(&paths).any(|d| d.join(name).is_file())).unwrap_or(false)
}

/// Where Debian puts games (`mgba-sdl`'s `mgba`), often not in root's PATH.
pub const GAMES_DIR: &str = "/usr/games";

/// The mGBA frontend to open a window with: `mgba-qt`, else `mgba`, looked for
/// in PATH, then in /usr/games.
pub fn find_emulator() -> Option<PathBuf> {
    find_in(&["mgba-qt", "mgba"], std::env::var_os("PATH").as_deref(), Path::new(GAMES_DIR))
}

/// The first of `names` in the directories of `path` (a PATH value), then in `extra`.
fn find_in(names: &[&str], path: Option<&std::ffi::OsStr>, extra: &Path) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = path.map(|p| std::env::split_paths(p).collect()).unwrap_or_default();
    dirs.push(extra.to_path_buf());
    names.iter().find_map(|name| dirs.iter().map(|d| d.join(name)).find(|p| is_executable(p)))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn the_emulator_is_found_in_path_then_in_the_games_dir() {
        let base = std::env::temp_dir().join(format!("xtask-find-{}", std::process::id()));
        let (bin, games) = (base.join("bin"), base.join("games"));
        for d in [&bin, &games] {
            std::fs::create_dir_all(d).unwrap();
        }
        let exe = |p: &Path| {
            std::fs::write(p, "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
        };
        let path = std::env::join_paths([&bin]).unwrap();
        assert_eq!(find_in(&["mgba-qt", "mgba"], Some(&path), &games), None);
        exe(&games.join("mgba"));
        assert_eq!(find_in(&["mgba-qt", "mgba"], Some(&path), &games), Some(games.join("mgba")), "PATH lacks it");
        assert_eq!(find_in(&["mgba-qt", "mgba"], None, &games), Some(games.join("mgba")), "no PATH at all");
        exe(&bin.join("mgba"));
        assert_eq!(find_in(&["mgba-qt", "mgba"], Some(&path), &games), Some(bin.join("mgba")), "PATH first");
        exe(&games.join("mgba-qt"));
        assert_eq!(find_in(&["mgba-qt", "mgba"], Some(&path), &games), Some(games.join("mgba-qt")), "Qt first");
        std::fs::write(bin.join("mgba-qt"), "not executable").unwrap();
        assert_eq!(find_in(&["mgba-qt", "mgba"], Some(&path), &games), Some(games.join("mgba-qt")));
        std::fs::remove_dir_all(base).ok();
    }
}
