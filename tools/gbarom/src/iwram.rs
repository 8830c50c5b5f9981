//! Checks a release ELF: the hot code must stay in IWRAM as ARM code and never
//! call back into ROM (a bounds-check panic, `__aeabi_*` division, or any
//! `core` function that did not inline).
//!
//! How: IWRAM is 0x0300_0000..0x0300_8000 and ROM starts at 0x0800_0000, 80 MB
//! away, beyond a `BL`'s ±32 MB. So every IWRAM-to-ROM call goes through a
//! linker veneer (`__ARMv4ABSLongBXThunk_*`) or a literal address. We fail on
//! any veneer in IWRAM, any IWRAM `B`/`BL` whose target is outside IWRAM, any
//! literal word in an IWRAM function equal to a ROM function's address, and on
//! Thumb functions in IWRAM; and we require the named hot functions to be there.

use elf::ElfBytes;
use elf::endian::LittleEndian;
use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

const IWRAM: Range<u64> = 0x0300_0000..0x0300_8000;
const ROM: Range<u64> = 0x0800_0000..0x0A00_0000;
const STT_FUNC: u8 = 2;

/// Fragments of the (mangled) names of the engine's hot functions that a
/// ROM rendering with it must have as ARM code in IWRAM: the `terrain`
/// window and world, the `voxel` march's set-up and its asm column loop. A
/// game's build checks its release ELF with `check(&elf, ENGINE_HOT)`, and
/// with [`FLIGHT_HOT`] too if it flies with `Landscape::fly`, as `cargo
/// xtask example` does for the agb example (the project's own ROMs add
/// their kernels).
pub const ENGINE_HOT: &[&str] =
    &["8recenter", "7move_to", "7rebuild", "10regenerate", "5march7columns", "10group_tops", "voxel_march_frame"];

/// The same for the flight (`voxel::flight`: the floor and the
/// look-ahead, which only `Landscape::fly` calls: a game that moves its
/// own camera links neither).
pub const FLIGHT_HOT: &[&str] = &["6Relief5floor", "6Relief10look_ahead"];

/// What the check found.
#[derive(Debug)]
pub struct IwramReport {
    /// IWRAM functions (name, address, size in bytes).
    pub functions: Vec<(String, u64, u64)>,
    /// Bytes of IWRAM used (code and data).
    pub used: u64,
}

/// Why the check failed.
#[derive(Debug, thiserror::Error)]
pub enum IwramError {
    #[error("{path}: {message}")]
    Read { path: String, message: String },
    #[error("{path}: IWRAM check failed:\n  {}", problems.join("\n  "))]
    Problems { path: String, problems: Vec<String> },
}

/// Checks `elf_path`; `required` are name fragments of functions that must be
/// ARM code in IWRAM.
pub fn check(elf_path: &Path, required: &[&str]) -> Result<IwramReport, IwramError> {
    let path = elf_path.display().to_string();
    let fail = |message: String| IwramError::Read { path: path.clone(), message };
    let bytes = std::fs::read(elf_path).map_err(|e| fail(e.to_string()))?;
    let file = ElfBytes::<LittleEndian>::minimal_parse(&bytes).map_err(|e| fail(format!("not an ELF file: {e}")))?;
    let (symtab, strtab) = file
        .symbol_table()
        .map_err(|e| fail(e.to_string()))?
        .ok_or_else(|| fail("the ELF has no symbol table".into()))?;
    let iwram = file
        .section_header_by_name(".iwram")
        .map_err(|e| fail(e.to_string()))?
        .ok_or_else(|| fail("no .iwram section".into()))?;
    let (data, _) = file.section_data(&iwram).map_err(|e| fail(e.to_string()))?;

    let mut problems = Vec::new();
    let mut functions = Vec::new();
    let mut rom_functions = HashMap::new();
    // ARM mapping symbols: `$a` starts code, `$d` data (literal pools), `$t` Thumb.
    let mut mapping: Vec<(u64, char)> = Vec::new();
    let mut iwram_end = IWRAM.start;
    for sym in symtab.iter() {
        let name = strtab.get(sym.st_name as usize).unwrap_or("?").to_string();
        let addr = sym.st_value & !1;
        if name == "__iwram_end" {
            iwram_end = sym.st_value;
        }
        if let Some(kind) = name.strip_prefix('$').and_then(|k| k.chars().next())
            && IWRAM.contains(&addr)
        {
            mapping.push((addr, kind));
            continue;
        }
        if ROM.contains(&addr) && sym.st_symtype() == STT_FUNC {
            rom_functions.insert(addr, name.clone());
        }
        if !IWRAM.contains(&addr) {
            continue;
        }
        if name.contains("Thunk") {
            problems.push(format!("veneer into ROM in IWRAM: {name}"));
        }
        if sym.st_symtype() == STT_FUNC {
            if sym.st_value & 1 == 1 {
                problems.push(format!("Thumb function in IWRAM (hot code must be ARM): {name}"));
            }
            functions.push((name, addr, sym.st_size));
        }
    }
    mapping.sort();
    let is_code = |at: u64| mapping.iter().take_while(|(a, _)| *a <= at).last().is_some_and(|(_, k)| *k == 'a');
    for (name, addr, size) in &functions {
        let start = (addr - iwram.sh_addr) as usize;
        let end = (start + *size as usize).min(data.len());
        for (k, word) in data[start..end].chunks_exact(4).enumerate() {
            let w = u32::from_le_bytes(word.try_into().expect("4 bytes"));
            let pc = addr + 4 * k as u64;
            // B/BL: cond 101 L imm24 (cond 1111 is not a branch on ARMv4).
            if is_code(pc) && (w >> 25) & 7 == 5 && w >> 28 != 0xF {
                let offset = (((w & 0x00FF_FFFF) << 8) as i32 >> 6) as i64;
                let target = (pc as i64 + 8 + offset) as u64;
                if !IWRAM.contains(&target) {
                    problems.push(format!("{name}: branch at {pc:#x} to {target:#x}, outside IWRAM"));
                }
            }
            if let Some(callee) = rom_functions.get(&((w & !1) as u64)) {
                problems.push(format!("{name}: literal {w:#010x} at {pc:#x} is the address of ROM function {callee}"));
            }
        }
    }
    for fragment in required {
        if !functions.iter().any(|(n, _, _)| n.contains(fragment)) {
            problems.push(format!("hot function `{fragment}` is not in IWRAM"));
        }
    }
    if !problems.is_empty() {
        problems.dedup();
        return Err(IwramError::Problems { path, problems });
    }
    Ok(IwramReport { functions, used: iwram_end - IWRAM.start })
}
