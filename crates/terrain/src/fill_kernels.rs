//! The window fill's inner loop in hand-written ARM code (GBA only): the rows
//! of one grid cell, four tile references per word store. It does exactly
//! what the portable loop in [`crate::fill`] does (the same values, the same
//! order), only without the register spills the compiler's version has.
//! The Rust that sets up its jobs lives here too, so that the host-compiled
//! files hold no GBA-only code.

use crate::world::{MAX_GRID, RingRowBytes, TABLE_LEN, World};

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

impl BlockJob {
    /// The job for `hy` ring rows from tile row `ty`, `words` words (or
    /// bytes, for `terrain_fill_bytes`) each from ring column `col`; `slopes`
    /// is `[start, dstart, step, dstep]`.
    #[instruction_set(arm::a32)]
    #[inline(always)]
    fn new<const N: usize>(
        rows: &mut [RingRowBytes<N>; N],
        ty: u32,
        col: usize,
        hy: u32,
        words: u32,
        slopes: [u32; 4],
        table: &[u8; TABLE_LEN],
    ) -> Self {
        let [start, dstart, step, dstep] = slopes;
        BlockJob {
            dst: (&mut rows[ty as usize & (N - 1)] as *mut RingRowBytes<N> as usize + col) as u32,
            rows: hy,
            words,
            start,
            dstart,
            step,
            dstep,
            table: table as *const [u8; TABLE_LEN] as usize as u32,
            stride: N as u32,
        }
    }
}

/// A line of tiles across grid cells: a window row or column, or a line
/// into a plain buffer ([`walk_line_arm`]) (offsets used by the asm).
#[repr(C)]
pub struct LineJob {
    /// 0: address of the line's first tile (in the ring, or the buffer).
    pub dst: u32,
    /// 4: bytes between consecutive tiles (1 along a ring row or a buffer, N
    /// down a ring column).
    pub dst_step: u32,
    /// 8: tiles.
    pub count: u32,
    /// 12: the first tile's coordinate along the line.
    pub t: u32,
    /// 16, 20: the grid lines on either side of the line, at grid index 0:
    /// along a row, the grid rows above and below it; down a column, the grid
    /// columns left and right of it.
    pub grid_a: u32,
    pub grid_b: u32,
    /// 24: bytes between consecutive grid points along the line (1 or 64).
    pub k_stride: u32,
    /// 28: grid mask (side - 1).
    pub gm: u32,
    /// 32: the line's fraction across its cell (0 .. spacing).
    pub f: u32,
    /// 36: spacing, log2.
    pub s: u32,
    /// 40: the scale shift (`World::scale`).
    pub up: u32,
    /// 44: the random table.
    pub table: u32,
}

impl LineJob {
    /// The job for tile row `fixed` (`DOWN` false) or tile column `fixed`
    /// (`DOWN` true) of `world`; the caller sets where (`dst`, `dst_step`),
    /// how many (`count`) and from where along the line (`t`).
    #[instruction_set(arm::a32)]
    #[inline(always)]
    fn new<const DOWN: bool>(world: &World, fixed: u32) -> Self {
        let p = world.params();
        let s = p.spacing_log2 as u32;
        let gm = (1u32 << p.grid_log2) - 1;
        let grid = world.grid() as *const [u8; MAX_GRID * MAX_GRID] as usize as u32;
        let cf = fixed >> s;
        let (a, b) = ((cf & gm) & (MAX_GRID as u32 - 1), (cf.wrapping_add(1) & gm) & (MAX_GRID as u32 - 1));
        LineJob {
            dst: 0,
            dst_step: 0,
            count: 0,
            t: 0,
            grid_a: if DOWN { grid + a } else { grid + a * MAX_GRID as u32 },
            grid_b: if DOWN { grid + b } else { grid + b * MAX_GRID as u32 },
            k_stride: if DOWN { MAX_GRID as u32 } else { 1 },
            gm,
            f: fixed & ((1 << s) - 1),
            s,
            up: world.scale(),
            table: world.table() as *const [u8; TABLE_LEN] as usize as u32,
        }
    }
}

// The asm reads the jobs by these offsets.
const _: () = {
    use core::mem::offset_of;
    assert!(offset_of!(BlockJob, dst) == 0 && offset_of!(BlockJob, rows) == 4 && offset_of!(BlockJob, words) == 8);
    assert!(offset_of!(BlockJob, start) == 12 && offset_of!(BlockJob, dstart) == 16);
    assert!(offset_of!(BlockJob, step) == 20 && offset_of!(BlockJob, dstep) == 24);
    assert!(offset_of!(BlockJob, table) == 28 && offset_of!(BlockJob, stride) == 32);
    assert!(offset_of!(LineJob, dst) == 0 && offset_of!(LineJob, dst_step) == 4 && offset_of!(LineJob, count) == 8);
    assert!(offset_of!(LineJob, t) == 12 && offset_of!(LineJob, grid_a) == 16 && offset_of!(LineJob, grid_b) == 20);
    assert!(offset_of!(LineJob, k_stride) == 24 && offset_of!(LineJob, gm) == 28 && offset_of!(LineJob, f) == 32);
    assert!(offset_of!(LineJob, s) == 36 && offset_of!(LineJob, up) == 40 && offset_of!(LineJob, table) == 44);
};

/// Whether [`crate::fill::fill_rect`] hands part of a cell (`wx` of its
/// `one` columns, `wx` > 1: the window's edges, or cells of 2 tiles) to
/// [`fill_part_rows`]: it cannot straddle the ring's edge when N is a
/// multiple of the spacing. (On the host the portable loop does it all.)
#[instruction_set(arm::a32)]
#[inline(always)]
pub(crate) fn part_in_asm<const N: usize>(one: u32, wx: u32) -> bool {
    one as usize <= N && wx > 1
}

/// Whole cell rows for [`crate::fill::fill_rect`]: `hy` ring rows from tile
/// row `ty`, `one` references each from ring column `col` (a cell start, so a
/// multiple of 4, as `one` is), four per word store. `slopes` is the cell's
/// `[start, dstart, step, dstep]` (the first row's scaled value, its change
/// per row, the step along a row, its change per row).
#[instruction_set(arm::a32)]
#[inline(always)]
pub(crate) fn fill_cell_rows<const N: usize>(
    rows: &mut [RingRowBytes<N>; N],
    ty: u32,
    col: usize,
    hy: u32,
    one: u32,
    slopes: [u32; 4],
    table: &[u8; TABLE_LEN],
) {
    let job = BlockJob::new(rows, ty, col, hy, one >> 2, slopes, table);
    // SAFETY: the job covers hy ring rows of the caller's window from column
    // `col`, `one` bytes each, and the world's table: the cell starts at a
    // multiple of the spacing, so of 4, in the ring row too, and its rows
    // never straddle the ring's edge (N is a multiple of the spacing).
    unsafe { terrain_fill_block(&job) };
}

/// Part of a cell for [`crate::fill::fill_rect`] (when [`part_in_asm`]): `hy`
/// ring rows from tile row `ty`, `wx` references each from ring column `col`,
/// the first at cell column `fx0`; `slopes` as for [`fill_cell_rows`]. Its job
/// is spelled out apart from the whole-cell one: one shared branch choosing
/// the kernel cost 253 more cycles per 64x64 rebuild (`cargo xtask bench`).
#[instruction_set(arm::a32)]
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn fill_part_rows<const N: usize>(
    rows: &mut [RingRowBytes<N>; N],
    ty: u32,
    col: usize,
    hy: u32,
    wx: u32,
    fx0: u32,
    slopes: [u32; 4],
    table: &[u8; TABLE_LEN],
) {
    let job = BlockJob::new(rows, ty, col, hy, wx, slopes, table);
    // SAFETY: the job covers hy ring rows of the window from column `col`, wx
    // bytes each (col + wx <= N), and the table.
    unsafe { terrain_fill_bytes(&job, fx0) };
}

/// Fills `count` window columns (`DOWN`: tile columns `first ..`, rows `from
/// .. from + N`) or rows (tile rows `first ..`, columns `from .. from + N`)
/// that scroll in, one [`fill_line_arm`] each; `m` is the world side - 1.
#[instruction_set(arm::a32)]
#[inline(always)]
pub(crate) fn fill_lines_arm<const N: usize, const DOWN: bool>(
    world: &World,
    cells: &mut [RingRowBytes<N>; N],
    from: u32,
    first: u32,
    count: u32,
    m: u32,
) {
    let mut k = 0;
    while k < count {
        fill_line_arm::<N, DOWN>(world, cells, from, first.wrapping_add(k) & m);
        k += 1;
    }
}

/// Fills one window column (`DOWN`: tile column `fixed`, rows `t0 .. t0 + N`)
/// or row (tile row `fixed`, columns `t0 .. t0 + N`) with the ARM line walker,
/// in the two runs the ring splits it into. The same values as
/// [`crate::fill::fill_rect`].
#[instruction_set(arm::a32)]
#[inline(always)]
pub(crate) fn fill_line_arm<const N: usize, const DOWN: bool>(
    world: &World,
    rows: &mut [RingRowBytes<N>; N],
    t0: u32,
    fixed: u32,
) {
    let base = rows as *mut [RingRowBytes<N>; N] as usize as u32;
    let ring_fixed = fixed & (N as u32 - 1);
    let start = t0 & (N as u32 - 1);
    let mut job = LineJob::new::<DOWN>(world, fixed);
    job.dst_step = if DOWN { N as u32 } else { 1 };
    // Run 1: ring positions start .. N; run 2: 0 .. start.
    let mut run = 0;
    while run < 2 {
        let (from, count, t) =
            if run == 0 { (start, N as u32 - start, t0) } else { (0, start, t0.wrapping_add(N as u32 - start)) };
        if count > 0 {
            job.dst = if DOWN { base + from * N as u32 + ring_fixed } else { base + ring_fixed * N as u32 + from };
            job.count = count;
            job.t = t;
            // SAFETY: the run stays inside the ring (count positions from
            // `from`, within N), the grid lines and the table belong to `world`.
            unsafe { terrain_fill_line(&job) };
        }
        run += 1;
    }
}

/// [`World::walk`](crate::world::World::walk)'s paper placement: `n` tiles
/// from `t0` along tile row `fixed` (`down` false) or column `fixed` (`down`
/// true) into the `n` bytes from `out`, by the line walker.
///
/// # Safety
/// `out` must be `n` writable bytes.
#[instruction_set(arm::a32)]
#[inline(always)]
pub(crate) unsafe fn walk_line_arm(world: &World, down: bool, t0: u32, fixed: u32, n: usize, out: usize) {
    if n == 0 {
        return;
    }
    let mut job = if down { LineJob::new::<true>(world, fixed) } else { LineJob::new::<false>(world, fixed) };
    job.dst = out as u32;
    job.dst_step = 1;
    job.count = n as u32;
    job.t = t0;
    // SAFETY: the n bytes from `out` are the caller's; the grid lines and the
    // table belong to `world`.
    unsafe { terrain_fill_line(&job) };
}

unsafe extern "C" {
    /// Fills one line of tiles, walking grid cells: the paper placement's
    /// `World::walk` (on the host, `World::fill_line`).
    pub fn terrain_fill_line(job: *const LineJob);
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
    // Line walker. r9 = job. value(k) = (A(k) << s) + (B(k) - A(k)) * f with
    // A(k) = grid_a[(k & gm) * k_stride], B likewise.
    ".global terrain_fill_line",
    ".type terrain_fill_line,%function",
    "terrain_fill_line:",
    "    push  {{r4-r11, lr}}",
    "    mov   r9, r0",
    "    ldr   r3, [r9, #0]",    // dst
    "    ldr   r4, [r9, #4]",    // dst_step
    "    ldr   r5, [r9, #8]",    // count
    "    ldr   r6, [r9, #12]",   // t
    "    ldr   r2, [r9, #44]",   // table
    "    ldr   r12, [r9, #36]",  // s
    "    mov   r8, r6, lsr r12", // k = t >> s
    "    bl    9f",              // r7 = value(k)
    "5:",                        // cell
    "    cmp   r5, #0",
    "    beq   8f",
    "    add   r8, r8, #1",
    "    mov   r11, r7",        // near
    "    bl    9f",             // r7 = far = value(k + 1)
    "    ldr   r12, [r9, #36]", // s
    "    mov   r10, #1",
    "    mov   r10, r10, lsl r12", // one
    "    sub   lr, r10, #1",
    "    and   lr, r6, lr",   // ft
    "    sub   r10, r10, lr", // run = one - ft
    "    cmp   r10, r5",
    "    movhi r10, r5", // run = min(run, count)
    "    sub   r5, r5, r10",
    "    add   r6, r6, r10",          // t += run
    "    sub   r1, r7, r11",          // far - near
    "    mul   r0, r1, lr",           // (far - near) * ft
    "    add   r0, r0, r11, lsl r12", // + near << s
    "    ldr   lr, [r9, #40]",        // up
    "    mov   r0, r0, lsl lr",       // v
    "    mov   r1, r1, lsl lr",       // step
    "6:",
    "    ldrb  lr, [r2, r0, lsr #22]",
    "    add   r0, r0, r1",
    "    strb  lr, [r3], r4",
    "    subs  r10, r10, #1",
    "    bne   6b",
    "    b     5b",
    "8:",
    "    pop   {{r4-r11, lr}}",
    "    bx    lr",
    "9:",                       // r7 = value(r8); uses r0, r1, r10, r12
    "    ldr   r10, [r9, #28]", // gm
    "    and   r10, r8, r10",
    "    ldr   r12, [r9, #24]", // k_stride
    "    mul   r10, r12, r10",  // offset
    "    ldr   r12, [r9, #16]",
    "    ldrb  r0, [r12, r10]", // A
    "    ldr   r12, [r9, #20]",
    "    ldrb  r1, [r12, r10]", // B
    "    sub   r1, r1, r0",
    "    ldr   r12, [r9, #32]", // f
    "    mul   r10, r1, r12",
    "    ldr   r12, [r9, #36]", // s
    "    add   r7, r10, r0, lsl r12",
    "    bx    lr",
    ".size terrain_fill_line, . - terrain_fill_line",
    ".thumb",
);
