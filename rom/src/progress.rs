//! A progress screen for long work at boot (checking a large packed bank):
//! a title and a bar on page 0, shown only once the work looks like taking
//! longer than [`SHOW_AFTER`] cycles, so short work does not flash a screen.

use crate::cycles::Cycles;
use crate::text::TextWriter;
use crate::video::{Page, set_palette};
use core::cell::Cell;
use core::fmt::Write;
use gba::prelude::Color;
use voxel::palette::ui;

/// Work expected to take longer than this (a quarter of a second) shows the screen.
pub const SHOW_AFTER: u32 = crate::cycles::CYCLES_PER_SECOND / 4;
/// The bar: position and size, pixels.
const BAR_X: usize = 40;
const BAR_Y: usize = 84;
const BAR_W: usize = 160;
const BAR_H: usize = 8;

/// Progress through `total` units of work (bytes, say), updated with
/// [`Progress::advance`] through a shared reference.
#[derive(Debug)]
pub struct Progress {
    title: &'static str,
    /// Shown under the bar.
    kb: u32,
    total: Cell<u32>,
    done: Cell<u32>,
    start: Cycles,
    /// Bar pixels drawn so far; `None` while the screen is not shown.
    bar: Cell<Option<usize>>,
}

impl Progress {
    /// Starts timing `total` units of work called `title`, on `kb` kilobytes
    /// (shown under the bar).
    pub fn new(title: &'static str, kb: u32, total: u32) -> Self {
        Progress {
            title,
            kb,
            total: Cell::new(total.max(1)),
            done: Cell::new(0),
            start: Cycles::now(),
            bar: Cell::new(None),
        }
    }

    /// `n` more units of work than [`Progress::new`] was told (work found
    /// on the way): the bar, if shown, shrinks to match.
    pub fn add_work(&self, n: u32) {
        let total = self.total.get().saturating_add(n);
        self.total.set(total);
        if let Some(drawn) = self.bar.get() {
            let width = (self.done.get() as u64 * BAR_W as u64 / total as u64) as usize;
            if width < drawn {
                Page::new(0).fill_rect(BAR_X + width, BAR_Y, drawn - width, BAR_H, ui::HUD_BG);
                self.bar.set(Some(width));
            }
        }
    }

    /// True once the screen is shown.
    pub fn shown(&self) -> bool {
        self.bar.get().is_some()
    }

    /// `n` more units done: shows the screen if the whole looks like taking
    /// longer than [`SHOW_AFTER`], and moves the bar.
    pub fn advance(&self, n: u32) {
        let total = self.total.get();
        let done = self.done.get().saturating_add(n).min(total);
        self.done.set(done);
        let page = Page::new(0);
        if self.bar.get().is_none() {
            let elapsed = self.start.elapsed() as u64;
            // Projected total time: elapsed * total / done.
            let projected = elapsed * total as u64 / done.max(1) as u64;
            if projected <= SHOW_AFTER as u64 {
                return;
            }
            // The interface colours (the entries below the sky's) of the
            // plain palette.
            let palette = voxel::palette::build(&[], &voxel::palette::Mood::PLAIN);
            for (i, c) in palette.iter().enumerate().take(voxel::palette::SKY_BASE as usize) {
                set_palette(i as u8, Color(*c));
            }
            page.clear(ui::GREY);
            let mut w = TextWriter::new(page, (crate::text::COLUMNS - self.title.len()) / 2, 8, ui::WHITE, ui::GREY);
            let _ = w.write_str(self.title);
            drop(w); // draws the last word
            let mut w = TextWriter::new(page, 11, 12, ui::WHITE, ui::GREY);
            let _ = write!(w, "{:>5} KB", self.kb);
            drop(w);
            page.fill_rect(BAR_X - 2, BAR_Y - 2, BAR_W + 4, BAR_H + 4, ui::WHITE);
            page.fill_rect(BAR_X, BAR_Y, BAR_W, BAR_H, ui::HUD_BG);
            self.bar.set(Some(0));
        }
        let width = (done as u64 * BAR_W as u64 / total as u64) as usize;
        let drawn = self.bar.get().unwrap_or(0);
        if width > drawn {
            page.fill_rect(BAR_X + drawn, BAR_Y, width - drawn, BAR_H, ui::BOUNDARY);
            self.bar.set(Some(width));
        }
    }
}
