//! A safe handle on one emulated GBA.

use crate::ffi;
use crate::frame::Frame;
use crate::keys::Keys;
use std::ffi::{CStr, c_char, c_int, c_void};

/// mGBA log levels (`enum mLogLevel`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    Fatal,
    Error,
    Warn,
    Info,
    Debug,
    Stub,
    GameError,
}

impl Level {
    fn from_raw(raw: c_int) -> Self {
        match raw {
            0x01 => Level::Fatal,
            0x02 => Level::Error,
            0x04 => Level::Warn,
            0x08 => Level::Info,
            0x10 => Level::Debug,
            0x20 => Level::Stub,
            _ => Level::GameError,
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = match self {
            Level::Fatal => "FATAL",
            Level::Error => "ERROR",
            Level::Warn => "WARN",
            Level::Info => "INFO",
            Level::Debug => "DEBUG",
            Level::Stub => "STUB",
            Level::GameError => "GAME_ERROR",
        };
        f.pad(s)
    }
}

/// The last character of a ROM message that the next one continues: the
/// ROM's line writer (`rom/src/log.rs`) sends a line longer than mGBA's
/// buffer in pieces of 255 bytes, each but the last ending with this (ASCII
/// RS). The log joins them into one line, and holds a line back until its
/// last piece came (mGBA's frame may end between two).
pub const CONTINUED: char = '\u{1e}';

/// One message from mGBA's logger (a ROM line sent in pieces: the whole line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    /// mGBA's category id, e.g. `gba.debug` (the ROM's own log) or `gba.memory`.
    pub category: String,
    pub level: Level,
    pub message: String,
}

impl LogLine {
    /// A line the ROM wrote through the debug registers.
    pub fn is_rom_log(&self) -> bool {
        self.category == "gba.debug"
    }

    /// A piece of a ROM line that the next message continues ([`CONTINUED`]).
    fn is_continued(&self) -> bool {
        self.is_rom_log() && self.message.ends_with(CONTINUED)
    }

    /// An mGBA warning about a memory access real hardware would not like
    /// ("Bad memory Load32: ...", misaligned or out-of-range accesses).
    pub fn is_memory_warning(&self) -> bool {
        self.category == "gba.memory"
            && matches!(self.level, Level::Warn | Level::Error | Level::GameError | Level::Fatal)
    }
}

/// An emulated GBA with a ROM loaded from memory.
pub struct Emulator {
    raw: *mut ffi::Runner,
    // Boxed: the C side holds a pointer to the Vec, which must not move.
    #[allow(clippy::box_collection)]
    log: Box<Vec<LogLine>>,
}

extern "C" fn collect_log(ctx: *mut c_void, category: *const c_char, level: c_int, message: *const c_char) {
    // SAFETY: ctx is the Box<Vec<LogLine>> owned by the Emulator that is running
    // (the shim only calls back during its calls); strings are NUL-terminated.
    let log = unsafe { &mut *(ctx as *mut Vec<LogLine>) };
    let category = unsafe { CStr::from_ptr(category) }.to_string_lossy().into_owned();
    let message = unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned();
    push_log(log, LogLine { category, level: Level::from_raw(level), message });
}

/// Adds one of mGBA's messages to `log`: the rest of a ROM line that the
/// last message left [`CONTINUED`] (at its level) is joined to it; mGBA's own
/// chatter at debug and stub level is dropped.
fn push_log(log: &mut Vec<LogLine>, line: LogLine) {
    if line.is_rom_log()
        && let Some(last) = log.last_mut().filter(|l| l.is_continued() && l.level == line.level)
    {
        last.message.pop();
        last.message.push_str(&line.message);
        return;
    }
    if line.is_rom_log() || !matches!(line.level, Level::Debug | Level::Stub) {
        log.push(line);
    }
}

/// The lines of `log`, but a last ROM line still waiting for its rest, which
/// stays.
fn take_finished(log: &mut Vec<LogLine>) -> Vec<LogLine> {
    let held = if log.last().is_some_and(LogLine::is_continued) { log.pop() } else { None };
    let lines = std::mem::take(log);
    log.extend(held);
    lines
}

/// Creating an emulator failed.
#[derive(Debug, thiserror::Error)]
#[error("mGBA could not load the ROM ({0} bytes): not a GBA ROM?")]
pub struct LoadError(pub usize);

impl Emulator {
    /// Loads a `.gba` image (bytes, not a path: nothing is written next to it).
    pub fn new(rom: &[u8]) -> Result<Self, LoadError> {
        let mut log = Box::new(Vec::new());
        let ctx = &mut *log as *mut Vec<LogLine> as *mut c_void;
        // SAFETY: the shim copies the ROM; ctx lives as long as the runner.
        let raw = unsafe { ffi::tr_new(rom.as_ptr().cast(), rom.len(), collect_log, ctx) };
        if raw.is_null() {
            return Err(LoadError(rom.len()));
        }
        Ok(Emulator { raw, log })
    }

    /// Replaces the battery save (SRAM/flash) with `data` and resets the GBA.
    pub fn load_save(&mut self, data: &[u8]) -> bool {
        // SAFETY: the shim copies `data`.
        unsafe { ffi::tr_load_save(self.raw, data.as_ptr().cast(), data.len()) != 0 }
    }

    /// A copy of the battery save: mGBA's own copy when it has one, else the
    /// 32 KB SRAM window read byte by byte (mGBA 0.10 clones nothing for a save
    /// type it detected at run time).
    pub fn save_data(&mut self) -> Vec<u8> {
        let cloned = self.cloned_save();
        if !cloned.is_empty() {
            return cloned;
        }
        (0..0x8000u32).map(|i| self.read8(0x0E00_0000 + i)).collect()
    }

    fn cloned_save(&mut self) -> Vec<u8> {
        let mut p: *mut c_void = std::ptr::null_mut();
        // SAFETY: the shim returns a malloc'd buffer of the returned size, or null.
        unsafe {
            let n = ffi::tr_save_data(self.raw, &mut p);
            if p.is_null() {
                return Vec::new();
            }
            let v = std::slice::from_raw_parts(p as *const u8, n).to_vec();
            ffi::tr_free(p);
            v
        }
    }

    /// Holds `keys` from the next frame on.
    pub fn set_keys(&mut self, keys: Keys) {
        // SAFETY: valid runner.
        unsafe { ffi::tr_set_keys(self.raw, keys.bits() as u32) }
    }

    /// Runs until the next frame is complete.
    pub fn run_frame(&mut self) {
        // SAFETY: valid runner; the log callback writes into self.log.
        unsafe { ffi::tr_run_frame(self.raw) }
    }

    /// Frames run since reset.
    pub fn frame_counter(&self) -> u32 {
        // SAFETY: valid runner.
        unsafe { ffi::tr_frame_counter(self.raw) }
    }

    /// The last complete frame.
    pub fn frame(&self) -> Frame {
        // SAFETY: valid runner; the buffer holds width * height values.
        unsafe {
            let w = ffi::tr_width(self.raw) as usize;
            let h = ffi::tr_height(self.raw) as usize;
            let mut pixels = vec![0u16; w * h];
            ffi::tr_frame_bgr555(self.raw, pixels.as_mut_ptr());
            Frame::new(w, h, pixels)
        }
    }

    /// Takes the log lines collected since the last call, but a ROM line
    /// whose rest has not come yet (it stays for the next call).
    pub fn take_log(&mut self) -> Vec<LogLine> {
        take_finished(&mut self.log)
    }

    /// Takes a ROM line whose rest never came (the run ended first), its
    /// mark dropped.
    pub fn take_unfinished(&mut self) -> Option<LogLine> {
        let mut line = self.log.pop_if(|l| l.is_continued())?;
        line.message.pop();
        Some(line)
    }

    /// Reads memory without side effects (no I/O reads, no warnings).
    pub fn read8(&self, address: u32) -> u8 {
        // SAFETY: valid runner.
        unsafe { ffi::tr_read8(self.raw, address) as u8 }
    }

    /// Reads a halfword without side effects.
    pub fn read16(&self, address: u32) -> u16 {
        // SAFETY: valid runner.
        unsafe { ffi::tr_read16(self.raw, address) as u16 }
    }

    /// Reads a word without side effects.
    pub fn read32(&self, address: u32) -> u32 {
        // SAFETY: valid runner.
        unsafe { ffi::tr_read32(self.raw, address) }
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        // SAFETY: created by tr_new, deleted once.
        unsafe { ffi::tr_delete(self.raw) }
    }
}

// SAFETY: the runner is only used through &mut self or &self on one thread at a
// time; the shim routes mGBA's log by a thread-local set during each call.
unsafe impl Send for Emulator {}

#[cfg(test)]
mod tests {
    use super::*;

    fn rom(level: Level, message: &str) -> LogLine {
        LogLine { category: "gba.debug".into(), level, message: message.into() }
    }

    /// A line in two pieces is one line, whether its rest comes in the same
    /// batch or after a `take` (mGBA's frame ended between them); a piece
    /// of another level, or mGBA's own message, is not joined.
    #[test]
    fn pieces_join_across_takes() {
        let mut log = Vec::new();
        push_log(&mut log, rom(Level::Debug, "frame n=1 x=12\u{1e}"));
        push_log(&mut log, rom(Level::Debug, "34 pitch=-50"));
        assert_eq!(take_finished(&mut log), [rom(Level::Debug, "frame n=1 x=1234 pitch=-50")]);
        push_log(&mut log, rom(Level::Info, "before"));
        push_log(&mut log, rom(Level::Debug, "frame n=2 x=5\u{1e}"));
        assert_eq!(take_finished(&mut log), [rom(Level::Info, "before")], "the unfinished line waits");
        push_log(&mut log, LogLine { category: "gba.memory".into(), level: Level::Warn, message: "bad".into() });
        push_log(&mut log, rom(Level::Debug, "6 pitch=0"));
        // (The ROM sends a line's pieces back to back: nothing comes
        // between them. If something did, the piece goes on as it came.)
        let lines = take_finished(&mut log);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].message, "frame n=2 x=5\u{1e}", "a memory warning between: not this line's rest");
        assert_eq!(lines[2].message, "6 pitch=0");
        push_log(&mut log, rom(Level::Debug, "a\u{1e}"));
        push_log(&mut log, rom(Level::Error, "b"));
        assert_eq!(take_finished(&mut log).len(), 2, "another level: not the rest");
        assert!(log.is_empty());
    }
}
