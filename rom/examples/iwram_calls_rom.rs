//! Check self-test: an IWRAM ARM function that calls back into ROM (a Thumb
//! function too big to inline, and a bounds-checked index). The IWRAM check
//! (`gbarom::iwram`) must reject this ELF; it is never turned into a `.gba`.
#![no_std]
#![no_main]

use terrain_rom::log;

#[inline(never)]
fn in_rom(x: u32) -> u32 {
    x.rotate_left(5) ^ 0x1234
}

#[instruction_set(arm::a32)]
#[unsafe(link_section = ".iwram.bad")]
#[inline(never)]
fn hot(table: &[u8; 16], i: usize) -> u32 {
    in_rom(table[i] as u32)
}

#[unsafe(no_mangle)]
extern "C" fn main() -> ! {
    terrain_rom::init();
    let table = [3u8; 16];
    let i = core::hint::black_box(20usize);
    log!("{}", hot(&table, i % 17));
    loop {
        terrain_rom::wait_vblank();
    }
}
