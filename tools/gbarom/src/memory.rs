//! What a ROM's ELF takes of the GBA's work RAM: IWRAM (code and data copied
//! there at boot, below the stacks) and EWRAM (initialised data and `.bss`),
//! and the largest items in each, by their Rust names. Read from the linker's
//! symbols (`rom/gba.ld`: `__iwram_end`, `__bss_end`), so the figures are the
//! build's own.

use elf::ElfBytes;
use elf::endian::LittleEndian;
use std::ops::Range;
use std::path::Path;

const IWRAM: Range<u64> = 0x0300_0000..0x0300_8000;
const EWRAM: Range<u64> = 0x0200_0000..0x0204_0000;
/// IWRAM a ROM may fill: `rom/gba.ld` keeps 4 KB below 0x0300_7F00 for the
/// stacks (bytes).
pub const IWRAM_LIMIT: u64 = 0x6F00;
/// EWRAM, bytes.
pub const EWRAM_LIMIT: u64 = EWRAM.end - EWRAM.start;

/// Where an item lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Region {
    Iwram,
    Ewram,
}

/// A ROM's work RAM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Memory {
    /// IWRAM used, bytes (of [`IWRAM_LIMIT`]).
    pub iwram_used: u64,
    /// EWRAM used, bytes (of [`EWRAM_LIMIT`]).
    pub ewram_used: u64,
    /// Items of at least the size asked for: (region, demangled name without
    /// its hash, bytes), largest first.
    pub items: Vec<(Region, String, u64)>,
}

/// Why the ELF could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {message}")]
pub struct MemoryError {
    path: String,
    message: String,
}

/// Reads `elf_path`'s work RAM; lists the items of `min_item` bytes or more.
pub fn read(elf_path: &Path, min_item: u64) -> Result<Memory, MemoryError> {
    let fail = |message: String| MemoryError { path: elf_path.display().to_string(), message };
    let bytes = std::fs::read(elf_path).map_err(|e| fail(e.to_string()))?;
    let file = ElfBytes::<LittleEndian>::minimal_parse(&bytes).map_err(|e| fail(format!("not an ELF file: {e}")))?;
    let (symtab, strtab) = file
        .symbol_table()
        .map_err(|e| fail(e.to_string()))?
        .ok_or_else(|| fail("the ELF has no symbol table".into()))?;
    let (mut iwram_end, mut bss_end) = (None, None);
    let mut items = Vec::new();
    for sym in symtab.iter() {
        let name = strtab.get(sym.st_name as usize).unwrap_or("?");
        match name {
            "__iwram_end" => iwram_end = Some(sym.st_value),
            "__bss_end" => bss_end = Some(sym.st_value),
            _ => {}
        }
        let addr = sym.st_value & !1;
        let region = if IWRAM.contains(&addr) {
            Region::Iwram
        } else if EWRAM.contains(&addr) {
            Region::Ewram
        } else {
            continue;
        };
        if sym.st_size >= min_item {
            items.push((region, format!("{:#}", rustc_demangle::demangle(name)), sym.st_size));
        }
    }
    let iwram_end = iwram_end.ok_or_else(|| fail("no __iwram_end symbol (not linked with rom/gba.ld?)".into()))?;
    let bss_end = bss_end.ok_or_else(|| fail("no __bss_end symbol (not linked with rom/gba.ld?)".into()))?;
    items.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.1.cmp(&b.1)));
    items.dedup();
    Ok(Memory { iwram_used: iwram_end - IWRAM.start, ewram_used: bss_end - EWRAM.start, items })
}
