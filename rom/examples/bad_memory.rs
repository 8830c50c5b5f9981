//! Harness self-test: reads unmapped memory. The emulator harness must fail on
//! the "Bad memory" warning mGBA raises.
#![no_std]
#![no_main]

use terrain_rom::log;

#[unsafe(no_mangle)]
extern "C" fn main() -> ! {
    terrain_rom::init();
    log!("bad_memory: reading 0x10000000");
    // SAFETY: not safe on purpose; the address is unmapped on the GBA (open bus).
    let value = unsafe { (0x1000_0000 as *const u32).read_volatile() };
    log!("bad_memory: read {:#x}", value);
    loop {
        terrain_rom::wait_vblank();
    }
}
