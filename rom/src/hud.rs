//! The HUD as sprites: [`ROWS`] rows of 30 8x8 objects across the top of
//! the screen, one per character cell, showing the font's glyphs loaded once
//! into object VRAM. The ROM writes its text up to ten times a second (the frames
//! between cost the HUD nothing) into a buffer with
//! [`RowWriter`]'s own number writers ([`crate::digits`], no `core::fmt`: its machinery and
//! divisions, Thumb code in ROM, made the HUD cost about half as much again);
//! [`Hud::queue`] hands it to the VBlank interrupt, which rewrites only the
//! cells whose character changed ([`on_vblank`]).
//! The bench's "HUD on" row gives what the HUD costs a frame. Drawing the
//! same text into the mode 4 page, as the HUD used to, cost about 100,000
//! cycles a frame.
//!
//! In mode 4 objects take tiles 512..=1023 (the page occupies the rest of
//! VRAM); glyph `c` (0..128) is tile 512 + `c`, 4 bits per pixel, palette
//! bank 0: entry 1 the text, entry 2 its background.

use crate::digits::{decimal_backwards, decimal_len, hex_digit};
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

/// What the VBlank interrupt is to do with the objects ([`ASKED`]).
const NOTHING: u8 = 0;
const SHOW: u8 = 1;
const HIDE: u8 = 2;

/// Words of the HUD's text, four characters each (cell `i` is byte `i % 4`
/// of word `i / 4`; the last word's last two bytes are no cell).
const WORDS: usize = CELLS.div_ceil(4);
/// The text handed to the VBlank interrupt by [`Hud::queue`], a word a
/// store: written by the main loop only while [`ASKED`] is [`NOTHING`], read
/// by the interrupt only while it is not.
static QUEUED: [GbaCell<u32>; WORDS] = [const { GbaCell::new(u32::from_ne_bytes([b' '; 4])) }; WORDS];
/// [`NOTHING`], or what the next VBlank's [`on_vblank`] does.
static ASKED: GbaCell<u8> = GbaCell::new(NOTHING);
/// The characters the objects show (`0xFF`: not yet written), as
/// [`QUEUED`] holds them, four a word: the interrupt's.
static SHOWN: [GbaCell<u32>; WORDS] = [const { GbaCell::new(u32::MAX) }; WORDS];
/// Whether the objects are on screen: the interrupt's.
static VISIBLE: GbaCell<bool> = GbaCell::new(false);
/// Objects the interrupt wrote since the last [`take_written`].
static WRITTEN: GbaCell<u32> = GbaCell::new(0);

/// The HUD's text, written by the main loop.
#[derive(Debug)]
pub struct Hud {
    /// The characters written this frame (word aligned: [`Hud::queue`]
    /// copies them a word at a time).
    text: Text,
}

/// The HUD's cells, [`WORDS`] words of them.
#[derive(Debug)]
#[repr(C, align(4))]
struct Text([u8; WORDS * 4]);

impl Hud {
    /// Loads the glyphs into object VRAM and sets the text colours (BGR555);
    /// the HUD starts hidden (as [`crate::video::Mode4::init`] left every
    /// object), the interrupt's record of the objects reset to match.
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
        // The interrupt's state as `Mode4::init` left the objects: hidden,
        // none written (a second `init` shows them again from scratch).
        without_interrupts(|| {
            ASKED.write(NOTHING);
            VISIBLE.write(false);
            SHOWN.iter().for_each(|w| w.write(u32::MAX));
            WRITTEN.write(0);
        });
        Hud { text: Text([b' '; WORDS * 4]) }
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
        RowWriter::new(&mut self.text.0[start..start + COLUMNS])
    }

    /// Hands the text to the VBlank interrupt, to show at the next VBlank
    /// (or, if `!visible`, to hide the HUD): [`on_vblank`] rewrites only the
    /// objects whose character changed, while the display draws no row, so
    /// no picture shows a half-written HUD whatever the frame's timing.
    /// False if the interrupt has not yet shown the last text: nothing is
    /// handed over; ask again next frame.
    pub fn queue(&self, visible: bool) -> bool {
        if ASKED.read() != NOTHING {
            return false;
        }
        if visible {
            for (cell, chars) in QUEUED.iter().zip(self.text.0.chunks_exact(4)) {
                cell.write(u32::from_ne_bytes([chars[0], chars[1], chars[2], chars[3]]));
            }
        }
        ASKED.write(if visible { SHOW } else { HIDE });
        true
    }
}

/// Objects the VBlank interrupt wrote since the last call (for the frame's
/// log line).
pub fn take_written() -> u32 {
    without_interrupts(|| {
        let n = WRITTEN.read();
        WRITTEN.write(0);
        n
    })
}

/// `f` with interrupts off (the VBlank interrupt's writes wait until it
/// returns).
fn without_interrupts<R>(f: impl FnOnce() -> R) -> R {
    let enabled = IME.read();
    IME.write(false);
    let r = f();
    IME.write(enabled);
    r
}

/// The VBlank interrupt's part: shows what [`Hud::queue`] handed over, if
/// anything. `refresh`'s handler calls it at the start of every VBlank; a
/// program with its own handler calls it there (only there: it writes the
/// objects while the display draws no row).
pub fn on_vblank() {
    let asked = ASKED.read();
    if asked == NOTHING {
        return;
    }
    let visible = asked == SHOW;
    let mut written = 0;
    if visible != VISIBLE.read() {
        let style = if visible { ObjDisplayStyle::Normal } else { ObjDisplayStyle::NotDisplayed };
        for i in 0..CELLS {
            OBJ_ATTR0.index(i).write(ObjAttr0::new().with_y(((i / COLUMNS) * GLYPH) as u16).with_style(style));
            OBJ_ATTR1.index(i).write(ObjAttr1::new().with_x(((i % COLUMNS) * GLYPH) as u16));
        }
        VISIBLE.write(visible);
        written += CELLS as u32;
    }
    if visible {
        // A word at a time: only a word that changed is looked at by cell.
        for (w, (queued, shown)) in QUEUED.iter().zip(&SHOWN).enumerate() {
            let (q, old) = (queued.read(), shown.read());
            if q == old {
                continue;
            }
            let (new_cells, old_cells) = (q.to_ne_bytes(), old.to_ne_bytes());
            for k in 0..4 {
                let i = 4 * w + k;
                if i < CELLS && new_cells[k] != old_cells[k] {
                    OBJ_ATTR2.index(i).write(ObjAttr2::new().with_tile_id(FIRST_TILE + new_cells[k] as u16));
                    written += 1;
                }
            }
            shown.write(q);
        }
    }
    WRITTEN.write(WRITTEN.read().wrapping_add(written));
    ASKED.write(NOTHING);
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
        let digits = decimal_len(v);
        let pad = width.saturating_sub(digits + negative as usize);
        if align == Align::Right {
            self.spaces(pad);
        }
        if negative {
            self.push(b'-');
        }
        // The digits straight into their cells, the last first (those past
        // the row's end dropped, as `push` drops them): no buffer to copy
        // from, a bounds check a digit (the HUD's numbers cost 650 cycles
        // each through a buffer, Thumb code in ROM).
        let end = self.col + digits;
        let mut at = end;
        decimal_backwards(v, |d| {
            at -= 1;
            if let Some(cell) = self.cells.get_mut(at) {
                *cell = d;
            }
        });
        self.col = end.min(self.cells.len());
        if align == Align::Left {
            self.spaces(pad);
        }
        self
    }

    /// `n` spaces (as many as the row has room for).
    fn spaces(&mut self, n: usize) {
        let end = (self.col + n).min(self.cells.len());
        self.cells[self.col..end].fill(b' ');
        self.col = end;
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
