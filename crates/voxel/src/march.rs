//! The GBA's fast path: the frame's column loop, each column marched in
//! hand-written ARM code, in IWRAM. It does exactly what the reference loop in [`crate::render`]
//! does: the same positions, texels, projection and colours, so the frames
//! are equal pixel for pixel (the emulator tests check it). Only built for
//! the GBA.
//!
//! Texels come from the texel cache ([`crate::cache`]): per sample, step the
//! position (24.8 world px); the ring offset of its texel is two masks and an
//! add (near ring: `((y >> 10) & 127) << 8 | ((x >> 10) & 127) << 1`, far ring:
//! `((y >> 11) & 255) << 9 | ((x >> 11) & 255) << 1`); one halfword load
//! gives height | colour << 8; then `y = (a[s] + h * b[s]) >> 16` (one
//! multiply-accumulate) with the per-frame slice tables of
//! `render::slice_rows`; if `y` is above the y-buffer, fill the rows in
//! between with byte stores (each store writes a two-pixel column pair). In
//! the boundary view, a drawn sample whose ray crossed a tile border (within
//! the band's mark distance back) or that lies within the band's mark width of
//! one has the top two rows of its span drawn in the boundary colour
//! (`render::MARK_BACK`, `MARK_WIDTH`, `MARK_ROWS`).
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
//! down to its own; any other frame fills the whole page with the sky first
//! ([`sky`]).
//!
//! Each band is two groups of 8 slices; before a group, one compare with its
//! skip row (`render::skip_rows`, per frame) passes over it when not even
//! the bank's highest texel could show in it: the position and the slice
//! pointer step 8 at once, no texel read.

use crate::cache::NEAR_BANDS;
use crate::projection::{BAND_LEN, BANDS};
use crate::projection::{BAND_STEP, SLICES, Z0};
use crate::render::{
    Camera, Columns, FOG_BASE, HEIGHT, HORIZON, MARK_BACK, MARK_WIDTH, Options, SKIP_GROUPS, SKIP_LEN, SKY, Scene,
    Stats, Target, skip_rows, sky_index, slice_rows,
};
use crate::trig;

/// What the march of one column needs and returns (offsets used by the asm).
#[repr(C)]
pub struct ColumnJob {
    /// 0, 4: position before the first sample, world pixels in 24.8.
    pub px: u32,
    pub py: u32,
    /// 8: the near ring (128 x 128 texels).
    pub near: u32,
    /// 12: the far ring (256 x 256 entries).
    pub far: u32,
    /// 16: per slice, `a` and `b` (i32 each, `render::slice_rows`).
    pub slices: u32,
    /// 20: VRAM address of the column's pixel pair on row 0.
    pub vram: u32,
    /// 24 (out): the y-buffer: rows 0..ybuf are still open (sky).
    pub ybuf: u32,
    /// 28 (out): samples taken.
    pub samples: u32,
    /// 32 (out): slices passed over (whole groups, `render::skip_rows`).
    pub skipped: u32,
    /// 36: the bands, one record each (the march loads a record at once).
    pub bands: [BandJob; BANDS],
}

/// One band of a [`ColumnJob`] (28 bytes; offsets used by the asm).
#[repr(C)]
pub struct BandJob {
    /// 0, 4: position step, (x, y), 24.8.
    pub step: [u32; 2],
    /// 8: palette index of colour 0 for the band's fog level; bit 31 set:
    /// mark tile boundaries.
    pub fog: u32,
    /// 12, 16: the skip rows of the band's two groups of `SKIP_LEN` slices
    /// (`render::skip_rows`): the march passes over a group whose row is at
    /// or below the y-buffer.
    pub skip: [i32; 2],
    /// 20: the boundary marks: how far back along the ray a crossed tile
    /// border marks a sample, as a shift of the step (`render::MARK_BACK`,
    /// bits 0..8), and the distance from a border that marks one, world px
    /// (`render::MARK_WIDTH`, bits 16..).
    pub marks: u32,
    /// 24: the tile bits of a 24.8 world coordinate (`!((tile px << 8) - 1)`),
    /// beside the marks so that one load takes both.
    pub border_mask: u32,
}

const _: () = {
    assert!(BANDS == 6 && BAND_LEN == 16 && NEAR_BANDS == 3, "the asm loops 3 near and 3 far bands of 16 slices");
    assert!(SKIP_LEN == 8 && SKIP_GROUPS == 2 * BANDS, "the asm tests two groups of 8 slices a band");
    assert!(crate::render::TEXEL_SHIFT == 2, "the asm's shifts: 4 world px a texel");
    assert!(crate::cache::NEAR == 128 && crate::cache::FAR == 256, "the asm's ring masks");
    assert!(core::mem::offset_of!(ColumnJob, near) == 8);
    assert!(core::mem::offset_of!(ColumnJob, far) == 12);
    assert!(core::mem::offset_of!(ColumnJob, slices) == 16);
    assert!(core::mem::offset_of!(ColumnJob, vram) == 20);
    assert!(core::mem::offset_of!(ColumnJob, ybuf) == 24);
    assert!(core::mem::offset_of!(ColumnJob, samples) == 28);
    assert!(core::mem::offset_of!(ColumnJob, skipped) == 32);
    assert!(core::mem::offset_of!(ColumnJob, bands) == 36);
    assert!(core::mem::size_of::<BandJob>() == 28);
    assert!(core::mem::offset_of!(BandJob, fog) == 8);
    assert!(core::mem::offset_of!(BandJob, skip) == 12);
    assert!(core::mem::offset_of!(BandJob, marks) == 20);
    assert!(core::mem::offset_of!(BandJob, border_mask) == 24);
    assert!(crate::render::MARK_ROWS == 2, "the asm marks two rows");
    assert!(crate::palette::ui::BOUNDARY == 4, "the asm marks boundaries with entry 4");
};

unsafe extern "C" {
    /// Marches one column. `job` must describe valid memory: the texel
    /// cache's two rings (every offset the march makes is masked inside
    /// them), 96 slice entries, and a mode 4 page column.
    pub fn voxel_march_column(job: *mut ColumnJob);
    /// [`voxel_march_column`] for the odd pixel of a pair (240-column
    /// mode): `job.vram` is the pair's address, and every store keeps the
    /// pair's even byte (a byte load and a halfword store), so the page must
    /// be readable by byte and writable by halfword.
    #[cfg(feature = "pixel-columns")]
    pub fn voxel_march_column_odd(job: *mut ColumnJob);
    /// Fills rows `0..rows` of the mode 4 page at `page` with the sky: row
    /// `y` in `sky[(start + y) & 511]`, with word stores, ten words at a time.
    /// `page` must be word aligned with `rows * 240` writable bytes, and
    /// `sky` must point to 512 readable bytes.
    pub fn voxel_sky_rows(page: *mut u32, sky: *const u8, start: u32, rows: u32);
    /// Puts the sky in `rows` pixel pairs from `pair` (row `y`'s address
    /// plus 240 bytes a row), both pixels (byte stores): pair `k` gets
    /// `sky[(start + k) & 511]`. `pair` must be the address of a pair of a
    /// mode 4 page with `rows` rows below it writable by byte, and `sky` must
    /// point to 512 readable bytes.
    pub fn voxel_sky_pairs(pair: *mut u8, sky: *const u8, start: u32, rows: u32);
    /// Puts the sky in the odd pixel of `rows` pixel pairs from `pair`, a
    /// row apart (240 bytes), keeping the even pixels: pair `k` gets
    /// `sky[(start + k) & 511]`, by byte load and halfword store (a byte store to
    /// VRAM would fill both pixels). `pair` must be halfword aligned with
    /// `rows` pairs readable by byte and writable by halfword, and `sky` must point
    /// to 512 readable bytes.
    #[cfg(feature = "pixel-columns")]
    pub fn voxel_sky_odd(pair: *mut u16, sky: *const u8, start: u32, rows: u32);
}

// One sample of band `\lod` (0: near ring, texel = x >> 10; 1: far ring,
// entry = x >> 11). r0, r1: position; r2, r3: step; r4: ring; r5: column
// mask; r10: row mask; r8: slice table; r9: y-buffer.
core::arch::global_asm!(
    ".macro voxel_sample lod",
    "    add   r0, r0, r2",
    "    add   r1, r1, r3",
    "    .if \\lod == 0",
    "    and   r7, r5, r0, lsr #9", // column * 2: ((x >> 10) & 127) << 1
    "    .else",
    "    and   r7, r5, r0, lsr #10", // column * 2: ((x >> 11) & 255) << 1
    "    .endif",
    "    and   r6, r10, r1, lsr #2", // row * row bytes
    "    add   r6, r6, r7",
    "    ldrh  r7, [r4, r6]", // texel: height | colour << 8
    "    and   r6, r7, #255",
    "    ldmia r8!, {{r11, r12}}", // a, b
    "    mla   r11, r12, r6, r11", // a + h * b = y << 16
    "    cmp   r9, r11, asr #16",
    "    blgt  4f", // above the y-buffer: draw
    ".endm",
    // One band of `\lod`: its set-up, then two groups of 8 samples, each
    // passed over (12:) when its skip row is at or below the y-buffer.
    ".macro voxel_band lod",
    "    ldr   r12, [sp, #12]",
    "    ldmia r12!, {{r2, r3, r6, r7, r11}}", // step, fog base, the two groups' skip rows
    "    add   r12, r12, #8",                  // past the marks and the border mask: the next band's record
    "    str   r12, [sp, #12]",
    "    str   r6, [sp, #8]",
    "    str   r11, [sp, #20]",
    "    cmp   r9, r7",
    "    blle  12f", // hidden whatever its texels: pass over it (the flags stay)
    "    ble   13f",
    "    .rept 8",
    "    voxel_sample \\lod",
    "    .endr",
    "13:",
    "    ldr   r11, [sp, #20]",
    "    cmp   r9, r11",
    "    blle  12f",
    "    ble   14f",
    "    .rept 8",
    "    voxel_sample \\lod",
    "    .endr",
    "14:",
    ".endm",
    // A column's march (`odd` 1: the odd pixel of a pair in 240-column mode,
    // whose stores keep the pair's even byte: a byte load of it, orr, a
    // halfword store; `vram` is the pair's address).
    ".macro voxel_march name, odd",
    ".global \\name",
    ".type \\name,%function",
    "\\name:",
    "    push  {{r4-r11, lr}}",
    // [sp] job, [sp + 4] vram column, [sp + 8] band's fog base (the draw
    // loads both at once), [sp + 12] the band's record, [sp + 16] colour
    // (marks), [sp + 20] the band's
    // second skip row, [sp + 24] slices passed over, [sp + 28] and [sp + 32]
    // the slice pointer at the end of the near and of the far bands
    "    sub   sp, sp, #36",
    "    str   r0, [sp]",
    "    ldr   r6, [r0, #20]",
    "    str   r6, [sp, #4]", // vram column
    "    add   r6, r0, #36",
    "    str   r6, [sp, #12]", // the first band's record
    "    ldr   r8, [r0, #16]", // slices
    "    add   r6, r8, #384",  // 48 near slices of 8 bytes
    "    str   r6, [sp, #28]",
    "    add   r6, r8, #768", // and 48 far ones
    "    str   r6, [sp, #32]",
    "    ldr   r4, [r0, #8]", // near ring
    "    mov   r5, #0xFE",    // near column mask
    "    mov   r10, #0x7F00", // near row mask (128 texels of 2 bytes a row)
    "    ldr   r1, [r0, #4]", // py
    "    ldr   r0, [r0, #0]", // px
    "    mov   r9, #160",     // ybuf
    "    mov   r6, #0",
    "    str   r6, [sp, #24]",
    "1:", // a near band: its record, then two groups of 8 samples unrolled
    "    voxel_band 0",
    "    ldr   r6, [sp, #28]",
    "    cmp   r8, r6",
    "    blo   1b",
    "    ldr   r4, [sp]",
    "    ldr   r4, [r4, #12]", // far ring
    "    mov   r5, #0x1FC",
    "    orr   r5, r5, #2", // far column mask 0x1FE
    "    mov   r10, #0x1FC00",
    "    orr   r10, r10, #0x200", // far row mask 0x1FE00 (256 entries of 2 bytes a row)
    "2:",                         // a far band
    "    voxel_band 1",
    "    ldr   r6, [sp, #32]",
    "    cmp   r8, r6",
    "    blo   2b",
    "5:", // done
    "    ldr   r0, [sp]",
    "    ldr   r6, [r0, #16]",
    "    sub   r6, r8, r6",
    "    mov   r6, r6, lsr #3", // slices marched
    "    ldr   r7, [sp, #24]",
    "    sub   r6, r6, r7", // less those passed over: samples
    "    str   r9, [r0, #24]",
    "    str   r6, [r0, #28]",
    "    str   r7, [r0, #32]",
    "    add   sp, sp, #36",
    "    pop   {{r4-r11, lr}}",
    "    bx    lr",
    "12:", // pass over a group of 8 slices (keeps the flags)
    "    add   r0, r0, r2, lsl #3",
    "    add   r1, r1, r3, lsl #3",
    "    add   r8, r8, #64",
    "    ldr   r6, [sp, #24]",
    "    add   r6, r6, #8",
    "    str   r6, [sp, #24]",
    "    bx    lr",
    "4:", // draw rows top..ybuf; returns to the next sample through lr
    "    movs  r11, r11, asr #16",
    "    movmi r11, #0",              // top
    "    ldmib sp, {{r6, r12}}",      // vram column, fog base of the band
    "    adds  r12, r12, r7, lsr #8", // colour (negative: bit 31, mark tile boundaries)
    "    bmi   9f",                   // mark tile boundaries: check this sample
    "7:",
    "    rsb   r7, r11, r11, lsl #4",
    "    add   r7, r6, r7, lsl #4", // address of row top
    "    sub   r6, r9, r11",        // rows to fill
    "    mov   r9, r11",
    "6:",
    "    .if \\odd",
    "    ldrb  r11, [r7]",             // the pair's even pixel
    "    orr   r11, r11, r12, lsl #8", // and this one (strh drops the colour's bit 31)
    "    strh  r11, [r7], #240",
    "    subs  r6, r6, #1",
    "    ldrbgt r11, [r7]",
    "    orrgt r11, r11, r12, lsl #8",
    "    strhgt r11, [r7], #240",
    "    subsgt r6, r6, #1",
    "    .else",
    "    strb  r12, [r7], #240",
    "    subs  r6, r6, #2",
    "    strbge r12, [r7], #240",
    "    .endif",
    "    bgt   6b",
    "8:",
    "    cmp   r9, #0",
    "    bxne  lr",
    "    b     5b",             // column full: done (nothing was pushed for the draw)
    "9:", // boundary view: near a tile border, or crossed one within the band's mark distance back?
    "    str   r12, [sp, #16]", // colour
    "    ldr   r6, [sp, #12]",
    // the band's marks: steps back (a shift) | width << 16, and the border
    // mask: the tile bits of a 24.8 coordinate (its record's last words)
    "    ldmdb r6, {{r7, r12}}",
    "    sub   r6, r0, r2, lsl r7",
    "    eor   r6, r6, r0",
    "    tst   r6, r12", // x crossed a border?
    "    subeq r6, r1, r3, lsl r7",
    "    eoreq r6, r6, r1",
    "    tsteq r6, r12", // y crossed a border?
    "    bne   10f",
    "    bic   r6, r0, r12",
    "    cmp   r6, r7, lsr #8", // x within the width of a border? (24.8)
    "    bichs r6, r1, r12",
    "    cmphs r6, r7, lsr #8", // y?
    "    ldr   r12, [sp, #16]",
    "    ldr   r6, [sp, #4]", // vram column
    "    bhs   7b",           // no: a plain span
    "    b     17f",          // near a border: marked (colour and column loaded)
    "10:",                    // crossed a border: marked
    "    ldr   r12, [sp, #16]",
    "    ldr   r6, [sp, #4]",
    "17:", // the span's top two rows in ui::BOUNDARY, the rest in the colour
    "    rsb   r7, r11, r11, lsl #4",
    "    add   r7, r6, r7, lsl #4", // address of row top
    "    sub   r6, r9, r11",        // rows to fill
    "    mov   r9, r11",
    "    .if \\odd",
    "    ldrb  r11, [r7]",
    "    orr   r11, r11, #0x400", // ui::BOUNDARY in the odd byte
    "    strh  r11, [r7], #240",
    "    subs  r6, r6, #1",
    "    ldrbgt r11, [r7]",
    "    orrgt r11, r11, #0x400",
    "    strhgt r11, [r7], #240",
    "    subsgt r6, r6, #1",
    "    .else",
    "    mov   r11, #4",
    "    strb  r11, [r7], #240",
    "    subs  r6, r6, #1",
    "    strbgt r11, [r7], #240",
    "    subsgt r6, r6, #1",
    "    .endif",
    "    bgt   6b",
    "    b     8b",
    ".size \\name, . - \\name",
    ".endm",
    ".section .iwram.voxel_march,\"ax\",%progbits",
    ".arm",
    ".align 2",
    "voxel_march voxel_march_column, 0",
    ".if {pixels}", // the `pixel-columns` feature
    "voxel_march voxel_march_column_odd, 1",
    ".endif",
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
    ".global voxel_sky_pairs",
    ".type voxel_sky_pairs,%function",
    "voxel_sky_pairs:", // r0 pair address, r1 sky, r2 index of its first row, r3 rows
    "    cmp   r3, #0",
    "    bxeq  lr",
    "16:",
    "    ldrb  r12, [r1, r2]",
    "    add   r2, r2, #1",
    "    bic   r2, r2, #0x200", // & 511 (the index was below 512)
    "    strb  r12, [r0], #240", // both pixels of the pair
    "    subs  r3, r3, #1",
    "    bne   16b",
    "    bx    lr",
    ".size voxel_sky_pairs, . - voxel_sky_pairs",
    ".if {pixels}",
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
);

/// 1 with the `pixel-columns` feature (240-column mode), else 0: the asm
/// assembles the odd pixel's march and sky only with it.
const PIXEL_COLUMNS: u32 = cfg!(feature = "pixel-columns") as u32;

/// Per slice: `a` and `b` of [`slice_rows`], rebuilt each frame.
#[unsafe(link_section = ".iwram.voxel_slices")]
static mut SLICE_TABLE: [i32; 2 * SLICES] = [0; 2 * SLICES];

/// The march's parameters, rewritten for every column.
#[unsafe(link_section = ".iwram.voxel_job")]
static mut JOB: ColumnJob = ColumnJob {
    px: 0,
    py: 0,
    near: 0,
    far: 0,
    slices: 0,
    vram: 0,
    ybuf: 0,
    samples: 0,
    skipped: 0,
    bands: [const { BandJob { step: [0; 2], fog: 0, skip: [0; 2], marks: 0, border_mask: 0 } }; BANDS],
};

/// The column loop of the reference renderer ([`crate::render`]) with the
/// texels read from the texel cache (any tile size, with or without
/// boundary marks), each column marched by [`voxel_march_column`].
#[instruction_set(arm::a32)]
#[inline(always)]
pub(crate) fn columns<const N: usize, T: Target>(
    scene: &Scene<'_, N>,
    cache: &crate::cache::TexelCache,
    camera: &Camera,
    options: Options,
    target: &mut T,
) -> Stats {
    let cos = trig::cos(camera.heading);
    let sin = trig::sin(camera.heading);
    let horizon = HORIZON + camera.pitch as i32;
    let eye = camera.z >> 8;
    let table = &raw mut SLICE_TABLE as usize;
    let mut s = 0;
    while s < SLICES {
        let (a, b) = slice_rows(s, horizon, eye, scene.height_scale);
        // SAFETY: s < SLICES: inside the table; only this function, on
        // the one GBA thread, touches it.
        unsafe {
            *((table + 8 * s) as *mut i32) = a;
            *((table + 8 * s + 4) as *mut i32) = b;
        }
        s += 1;
    }
    // SAFETY: only this function, on the GBA's one thread, uses JOB. (A
    // static: building the job on the stack would call `__aeabi_memclr`
    // in ROM to zero it.)
    #[allow(clippy::deref_addrof)] // the raw pointer is the sanctioned way to a `static mut`
    let job = unsafe { &mut *(&raw mut JOB) };
    job.near = cache.near() as *const [u16; crate::cache::NEAR * crate::cache::NEAR] as usize as u32;
    job.far = cache.far() as *const [u16; crate::cache::FAR * crate::cache::FAR] as usize as u32;
    job.slices = table as u32;
    let skip = skip_rows(horizon, eye, scene.height_scale, scene.top());
    let mut b = 0;
    while b < BANDS {
        let band = &mut job.bands[b];
        // Bit 31 tells the march to check for tile boundaries (stores keep
        // the low byte only).
        band.fog = FOG_BASE[(b * BAND_LEN) & 127] as u32 | if options.boundaries { 1 << 31 } else { 0 };
        band.marks = MARK_BACK[b] | MARK_WIDTH[b] << 16;
        band.border_mask = !((1u32 << (scene.tile_px_log2 + 8)) - 1);
        band.skip = [skip[2 * b], skip[2 * b + 1]];
        b += 1;
    }
    // The sky first, the whole page, unless the page remembers its last
    // frame's sky at this horizon: then each column repaints the rows that
    // were terrain and are sky now. The terrain's spans draw over it.
    // (Bounding the fill by the first slice's ground line saved nothing on
    // the scripted flight: the line is almost always below the screen.)
    let page = target.vram_column(0).unwrap_or(0);
    let (tops, repaint) = match target.page_sky() {
        Some(m) => {
            let repaint = m.holds(horizon);
            (m.begin(horizon) as *mut [u8; 128], repaint)
        }
        // No memory: the tops go to a scratch array nobody reads.
        None => (&raw mut SCRATCH_TOPS, false),
    };
    if !repaint {
        sky(target, camera.pitch);
    }
    let frame = FrameSky { page, horizon, tops, repaint };
    let (samples, skipped, repainted) = match options.columns {
        Columns::Pairs => march_columns::<false>(job, camera, [cos, sin], frame),
        #[cfg(feature = "pixel-columns")]
        Columns::Pixels => march_columns::<true>(job, camera, [cos, sin], frame),
    };
    Stats { samples, skipped, sky_filled: !repaint, repainted_rows: repainted, ..Stats::default() }
}

/// The page and its sky, for [`march_columns`].
struct FrameSky {
    /// Address of the page (`Target::vram_column(0)`).
    page: usize,
    /// Screen row of the horizon.
    horizon: i32,
    /// Per pixel pair column, the top of the page's last frame (read if
    /// `repaint`), then of this one: a [`crate::PageSky`]'s, or scratch.
    tops: *mut [u8; 128],
    /// True if the page holds its last frame's sky at this horizon: repaint
    /// only the rows above the old tops' that the terrain no longer covers.
    repaint: bool,
}

/// The tops of a frame whose target keeps no [`crate::PageSky`] (`.bss`:
/// EWRAM on the GBA, sparing IWRAM; a byte a column).
static mut SCRATCH_TOPS: [u8; 128] = [0; 128];

/// Writes palette index `c` into one pixel of the mode 4 pixel pair at
/// address `pair` (the odd one if `odd`), keeping the other: a halfword load
/// and a halfword store, both asm. Written out because the plain Rust
/// `*p = (*p & 0xFF) | c << 8` may compile to a byte store of `c` at `p + 1`,
/// which mode 4 VRAM mirrors into both pixels of the pair.
///
/// # Safety
/// `pair` must be halfword aligned, readable and writable by halfword (a
/// pair of mode 4 VRAM).
#[instruction_set(arm::a32)]
#[inline(always)]
pub unsafe fn put_in_pair(pair: usize, odd: bool, c: u8) {
    let old: u32;
    // SAFETY: the caller's contract. Load and store are both asm, so the
    // compiler cannot narrow the store to a byte.
    unsafe {
        core::arch::asm!("ldrh {o}, [{a}]", o = out(reg) old, a = in(reg) pair, options(nostack, readonly, preserves_flags))
    };
    let new = if odd { (old & 0x00FF) | (c as u32) << 8 } else { (old & 0xFF00) | c as u32 };
    // SAFETY: the caller's contract.
    unsafe {
        core::arch::asm!("strh {n}, [{a}]", n = in(reg) new, a = in(reg) pair, options(nostack, preserves_flags))
    };
}

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
    if let Some(page) = target.vram_column(0) {
        let horizon = HORIZON + pitch as i32;
        // SAFETY: `page` is a mode 4 page (`Target::vram_column`'s
        // contract): word aligned, 160 rows of 240 bytes; `SKY` has 512
        // entries.
        unsafe { voxel_sky_rows(page as *mut u32, SKY.as_ptr(), sky_index(0, horizon), HEIGHT as u32) };
    }
}

/// Marches the odd pixel column described by `job` (240 columns) and puts
/// the sky back in its rows the even one's terrain filled above its own
/// (`even_ybuf`, the even column's y-buffer, down to this one's).
#[cfg(feature = "pixel-columns")]
#[instruction_set(arm::a32)]
#[inline(always)]
fn odd_column(job: &mut ColumnJob, even_ybuf: u32, horizon: i32) {
    // SAFETY: the job describes the cache's two rings (every index the
    // march makes is masked inside them), the slice table and the pair
    // of a page readable by byte and writable by halfword (`Target`'s
    // contract).
    unsafe { voxel_march_column_odd(job) };
    // Rows the even pixel's terrain filled in both pixels of the
    // pair, above this pixel's terrain: back to the sky.
    if job.ybuf > even_ybuf {
        let y = even_ybuf;
        let at = (job.vram as usize + y as usize * crate::render::WIDTH) as *mut u16;
        let start = sky_index(y as i32, horizon);
        // SAFETY: pairs of the page's rows y .. ybuf <= 160, halfword
        // aligned (`vram_column(0)` is word aligned, the pair 2 col
        // bytes on), readable by byte and writable by halfword
        // (`Target`'s contract); `SKY` has 512 entries.
        unsafe { voxel_sky_odd(at, SKY.as_ptr(), start, job.ybuf - y) };
    }
}

/// Marches every column (`PIXELS`: 240 pixel columns, else 120 pairs) with
/// `job` set up for the frame, heading (`cos`, `sin`) in 2.14, into the page
/// of `frame`; returns the samples taken, the slices skipped and the sky
/// rows repainted. One copy a mode: the pairs' loop keeps its registers for
/// itself.
#[instruction_set(arm::a32)]
#[inline(always)]
fn march_columns<const PIXELS: bool>(
    job: &mut ColumnJob,
    camera: &Camera,
    [cos, sin]: [i32; 2],
    frame: FrameSky,
) -> (u32, u32, u32) {
    let FrameSky { page, horizon, tops, repaint } = frame;
    // SAFETY: a `PageSky`'s tops, borrowed from the target for the frame,
    // or the scratch tops, which only this function (on the one GBA thread)
    // touches.
    let tops = unsafe { &mut *tops };
    let (mut samples, mut skipped, mut repainted) = (0u32, 0u32, 0u32);
    // 240 columns: the y-buffer of the last even column (its stores filled
    // both pixels of each pair).
    let mut even_ybuf = HEIGHT as u32;
    #[cfg(feature = "pixel-columns")]
    let columns = if PIXELS { Columns::Pixels } else { Columns::Pairs };
    #[cfg(not(feature = "pixel-columns"))]
    let columns = Columns::Pairs;
    let mut col = 0;
    while col < columns.count() {
        let u = columns.offset(col);
        let dx = cos - ((sin * u) >> 14);
        let dy = sin + ((cos * u) >> 14);
        job.px = camera.x.wrapping_add(((dx * Z0 as i32) >> 6) as u32);
        job.py = camera.y.wrapping_add(((dy * Z0 as i32) >> 6) as u32);
        let mut b = 0;
        while b < BANDS {
            let step = BAND_STEP[b] as i32;
            job.bands[b].step = [((dx * step) >> 6) as u32, ((dy * step) >> 6) as u32];
            b += 1;
        }
        let pair = (if PIXELS { col >> 1 } else { col }) & 127;
        job.vram = (page + 2 * pair) as u32;
        if PIXELS && col & 1 != 0 {
            #[cfg(feature = "pixel-columns")]
            odd_column(job, even_ybuf, horizon);
            // The pair's top: the higher of its two pixels' terrain.
            tops[pair] = if job.ybuf < even_ybuf { job.ybuf } else { even_ybuf } as u8;
        } else {
            // SAFETY: the job describes the cache's two rings (every index
            // the march makes is masked inside them), the slice table and a
            // VRAM column.
            unsafe { voxel_march_column(job) };
            even_ybuf = job.ybuf;
            // Rows the old frame's terrain covered above this one's: back to
            // the sky (before an odd pixel's march, which keeps the even
            // pixel of each pair it writes).
            let old = tops[pair] as u32;
            if repaint && old < job.ybuf {
                let start = sky_index(old as i32, horizon);
                // SAFETY: rows old .. ybuf <= 160 of a pair of the page
                // (`Target`'s contract, pair < 120); `SKY` has 512 entries.
                let at = (job.vram as usize + old as usize * crate::render::WIDTH) as *mut u8;
                unsafe { voxel_sky_pairs(at, SKY.as_ptr(), start, job.ybuf - old) };
                repainted += job.ybuf - old;
            }
            tops[pair] = job.ybuf as u8;
        }
        samples += job.samples;
        skipped += job.skipped;
        col += 1;
    }
    (samples, skipped, repainted)
}
