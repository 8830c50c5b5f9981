//! Every way a tilebake command can fail, each naming the file and the problem
//! in one line of words.

use std::path::{Path, PathBuf};

/// A tilebake error: one line for the user, exit status 2.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}: cannot read: {}", path.display(), words(source))]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{}: not a PNG file", path.display())]
    NotPng { path: PathBuf },
    #[error("{}: corrupt or truncated PNG: {detail}", path.display())]
    BadPng { path: PathBuf, detail: String },
    #[error("{}: {detail}", path.display())]
    Image { path: PathBuf, detail: String },
    #[error(
        "{} is {}x{} but {} is {}x{}: a heightmap and its texture must be the same size",
        height.display(), hsize.0, hsize.1, texture.display(), tsize.0, tsize.1
    )]
    SizeMismatch { height: PathBuf, hsize: (u32, u32), texture: PathBuf, tsize: (u32, u32) },
    #[error("{}: {}x{} is not a multiple of the tile size {tile} on both sides", path.display(), size.0, size.1)]
    NotMultiple { path: PathBuf, size: (u32, u32), tile: u32 },
    /// A numeric option outside its range, from the command line or a manifest.
    #[error("{}", range_text(manifest.as_deref(), key, value, problem))]
    Range { manifest: Option<PathBuf>, key: &'static str, value: String, problem: String },
    #[error(
        "{inputs}: {count} distinct tiles of {tile} px: a bank holds at most {max} \
         (tile references are 8 bits); {advice}",
        max = bank::MAX_TILES
    )]
    TooManyTiles { inputs: String, count: String, tile: u32, advice: String },
    #[error("{heights} heightmap(s) but {textures} texture(s): give them in pairs")]
    Pairs { heights: usize, textures: usize },
    #[error("no heightmap and texture given: use --height and --texture, or --manifest")]
    NoInput,
    #[error("{}: cannot write: {}", path.display(), words(source))]
    Write { path: PathBuf, source: std::io::Error },
    #[error(
        "{}: already there, and not a picture `tilebake {command}` wrote: move it or choose another directory \
         ({command} replaces only its own pictures)",
        path.display()
    )]
    Foreign { path: PathBuf, command: String },
    #[error("{}: the output would overwrite an input of the same command; choose another output", path.display())]
    OutputIsInput { path: PathBuf },
    #[error("{}: {source}", path.display())]
    Bank { path: PathBuf, source: bank::BankError },
    #[error("{}: not a tile bank but {what}", path.display())]
    NotBank { path: PathBuf, what: &'static str },
    #[error("{}: cannot make a world of it: {}", path.display(), landscape_words(reason))]
    Landscape { path: PathBuf, reason: voxel::LandscapeError },
    #[error("{}: {detail}", path.display())]
    Manifest { path: PathBuf, detail: String },
    #[error("{}: not a GBA ROM ({detail})", path.display())]
    NotRom { path: PathBuf, detail: String },
    #[error(
        "{}: not the terrain ROM (its header says title `{title}`, game code `{code}`; \
         pack wants title `TERRAIN`, game code `ZTRE`, as in target/gba/terrain.gba)",
        path.display()
    )]
    NotTerrainRom { path: PathBuf, title: String, code: String },
    #[error("{}: found {count} bank slots (the `TBNKSLOT` marker), expected exactly one: is this a terrain ROM?", path.display())]
    Slot { path: PathBuf, count: usize },
    #[error(
        "{}: what was packed into it (a bank, and its relief file) ends at byte {end}, past the file's {len}: the \
         file is cut short (pack the ROM that `cargo xtask rom` wrote, target/gba/terrain.gba)",
        path.display()
    )]
    CutShort { path: PathBuf, end: usize, len: usize },
    #[error(
        "{}: {len} bytes, but it was built as {built} (its bank slot says): the file is cut short (pack the ROM \
         that `cargo xtask rom` wrote, target/gba/terrain.gba)",
        path.display()
    )]
    Truncated { path: PathBuf, built: usize, len: usize },
    #[error("{}: the packed ROM would be {size} bytes, over the 32 MiB a cartridge maps", path.display())]
    RomTooBig { path: PathBuf, size: usize },
    #[error("{0}")]
    Option(String),
    #[error("{inputs}: cannot build a corner tile set: {detail}")]
    Corners { inputs: String, detail: String },
}

/// Result with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// A command-line option (`key` in manifest spelling, `tile_size`) with
    /// `value` and what is wrong with it (`is outside 2..=3`).
    pub fn range(key: &'static str, value: impl ToString, problem: impl Into<String>) -> Error {
        Error::Range { manifest: None, key, value: value.to_string(), problem: problem.into() }
    }
}

/// `--tile-size 24 is not supported ...` on the command line,
/// `m.toml: tile_size = 24 is not supported ...` in a manifest.
fn range_text(manifest: Option<&Path>, key: &str, value: &str, problem: &str) -> String {
    match manifest {
        Some(m) => format!("{}: {key} = {value} {problem}", m.display()),
        None => format!("--{} {value} {problem}", key.replace('_', "-")),
    }
}

/// Why a bank makes no world, in a tilebake user's terms: the engine's
/// advice on class bands names the world's spacing, which the engine picks;
/// a bank's author can change its classes.
fn landscape_words(reason: &voxel::LandscapeError) -> String {
    match reason {
        voxel::LandscapeError::World(terrain::ParamError::ClassBand { need, .. }) => format!(
            "its middle corner class is narrower than {need} field units, the most the world's field moves across a \
             tile: bake it again (tilebake keeps the classes that wide) or with --classes 2"
        ),
        other => other.to_string(),
    }
}

/// An I/O error in words, without the OS error number or the path of a
/// temporary file (the error names the user's file already).
pub fn words(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    let text = match e.kind() {
        K::NotFound => "no such file or directory",
        K::PermissionDenied => "permission denied",
        K::AlreadyExists => "it already exists",
        K::IsADirectory => "it is a directory",
        K::NotADirectory => "a part of the path is not a directory",
        K::StorageFull => "the disk is full",
        K::QuotaExceeded => "the disk quota is exceeded",
        K::FileTooLarge => "the file would be too large (disk or file size limit)",
        K::ReadOnlyFilesystem => "the file system is read-only",
        K::InvalidFilename => "the name is not valid",
        K::CrossesDevices => "it is on another file system",
        K::UnexpectedEof => "the file ends too soon",
        K::OutOfMemory => "out of memory",
        K::Interrupted => "interrupted",
        _ => {
            // The OS's own words, minus " (os error N)" and any " at path ...".
            let inner = e.get_ref().and_then(|inner| inner.source()).and_then(|s| s.downcast_ref::<std::io::Error>());
            let text = inner.unwrap_or(e).to_string();
            let text = text.split(" at path ").next().unwrap_or(&text);
            let text = text.split(" (os error").next().unwrap_or(text);
            return lower_first(text.trim());
        }
    };
    text.to_string()
}

/// `Text` to `text` (messages continue after a colon).
pub fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) if !c.as_str().starts_with(|x: char| x.is_ascii_uppercase()) => f.to_lowercase().chain(c).collect(),
        _ => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_are_words_without_numbers_or_temporary_paths() {
        let e = std::io::Error::from_raw_os_error(28); // ENOSPC
        assert_eq!(words(&e), "the disk is full");
        let e = std::io::Error::from_raw_os_error(71); // EPROTO: no kind of its own
        let w = words(&e);
        assert!(!w.contains("os error") && !w.is_empty(), "{w}");
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no/such");
        let e = tempfile::Builder::new().prefix(".tilebake-").tempfile_in(&missing).unwrap_err();
        let w = words(&e);
        assert_eq!(w, "no such file or directory");
        assert_eq!(lower_first("Invalid PNG signature"), "invalid PNG signature");
        assert_eq!(lower_first("IDAT chunk"), "IDAT chunk");
    }

    /// The errors a user meets from the OS, in our words rather than the
    /// OS's ("Not a directory", "Cannot allocate memory", ...).
    #[test]
    #[cfg(target_os = "linux")] // Linux's error numbers
    fn os_errors_in_our_words() {
        for (errno, text) in [
            (2, "no such file or directory"),
            (4, "interrupted"),
            (12, "out of memory"),
            (13, "permission denied"),
            (17, "it already exists"),
            (18, "it is on another file system"),
            (20, "a part of the path is not a directory"),
            (21, "it is a directory"),
            (27, "the file would be too large (disk or file size limit)"),
            (30, "the file system is read-only"),
            (122, "the disk quota is exceeded"),
        ] {
            assert_eq!(words(&std::io::Error::from_raw_os_error(errno)), text, "errno {errno}");
        }
        // Errors made from a kind, not by the OS, in the same words.
        assert_eq!(words(&std::io::Error::from(std::io::ErrorKind::NotFound)), "no such file or directory");
        // A file where the path needs a directory.
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("f"), b"").unwrap();
        let e = std::fs::read(dir.path().join("f/x")).unwrap_err();
        assert_eq!(words(&e), "a part of the path is not a directory");
    }

    #[test]
    fn range_errors_name_the_option_or_the_manifest_key() {
        let e = Error::range("tile_size", 24, "is not supported");
        assert_eq!(e.to_string(), "--tile-size 24 is not supported");
        let e = Error::Range {
            manifest: Some("m.toml".into()),
            key: "tile_size",
            value: "24".into(),
            problem: "is not supported".into(),
        };
        assert_eq!(e.to_string(), "m.toml: tile_size = 24 is not supported");
    }
}
