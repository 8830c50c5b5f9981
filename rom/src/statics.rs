//! Large mutable statics without `static mut` references: a [`Static`] hands
//! out its `&'static mut` exactly once.

use core::cell::UnsafeCell;
use gba::gba_cell::GbaCell;

/// A value in a `static` (place it with `#[link_section]`), borrowed mutably once.
pub struct Static<T> {
    value: UnsafeCell<T>,
    taken: GbaCell<bool>,
}

// SAFETY: the value is reachable only through the single `&mut` that `take`
// returns; the GBA runs one thread and our IRQ handler does not touch it.
unsafe impl<T> Sync for Static<T> {}

impl<T> Static<T> {
    /// Wraps `value`.
    pub const fn new(value: T) -> Self {
        Static { value: UnsafeCell::new(value), taken: GbaCell::new(false) }
    }

    /// The one mutable borrow; panics if taken twice.
    #[allow(clippy::mut_from_ref)] // sound: handed out once, checked above
    pub fn take(&'static self) -> &'static mut T {
        // One core, and no interrupt handler takes: a plain read and write
        // are enough (thumbv4t has no atomic swap).
        assert!(!self.taken.read(), "Static taken twice");
        self.taken.write(true);
        // SAFETY: first and only borrow.
        unsafe { &mut *self.value.get() }
    }
}
