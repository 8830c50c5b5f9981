//! Mode 4 (240x160 pixels, 8 bits per pixel, palette indices) with two pages:
//! draw into the hidden one, show it as soon as the switch cannot be seen
//! with [`Mode4::flip`].
//!
//! Mode 4 VRAM takes 16-bit and 32-bit writes only (an 8-bit write stores the
//! byte in both halves of the halfword), so pixels are written in pairs.

use gba::prelude::*;

/// The screen's size in pixels, defined once with the renderer that fills it.
pub use voxel::render::{HEIGHT, WIDTH};
const PAGE_ADDR: [usize; 2] = [0x0600_0000, 0x0600_A000];

/// One mode 4 page: 160 rows of 120 halfwords (two pixels each).
#[derive(Debug, Clone, Copy)]
pub struct Page(*mut u16);

impl Page {
    /// Page `n` (0 or 1) of mode 4 VRAM.
    pub fn new(n: usize) -> Self {
        Page(PAGE_ADDR[n & 1] as *mut u16)
    }

    /// Base address of the page.
    #[inline]
    pub fn as_ptr(self) -> *mut u16 {
        self.0
    }

    /// Writes the pixel pair at (2 * `xp`, `y`) (pixels): `lo` is the left one.
    #[inline]
    pub fn set_pair(self, xp: usize, y: usize, lo: u8, hi: u8) {
        if xp < WIDTH / 2 && y < HEIGHT {
            // SAFETY: in bounds of the 38,400-byte page, halfword aligned.
            unsafe { self.0.add(y * (WIDTH / 2) + xp).write_volatile(lo as u16 | (hi as u16) << 8) }
        }
    }

    /// Sets one pixel at (`x`, `y`) (read-modify-write of its halfword).
    pub fn set(self, x: usize, y: usize, index: u8) {
        if x < WIDTH && y < HEIGHT {
            // SAFETY: in bounds, halfword aligned.
            unsafe {
                let p = self.0.add(y * (WIDTH / 2) + x / 2);
                let old = p.read_volatile();
                let new = if x & 1 == 0 { (old & 0xFF00) | index as u16 } else { (old & 0x00FF) | (index as u16) << 8 };
                p.write_volatile(new);
            }
        }
    }

    /// Fills the rectangle `w` x `h` (pixels) at (`x`, `y`), clipped to the screen.
    pub fn fill_rect(self, x: usize, y: usize, w: usize, h: usize, index: u8) {
        let x1 = (x + w).min(WIDTH);
        let y1 = (y + h).min(HEIGHT);
        for yy in y..y1 {
            let mut xx = x;
            if xx & 1 == 1 && xx < x1 {
                self.set(xx, yy, index);
                xx += 1;
            }
            while xx + 1 < x1 {
                self.set_pair(xx / 2, yy, index, index);
                xx += 2;
            }
            if xx < x1 {
                self.set(xx, yy, index);
            }
        }
    }

    /// Fills the whole page with one palette index.
    pub fn clear(self, index: u8) {
        let word = u32::from_ne_bytes([index; 4]);
        const BLOCKS: usize = WIDTH * HEIGHT / (4 * 80);
        // SAFETY: the page's 9,600 words (120 blocks of 80), word aligned.
        unsafe { gba::mem::set_u32x80_unchecked(self.0.cast(), word, BLOCKS) }
    }
}

/// Mode 4 display with double buffering.
#[derive(Debug)]
pub struct Mode4 {
    shown: usize,
}

impl Mode4 {
    /// Switches the display to mode 4, BG2 on, page 0 shown.
    pub fn init() -> Self {
        // Objects are shown (the HUD), so none may show by accident: OAM
        // starts as zeros, which is an 8 x 8 object at (0, 0).
        for i in 0..128 {
            OBJ_ATTR0.index(i).write(ObjAttr0::new().with_style(ObjDisplayStyle::NotDisplayed));
        }
        DISPCNT.write(showing(0));
        Mode4 { shown: 0 }
    }

    /// The page not on screen, to draw into.
    pub fn back(&self) -> Page {
        Page::new(self.shown ^ 1)
    }

    /// Index (0 or 1) of the page on screen.
    pub fn shown(&self) -> usize {
        self.shown
    }

    /// Shows the back page as soon as the switch cannot be seen
    /// ([`crate::refresh::show`]: at once during VBlank or while the display
    /// draws the top `same_rows` rows, which both pages hold alike; else at
    /// the start of the next VBlank); it counts as shown from now on, so
    /// draw into [`Mode4::back`] only after [`crate::refresh::wait_shown`].
    pub fn flip(&mut self, same_rows: u32) -> crate::refresh::Shown {
        self.shown ^= 1;
        crate::refresh::show(self.shown, same_rows)
    }
}

/// The display control of mode 4 showing page `page` (0 or 1), BG2 and the
/// objects (the HUD) on.
pub fn showing(page: usize) -> DisplayControl {
    DisplayControl::new()
        .with_video_mode(VideoMode::_4)
        .with_show_bg2(true)
        .with_show_obj(true)
        .with_obj_vram_1d(true)
        .with_show_frame1(page == 1)
}

/// Sets background palette entry `index` to `color` (BGR555).
#[inline]
pub fn set_palette(index: u8, color: Color) {
    BG_PALETTE.index(index as usize).write(color);
}
