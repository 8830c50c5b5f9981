//! GBA ROM images: `.gba` files as they are, ELF files converted with
//! `agb-gbafix` into a `.gba` with a valid cartridge header.

use std::path::Path;

pub mod file;
pub mod iwram;
pub mod memory;
pub mod tiny;

pub use file::write_atomic;

/// The boot logo every cartridge header carries at 0x04..0xA0 (the BIOS refuses
/// to boot a cartridge without it).
pub const LOGO: [u8; 156] = [
    0x24, 0xFF, 0xAE, 0x51, 0x69, 0x9A, 0xA2, 0x21, 0x3D, 0x84, 0x82, 0x0A, 0x84, 0xE4, 0x09, 0xAD, 0x11, 0x24, 0x8B,
    0x98, 0xC0, 0x81, 0x7F, 0x21, 0xA3, 0x52, 0xBE, 0x19, 0x93, 0x09, 0xCE, 0x20, 0x10, 0x46, 0x4A, 0x4A, 0xF8, 0x27,
    0x31, 0xEC, 0x58, 0xC7, 0xE8, 0x33, 0x82, 0xE3, 0xCE, 0xBF, 0x85, 0xF4, 0xDF, 0x94, 0xCE, 0x4B, 0x09, 0xC1, 0x94,
    0x56, 0x8A, 0xC0, 0x13, 0x72, 0xA7, 0xFC, 0x9F, 0x84, 0x4D, 0x73, 0xA3, 0xCA, 0x9A, 0x61, 0x58, 0x97, 0xA3, 0x27,
    0xFC, 0x03, 0x98, 0x76, 0x23, 0x1D, 0xC7, 0x61, 0x03, 0x04, 0xAE, 0x56, 0xBF, 0x38, 0x84, 0x00, 0x40, 0xA7, 0x0E,
    0xFD, 0xFF, 0x52, 0xFE, 0x03, 0x6F, 0x95, 0x30, 0xF1, 0x97, 0xFB, 0xC0, 0x85, 0x60, 0xD6, 0x80, 0x25, 0xA9, 0x63,
    0xBE, 0x03, 0x01, 0x4E, 0x38, 0xE2, 0xF9, 0xA2, 0x34, 0xFF, 0xBB, 0x3E, 0x03, 0x44, 0x78, 0x00, 0x90, 0xCB, 0x88,
    0x11, 0x3A, 0x94, 0x65, 0xC0, 0x7C, 0x63, 0x87, 0xF0, 0x3C, 0xAF, 0xD6, 0x25, 0xE4, 0x8B, 0x38, 0x0A, 0xAC, 0x72,
    0x21, 0xD4, 0xF8, 0x07,
];

/// The product ROM's cartridge title (0xA0..0xAC, zero-padded); the other
/// ROMs (tests, benchmarks, the agb example) have their own titles.
pub const PRODUCT_TITLE: &str = "TERRAIN";
/// The game code (0xAC..0xB0) of every ROM this project builds.
pub const GAME_CODE: [u8; 4] = *b"ZTRE";

/// True if `rom`'s header names the product ROM ([`PRODUCT_TITLE`],
/// [`GAME_CODE`]): the terrain ROM, and what `tilebake pack` makes of it.
///
/// ```
/// let mut rom = vec![0u8; 0xC0];
/// rom[0xA0..0xA7].copy_from_slice(b"TERRAIN");
/// rom[0xAC..0xB0].copy_from_slice(b"ZTRE");
/// assert!(gbarom::is_product(&rom));
/// rom[0xA0..0xAB].copy_from_slice(b"AGB-FLYOVER");
/// assert!(!gbarom::is_product(&rom));
/// assert!(!gbarom::is_product(&rom[..0x10]));
/// ```
pub fn is_product(rom: &[u8]) -> bool {
    let (Some(title), Some(code)) = (rom.get(0xA0..0xAC), rom.get(0xAC..0xB0)) else {
        return false;
    };
    let name = PRODUCT_TITLE.as_bytes();
    title.starts_with(name) && title[name.len()..].iter().all(|&b| b == 0) && code == GAME_CODE
}

/// Cartridge header fields of our ROMs.
#[derive(Debug, Clone)]
pub struct Header {
    /// Game title, upper-case ASCII, at most 12 bytes.
    pub title: String,
    /// Game code, 4 upper-case ASCII characters.
    pub game_code: [u8; 4],
    /// Maker code, 2 ASCII characters.
    pub maker_code: [u8; 2],
    /// Software version.
    pub version: u8,
}

impl Header {
    /// The project's header with `title` (upper-cased, cut to 12 bytes).
    pub fn new(title: &str) -> Self {
        Header { title: title.to_string(), game_code: GAME_CODE, maker_code: *b"ZZ", version: 0 }
    }
}

/// Converting or loading a ROM failed.
#[derive(Debug, thiserror::Error)]
pub enum RomError {
    #[error("{path}: {message}")]
    Read { path: String, message: String },
    #[error("ELF to GBA conversion failed: {0}")]
    Convert(String),
}

/// Turns an ELF image into `.gba` bytes with a valid header (Nintendo logo,
/// 0x96 at 0xB2, complement checksum at 0xBD).
pub fn elf_to_gba(elf: &[u8], header: &Header) -> Result<Vec<u8>, RomError> {
    let mut h = agb_gbafix::GbaHeader::default();
    for (i, b) in header.title.to_ascii_uppercase().bytes().take(12).enumerate() {
        h.game_title[i] = b;
    }
    h.game_code = header.game_code;
    h.maker_code = header.maker_code;
    h.software_version = header.version;
    let mut out = Vec::new();
    agb_gbafix::write_gba_file(elf, h, agb_gbafix::PaddingBehaviour::DoNotPad, false, &mut out)
        .map_err(|e| RomError::Convert(e.to_string()))?;
    Ok(out)
}

/// Writes a valid cartridge header into a raw ROM image (as `gbafix` does):
/// the boot logo, `header`'s title and codes, 0x96 at 0xB2 and the checksum.
/// The entry branch at 0x00 and everything from 0xC0 on are kept.
pub fn fix_header(rom: &mut [u8], header: &Header) -> Result<(), RomError> {
    if rom.len() < 0xC0 {
        return Err(RomError::Convert(format!("{} bytes is too short for a header (0xC0 bytes)", rom.len())));
    }
    rom[0x04..0xA0].copy_from_slice(&LOGO);
    rom[0xA0..0xAC].fill(0);
    for (i, b) in header.title.to_ascii_uppercase().bytes().take(12).enumerate() {
        rom[0xA0 + i] = b;
    }
    rom[0xAC..0xB0].copy_from_slice(&header.game_code);
    rom[0xB0..0xB2].copy_from_slice(&header.maker_code);
    rom[0xB2] = 0x96;
    rom[0xB3..0xBC].fill(0);
    rom[0xBC] = header.version;
    rom[0xBD] = rom[0xA0..0xBD].iter().fold(0u8, |c, b| c.wrapping_sub(*b)).wrapping_sub(0x19);
    rom[0xBE..0xC0].fill(0);
    Ok(())
}

/// True if `bytes` is an ELF file.
pub fn is_elf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x7FELF")
}

/// Reads a `.gba` file, or an ELF file converted to `.gba` bytes in memory.
pub fn load(path: &Path) -> Result<Vec<u8>, RomError> {
    let bytes =
        std::fs::read(path).map_err(|e| RomError::Read { path: path.display().to_string(), message: e.to_string() })?;
    if is_elf(&bytes) {
        let title = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        elf_to_gba(&bytes, &Header::new(&title))
    } else {
        Ok(bytes)
    }
}

/// Checks a `.gba` header: logo, fixed byte, checksum. Returns what is wrong.
pub fn check_header(rom: &[u8]) -> Result<(), String> {
    if rom.len() < 0xC0 {
        return Err(format!("{} bytes is too short for a header", rom.len()));
    }
    if rom[0xB2] != 0x96 {
        return Err(format!("byte 0xB2 is {:#04x}, not 0x96", rom[0xB2]));
    }
    let sum = rom[0xA0..0xBD].iter().fold(0u8, |c, b| c.wrapping_sub(*b)).wrapping_sub(0x19);
    if rom[0xBD] != sum {
        return Err(format!("header checksum is {:#04x}, should be {:#04x}", rom[0xBD], sum));
    }
    if rom[0x04..0xA0] != LOGO {
        return Err("boot logo is wrong".into());
    }
    let title = &rom[0xA0..0xAC];
    if title.iter().any(|b| b.is_ascii_lowercase()) {
        return Err("title has lower-case letters".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_checks_catch_corruption() {
        let mut rom = vec![0u8; 0x200];
        rom[0x04..0xA0].copy_from_slice(&LOGO);
        rom[0xA0..0xA4].copy_from_slice(b"TEST");
        rom[0xB2] = 0x96;
        rom[0xBD] = rom[0xA0..0xBD].iter().fold(0u8, |c, b| c.wrapping_sub(*b)).wrapping_sub(0x19);
        assert_eq!(check_header(&rom), Ok(()));
        let mut bad = rom.clone();
        bad[0xBD] ^= 1;
        assert!(check_header(&bad).unwrap_err().contains("checksum"));
        let mut bad = rom.clone();
        bad[0xB2] = 0;
        assert!(check_header(&bad).unwrap_err().contains("0xB2"));
        let mut bad = rom.clone();
        bad[0x10] ^= 0x40;
        assert!(check_header(&bad).unwrap_err().contains("logo"));
        assert!(check_header(&rom[..0x80]).is_err());
    }

    #[test]
    fn fix_header_makes_a_valid_header_and_keeps_the_code() {
        let mut rom: Vec<u8> = (0..0x100u32).map(|i| (i * 7) as u8).collect();
        let before = rom.clone();
        let header = Header { title: "tiny".into(), game_code: *b"ZTNY", maker_code: *b"ZZ", version: 3 };
        fix_header(&mut rom, &header).unwrap();
        assert_eq!(check_header(&rom), Ok(()));
        assert_eq!(&rom[0xA0..0xAC], b"TINY\0\0\0\0\0\0\0\0");
        assert_eq!(&rom[0xAC..0xB2], b"ZTNYZZ");
        assert_eq!(rom[0xBC], 3);
        assert_eq!(rom[..4], before[..4], "entry branch");
        assert_eq!(rom[0xC0..], before[0xC0..], "code");
        assert!(fix_header(&mut [0u8; 0xBF], &header).is_err());
    }
}
