//! Logging through mGBA's debug registers (`0x04FFF600..0x04FFF780`).
//!
//! On hardware, or in an emulator without the protocol, [`write`](fn@write) returns after
//! one register read and the message is never formatted.

use core::fmt::{Arguments, Write};
use gba::mgba::MgbaBufferedLogger;
pub use gba::mgba::MgbaMessageLevel as Level;

/// Writes one message at `level` (lines longer than 255 bytes are split).
#[inline]
pub fn write(level: Level, args: Arguments<'_>) {
    if let Ok(mut logger) = MgbaBufferedLogger::try_new(level) {
        let _ = logger.write_fmt(args);
    }
}

/// `log!("x = {}", x)` logs at Info level; `log!(Level::Warning, "...")` picks
/// the level. Costs one register read when mGBA is absent.
#[macro_export]
macro_rules! log {
    ($level:expr, $fmt:literal $($arg:tt)*) => {
        $crate::log::write($level, format_args!($fmt $($arg)*))
    };
    ($fmt:literal $($arg:tt)*) => {
        $crate::log::write($crate::log::Level::Info, format_args!($fmt $($arg)*))
    };
}
