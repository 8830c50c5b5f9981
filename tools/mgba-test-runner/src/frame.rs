//! Screen frames in the GBA's colour format (BGR555) and golden images.
//!
//! Goldens are PNG files; they are compared in RGB15 (each channel reduced to
//! its top 5 bits), so any PNG editor round trip that keeps the colours keeps
//! the golden valid.

use image::{Rgb, RgbImage};
use std::path::{Path, PathBuf};

/// One screen: `width` x `height` pixels in BGR555.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    width: usize,
    height: usize,
    pixels: Vec<u16>,
}

fn expand5(c: u16) -> u8 {
    let c = (c & 0x1F) as u8;
    (c << 3) | (c >> 2)
}

impl Frame {
    /// A frame from BGR555 pixels, row by row.
    pub fn new(width: usize, height: usize, pixels: Vec<u16>) -> Self {
        assert_eq!(pixels.len(), width * height, "pixel count");
        Frame { width, height, pixels }
    }

    /// Width, in pixels.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height, in pixels.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The BGR555 value at (`x`, `y`).
    pub fn pixel(&self, x: usize, y: usize) -> u16 {
        self.pixels[y * self.width + x]
    }

    /// All pixels, row by row, BGR555.
    pub fn pixels(&self) -> &[u16] {
        &self.pixels
    }

    /// The frame as 8-bit RGB (5-bit channels expanded as the GBA's LCD model does).
    pub fn to_image(&self) -> RgbImage {
        RgbImage::from_fn(self.width as u32, self.height as u32, |x, y| {
            let p = self.pixel(x as usize, y as usize);
            Rgb([expand5(p), expand5(p >> 5), expand5(p >> 10)])
        })
    }

    /// Reduces an 8-bit RGB image to a frame (top 5 bits per channel).
    pub fn from_image(img: &RgbImage) -> Self {
        let pixels = img
            .pixels()
            .map(|Rgb([r, g, b])| (*r as u16 >> 3) | ((*g as u16 >> 3) << 5) | ((*b as u16 >> 3) << 10))
            .collect();
        Frame::new(img.width() as usize, img.height() as usize, pixels)
    }

    /// Saves the frame as PNG (creating parent directories).
    pub fn save_png(&self, path: &Path) -> Result<(), GoldenError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| GoldenError::Io(path.to_path_buf(), format!("cannot create {}: {e}", dir.display())))?;
        }
        self.to_image().save(path).map_err(|e| GoldenError::Io(path.to_path_buf(), e.to_string()))
    }

    /// Loads a PNG as a frame.
    pub fn load_png(path: &Path) -> Result<Self, GoldenError> {
        let img = image::open(path).map_err(|e| GoldenError::Io(path.to_path_buf(), e.to_string()))?;
        Ok(Frame::from_image(&img.to_rgb8()))
    }

    /// The `w` x `h` rectangle at (`x`, `y`) (clipped to the frame).
    pub fn crop(&self, x: usize, y: usize, w: usize, h: usize) -> Frame {
        let (x1, y1) = ((x + w).min(self.width), (y + h).min(self.height));
        let (x, y) = (x.min(x1), y.min(y1));
        let mut pixels = Vec::with_capacity((x1 - x) * (y1 - y));
        for row in y..y1 {
            pixels.extend_from_slice(&self.pixels[row * self.width + x..row * self.width + x1]);
        }
        Frame::new(x1 - x, y1 - y, pixels)
    }

    /// Pixels that differ from `other` (count, and the first one as (x, y)).
    pub fn diff(&self, other: &Frame) -> (usize, Option<(usize, usize)>) {
        let mut count = 0;
        let mut first = None;
        for (i, (a, b)) in self.pixels.iter().zip(&other.pixels).enumerate() {
            if (a & 0x7FFF) != (b & 0x7FFF) {
                count += 1;
                first.get_or_insert((i % self.width, i / self.width));
            }
        }
        (count, first)
    }
}

/// What to do about golden images.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoldenMode {
    /// Compare; write a missing golden and fail.
    Check,
    /// Rewrite goldens from the current frames.
    Bless,
}

impl GoldenMode {
    /// `Bless` when the environment variable `TERRAIN_BLESS` is `1`.
    pub fn from_env() -> Self {
        if std::env::var("TERRAIN_BLESS").as_deref() == Ok("1") { GoldenMode::Bless } else { GoldenMode::Check }
    }
}

/// A golden image check that did not pass.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GoldenError {
    #[error("golden {0} did not exist: wrote it from this run; check it and commit it")]
    Missing(PathBuf),
    #[error(
        "frame differs from golden {golden}: {count} pixels differ, first at ({x}, {y}); \
         this run's frame is in {actual} (rerun with --bless / TERRAIN_BLESS=1 to accept)"
    )]
    Mismatch { golden: PathBuf, actual: PathBuf, count: usize, x: usize, y: usize },
    #[error("golden {0} is {1}x{2}, the frame is {3}x{4}")]
    Size(PathBuf, usize, usize, usize, usize),
    #[error("{0}: {1}")]
    Io(PathBuf, String),
}

/// Checks `frame` against the golden PNG at `golden` (see [`GoldenMode`]). On a
/// mismatch the frame is saved as `<golden's directory>-<golden stem>.actual.png`
/// in `actual_dir`.
pub fn check_golden(frame: &Frame, golden: &Path, actual_dir: &Path, mode: GoldenMode) -> Result<(), GoldenError> {
    if mode == GoldenMode::Bless {
        return frame.save_png(golden);
    }
    if !golden.exists() {
        frame.save_png(golden)?;
        return Err(GoldenError::Missing(golden.to_path_buf()));
    }
    let want = Frame::load_png(golden)?;
    if (want.width, want.height) != (frame.width, frame.height) {
        return Err(GoldenError::Size(golden.to_path_buf(), want.width, want.height, frame.width, frame.height));
    }
    match frame.diff(&want) {
        (0, _) => Ok(()),
        (count, first) => {
            let (x, y) = first.unwrap_or_default();
            // Named after the golden's directory too: goldens of one name
            // in two directories keep apart.
            let name = |p: Option<&std::ffi::OsStr>| p.map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let (dir, stem) = (name(golden.parent().and_then(Path::file_name)), name(golden.file_stem()));
            let actual = actual_dir.join(if dir.is_empty() {
                format!("{stem}.actual.png")
            } else {
                format!("{dir}-{stem}.actual.png")
            });
            frame.save_png(&actual)?;
            Err(GoldenError::Mismatch { golden: golden.to_path_buf(), actual, count, x, y })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_round_trip_keeps_rgb15() {
        let pixels: Vec<u16> = (0..240 * 160).map(|i| (i * 7919 % 32768) as u16).collect();
        let f = Frame::new(240, 160, pixels);
        let dir = std::env::temp_dir().join(format!("mgba-test-runner-{}", std::process::id()));
        let path = dir.join("roundtrip.png");
        f.save_png(&path).unwrap();
        assert_eq!(Frame::load_png(&path).unwrap(), f);
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn golden_mismatch_is_reported_with_position() {
        let dir = std::env::temp_dir().join(format!("mgba-golden-{}", std::process::id()));
        let golden = dir.join("g.png");
        let a = Frame::new(4, 2, vec![0; 8]);
        assert!(matches!(check_golden(&a, &golden, &dir, GoldenMode::Check), Err(GoldenError::Missing(_))));
        assert_eq!(check_golden(&a, &golden, &dir, GoldenMode::Check), Ok(()));
        let mut px = vec![0; 8];
        px[6] = 0x1F;
        let b = Frame::new(4, 2, px);
        match check_golden(&b, &golden, &dir, GoldenMode::Check) {
            Err(GoldenError::Mismatch { count: 1, x: 2, y: 1, actual, .. }) => assert!(actual.exists()),
            other => panic!("unexpected {other:?}"),
        }
        std::fs::remove_dir_all(dir).ok();
    }
}
