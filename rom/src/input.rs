//! Keypad state with edge detection, from the keys the VBlank interrupt
//! records at every refresh (`crate::refresh`).

/// The keys of one refresh and of the refresh before.
#[derive(Debug, Clone, Copy, Default)]
pub struct Keys {
    now: u16,
    before: u16,
}

impl Keys {
    /// Moves on to a recorded key state (1 bits, as [`crate::refresh::keys_at`]).
    pub fn advance(&mut self, bits: u16) {
        self.before = self.now;
        self.now = bits & 0x03FF;
    }

    /// Raw held bits (1 = pressed; bit order of `KEYINPUT`).
    pub fn held_bits(&self) -> u16 {
        self.now
    }

    /// Bits of the keys pressed this frame that were up the frame before.
    pub fn pressed_bits(&self) -> u16 {
        self.now & !self.before
    }

    /// Bits of the keys up this frame that were held the frame before.
    pub fn released_bits(&self) -> u16 {
        self.before & !self.now
    }
}

/// Key bit masks (1 = pressed, as in [`Keys::held_bits`]).
pub mod bit {
    pub const A: u16 = 1 << 0;
    pub const B: u16 = 1 << 1;
    pub const SELECT: u16 = 1 << 2;
    pub const START: u16 = 1 << 3;
    pub const RIGHT: u16 = 1 << 4;
    pub const LEFT: u16 = 1 << 5;
    pub const UP: u16 = 1 << 6;
    pub const DOWN: u16 = 1 << 7;
    pub const R: u16 = 1 << 8;
    pub const L: u16 = 1 << 9;
}
