//! Hardware layer of the terrain ROM: everything that touches GBA registers.
//!
//! The product binary (`src/main.rs`) and the harness test ROMs (`examples/`)
//! share it: mGBA debug logging ([`log!`], and [`log::Line`] for the line of
//! every frame), numbers as text without division ([`digits`]), the cycle counter ([`cycles`]),
//! mode 4 double buffering ([`video`]), an 8x8 text writer ([`text`]), keypad
//! reading ([`input`]), the panic screen ([`panic`](mod@panic)), the top-down map
//! ([`map`]), the boot progress screen ([`progress`]), the tile bank and its
//! fast check ([`tiles`]) and once-borrowed statics ([`statics`]).
#![no_std]

pub mod bookmark;
pub mod cycles;
pub mod digits;
pub mod hud;
pub mod input;
pub mod log;
pub mod map;
pub mod panic;
pub mod progress;
pub mod refresh;
pub mod statics;
pub mod text;
pub mod tiles;
pub mod video;
pub mod vram;

use gba::prelude::*;

/// Common start-up for every ROM of this crate: enables the VBlank interrupt
/// (for `VBlankIntrWait`) and starts the cycle counter.
pub fn init() {
    DISPSTAT.write(DisplayStatus::new().with_irq_vblank(true));
    IE.write(IrqBits::VBLANK);
    IME.write(true);
    cycles::start();
}

/// Waits for the start of the next vertical blank (BIOS `VBlankIntrWait`, the
/// CPU sleeps meanwhile).
#[inline]
pub fn wait_vblank() {
    VBlankIntrWait();
}
