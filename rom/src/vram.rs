//! The renderer's target on the GBA: a mode 4 page, written with byte stores
//! (a byte store to mode 4 VRAM fills both pixels of its halfword: exactly a
//! two-pixel column).

use crate::video::{Page, WIDTH};
use voxel::{PageSky, Target};

/// A mode 4 page as a [`voxel::Target`], with or without the memory of the
/// sky it holds ([`PageSky`]).
pub struct VramTarget<'a> {
    base: usize,
    sky: Option<&'a mut PageSky>,
}

impl VramTarget<'static> {
    /// The target for `page`, which keeps no memory of its sky: every frame
    /// fills the whole sky.
    pub fn new(page: Page) -> Self {
        VramTarget { base: page.as_ptr() as usize, sky: None }
    }
}

impl<'a> VramTarget<'a> {
    /// The target for `page`, whose last frame's sky `sky` remembers (one
    /// `PageSky` per page, invalidated whenever anything else is drawn into
    /// the page): a frame repaints only the sky that changed.
    pub fn with_sky(page: Page, sky: &'a mut PageSky) -> Self {
        VramTarget { base: page.as_ptr() as usize, sky: Some(sky) }
    }
}

// SAFETY: a page is a mode 4 page (`Page::new`): 160 rows of 240 bytes,
// writable by byte (mirrored into the pair) and by word, readable and
// writable by halfword.
unsafe impl Target for VramTarget<'_> {
    #[instruction_set(arm::a32)]
    #[inline(always)]
    fn span(&mut self, col: usize, y0: usize, y1: usize, c: u8) {
        if col >= WIDTH / 2 {
            return;
        }
        let y1 = if y1 > crate::video::HEIGHT { crate::video::HEIGHT } else { y1 };
        let mut at = self.base + y0 * WIDTH + 2 * col;
        let end = self.base + y1 * WIDTH + 2 * col;
        while at < end {
            // SAFETY: col < 120 and y0 <= y < y1 <= 160 (checked above), so
            // the address is inside the 38,400-byte page.
            unsafe { *(at as *mut u8) = c };
            at += WIDTH;
        }
    }

    #[instruction_set(arm::a32)]
    #[inline(always)]
    fn put_pixel(&mut self, x: usize, y: usize, c: u8) {
        if x < WIDTH && y < crate::video::HEIGHT {
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
        self.sky.as_deref_mut()
    }

    #[instruction_set(arm::a32)]
    #[inline(always)]
    fn put(&mut self, col: usize, y: usize, c: u8) {
        if col < WIDTH / 2 && y < crate::video::HEIGHT {
            // SAFETY: inside the page (checked).
            unsafe { *((self.base + y * WIDTH + 2 * col) as *mut u8) = c };
        }
    }
}
