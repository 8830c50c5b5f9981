//! The tile-bank format, one definition for the writer (`tilebake`) and the
//! reader (the ROM). `no_std`, no allocation to parse.
//!
//! ```text
//! offset  size              field
//! 0       28                Header (little-endian, see [`Header`])
//! 28      2 * palette_len   palette: BGR555 colours (bit 15 clear)
//! ..      0 or 2            padding to a multiple of 4
//! ..      0 or 516          placement tables (corner placement only, see below)
//! ..      2 * texels        tiles, one after the other, rows top to bottom;
//!                           each texel a u16: height (low byte, 0..=255)
//!                           | colour index (high byte, < palette_len)
//! ```
//!
//! Height and colour share one halfword so the renderer's inner loop fetches
//! both with one 16-bit load. `payload_len` counts everything after the header
//! and `crc32` holds CRC-32/ISO-HDLC (as zlib) of the header's first 24 bytes
//! XOR that of the payload, so any change is caught. [`parse`] checks
//! every field and every texel and never panics, whatever the input.
//!
//! ## Placement
//! How a world places the tiles ([`Placement`]):
//! - **paper** (0): the paper's method: the interpolated structure-grid value
//!   indexes a random table whose entry is the tile. Tiles are cut from the
//!   source as they are; borders between them do not match.
//! - **corners** (1): corner tiles. Every tile corner (grid vertex) gets a
//!   *class* (0 .. `classes`) from the smoothly interpolated field: class =
//!   how many of the `thresholds` the field value (0..=255) reaches; and a
//!   random bit, from the paper's random table. A tile's four corner classes
//!   make its *configuration* `TL | TR << 2 | BL << 4 | BR << 6` (0..=255);
//!   each edge's *variant* is the XOR of its two corners' random bits, and the
//!   edge's two classes and variant decide its border texels, so every tile
//!   with that edge carries the same border and neighbours join seamlessly.
//!   The edge variants of a tile make its *combination* `top | bottom << 1 |
//!   left << 2` (the right edge's variant is the XOR of the other three). The
//!   tables are 4 bytes of thresholds (`classes - 1` used, strictly
//!   increasing, 1..=255; the rest 0) and 256 u16 [`ConfigTiles`]
//!   (`first | count << 8`): a configuration's tiles are `first .. first +
//!   count` in combination order, `count` [`COMBINATIONS`] (or 1: one tile
//!   for every combination, for configurations a world never makes).
//!
//! ## Height scale
//! `height_scale` is the set's vertical scale: world pixels per height unit,
//! 8.8 fixed point (256 = one world pixel per unit), in [`HEIGHT_SCALES`].
//! Texels are 4 x 4 world pixels, so a slope of one height unit per texel
//! rises `height_scale / 1024` world pixels per world pixel.
#![no_std]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod crc;

use bytemuck::{Pod, Zeroable};

pub mod colour;
pub mod slot;

/// First bytes of every bank.
pub const MAGIC: [u8; 4] = *b"TBNK";
/// The format version this crate reads and writes.
pub const VERSION: u16 = 2;
/// Tile sides allowed, in texels.
pub const TILE_SIZES: [u16; 5] = [8, 16, 32, 64, 128];
/// Most tiles a bank may hold (tile references are 8 bits).
pub const MAX_TILES: usize = 256;
/// Most palette colours a bank may hold: the ROM keeps 4 fog shades of each,
/// and of the boundary view's mark, in the 212 palette entries 44..=255 (see
/// the README's palette plan).
pub const MAX_COLOURS: usize = 52;
/// Size of [`Header`], in bytes.
pub const HEADER_LEN: usize = core::mem::size_of::<Header>();
/// Corner classes a corner-placement bank may use.
pub const CLASSES: core::ops::RangeInclusive<u8> = 2..=3;
/// Configurations (four corner classes of 2 bits each).
pub const CONFIGS: usize = 256;
/// Tiles of one corner configuration: one per combination of edge variants.
pub const COMBINATIONS: u8 = 8;
/// Bytes of the corner placement tables: thresholds, then the configurations.
pub const CORNER_TABLES_LEN: usize = 4 + 2 * CONFIGS;
/// `height_scale` of one world pixel per height unit.
pub const HEIGHT_SCALE_ONE: u16 = 256;
/// `height_scale` values allowed: 1/16 to 8 world pixels per height unit.
pub const HEIGHT_SCALES: core::ops::RangeInclusive<u16> = 16..=2048;

const CRC: ::crc::Crc<u32> = ::crc::Crc::<u32>::new(&::crc::CRC_32_ISO_HDLC);

/// The `placement` header value of the paper's placement.
pub const PLACEMENT_PAPER: u8 = 0;
/// The `placement` header value of corner placement.
pub const PLACEMENT_CORNERS: u8 = 1;

/// The bank header (28 bytes, little-endian on every platform we build for).
///
/// ```
/// # let mut tiles = vec![bank::texel(0, 0); 64];
/// # tiles.extend([bank::texel(40, 1); 64]);
/// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let b = bank::parse(&bytes).unwrap();
/// assert_eq!(b.header().magic, bank::MAGIC);
/// assert_eq!(b.header().payload_len as usize, bytes.len() - bank::HEADER_LEN);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub struct Header {
    /// [`MAGIC`].
    pub magic: [u8; 4],
    /// [`VERSION`].
    pub version: u16,
    /// Tile side, in texels: one of [`TILE_SIZES`].
    pub tile_size: u16,
    /// Tiles in the bank: 1..=[`MAX_TILES`].
    pub tile_count: u16,
    /// Palette colours: 1..=[`MAX_COLOURS`].
    pub palette_len: u16,
    /// [`PLACEMENT_PAPER`] or [`PLACEMENT_CORNERS`].
    pub placement: u8,
    /// Corner classes (in [`CLASSES`]) for corner placement, 0 for the paper's.
    pub classes: u8,
    /// World pixels per height unit, 8.8 fixed point, in [`HEIGHT_SCALES`].
    pub height_scale: u16,
    /// Reserved, 0.
    pub flags: u32,
    /// Bytes after the header.
    pub payload_len: u32,
    /// CRC-32 of the header's first 24 bytes XOR CRC-32 of the payload.
    pub crc32: u32,
}

/// Why a byte string is not a valid bank.
///
/// ```
/// # let mut tiles = vec![bank::texel(0, 0); 64];
/// # tiles.extend([bank::texel(40, 1); 64]);
/// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let b = bank::parse(&bytes).unwrap();
/// assert_eq!(bank::parse(b"TBNK").unwrap_err(), bank::BankError::TooShort { len: 4 });
/// let mut bad = bytes.clone();
/// bad[40] ^= 1; // one bit of a texel
/// assert!(matches!(bank::parse(&bad), Err(bank::BankError::Checksum { .. })));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BankError {
    /// Fewer bytes than a header.
    TooShort { len: usize },
    /// The first four bytes are not `TBNK`.
    BadMagic,
    /// A version this build does not read.
    Version { found: u16 },
    /// A tile side other than 8, 16, 32, 64, 128.
    TileSize { found: u16 },
    /// Zero tiles, or more than 256.
    TileCount { found: u16 },
    /// Zero colours, or more than [`MAX_COLOURS`].
    PaletteLen { found: u16 },
    /// A placement other than paper (0) or corners (1), or a class count that
    /// does not fit it.
    Placement { placement: u8, classes: u8 },
    /// A height scale outside [`HEIGHT_SCALES`].
    HeightScale { found: u16 },
    /// Reserved flags set.
    Flags { found: u32 },
    /// `payload_len` disagrees with the tile and palette counts.
    PayloadLen { expected: u32, found: u32 },
    /// The data ends before the payload does.
    Truncated { expected: usize, found: usize },
    /// More data after the payload (a bank is exactly its header and
    /// payload: what follows is not part of it).
    TrailingBytes { expected: usize, found: usize },
    /// The payload's CRC-32 is wrong.
    Checksum { expected: u32, found: u32 },
    /// A palette colour has bit 15 set.
    PaletteEntry { index: u16 },
    /// Class thresholds not strictly increasing in 1..=255, or unused ones not 0.
    Thresholds,
    /// A configuration's tile count is not 1 or [`COMBINATIONS`], or its tiles run past the bank's.
    Config { config: u8, first: u8, count: u8 },
    /// A texel's colour index is outside the palette.
    ColourIndex { tile: u16, texel: u32, index: u8 },
}

impl core::fmt::Display for BankError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            BankError::TooShort { len } => write!(f, "{len} bytes is too short for a tile bank header ({HEADER_LEN})"),
            BankError::BadMagic => write!(f, "not a tile bank (no TBNK magic)"),
            BankError::Version { found } => {
                write!(f, "bank format version {found}; this build reads {VERSION} (rebake it with tilebake)")
            }
            BankError::TileSize { found } => write!(f, "tile size {found} is not 8, 16, 32, 64 or 128"),
            BankError::TileCount { found } => write!(f, "{found} tiles; a bank holds 1 to {MAX_TILES}"),
            BankError::PaletteLen { found } => write!(f, "{found} colours; a bank holds 1 to {MAX_COLOURS}"),
            BankError::Placement { placement, classes } => write!(
                f,
                "placement {placement} with {classes} classes: use 0 (paper, 0 classes) or 1 (corners, 2 or 3 classes)"
            ),
            BankError::HeightScale { found } => write!(
                f,
                "height scale {found}/256 world pixels per unit is outside {}..={}",
                HEIGHT_SCALES.start(),
                HEIGHT_SCALES.end()
            ),
            BankError::Flags { found } => write!(f, "reserved flags {found:#x} are set"),
            BankError::PayloadLen { expected, found } => {
                write!(f, "payload length {found} should be {expected} for these tile and palette counts")
            }
            BankError::Truncated { expected, found } => write!(f, "truncated: {found} of {expected} bytes"),
            BankError::TrailingBytes { expected, found } => {
                write!(f, "{found} bytes, but the bank ends after {expected}: the rest is not part of it")
            }
            BankError::Checksum { expected, found } => {
                write!(f, "checksum mismatch: CRC-32 {found:#010x}, header says {expected:#010x}")
            }
            BankError::PaletteEntry { index } => write!(f, "palette colour {index} has bit 15 set"),
            BankError::Thresholds => write!(f, "class thresholds are not strictly increasing in 1..=255"),
            BankError::Config { config, first, count } => write!(
                f,
                "configuration {config:#04x}: tiles {first}..{} are not 1 or 8 tiles inside the bank",
                first as u32 + count as u32
            ),
            BankError::ColourIndex { tile, texel, index } => {
                write!(f, "tile {tile}, texel {texel}: colour index {index} is outside the palette")
            }
        }
    }
}

impl core::error::Error for BankError {}

/// The header's `crc32` field: CRC-32 of the header's first 24 bytes (all
/// but the field itself) XOR CRC-32 of the payload, so a change anywhere, in
/// the header or the payload, is caught.
fn checksum(scan: &impl Scan, head: &[u8], payload: &[u8]) -> u32 {
    scan.crc32(head) ^ scan.crc32(payload)
}

/// Bytes of palette plus padding to a multiple of 4, for `palette_len` colours.
///
/// ```
/// assert_eq!((bank::palette_bytes(2), bank::palette_bytes(3)), (4, 8));
/// ```
pub const fn palette_bytes(palette_len: usize) -> usize {
    (palette_len * 2 + 3) & !3
}

/// Bytes of one tile of side `tile_size`.
///
/// ```
/// assert_eq!(bank::tile_bytes(32), 2048); // 32 x 32 texels of 2 bytes
/// ```
pub const fn tile_bytes(tile_size: usize) -> usize {
    tile_size * tile_size * 2
}

/// Bytes of the placement tables for a `placement` header value.
///
/// ```
/// assert_eq!(bank::placement_bytes(bank::PLACEMENT_PAPER), 0);
/// assert_eq!(bank::placement_bytes(bank::PLACEMENT_CORNERS), 516);
/// ```
pub const fn placement_bytes(placement: u8) -> usize {
    if placement == PLACEMENT_CORNERS { CORNER_TABLES_LEN } else { 0 }
}

/// Payload bytes for a bank of these dimensions.
///
/// ```
/// # let mut tiles = vec![bank::texel(0, 0); 64];
/// # tiles.extend([bank::texel(40, 1); 64]);
/// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let b = bank::parse(&bytes).unwrap();
/// assert_eq!(bank::payload_len(8, 2, 2, bank::PLACEMENT_PAPER), bytes.len() - bank::HEADER_LEN);
/// ```
pub const fn payload_len(tile_size: usize, tile_count: usize, palette_len: usize, placement: u8) -> usize {
    palette_bytes(palette_len) + placement_bytes(placement) + tile_bytes(tile_size) * tile_count
}

/// The tiles of one corner configuration: `first .. first + count`.
///
/// ```
/// use bank::{COMBINATIONS, ConfigTiles};
/// // Tiles 16 ..= 23, one for each combination of edge variants.
/// let e = ConfigTiles { first: 16, count: COMBINATIONS };
/// assert_eq!(ConfigTiles::from_u16(e.to_u16()), e);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ConfigTiles {
    /// The first tile.
    pub first: u8,
    /// How many: [`COMBINATIONS`], or 1.
    pub count: u8,
}

impl ConfigTiles {
    /// The table entry: `first | count << 8`.
    ///
    /// ```
    /// assert_eq!(bank::ConfigTiles { first: 16, count: 8 }.to_u16(), 0x0810);
    /// ```
    pub const fn to_u16(self) -> u16 {
        self.first as u16 | (self.count as u16) << 8
    }

    /// From a table entry.
    ///
    /// ```
    /// assert_eq!(bank::ConfigTiles::from_u16(0x0810), bank::ConfigTiles { first: 16, count: 8 });
    /// ```
    pub const fn from_u16(v: u16) -> Self {
        ConfigTiles { first: v as u8, count: (v >> 8) as u8 }
    }
}

/// The configuration index of four corner classes (each below 4).
///
/// ```
/// assert_eq!(bank::config(1, 0, 2, 1), 1 | 2 << 4 | 1 << 6);
/// assert_eq!(bank::corners(bank::config(1, 0, 2, 1)), [1, 0, 2, 1]);
/// ```
pub const fn config(tl: u8, tr: u8, bl: u8, br: u8) -> u8 {
    (tl & 3) | (tr & 3) << 2 | (bl & 3) << 4 | (br & 3) << 6
}

/// The corner classes (TL, TR, BL, BR) of a configuration index.
///
/// ```
/// assert_eq!(bank::corners(0b01_10_00_01), [1, 0, 2, 1]);
/// ```
pub const fn corners(config: u8) -> [u8; 4] {
    [config & 3, (config >> 2) & 3, (config >> 4) & 3, config >> 6]
}

/// The combination of the edge variants of a tile whose corners have random
/// bits `tl`, `tr`, `bl`, `br` (each 0 or 1).
///
/// ```
/// // Top edge: bits 1 and 0 differ (variant 1); bottom: 1, 1 (0); left: 1, 1 (0).
/// let c = bank::combination(1, 0, 1, 1);
/// assert_eq!(bank::edge_variants(c), [1, 0, 0, 1]); // right: 0, 1 (1)
/// ```
pub const fn combination(tl: u8, tr: u8, bl: u8, br: u8) -> u8 {
    (tl ^ tr) | (bl ^ br) << 1 | (tl ^ bl) << 2
}

/// The edge variants (top, bottom, left, right) of a combination.
///
/// ```
/// for c in 0..bank::COMBINATIONS {
///     let [top, bottom, left, right] = bank::edge_variants(c);
///     assert_eq!(top ^ bottom ^ left ^ right, 0); // the four corners' bits each count twice
/// }
/// ```
pub const fn edge_variants(combination: u8) -> [u8; 4] {
    let (top, bottom, left) = (combination & 1, (combination >> 1) & 1, (combination >> 2) & 1);
    [top, bottom, left, top ^ bottom ^ left]
}

/// Corner placement, as stored: class thresholds and the tiles of each configuration.
///
/// ```
/// use bank::{CONFIGS, ConfigTiles, Corners};
/// // Three classes: field values 0 ..= 99, 100 ..= 179, 180 ..= 255.
/// let c = Corners { classes: 3, thresholds: [100, 180, 0], configs: [ConfigTiles::default(); CONFIGS] };
/// assert_eq!([c.class_of(99), c.class_of(100), c.class_of(255)], [0, 1, 2]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Corners {
    /// Corner classes: in [`CLASSES`].
    pub classes: u8,
    /// Field values (0..=255) where classes 1, 2, 3 begin; `classes - 1` used.
    pub thresholds: [u8; 3],
    /// Tiles of each configuration index.
    pub configs: [ConfigTiles; CONFIGS],
}

impl Corners {
    /// The class of field value `v` (0..=255): how many thresholds it reaches.
    ///
    /// ```
    /// use bank::{CONFIGS, ConfigTiles, Corners};
    /// let two = Corners { classes: 2, thresholds: [128, 0, 0], configs: [ConfigTiles::default(); CONFIGS] };
    /// assert_eq!([two.class_of(0), two.class_of(127), two.class_of(128)], [0, 0, 1]);
    /// ```
    pub const fn class_of(&self, v: u8) -> u8 {
        let mut c = 0;
        let mut k = 0;
        while k + 1 < self.classes as usize {
            if v >= self.thresholds[k] {
                c += 1;
            }
            k += 1;
        }
        c
    }
}

/// How the world places the tiles (see the crate docs).
///
/// ```
/// # let mut tiles = vec![bank::texel(0, 0); 64];
/// # tiles.extend([bank::texel(40, 1); 64]);
/// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let b = bank::parse(&bytes).unwrap();
/// assert_eq!(b.placement(), bank::Placement::Paper);
/// ```
// The corner tables are 520 bytes inline: parsing needs no allocation, and a
// placement is made once per bank.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// The paper's: the random table's entry is the tile; borders do not match.
    Paper,
    /// Corner tiles: matched borders, chosen by corner classes.
    Corners(Corners),
}

/// A validated bank, borrowing its bytes.
///
/// ```
/// # let mut tiles = vec![bank::texel(0, 0); 64];
/// # tiles.extend([bank::texel(40, 1); 64]);
/// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let b = bank::parse(&bytes).unwrap();
/// assert_eq!((b.tile_size(), b.tile_count(), b.palette_len()), (8, 2, 2));
/// assert_eq!(b.texel(1, 7, 7), (40, 1)); // the plateau
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Bank<'a> {
    header: Header,
    palette: &'a [u8],
    placement: &'a [u8],
    tiles: &'a [u8],
}

fn u16_at(bytes: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([bytes[i], bytes[i + 1]])
}

/// The two whole-payload scans of [`parse_with`], which a platform may do
/// faster than the portable code (the ROM does them in ARM code from IWRAM).
///
/// ```
/// # let mut tiles = vec![bank::texel(0, 0); 64];
/// # tiles.extend([bank::texel(40, 1); 64]);
/// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let b = bank::parse(&bytes).unwrap();
/// /// Counts the bytes the CRC scans, then does the portable scans.
/// struct Counting(core::cell::Cell<usize>);
/// impl bank::Scan for Counting {
///     fn crc32(&self, bytes: &[u8]) -> u32 {
///         self.0.set(self.0.get() + bytes.len());
///         bank::PortableScan.crc32(bytes)
///     }
///     fn max_colour(&self, tiles: &[u8]) -> u8 {
///         bank::PortableScan.max_colour(tiles)
///     }
/// }
/// let scan = Counting(core::cell::Cell::new(0));
/// bank::parse_with(&bytes, &scan).unwrap();
/// assert_eq!(scan.0.get(), bytes.len() - 4); // the header but its CRC field, and the payload
/// ```
pub trait Scan {
    /// CRC-32/ISO-HDLC of `bytes`.
    ///
    /// ```
    /// use bank::Scan;
    /// assert_eq!(bank::PortableScan.crc32(b"123456789"), 0xCBF4_3926);
    /// ```
    fn crc32(&self, bytes: &[u8]) -> u32;
    /// The largest colour index among the texels (every second byte of `tiles`).
    ///
    /// ```
    /// use bank::Scan;
    /// assert_eq!(bank::PortableScan.max_colour(&[200, 3, 9, 5, 255, 1]), 5);
    /// ```
    fn max_colour(&self, tiles: &[u8]) -> u8;
}

/// The portable scans (the `crc` crate, and a plain loop).
///
/// ```
/// # let mut tiles = vec![bank::texel(0, 0); 64];
/// # tiles.extend([bank::texel(40, 1); 64]);
/// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let b = bank::parse(&bytes).unwrap();
/// assert!(bank::parse_with(&bytes, &bank::PortableScan).is_ok()); // what `parse` does
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct PortableScan;

impl Scan for PortableScan {
    fn crc32(&self, bytes: &[u8]) -> u32 {
        CRC.checksum(bytes)
    }

    fn max_colour(&self, tiles: &[u8]) -> u8 {
        tiles.iter().skip(1).step_by(2).fold(0u8, |m, c| m.max(*c))
    }
}

/// Reads and checks a bank: every header field, the length, the CRC, every
/// palette entry, the placement tables and every texel's colour index. Any
/// alignment is accepted here; the renderer reads the texels in place, as
/// u16 ([`Bank::texels`]), which needs the bytes 2-aligned: keep a bank in
/// ROM in a `#[repr(align(4))]` static.
///
/// ```
/// // Two 8 x 8 tiles: flat ground (height 0, colour 0) and a plateau
/// // (height 40, colour 1), one world pixel per height unit.
/// let mut tiles = vec![bank::texel(0, 0); 64];
/// tiles.extend([bank::texel(40, 1); 64]);
/// let bytes = bank::encode(&bank::Contents {
///     tile_size: 8,
///     palette: &[0x03E0, 0x7FFF],
///     tiles: &tiles,
///     placement: bank::Placement::Paper,
///     height_scale: bank::HEIGHT_SCALE_ONE,
/// })
/// .unwrap();
/// let b = bank::parse(&bytes).unwrap();
/// assert_eq!((b.tile_count(), b.tile_size(), b.palette_len()), (2, 8, 2));
/// assert_eq!(b.texel(1, 3, 5), (40, 1)); // (height, colour index)
///
/// // Any change is caught: here one texel's height.
/// let mut bad = bytes.clone();
/// let last = bad.len() - 2;
/// bad[last] ^= 1;
/// assert!(bank::parse(&bad).is_err());
/// ```
pub fn parse(bytes: &[u8]) -> Result<Bank<'_>, BankError> {
    parse_with(bytes, &PortableScan)
}

/// Checks the header fields that do not depend on the payload.
fn check_header(header: &Header) -> Result<(), BankError> {
    if header.magic != MAGIC {
        return Err(BankError::BadMagic);
    }
    if header.version != VERSION {
        return Err(BankError::Version { found: header.version });
    }
    if !TILE_SIZES.contains(&header.tile_size) {
        return Err(BankError::TileSize { found: header.tile_size });
    }
    if header.tile_count == 0 || header.tile_count as usize > MAX_TILES {
        return Err(BankError::TileCount { found: header.tile_count });
    }
    if header.palette_len == 0 || header.palette_len as usize > MAX_COLOURS {
        return Err(BankError::PaletteLen { found: header.palette_len });
    }
    let placement_ok = match header.placement {
        PLACEMENT_PAPER => header.classes == 0,
        PLACEMENT_CORNERS => CLASSES.contains(&header.classes),
        _ => false,
    };
    if !placement_ok {
        return Err(BankError::Placement { placement: header.placement, classes: header.classes });
    }
    if !HEIGHT_SCALES.contains(&header.height_scale) {
        return Err(BankError::HeightScale { found: header.height_scale });
    }
    if header.flags != 0 {
        return Err(BankError::Flags { found: header.flags });
    }
    Ok(())
}

/// Checks corner tables (`CORNER_TABLES_LEN` bytes) against the tile count.
fn check_corners(tables: &[u8], classes: u8, tile_count: u16) -> Result<(), BankError> {
    let used = classes as usize - 1;
    let mut previous = 0u8;
    for (k, &t) in tables[..3].iter().enumerate() {
        let ok = if k < used {
            let rising = t > previous;
            previous = t;
            rising
        } else {
            t == 0
        };
        if !ok {
            return Err(BankError::Thresholds);
        }
    }
    if tables[3] != 0 {
        return Err(BankError::Thresholds);
    }
    for c in 0..CONFIGS {
        let e = ConfigTiles::from_u16(u16_at(tables, 4 + 2 * c));
        if (e.count != 1 && e.count != COMBINATIONS) || e.first as u16 + e.count as u16 > tile_count {
            return Err(BankError::Config { config: c as u8, first: e.first, count: e.count });
        }
    }
    Ok(())
}

/// [`parse`] without the two whole-payload scans (the CRC and every texel's
/// colour index), for a bank whose bytes are known good: one built into the
/// ROM with the code that reads it (checked when it was baked; a corrupt ROM
/// corrupts the code as well). Every field that says where anything is, and
/// the placement tables, are still checked, so reading it stays in bounds;
/// a texel whose colour index is past the palette draws in a wrong colour.
///
/// ```
/// # let mut tiles = vec![bank::texel(0, 0); 64];
/// # tiles.extend([bank::texel(40, 1); 64]);
/// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let b = bank::parse(&bytes).unwrap();
/// let mut flipped = bytes.clone();
/// flipped[40] ^= 1; // a texel's height: the CRC no longer matches
/// assert!(bank::parse(&flipped).is_err());
/// assert!(bank::parse_trusted(&flipped).is_ok()); // not checked: trust only the ROM's own bank
/// ```
pub fn parse_trusted(bytes: &[u8]) -> Result<Bank<'_>, BankError> {
    parse_inner::<PortableScan>(bytes, None)
}

/// [`parse`], with the payload scans done by `scan`.
///
/// ```
/// # let mut tiles = vec![bank::texel(0, 0); 64];
/// # tiles.extend([bank::texel(40, 1); 64]);
/// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let b = bank::parse(&bytes).unwrap();
/// let b = bank::parse_with(&bytes, &bank::PortableScan).unwrap();
/// assert_eq!(b.tile_count(), 2);
/// ```
pub fn parse_with<'a>(bytes: &'a [u8], scan: &impl Scan) -> Result<Bank<'a>, BankError> {
    parse_inner(bytes, Some(scan))
}

/// [`parse`] with the payload scans done by `scan`, or without them (`None`).
fn parse_inner<'a, S: Scan>(bytes: &'a [u8], scan: Option<&S>) -> Result<Bank<'a>, BankError> {
    let Some(head) = bytes.get(..HEADER_LEN) else {
        return Err(BankError::TooShort { len: bytes.len() });
    };
    let header: Header = bytemuck::pod_read_unaligned(head);
    check_header(&header)?;
    let expected = payload_len(
        header.tile_size as usize,
        header.tile_count as usize,
        header.palette_len as usize,
        header.placement,
    ) as u32;
    if header.payload_len != expected {
        return Err(BankError::PayloadLen { expected, found: header.payload_len });
    }
    let total = HEADER_LEN + expected as usize;
    let Some(payload) = bytes.get(HEADER_LEN..total) else {
        return Err(BankError::Truncated { expected: total, found: bytes.len() });
    };
    if bytes.len() > total {
        return Err(BankError::TrailingBytes { expected: total, found: bytes.len() });
    }
    if let Some(scan) = scan {
        let crc = checksum(scan, &bytes[..HEADER_LEN - 4], payload);
        if crc != header.crc32 {
            return Err(BankError::Checksum { expected: header.crc32, found: crc });
        }
    }
    let (palette, rest) = payload.split_at(palette_bytes(header.palette_len as usize));
    let (placement, tiles) = rest.split_at(placement_bytes(header.placement));
    for index in 0..header.palette_len {
        if u16_at(palette, index as usize * 2) & 0x8000 != 0 {
            return Err(BankError::PaletteEntry { index });
        }
    }
    if header.placement == PLACEMENT_CORNERS {
        check_corners(placement, header.classes, header.tile_count)?;
    }
    // Colour indices are every second byte; find the largest in one quick pass
    // and locate the first bad texel only when there is one.
    if let Some(scan) = scan
        && scan.max_colour(tiles) as u16 >= header.palette_len
    {
        let per_tile = tile_bytes(header.tile_size as usize);
        let bad = tiles.iter().skip(1).step_by(2).position(|c| *c as u16 >= header.palette_len).unwrap_or(0);
        return Err(BankError::ColourIndex {
            tile: (bad * 2 / per_tile) as u16,
            texel: ((bad * 2 % per_tile) / 2) as u32,
            index: tiles[bad * 2 + 1],
        });
    }
    Ok(Bank { header, palette: &palette[..header.palette_len as usize * 2], placement, tiles })
}

impl<'a> Bank<'a> {
    /// The header.
    ///
    /// ```
    /// # let mut tiles = vec![bank::texel(0, 0); 64];
    /// # tiles.extend([bank::texel(40, 1); 64]);
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// assert_eq!(b.header().version, bank::VERSION);
    /// ```
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Tile side, in texels.
    ///
    /// ```
    /// # let mut tiles = vec![bank::texel(0, 0); 64];
    /// # tiles.extend([bank::texel(40, 1); 64]);
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// assert_eq!(b.tile_size(), 8);
    /// ```
    pub fn tile_size(&self) -> usize {
        self.header.tile_size as usize
    }

    /// Tiles in the bank.
    ///
    /// ```
    /// # let mut tiles = vec![bank::texel(0, 0); 64];
    /// # tiles.extend([bank::texel(40, 1); 64]);
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// assert_eq!(b.tile_count(), 2);
    /// ```
    pub fn tile_count(&self) -> usize {
        self.header.tile_count as usize
    }

    /// Palette colour `i` (BGR555).
    ///
    /// # Panics
    /// If `i` is not below [`Bank::palette_len`].
    ///
    /// ```
    /// # let mut tiles = vec![bank::texel(0, 0); 64];
    /// # tiles.extend([bank::texel(40, 1); 64]);
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// assert_eq!(b.colour(1), 0x7FFF);
    /// ```
    pub fn colour(&self, i: usize) -> u16 {
        u16_at(self.palette, i * 2)
    }

    /// Palette colours.
    ///
    /// ```
    /// # let mut tiles = vec![bank::texel(0, 0); 64];
    /// # tiles.extend([bank::texel(40, 1); 64]);
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// assert_eq!(b.palette_len(), 2);
    /// ```
    pub fn palette_len(&self) -> usize {
        self.palette.len() / 2
    }

    /// World pixels per height unit, 8.8 fixed point.
    ///
    /// ```
    /// # let mut tiles = vec![bank::texel(0, 0); 64];
    /// # tiles.extend([bank::texel(40, 1); 64]);
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// assert_eq!(b.height_scale(), bank::HEIGHT_SCALE_ONE);
    /// ```
    pub fn height_scale(&self) -> u16 {
        self.header.height_scale
    }

    /// How the world places the tiles.
    ///
    /// ```
    /// # let mut tiles = vec![bank::texel(0, 0); 64];
    /// # tiles.extend([bank::texel(40, 1); 64]);
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// assert!(matches!(b.placement(), bank::Placement::Paper));
    /// ```
    pub fn placement(&self) -> Placement {
        if self.header.placement != PLACEMENT_CORNERS {
            return Placement::Paper;
        }
        let t = self.placement;
        let mut configs = [ConfigTiles::default(); CONFIGS];
        for (c, e) in configs.iter_mut().enumerate() {
            *e = ConfigTiles::from_u16(u16_at(t, 4 + 2 * c));
        }
        Placement::Corners(Corners { classes: self.header.classes, thresholds: [t[0], t[1], t[2]], configs })
    }

    /// Texel (`x`, `y`) of tile `tile`: (height, colour index). Panics if
    /// `tile`, `x` or `y` is out of range.
    ///
    /// ```
    /// # let mut tiles = vec![bank::texel(0, 0); 64];
    /// # tiles.extend([bank::texel(40, 1); 64]);
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// assert_eq!((b.texel(0, 0, 0), b.texel(1, 3, 5)), ((0, 0), (40, 1)));
    /// ```
    pub fn texel(&self, tile: usize, x: usize, y: usize) -> (u8, u8) {
        let n = self.tile_size();
        assert!(tile < self.tile_count() && x < n && y < n, "texel ({x}, {y}) of tile {tile} is outside the bank");
        let i = tile * tile_bytes(n) + (y * n + x) * 2;
        (self.tiles[i], self.tiles[i + 1])
    }

    /// All tiles' texels as bytes (height, colour, height, colour, ...).
    ///
    /// ```
    /// # let mut tiles = vec![bank::texel(0, 0); 64];
    /// # tiles.extend([bank::texel(40, 1); 64]);
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// let bytes_of_tiles = b.tile_bytes();
    /// assert_eq!(&bytes_of_tiles[128..130], &[40, 1]); // tile 1's first texel
    /// ```
    pub fn tile_bytes(&self) -> &'a [u8] {
        self.tiles
    }

    /// The tiles as u16 texels, if the bytes are 2-aligned (`None` at an odd
    /// address: an `include_bytes!` static has no alignment of its own, so
    /// wrap it in a `#[repr(align(4))]` struct).
    ///
    /// ```
    /// # let mut tiles = vec![bank::texel(0, 0); 64];
    /// # tiles.extend([bank::texel(40, 1); 64]);
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x03E0, 0x7FFF], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let b = bank::parse(&bytes).unwrap();
    /// if let Some(texels) = b.texels() {
    ///     assert_eq!(texels[64], bank::texel(40, 1));
    /// }
    /// ```
    pub fn texels(&self) -> Option<&'a [u16]> {
        bytemuck::try_cast_slice(self.tiles).ok()
    }
}

/// Texel value: `height | colour << 8`.
///
/// ```
/// assert_eq!(bank::texel(40, 1), 0x0128);
/// ```
pub const fn texel(height: u8, colour: u8) -> u16 {
    height as u16 | (colour as u16) << 8
}

/// What a bank holds, for `encode` (feature `alloc`).
///
/// ```
/// let contents = bank::Contents {
///     tile_size: 8,
///     palette: &[0x7FFF],
///     tiles: &[bank::texel(0, 0); 64],
///     placement: bank::Placement::Paper,
///     height_scale: bank::HEIGHT_SCALE_ONE,
/// };
/// assert_eq!(bank::parse(&bank::encode(&contents).unwrap()).unwrap().tile_count(), 1);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Contents<'a> {
    /// Tile side, in texels.
    pub tile_size: u16,
    /// BGR555 colours.
    pub palette: &'a [u16],
    /// The texels of each tile in turn ([`texel`]).
    pub tiles: &'a [u16],
    /// How worlds place the tiles.
    pub placement: Placement,
    /// World pixels per height unit, 8.8 fixed point.
    pub height_scale: u16,
}

/// Builds a bank's bytes. Checks what `parse` checks.
///
/// ```
/// let err = bank::encode(&bank::Contents {
///     tile_size: 8,
///     palette: &[0x7FFF],
///     tiles: &[bank::texel(0, 3); 64], // colour 3 of a one-colour palette
///     placement: bank::Placement::Paper,
///     height_scale: bank::HEIGHT_SCALE_ONE,
/// });
/// assert!(err.is_err());
/// ```
#[cfg(feature = "alloc")]
pub fn encode(contents: &Contents<'_>) -> Result<alloc::vec::Vec<u8>, BankError> {
    let Contents { tile_size, palette, tiles, placement, height_scale } = *contents;
    let per_tile = tile_size as usize * tile_size as usize;
    let tile_count = tiles.len().checked_div(per_tile).unwrap_or(0);
    let (code, classes) = match placement {
        Placement::Paper => (PLACEMENT_PAPER, 0),
        Placement::Corners(c) => (PLACEMENT_CORNERS, c.classes),
    };
    let mut payload = alloc::vec::Vec::with_capacity(payload_len(tile_size as usize, tile_count, palette.len(), code));
    for c in palette {
        payload.extend_from_slice(&c.to_le_bytes());
    }
    payload.resize(palette_bytes(palette.len()), 0);
    if let Placement::Corners(c) = placement {
        payload.extend_from_slice(&c.thresholds);
        payload.push(0);
        for e in c.configs {
            payload.extend_from_slice(&e.to_u16().to_le_bytes());
        }
    }
    for t in tiles {
        payload.extend_from_slice(&t.to_le_bytes());
    }
    let mut header = Header {
        magic: MAGIC,
        version: VERSION,
        tile_size,
        tile_count: u16::try_from(tile_count).unwrap_or(u16::MAX),
        palette_len: u16::try_from(palette.len()).unwrap_or(u16::MAX),
        placement: code,
        classes,
        height_scale,
        flags: 0,
        payload_len: payload.len() as u32,
        crc32: 0,
    };
    header.crc32 = checksum(&PortableScan, &bytemuck::bytes_of(&header)[..HEADER_LEN - 4], &payload);
    let mut out = alloc::vec::Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(bytemuck::bytes_of(&header));
    out.extend_from_slice(&payload);
    // Texels that do not make whole tiles make a payload longer than the
    // header's tile count says: parse refuses it (PayloadLen).
    parse(&out)?;
    Ok(out)
}

/// The CRC-32 this format uses, for tools.
///
/// ```
/// assert_eq!(bank::crc32(b"123456789"), 0xCBF4_3926); // CRC-32/ISO-HDLC's check value
/// ```
pub fn crc32(bytes: &[u8]) -> u32 {
    CRC.checksum(bytes)
}

const _: () = assert!(HEADER_LEN == 28 && HEADER_LEN.is_multiple_of(4), "the header keeps the payload 4-aligned");

#[cfg(test)]
mod tests {
    use super::*;

    /// The CRC is the standard one (zlib's), not merely self-consistent.
    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn config_index_round_trips() {
        assert_eq!(config(1, 2, 3, 0), 0b00_11_10_01);
        for c in 0..=255u8 {
            let [a, b, d, e] = corners(c);
            assert_eq!(config(a, b, d, e), c);
        }
    }

    #[test]
    fn edge_variants_are_the_xor_of_their_corners() {
        for bits in 0..16u8 {
            let [tl, tr, bl, br] = [bits & 1, (bits >> 1) & 1, (bits >> 2) & 1, bits >> 3];
            assert_eq!(edge_variants(combination(tl, tr, bl, br)), [tl ^ tr, bl ^ br, tl ^ bl, tr ^ br]);
        }
    }

    /// Sizes pinned: the palette is padded to words, the corner tables are
    /// 4 threshold bytes and 256 entries.
    #[test]
    fn layout_sizes() {
        assert_eq!([palette_bytes(1), palette_bytes(2), palette_bytes(3), palette_bytes(52)], [4, 4, 8, 104]);
        assert_eq!([tile_bytes(8), tile_bytes(128)], [128, 32768]);
        assert_eq!([placement_bytes(PLACEMENT_PAPER), placement_bytes(PLACEMENT_CORNERS)], [0, 516]);
        assert_eq!(payload_len(8, 3, 5, PLACEMENT_CORNERS), 12 + 516 + 3 * 128);
    }

    fn bank_bytes(tile_count: usize, palette_len: usize, placement: Placement) -> alloc::vec::Vec<u8> {
        let palette: alloc::vec::Vec<u16> = (0..palette_len as u16).collect();
        let tiles = alloc::vec![texel(7, (palette_len - 1) as u8); tile_count * 64];
        encode(&Contents { tile_size: 8, palette: &palette, tiles: &tiles, placement, height_scale: HEIGHT_SCALE_ONE })
            .unwrap()
    }

    /// The limits themselves are accepted: 256 tiles, 52 colours.
    #[test]
    fn the_largest_bank_parses() {
        let bytes = bank_bytes(MAX_TILES, MAX_COLOURS, Placement::Paper);
        let b = parse(&bytes).unwrap();
        assert_eq!((b.tile_count(), b.palette_len()), (MAX_TILES, MAX_COLOURS));
        assert_eq!(parse_trusted(&bytes).unwrap().tile_count(), MAX_TILES);
    }

    /// A configuration may name the last tile, not one past it.
    #[test]
    fn configurations_stay_inside_the_bank() {
        let corners = |first: u8| {
            let mut configs = [ConfigTiles { first: 0, count: 1 }; CONFIGS];
            configs[9] = ConfigTiles { first, count: 1 };
            Placement::Corners(Corners { classes: 2, thresholds: [128, 0, 0], configs })
        };
        let mut ok = bank_bytes(4, 2, corners(3));
        assert!(parse(&ok).is_ok());
        // Name tile 4 of 4: rewrite the entry and the CRC by hand (encode refuses it).
        let at = HEADER_LEN + palette_bytes(2) + 4 + 2 * 9;
        ok[at] = 4;
        let crc = checksum(&PortableScan, &ok[..HEADER_LEN - 4], &ok[HEADER_LEN..]);
        ok[HEADER_LEN - 4..HEADER_LEN].copy_from_slice(&crc.to_le_bytes());
        assert_eq!(parse(&ok).err(), Some(BankError::Config { config: 9, first: 4, count: 1 }));
        assert_eq!(parse_trusted(&ok).err(), Some(BankError::Config { config: 9, first: 4, count: 1 }));
    }

    /// The trusted parse skips the scans only: a bad CRC or colour passes it,
    /// not the full parse.
    #[test]
    fn the_trusted_parse_skips_only_the_scans() {
        let mut bytes = bank_bytes(2, 3, Placement::Paper);
        let last = bytes.len() - 1;
        bytes[last] = 9; // colour index 9 of 3, and the CRC no longer matches
        assert!(parse_trusted(&bytes).is_ok());
        assert!(matches!(parse(&bytes), Err(BankError::Checksum { .. })));
    }

    /// A bad colour index is reported where it is: tile, texel, value.
    #[test]
    fn a_bad_colour_is_located() {
        let mut bytes = bank_bytes(3, 4, Placement::Paper);
        let at = HEADER_LEN + palette_bytes(4) + tile_bytes(8) + 2 * 13 + 1; // tile 1, texel 13
        bytes[at] = 9;
        let crc = checksum(&PortableScan, &bytes[..HEADER_LEN - 4], &bytes[HEADER_LEN..]);
        bytes[HEADER_LEN - 4..HEADER_LEN].copy_from_slice(&crc.to_le_bytes());
        assert_eq!(parse(&bytes).err(), Some(BankError::ColourIndex { tile: 1, texel: 13, index: 9 }));
    }

    /// Texels are read as they were written, as halfwords.
    #[test]
    fn texels_read_back() {
        let bytes = bank_bytes(2, 3, Placement::Paper);
        let b = parse(&bytes).unwrap();
        let t = b.texels().expect("the texels are aligned");
        assert_eq!((t.len(), t[0], t[127]), (128, texel(7, 2), texel(7, 2)));
    }

    /// Texels that do not make whole tiles are refused.
    #[test]
    fn partial_tiles_are_refused() {
        let tiles = alloc::vec![texel(1, 0); 64 + 3];
        let c = Contents {
            tile_size: 8,
            palette: &[0],
            tiles: &tiles,
            placement: Placement::Paper,
            height_scale: HEIGHT_SCALE_ONE,
        };
        assert_eq!(encode(&c).err(), Some(BankError::PayloadLen { expected: 4 + 128, found: 4 + 134 }));
    }

    #[test]
    fn class_of_counts_thresholds_reached() {
        let c = Corners { classes: 3, thresholds: [96, 160, 0], configs: [ConfigTiles::default(); CONFIGS] };
        assert_eq!([c.class_of(0), c.class_of(95), c.class_of(96), c.class_of(159), c.class_of(160)], [0, 0, 1, 1, 2]);
        assert_eq!(c.class_of(255), 2);
    }
}
