//! In-ROM test of the window fills' ARM kernels in windows of 16 tiles a
//! side (`tests/tests/kernels.rs` runs it): the check the `kernels` ROM runs
//! on 64-tile windows (`../kernels/windows.rs`), apart because each window
//! size brings its own copy of the fills' IWRAM code, and both sizes beside
//! the march left the `kernels` ROM no IWRAM to spare. In a 16-tile window
//! the worlds' cells are often wider than the window, and a line crosses
//! the ring's edge more often.
//!
//! Logs `window_kernels: done, N window moves, checks ok` (or FAILED with
//! the first difference).
#![no_std]
#![no_main]

#[path = "../kernels/windows.rs"]
mod windows;

use terrain::rng::Rng;
use terrain::{Window, World};
use terrain_rom::log;
use terrain_rom::statics::Static;

static WORLD: Static<World> = Static::new(World::empty());
static W16: Static<Window<16>> = Static::new(Window::new());

#[unsafe(no_mangle)]
extern "C" fn main() -> ! {
    terrain_rom::init();
    log!("window_kernels: start");
    // The seed the `kernels` ROM's first check had when it ran both sizes.
    let mut rng = Rng::new(0x5EED);
    match windows::windows(&mut rng, WORLD.take(), W16.take(), 12) {
        Some(moves) => log!("window_kernels: done, {} window moves, checks ok", moves),
        None => log!("window_kernels: done, checks FAILED"),
    }
    loop {
        terrain_rom::wait_vblank();
    }
}
