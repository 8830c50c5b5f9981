//! Counting screen refreshes: the VBlank interrupt bumps a counter, so the
//! main loop knows how many refreshes a frame took (for frame-rate-independent
//! motion and the frames-per-second figure).

use gba::prelude::*;

static REFRESHES: GbaCell<u32> = GbaCell::new(0);

extern "C" fn on_irq(bits: IrqBits) {
    if bits.vblank() {
        REFRESHES.write(REFRESHES.read().wrapping_add(1));
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
