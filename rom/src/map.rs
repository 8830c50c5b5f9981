//! The top-down map: each tile reference of the window drawn as a flat colour
//! (the paper's figures 8 and 9), 2x2 pixels per tile.

use crate::video::{Page, set_palette};
use gba::prelude::Color;
use terrain::Window;

/// First palette entry of the tile colours (entries below are for text and UI).
pub const TILE_PALETTE_BASE: u8 = 16;
/// Tiles with distinct map colours; tile `t` uses colour `t mod` this.
pub const TILE_COLOURS: u16 = 240;

/// A recognisable colour for tile `t`: hues spread by the golden ratio,
/// alternating brightness.
pub fn tile_colour(t: u16) -> Color {
    let hue = (t as u32 * 0x9E37) >> 10 & 0x3F; // 0..64 around the wheel
    let (sector, f) = (hue / 11, (hue % 11) * 31 / 11);
    let (hi, lo) = if t & 1 == 0 { (31u16, 6u16) } else { (22u16, 3u16) };
    let up = lo + (hi - lo) * f as u16 / 31;
    let down = hi - (hi - lo) * f as u16 / 31;
    let (r, g, b) = match sector {
        0 => (hi, up, lo),
        1 => (down, hi, lo),
        2 => (lo, hi, up),
        3 => (lo, down, hi),
        4 => (up, lo, hi),
        _ => (hi, lo, down),
    };
    Color::from_rgb(r, g, b)
}

/// Loads the tile colours into the palette.
pub fn load_palette() {
    for t in 0..TILE_COLOURS {
        set_palette(TILE_PALETTE_BASE + t as u8, tile_colour(t));
    }
}

/// Draws the window (`N` x `N` tiles, 2x2 pixels each) with its top-left
/// corner at pixel (`x0`, `y0`) (`x0` even; the map must fit on the screen).
pub fn draw<const N: usize>(page: Page, window: &Window<N>, x0: usize, y0: usize) {
    assert!(x0.is_multiple_of(2) && x0 + 2 * N <= crate::video::WIDTH && y0 + 2 * N <= crate::video::HEIGHT);
    let (ox, oy) = window.origin();
    let base = page.as_ptr();
    for j in 0..N {
        let row = window.ring_row(oy as usize + j);
        // SAFETY: rows y0 + 2j and y0 + 2j + 1 and halfwords x0/2 .. x0/2 + N
        // are inside the page (checked above).
        let line = unsafe { base.add((y0 + 2 * j) * (crate::video::WIDTH / 2) + x0 / 2) };
        for i in 0..N {
            let c = (TILE_PALETTE_BASE as u16 + row[(ox as usize + i) & (N - 1)] as u16 % TILE_COLOURS) as u8;
            let pair = c as u16 | (c as u16) << 8;
            // SAFETY: as above.
            unsafe {
                line.add(i).write_volatile(pair);
                line.add(i + crate::video::WIDTH / 2).write_volatile(pair);
            }
        }
    }
}
