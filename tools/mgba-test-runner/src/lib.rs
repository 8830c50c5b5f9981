//! Runs GBA ROMs headless in mGBA (the system libmgba, through a small C shim):
//! scripted input, the ROM's debug log, mGBA's memory warnings, screenshots and
//! golden images compared in RGB15.
//!
//! ```no_run
//! use mgba_test_runner::{run, RunConfig};
//! let rom = mgba_test_runner::rom::load("target/gba/terrain.gba".as_ref()).unwrap();
//! let config = RunConfig { frames: 60, keys: "1:RIGHT,30:".parse().unwrap(), ..Default::default() };
//! let report = run(&rom, &config).unwrap();
//! report.verdict().unwrap();
//! assert!(report.lines().any(|l| l.contains("boot ok")));
//! ```

mod emulator;
mod ffi;
mod frame;
mod keys;

mod run;
mod sav;

/// ROM loading and header checks (re-exported from `gbarom`).
pub use gbarom as rom;

pub use emulator::{CONTINUED, Emulator, Level, LoadError, LogLine};
pub use frame::{Frame, GoldenError, GoldenMode, check_golden};
pub use keys::{KeyScript, Keys, ScriptError};
pub use run::{Echo, GifCapture, RomLine, RunConfig, RunFailure, RunReport, run};
pub use sav::{MAX_SAVE, SavError, foreign_format, read_sav, sav_to_write, write_sav};
