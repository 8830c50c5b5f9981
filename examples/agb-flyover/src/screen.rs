//! Mode 4 (240 x 160, one byte a pixel, two pages), which agb 0.25 has no API
//! for: the display control register's mode and page bits, the background
//! palette and the pages, as raw addresses.
//!
//! agb's `GraphicsFrame::commit` sets the display mode from the backgrounds
//! it shows (none here: mode 0), keeping the other bits (objects on, 1D
//! tile mapping), so [`Mode4::flip`] runs right after each commit.

use crate::land::{PageSky, Target};

const DISPCNT: *mut u16 = 0x0400_0000 as *mut u16;
const BG_PALETTE: *mut u16 = 0x0500_0000 as *mut u16;
const OAM: *const u16 = 0x0700_0000 as *const u16;
/// The two pages of mode 4.
const PAGES: [usize; 2] = [0x0600_0000, 0x0600_A000];
const WIDTH: usize = 240;
const HEIGHT: usize = 160;

/// The screen in mode 4: one page shown, the other drawn. Each page
/// remembers the sky of the last frame drawn into it, so the next frame there
/// repaints only the sky that changed (nothing else is drawn into the pages:
/// the text is objects).
pub struct Mode4 {
    shown: usize,
    skies: [PageSky; 2],
}

impl Mode4 {
    /// Page 0 shown, page 1 to draw.
    pub fn new() -> Self {
        let m = Mode4 { shown: 0, skies: [PageSky::new(), PageSky::new()] };
        m.set_display();
        m
    }

    /// The page not shown, as the renderer's target.
    pub fn back(&mut self) -> VramTarget<'_> {
        VramTarget { base: PAGES[self.shown ^ 1], sky: &mut self.skies[self.shown ^ 1] }
    }

    /// Shows the back page (call in VBlank: right after agb's frame commit).
    pub fn flip(&mut self) {
        self.shown ^= 1;
        self.set_display();
    }

    fn set_display(&self) {
        // SAFETY: DISPCNT is the display control register, always readable and
        // writable by halfword.
        unsafe {
            let v = DISPCNT.read_volatile();
            // mode 4, BG2 on, page select, forced blank off (agb boots with
            // the screen blanked until its first commit: a game that never
            // commits would show white); objects and the rest as agb left them.
            let v = (v & !0x0F97) | 4 | 0x0400 | ((self.shown as u16) << 4);
            DISPCNT.write_volatile(v);
        }
    }
}

/// Writes the 256 background colours (BGR555), which mode 4 uses.
pub fn set_palette(colours: &[u16; 256]) {
    for (i, c) in colours.iter().enumerate() {
        // SAFETY: background palette RAM, 256 halfwords.
        unsafe { BG_PALETTE.add(i).write_volatile(*c) };
    }
}

/// Panics unless the first `n` objects in OAM use tiles 512 and up: the only
/// object tiles the display shows in the bitmap modes.
pub fn check_sprites_visible(n: usize) {
    for i in 0..n {
        // SAFETY: OAM, 128 objects of 4 halfwords.
        let attr2 = unsafe { OAM.add(4 * i + 2).read_volatile() };
        assert!(attr2 & 0x3FF >= 512, "object {i} uses tile {}: hidden in bitmap modes", attr2 & 0x3FF);
    }
}

/// A mode 4 page as a [`Target`] (byte stores: a byte store to VRAM fills
/// both pixels of its halfword, exactly a two-pixel column).
pub struct VramTarget<'a> {
    base: usize,
    /// What the page holds of the sky (borrowed from the `Mode4`).
    sky: &'a mut PageSky,
}

// SAFETY: `base` is a mode 4 page (only `Mode4::back` makes one): 160 rows of
// 240 bytes, writable by byte (mirrored into the pair) and by word, readable
// and writable by halfword.
unsafe impl Target for VramTarget<'_> {
    #[instruction_set(arm::a32)]
    #[inline(always)]
    fn span(&mut self, col: usize, y0: usize, y1: usize, c: u8) {
        if col >= WIDTH / 2 {
            return;
        }
        let y1 = if y1 > HEIGHT { HEIGHT } else { y1 };
        let mut at = self.base + y0 * WIDTH + 2 * col;
        let end = self.base + y1 * WIDTH + 2 * col;
        while at < end {
            // SAFETY: col < 120 and y0 <= y < y1 <= 160, inside the page.
            unsafe { *(at as *mut u8) = c };
            at += WIDTH;
        }
    }

    #[instruction_set(arm::a32)]
    #[inline(always)]
    fn put(&mut self, col: usize, y: usize, c: u8) {
        if col < WIDTH / 2 && y < HEIGHT {
            // SAFETY: inside the page (checked).
            unsafe { *((self.base + y * WIDTH + 2 * col) as *mut u8) = c };
        }
    }

    #[instruction_set(arm::a32)]
    #[inline(always)]
    fn put_pixel(&mut self, x: usize, y: usize, c: u8) {
        if x < WIDTH && y < HEIGHT {
            // SAFETY: inside the page (checked): a halfword of mode 4 VRAM.
            unsafe { voxel::render::put_in_pair(self.base + y * WIDTH + (x & !1), x & 1 == 1, c) };
        }
    }

    #[instruction_set(arm::a32)]
    #[inline(always)]
    fn vram_column(&self, col: usize) -> Option<usize> {
        Some(self.base + 2 * col)
    }

    #[instruction_set(arm::a32)]
    #[inline(always)]
    fn page_sky(&mut self) -> Option<&mut PageSky> {
        Some(self.sky)
    }
}
