//! Logging through mGBA's debug registers (`0x04FFF600..0x04FFF780`).
//!
//! On hardware, or in an emulator without the protocol, [`write`](fn@write) returns after
//! one register read and the message is never formatted.
//!
//! Two writers: [`log!`](crate::log!) formats with `core::fmt`, fine for rare lines;
//! [`Line`] writes its numbers with [`crate::digits`], for the product's
//! line of every frame (in mGBA the same line through `core::fmt` cost
//! about 31,000 cycles a frame, a ninth of a screen refresh, which the
//! frame's own count did not show).

use crate::digits::{decimal, decimal_backwards, decimal_len, hex_digit};
use core::fmt::{Arguments, Write};
pub use gba::mgba::MgbaMessageLevel as Level;
use gba::mgba::{MgbaBufferedLogger, mgba_logging_available};
use gba::mmio::{MGBA_LOG_BUFFER, MGBA_LOG_SEND};

/// Bytes of a message: a longer line goes out in pieces of this many.
/// (mGBA's buffer holds 256; one short of that, a message always ends in
/// one of the zeros mGBA leaves in it, as a C string.)
const MESSAGE: usize = 255;

/// The last byte of each piece of a [`Line`] that more pieces follow: ASCII
/// RS (record separator), which no line holds. The harness
/// (`mgba_test_runner::CONTINUED`) holds such a message back and joins the
/// next one to it, so a reader gets the whole line, even when mGBA's frame
/// ends between the pieces (the frame line with large numbers passes 255
/// bytes).
const CONTINUED: u8 = 0x1E;

/// One log message written piece by piece, sent when dropped:
/// `Line::new(Level::Debug).text("n=").uint(n);`. Numbers without
/// `core::fmt` or division ([`crate::digits`]), bytes straight into mGBA's
/// buffer. Without mGBA every method returns at once.
#[derive(Debug)]
pub struct Line {
    /// The message's level; `None`: no mGBA, nothing is written.
    level: Option<Level>,
    /// Bytes in mGBA's buffer so far.
    len: usize,
}

impl Line {
    /// A message at `level` (one register read to find mGBA).
    #[inline]
    pub fn new(level: Level) -> Self {
        Line { level: mgba_logging_available().then_some(level), len: 0 }
    }

    /// Writes `s` as it is.
    pub fn text(&mut self, s: &str) -> &mut Self {
        self.bytes(s.as_bytes());
        self
    }

    /// Writes `v` in decimal (what `{}` prints).
    pub fn uint(&mut self, v: u32) -> &mut Self {
        if self.level.is_none() {
            return self;
        }
        let n = decimal_len(v);
        if self.len + n < MESSAGE {
            // Straight into mGBA's buffer, the last digit first.
            let mut at = self.len + n;
            decimal_backwards(v, |d| {
                at -= 1;
                MGBA_LOG_BUFFER.index(at & 255).write(d);
            });
            self.len += n;
        } else {
            // Across the end of a message.
            let mut buf = [0u8; 10];
            self.bytes(decimal(v, &mut buf));
        }
        self
    }

    /// Writes `v` in decimal, a `-` before a negative one (what `{}` prints).
    pub fn int(&mut self, v: i32) -> &mut Self {
        if v < 0 {
            self.text("-");
        }
        self.uint(v.unsigned_abs())
    }

    /// Writes `v` as `0x` and eight lower-case hexadecimal digits (what
    /// `{:#010x}` prints).
    pub fn hex(&mut self, v: u32) -> &mut Self {
        if self.level.is_some() {
            let mut buf = *b"0x00000000";
            for (k, b) in buf[2..].iter_mut().enumerate() {
                *b = hex_digit(v >> (28 - 4 * k), false);
            }
            self.bytes(&buf);
        }
        self
    }

    fn bytes(&mut self, bytes: &[u8]) {
        if self.level.is_none() {
            return;
        }
        for &b in bytes {
            if self.len == MESSAGE - 1 {
                // A byte more than the message holds with its mark: this
                // piece goes, marked as followed, and the rest in the next.
                MGBA_LOG_BUFFER.index(self.len & 255).write(CONTINUED);
                self.len += 1;
                self.send();
            }
            // `& 255`: the compiler sees the index inside the buffer.
            MGBA_LOG_BUFFER.index(self.len & 255).write(b);
            self.len += 1;
        }
    }

    /// Hands the message so far to mGBA (which empties its buffer).
    fn send(&mut self) {
        if let Some(level) = self.level {
            MGBA_LOG_SEND.write(level);
        }
        self.len = 0;
    }
}

impl Drop for Line {
    fn drop(&mut self) {
        if self.len > 0 {
            self.send();
        }
    }
}

/// Writes one message at `level` (`gba`'s logger sends lines longer than
/// 256 bytes in pieces of 256).
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
