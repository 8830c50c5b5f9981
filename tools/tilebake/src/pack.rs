//! `pack`: put a bank into an already built ROM, no Rust toolchain needed.
//!
//! The mechanism: the ROM holds one 16-byte *bank slot* in its read-only data,
//! `TBNKSLOT` followed by two little-endian u32s, the bank's offset in the ROM
//! and its length. Offset 0 means "use the bank built in". `pack` appends the
//! bank at the end of the ROM (4-byte aligned; a bank packed before is
//! replaced), then the bank's relief file ([`relief_after`]), and fills in
//! the slot. The cartridge header (0x00..0xC0) is not
//! touched, so it stays valid; the ROM parses the bank at boot and shows an
//! error screen if it does not validate.
//!
//! The test and benchmark ROMs carry the slot too, so the cartridge header
//! tells the product apart: `xtask` titles it `TERRAIN` (the others `T-...`)
//! with game code `ZTRE`.

use crate::error::{Error, Result};
use crate::io;
use std::path::Path;
use voxel::flight::{FILE_LEN, FILE_MAGIC, Relief};

/// Largest ROM a cartridge maps.
pub const MAX_ROM: usize = 32 << 20;

/// Offsets of every 4-aligned slot marker in `rom` (`bank::slot`) but those
/// inside a bank another one says is packed there: a bank's own bytes (a
/// palette, texels) may spell the marker.
pub fn find_slots(rom: &[u8]) -> Vec<usize> {
    let all = bank::slot::find(rom);
    // The bytes each marker says hold a bank packed after it (the bank's
    // magic there; to the file's end at most, should it be cut short), and
    // its relief file after it.
    let packed: Vec<(usize, usize)> = all
        .iter()
        .filter_map(|&at| Some((at, bank::slot::Slot::read(&rom[at..])?)))
        .filter(|&(at, s)| {
            let from = s.offset as usize;
            from > at && from < rom.len() && rom[from..].starts_with(&bank::MAGIC)
        })
        .map(|(_, s)| {
            let end = match packed_relief(rom, s.offset, s.len) {
                PackedRelief::Whole(at) => at + FILE_LEN,
                // A relief cut short runs to the file's end.
                PackedRelief::Cut(_) => rom.len(),
                PackedRelief::None => (s.offset as usize).saturating_add(s.len as usize).min(rom.len()),
            };
            (s.offset as usize, end)
        })
        .collect();
    all.into_iter().filter(|&at| !packed.iter().any(|&(from, to)| (from..to).contains(&at))).collect()
}

/// What stands where the relief file of a bank packed at `offset` (`len`
/// bytes) would start (`bank::slot::relief_offset`, past the bank's end).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PackedRelief {
    /// No relief file: other bytes, the file's end, or slot numbers that wrap.
    None,
    /// A whole one (its magic and [`FILE_LEN`] bytes) from this offset.
    Whole(usize),
    /// One cut short by the file's end, from this offset: its magic and
    /// fewer bytes, or part of its magic.
    Cut(usize),
}

/// [`PackedRelief`] of the bank `offset` and `len` describe in `rom`.
fn packed_relief(rom: &[u8], offset: u32, len: u32) -> PackedRelief {
    let at = bank::slot::relief_offset(offset, len) as usize;
    let past_bank = (offset as usize).checked_add(len as usize).is_some_and(|end| at >= end);
    match rom.get(at..) {
        Some(r) if past_bank && r.starts_with(&FILE_MAGIC) && r.len() >= FILE_LEN => PackedRelief::Whole(at),
        Some(r) if past_bank && !r.is_empty() && (r.starts_with(&FILE_MAGIC) || FILE_MAGIC.starts_with(r)) => {
            PackedRelief::Cut(at)
        }
        _ => PackedRelief::None,
    }
}

/// The ROM bytes with `bank` packed in.
pub fn pack(rom_path: &Path, rom: &[u8], bank: &[u8]) -> Result<Vec<u8>> {
    gbarom::check_header(rom).map_err(|detail| Error::NotRom { path: rom_path.to_path_buf(), detail })?;
    let title = &rom[0xA0..0xAC];
    let code = &rom[0xAC..0xB0];
    if !gbarom::is_product(rom) {
        let text = |b: &[u8]| {
            String::from_utf8_lossy(b)
                .trim_end_matches('\0')
                .chars()
                .map(|c| if c.is_control() { '?' } else { c })
                .collect()
        };
        return Err(Error::NotTerrainRom { path: rom_path.to_path_buf(), title: text(title), code: text(code) });
    }
    pack_into_slot(rom_path, rom, bank)
}

/// The ROM bytes with `bank` packed into its one bank slot, whatever ROM it
/// is (the product ROM's check is [`pack`]'s: test ROMs of this project
/// read a bank slot too): a bank packed before is replaced, the header checked.
pub fn pack_into_slot(rom_path: &Path, rom: &[u8], bank: &[u8]) -> Result<Vec<u8>> {
    gbarom::check_header(rom).map_err(|detail| Error::NotRom { path: rom_path.to_path_buf(), detail })?;
    let slots = find_slots(rom);
    if slots.len() != 1 {
        return Err(Error::Slot { path: rom_path.to_path_buf(), count: slots.len() });
    }
    let slot = slots[0];
    let (off_at, len_at) = (slot + bank::slot::OFFSET_AT, slot + bank::slot::LEN_AT);
    let old = bank::slot::Slot::read(&rom[slot..]).expect("find_slots found a whole slot here");
    let (old_offset, old_len) = (old.offset as usize, old.len as usize);
    // A bank packed before: after the slot, starting with the bank magic,
    // followed only by padding (none, or a flasher's 0x00 or 0xFF to a size
    // it likes): drop it and the padding. Anything else the slot says (a
    // stray value) drops nothing.
    let relief = packed_relief(rom, old.offset, old.len);
    let packed_before = old_offset > slot
        && old_offset.checked_add(old_len).is_some_and(|end| end <= rom.len())
        && rom[old_offset..].starts_with(&bank::MAGIC)
        && {
            // Its relief file, if it has one (see `relief_after`), then the padding.
            let end = match relief {
                PackedRelief::Whole(at) => at + FILE_LEN,
                _ => old_offset + old_len,
            };
            let pad = &rom[end..];
            pad.iter().all(|&b| b == 0) || pad.iter().all(|&b| b == 0xFF)
        };
    // Not packed yet: the slot's length is the ROM's as built (0: not known,
    // a ROM built before the stamp).
    if old_offset == 0 && rom.len() < old_len {
        return Err(Error::Truncated { path: rom_path.to_path_buf(), built: old_len, len: rom.len() });
    }
    // Packed before, at an offset past the file's end, or a bank that runs
    // past it: the file was cut short (packing after it would keep the stub).
    if old_offset > rom.len() {
        return Err(Error::CutShort {
            path: rom_path.to_path_buf(),
            end: old_offset.saturating_add(old_len),
            len: rom.len(),
        });
    }
    // (A cut inside the bank's magic leaves a bit of it: the same.)
    if old_offset > slot
        && old_offset < rom.len()
        && (rom[old_offset..].starts_with(&bank::MAGIC) || bank::MAGIC.starts_with(&rom[old_offset..]))
        && old_offset.saturating_add(old_len) > rom.len()
    {
        return Err(Error::CutShort {
            path: rom_path.to_path_buf(),
            end: old_offset.saturating_add(old_len),
            len: rom.len(),
        });
    }
    // Its relief file cut short: the same.
    if old_offset > slot
        && rom[old_offset..].starts_with(&bank::MAGIC)
        && let PackedRelief::Cut(at) = relief
    {
        return Err(Error::CutShort { path: rom_path.to_path_buf(), end: at + FILE_LEN, len: rom.len() });
    }
    let keep = if packed_before { old_offset } else { rom.len() };
    let mut out = rom[..keep].to_vec();
    out.resize(out.len().div_ceil(4) * 4, 0);
    let offset = out.len();
    out.extend_from_slice(bank);
    if let Some(relief) = relief_after(bank) {
        out.resize(bank::slot::relief_offset(offset as u32, bank.len() as u32) as usize, 0);
        out.extend_from_slice(&relief);
    }
    if out.len() > MAX_ROM {
        return Err(Error::RomTooBig { path: rom_path.to_path_buf(), size: out.len() });
    }
    out[off_at..off_at + 4].copy_from_slice(&(offset as u32).to_le_bytes());
    out[len_at..len_at + 4].copy_from_slice(&(bank.len() as u32).to_le_bytes());
    gbarom::check_header(&out).map_err(|detail| Error::NotRom { path: rom_path.to_path_buf(), detail })?;
    Ok(out)
}

/// The relief file `pack` puts after `bank` (`bank::slot::relief_offset`):
/// the ROM loads it at boot instead of reading every texel to build it
/// (0.17 s for the default assets, 11.4 cycles a texel). None
/// if the bytes are no whole bank (the library packs bytes as given: the
/// ROM refuses such a bank with its error screen).
pub fn relief_after(bank: &[u8]) -> Option<[u8; FILE_LEN]> {
    Relief::of(&bank::parse(bank).ok()?).file()
}

/// `tilebake pack BASE BANK -o OUT`.
pub fn pack_files(base: &Path, bank_path: &Path, out: &Path) -> Result<usize> {
    io::refuse_overwriting_inputs(out, &[base, bank_path])?;
    // (A missing directory named as such, as the other commands do.)
    io::check_output(out)?;
    let bank = crate::inspect::load(bank_path)?;
    let rom = io::read(base)?;
    let packed = pack(base, &rom, &bank)?;
    io::write_atomic(out, &packed)?;
    Ok(packed.len())
}
