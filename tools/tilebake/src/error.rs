//! Every way a tilebake command can fail, each naming the file and the problem.

use std::path::PathBuf;

/// A tilebake error: one line for the user, exit status 2.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}: cannot read: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{}: not a PNG file", path.display())]
    NotPng { path: PathBuf },
    #[error("{}: corrupt or truncated PNG: {detail}", path.display())]
    BadPng { path: PathBuf, detail: String },
    #[error(
        "{} is {}x{} but {} is {}x{}: a heightmap and its texture must be the same size",
        height.display(), hsize.0, hsize.1, texture.display(), tsize.0, tsize.1
    )]
    SizeMismatch { height: PathBuf, hsize: (u32, u32), texture: PathBuf, tsize: (u32, u32) },
    #[error("{}: {}x{} is not a multiple of the tile size {tile} on both sides", path.display(), size.0, size.1)]
    NotMultiple { path: PathBuf, size: (u32, u32), tile: u32 },
    #[error("tile size {0} is not supported: use 8, 16, 32, 64 or 128")]
    TileSize(u32),
    #[error("--colours {0} is outside 2..=52 (the ROM keeps 4 fog shades of each colour)")]
    Colours(u32),
    #[error(
        "{count} distinct tiles of {tile} px: a bank holds at most 256 (tile references are 8 bits); \
         try --tile-size {suggest} or smaller images"
    )]
    TooManyTiles { count: usize, tile: u32, suggest: u32 },
    #[error("{heights} heightmap(s) but {textures} texture(s): give them in pairs")]
    Pairs { heights: usize, textures: usize },
    #[error("no heightmap and texture given: use --height and --texture, or --manifest")]
    NoInput,
    #[error("{}: cannot write: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
    #[error("{}: {source}", path.display())]
    Bank { path: PathBuf, source: bank::BankError },
    #[error("{}: {detail}", path.display())]
    Manifest { path: PathBuf, detail: String },
    #[error("{}: not a GBA ROM ({detail})", path.display())]
    NotRom { path: PathBuf, detail: String },
    #[error("{}: found {count} bank slots (the `TBNKSLOT` marker), expected exactly one: is this a terrain ROM?", path.display())]
    Slot { path: PathBuf, count: usize },
    #[error("{}: the packed ROM would be {size} bytes, over the 32 MiB a cartridge maps", path.display())]
    RomTooBig { path: PathBuf, size: usize },
    #[error("--seam-band {band} is more than half the tile size {tile}")]
    SeamBand { band: u32, tile: u32 },
    #[error("size {0} is not a multiple of 128 between 128 and 4096")]
    GenerateSize(u32),
    #[error("{0}")]
    Option(String),
    #[error("{inputs}: cannot build a corner tile set: {detail}")]
    Corners { inputs: String, detail: String },
}

/// Result with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
