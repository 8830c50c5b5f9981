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

/// The first character of a message that goes on the ROM's last line: the
/// ROM's line writer (`rom/src/log.rs`) sends a line longer than mGBA's
/// buffer in pieces of 255 bytes, each after the first starting with this
/// (ASCII RS), and the log joins them into one line.
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
    let level = Level::from_raw(level);
    // The rest of the ROM's last line (at its level): joined to it.
    if category == "gba.debug"
        && let Some(rest) = message.strip_prefix(CONTINUED)
        && let Some(last) = log.last_mut().filter(|l| l.is_rom_log() && l.level == level)
    {
        last.message.push_str(rest);
        return;
    }
    // Keep everything except mGBA's own chatter at debug/stub level.
    if category == "gba.debug" || !matches!(level, Level::Debug | Level::Stub) {
        log.push(LogLine { category, level, message });
    }
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

    /// Takes the log lines collected since the last call.
    pub fn take_log(&mut self) -> Vec<LogLine> {
        std::mem::take(&mut *self.log)
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
