//! The ROM's fast bank scans against the portable reference: CRC-32
//! (slicing-by-4 in ARM code, tables in IWRAM) and the largest colour index
//! of pseudo-random data at every alignment and many lengths, logged for
//! `tests/tests/bank.rs` to compare with `bank::crc32` and a plain loop on
//! the host; and their speed over this ROM's own first 16 KB.
#![no_std]
#![no_main]

use bank::Scan;
use terrain_rom::cycles::Cycles;
use terrain_rom::statics::Static;
use terrain_rom::tiles::{CrcTables, FastScan, ScanCycles, copy_crc_tables};
use terrain_rom::{log, wait_vblank};

#[unsafe(link_section = ".iwram.crc_scratch")]
static SCRATCH: Static<CrcTables> = Static::new([0; 1024]);
/// The pseudo-random data (EWRAM).
static DATA: Static<[u8; DATA_LEN]> = Static::new([0; DATA_LEN]);
const DATA_LEN: usize = 70_000;
/// Seed of the data's xorshift32 (the test makes the same bytes).
const SEED: u32 = 0x1234_5678;
/// Bytes of this ROM scanned for the speed figures.
const ROM_LEN: usize = 16_384;
/// Lengths checked at each alignment.
const LENS: [usize; 22] =
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 18, 31, 32, 33, 63, 64, 1000, 32_768 + 13, 65_536 + 7];

#[unsafe(no_mangle)]
extern "C" fn main() -> ! {
    terrain_rom::init();
    let scan = FastScan::new(copy_crc_tables(SCRATCH.take()), None);
    let data = DATA.take();
    let mut x = SEED;
    for b in data.iter_mut() {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        *b = x as u8;
    }
    for offset in 0..4 {
        for len in LENS {
            let v = scan.crc32(&data[offset..offset + len]);
            log!("crc offset={} len={} value={:#010x}", offset, len, v);
        }
    }
    for offset in [0, 2] {
        for len in LENS {
            let len = len & !1;
            let v = scan.max_colour(&data[offset..offset + len]);
            log!("colours offset={} len={} max={}", offset, len, v);
        }
    }
    // Speed over ROM (as a packed bank is read): this ROM's first 16 KB.
    // SAFETY: the cartridge window is readable, and this ROM is longer.
    let rom = unsafe { core::slice::from_raw_parts(0x0800_0000 as *const u8, ROM_LEN) };
    let t = Cycles::now();
    let v = scan.crc32(rom);
    let crc_cycles = t.elapsed();
    let t = Cycles::now();
    let m = scan.max_colour(rom);
    let colour_cycles = t.elapsed();
    let (c, k) =
        (ScanCycles::per_byte_100(crc_cycles, ROM_LEN as u32), ScanCycles::per_byte_100(colour_cycles, ROM_LEN as u32));
    log!(
        "rom len={} crc={:#010x} max={} crc_cycles={} colour_cycles={} crc_per_byte={}.{:02} colours_per_byte={}.{:02}",
        ROM_LEN,
        v,
        m,
        crc_cycles,
        colour_cycles,
        c / 100,
        c % 100,
        k / 100,
        k % 100
    );
    log!("crc check: done");
    loop {
        wait_vblank();
    }
}
