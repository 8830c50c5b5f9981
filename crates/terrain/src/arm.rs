//! The window fill's inner loop in hand-written ARM code (GBA only): the rows
//! of one grid cell, four tile references per word store. It does exactly
//! what the portable loop in [`crate::fill`] does (the same values, the same
//! order), only without the register spills the compiler's version has.

/// One cell's rows (offsets used by the asm).
#[repr(C)]
pub struct BlockJob {
    /// 0: address of the cell's first reference in its first ring row (4-aligned).
    pub dst: u32,
    /// 4: rows.
    pub rows: u32,
    /// 8: words per row (the spacing / 4).
    pub words: u32,
    /// 12, 16: the first row's scaled value, and its change per row.
    pub start: u32,
    pub dstart: u32,
    /// 20, 24: the step along a row, and its change per row.
    pub step: u32,
    pub dstep: u32,
    /// 28: the random table (1024 tile references).
    pub table: u32,
    /// 32: bytes from one ring row to the next.
    pub stride: u32,
}

unsafe extern "C" {
    /// Fills one cell's rows. `job` must describe memory the caller owns.
    pub fn terrain_fill_block(job: *const BlockJob);
    /// Fills part of one cell's rows, a byte at a time: `words` is then the
    /// count of references per row and `first` the cell column of the first.
    pub fn terrain_fill_bytes(job: *const BlockJob, first: u32);
}

core::arch::global_asm!(
    ".section .iwram.terrain_fill,\"ax\",%progbits",
    ".arm",
    ".align 2",
    ".global terrain_fill_block",
    ".type terrain_fill_block,%function",
    "terrain_fill_block:",
    "    push  {{r4-r11, lr}}",
    "    ldmia r0, {{r1-r9}}", // dst, rows, words, start, dstart, step, dstep, table, stride
    "    sub   r9, r9, r3, lsl #2", // from a row's end to the next row's start
    "1:",
    "    mov   r0, r4", // v = start
    "    mov   r10, r3",
    "2:",
    "    ldrb  r11, [r8, r0, lsr #22]",
    "    add   r0, r0, r6",
    "    ldrb  r12, [r8, r0, lsr #22]",
    "    add   r0, r0, r6",
    "    orr   r11, r11, r12, lsl #8",
    "    ldrb  r12, [r8, r0, lsr #22]",
    "    add   r0, r0, r6",
    "    orr   r11, r11, r12, lsl #16",
    "    ldrb  r12, [r8, r0, lsr #22]",
    "    add   r0, r0, r6",
    "    orr   r11, r11, r12, lsl #24",
    "    str   r11, [r1], #4",
    "    subs  r10, r10, #1",
    "    bne   2b",
    "    add   r1, r1, r9",
    "    add   r4, r4, r5", // start += dstart
    "    add   r6, r6, r7", // step += dstep
    "    subs  r2, r2, #1",
    "    bne   1b",
    "    pop   {{r4-r11, lr}}",
    "    bx    lr",
    ".size terrain_fill_block, . - terrain_fill_block",
    ".global terrain_fill_bytes",
    ".type terrain_fill_bytes,%function",
    "terrain_fill_bytes:",
    "    push  {{r4-r11, lr}}",
    "    mov   lr, r1", // first
    "    ldmia r0, {{r1-r9}}",
    "    sub   r9, r9, r3", // from a row's end to the next row's start
    "3:",
    "    mla   r0, r6, lr, r4", // v = start + step * first
    "    mov   r10, r3",
    "4:",
    "    ldrb  r11, [r8, r0, lsr #22]",
    "    add   r0, r0, r6",
    "    strb  r11, [r1], #1",
    "    subs  r10, r10, #1",
    "    bne   4b",
    "    add   r1, r1, r9",
    "    add   r4, r4, r5",
    "    add   r6, r6, r7",
    "    subs  r2, r2, #1",
    "    bne   3b",
    "    pop   {{r4-r11, lr}}",
    "    bx    lr",
    ".size terrain_fill_bytes, . - terrain_fill_bytes",
    ".thumb",
);
