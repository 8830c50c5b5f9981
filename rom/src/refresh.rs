//! Refreshes and the keypad, per refresh: the VBlank interrupt counts screen
//! refreshes and records the keys held at each one. The main loop replays
//! every refresh since its last frame, so the flight depends only on what was
//! held at each refresh, never on how long frames take to draw. It also
//! shows a page the main loop finished ([`show_at_vblank`]), so that what the
//! loop does after a frame (in mGBA, its log line) does not hold the page
//! back.

use gba::prelude::*;

/// Refreshes remembered (a frame longer than this many refreshes replays the last ones).
pub const KEY_LOG: usize = 16;

static REFRESHES: GbaCell<u32> = GbaCell::new(0);
static KEYS: [GbaCell<u16>; KEY_LOG] = [const { GbaCell::new(0) }; KEY_LOG];
/// The mode 4 page to show at the next VBlank, plus one; 0: none.
static SHOW: GbaCell<u8> = GbaCell::new(0);

extern "C" fn on_irq(bits: IrqBits) {
    if bits.vblank() {
        let n = REFRESHES.read().wrapping_add(1);
        // Pressed keys as 1 bits.
        KEYS[n as usize % KEY_LOG].write(!KEYINPUT.read().to_u16() & 0x03FF);
        REFRESHES.write(n);
        let show = SHOW.read();
        if show != 0 {
            DISPCNT.write(crate::video::showing(show as usize - 1));
            SHOW.write(0);
        }
    }
}

/// Installs the interrupt handler (after [`crate::init`]).
pub fn start() {
    RUST_IRQ_HANDLER.write(Some(on_irq));
}

/// Refreshes since [`start`].
pub fn count() -> u32 {
    REFRESHES.read()
}

/// The keys held at refresh `n` (1 bits; one of the last [`KEY_LOG`] refreshes).
pub fn keys_at(n: u32) -> u16 {
    KEYS[n as usize % KEY_LOG].read()
}

/// Shows mode 4 page `page` (0 or 1) at the start of the next VBlank: the
/// interrupt writes the display control (`video::Mode4::flip_at_vblank`).
pub fn show_at_vblank(page: usize) {
    SHOW.write(page as u8 + 1);
}

/// Sleeps until the page asked for by [`show_at_vblank`] is shown (at once if
/// it is already): the other page is free to draw into. Waits with BIOS
/// `IntrWait` keeping the VBlank flag: a VBlank that came after the check
/// ends the wait at once instead of being missed.
pub fn wait_shown() {
    while SHOW.read() != 0 {
        IntrWait(false, IrqBits::VBLANK);
    }
}
