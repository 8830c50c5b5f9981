//! The tile bank: the one built in (baked from `assets/` by `build.rs`), or one
//! put into the ROM afterwards by `tilebake pack`.
//!
//! `tilebake pack` finds [`BANK_SLOT`] by its `TBNKSLOT` marker, appends the
//! bank to the ROM and writes its offset and length into the slot. Offset 0
//! means the built-in bank. The slot is read with volatile loads, so the
//! compiler cannot assume its built-in zeros.

use bank::{Bank, BankError, Scan};
use gba::Align4;

/// The default bank, baked at build time.
static BUILT_IN: Align4<[u8; include_bytes!(concat!(env!("OUT_DIR"), "/default.bank")).len()]> =
    gba::include_aligned_bytes!(concat!(env!("OUT_DIR"), "/default.bank"));

/// Where `tilebake pack` records a packed bank.
#[repr(C, align(4))]
pub struct BankSlot {
    magic: [u8; 8],
    /// Byte offset of the packed bank in the ROM, 0 for the built-in one.
    offset: u32,
    /// Its length, in bytes.
    len: u32,
}

/// The slot (16 bytes in ROM).
#[used]
#[unsafe(link_section = ".rodata.bank_slot")]
pub static BANK_SLOT: BankSlot = BankSlot { magic: *b"TBNKSLOT", offset: 0, len: 0 };

/// Start of the cartridge ROM in the address space.
const ROM_BASE: usize = 0x0800_0000;
/// Largest cartridge ROM.
const ROM_MAX: u32 = 32 << 20;

/// Which bank the ROM uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    BuiltIn,
    /// Packed at this ROM offset.
    Packed(u32),
}

/// Finds and validates the bank. On failure the error says why; the caller
/// shows it instead of running with a bad bank.
pub fn load() -> (Source, Result<Bank<'static>, BankError>) {
    // SAFETY: reading our own static's fields; volatile so a packed ROM's
    // values are seen.
    let (offset, len) = unsafe {
        (core::ptr::read_volatile(&raw const BANK_SLOT.offset), core::ptr::read_volatile(&raw const BANK_SLOT.len))
    };
    if offset == 0 {
        // Baked and checked at build time, and part of the ROM like the code
        // that reads it: its structure is checked, not its CRC (a 0.5 MB
        // bank would take 0.7 s).
        return (Source::BuiltIn, bank::parse_trusted(&BUILT_IN.0));
    }
    if offset >= ROM_MAX || len > ROM_MAX - offset {
        return (Source::Packed(offset), Err(BankError::Truncated { expected: len as usize, found: 0 }));
    }
    // SAFETY: the range lies inside the 32 MB cartridge window, which is
    // always readable (beyond the chip's end it reads open bus, which the
    // parser rejects).
    let bytes = unsafe { core::slice::from_raw_parts((ROM_BASE + offset as usize) as *const u8, len as usize) };
    (Source::Packed(offset), bank::parse_with(bytes, &ArmScan::new()))
}

/// CRC-32 (reflected, polynomial 0xEDB88320) lookup table, built at boot.
#[unsafe(link_section = ".iwram.crc_table")]
static CRC_TABLE: crate::statics::Static<[u32; 256]> = crate::statics::Static::new([0; 256]);

/// The bank scans in ARM code from IWRAM: a boot check of the default bank in
/// about 1.5 M cycles instead of the portable code's 8.5 M (Thumb from ROM).
struct ArmScan {
    table: &'static [u32; 256],
}

impl ArmScan {
    fn new() -> Self {
        let table = CRC_TABLE.take();
        for (i, e) in table.iter_mut().enumerate() {
            let mut c = i as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
            }
            *e = c;
        }
        ArmScan { table }
    }
}

impl Scan for ArmScan {
    fn crc32(&self, bytes: &[u8]) -> u32 {
        // SAFETY: the pointer and length describe `bytes`.
        unsafe { crc32_arm(self.table, bytes.as_ptr() as usize, bytes.len()) }
    }

    fn max_colour(&self, tiles: &[u8]) -> u8 {
        // SAFETY: the pointer and length describe `tiles`.
        unsafe { max_colour_arm(tiles.as_ptr() as usize, tiles.len()) }
    }
}

/// Byte-wise table CRC-32 of `len` bytes at `at`.
///
/// # Safety
/// `at .. at + len` must be readable.
#[instruction_set(arm::a32)]
#[unsafe(link_section = ".iwram.crc32")]
#[inline(never)]
unsafe fn crc32_arm(table: &[u32; 256], mut at: usize, len: usize) -> u32 {
    let end = at + len;
    let mut crc = !0u32;
    while at < end {
        // SAFETY: inside the caller's range; raw integer addressing because
        // `core`'s pointer methods cannot inline into ARM code.
        let byte = unsafe { *(at as *const u8) } as u32;
        crc = table[((crc ^ byte) & 0xFF) as usize] ^ (crc >> 8);
        at += 1;
    }
    !crc
}

/// The largest odd-offset byte of `len` bytes at `at` (`at` 2-aligned, `len` even).
///
/// # Safety
/// `at .. at + len` must be readable.
#[instruction_set(arm::a32)]
#[unsafe(link_section = ".iwram.max_colour")]
#[inline(never)]
unsafe fn max_colour_arm(mut at: usize, len: usize) -> u8 {
    let end = at + (len & !1);
    let mut max = 0u32;
    while at < end {
        // SAFETY: inside the caller's range (halfword aligned: banks are).
        let c = (unsafe { *(at as *const u16) } >> 8) as u32;
        if c > max {
            max = c;
        }
        at += 2;
    }
    max as u8
}
