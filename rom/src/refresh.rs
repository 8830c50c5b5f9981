//! Refreshes and the keypad, per refresh: the VBlank interrupt counts screen
//! refreshes and records the keys held at each one. The main loop replays
//! every refresh since its last frame, so the flight depends only on what was
//! held at each refresh, never on how long frames take to draw.

use gba::prelude::*;

/// Refreshes remembered (a frame longer than this many refreshes replays the last ones).
pub const KEY_LOG: usize = 16;

static REFRESHES: GbaCell<u32> = GbaCell::new(0);
static KEYS: [GbaCell<u16>; KEY_LOG] = [const { GbaCell::new(0) }; KEY_LOG];

extern "C" fn on_irq(bits: IrqBits) {
    if bits.vblank() {
        let n = REFRESHES.read().wrapping_add(1);
        // Pressed keys as 1 bits.
        KEYS[n as usize % KEY_LOG].write(!KEYINPUT.read().to_u16() & 0x03FF);
        REFRESHES.write(n);
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
