//! Harness self-test: panics after a few frames. The harness must fail with the
//! panic message.
#![no_std]
#![no_main]

use terrain_rom::log;

#[unsafe(no_mangle)]
extern "C" fn main() -> ! {
    terrain_rom::init();
    log!("panics: waiting 3 frames");
    let mut frames: u32 = 0;
    loop {
        terrain_rom::wait_vblank();
        frames += 1;
        if frames == 3 {
            panic!("deliberate panic after {} frames", frames);
        }
    }
}
