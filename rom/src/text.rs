//! 8x8 text in a mode 4 page, with the CP437 font the `gba` crate ships
//! (`CGA_8X8_THICK`, 1 bit per pixel, least significant bit leftmost).

use crate::video::{HEIGHT, Page, WIDTH};
use core::fmt;
use gba::builtin_art::CGA_8X8_THICK;

/// Glyph width and height, in pixels.
pub const GLYPH: usize = 8;
/// Text columns on the screen.
pub const COLUMNS: usize = WIDTH / GLYPH;
/// Text rows on the screen.
pub const ROWS: usize = HEIGHT / GLYPH;

/// Row `row` (0..8) of glyph `c`: bit `x` set where pixel `x` is ink.
pub fn glyph_row(c: u8, row: usize) -> u8 {
    let byte = c as usize * 8 + row;
    (CGA_8X8_THICK[byte / 4] >> ((byte % 4) * 8)) as u8
}

/// Draws character `c` with its top-left corner at (`x`, `y`) (pixels, `x` even).
pub fn draw_char(page: Page, x: usize, y: usize, c: u8, fg: u8, bg: u8) {
    for row in 0..GLYPH {
        let bits = glyph_row(c, row);
        for pair in 0..GLYPH / 2 {
            let lo = if bits & (1 << (2 * pair)) != 0 { fg } else { bg };
            let hi = if bits & (1 << (2 * pair + 1)) != 0 { fg } else { bg };
            page.set_pair(x / 2 + pair, y + row, lo, hi);
        }
    }
}

/// A `fmt::Write` into a page on an 8x8 character grid, wrapping at the right
/// edge between words (a word as long as a row is broken) or, with
/// [`TextWriter::line`], dropping what passes it; what falls below the bottom
/// is dropped. A word is drawn once it ends (a space, a newline,
/// [`TextWriter::clear_to_end`], or the writer's drop), so that it wraps
/// whole even when it comes in several `write_str` pieces.
#[derive(Debug)]
pub struct TextWriter {
    page: Page,
    col: usize,
    row: usize,
    wrap: bool,
    /// The word not yet drawn (wrapping writers only).
    word: [u8; COLUMNS],
    word_len: usize,
    /// Foreground palette index (a pending word is drawn in the colours
    /// set when it ends).
    pub fg: u8,
    /// Background palette index.
    pub bg: u8,
}

impl TextWriter {
    /// A writer starting at character cell (`col`, `row`).
    pub fn new(page: Page, col: usize, row: usize, fg: u8, bg: u8) -> Self {
        TextWriter { page, col, row, wrap: true, word: [0; COLUMNS], word_len: 0, fg, bg }
    }

    /// A writer of one line from character cell (`col`, `row`): what passes the
    /// right edge is dropped, never wrapped onto the next row.
    pub fn line(page: Page, col: usize, row: usize, fg: u8, bg: u8) -> Self {
        TextWriter { page, col, row, wrap: false, word: [0; COLUMNS], word_len: 0, fg, bg }
    }

    /// Fills the rest of the row with the background.
    pub fn clear_to_end(&mut self) {
        self.flush();
        while self.col < COLUMNS {
            self.put(b' ');
        }
    }

    fn newline(&mut self) {
        self.col = 0;
        self.row += 1;
    }

    /// Draws `c` in the next cell, if it is on the screen.
    fn put(&mut self, c: u8) {
        if self.row < ROWS && self.col < COLUMNS {
            draw_char(self.page, self.col * GLYPH, self.row * GLYPH, c, self.fg, self.bg);
        }
        self.col += 1;
    }

    /// Draws the pending word: on the next row if it does not fit on this one.
    fn flush(&mut self) {
        if self.word_len == 0 {
            return;
        }
        if self.col + self.word_len > COLUMNS && self.col > 0 {
            self.newline();
        }
        for i in 0..self.word_len {
            self.put(self.word[i]);
        }
        self.word_len = 0;
    }
}

impl Drop for TextWriter {
    fn drop(&mut self) {
        self.flush();
    }
}

impl fmt::Write for TextWriter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for ch in s.chars() {
            let c = if ch.is_ascii() { ch as u8 } else { b'?' };
            if !self.wrap {
                match c {
                    b'\n' => self.newline(),
                    _ if self.col < COLUMNS => self.put(c),
                    _ => {}
                }
                continue;
            }
            match c {
                b'\n' => {
                    self.flush();
                    self.newline();
                }
                b' ' => {
                    self.flush();
                    // A space at the right edge ends the row instead.
                    if self.col >= COLUMNS {
                        self.newline();
                    } else {
                        self.put(b' ');
                    }
                }
                _ => {
                    if self.word_len == COLUMNS {
                        // As long as a row: broken where the row ends.
                        self.flush();
                    }
                    self.word[self.word_len] = c;
                    self.word_len += 1;
                }
            }
        }
        Ok(())
    }
}
