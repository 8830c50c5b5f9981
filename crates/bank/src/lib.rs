//! The tile-bank format, one definition for the writer (`tilebake`) and the
//! reader (the ROM). `no_std`, no allocation to parse.
//!
//! ```text
//! offset  size              field
//! 0       24                Header (little-endian, see [`Header`])
//! 24      2 * palette_len   palette: BGR555 colours (bit 15 clear)
//! ..      0 or 2            padding to a multiple of 4
//! ..      2 * texels        tiles, one after the other, rows top to bottom;
//!                           each texel a u16: height (low byte, 0..=255)
//!                           | colour index (high byte, < palette_len)
//! ```
//!
//! Height and colour share one halfword so the renderer's inner loop fetches
//! both with one 16-bit load. `payload_len` counts everything after the header
//! and `crc32` holds CRC-32/ISO-HDLC (as zlib) of the header's first 20 bytes
//! XOR that of the payload, so any change is caught. [`parse`] checks
//! every field and every texel and never panics, whatever the input.
#![no_std]

#[cfg(feature = "alloc")]
extern crate alloc;

use bytemuck::{Pod, Zeroable};

/// First bytes of every bank.
pub const MAGIC: [u8; 4] = *b"TBNK";
/// The format version this crate reads and writes.
pub const VERSION: u16 = 1;
/// Tile sides allowed, in pixels.
pub const TILE_SIZES: [u16; 5] = [8, 16, 32, 64, 128];
/// Most tiles a bank may hold (tile references are 8 bits).
pub const MAX_TILES: usize = 256;
/// Most palette colours a bank may hold: the ROM keeps 4 fog shades of each in
/// the 208 palette entries 48..=255 (see the README's palette plan).
pub const MAX_COLOURS: usize = 52;
/// Size of [`Header`], in bytes.
pub const HEADER_LEN: usize = core::mem::size_of::<Header>();

const CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

/// The bank header (24 bytes, little-endian on every platform we build for).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub struct Header {
    /// [`MAGIC`].
    pub magic: [u8; 4],
    /// [`VERSION`].
    pub version: u16,
    /// Tile side, in pixels: one of [`TILE_SIZES`].
    pub tile_size: u16,
    /// Tiles in the bank: 1..=[`MAX_TILES`].
    pub tile_count: u16,
    /// Palette colours: 1..=[`MAX_COLOURS`].
    pub palette_len: u16,
    /// Reserved, 0.
    pub flags: u32,
    /// Bytes after the header.
    pub payload_len: u32,
    /// CRC-32 of the header's first 20 bytes XOR CRC-32 of the payload.
    pub crc32: u32,
}

/// Why a byte string is not a valid bank.
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
    /// Reserved flags set.
    Flags { found: u32 },
    /// `payload_len` disagrees with the tile and palette counts.
    PayloadLen { expected: u32, found: u32 },
    /// The data ends before the payload does.
    Truncated { expected: usize, found: usize },
    /// The payload's CRC-32 is wrong.
    Checksum { expected: u32, found: u32 },
    /// A palette colour has bit 15 set.
    PaletteEntry { index: u16 },
    /// A texel's colour index is outside the palette.
    ColourIndex { tile: u16, texel: u32, index: u8 },
}

impl core::fmt::Display for BankError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            BankError::TooShort { len } => write!(f, "{len} bytes is too short for a tile bank header ({HEADER_LEN})"),
            BankError::BadMagic => write!(f, "not a tile bank (no TBNK magic)"),
            BankError::Version { found } => write!(f, "bank format version {found}; this build reads {VERSION}"),
            BankError::TileSize { found } => write!(f, "tile size {found} is not 8, 16, 32, 64 or 128"),
            BankError::TileCount { found } => write!(f, "{found} tiles; a bank holds 1 to {MAX_TILES}"),
            BankError::PaletteLen { found } => write!(f, "{found} colours; a bank holds 1 to {MAX_COLOURS}"),
            BankError::Flags { found } => write!(f, "reserved flags {found:#x} are set"),
            BankError::PayloadLen { expected, found } => {
                write!(f, "payload length {found} should be {expected} for these tile and palette counts")
            }
            BankError::Truncated { expected, found } => write!(f, "truncated: {found} of {expected} bytes"),
            BankError::Checksum { expected, found } => {
                write!(f, "checksum mismatch: CRC-32 {found:#010x}, header says {expected:#010x}")
            }
            BankError::PaletteEntry { index } => write!(f, "palette colour {index} has bit 15 set"),
            BankError::ColourIndex { tile, texel, index } => {
                write!(f, "tile {tile}, texel {texel}: colour index {index} is outside the palette")
            }
        }
    }
}

impl core::error::Error for BankError {}

/// The header's `crc32` field: CRC-32 of the header's first 20 bytes (all
/// but the field itself) XOR CRC-32 of the payload, so a change anywhere, in
/// the header or the payload, is caught.
fn checksum(scan: &impl Scan, head: &[u8], payload: &[u8]) -> u32 {
    scan.crc32(head) ^ scan.crc32(payload)
}

/// Bytes of palette plus padding to a multiple of 4, for `palette_len` colours.
pub const fn palette_bytes(palette_len: usize) -> usize {
    (palette_len * 2 + 3) & !3
}

/// Bytes of one tile of side `tile_size`.
pub const fn tile_bytes(tile_size: usize) -> usize {
    tile_size * tile_size * 2
}

/// Payload bytes for a bank of these dimensions.
pub const fn payload_len(tile_size: usize, tile_count: usize, palette_len: usize) -> usize {
    palette_bytes(palette_len) + tile_bytes(tile_size) * tile_count
}

/// A validated bank, borrowing its bytes.
#[derive(Debug, Clone, Copy)]
pub struct Bank<'a> {
    header: Header,
    palette: &'a [u8],
    tiles: &'a [u8],
}

fn u16_at(bytes: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([bytes[i], bytes[i + 1]])
}

/// The two whole-payload scans of [`parse_with`], which a platform may do
/// faster than the portable code (the ROM does them in ARM code from IWRAM).
pub trait Scan {
    /// CRC-32/ISO-HDLC of `bytes`.
    fn crc32(&self, bytes: &[u8]) -> u32;
    /// The largest colour index among the texels (every second byte of `tiles`).
    fn max_colour(&self, tiles: &[u8]) -> u8;
}

/// The portable scans (the `crc` crate, and a plain loop).
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
/// palette entry and every texel's colour index. Any alignment is accepted.
pub fn parse(bytes: &[u8]) -> Result<Bank<'_>, BankError> {
    parse_with(bytes, &PortableScan)
}

/// [`parse`], with the payload scans done by `scan`.
pub fn parse_with<'a>(bytes: &'a [u8], scan: &impl Scan) -> Result<Bank<'a>, BankError> {
    let Some(head) = bytes.get(..HEADER_LEN) else {
        return Err(BankError::TooShort { len: bytes.len() });
    };
    let header: Header = bytemuck::pod_read_unaligned(head);
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
    if header.flags != 0 {
        return Err(BankError::Flags { found: header.flags });
    }
    let expected =
        payload_len(header.tile_size as usize, header.tile_count as usize, header.palette_len as usize) as u32;
    if header.payload_len != expected {
        return Err(BankError::PayloadLen { expected, found: header.payload_len });
    }
    let total = HEADER_LEN + expected as usize;
    let Some(payload) = bytes.get(HEADER_LEN..total) else {
        return Err(BankError::Truncated { expected: total, found: bytes.len() });
    };
    let crc = checksum(scan, &bytes[..HEADER_LEN - 4], payload);
    if crc != header.crc32 {
        return Err(BankError::Checksum { expected: header.crc32, found: crc });
    }
    let (palette, tiles) = payload.split_at(palette_bytes(header.palette_len as usize));
    for index in 0..header.palette_len {
        if u16_at(palette, index as usize * 2) & 0x8000 != 0 {
            return Err(BankError::PaletteEntry { index });
        }
    }
    // Colour indices are every second byte; find the largest in one quick pass
    // and locate the first bad texel only when there is one.
    let max = scan.max_colour(tiles);
    if max as u16 >= header.palette_len {
        let per_tile = tile_bytes(header.tile_size as usize);
        let bad = tiles.iter().skip(1).step_by(2).position(|c| *c as u16 >= header.palette_len).unwrap_or(0);
        return Err(BankError::ColourIndex {
            tile: (bad * 2 / per_tile) as u16,
            texel: ((bad * 2 % per_tile) / 2) as u32,
            index: tiles[bad * 2 + 1],
        });
    }
    Ok(Bank { header, palette: &palette[..header.palette_len as usize * 2], tiles })
}

impl<'a> Bank<'a> {
    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Tile side, in pixels.
    pub fn tile_size(&self) -> usize {
        self.header.tile_size as usize
    }

    /// Tiles in the bank.
    pub fn tile_count(&self) -> usize {
        self.header.tile_count as usize
    }

    /// Palette colour `i` (BGR555).
    pub fn colour(&self, i: usize) -> u16 {
        u16_at(self.palette, i * 2)
    }

    /// Palette colours.
    pub fn palette_len(&self) -> usize {
        self.header.palette_len as usize
    }

    /// Texel (`x`, `y`) of tile `tile`: (height, colour index).
    pub fn texel(&self, tile: usize, x: usize, y: usize) -> (u8, u8) {
        let n = self.tile_size();
        let i = tile * tile_bytes(n) + (y * n + x) * 2;
        (self.tiles[i], self.tiles[i + 1])
    }

    /// All tiles' texels as bytes (height, colour, height, colour, ...).
    pub fn tile_bytes(&self) -> &'a [u8] {
        self.tiles
    }

    /// The tiles as u16 texels, if the bytes are 2-aligned (they are in ROM).
    pub fn texels(&self) -> Option<&'a [u16]> {
        bytemuck::try_cast_slice(self.tiles).ok()
    }
}

/// Texel value: `height | colour << 8`.
pub const fn texel(height: u8, colour: u8) -> u16 {
    height as u16 | (colour as u16) << 8
}

/// Builds a bank's bytes. `palette` holds BGR555 colours, `tiles` the texels
/// of each tile in turn ([`texel`]). Checks what `parse` checks.
#[cfg(feature = "alloc")]
pub fn encode(tile_size: u16, palette: &[u16], tiles: &[u16]) -> Result<alloc::vec::Vec<u8>, BankError> {
    let per_tile = tile_size as usize * tile_size as usize;
    let tile_count = tiles.len().checked_div(per_tile).unwrap_or(0);
    let mut payload = alloc::vec::Vec::with_capacity(payload_len(tile_size as usize, tile_count, palette.len()));
    for c in palette {
        payload.extend_from_slice(&c.to_le_bytes());
    }
    payload.resize(palette_bytes(palette.len()), 0);
    for t in tiles {
        payload.extend_from_slice(&t.to_le_bytes());
    }
    let header = Header {
        magic: MAGIC,
        version: VERSION,
        tile_size,
        tile_count: u16::try_from(tile_count).unwrap_or(u16::MAX),
        palette_len: u16::try_from(palette.len()).unwrap_or(u16::MAX),
        flags: 0,
        payload_len: payload.len() as u32,
        crc32: 0,
    };
    let mut header = header;
    header.crc32 = checksum(&PortableScan, &bytemuck::bytes_of(&header)[..HEADER_LEN - 4], &payload);
    let mut out = alloc::vec::Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(bytemuck::bytes_of(&header));
    out.extend_from_slice(&payload);
    parse(&out)?;
    if tiles.len() != tile_count * per_tile {
        return Err(BankError::PayloadLen {
            expected: (tile_count * per_tile * 2) as u32,
            found: (tiles.len() * 2) as u32,
        });
    }
    Ok(out)
}

/// The CRC-32 this format uses, for tools.
pub fn crc32(bytes: &[u8]) -> u32 {
    CRC.checksum(bytes)
}
