//! The GBA's fast path: one screen column's march in hand-written ARM code,
//! in IWRAM. It does exactly what the reference loop in [`crate::render`]
//! does for the common case (32-texel tiles, a 64-wide window, no boundary
//! marks): the same positions, texels, projection and colours, so the frames
//! are equal pixel for pixel (the emulator tests check it). Only built for
//! the GBA.
//!
//! Per sample: step the position (24.8); ring index of the tile (y >> 15 & 63,
//! x >> 15 & 63: tiles of 128 world pixels); tile reference; texel (x >> 10 &
//! 31: 4 pixels a texel; 32 x 32 halfwords a tile); then
//! `y = (a[s] + h * b[s]) >> 16` (one multiply-accumulate) with the
//! per-frame slice tables of `render::slice_rows` (the reference uses the
//! same numbers); if `y` is above the y-buffer, fill the rows in between
//! with two byte stores per loop (each store writes a two-pixel column pair).

use crate::projection::{BAND_LEN, BANDS};

/// What the march of one column needs and returns (offsets used by the asm).
#[repr(C)]
pub struct ColumnJob {
    /// 0, 4: position before the first sample, world pixels in 24.8.
    pub px: u32,
    pub py: u32,
    /// 8: position step of each band, (x, y) pairs, 24.8.
    pub steps: [u32; 2 * BANDS],
    /// 56: the window's ring buffer (64 x 64 tile references).
    pub cells: u32,
    /// 60: the bank's texels (32 x 32 per tile).
    pub texels: u32,
    /// 64: per slice, `a` and `b` (i32 each, `render::slice_rows`).
    pub slices: u32,
    /// 68: VRAM address of the column's pixel pair on row 0.
    pub vram: u32,
    /// 72: palette index of colour 0 for each band's fog level; bit 31 set: mark tile boundaries.
    pub fog: [u32; BANDS],
    /// 96 (out): the y-buffer: rows 0..ybuf are still open (sky).
    pub ybuf: u32,
    /// 100 (out): samples taken.
    pub samples: u32,
    /// 104: per band, the width in world pixels of the tile boundary marks
    /// (0: no marks).
    pub lines: [u32; BANDS],
}

const _: () = {
    assert!(BANDS == 6 && BAND_LEN == 16, "the asm loops 6 bands of 16 slices");
    assert!(crate::render::TEXEL_SHIFT == 2, "the asm's shifts");
    assert!(core::mem::offset_of!(ColumnJob, cells) == 56);
    assert!(core::mem::offset_of!(ColumnJob, fog) == 72);
    assert!(core::mem::offset_of!(ColumnJob, ybuf) == 96);
    assert!(core::mem::offset_of!(ColumnJob, samples) == 100);
    assert!(core::mem::offset_of!(ColumnJob, lines) == 104);
    assert!(crate::palette::ui::BOUNDARY == 4, "the asm marks boundaries with entry 4");
    assert!(crate::render::TEXEL_SHIFT + 5 == 7, "the asm's tile mask is 127 world pixels");
};

unsafe extern "C" {
    /// Marches one column. `job` must describe valid memory: the window, the
    /// texels of every tile the window references, 96 slice entries, and a
    /// mode 4 page column.
    pub fn voxel_march_column(job: *mut ColumnJob);
}

core::arch::global_asm!(
    ".section .iwram.voxel_march,\"ax\",%progbits",
    ".arm",
    ".align 2",
    ".global voxel_march_column",
    ".type voxel_march_column,%function",
    "voxel_march_column:",
    "    push  {{r4-r11, lr}}",
    "    sub   sp, sp, #16", // [sp] job, [sp + 4] band, [sp + 8] band's fog base, [sp + 12] vram column
    "    str   r0, [sp]",
    "    ldr   r6, [r0, #68]",
    "    str   r6, [sp, #12]", // vram column
    "    ldr   r4, [r0, #56]", // cells
    "    ldr   r5, [r0, #60]", // texels
    "    ldr   r8, [r0, #64]", // slices
    "    mov   r10, #63",      // ring mask
    "    ldr   r1, [r0, #4]",  // py
    "    ldr   r0, [r0, #0]",  // px
    "    mov   r9, #160",      // ybuf
    "    mov   r6, #0",
    "    str   r6, [sp, #4]",
    "1:", // band: its step and fog base, then 16 samples unrolled
    "    ldr   r12, [sp]",
    "    ldr   r6, [sp, #4]",
    "    add   r7, r12, r6, lsl #2",
    "    ldr   r7, [r7, #72]",
    "    str   r7, [sp, #8]", // fog base of the band (bit 31: mark tile boundaries)
    "    add   r12, r12, r6, lsl #3",
    "    ldr   r2, [r12, #8]",  // sx
    "    ldr   r3, [r12, #12]", // sy
    "    .rept 16",
    "    add   r0, r0, r2",
    "    add   r1, r1, r3",
    "    and   r6, r10, r1, lsr #15", // ring row
    "    and   r7, r10, r0, lsr #15", // ring column
    "    add   r6, r7, r6, lsl #6",   // ring index
    "    ldrb  r6, [r4, r6]",         // tile reference
    "    mov   r7, r1, lsr #4",
    "    and   r7, r7, #0x7C0", // texel row * 64 bytes: ((y >> 10) & 31) << 6
    "    mov   r12, r0, lsr #9",
    "    and   r12, r12, #0x3E", // texel column * 2 bytes: ((x >> 10) & 31) << 1
    "    add   r7, r7, r12",
    "    add   r7, r7, r6, lsl #11", // + tile * 2048 bytes
    "    ldrh  r7, [r5, r7]",        // texel: height | colour << 8
    "    and   r6, r7, #255",
    "    ldmia r8!, {{r11, r12}}", // a, b
    "    mla   r11, r12, r6, r11", // a + h * b = y << 16
    "    cmp   r9, r11, asr #16",
    "    blgt  4f", // above the y-buffer: draw
    "    .endr",
    "    ldr   r6, [sp, #4]",
    "    add   r6, r6, #1",
    "    str   r6, [sp, #4]",
    "    cmp   r6, #6",
    "    blt   1b",
    "5:", // done
    "    ldr   r0, [sp]",
    "    ldr   r6, [r0, #64]",
    "    sub   r6, r8, r6",
    "    mov   r6, r6, lsr #3",
    "    str   r9, [r0, #96]",
    "    str   r6, [r0, #100]",
    "    add   sp, sp, #16",
    "    pop   {{r4-r11, lr}}",
    "    bx    lr",
    "4:", // draw rows top..ybuf; returns to the next sample through lr
    "    mov   r11, r11, asr #16",
    "    cmp   r11, #0",
    "    movlt r11, #0",              // top
    "    ldr   r12, [sp, #8]",        // fog base of the band
    "    add   r12, r12, r7, lsr #8", // colour
    "    tst   r12, #0x80000000",
    "    bne   9f", // mark tile boundaries: check this sample
    "7:",
    "    ldr   r6, [sp, #12]", // vram column
    "    rsb   r7, r11, r11, lsl #4",
    "    add   r7, r6, r7, lsl #4", // address of row top
    "    sub   r6, r9, r11",        // rows to fill
    "    mov   r9, r11",
    "6:",
    "    strb  r12, [r7], #240",
    "    subs  r6, r6, #2",
    "    strbge r12, [r7], #240",
    "    bgt   6b",
    "    cmp   r9, #0",
    "    beq   5b", // column full: done (nothing was pushed for the draw)
    "    bx    lr",
    "9:",
    "    ldr   r6, [sp]",
    "    ldr   r7, [sp, #4]",
    "    add   r6, r6, r7, lsl #2",
    "    ldr   r6, [r6, #104]", // boundary mark width of the band
    "    mov   r7, r0, lsr #8",
    "    and   r7, r7, #127", // x within the tile, world pixels
    "    cmp   r7, r6",
    "    blo   8f",
    "    mov   r7, r1, lsr #8",
    "    and   r7, r7, #127", // y within the tile
    "    cmp   r7, r6",
    "    bhs   7b",
    "8:",
    "    mov   r12, #4", // a tile boundary: ui::BOUNDARY
    "    b     7b",
    ".size voxel_march_column, . - voxel_march_column",
    ".thumb",
);
