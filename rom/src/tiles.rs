//! The tile bank: the one built in (baked from `assets/` by `build.rs`), or one
//! put into the ROM afterwards by `tilebake pack`.
//!
//! `tilebake pack` finds [`BANK_SLOT`] by its `TBNKSLOT` marker, appends the
//! bank to the ROM and writes its offset and length into the slot. Offset 0
//! means the built-in bank. The slot is read with volatile loads, so the
//! compiler cannot assume its built-in zeros. After a packed bank, `pack`
//! puts its relief file ([`packed_relief`]).

use crate::cycles::Cycles;
use crate::progress::Progress;
use bank::{Bank, BankError, Scan};
use core::cell::Cell;
use gba::Align4;

/// The default bank, baked at build time.
static BUILT_IN: Align4<[u8; include_bytes!(concat!(env!("OUT_DIR"), "/default.bank")).len()]> =
    gba::include_aligned_bytes!(concat!(env!("OUT_DIR"), "/default.bank"));

/// The default bank's relief file (`voxel::flight::Relief::file`), made at build time.
pub static BUILT_IN_RELIEF: [u8; include_bytes!(concat!(env!("OUT_DIR"), "/default.relief")).len()] =
    *include_bytes!(concat!(env!("OUT_DIR"), "/default.relief"));

/// Where `tilebake pack` records a packed bank (`bank::slot`: 16 bytes in ROM).
#[used]
#[unsafe(link_section = ".rodata.bank_slot")]
pub static BANK_SLOT: bank::slot::Slot = bank::slot::Slot::EMPTY;

/// Start of the cartridge ROM in the address space.
const ROM_BASE: usize = 0x0800_0000;
/// Largest cartridge ROM.
const ROM_MAX: u32 = 32 << 20;

/// The relief file `tilebake pack` put after the packed bank
/// (`bank::slot::relief_offset`), if its bytes start with the file's magic:
/// `Relief::load_file` checks the rest (its length, that it is this bank's);
/// `None` for the built-in bank ([`BUILT_IN_RELIEF`]) or a ROM packed
/// without one.
pub fn packed_relief() -> Option<&'static [u8]> {
    let (offset, len) = slot();
    let at = bank::slot::relief_offset(offset, len);
    if offset == 0 || at < offset || at >= ROM_MAX || ROM_MAX - at < voxel::flight::FILE_LEN as u32 {
        return None;
    }
    // SAFETY: the range lies inside the 32 MB cartridge window, which is
    // always readable (past the chip's end it reads open bus, which the
    // magic and `load_file` refuse).
    let bytes = unsafe { core::slice::from_raw_parts((ROM_BASE + at as usize) as *const u8, voxel::flight::FILE_LEN) };
    bytes.starts_with(&voxel::flight::FILE_MAGIC).then_some(bytes)
}

/// Which bank the ROM uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    BuiltIn,
    /// Packed at this ROM offset.
    Packed(u32),
}

/// Finds and validates the bank, checking a packed one with [`FastScan`]
/// (`tables`: [`bank::crc::TABLES`] where they are read without wait states,
/// from [`with_obj_vram`] or [`copy_crc_tables`]) and showing
/// `progress` (its total: [`check_work`] of the packed bank) as it goes. On
/// failure the error says why; the caller shows it instead of running with a
/// bad bank.
pub fn load(tables: &CrcTables, progress: &Progress) -> (Source, Result<Bank<'static>, BankError>, ScanCycles) {
    let (offset, len) = slot();
    if offset == 0 {
        // Baked and checked at build time, and part of the ROM like the code
        // that reads it: its structure is checked, not its CRC.
        return (Source::BuiltIn, bank::parse_trusted(&BUILT_IN.0), ScanCycles::default());
    }
    if offset >= ROM_MAX || len > ROM_MAX - offset {
        let err = BankError::Truncated { expected: len as usize, found: 0 };
        return (Source::Packed(offset), Err(err), ScanCycles::default());
    }
    // SAFETY: the range lies inside the 32 MB cartridge window, which is
    // always readable (beyond the chip's end it reads open bus, which the
    // parser rejects).
    let bytes = unsafe { core::slice::from_raw_parts((ROM_BASE + offset as usize) as *const u8, len as usize) };
    let scan = FastScan::new(tables, Some(progress));
    let parsed = bank::parse_with(bytes, &scan);
    (Source::Packed(offset), parsed, scan.cycles())
}

/// The packed bank's slot: offset and length (0, 0 for the built-in bank).
pub fn slot() -> (u32, u32) {
    // SAFETY: reading our own static's fields; volatile so a packed ROM's
    // values are seen.
    let (offset, len) = unsafe {
        (core::ptr::read_volatile(&raw const BANK_SLOT.offset), core::ptr::read_volatile(&raw const BANK_SLOT.len))
    };
    // Not packed: the length field holds the ROM's own, as built (`bank::slot`).
    if offset == 0 { (0, 0) } else { (offset, len) }
}

/// The work of checking a packed bank of `len` bytes, in [`Progress`]
/// units: every byte for the CRC and (about) every byte again for the colours.
pub fn check_work(len: u32) -> u32 {
    len.saturating_mul(2)
}

/// Slicing-by-4 CRC tables (4 x 256 words) where the scan reads them.
pub type CrcTables = [u32; 1024];

/// Object VRAM from tile 512 (0x0601_4000): the object tiles of the bitmap
/// modes, 16 KB; the HUD's glyphs start there once the bank is checked.
const OBJ_TILES_BITMAP: usize = 0x0601_4000;

/// Copies [`bank::crc::TABLES`] into the first 4 KB of the bitmap modes'
/// object tiles, lends them to `f` and clears them: VRAM is read without
/// wait states (a word in two halfword accesses), nearly as fast as IWRAM,
/// and the bank is checked before anything draws with those tiles, so the
/// tables need no RAM of their own. Every store is a volatile word store
/// (VRAM drops byte stores to object tiles), and `f` gets a shared borrow,
/// so nothing else stores there while it runs.
///
/// # Safety
/// While this runs nothing else may write object tiles 512 to 639, or count
/// on what they hold (no object may show them: [`crate::video::Mode4::init`]
/// hides every object), and calls must not nest. The tiles are zero on
/// return: call it before loading anything into them (the HUD's glyphs).
pub unsafe fn with_obj_vram<R>(f: impl FnOnce(&CrcTables) -> R) -> R {
    let p = OBJ_TILES_BITMAP as *mut u32;
    for (i, &word) in bank::crc::TABLES.as_flattened().iter().enumerate() {
        // SAFETY: word i < 1024 of the 4 KB of VRAM above (always mapped,
        // 4-aligned), which the caller leaves to this call.
        unsafe { core::ptr::write_volatile(p.add(i), word) };
    }
    // SAFETY: as above; no store reaches those words while the borrow lives.
    let r = f(unsafe { &*(p as *const CrcTables) });
    for i in 0..1024 {
        // SAFETY: as above, after the borrow.
        unsafe { core::ptr::write_volatile(p.add(i), 0) };
    }
    r
}

/// Copies [`bank::crc::TABLES`] into `scratch` (for [`FastScan::new`]: best
/// in IWRAM, read without wait states).
pub fn copy_crc_tables(scratch: &mut CrcTables) -> &CrcTables {
    scratch.copy_from_slice(bank::crc::TABLES.as_flattened());
    scratch
}

/// Cycles the scans took, and the bytes they read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScanCycles {
    pub crc: u32,
    pub crc_bytes: u32,
    pub colours: u32,
    pub colour_bytes: u32,
}

impl ScanCycles {
    /// `cycles / bytes` in hundredths.
    pub fn per_byte_100(cycles: u32, bytes: u32) -> u32 {
        (cycles as u64 * 100 / bytes.max(1) as u64) as u32
    }
}

/// Bytes scanned between progress updates.
const CHUNK: usize = 32 * 1024;

/// The bank scans in ARM code from IWRAM, a word at a time: CRC-32 by
/// slicing-by-4 (`bank::crc::TABLES`, computed at compile time, copied where
/// they are read without wait states: VRAM in the ROM, [`with_obj_vram`]) and the colour indices two texels a word.
pub struct FastScan<'a> {
    tables: &'a CrcTables,
    progress: Option<&'a Progress>,
    cycles: Cell<ScanCycles>,
}

impl<'a> FastScan<'a> {
    /// A scan reading `tables`, which must hold [`bank::crc::TABLES`]
    /// (other tables give other CRCs, and the bank is refused), best where
    /// they are read without wait states ([`with_obj_vram`],
    /// [`copy_crc_tables`]).
    pub fn new(tables: &'a CrcTables, progress: Option<&'a Progress>) -> Self {
        FastScan { tables, progress, cycles: Cell::new(ScanCycles::default()) }
    }

    /// What the scans so far took.
    pub fn cycles(&self) -> ScanCycles {
        self.cycles.get()
    }

    fn advance(&self, n: usize) {
        if let Some(p) = self.progress {
            p.advance(n as u32);
        }
    }
}

impl Scan for FastScan<'_> {
    fn crc32(&self, bytes: &[u8]) -> u32 {
        let t = Cycles::now();
        let mut crc = !0u32;
        for chunk in bytes.chunks(CHUNK) {
            // SAFETY: the tables are 1024 words; the pointer and length describe `chunk`.
            crc = unsafe { crc32_arm(self.tables, crc, chunk.as_ptr() as usize, chunk.len()) };
            self.advance(chunk.len());
        }
        let mut c = self.cycles.get();
        c.crc += t.elapsed();
        c.crc_bytes += bytes.len() as u32;
        self.cycles.set(c);
        !crc
    }

    fn max_colour(&self, tiles: &[u8]) -> u8 {
        let t = Cycles::now();
        let mut max = 0;
        for chunk in tiles.chunks(CHUNK) {
            // SAFETY: the pointer and length describe `chunk` (CHUNK is even,
            // so every chunk starts on a texel).
            max = max.max(unsafe { max_colour_arm(chunk.as_ptr() as usize, chunk.len()) });
            self.advance(chunk.len());
        }
        let mut c = self.cycles.get();
        c.colours += t.elapsed();
        c.colour_bytes += tiles.len() as u32;
        self.cycles.set(c);
        max
    }
}

/// One slicing-by-4 step: the state after the word `c` (state XOR data).
#[instruction_set(arm::a32)]
#[inline(always)]
fn step4(t: usize, c: u32) -> u32 {
    // SAFETY: each offset is masked to 0..=0x3FC inside its 1 KB table of the four.
    unsafe {
        *((t + 3072 + ((c << 2) & 0x3FC) as usize) as *const u32)
            ^ *((t + 2048 + ((c >> 6) & 0x3FC) as usize) as *const u32)
            ^ *((t + 1024 + ((c >> 14) & 0x3FC) as usize) as *const u32)
            ^ *((t + ((c >> 22) & 0x3FC) as usize) as *const u32)
    }
}

/// One byte-wise step.
#[instruction_set(arm::a32)]
#[inline(always)]
fn step1(t: usize, crc: u32, byte: u32) -> u32 {
    // SAFETY: the offset is masked inside the first table.
    unsafe { *((t + (((crc ^ byte) << 2) & 0x3FC) as usize) as *const u32) ^ (crc >> 8) }
}

/// Advances the CRC state `crc` over `len` bytes at `at`: bytes up to a word
/// boundary, then 16 bytes (four words, one burst from ROM) a step, then the
/// rest.
///
/// # Safety
/// `at .. at + len` must be readable.
#[instruction_set(arm::a32)]
#[unsafe(link_section = ".iwram.crc32")]
#[inline(never)]
unsafe fn crc32_arm(tables: &CrcTables, mut crc: u32, mut at: usize, len: usize) -> u32 {
    let t = tables as *const CrcTables as usize;
    let end = at + len;
    // Raw integer addressing: `core`'s pointer methods cannot inline into ARM code.
    while at < end && at & 3 != 0 {
        // SAFETY: inside the caller's range.
        crc = step1(t, crc, unsafe { *(at as *const u8) } as u32);
        at += 1;
    }
    while at + 16 <= end {
        // SAFETY: four aligned words inside the caller's range.
        let (a, b, c, d) = unsafe {
            (*(at as *const u32), *((at + 4) as *const u32), *((at + 8) as *const u32), *((at + 12) as *const u32))
        };
        crc = step4(t, crc ^ a);
        crc = step4(t, crc ^ b);
        crc = step4(t, crc ^ c);
        crc = step4(t, crc ^ d);
        at += 16;
    }
    while at < end {
        // SAFETY: inside the caller's range.
        crc = step1(t, crc, unsafe { *(at as *const u8) } as u32);
        at += 1;
    }
    crc
}

/// Four words at `at` (4-aligned) with one `ldmia`: a burst from ROM
/// (separate loads each pay the first-access wait again).
///
/// # Safety
/// `at .. at + 16` must be readable and `at` 4-aligned.
#[instruction_set(arm::a32)]
#[inline(always)]
unsafe fn load4(at: usize) -> [u32; 4] {
    let (a, b, c, d);
    // SAFETY: the caller's promise.
    unsafe {
        core::arch::asm!(
            "ldmia {at}, {{r0, r1, r2, r3}}",
            at = in(reg) at,
            out("r0") a, out("r1") b, out("r2") c, out("r3") d,
            options(nostack, readonly, preserves_flags),
        );
    }
    [a, b, c, d]
}

/// The largest odd-offset byte of `len` bytes at `at` (`at` 2-aligned, `len`
/// even): halfwords to a word boundary, then 16 bytes (eight texels) a step,
/// where one test finds whether any of the eight exceeds the largest so far:
/// each pair of colour bytes, moved to bits 0..8 and 16..24, plus
/// (255 - largest) in each field, carries into bit 8 or 24 only if larger.
///
/// # Safety
/// `at .. at + len` must be readable.
#[instruction_set(arm::a32)]
#[unsafe(link_section = ".iwram.max_colour")]
#[inline(never)]
unsafe fn max_colour_arm(mut at: usize, len: usize) -> u8 {
    let end = at + (len & !1);
    let mut max = 0u32;
    while at & 3 != 0 && at < end {
        // SAFETY: inside the caller's range (halfword aligned: banks are).
        let c = (unsafe { *(at as *const u16) } as u32) >> 8;
        if c > max {
            max = c;
        }
        at += 2;
    }
    while at + 16 <= end {
        // SAFETY: four aligned words inside the caller's range.
        let w = unsafe { load4(at) };
        let k = (255 - max) * 0x0001_0001;
        let over = (((w[0] >> 8) & 0x00FF_00FF) + k)
            | (((w[1] >> 8) & 0x00FF_00FF) + k)
            | (((w[2] >> 8) & 0x00FF_00FF) + k)
            | (((w[3] >> 8) & 0x00FF_00FF) + k);
        if over & 0x0100_0100 != 0 {
            let mut i = 0;
            while i < 4 {
                let (lo, hi) = ((w[i & 3] >> 8) & 0xFF, w[i & 3] >> 24);
                if lo > max {
                    max = lo;
                }
                if hi > max {
                    max = hi;
                }
                i += 1;
            }
        }
        at += 16;
    }
    while at < end {
        // SAFETY: inside the caller's range.
        let c = (unsafe { *(at as *const u16) } as u32) >> 8;
        if c > max {
            max = c;
        }
        at += 2;
    }
    max as u8
}

/// The block tops of one tile for the flight's relief
/// (`voxel::flight::tile_tops`), in ARM code: `bl` = `blocks_log2(tile_size)`.
pub fn tile_tops(texels: &[u16], tile_size: usize, bl: u32, out: &mut [u8; 16]) {
    if texels.len() < tile_size * tile_size || tile_size < 8 || bl > 2 || texels.as_ptr() as usize & 3 != 0 {
        // Not a tile of a bank as packed (4-aligned): the portable code.
        voxel::flight::tile_tops(texels, tile_size, out);
        return;
    }
    *out = [0; 16];
    // SAFETY: `texels` holds the tile (checked above); `out` 16 bytes, of
    // which the function writes the first (1 << bl)^2.
    unsafe { tile_tops_arm(texels.as_ptr() as usize, tile_size, bl, out as *mut [u8; 16] as usize) }
}

/// # Safety
/// `at` must hold `size`^2 texels (`size` >= 8, even, 4-aligned), `out`
/// (1 << `bl`)^2 bytes.
#[instruction_set(arm::a32)]
#[unsafe(link_section = ".iwram.tile_tops")]
#[inline(never)]
unsafe fn tile_tops_arm(at: usize, size: usize, bl: u32, out: usize) {
    let side = size >> bl;
    let per_row = 1usize << bl;
    let stride = 2 * size;
    let mut by = 0;
    while by < per_row {
        let mut bx = 0;
        while bx < per_row {
            // The block's first row, and its end.
            let mut row = at + by * side * stride + bx * side * 2;
            let rows_end = row + side * stride;
            let mut top = 0u32;
            while row < rows_end {
                let end = row + 2 * side;
                let mut p = row;
                while p < end {
                    // SAFETY: eight texels of this block row (16-byte
                    // multiples, 4-aligned): one burst from ROM.
                    let w = unsafe { load4(p) };
                    // Heights at bits 0..8 and 16..24: plus (255 - top), one
                    // carries into bit 8 or 24 only if it is higher.
                    let k = (255 - top) * 0x0001_0001;
                    let over = ((w[0] & 0x00FF_00FF) + k)
                        | ((w[1] & 0x00FF_00FF) + k)
                        | ((w[2] & 0x00FF_00FF) + k)
                        | ((w[3] & 0x00FF_00FF) + k);
                    if over & 0x0100_0100 != 0 {
                        let mut i = 0;
                        while i < 4 {
                            let (lo, hi) = (w[i & 3] & 0xFF, (w[i & 3] >> 16) & 0xFF);
                            if lo > top {
                                top = lo;
                            }
                            if hi > top {
                                top = hi;
                            }
                            i += 1;
                        }
                    }
                    p += 16;
                }
                row += stride;
            }
            // SAFETY: by, bx < per_row: inside `out`.
            unsafe { *((out + (by << bl) + bx) as *mut u8) = top as u8 };
            bx += 1;
        }
        by += 1;
    }
}
