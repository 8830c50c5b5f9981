//! A 32-bit CPU cycle counter made of the cascaded timers TM2 (prescaler 1,
//! 16,777,216 Hz) and TM3 (counts TM2 overflows). It wraps after 2^32 cycles
//! (about 256 s), which [`Cycles::elapsed`] handles.
//!
//! ```ignore
//! let t = Cycles::now();
//! work();
//! let spent: u32 = t.elapsed(); // CPU cycles
//! ```

use gba::prelude::*;

/// CPU clock of the GBA, in cycles per second.
pub const CYCLES_PER_SECOND: u32 = 16_777_216;
/// Cycles of one screen refresh (228 lines of 1,232 cycles).
pub const CYCLES_PER_REFRESH: u32 = 280_896;

/// Starts TM2+TM3 from zero. Called by [`crate::init`].
pub fn start() {
    TIMER2_CONTROL.write(TimerControl::new());
    TIMER3_CONTROL.write(TimerControl::new());
    TIMER2_RELOAD.write(0);
    TIMER3_RELOAD.write(0);
    TIMER3_CONTROL.write(TimerControl::new().with_cascade(true).with_enabled(true));
    TIMER2_CONTROL.write(TimerControl::new().with_enabled(true));
}

/// A point in time, in CPU cycles since [`start`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cycles(u32);

impl Cycles {
    /// Reads the counter (a consistent pair of the two 16-bit halves).
    #[inline(always)]
    pub fn now() -> Self {
        loop {
            let hi = TIMER3_COUNT.read();
            let lo = TIMER2_COUNT.read();
            if TIMER3_COUNT.read() == hi {
                return Cycles(((hi as u32) << 16) | lo as u32);
            }
        }
    }

    /// Cycles from `self` to now.
    #[inline(always)]
    pub fn elapsed(self) -> u32 {
        Self::now().0.wrapping_sub(self.0)
    }
}

/// The cost of `Cycles::now().elapsed()` around nothing, in cycles; benchmarks
/// subtract it.
pub fn overhead() -> u32 {
    let t = Cycles::now();
    t.elapsed()
}
