//! What a mode 4 page keeps of the sky between frames: with a [`PageSky`]
//! the GBA's fast path no longer fills the whole page with the sky every
//! frame, it puts the sky back only in the rows that showed terrain in the
//! page's last frame and show sky now; and after a pitch move it fills only
//! the rows the terrain is not expected to cover.

use crate::render::{COLUMNS, HEIGHT};

/// The sky a page holds from the last frame the GBA's fast path drew into
/// it: in pixel pair column `col`, every row above `top(col)` is the sky of a
/// horizon at row `horizon` (both pixels of each pair). The next frame at the
/// same horizon then skips the sky page (9,600 word stores) and repaints, per
/// column, only the rows from the old top down to its new one. A frame at
/// another horizon (the pitch moved) fills with the new sky only the rows
/// down to where the last frame's lowest top moves to
/// ([`fill_rows`](PageSky::fill_rows)), and repaints below them, per column,
/// what its terrain does not cover: the same picture as a whole fill, for
/// less work whenever the terrain covers the bottom of the page.
///
/// Keep one per page, for as long as the page lives, and hand it to the
/// renderer through [`Target::page_sky`](crate::Target::page_sky). Anything
/// else drawn into the page (a message, another view) must
/// [`invalidate`](PageSky::invalidate) it: the next frame then fills the whole
/// sky again. The reference renderer invalidates it too (it keeps no tops).
///
/// ```
/// let mut sky = voxel::PageSky::new();
/// assert!(!sky.holds(80)); // nothing drawn yet: the first frame fills the page
/// sky.invalidate();
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[repr(C, align(4))]
pub struct PageSky {
    /// Per pixel pair column, the highest row of terrain (0 to 160; 160:
    /// all sky); padded to 128, so that an index `& 127` needs no check.
    tops: [u8; 128],
    /// The least of `tops` over the columns: rows above it are sky across
    /// the whole page.
    least: u8,
    /// The most of `tops` over the columns: rows below it are terrain
    /// across the whole page.
    most: u8,
    /// Screen row of the horizon the sky was drawn for.
    horizon: i32,
    valid: bool,
}

const _: () = assert!(HEIGHT <= u8::MAX as usize && COLUMNS <= 128, "tops are bytes, 128 of them");
const _: () = assert!(COLUMNS.is_multiple_of(4), "`finish` reads the tops four at a time");

impl Default for PageSky {
    fn default() -> Self {
        Self::new()
    }
}

impl PageSky {
    /// Knows nothing yet: the next frame fills the whole sky.
    pub const fn new() -> Self {
        PageSky { tops: [0; 128], least: 0, most: 0, horizon: 0, valid: false }
    }

    /// Forgets the page's contents (call after drawing anything else into
    /// it): the next frame fills the whole sky.
    pub fn invalidate(&mut self) {
        self.valid = false;
    }

    /// True if the page holds a frame's sky for a horizon at screen row
    /// `horizon` (`render::HORIZON` plus the camera's pitch), so a frame there
    /// need only repaint.
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn holds(&self, horizon: i32) -> bool {
        self.valid && self.horizon == horizon
    }

    /// Starts a frame at `horizon`: the march writes the frame's tops into
    /// the array returned, column by column.
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    #[cfg_attr(not(target_arch = "arm"), allow(dead_code))] // the fast path's
    pub(crate) fn begin(&mut self, horizon: i32) -> &mut [u8; 128] {
        self.horizon = horizon;
        self.valid = true;
        &mut self.tops
    }

    /// Rows (0 to 160) a frame at `horizon` fills with its sky, row by row,
    /// before its march, when the page does not hold its sky
    /// ([`holds`](PageSky::holds) is false): all 160 if the page holds no
    /// frame's sky; else down to the lowest top of its last frame moved by
    /// the horizon's change. The march then repaints, per column, the rows
    /// between them and its own top; its terrain covers the rest. Any count
    /// gives the same picture, this one the least work when the terrain
    /// moves with the horizon.
    ///
    /// ```
    /// assert_eq!(voxel::PageSky::new().fill_rows(80), 160); // nothing drawn yet
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn fill_rows(&self, horizon: i32) -> u32 {
        if !self.valid {
            return HEIGHT as u32;
        }
        let rows = self.most as i32 + (horizon - self.horizon);
        if rows < 0 {
            0
        } else if rows > HEIGHT as i32 {
            HEIGHT as u32
        } else {
            rows as u32
        }
    }

    /// Starts a frame at `horizon` that filled the page's top `rows` rows
    /// with its sky ([`fill_rows`](PageSky::fill_rows)): every column's top
    /// is taken to be `rows`, so the march repaints below them; then as
    /// [`begin`](PageSky::begin).
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    #[cfg_attr(not(target_arch = "arm"), allow(dead_code))] // the fast path's
    pub(crate) fn begin_filled(&mut self, horizon: i32, rows: u32) -> &mut [u8; 128] {
        // Not unrolled (it would take 120 stores of IWRAM).
        let columns = core::hint::black_box(COLUMNS);
        let mut c = 0;
        while c < columns {
            // A volatile store: a plain loop becomes a call of `memset`, in
            // ROM, which the GBA's ARM code in IWRAM must not make.
            // SAFETY: c < COLUMNS <= 128: a byte of `tops`, borrowed mutably.
            unsafe { core::ptr::write_volatile(&mut self.tops[c & 127], rows as u8) };
            c += 1;
        }
        self.begin(horizon)
    }

    /// Ends the frame [`begin`](PageSky::begin) started, once the march has
    /// written its tops: notes the least of them for [`PageSky::sky_rows`]
    /// and the most for [`PageSky::fill_rows`].
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    #[cfg_attr(not(target_arch = "arm"), allow(dead_code))] // the fast path's
    pub(crate) fn finish(&mut self) {
        let (mut least, mut most) = (HEIGHT as u32, 0);
        // Four tops a load (a word), then each of its bytes.
        let words = &self.tops as *const [u8; 128] as usize;
        // Not unrolled (IWRAM).
        let count = core::hint::black_box(COLUMNS / 4);
        let mut w = 0;
        while w < count {
            // SAFETY: w < COLUMNS / 4 = 30: bytes 4 w .. 4 w + 3 of `tops`, the first
            // field of a `repr(C, align(4))` struct: word aligned.
            let four = unsafe { *((words + 4 * w) as *const u32) };
            let mut k = 0;
            while k < 32 {
                let t = (four >> k) & 0xFF;
                if t < least {
                    least = t;
                }
                if t > most {
                    most = t;
                }
                k += 8;
            }
            w += 1;
        }
        let (least, most) = (least as u8, most as u8);
        (self.least, self.most) = (least, most);
    }

    /// Rows at the top of the page (0 to 160) that hold nothing but the sky
    /// of a horizon at screen row `horizon`, in every column: 0 unless the
    /// page [`holds`](PageSky::holds) that sky. Two pages at the same horizon
    /// are the same in the rows above both their counts, so one may be shown
    /// in place of the other while the display draws those rows: the ROM
    /// shows a finished page then too, not only in VBlank (`refresh::show`).
    ///
    /// ```
    /// assert_eq!(voxel::PageSky::new().sky_rows(80), 0); // nothing drawn yet
    /// ```
    pub fn sky_rows(&self, horizon: i32) -> u32 {
        if self.holds(horizon) { self.least as u32 } else { 0 }
    }

    /// The highest row of terrain in pixel pair column `col` (below 120) of
    /// the last frame: rows above it are sky.
    ///
    /// ```
    /// assert_eq!(voxel::PageSky::new().top(3), 0); // unknown: none is sky
    /// ```
    pub fn top(&self, col: usize) -> u32 {
        self.tops[col % COLUMNS] as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sky_rows_are_the_least_top_at_the_same_horizon_only() {
        let mut sky = PageSky::new();
        let tops = sky.begin(70);
        tops.fill(HEIGHT as u8);
        tops[5] = 64;
        tops[119] = 41;
        tops[120] = 3; // padding past the last column: not a column's top
        sky.finish();
        assert_eq!(sky.sky_rows(70), 41);
        assert_eq!(sky.sky_rows(71), 0, "another horizon's sky differs row by row");
        sky.invalidate();
        assert_eq!(sky.sky_rows(70), 0, "something else drawn into the page");
        // All sky: every row is shared.
        sky.begin(70).fill(HEIGHT as u8);
        sky.finish();
        assert_eq!(sky.sky_rows(70), HEIGHT as u32);
        // Each byte of the words `finish` reads four tops from.
        for (col, top) in [(0, 9), (1, 8), (2, 7), (3, 6), (116, 5), (118, 4)] {
            sky.begin(70).fill(HEIGHT as u8);
            sky.tops[col] = top;
            sky.finish();
            assert_eq!(sky.sky_rows(70), top as u32, "column {col}");
        }
    }

    #[test]
    fn fill_rows_follow_the_lowest_top_with_the_horizon() {
        let mut sky = PageSky::new();
        assert_eq!(sky.fill_rows(70), HEIGHT as u32, "nothing held: the whole page");
        let tops = sky.begin(70);
        tops.fill(50);
        tops[7] = 90;
        tops[120] = 150; // padding past the last column: not a column's top
        sky.finish();
        assert_eq!(sky.fill_rows(70 + 12), 102, "the lowest top, 12 rows down with the horizon");
        assert_eq!(sky.fill_rows(70 - 30), 60);
        assert_eq!(sky.fill_rows(70 - 95), 0);
        assert_eq!(sky.fill_rows(70 + 80), HEIGHT as u32);
        // Each byte of the words `finish` reads four tops from.
        for (col, top) in [(0, 99), (1, 98), (2, 97), (3, 96), (117, 95), (119, 94)] {
            sky.begin(70).fill(10);
            sky.tops[col] = top;
            sky.finish();
            assert_eq!(sky.fill_rows(70), top as u32, "column {col}");
        }
        // A frame that filled 102 rows: every column's top taken as 102.
        let tops = sky.begin_filled(82, 102);
        assert!(tops[..COLUMNS].iter().all(|&t| t == 102));
        assert!(sky.holds(82));
        sky.invalidate();
        assert_eq!(sky.fill_rows(82), HEIGHT as u32, "something else drawn into the page");
    }
}
