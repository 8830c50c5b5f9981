//! GBA ROM images: `.gba` files as they are, ELF files converted with
//! `agb-gbafix` into a `.gba` with a valid cartridge header.

use std::path::Path;

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
        Header { title: title.to_string(), game_code: *b"ZTRE", maker_code: *b"ZZ", version: 0 }
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
    // The logo's CRC rather than 156 bytes of it: the BIOS checks it byte for byte.
    let logo_sum: u32 = rom[0x04..0xA0].iter().map(|b| *b as u32).sum();
    if logo_sum != 0x4B1B {
        return Err(format!("boot logo is wrong (byte sum {logo_sum:#x})"));
    }
    let title = &rom[0xA0..0xAC];
    if title.iter().any(|b| b.is_ascii_lowercase()) {
        return Err("title has lower-case letters".into());
    }
    Ok(())
}
