//! The GBA's fast path: the frame's tables in Rust, then the column loop
//! and each column's march in hand-written ARM code (`voxel_march_frame`),
//! in IWRAM. It does exactly what the reference loop in [`crate::render`]
//! does: the same positions, texels, projection and colours, so the frames
//! are equal pixel for pixel (the emulator tests check it). Only built for
//! the GBA.
//!
//! Texels come from the texel cache ([`crate::cache`]): per sample, one add
//! steps the position, both coordinates packed in one word
//! ([`crate::render::pack`]: x in the low 16 bits, y in the high 16, each a
//! ring's side: 7.9 texels near, 8.8 entries far); the ring offset of its
//! texel is a shift, a mask and an add (near ring: `(p >> 25) << 8 | ((p >>
//! 8) & 0xFE)`, far ring: `(p >> 24) << 9 | ((p >> 7) & 0x1FE)`); one halfword
//! load gives height | colour << 8; then `y = (a[s] + h * b[s]) >> 16` (one
//! multiply-accumulate) with the per-frame slice tables of
//! `render::slice_rows`; if `y` is above the y-buffer, fill the rows in
//! between with byte stores (each store writes a two-pixel column pair),
//! inline in each sample's code, upwards from the last span's top (a
//! pointer kept in a register, beside the y-buffer); the colour is the
//! texel's plus the band's fog base, which the band's word in r5 holds
//! ([`BandHead::word`]). The packed position starts from the exact 24.8 one
//! at the first band, and from the ray's exact point at the first far band
//! (`render::FAR_FROM`), whichever bands the column passes over, as the
//! reference loop's does. The
//! boundary view's lines are texels of the cache (`cache::TexelCache::set_marks`):
//! the march draws them as any other.
//!
//! In 240-column mode (`Columns::Pixels`) each pixel column is
//! marched alone: an even one with the byte stores above (they fill both
//! pixels of the pair), the odd one after it with a byte load of the even
//! pixel, an orr and a halfword store; then the rows the even pixel's terrain
//! filled above the odd pixel's go back to the sky.
//!
//! The sky: a frame whose target keeps a [`crate::PageSky`] holding the
//! page's last frame at the same horizon repaints, after each column (each
//! even pixel's, in 240-column mode), only the rows from that frame's top
//! down to its own; at another horizon it fills the top rows first, down to
//! where the last frame's lowest top moves ([`crate::PageSky::fill_rows`]),
//! and repaints below them the same way; a frame with no memory of its
//! page fills the whole page with the sky first ([`sky`]).
//!
//! The slices' `a` and `b` come two slices at a time in the pairs' march:
//! an even sample's load multiple takes its own and the next slice's (four
//! words, 6 cycles, against 4 for two), so an odd sample loads none. Every
//! register is then taken: a band's numbers that the march used to keep in
//! registers come from its head (`MarchTable`, a fixed distance past the
//! band's first slice, so that the slice pointer finds it) and its word
//! (the second group's skip row).
//!
//! Each band is two groups of 8 slices; before a group, one compare with its
//! skip row (`render::skip_rows`, per frame) passes over it when not even
//! the highest texel under its ground (`render::group_tops`) could show in
//! it: the position and the slice pointer step 8 at once, no texel read.
//! In the pairs' march each band's samples are laid out twice, as a chain
//! for hidden samples (a hidden sample falls through to the next one's
//! code) and one for drawn samples (a drawn sample falls through to its
//! inline draw, then the next one's code): samples come in runs of hidden
//! and of drawn ones, so most branches are not taken (1 cycle, against 3).
//! The leading bands hidden in every column (`render::hidden_bands`, per
//! frame: from high up, or over open sea, the near ground lies below the
//! screen) are not tested at all: each column steps past them first, 16
//! steps a band.
//!
//! Until a column draws its first span its y-buffer is the screen's bottom
//! edge (row 160), and whether a sample shows depends on its height alone:
//! in the near bands the pairs' march starts each column in a third chain,
//! the bottom chain, whose samples compare the texel's height (0 ..= 255)
//! with the least height that shows at their slice (`bottom::heights`,
//! built with the slice table; a byte a slice, eight of them in two
//! registers a group) instead of loading the slice's `a`, `b` and
//! multiplying: 13 cycles a sample instead of 18 (the bench's fit, with the
//! group's loads and the first draw's stub: 16.0 against 19.2). The first
//! that shows computes its row and goes on at its draw in the drawing
//! chain. (From 187 px up among mountains, or at the least clearance, a
//! frame takes about 1,650 samples this way: the near ground a column sees
//! below the screen's edge.)

use crate::bottom::SLICES_NEAR;
use crate::cache::NEAR_BANDS;
use crate::projection::{BAND_LEN, BANDS};
use crate::projection::{BAND_STEP, SLICES, Z0};
use crate::render::{
    Camera, FOG_BASE, HEIGHT, Options, SKIP_GROUPS, SKIP_LEN, SKY, Scene, Stats, Target, group_tops, hidden_bands,
    horizon, passed_groups, skip_row, sky_index, slice_table,
};
use crate::trig;

/// What the march of a frame needs and returns (offsets used by the asm):
/// filled once a frame, in the [`MarchTable`] behind its band heads (so
/// that the column loop finds the heads, into which it writes each
/// column's steps, with one subtraction from the job's address). The column
/// loop counts `c` from `-count` up to 0, for column `count + c`, and finds
/// its offset, top and pixel pair from the `_end` addresses below (a pair's
/// index less the pairs' count is `c >> pixels`, rounded down).
#[repr(C)]
pub struct FrameJob {
    /// 0, 4: the heading's cosine and sine, 2.14.
    pub cos: i32,
    pub sin: i32,
    /// 8, 12: the camera's position, world pixels in 24.8 (each column
    /// loads these six words at once).
    pub x: u32,
    pub y: u32,
    /// 16: the address past the columns' view-axis offsets
    /// (`Columns::offsets`, i32 each, 2.14): column `count + c`'s is at
    /// `offsets_end + 4 c`.
    pub offsets_end: u32,
    /// 20: leading bands hidden in every column (`render::hidden_bands`):
    /// each column steps past them at once.
    pub hidden_bands: u32,
    /// 24: 1 for 240 pixel columns (column `k` is pixel `k & 1` of pair
    /// `k >> 1`), 0 for 120 pairs (each column loads these three words at
    /// once).
    pub pixels: u32,
    /// 28: the address past the pairs' tops: per pixel pair column, the row
    /// above which the page holds the sky (its last frame's top, or after a
    /// pitch move the rows filled first, `PageSky::fill_rows`; 160, nothing
    /// to repaint, when the whole page was filled with the sky), then this
    /// frame's top (a byte a pair from the tops' start: a `PageSky`'s, or
    /// scratch).
    pub tops_end: u32,
    /// 32: the address past the pairs of row 0 of the mode 4 page (its
    /// pixel pair 0 on row 0, plus 2 bytes a pair).
    pub page_end: u32,
    /// 36: the texel cache's near ring (128 x 128 texels; its far ring, 256
    /// x 256 entries, `cache::FAR_RING_OFFSET` bytes on: each column's march
    /// loads these three words at once).
    pub near: u32,
    /// 40: the slice table past the near bands' slices (`slices + 8 * 48`).
    pub near_end: u32,
    /// 44: the first slice marched in the slice table (`slices + 128 *
    /// hidden_bands`).
    pub first_slice: u32,
    /// 48: columns to march (120 pairs or 240 pixels).
    pub count: u32,
    /// 52: the sky's palette indices by row (`render::SKY`, 512 bytes).
    pub sky: u32,
    /// 56: `render::sky_index(0, horizon)`: the sky's index of row 0.
    pub sky_row0: u32,
    /// 60 (out): samples taken.
    pub samples: u32,
    /// 64 (out): slices passed over (whole groups, `render::skip_rows`).
    pub skipped: u32,
    /// 68 (out): sky rows repainted.
    pub repainted: u32,
}

/// The march's per-frame table, in IWRAM: the slices' `a` and `b`, then
/// one head a band, each as far (768 bytes) from its band's first slice as
/// every other is: at a band's start the march reaches its head from the
/// slice pointer alone (one add), and no register keeps a pointer to the
/// bands' records. (A head's 128 bytes, the stride of a band's slices, hold
/// 36 bytes of numbers; the rest is padding.) Then the frame's job, which
/// the column loop keeps a pointer to: the heads are a fixed distance
/// before it. Aligned to a band's 128 bytes, as the slices' stride.
#[repr(C, align(128))]
pub struct MarchTable {
    /// Per slice, `a` of `render::slice_rows` less [`ROW_BIAS`], and `b`.
    pub slices: [i32; 2 * SLICES],
    /// Per band, its head.
    pub heads: [BandHead; BANDS],
    /// The frame's job.
    pub job: FrameJob,
}

/// One band's head in the [`MarchTable`] (offsets used by the asm).
#[repr(C)]
pub struct BandHead {
    /// 0: the step, packed in the band's units ([`crate::render::pack_step`]):
    /// written by the asm for each column.
    pub step: u32,
    /// 4: the band's word ([`BandHead::word`]): the fog base, its second
    /// group's skip row and flags, in the march's register r5.
    pub word: u32,
    /// 8: the skip row of its first group of `SKIP_LEN` slices
    /// (`render::skip_rows`): the march passes over a group whose row is at
    /// or below the y-buffer.
    pub skip_first: i32,
    /// 12: near bands: per slice the least texel height that shows above
    /// the screen's bottom edge (`bottom::heights`: four slices a word, the
    /// first in the top byte; the first group's two words, then the
    /// second's): the march's test while its column has drawn nothing (the
    /// bottom chain loads the first group's with the three words above).
    pub bottom: [u32; 4],
    /// 28: padding to the slices' stride.
    pub pad: [u32; 25],
}

impl BandHead {
    /// The word of a band for the march's register r5: `fog` (the palette
    /// index of colour 0 at the band's fog level) in bits 0..8, `last` (the
    /// ring's last band: the march goes on to the far ring, or is done) in
    /// bit 16 (bit 17 is the bottom chain's, at run time), the skip row of
    /// its second group clamped to 0..=255 in bits 24..32 (the y-buffer, less
    /// one, is 0..=159 while a column marches: the same test; in the top
    /// byte, one compare with the word shifted tests it). The draw's colour is `word + (texel >>
    /// 8)`, one add: the fog base plus the colour in the low byte (the byte
    /// stores keep only it), never negative (fog base plus colour is below
    /// 256).
    pub const fn word(fog: u8, skip_second: i32, last: bool) -> u32 {
        let row = if skip_second < 0 {
            0
        } else if skip_second > 255 {
            255
        } else {
            skip_second as u32
        };
        fog as u32 | (last as u32) << 16 | row << 24
    }
}

const _: () = {
    // Every palette index of terrain is below 256: fog base + colour cannot
    // carry out of the draw's low byte (nor make it negative).
    assert!(crate::palette::terrain(crate::palette::MARK, crate::palette::FOG_LEVELS - 1) == 255);
    assert!(BANDS == 6 && BAND_LEN == 16 && NEAR_BANDS == 3, "the asm loops 3 near and 3 far bands of 16 slices");
    assert!(SKIP_LEN == 8 && SKIP_GROUPS == 2 * BANDS, "the asm tests two groups of 8 slices a band");
    assert!(crate::render::TEXEL_SHIFT == 2, "the asm's shifts: 4 world px a texel");
    assert!(crate::cache::NEAR == 128 && crate::cache::FAR == 256, "the asm's ring masks");
    {
        use core::mem::offset_of;
        assert!(offset_of!(FrameJob, sin) == 4 && offset_of!(FrameJob, x) == 8 && offset_of!(FrameJob, y) == 12);
        assert!(offset_of!(FrameJob, offsets_end) == 16 && offset_of!(FrameJob, hidden_bands) == 20);
        assert!(offset_of!(FrameJob, pixels) == 24 && offset_of!(FrameJob, tops_end) == 28);
        assert!(offset_of!(FrameJob, page_end) == 32 && offset_of!(FrameJob, near) == 36);
        assert!(offset_of!(FrameJob, near_end) == 40 && offset_of!(FrameJob, first_slice) == 44);
        assert!(offset_of!(FrameJob, count) == 48 && offset_of!(FrameJob, sky) == 52);
        assert!(offset_of!(FrameJob, sky_row0) == 56 && offset_of!(FrameJob, samples) == 60);
        assert!(offset_of!(FrameJob, skipped) == 64 && offset_of!(FrameJob, repainted) == 68);
        // A band's head as far from its first slice as every other's: the
        // march's `voxel_heads`; the job as far past the heads and the
        // slices as the asm's `voxel_job_heads` and `voxel_job_slices`.
        assert!(offset_of!(MarchTable, heads) == 768 && size_of::<BandHead>() == BAND_LEN * 8);
        assert!(
            offset_of!(MarchTable, job) == 1536 && offset_of!(MarchTable, job) - offset_of!(MarchTable, heads) == 768
        );
        assert!(offset_of!(BandHead, word) == 4 && offset_of!(BandHead, skip_first) == 8);
        assert!(
            offset_of!(BandHead, bottom) == 12,
            "the bottom chain's load of five words, and `voxel_heads - 64 + 20`"
        );
        assert!(SLICES_NEAR == 3 * BAND_LEN && BAND_LEN == 16, "the bottom chain: 3 near bands, 4 words a band");
    }
    let steps = [2, 4, 6, 8, 12, 16];
    let mut b = 0;
    while b < BANDS {
        assert!(BAND_STEP[b] == steps[b], "the asm's band steps: (d * step) >> 6 as shifts");
        b += 1;
    }
    // The asm stores one packed step for bands 0 and 3 (d >> 6), and one for
    // bands 1 and 5 (d >> 5): (d * step) >> 6 >> pack_shift alike.
    const fn shift(b: usize) -> u32 {
        6 - BAND_STEP[b].trailing_zeros() + crate::render::pack_shift(b)
    }
    assert!(shift(0) == 6 && shift(3) == 6 && shift(1) == 5 && shift(5) == 5, "one step for two bands");
    assert!(Z0 == 8, "the asm's first position: (d * 8) >> 6 = d >> 3");
    assert!(crate::render::FAR_FROM == 192, "the asm's far start: (d * 192) >> 6 = 3 d");
    assert!(crate::render::HEIGHT == 160 && crate::render::WIDTH == 240, "the asm's page");
    // The column loop counts from -count up to 0, stopping at 0, and takes
    // an odd column for an odd pixel: every count is even and not 0.
    assert!(
        crate::render::COLUMNS.is_multiple_of(2)
            && crate::render::COLUMNS > 0
            && crate::render::WIDTH.is_multiple_of(2)
    );
};

unsafe extern "C" {
    /// Marches every column of a frame (its [`MarchTable`]'s job): per
    /// column its rays and steps,
    /// the march (inline, or `voxel_march_column_odd` for the odd pixels of
    /// 240 columns, a subroutine of this function), then
    /// the page's sky (the rows the old frame's terrain covered, the odd
    /// pixel's fix-up) and its top. `table`'s job must describe valid memory: the
    /// texel cache's two rings (`near` a `TexelCache`'s near ring, the far
    /// one `cache::FAR_RING_OFFSET` bytes on: every offset the march makes
    /// is masked inside them), `count` column offsets, 128 tops,
    /// the 512-byte sky and a mode 4 page readable by byte and writable by
    /// byte and halfword.
    pub fn voxel_march_frame(table: *mut MarchTable);
    /// Fills rows `0..rows` of the mode 4 page at `page` with the sky: row
    /// `y` in `sky[(start + y) & 511]`, with word stores, ten words at a time.
    /// `page` must be word aligned with `rows * 240` writable bytes, and
    /// `sky` must point to 512 readable bytes.
    pub fn voxel_sky_rows(page: *mut u32, sky: *const u8, start: u32, rows: u32);
}

// One sample of band `\lod` (0: near ring, texels of 7.9 fields; 1: far
// ring, entries of 8.8 fields). r0: packed position (`render::pack`); r2:
// packed step; r4: ring; r5: the band's word (fog base | the ring's last
// band << 16 | its second group's skip row << 24, see `BandHead::word`); r10: the ring's column mask (0xFE near,
// 0x1FE far); r8: slice table (a band's head `voxel_heads` bytes past its
// first slice); r11, r12: the slice's `a` and `b` (the pairs' march loads
// two slices' at an even sample, into r1, r3, r11, r12); r9: y-buffer less one (rows are kept less one in the
// march: `ROW_BIAS`). In the pairs' march (`odd` 0) the draw is inline and
// lr is the address of row r9 + 1 of the pair, the y-buffer's (the bottom
// of the next span: spans are drawn upwards); in the odd pixels' (`odd` 1)
// it is a subroutine (4:), and r3 that address.
//
// The pairs' march lays each band out twice, as two chains of its 16
// samples: in the hidden chain a sample's test falls through to the next
// sample when hidden and branches to the same sample's draw in the drawing
// chain; in the drawing chain it falls through to its draw, which falls
// through to the next sample, and a hidden sample branches to the hidden
// chain's next one. Hidden and drawn samples come in runs (a few draws a
// run), so most samples fall through: a taken branch costs 3 cycles, one not
// taken 1.
core::arch::global_asm!(
    // Bytes from a band's first slice to its head (`MarchTable`).
    ".equ  voxel_heads, 768",
    // Bytes from the `MarchTable`'s heads, and from its slices, to its job.
    ".equ  voxel_job_heads, 768",
    ".equ  voxel_job_slices, 1536",
    // The texel of a sample: r7 the texel, r6 its height.
    ".macro voxel_texel lod",
    "    add   r0, r0, r2", // both coordinates at once (a carry out of x moves y a unit)
    "    .if \\lod == 0",
    "    mov   r6, r0, lsr #25",       // row: y's texel (7.9)
    "    and   r7, r10, r0, lsr #8",   // column * 2: x's texel (bits 9..15) << 1
    "    add   r6, r7, r6, lsl #8",    // 128 texels of 2 bytes a row
    "    .else",
    "    mov   r6, r0, lsr #24",       // row: y's entry (8.8)
    "    and   r7, r10, r0, lsr #7",   // column * 2: x's entry (bits 8..15) << 1
    "    add   r6, r7, r6, lsl #9",    // 256 entries of 2 bytes a row
    "    .endif",
    "    ldrh  r7, [r4, r6]", // texel: height | colour << 8
    "    and   r6, r7, #255",
    ".endm",
    // The texel and row of a sample, and its test: r7 the texel, r11 its
    // row << 16, the flags of the y-buffer against the row (gt: drawn).
    ".macro voxel_probe lod",
    "    voxel_texel \\lod",
    "    ldmia r8!, {{r11, r12}}", // a, b
    "    mla   r11, r12, r6, r11", // a + h * b = y << 16
    "    cmp   r9, r11, asr #16",
    ".endm",
    // The pairs' march's probe of sample `k` of a group: the texel and the
    // test as `voxel_probe`, with the slices' `a` and `b` loaded in pairs
    // (four words a load multiple: 3 cycles a slice in place of 4): an even
    // sample loads its own into r1, r3 and the next one's into r11, r12, and
    // computes its row in r1; an odd one computes its row in r11.
    ".macro voxel_probe_pair lod, k",
    "    voxel_texel \\lod",
    "    .if (\\k) % 2 == 0",
    "    ldmia r8!, {{r1, r3, r11, r12}}", // a, b; the next slice's a, b
    "    voxel_row r1, r3",
    "    .else",
    "    voxel_row r11, r12",
    "    .endif",
    ".endm",
    // The row of the texel of height r6 at the slice of `a`, `b`: into `a`,
    // y << 16 (a + h * b), and the flags of the y-buffer against it.
    ".macro voxel_row a, b",
    "    mla   \\a, \\b, r6, \\a",
    "    cmp   r9, \\a, asr #16",
    ".endm",
    // Sample `k` of the pairs' hidden chain: on to the next sample if
    // hidden, else to its draw in the drawing chain.
    ".macro voxel_hidden lod, k, draw",
    "    voxel_probe_pair \\lod, \\k",
    "    bgt   \\draw",
    ".endm",
    // A drawn sample's inline span: its row in `y` ((y - 1) << 16), its
    // colour to `c`, its slow path at `slow` (the new top's sign, from the
    // move that makes it the y-buffer, tells it: one cycle less than a
    // compare first).
    ".macro voxel_draw y, c, slow",
    "    add   \\c, r5, r7, lsr #8", // the colour in the low byte (fog base + colour < 256)
    "    sub   r6, r9, \\y, asr #16", // rows to fill (both less one)
    "    movs  r9, \\y, asr #16",      // the top at or above row 0 (the row less one below 0)?
    "    bmi   \\slow",               // drawn there, and the column is done
    "25:",
    "    strb  \\c, [lr, #-240]!", // up a row: both pixels of the pair
    "    subs  r6, r6, #2",
    "    strbge \\c, [lr, #-240]!",
    "    bgt   25b",
    ".endm",
    // A sample of the pairs' drawing chain: to the hidden chain's next
    // sample (`hidden`) if hidden, else its draw (from `draw`, where the
    // hidden chain's sample joins), inline; then the next sample.
    // (An even sample draws with its row in r1 and its colour in r3, its
    // slow path at 33:, which keeps the next slice's r11 and r12.)
    ".macro voxel_drawn lod, k, draw, hidden",
    "    voxel_probe_pair \\lod, \\k",
    "    ble   \\hidden",
    "\\draw\\():",
    "    .if (\\k) % 2 == 0",
    "    voxel_draw r1, r3, 33f",
    "    .else",
    "    voxel_draw r11, r12, 9f",
    "    .endif",
    ".endm",
    // The skip test of a group in the odd pixels' march: passed over (12:,
    // back through r6 at `next`) when its skip row `row` is at or below the
    // y-buffer.
    ".macro voxel_group row, next",
    "    cmp   r9, \\row",
    "    adrlt r6, \\next",
    "    blt   12f",
    ".endm",
    // The y-buffer (less one) against the band's second group's skip row,
    // the top byte of its word r5 (`BandHead::word`; clamped to 0..=255,
    // the same test for a y-buffer of 0..=159): lt when the group is hidden
    // whatever its texels.
    ".macro voxel_second",
    "    cmp   r9, r5, lsr #24",
    ".endm",
    // A band's end: on to the next band (`again`, its ring's band loop) unless it was its ring's
    // last (bit 16 of its word).
    ".macro voxel_next again",
    "    tst   r5, #(1 << 16)",
    "    beq   \\again",
    ".endm",
    // Passes over a group of 8 slices (its skip row is at or below the
    // y-buffer), then on at `next`: the pairs' march has one such stub a
    // group.
    ".macro voxel_pass next",
    "    add   r0, r0, r2, lsl #3",
    "    add   r8, r8, #64",
    "    ldr   r7, [sp, #24]",
    "    add   r7, r7, #8",
    "    str   r7, [sp, #24]",
    "    b     \\next",
    ".endm",
    // A sample of the bottom chain (its column has drawn nothing yet: the
    // y-buffer at the screen's bottom edge; near bands only): its height r6
    // against the least height that shows at its slice
    // (`bottom::heights`), a byte of r11 (the group's samples 0 to 3) or
    // r12 (4 to 7), sample `j` in byte 3 - j % 4; to its stub `stub` when at
    // least that. Takes r9.
    ".macro voxel_bottom j, stub",
    "    voxel_texel 0",
    "    .if (\\j) % 4 == 0",
    "    .if (\\j) < 4",
    "    cmp   r6, r11, lsr #24",
    "    .else",
    "    cmp   r6, r12, lsr #24",
    "    .endif",
    "    .else",
    "    .if (\\j) < 4",
    "    mov   r9, r11, lsl #(8 * ((\\j) % 4))",
    "    .else",
    "    mov   r9, r12, lsl #(8 * ((\\j) % 4))",
    "    .endif",
    "    cmp   r6, r9, lsr #24",
    "    .endif",
    "    bhs   \\stub",
    ".endm",
    // A bottom sample's stub: sample `j` of its group (r8 the group's first
    // slice; the band's second group when bit 17 of r5 is set), its height
    // at least the least that shows: its row, from the slice table, and on
    // as the other chains keep the march (the slice pointer past it, the
    // y-buffer in r9). Drawn (always, but where not even height 255 shows,
    // `bottom::heights`' 255): at its draw in the drawing chain (`draw` or,
    // in the second group, `draw2`); else at the next sample in the hidden
    // chain (`hidden`, `hidden2`): the rest of the march as if the bottom
    // chain had not been.
    ".macro voxel_bottom_stub j, draw, hidden, draw2, hidden2",
    "    add   r8, r8, #(8 * (\\j))",
    "    .if (\\j) % 2 == 0", // as the chains load them: r1, r3 and the next slice's
    "    ldmia r8!, {{r1, r3, r11, r12}}",
    "    voxel_stub_tail r1, r3, \\draw, \\hidden, \\draw2, \\hidden2",
    "    .else",
    "    ldmia r8!, {{r11, r12}}", // a, b
    "    voxel_stub_tail r11, r12, \\draw, \\hidden, \\draw2, \\hidden2",
    "    .endif",
    ".endm",
    // The rest of a bottom stub, its slice's `a` and `b` loaded: its row,
    // the y-buffer at the screen's bottom edge, and on in the chains.
    ".macro voxel_stub_tail a, b, draw, hidden, draw2, hidden2",
    "    mla   \\a, \\b, r6, \\a",
    "    mov   r9, #159", // the y-buffer, less one: nothing drawn
    "    tst   r5, #(1 << 17)",
    "    bne   51f",
    "    cmp   r9, \\a, asr #16",
    "    bgt   \\draw",
    "    b     \\hidden",
    "51:",
    "    cmp   r9, \\a, asr #16",
    "    bgt   \\draw2",
    "    b     \\hidden2",
    ".endm",
    // One band of `\lod`: its set-up, then two groups of 8 samples, each
    // passed over when its skip row is at or below the y-buffer. The pairs'
    // march (`odd` 0) lays the groups out as the two chains: the hidden
    // chain's (each group entered there), the groups' stubs that pass over
    // them, then the drawing chain's, whose first group ends in a copy of
    // the second group's test; each chain ends in the band's end
    // (`voxel_next`), so the hidden one need not branch to the other's.
    ".macro voxel_band lod, odd, bottom",
    // The bottom chain (`bottom` 1: the pairs' near bands), first (a
    // column's march that starts in a near band falls into it at 59:, and
    // the band's own start, where its ring's bands loop, follows it): the band's head,
    // its groups' tests (r9 is no y-buffer here: the group is hidden
    // whatever its texels when its skip row is 160 or more), each group's
    // least heights that show (two words, `BandHead::bottom`) and its
    // samples, one copy for both groups (bit 17 of r5, the band's word, set
    // in the second: the draws keep only the word's low byte); the slice
    // pointer r8 stays at the group's first slice. The first sample that
    // shows goes on in the drawing chain; a band whose samples all stay
    // below the screen goes on to the next band here, the ring's last to
    // the far bands.
    "    .if \\bottom",
    "59:",
    "    add   r6, r8, #voxel_heads",
    "    ldmia r6, {{r2, r5, r7, r11, r12}}", // step, word, first skip row, the first group's least heights
    "    cmp   r7, #160",
    "    bge   57f",
    "53:",
    "    .irp  k, 0, 1, 2, 3, 4, 5, 6, 7",
    "    voxel_bottom \\k, vb\\@_\\k",
    "    .endr",
    "    add   r8, r8, #64",
    "    tst   r5, #(1 << 17)",
    "    bne   54f", // the second group done
    "55:", // r8 the second group's first slice
    "    cmp   r5, #(160 << 24)", // its skip row (the top byte) at or below the screen's bottom edge
    "    bhs   58f",
    "    add   r9, r8, #(voxel_heads - 64 + 20)", // its least heights
    "    ldmia r9, {{r11, r12}}",
    "    orr   r5, r5, #(1 << 17)",
    "    b     53b",
    "54:",
    "    tst   r5, #(1 << 16)",
    "    beq   59b",
    "    mov   r9, #159",
    "    b     ve\\@",
    "57:",
    "    voxel_pass 55b",
    "58:",
    "    voxel_pass 54b",
    "    .irp  k, 0, 1, 2, 3, 4, 5, 6, 7",
    "vb\\@_\\k\\():",
    "    voxel_bottom_stub \\k, vd\\@_\\k, vh\\@_\\k, vd\\@_1\\k, vh\\@_1\\k",
    "    .endr",
    "    .endif",
    "vs\\@:", // the band's start: its ring's next band loops back here
    "    add   r6, r8, #voxel_heads", // the band's head
    "    ldmia r6, {{r2, r5, r7}}", // packed step, the band's word, the first group's skip row
    "    .if \\odd",
    "    voxel_group r7, 13f",
    "    .rept 8",
    "    voxel_probe \\lod",
    "    blgt  4f", // above the y-buffer: draw
    "    .endr",
    "13:",
    "    voxel_second",
    "    adrlt r6, 14f",
    "    blt   12f",
    "    .rept 8",
    "    voxel_probe \\lod",
    "    blgt  4f",
    "    .endr",
    "    .else",
    "    cmp   r9, r7",
    "    blt   15f", // hidden whatever its texels (the y-buffer at or above its row): pass over it
    "    .irp  k, 0, 1, 2, 3, 4, 5, 6, 7",
    "    voxel_hidden \\lod, \\k, vd\\@_\\k",
    "vh\\@_\\k\\():",
    "    .endr",
    "13:",
    "    voxel_second",
    "    blt   16f",
    "    .irp  k, 0, 1, 2, 3, 4, 5, 6, 7", // (the second group's labels: 10 to 17)
    "    voxel_hidden \\lod, \\k, vd\\@_1\\k",
    "vh\\@_1\\k\\():",
    "    .endr",
    "    voxel_next vs\\@",
    "    b     ve\\@",
    "15:",
    "    voxel_pass 13b",
    "16:",
    "    voxel_pass 14f",
    "    .irp  k, 0, 1, 2, 3, 4, 5, 6",
    "    voxel_drawn \\lod, \\k, vd\\@_\\k, vh\\@_\\k",
    "    .endr",
    "    voxel_drawn \\lod, 7, vd\\@_7, 13b",
    "    voxel_second",
    "    blt   16b",
    "    .irp  k, 0, 1, 2, 3, 4, 5, 6",
    "    voxel_drawn \\lod, \\k, vd\\@_1\\k, vh\\@_1\\k",
    "    .endr",
    "    voxel_drawn \\lod, 7, vd\\@_17, 14f",
    "    .endif",
    "14:",
    "    voxel_next vs\\@",
    "ve\\@:",
    ".endm",
    // The 24.8 position r0, r1 packed in the units of `\\k` (`pack`): x >>
    // k in the low half of r0, y >> k in the high half. Takes r6.
    ".macro voxel_pack k",
    "    mov   r6, r1, lsr #\\k",
    "    mov   r0, r0, lsl #(16 - \\k)",
    "    mov   r0, r0, lsr #16",
    "    orr   r0, r0, r6, lsl #16",
    ".endm",
    // A drawn sample's slow path in the pairs' march: its span reaches row
    // 0 (its top at or above it). Entered with r9 its top and r6 the rows
    // from there to the y-buffer (`voxel_draw` set both before its test).
    // Rows 0 to the y-buffer in the colour `c`, then the column is done (at
    // `done`, the y-buffer less one at -1: none left open). Takes r6, r7.
    ".macro voxel_slow c, done",
    "    ldr   r7, [sp, #4]",
    "    sub   r7, r7, #240", // the pair on row 0
    "    add   r6, r6, r9",   // the y-buffer before the draw (its rows less its new top)
    "    add   r6, r6, #1",   // rows to fill (the y-buffer is less one)
    "    mvn   r9, #0",
    "6:",
    "    strb  \\c, [r7], #240",
    "    subs  r6, r6, #2",
    "    strbge \\c, [r7], #240",
    "    bgt   6b",
    "    b     \\done",
    ".endm",
    // A column's march (`odd` 1: the odd pixel of a pair in 240-column mode,
    // whose stores keep the pair's even byte: a byte load of it, orr, a
    // halfword store; `vram` is the pair's address). Part of
    // `voxel_march_frame`, in its stack frame: the pairs' march (`odd` 0)
    // inline in its column loop, on at 45: when done; the odd pixels' a
    // subroutine, `name`. Entered with r12 the job, r0 the near bands'
    // packed position before the first sample of the first band marched
    // (past the leading bands hidden in every column), [sp + 12] the far
    // bands' (likewise), r5 the pair's address on row 0 and [sp + 4] on
    // row 1; leaves r9 the y-buffer (rows
    // 0..r9 are still open; less one inside the march, 5: adds it back) and
    // r8 the slice pointer past the last slice marched.
    ".macro voxel_march name, odd",
    "    .if \\odd",
    ".type \\name,%function",
    "\\name:",
    "    .endif",
    // [sp + 4] the pair on row 1, [sp + 12] the far bands' first packed
    // position, [sp + 24] slices passed over in the frame by their groups'
    // tests, [sp + 56] the odd pixels' march's return address
    "    .if \\odd",
    "    str   lr, [sp, #56]",
    "    add   r3, r5, #0x9600", // row 160 of the pair (160 * 240): the first span's bottom
    "    .else",
    "    add   lr, r5, #0x9600",
    "    .endif",
    // the first band marched (past those hidden in every column, which
    // the caller stepped the packed positions past): its first slice (its
    // head `voxel_heads` bytes on)
    "    add   r8, r12, #36",
    "    ldmia r8, {{r4, r7, r8}}", // the near ring, the near bands' end, the first slice
    "    mov   r9, #159", // the y-buffer, less one
    "    mov   r10, #0xFE",      // near column mask (128 texels of 2 bytes)
    "    cmp   r8, r7",
    "    bhs   18f", // no near band to march
    // the near bands: a band's head, then two groups of 8 samples unrolled
    // (in the pairs' march first the bottom chain, which a column falls
    // into while nothing is drawn)
    "    voxel_band 0, \\odd, (1 - \\odd)",
    "23:",
    "    ldr   r0, [sp, #12]", // the far bands' start, packed (the caller's)
    "    add   r4, r4, #{far_ring}", // the far ring, past the near one
    "    orr   r10, r10, #0x100", // far column mask 0x1FE (256 entries of 2 bytes)
    "    voxel_band 1, \\odd, 0", // the far bands
    "5:", // done: the y-buffer (less one in the march)
    "    add   r9, r9, #1",
    "    .if \\odd",
    "    ldr   pc, [sp, #56]",
    "    .else",
    "    b     45f",
    "    .endif",
    "18:", // the first band marched is a far one, or none is
    "    sub   r7, r12, #voxel_job_heads", // past the slices: the heads
    "    cmp   r8, r7",
    "    bhs   5b", // every band hidden
    "    b     23b",
    "    .if \\odd",
    "12:", // pass over a group of 8 slices; on at r6
    "    add   r0, r0, r2, lsl #3",
    "    add   r8, r8, #64",
    "    ldr   r7, [sp, #24]",
    "    add   r7, r7, #8",
    "    str   r7, [sp, #24]",
    "    mov   pc, r6",
    "4:", // draw rows top..ybuf; returns to the next sample through lr
    "    add   r12, r5, r7, lsr #8", // the colour in the low byte
    "    sub   r6, r9, r11, asr #16",  // rows to fill (both less one)
    "    movs  r9, r11, asr #16",      // the top, less one: at or above row 0?
    "    bmi   9f",
    "6:", // upwards from the y-buffer's row (r3), as the pairs' march
    "    ldrb  r11, [r3, #-240]!",     // up a row: the pair's even pixel
    "    orr   r11, r11, r12, lsl #8", // and this one (strh drops the colour's high bits)
    "    strh  r11, [r3]",
    "    subs  r6, r6, #2", // two rows a round, as the pairs' march
    "    ldrbge r11, [r3, #-240]!",
    "    orrge r11, r11, r12, lsl #8",
    "    strhge r11, [r3]",
    "    bgt   6b",
    "    bx    lr",
    "9:", // the span reaches row 0: draw from there (to the y-buffer before it),
    "    add   r6, r6, r9",
    "    add   r6, r6, #1",
    "    mvn   r9, #0",
    "    adr   lr, 5b", // then the column is done (nothing was pushed for the draw)
    "    b     6b",
    "    .else",
    // An odd sample's slow path (r12 its colour), on to 5:; an even
    // sample's (r3: r11 and r12 hold the next slice's `a` and `b`), the
    // same, its slice pointer back past its own slice alone (the count of
    // slices marched takes it).
    "9:",
    "    voxel_slow r12, 5b",
    "33:",
    "    voxel_slow r3, 35f",
    "35:",
    "    sub   r8, r8, #8",
    "    b     5b",
    "    .endif",
    "    .if \\odd",
    ".size \\name, . - \\name",
    "    .endif",
    ".endm",
    ".section .iwram.voxel_march,\"ax\",%progbits",
    ".arm",
    ".align 2",
    ".if {pixels}", // the `pixel-columns` feature
    "voxel_march voxel_march_column_odd, 1",
    ".endif",
    // Rows `r0` (from) to `r9` (to) of the pair at [sp + 4] back to the sky:
    // r2 = the sky's index of row r0, r3 = rows, r0 = the pair on row r0,
    // r1 = the sky table (r12 the job).
    ".macro voxel_sky_args",
    "    sub   r3, r9, r0",
    "    ldr   r2, [r12, #56]", // the sky's index of row 0
    "    add   r2, r2, r0",
    "    mov   r2, r2, lsl #23",
    "    mov   r2, r2, lsr #23", // & 511
    "    ldr   r1, [r12, #52]",  // the sky table
    "    ldr   r6, [sp, #4]",
    "    sub   r6, r6, #240", // the pair on row 0
    "    rsb   r0, r0, r0, lsl #4",
    "    add   r0, r6, r0, lsl #4", // the pair's address on row r0 (240 bytes a row)
    ".endm",
    // A column's end, its march done (r8 the slice pointer past the last
    // slice it marched, r9 its y-buffer): the four words the column loop
    // keeps at [sp + 36] in one load multiple, r5 the address of the
    // column's pair's top, r12 the job, lr the next column less the count;
    // the slice pointer joins the frame's sum at [sp + 40] (mod 2^32: the
    // frame's end takes the start's away). Takes r6, r7.
    ".macro voxel_column_end",
    "    add   r6, sp, #36",
    "    ldmia r6, {{r5, r7, r12, lr}}", // the pair's top, the sum, the job, the column less the count
    "    add   r7, r7, r8",
    "    add   lr, lr, #1",
    "    str   r7, [sp, #40]",
    "    str   lr, [sp, #48]",
    ".endm",
    // A band's step, (d * BAND_STEP) >> 6 (d: the ray in \\x, \\y, times 3
    // for steps 6 and 12), packed in the band's units (`pack_step`: `\\k` 1
    // near, 3 far), into its head (r4: band 0's).
    ".macro voxel_band_step band, x, y, shift, k",
    "    mov   r5, \\x, asr #(\\shift + \\k)",
    "    mov   r6, \\y, asr #(\\shift + \\k)",
    "    add   r5, r5, r6, lsl #16",
    "    str   r5, [r4, #128 * \\band]",
    ".endm",
    ".global voxel_march_frame",
    ".type voxel_march_frame,%function",
    "voxel_march_frame:", // r0 the march's table
    "    push  {{r4-r11, lr}}",
    // [sp + 0..36] as the march uses them (above; [sp], [sp + 8],
    // [sp + 16], [sp + 20], [sp + 28] and [sp + 32] pads), then what the column loop keeps (the column's end loads the
    // four at once): [sp + 36] the address of the column's pair's top,
    // [sp + 40] the sum of the columns' last slice pointers, [sp + 44] the
    // job, [sp + 48] the column less the columns' count (from -count up to
    // 0); [sp + 52] sky rows repainted, [sp + 56] the odd pixels' march's
    // return address, [sp + 60] and [sp + 64] pads (36 bytes pushed and 68
    // keep sp a multiple of 8, as the IRQ handler's Rust code, on this
    // stack, may expect). In each column's set-up r12 is the job and lr the
    // column less the count.
    "    sub   sp, sp, #68",
    "    add   r12, r0, #voxel_job_slices", // the job
    "    mov   r6, #0",
    "    str   r6, [sp, #24]",
    "    str   r6, [sp, #40]",
    "    str   r6, [sp, #52]",
    "    str   r12, [sp, #44]",
    "    ldr   lr, [r12, #48]",
    "    rsb   lr, lr, #0",
    "    str   lr, [sp, #48]",
    "20:", // a column: its ray, (cos - sin u, sin + cos u), 2.14
    "    ldmia r12, {{r2, r3, r4, r5, r6, r9}}", // cos, sin, x, y, the offsets' end, the hidden bands
    "    ldr   r7, [r6, lr, lsl #2]", // u
    "    mul   r0, r3, r7",
    "    mul   r1, r2, r7",
    "    sub   r2, r2, r0, asr #14", // dx
    "    add   r3, r3, r1, asr #14", // dy
    "    add   r0, r4, r2, asr #3", // the first sample's predecessor: (d * Z0) >> 6, Z0 = 8
    "    add   r1, r5, r3, asr #3",
    // each band's step, (d * BAND_STEP) >> 6: steps 2, 4, 6, 8, 12, 16
    "    sub   r4, r12, #voxel_job_heads", // the heads
    "    add   r7, r2, r2, lsl #1", // 3 dx
    "    add   r11, r3, r3, lsl #1", // 3 dy
    // the far bands' start (`render::far_start`): 192 px further, 3 d
    "    add   r8, r0, r7",
    "    add   r10, r1, r11",
    "    voxel_pack 1", // the near bands' start, packed (r0)
    // (steps 2 near and 8 far pack alike, d >> 6; so do steps 4 near and 16
    // far, d >> 5: one word for two heads)
    "    voxel_band_step 0, r2, r3, 5, 1",
    "    str   r5, [r4, #128 * 3]",
    "    voxel_band_step 1, r2, r3, 4, 1",
    "    str   r5, [r4, #128 * 5]",
    "    voxel_band_step 2, r7, r11, 5, 1",
    // the far bands' start, packed (r1)
    "    mov   r6, r10, lsr #3",
    "    mov   r1, r8, lsl #13",
    "    mov   r1, r1, lsr #16",
    "    orr   r1, r1, r6, lsl #16",
    "    voxel_band_step 4, r7, r11, 4, 3",
    // past the leading bands hidden in every column (41:)
    "    cmp   r9, #0",
    "    bne   41f",
    "40:",
    "    str   r1, [sp, #12]", // for the march
    // its pixel pair, (column - count) >> pixels from the pairs' end
    "    add   r6, r12, #24",
    "    ldmia r6, {{r5, r6, r7}}", // pixels, the tops' end, the page's row 0's end
    ".if {pixels}",
    "    ands  r11, lr, r5", // an odd pixel of 240 columns? (the count is even)
    ".endif",
    "    mov   r5, lr, asr r5",
    "    add   r6, r6, r5",
    "    str   r6, [sp, #36]", // its top
    "    add   r5, r7, r5, lsl #1", // the pair on row 0, for the pairs' march
    "    add   r6, r5, #240",
    "    str   r6, [sp, #4]", // the pair on row 1
    ".if {pixels}",
    "    bne   30f",
    ".endif",
    "    voxel_march voxel_march_column, 0",
    "45:", // r9 the y-buffer
    "    voxel_column_end",
    // the page's top of this pair (in 240 columns the even pixel's
    // y-buffer, which the odd pixel's reads back); rows the old frame's
    // terrain covered above this one's back to the sky (22:, before an odd
    // pixel's march, which keeps the even pixel of each pair it writes)
    "    ldrb  r0, [r5]", // the old top (160 if the page has no sky to keep: nothing to repaint)
    "    strb  r9, [r5]",
    "    cmp   r0, r9",
    "    blo   22f", // the old top is above this one
    "21:", // the next column (r12 the job, lr the column less the count)
    "    cmp   lr, #0",
    "    bne   20b",
    // slices marched: the sum of the columns' last slice pointers less
    // `count` first ones, over 8 bytes a slice; samples: less those passed over
    "    ldr   r6, [sp, #40]",
    "    ldr   r7, [r12, #44]",
    "    ldr   r5, [r12, #48]",
    "    mul   r4, r7, r5",
    "    sub   r6, r6, r4",
    "    mov   r6, r6, lsr #3",
    "    ldr   r7, [sp, #24]",
    "    sub   r6, r6, r7",
    "    str   r6, [r12, #60]",
    "    ldr   r4, [r12, #20]", // and the hidden bands' slices count as skipped, 16 a band and column
    "    mul   r4, r5, r4",
    "    add   r7, r7, r4, lsl #4",
    "    str   r7, [r12, #64]",
    "    ldr   r6, [sp, #52]",
    "    str   r6, [r12, #68]",
    "    add   sp, sp, #68",
    "    pop   {{r4-r11, lr}}",
    "    bx    lr",
    "22:", // the rows from the old top down to this one back to the sky
    "    ldr   r2, [sp, #52]",
    "    add   r2, r2, r9",
    "    sub   r2, r2, r0",
    "    str   r2, [sp, #52]",
    "    voxel_sky_args",
    "    bl    voxel_sky_pairs",
    "    ldr   lr, [sp, #48]",
    "    b     21b",
    ".if {pixels}",
    "30:", // an odd pixel
    "    bl    voxel_march_column_odd",
    "    voxel_column_end",
    "    ldrb  r0, [r5]", // the even pixel's y-buffer (45:)
    "    cmp   r9, r0",
    "    strblo r9, [r5]", // the pair's top: the higher of its two pixels' terrain
    "    bls   21b",
    // rows the even pixel's terrain filled in both pixels of the pair,
    // above this pixel's terrain: this pixel back to the sky
    "    voxel_sky_args",
    "    bl    voxel_sky_odd",
    "    ldr   lr, [sp, #48]",
    "    b     21b",
    ".endif",
    // The packed positions (r0 near, r1 far) past the r9 (1 to 6) leading
    // bands hidden in every column, 16 steps each, by the steps in their
    // heads (r4: band 0's): bands r9 - 1 down to 0 of a ladder entered
    // part way, then back (40:). Takes r5, r9.
    "41:",
    "    rsb   r9, r9, #6",
    "    add   pc, pc, r9, lsl #3", // two instructions a band
    "    nop",
    "    .irp  band, 5, 4, 3, 2, 1, 0",
    "    ldr   r5, [r4, #128 * \\band]",
    "    .if \\band < 3",
    "    add   r0, r0, r5, lsl #4",
    "    .else",
    "    add   r1, r1, r5, lsl #4",
    "    .endif",
    "    .endr",
    "    b     40b",
    ".size voxel_march_frame, . - voxel_march_frame",
    ".global voxel_sky_rows",
    ".type voxel_sky_rows,%function",
    "voxel_sky_rows:", // r0 page, r1 sky, r2 index of row 0, r3 rows
    "    cmp   r3, #0",
    "    bxeq  lr",
    "    push  {{r4-r11, lr}}",
    "11:",
    "    ldrb  r4, [r1, r2]",
    "    add   r2, r2, #1",
    "    bic   r2, r2, #0x200", // & 511 (the index was below 512)
    "    orr   r4, r4, r4, lsl #8",
    "    orr   r4, r4, r4, lsl #16",
    "    mov   r5, r4",
    "    mov   r6, r4",
    "    mov   r7, r4",
    "    mov   r8, r4",
    "    mov   r9, r4",
    "    mov   r10, r4",
    "    mov   r11, r4",
    "    mov   r12, r4",
    "    mov   lr, r4",
    "    .rept 6", // 60 words: one row of 240 bytes
    "    stmia r0!, {{r4-r12, lr}}",
    "    .endr",
    "    subs  r3, r3, #1",
    "    bne   11b",
    "    pop   {{r4-r11, lr}}",
    "    bx    lr",
    ".size voxel_sky_rows, . - voxel_sky_rows",
    // The sky in r3 pixel pairs from r0 (both pixels, byte stores, a row of
    // 240 bytes apart): pair k gets sky[(r2 + k) & 511], r1 the sky table
    // (r2 below 512). Takes r7, keeps r12. Called from `voxel_march_frame`
    // only.
    ".global voxel_sky_pairs",
    ".type voxel_sky_pairs,%function",
    "voxel_sky_pairs:", // r0 pair address, r1 sky, r2 index of its first row, r3 rows
    "    cmp   r3, #0",
    "    bxeq  lr",
    "16:",
    "    ldrb  r7, [r1, r2]", // (r12, the job, is the caller's)
    "    add   r2, r2, #1",
    "    bic   r2, r2, #0x200", // & 511 (the index was below 512)
    "    strb  r7, [r0], #240", // both pixels of the pair
    "    subs  r3, r3, #1",
    "    bne   16b",
    "    bx    lr",
    ".size voxel_sky_pairs, . - voxel_sky_pairs",
    ".if {pixels}",
    // The sky in the odd pixel of r3 pixel pairs from r0 (halfword aligned),
    // keeping the even ones: a byte load, orr and a halfword store (a byte
    // store to VRAM would fill both pixels). Called from `voxel_march_frame`
    // only.
    ".global voxel_sky_odd",
    ".type voxel_sky_odd,%function",
    "voxel_sky_odd:", // r0 pair address, r1 sky, r2 index of its first row, r3 rows
    "    cmp   r3, #0",
    "    bxeq  lr",
    "    push  {{r4, r5}}",
    "15:",
    "    ldrb  r4, [r1, r2]",
    "    add   r2, r2, #1",
    "    bic   r2, r2, #0x200", // & 511 (the index was below 512)
    "    ldrb  r5, [r0]",       // the even pixel
    "    orr   r5, r5, r4, lsl #8",
    "    strh  r5, [r0], #240",
    "    subs  r3, r3, #1",
    "    bne   15b",
    "    pop   {{r4, r5}}",
    "    bx    lr",
    ".size voxel_sky_odd, . - voxel_sky_odd",
    ".endif",
    ".thumb",
    pixels = const PIXEL_COLUMNS,
    far_ring = const crate::cache::FAR_RING_OFFSET,
);

/// 1 with the `pixel-columns` feature (240-column mode), else 0: the asm
/// assembles the odd pixel's march and sky only with it.
const PIXEL_COLUMNS: u32 = cfg!(feature = "pixel-columns") as u32;

/// The march keeps its rows less one (16.16): the slice table's `a` less
/// one row, the y-buffer less one. A row at or above row 0 is then
/// negative, so its sign alone tells a draw whether it needs the slow path
/// (a `cmp` in the pairs' march, the `movs` of its shift in the odd
/// pixels').
const ROW_BIAS: i32 = 1 << 16;

/// The march's table: its slices built again, with the near heads' bottom
/// heights, only in a frame whose [`SLICE_KEY`] differs from the last one's;
/// the heads' other numbers and the job every frame (the steps every
/// column).
#[unsafe(link_section = ".iwram.voxel_slices")]
static mut MARCH_TABLE: MarchTable = MarchTable {
    slices: [0; 2 * SLICES],
    heads: [const { BandHead { step: 0, word: 0, skip_first: 0, bottom: [0; 4], pad: [0; 25] } }; BANDS],
    job: FrameJob {
        cos: 0,
        sin: 0,
        x: 0,
        y: 0,
        offsets_end: 0,
        hidden_bands: 0,
        pixels: 0,
        tops_end: 0,
        page_end: 0,
        near: 0,
        near_end: 0,
        first_slice: 0,
        count: 0,
        sky: 0,
        sky_row0: 0,
        samples: 0,
        skipped: 0,
        repainted: 0,
    },
};

/// The skip rows of the last frame (`render::skip_rows`, padded as it pads
/// them), the tops they are for, and whether they hold for [`MARCH_TABLE`]'s
/// slices (`.data`, EWRAM).
static mut SKIP_ROWS: SkipRows = SkipRows { rows: [i32::MIN; 16], tops: [0; 16], valid: false };

/// [`SKIP_ROWS`]' type.
struct SkipRows {
    rows: [i32; 16],
    tops: [i32; 16],
    valid: bool,
}

/// The bottom chain's heights as `bottom::heights` gives them, before they
/// go to the near bands' heads (`.bss`, EWRAM: a local array would be
/// zeroed by a call into ROM).
static mut BOTTOM: [u32; SLICES_NEAR / 4] = [0; SLICES_NEAR / 4];

/// What [`MARCH_TABLE`]'s slices hold the rows of (EWRAM: read once a frame): the
/// horizon row, the eye's height (world px) and the height scale
/// ([`slice_rows`](crate::render::slice_rows)'s inputs); `None` before the
/// first frame.
static mut SLICE_KEY: Option<[i32; 3]> = None;

/// The height scale's reciprocals for the bottom chain's heights
/// ([`crate::bottom::reciprocals`]) and the scale they are for (0, no
/// height scale, before the first frame): `.bss`, EWRAM, read only when the
/// slice table is built again.
static mut RECIPROCALS: ([u32; SLICES_NEAR], i32) = ([0; SLICES_NEAR], 0);

/// 1 while a march, or [`prepare`] outside one, owns the march's statics
/// ([`MARCH_TABLE`], [`SLICE_KEY`], [`SKIP_ROWS`], [`RECIPROCALS`],
/// [`SCRATCH_TOPS`]); 0 otherwise. `.bss`, EWRAM.
static mut MARCHING: u8 = 0;

/// Takes the march's statics ([`MARCHING`]): false if they are taken, by a
/// render that an interrupt handler's render (or `Landscape::new`)
/// interrupted, which must then leave them alone. One `swpb`: atomic
/// against interrupts. ARM code (`swpb` has no Thumb form), in ROM.
#[instruction_set(arm::a32)]
#[inline(never)]
pub(crate) fn enter() -> bool {
    let old: u32;
    // SAFETY: a byte swap of MARCHING, a static byte.
    unsafe {
        core::arch::asm!(
            "swpb {old}, {one}, [{flag}]",
            old = out(reg) old,
            one = in(reg) 1u32,
            flag = in(reg) &raw mut MARCHING,
            options(nostack),
        )
    };
    old == 0
}

/// Gives the march's statics back after [`enter`] returned true.
#[inline(always)]
pub(crate) fn leave() {
    // The march's stores to its statics before the flag's: an empty asm
    // block that may touch memory is a compiler barrier (`compiler_fence`
    // becomes a call of `__sync_synchronize` on this target, which it lacks).
    // SAFETY: no instruction.
    unsafe { core::arch::asm!("", options(nostack, preserves_flags)) };
    // SAFETY: a volatile byte store to MARCHING, which only `enter` and this
    // touch; the caller holds it.
    unsafe { (&raw mut MARCHING).write_volatile(0) };
}

/// Makes [`RECIPROCALS`] those of height scale `scale`, unless they are:
/// ROM code, as it divides (once a scale); the render's dispatch calls it
/// before [`columns`], both inside [`enter`] and [`leave`].
#[inline(never)]
pub(crate) fn prepare(scale: i32) {
    // SAFETY: only this function writes the reciprocals, and `columns` reads
    // them after it; both run only inside `enter` and `leave` (the march's
    // statics taken: nothing else, not even an interrupt handler's render,
    // touches them meanwhile).
    #[allow(clippy::deref_addrof)] // the raw pointer is the sanctioned way to a `static mut`
    let reciprocals = unsafe { &mut *(&raw mut RECIPROCALS) };
    if reciprocals.1 != scale {
        *reciprocals = (crate::bottom::reciprocals(scale), scale);
    }
}

/// The column loop of the reference renderer ([`crate::render`]) with the
/// texels read from the texel cache (any tile size; the boundary view's
/// marks are the cache's): the frame's tables here, the columns in
/// [`voxel_march_frame`].
#[instruction_set(arm::a32)]
#[unsafe(link_section = ".iwram.render")]
#[inline(never)]
pub(crate) fn columns<const N: usize, T: Target>(
    scene: &Scene<'_, N>,
    cache: &crate::cache::TexelCache,
    camera: &Camera,
    options: Options,
    target: &mut T,
) -> Stats {
    let horizon = horizon(camera.pitch);
    let eye = camera.z >> 8;
    // SAFETY: only this function touches the table, inside `enter` and
    // `leave` (the march's statics taken, `render`'s dispatch).
    #[allow(clippy::deref_addrof)] // the raw pointer is the sanctioned way to a `static mut`
    let table = unsafe { &mut *(&raw mut MARCH_TABLE) };
    // The table is kept from the last frame when its inputs are the same
    // (a level flight at one pitch: 72% of the scripted flight's frames).
    let key = [horizon, eye, scene.shape.height_scale];
    // SAFETY: as the table's.
    let kept = unsafe { SLICE_KEY };
    // Element by element: `!=` on arrays calls `memcmp`, in ROM.
    if !matches!(kept, Some(k) if k[0] == key[0] && k[1] == key[1] && k[2] == key[2]) {
        slice_table(&mut table.slices, horizon, eye, scene.shape.height_scale, ROW_BIAS);
        // SAFETY: only `prepare` (by the render's dispatch, before this
        // function, for this frame's scale) writes the reciprocals.
        #[allow(clippy::deref_addrof)] // the raw pointer is the sanctioned way to a `static mut`
        let reciprocals = unsafe { &*(&raw const RECIPROCALS) };
        debug_assert!(reciprocals.1 == scene.shape.height_scale, "march::prepare not called for this scale");
        // The bottom chain's heights: the same key as the table's.
        // SAFETY: as the table's (only this function touches the scratch).
        #[allow(clippy::deref_addrof)] // the raw pointer is the sanctioned way to a `static mut`
        let bottom = unsafe { &mut *(&raw mut BOTTOM) };
        crate::bottom::heights(&table.slices, ROW_BIAS, &reciprocals.0, bottom);
        let mut w = 0;
        while w < SLICES_NEAR / 4 {
            table.heads[w / 4].bottom[w % 4] = bottom[w];
            w += 1;
        }
        // SAFETY: as the table's.
        unsafe { SLICE_KEY = Some(key) };
        // The skip rows come from the slices: none kept.
        // SAFETY: as the table's (only this function touches the rows).
        unsafe { SKIP_ROWS.valid = false };
    }
    let slices = &table.slices as *const [i32; 2 * SLICES] as usize;
    let job = &mut table.job;
    job.cos = trig::cos(camera.heading);
    job.sin = trig::sin(camera.heading);
    job.near = cache.rings() as usize as u32;
    job.x = camera.x;
    job.y = camera.y;
    // The groups' rows from the slice table (built this frame or kept from
    // the last one: the same numbers as `skip_rows`), each computed again
    // only if the table or its group's top changed (the far groups' top is
    // the scene's, the near ones' that of the tiles round their ground: in
    // a level flight most frames compute none).
    let tops = group_tops(scene, camera);
    // SAFETY: as the table's (only this function touches the rows).
    #[allow(clippy::deref_addrof)] // the raw pointer is the sanctioned way to a `static mut`
    let kept_rows = unsafe { &mut *(&raw mut SKIP_ROWS) };
    let mut g = 0;
    while g < SKIP_GROUPS {
        if !kept_rows.valid || kept_rows.tops[g] != tops[g] {
            kept_rows.rows[g] = skip_row(&table.slices, ROW_BIAS, scene.shape.height_scale, tops[g], g);
            kept_rows.tops[g] = tops[g];
        }
        g += 1;
    }
    kept_rows.valid = true;
    let skip = kept_rows.rows;
    let mut b = 0;
    while b < BANDS {
        let head = &mut table.heads[b];
        let last = b + 1 == NEAR_BANDS || b + 1 == BANDS;
        head.word = BandHead::word(FOG_BASE[(b * BAND_LEN) & 127], skip[2 * b + 1], last);
        head.skip_first = skip[2 * b];
        b += 1;
    }
    job.hidden_bands = hidden_bands(&skip);
    let hidden = job.hidden_bands as usize;
    job.first_slice = (slices + hidden * BAND_LEN * 8) as u32;
    job.near_end = (slices + NEAR_BANDS * BAND_LEN * 8) as u32;
    // The sky first, the whole page, unless the page remembers its last
    // frame's sky: at this horizon each column repaints the rows that were
    // terrain and are sky now; at another (the pitch moved) the top rows
    // down to where the last frame's lowest top moves are filled
    // (`PageSky::fill_rows`) and each column repaints below them what its
    // terrain does not cover. The terrain's spans draw over it. (Bounding
    // the fill by the first slice's ground line saved nothing on the
    // scripted flight: the line is almost always below the screen.)
    let page = target.vram_column(0).unwrap_or(0) as u32;
    let (held, filled) = match target.page_sky() {
        Some(m) if m.holds(horizon) => (true, 0),
        Some(m) => (false, m.fill_rows(horizon)),
        // No memory: the whole page is filled with the sky.
        None => (false, HEIGHT as u32),
    };
    sky_rows(target, horizon, filled);
    // The tops the march writes: taken after the sky's rows, `target`'s last
    // use before the march, so that nothing borrows it while the pointer
    // lives.
    let tops = match target.page_sky() {
        Some(m) if held => m.begin(horizon) as *mut [u8; 128],
        Some(m) => m.begin_filled(horizon, filled) as *mut [u8; 128],
        // No memory: the tops go to a scratch array nobody else reads, all
        // 160 first: no column repaints.
        None => {
            let words = &raw mut SCRATCH_TOPS as *mut u32;
            let mut w = 0;
            let words_count = core::hint::black_box(128 / 4); // not unrolled (IWRAM)
            while w < words_count {
                // SAFETY: word w of the 128 aligned bytes; only this function,
                // inside `enter` and `leave`, uses them. (Volatile: a plain loop
                // may become a `memset` call, in ROM.)
                unsafe { words.add(w).write_volatile(u32::from_ne_bytes([HEIGHT as u8; 4])) };
                w += 1;
            }
            words as *mut [u8; 128]
        }
    };
    job.sky = SKY.as_ptr() as usize as u32;
    job.sky_row0 = sky_index(0, horizon);
    let count = options.columns.count() as u32;
    job.count = count;
    job.pixels = (options.columns != crate::render::Columns::Pairs) as u32;
    let pairs = count >> job.pixels;
    job.offsets_end = (options.columns.offsets() as usize + 4 * count as usize) as u32;
    job.tops_end = tops as usize as u32 + pairs;
    job.page_end = page + 2 * pairs;
    // SAFETY: the table's job describes the cache's two rings (every index
    // the march makes is masked inside them), the column offsets, 128 tops
    // (a `PageSky`'s, borrowed for the frame, or the scratch ones), the sky
    // table and a mode 4 page (`Target`'s contract); the pointer is the
    // whole table's, whose slices and heads the march reads and writes.
    unsafe { voxel_march_frame(&raw mut *table) };
    let job = &table.job;
    if let Some(m) = target.page_sky() {
        m.finish();
    }
    Stats {
        samples: job.samples,
        skipped: job.skipped,
        passed_groups: passed_groups(job.skipped, job.hidden_bands, job.count),
        sky_rows_filled: filled,
        repainted_rows: job.repainted,
        ..Stats::default()
    }
}

/// The tops of a frame whose target keeps no [`crate::PageSky`] (`.bss`:
/// EWRAM on the GBA, sparing IWRAM; a byte a column; word aligned, so that
/// filling it takes word stores).
static mut SCRATCH_TOPS: Tops = Tops([0; 128]);

/// 128 column tops, word aligned.
#[repr(C, align(4))]
struct Tops([u8; 128]);

/// [`crate::render::put_in_pair`], where it always was on the GBA.
pub use crate::render::put_in_pair;

/// Fills the whole page of `target` with the sky of a camera pitched `pitch`
/// (a row at a time, ten words a store), as a frame of the fast path begins
/// unless its page's [`crate::PageSky`] holds the sky at its horizon; nothing
/// if the target is not mode 4 VRAM
/// ([`Target::vram_column`]). Public so that a benchmark can time it alone.
///
/// The ROM times it at boot with its own mode 4 target:
/// `sky(&mut VramTarget::new(page), 0)`.
#[instruction_set(arm::a32)]
#[inline(always)]
pub fn sky<T: Target>(target: &mut T, pitch: i16) {
    sky_rows(target, horizon(pitch), HEIGHT as u32);
}

/// Fills rows `0..rows` (at most 160) of the page of `target` with the sky
/// of a horizon at screen row `horizon`; nothing if the target is not mode 4
/// VRAM.
#[instruction_set(arm::a32)]
#[inline(always)]
fn sky_rows<T: Target>(target: &mut T, horizon: i32, rows: u32) {
    if let Some(page) = target.vram_column(0) {
        let rows = if rows > HEIGHT as u32 { HEIGHT as u32 } else { rows };
        // SAFETY: `page` is a mode 4 page (`Target::vram_column`'s
        // contract): word aligned, 160 rows of 240 bytes, of which `rows`;
        // `SKY` has 512 entries.
        unsafe { voxel_sky_rows(page as *mut u32, SKY.as_ptr(), sky_index(0, horizon), rows) };
    }
}
