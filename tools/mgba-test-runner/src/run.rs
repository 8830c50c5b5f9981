//! A whole headless run: frames, scripted keys, screenshots, goldens, and the
//! verdict (a Fatal log line or an mGBA memory warning fails the run).
//!
//! **Frames** are screen refreshes (280,896 cycles, about 1/60 s), numbered
//! from 1, the same for every option: a run of `frames: N` runs frames 1 to N;
//! keys scripted at frame N are held from the start of frame N (its VBlank, so
//! the ROM can read them before the frame's picture is drawn); a screenshot,
//! golden or GIF frame N is the picture frame N ended with; a log line's frame
//! is the one it was written in. A ROM's own frame counter may differ: one that
//! draws a picture in several refreshes counts fewer.

use crate::emulator::{Emulator, Level, LogLine};
use crate::frame::{Frame, GoldenError, GoldenMode, check_golden};
use crate::keys::KeyScript;
use std::io::Write;
use std::path::PathBuf;

/// Video RAM: address and length.
const VRAM: u32 = 0x0600_0000;
const VRAM_LEN: u32 = 0x1_8000;
/// Background palette RAM.
const PALETTE: u32 = 0x0500_0000;

/// Frames run after a Fatal log line, so the ROM's panic screen is complete.
pub const FATAL_GRACE_FRAMES: u32 = 5;

/// What to run and what to capture.
#[derive(Debug, Clone, Default)]
pub struct RunConfig {
    /// Frames to run.
    pub frames: u32,
    /// Keys to hold, by frame.
    pub keys: KeyScript,
    /// Save the picture frame N ended with (frames count from 1) to a PNG.
    pub screenshots: Vec<(u32, PathBuf)>,
    /// Compare the picture frame N ended with with a golden PNG.
    pub goldens: Vec<(u32, PathBuf)>,
    /// Where mismatching frames are saved for inspection.
    pub actual_dir: PathBuf,
    /// Check or rewrite goldens.
    pub golden_mode: Option<GoldenMode>,
    /// Battery save to start from.
    pub save: Option<Vec<u8>>,
    /// Stop early when the ROM logs a line containing this text.
    pub stop_on: Option<String>,
    /// Which of the ROM's log lines to echo to stderr as they come.
    pub echo: Echo,
    /// Record an animated GIF.
    pub gif: Option<GifCapture>,
}

/// What [`run`] echoes to stderr while it runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Echo {
    /// Nothing (the report has everything).
    #[default]
    Off,
    /// The ROM's Fatal and Error lines.
    Errors,
    /// Every line the ROM logs, and mGBA's memory warnings.
    All,
}

/// Which frames go into an animated GIF, and where it is written.
#[derive(Debug, Clone)]
pub struct GifCapture {
    pub path: PathBuf,
    /// First and last frame (counting from 1), inclusive.
    pub from: u32,
    pub to: u32,
    /// Keep one frame in this many (1 = every refresh, 60 fps).
    pub every: u32,
}

/// A line the ROM logged, with the frame it came in (counting from 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RomLine {
    pub frame: u32,
    pub level: Level,
    pub text: String,
}

/// Everything a run saw.
#[derive(Debug, Clone, Default)]
pub struct RunReport {
    /// Frames actually run.
    pub frames: u32,
    /// The ROM's own log.
    pub log: Vec<RomLine>,
    /// mGBA memory warnings ("Bad memory Load32: ..."), with their frame.
    pub memory_warnings: Vec<(u32, String)>,
    /// Other mGBA errors and warnings, with their frame (reported, not fatal).
    pub emulator_messages: Vec<(u32, String)>,
    /// The Fatal message (a panic), if any; the run stops at its frame.
    pub fatal: Option<String>,
    /// Screenshots written.
    pub screenshots: Vec<PathBuf>,
    /// Golden checks that failed.
    pub golden_failures: Vec<GoldenError>,
    /// The last frame.
    pub last_frame: Option<Frame>,
    /// The battery save at the end.
    pub save: Vec<u8>,
    /// Video RAM at the end (0x0600_0000, 96 KB): in mode 4, the two pages of
    /// palette indices at offsets 0 and 0xA000.
    pub vram: Vec<u8>,
    /// The background palette at the end (256 BGR555 colours).
    pub palette: Vec<u16>,
}

/// Why a run failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunFailure {
    #[error("the ROM panicked (mGBA Fatal log) at frame {frame}: {message}")]
    Fatal { frame: u32, message: String },
    #[error("mGBA reported {count} bad memory access(es); first at frame {frame}: {first}")]
    BadMemory { count: usize, frame: u32, first: String },
    #[error("{0}")]
    Golden(String),
    #[error("could not load the ROM: {0}")]
    Load(String),
}

impl RunReport {
    /// The ROM's log lines as text.
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        self.log.iter().map(|l| l.text.as_str())
    }

    /// Fails on a panic, any memory warning, or any golden mismatch.
    pub fn verdict(&self) -> Result<(), RunFailure> {
        if let Some(message) = &self.fatal {
            let frame = self.log.iter().find(|l| l.level == Level::Fatal).map(|l| l.frame).unwrap_or(self.frames);
            return Err(RunFailure::Fatal { frame, message: message.clone() });
        }
        if let Some((frame, first)) = self.memory_warnings.first() {
            return Err(RunFailure::BadMemory {
                count: self.memory_warnings.len(),
                frame: *frame,
                first: first.clone(),
            });
        }
        if !self.golden_failures.is_empty() {
            let text: Vec<String> = self.golden_failures.iter().map(|e| e.to_string()).collect();
            return Err(RunFailure::Golden(text.join("\n")));
        }
        Ok(())
    }
}

/// Runs `rom` (`.gba` bytes) as `config` says.
pub fn run(rom: &[u8], config: &RunConfig) -> Result<RunReport, RunFailure> {
    let mut emu = Emulator::new(rom).map_err(|e| RunFailure::Load(e.to_string()))?;
    if let Some(save) = &config.save
        && !emu.load_save(save)
    {
        return Err(RunFailure::Load("mGBA refused the save data".into()));
    }
    let mode = config.golden_mode.unwrap_or_else(GoldenMode::from_env);
    let mut report = RunReport::default();
    let mut fatal: Vec<String> = Vec::new();
    let mut fatal_at: Option<u32> = None;
    let mut gif_frames: Vec<Frame> = Vec::new();
    for frame in 1..=config.frames {
        emu.set_keys(config.keys.keys_at(frame));
        emu.run_frame();
        report.frames = frame;
        let mut stop = false;
        for line in emu.take_log() {
            absorb(&mut report, &mut fatal, frame, line, config, &mut stop);
        }
        for (_, path) in config.screenshots.iter().filter(|(f, _)| *f == frame) {
            emu.frame().save_png(path).map_err(|e| RunFailure::Golden(e.to_string()))?;
            report.screenshots.push(path.clone());
        }
        if let Some(g) = &config.gif
            && (g.from..=g.to).contains(&frame)
            && (frame - g.from) % g.every.max(1) == 0
        {
            gif_frames.push(emu.frame());
        }
        for (_, golden) in config.goldens.iter().filter(|(f, _)| *f == frame) {
            if let Err(e) = check_golden(&emu.frame(), golden, &config.actual_dir, mode) {
                report.golden_failures.push(e);
            }
        }
        if stop {
            break;
        }
        // After a panic, let the ROM finish drawing its error screen, then stop.
        if !fatal.is_empty() {
            let at = *fatal_at.get_or_insert(frame);
            if frame >= at + FATAL_GRACE_FRAMES {
                break;
            }
        }
    }
    if let Some(line) = emu.take_unfinished() {
        let (mut stop, frame) = (false, report.frames);
        absorb(&mut report, &mut fatal, frame, line, config, &mut stop);
    }
    if !fatal.is_empty() {
        report.fatal = Some(fatal.join("\n"));
    }
    // (None captured, the run stopped first: no file.)
    if let Some(g) = &config.gif
        && !gif_frames.is_empty()
    {
        write_gif(&g.path, &gif_frames, g.every.max(1)).map_err(|e| RunFailure::Golden(e.to_string()))?;
        report.screenshots.push(g.path.clone());
    }
    report.last_frame = Some(emu.frame());
    report.save = emu.save_data();
    report.vram = (0..VRAM_LEN / 4).flat_map(|i| emu.read32(VRAM + 4 * i).to_le_bytes()).collect();
    report.palette = (0..256).map(|i| emu.read16(PALETTE + 2 * i)).collect();
    Ok(report)
}

fn absorb(
    report: &mut RunReport,
    fatal: &mut Vec<String>,
    frame: u32,
    line: LogLine,
    config: &RunConfig,
    stop: &mut bool,
) {
    if line.is_rom_log() {
        let shown = match config.echo {
            Echo::Off => false,
            Echo::Errors => matches!(line.level, Level::Fatal | Level::Error),
            Echo::All => true,
        };
        if shown {
            // An echo nobody can read (a closed or full stderr) is dropped.
            let _ = writeln!(std::io::stderr().lock(), "[{frame:>6}] {:<5} {}", line.level, line.message);
        }
        if line.level == Level::Fatal {
            fatal.push(line.message.clone());
        }
        if config.stop_on.as_deref().is_some_and(|s| line.message.contains(s)) {
            *stop = true;
        }
        report.log.push(RomLine { frame, level: line.level, text: line.message });
    } else if line.is_memory_warning() {
        if config.echo == Echo::All {
            let _ = writeln!(std::io::stderr().lock(), "[{frame:>6}] mGBA {}: {}", line.level, line.message);
        }
        report.memory_warnings.push((frame, line.message));
    } else if matches!(line.level, Level::Fatal | Level::Error | Level::Warn | Level::GameError) {
        report.emulator_messages.push((frame, format!("{} {}: {}", line.category, line.level, line.message)));
    }
}

/// Encodes `frames` as a looping GIF, `every` refreshes (1/60 s) apart.
fn write_gif(path: &std::path::Path, frames: &[Frame], every: u32) -> Result<(), GoldenError> {
    use image::codecs::gif::{GifEncoder, Repeat};
    let io = |e: &dyn std::fmt::Display| GoldenError::Io(path.to_path_buf(), e.to_string());
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| io(&e))?;
    }
    let mut bytes = Vec::new();
    {
        let mut enc = GifEncoder::new_with_speed(&mut bytes, 10);
        enc.set_repeat(Repeat::Infinite).map_err(|e| io(&e))?;
        let delay = image::Delay::from_numer_denom_ms(every.saturating_mul(1000), 60);
        for f in frames {
            let rgba = image::DynamicImage::ImageRgb8(f.to_image()).to_rgba8();
            enc.encode_frame(image::Frame::from_parts(rgba, 0, 0, delay)).map_err(|e| io(&e))?;
        }
    }
    // Whole or not at all.
    gbarom::write_atomic(path, &bytes).map_err(|e| io(&e))
}
