//! The least texel height (height units, 0 ..= 255) that shows on the
//! screen, its row above the bottom edge (row < `HEIGHT`), per slice of the
//! near ring's bands: the GBA's march tests a column's samples against it
//! until the column draws its first span (its y-buffer still at the bottom
//! edge), one compare of the texel's height instead of the projection's
//! table loads and multiply. Built with the slice table: when the horizon,
//! the eye's height or the height scale change.
//!
//! A sample of height `h` at slice `s` shows when `(a +
//! h * b) >> 16 < HEIGHT` ([`crate::render::slice_rows`]), that is when `h *
//! -b > R = a - (HEIGHT << 16)`; `b <= 0`, so the heights that show are
//! those from the least one, `floor(R / -b) + 1` (0 when `R < 0`), up. The
//! division is a multiply by a reciprocal of `-b` ([`reciprocals`], per
//! height scale: `-b` depends on the scale and the slice alone) and one
//! correction, exact.

use crate::cache::NEAR_BANDS;
use crate::projection::{BAND_LEN, INV_Z, SLICES};
use crate::render::HEIGHT;

/// Slices [`heights`] covers: the near ring's bands'.
pub(crate) const SLICES_NEAR: usize = NEAR_BANDS * BAND_LEN;

/// Per slice of the near bands, `floor((2^32 - 1) / -b)` of
/// [`crate::render::slice_rows`]'s `b` at height scale `scale` (`-b` is
/// `INV_Z[s] * scale >> 8`), 0 where `b` is 0. Divides: on the GBA it runs
/// in ROM, once per height scale.
pub(crate) fn reciprocals(scale: i32) -> [u32; SLICES_NEAR] {
    let mut r = [0; SLICES_NEAR];
    for (s, r) in r.iter_mut().enumerate() {
        let d = ((INV_Z[s] * scale) >> 8) as u32;
        *r = u32::MAX.checked_div(d).unwrap_or(0);
    }
    r
}

/// Per slice of the near bands, the least height (0 ..= 255) whose row lies
/// above the screen's bottom edge (row < `HEIGHT`), from the frame's slice
/// table (`a - bias`, `b` interleaved, [`crate::render::slice_table`]) and
/// the scale's
/// [`reciprocals`]: a sample shows in a column that has drawn nothing
/// exactly when its height is at least its slice's, but for a slice where
/// not even height 255 shows, whose entry is 255 (the march checks a
/// sample of 255 against its row).
///
/// Packed for the march, four slices a word, the first in the top byte:
/// entry `s` is byte `3 - s % 4` of word `s / 4`.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub(crate) fn heights(
    table: &[i32; 2 * SLICES],
    bias: i32,
    reciprocals: &[u32; SLICES_NEAR],
    out: &mut [u32; SLICES_NEAR / 4],
) {
    let mut word = 0;
    let mut s = 0;
    while s < SLICES_NEAR {
        word = word << 8 | least(table[2 * s] + bias, table[2 * s + 1], reciprocals[s]);
        if s % 4 == 3 {
            out[s / 4] = word;
        }
        s += 1;
    }
}

/// The least height of 0 ..= 255 that shows above row `HEIGHT` at a slice of
/// `a`, `b` (`b <= 0`; 255 if none does), `m` being [`reciprocals`]' entry
/// for `-b`.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
fn least(a: i32, b: i32, m: u32) -> u32 {
    let r = a.wrapping_sub((HEIGHT as i32) << 16);
    if r < 0 {
        return 0; // every height shows: h * -b >= 0 > r
    }
    let (r, d) = (r as u32, b.wrapping_neg() as u32);
    if d == 0 {
        return 255; // none: h * 0 > r never holds
    }
    // m = floor((2^32 - 1) / d): q is floor(r / d) or one less (r < 2^31).
    let mut q = ((r as u64 * m as u64) >> 32) as u32;
    if (q + 1) * d <= r {
        q += 1;
    }
    if q >= 255 { 255 } else { q + 1 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{HORIZON, slice_table};

    /// Every height of every near slice, over horizons, eyes and the height
    /// scale's range: at least the slice's entry exactly when it shows above
    /// the bottom edge, but for entries of 255 (none shows).
    #[test]
    fn heights_split_what_shows_from_what_does_not() {
        let mut table = [0; 2 * SLICES];
        let mut out = [0; SLICES_NEAR / 4];
        let mut checked = [0u32; 3]; // entries of 0, between, of 255
        for scale in [16, 100, 256, 323, 1000, 2048] {
            let recips = reciprocals(scale);
            for horizon in [HORIZON - 60, HORIZON, HORIZON + 50, 159, 160, 200] {
                for eye in [0, 1, 17, 40, 120, 187, 255, 600, 2000] {
                    slice_table(&mut table, horizon, eye, scale, 1 << 16);
                    heights(&table, 1 << 16, &recips, &mut out);
                    for s in 0..SLICES_NEAR {
                        let least = (out[s / 4] >> (24 - 8 * (s % 4))) & 255;
                        let (a, b) = (table[2 * s] + (1 << 16), table[2 * s + 1]);
                        for h in 0..=255 {
                            let shows = (a + h * b) >> 16 < HEIGHT as i32;
                            if least == 255 {
                                assert!(!shows || h == 255, "scale {scale} horizon {horizon} eye {eye} s {s} h {h}");
                            } else {
                                assert_eq!(
                                    h >= least as i32,
                                    shows,
                                    "scale {scale} horizon {horizon} eye {eye} s {s} h {h}"
                                );
                            }
                        }
                        checked[if least == 0 {
                            0
                        } else if least == 255 {
                            2
                        } else {
                            1
                        }] += 1;
                    }
                }
            }
        }
        // The keys reach every kind of entry, most of them in between.
        assert!(checked.iter().all(|&c| c > 100) && checked[1] > checked[0] && checked[1] > checked[2], "{checked:?}");
    }

    /// Pinned: at the default horizon from 40 px up at scale 1, slice 0 (10
    /// px away, `INV_Z` 12 << 16) shows heights from 32: 60 + (40 - h) * 12
    /// < 160.
    #[test]
    fn a_near_slice_is_pinned() {
        let mut table = [0; 2 * SLICES];
        let mut out = [0; SLICES_NEAR / 4];
        slice_table(&mut table, HORIZON, 40, 256, 0);
        heights(&table, 0, &reciprocals(256), &mut out);
        assert_eq!(out[0] >> 24, 32);
    }
}
