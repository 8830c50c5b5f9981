//! The HUD as sprites: [`ROWS`] rows of 30 8x8 objects across the top of
//! the screen, one per character cell, showing the font's glyphs loaded once
//! into object VRAM. The ROM writes its text ten times a second (the frames
//! between cost the HUD nothing) into a buffer with
//! [`RowWriter`]'s own number writers ([`crate::digits`], no `core::fmt`: its machinery and
//! divisions, Thumb code in ROM, made the HUD cost about half as much again);
//! [`Hud::show`], in VBlank, rewrites only the cells whose character changed.
//! The bench's "HUD on" row gives what the HUD costs a frame. Drawing the
//! same text into the mode 4 page, as the HUD used to, cost about 100,000
//! cycles a frame.
//!
//! In mode 4 objects take tiles 512..=1023 (the page occupies the rest of
//! VRAM); glyph `c` (0..128) is tile 512 + `c`, 4 bits per pixel, palette
//! bank 0: entry 1 the text, entry 2 its background.

use crate::digits::{decimal, hex_digit};
use crate::text::{COLUMNS, GLYPH, glyph_row};
use core::fmt;
use gba::prelude::*;

/// Text rows of the HUD.
pub const ROWS: usize = 3;
/// Character cells (and objects) of the HUD.
const CELLS: usize = ROWS * COLUMNS;
/// First object tile usable in the bitmap modes: glyph `c` is this + `c`.
const FIRST_TILE: u16 = 512;
/// Object palette entries of the text and its background.
const FG: u32 = 1;
const BG: u32 = 2;

/// The HUD's text and what the objects show.
#[derive(Debug)]
pub struct Hud {
    /// The characters written this frame.
    text: [u8; CELLS],
    /// The characters the objects show (`0xFF`: not yet written).
    shown: [u8; CELLS],
    /// Whether the objects are on screen.
    visible: bool,
}

impl Hud {
    /// Scanlines the HUD's objects cover, from the top of the screen.
    pub const HEIGHT_PX: u16 = (ROWS * GLYPH) as u16;

    /// Loads the glyphs into object VRAM and sets the text colours (BGR555);
    /// the HUD starts hidden (as [`crate::video::Mode4::init`] left every object).
    pub fn init(fg: Color, bg: Color) -> Self {
        for c in 0..128u8 {
            let mut tile = [0u32; 8];
            for (row, word) in tile.iter_mut().enumerate() {
                let bits = glyph_row(c, row);
                for x in 0..GLYPH {
                    let v = if bits & (1 << x) != 0 { FG } else { BG };
                    *word |= v << (4 * x);
                }
            }
            OBJ_TILES.index((FIRST_TILE + c as u16) as usize).write(tile);
        }
        Self::set_colours(fg, bg);
        Hud { text: [b' '; CELLS], shown: [0xFF; CELLS], visible: false }
    }

    /// Sets the text and background colours (BGR555): call when the
    /// background palette changes, so the HUD matches it.
    pub fn set_colours(fg: Color, bg: Color) {
        OBJ_PALETTE.index(FG as usize).write(fg);
        OBJ_PALETTE.index(BG as usize).write(bg);
    }

    /// A writer of text row `row` (0..ROWS): what passes the right edge is
    /// dropped; the rest of the row is cleared when the writer is dropped.
    pub fn row(&mut self, row: usize) -> RowWriter<'_> {
        let start = row.min(ROWS - 1) * COLUMNS;
        RowWriter::new(&mut self.text[start..start + COLUMNS])
    }

    /// Shows the text (or hides the HUD if `!visible`): rewrites only the
    /// objects whose character changed. Call while the display is not
    /// drawing the HUD's rows and will not start them before the writes end
    /// (`refresh::past_rows(Hud::HEIGHT_PX)`: below them, up to scanline
    /// 219), so no picture shows a half-written HUD.
    /// Returns the objects written.
    pub fn show(&mut self, visible: bool) -> u32 {
        let mut written = 0;
        if visible != self.visible {
            for i in 0..CELLS {
                let style = if visible { ObjDisplayStyle::Normal } else { ObjDisplayStyle::NotDisplayed };
                OBJ_ATTR0.index(i).write(ObjAttr0::new().with_y(((i / COLUMNS) * GLYPH) as u16).with_style(style));
                OBJ_ATTR1.index(i).write(ObjAttr1::new().with_x(((i % COLUMNS) * GLYPH) as u16));
            }
            self.visible = visible;
            written += CELLS as u32;
        }
        if visible {
            for i in 0..CELLS {
                if self.text[i] != self.shown[i] {
                    OBJ_ATTR2.index(i).write(ObjAttr2::new().with_tile_id(FIRST_TILE + self.text[i] as u16));
                    self.shown[i] = self.text[i];
                    written += 1;
                }
            }
        }
        written
    }
}

/// Writes one HUD row ([`Hud::row`]).
#[derive(Debug)]
pub struct RowWriter<'a> {
    cells: &'a mut [u8],
    col: usize,
}

/// How a number fills a wider field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Spaces after it (`{:<width}`).
    Left,
    /// Spaces before it (`{:>width}`).
    Right,
}

impl<'a> RowWriter<'a> {
    /// A writer of `cells` from the first (what [`Hud::row`] hands out; the
    /// in-ROM tests write plain buffers).
    pub fn new(cells: &'a mut [u8]) -> Self {
        RowWriter { cells, col: 0 }
    }

    /// Writes `s` (characters outside printable ASCII as `?`).
    pub fn text(&mut self, s: &str) -> &mut Self {
        let _ = fmt::Write::write_str(self, s);
        self
    }

    /// Writes `v` in decimal, padded with spaces to `width` cells: what
    /// `{:<width$}` or `{:>width$}` print, without `core::fmt`; digits by
    /// dividing by 10 with shifts and adds, no division.
    pub fn uint(&mut self, v: u32, width: usize, align: Align) -> &mut Self {
        self.number(false, v, width, align)
    }

    /// [`RowWriter::uint`] for a signed value (a `-` before the digits).
    pub fn int(&mut self, v: i32, width: usize, align: Align) -> &mut Self {
        self.number(v < 0, v.unsigned_abs(), width, align)
    }

    /// Writes `v` as eight upper-case hexadecimal digits (`{:08X}`).
    pub fn hex8(&mut self, v: u32) -> &mut Self {
        for k in (0..8).rev() {
            self.push(hex_digit(v >> (4 * k), true));
        }
        self
    }

    fn number(&mut self, negative: bool, v: u32, width: usize, align: Align) -> &mut Self {
        let mut buf = [0u8; 10];
        let digits = decimal(v, &mut buf);
        let len = digits.len() + negative as usize;
        let pad = width.saturating_sub(len);
        if align == Align::Right {
            (0..pad).for_each(|_| self.push(b' '));
        }
        if negative {
            self.push(b'-');
        }
        digits.iter().for_each(|&d| self.push(d));
        if align == Align::Left {
            (0..pad).for_each(|_| self.push(b' '));
        }
        self
    }

    /// Puts one character in the next cell, if the row has one left.
    fn push(&mut self, c: u8) {
        if self.col < self.cells.len() {
            self.cells[self.col] = c;
            self.col += 1;
        }
    }
}

impl fmt::Write for RowWriter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // By bytes, not chars (decoding them cost more than the rest): a
        // character outside ASCII is one leading byte (a `?`) and its
        // continuation bytes (0x80 to 0xBF, skipped).
        for b in s.bytes() {
            match b {
                0x20..=0x7E => self.push(b),
                0x80..=0xBF => {}
                _ => self.push(b'?'),
            }
        }
        Ok(())
    }
}

impl Drop for RowWriter<'_> {
    fn drop(&mut self) {
        for c in self.cells[self.col..].iter_mut() {
            *c = b' ';
        }
    }
}
