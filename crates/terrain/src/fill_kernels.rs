//! The window fills' inner loops in hand-written ARM code (GBA only): the
//! rows of one grid cell, four tile references per word store, and parts of
//! cells (`terrain_fill_block`, `terrain_fill_bytes`: what the portable loop
//! in [`crate::fill`] does); a line of tiles by the paper's placement
//! (`terrain_fill_line`) and by the corner placement (`terrain_corner_line`:
//! what `World::fill_line_corners` does on the host). The same values as the
//! portable code, without the register spills the compiler's version has.
//! The Rust that sets up their jobs lives here too, so that the
//! host-compiled files hold no GBA-only code.

use crate::world::{CORNER_KEYS, MAX_GRID, RingRowBytes, TABLE_LEN, World};

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
/// into a plain buffer ([`walk_arm`]) (offsets used by the asm).
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
    /// 48: tiles before `dst` reaches the ring's edge (`u32::MAX`: never).
    pub wrap: u32,
    /// 52: bytes `dst` jumps back at the ring's edge (to the ring's start).
    pub wrap_back: u32,
}

/// Tiles one [`terrain_fill_line`] call takes at most: the values at the grid
/// lines it meets (a tile a cell at most, and one more) go in a buffer of
/// [`LINE_VALUES`] words on the stack.
pub(crate) const LINE_MAX: u32 = 64;
/// Words of that buffer.
const LINE_VALUES: u32 = LINE_MAX + 2;

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
            wrap: u32::MAX,
            wrap_back: 0,
        }
    }
}

/// A line of tiles for the corner placement: the two vertex lines on either
/// side of it walked together (offsets used by the asm). Its [`LineJob`]
/// describes the vertex line the tile line starts at (its coordinate across,
/// `fixed`); the vertex line after it (`fixed + 1`) lies between the same
/// grid lines at fraction `f + 1` (the spacing: on `grid_b`), so its value
/// is the first's plus the grid lines' difference. The spacing must be at
/// least 2 tiles.
#[repr(C)]
pub struct CornerJob {
    /// 0 .. 56: the run and the vertex line (`table`: the vertex table).
    pub line: LineJob,
    /// 56: the tiles by corner entries (`World::corner_tiles`).
    pub tiles: u32,
    /// 60: 1 down a column (the vertex lines are the tile column's left and
    /// right edges), 0 along a row (its top and bottom edges).
    pub down: u32,
}

impl CornerJob {
    /// The job for tile row `fixed` (`DOWN` false) or tile column `fixed`
    /// (`DOWN` true) of `world`; the caller sets the run.
    #[instruction_set(arm::a32)]
    #[inline(always)]
    fn new<const DOWN: bool>(world: &World, fixed: u32) -> Self {
        CornerJob {
            line: LineJob::new::<DOWN>(world, fixed),
            tiles: world.corner_tiles() as *const [u8; CORNER_KEYS] as usize as u32,
            down: DOWN as u32,
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
    assert!(offset_of!(LineJob, wrap) == 48 && offset_of!(LineJob, wrap_back) == 52);
    assert!(LINE_VALUES * 4 == 264, "the asm's value buffer (then the edge's two words and a pad: 276 bytes)");
    assert!(TABLE_LEN == 1 << 10, "the asm's table index: the value's top 10 bits");
    assert!(offset_of!(CornerJob, line) == 0 && offset_of!(CornerJob, tiles) == 56);
    assert!(offset_of!(CornerJob, down) == 60);
    assert!(CORNER_KEYS == 1 << 12, "the asm's corner keys: 3 bits a corner");
    // Spacing at least 2 tiles: a call of LINE_MAX tiles meets at most
    // (1 + LINE_MAX) / 2 + 2 = 34 grid lines; their values, a pair each,
    // fill the asm's 272-byte buffer.
    assert!(crate::world::MIN_SPACING_LOG2 >= 1 && LINE_MAX.div_ceil(2) + 2 == 34);
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

/// What the two line walkers' jobs ([`LineJob`], [`CornerJob`]) share: where
/// a run of tiles goes, and the walk.
trait LineWalk {
    /// `count` tiles from coordinate `t` along the line, stored from `dst`,
    /// `dst_step` bytes apart, jumping back `wrap_back` bytes after `wrap`
    /// of them (`u32::MAX`: never).
    fn set_run(&mut self, dst: u32, dst_step: u32, count: u32, t: u32, wrap: u32, wrap_back: u32);
    /// Walks the run.
    ///
    /// # Safety
    /// The run's stores must be memory the caller owns, and `count` at most
    /// [`LINE_MAX`] (the job's grid lines and tables are its world's).
    unsafe fn walk(&self);
}

impl LineWalk for LineJob {
    #[instruction_set(arm::a32)]
    #[inline(always)]
    fn set_run(&mut self, dst: u32, dst_step: u32, count: u32, t: u32, wrap: u32, wrap_back: u32) {
        (self.dst, self.dst_step, self.count, self.t, self.wrap, self.wrap_back) =
            (dst, dst_step, count, t, wrap, wrap_back);
    }

    #[instruction_set(arm::a32)]
    #[inline(always)]
    unsafe fn walk(&self) {
        // SAFETY: the caller's contract.
        unsafe { terrain_fill_line(self) };
    }
}

impl LineWalk for CornerJob {
    #[instruction_set(arm::a32)]
    #[inline(always)]
    fn set_run(&mut self, dst: u32, dst_step: u32, count: u32, t: u32, wrap: u32, wrap_back: u32) {
        self.line.set_run(dst, dst_step, count, t, wrap, wrap_back);
    }

    #[instruction_set(arm::a32)]
    #[inline(always)]
    unsafe fn walk(&self) {
        // SAFETY: the caller's contract.
        unsafe { terrain_corner_line(self) };
    }
}

/// Fills `count` window columns (`DOWN`: tile columns `first ..`, rows `from
/// .. from + N`) or rows (tile rows `first ..`, columns `from .. from + N`)
/// that scroll in, by the walker of the world's placement, one line at a
/// time; `m` is the world side - 1. The same references as
/// [`crate::fill::fill_rect`] and `World::tile_at`.
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
        let fixed = first.wrapping_add(k) & m;
        if world.is_corners() {
            ring_line::<N, DOWN, _>(&mut CornerJob::new::<DOWN>(world, fixed), cells, from, fixed);
        } else {
            ring_line::<N, DOWN, _>(&mut LineJob::new::<DOWN>(world, fixed), cells, from, fixed);
        }
        k += 1;
    }
}

/// One window line of `job` into `rows` (`DOWN`: ring column `fixed`, rows
/// from `t0`; else ring row `fixed`, columns from `t0`), all N tiles, in
/// runs of at most [`LINE_MAX`] (the walker goes back to the ring's start at
/// its edge).
#[instruction_set(arm::a32)]
#[inline(always)]
fn ring_line<const N: usize, const DOWN: bool, J: LineWalk>(
    job: &mut J,
    rows: &mut [RingRowBytes<N>; N],
    t0: u32,
    fixed: u32,
) {
    let base = rows as *mut [RingRowBytes<N>; N] as usize as u32;
    let ring_fixed = fixed & (N as u32 - 1);
    let dst_step = if DOWN { N as u32 } else { 1 };
    let mut done = 0;
    while done < N as u32 {
        let count = if N as u32 - done < LINE_MAX { N as u32 - done } else { LINE_MAX };
        let t = t0.wrapping_add(done);
        let at = t & (N as u32 - 1);
        let dst = if DOWN { base + at * N as u32 + ring_fixed } else { base + ring_fixed * N as u32 + at };
        let wrap = if at == 0 { u32::MAX } else { N as u32 - at };
        job.set_run(dst, dst_step, count, t, wrap, N as u32 * dst_step);
        // SAFETY: the run stays inside `rows` (count <= N positions from
        // `at`, back to the ring's start at its edge; N rows of N bytes,
        // `repr(C)`, borrowed mutably); count is at most LINE_MAX; the job's
        // grid lines and tables are its world's.
        unsafe { job.walk() };
        done += count;
    }
}

/// [`World::walk`](crate::world::World::walk) on the GBA: `n` tiles from
/// `t0` along tile row `fixed` (`down` false) or column `fixed` (`down`
/// true) into the `n` bytes from `out`, by the walker of the world's
/// placement, [`LINE_MAX`] at a time.
///
/// # Safety
/// `out` must be `n` writable bytes.
#[instruction_set(arm::a32)]
#[inline(always)]
pub(crate) unsafe fn walk_arm(world: &World, down: bool, t0: u32, fixed: u32, n: usize, out: usize) {
    // SAFETY (both): the caller's contract.
    if world.is_corners() {
        let mut job = if down { CornerJob::new::<true>(world, fixed) } else { CornerJob::new::<false>(world, fixed) };
        unsafe { buffer_line(&mut job, t0, n, out) };
    } else {
        let mut job = if down { LineJob::new::<true>(world, fixed) } else { LineJob::new::<false>(world, fixed) };
        unsafe { buffer_line(&mut job, t0, n, out) };
    }
}

/// `n` tiles of `job`'s line from `t0` into the `n` bytes from `out`.
///
/// # Safety
/// `out` must be `n` writable bytes.
#[instruction_set(arm::a32)]
#[inline(always)]
unsafe fn buffer_line<J: LineWalk>(job: &mut J, t0: u32, n: usize, out: usize) {
    let mut done = 0;
    while done < n {
        let count = if n - done < LINE_MAX as usize { n - done } else { LINE_MAX as usize };
        job.set_run((out + done) as u32, 1, count as u32, t0.wrapping_add(done as u32), u32::MAX, 0);
        // SAFETY: the count bytes from `out + done` are the caller's (done +
        // count <= n); count is at most LINE_MAX.
        unsafe { job.walk() };
        done += count;
    }
}

unsafe extern "C" {
    /// Fills one line of `count` (0 to [`LINE_MAX`]) tiles by the corner
    /// placement, walking grid cells: `World::fill_line_corners` on the
    /// host. `job` must describe memory the caller owns: the `count` stores
    /// from `dst`, `dst_step` apart (jumping back `wrap_back` bytes after
    /// `wrap` of them), the grid lines, the vertex table and the tiles; its
    /// spacing must be at least 2 tiles.
    pub fn terrain_corner_line(job: *const CornerJob);
    /// Fills one line of `count` (1 to [`LINE_MAX`]) tiles, walking grid
    /// cells: the paper placement's `World::walk` (on the host,
    /// `World::fill_line`). `job` must describe memory the caller owns: the
    /// `count` stores from `dst`, `dst_step` apart (jumping back `wrap_back`
    /// bytes after `wrap` of them), the grid lines and the table.
    pub fn terrain_fill_line(job: *const LineJob);
    /// Fills one cell's rows. `job` must describe memory the caller owns.
    pub fn terrain_fill_block(job: *const BlockJob);
    /// Fills part of one cell's rows, a byte at a time: `words` is then the
    /// count of references per row and `first` the cell column of the first.
    pub fn terrain_fill_bytes(job: *const BlockJob, first: u32);
}

core::arch::global_asm!(
    ".section .iwram.terrain_fill,\"ax\",%progbits",
    // The line walkers' grid points k (r8) of the grid lines r1 and r2
    // (r3 k_stride, r4 gm): r12 = A, lr = B - A; uses r0.
    ".macro terrain_grid_pair",
    "    and   r0, r8, r4",
    "    mul   r0, r3, r0", // (k & gm) * k_stride
    "    ldrb  r12, [r1, r0]",
    "    ldrb  lr, [r2, r0]",
    "    sub   lr, lr, r12",
    ".endm",
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
    // Line walker. r9 = job. value(k) = ((A(k) << s) + (B(k) - A(k)) * f) << up
    // with A(k) = grid_a[(k & gm) * k_stride], B likewise: first the values
    // at the grid lines the line meets, into a buffer on the stack; then per
    // cell v = near << s + (far - near) * ft and step far - near, and per
    // tile a table read and a store, through a ladder of 16 tiles unrolled
    // (entered part way for a run's first, odd-sized part).
    ".global terrain_fill_line",
    ".type terrain_fill_line,%function",
    "terrain_fill_line:",
    "    push  {{r4-r11, lr}}",
    // LINE_VALUES words, the edge's two, and a pad: with the 36 bytes
    // pushed, sp stays a multiple of 8 (the IRQ handler's Rust code runs
    // on this stack)
    "    sub   sp, sp, #276",
    "    mov   r9, r0",
    "    add   r0, r9, #16",
    "    ldmia r0, {{r1-r7}}", // grid_a, grid_b, k_stride, gm, f, s, up
    "    ldr   r10, [r9, #8]", // count
    "    cmp   r10, #0",
    "    beq   8f",
    "    ldr   r8, [r9, #12]", // t
    "    mov   r12, #1",
    "    mov   r12, r12, lsl r6",
    "    sub   r12, r12, #1",
    "    and   r12, r8, r12", // ft of the first tile
    "    add   r10, r10, r12",
    "    sub   r10, r10, #1",
    "    mov   r10, r10, lsr r6", // cells - 1
    "    add   r10, r10, #2",     // values: one more than the cells
    "    mov   r8, r8, lsr r6",   // k of the first cell
    "    mov   r11, sp",
    "1:",
    "    terrain_grid_pair",
    "    mul   lr, r5, lr", // (B - A) * f
    "    add   r12, lr, r12, lsl r6",
    "    mov   r12, r12, lsl r7",
    "    str   r12, [r11], #4",
    "    add   r8, r8, #1",
    "    subs  r10, r10, #1",
    "    bne   1b",
    "    ldmia r9, {{r3, r4, r5, r6}}", // dst, dst_step, count, t
    "    ldr   r2, [r9, #44]",          // table
    "    ldr   r12, [r9, #48]",
    "    str   r12, [sp, #264]", // tiles before the ring's edge
    "    ldr   r12, [r9, #52]",
    "    str   r12, [sp, #268]", // bytes back at the edge
    "    mov   r8, sp",
    "    ldr   r7, [r8], #4",   // near: the first cell's left value
    "    ldr   r12, [r9, #36]", // s
    "    mov   r9, #1",
    "    mov   r9, r9, lsl r12", // one: tiles a cell
    // the first cell, from the line's first tile: ft tiles into it
    "    sub   lr, r9, #1",
    "    and   lr, r6, lr",  // ft
    "    sub   r10, r9, lr", // run = one - ft
    "    cmp   r10, r5",
    "    movhi r10, r5",            // at most the line
    "    mov   r6, r12",            // s from here on (cells start at 0)
    "    ldr   r11, [r8], #4",      // far
    "    sub   r1, r11, r7",        // step
    "    mul   r0, r1, lr",         // ft * step
    "    add   r0, r0, r7, lsl r6", // v
    "    b     11f",
    "5:", // a whole cell, or what is left of the line in it
    "    cmp   r5, #0",
    "    beq   8f",
    "    subs  r10, r5, r9",
    "    movhs r10, r9",        // run: a cell,
    "    addlo r10, r10, r9",   // or the rest of the line
    "    ldr   r11, [r8], #4",  // far
    "    sub   r1, r11, r7",    // step
    "    mov   r0, r7, lsl r6", // v = near << s
    "11:",
    "    sub   r5, r5, r10",
    "    mov   r7, r11",         // the next cell's near
    "    ldr   r12, [sp, #264]", // tiles before the ring's edge
    "    cmp   r12, r10",
    "    bls   10f",
    "    sub   r12, r12, r10",
    "    str   r12, [sp, #264]",
    "    bl    7f",
    "    b     5b",
    "10:", // the run reaches the edge: r12 tiles, back to the ring's start, the rest
    "    sub   r11, r10, r12",
    "    str   r11, [sp, #264]",
    "    mov   r10, r12",
    "    bl    7f",
    "    ldr   r12, [sp, #268]",
    "    sub   r3, r3, r12",
    "    ldr   r10, [sp, #264]",
    "    mvn   r12, #0",
    "    str   r12, [sp, #264]", // no edge left
    "    bl    7f",
    "    b     5b",
    "8:",
    "    add   sp, sp, #276",
    "    pop   {{r4-r11, lr}}",
    "    bx    lr",
    "7:", // r10 tiles: v r0, step r1, table r2, dst r3, dst_step r4; uses r11, r12
    "    cmp   r10, #0",
    "    bxeq  lr",
    "    sub   r10, r10, #1",
    "    and   r12, r10, #15",
    "    rsb   r12, r12, #15", // ladder steps to pass over: the first round does (r10 - 1) % 16 + 1
    "    add   r12, r12, r12, lsl #1",
    "    mov   r10, r10, lsr #4", // whole rounds after it
    "    add   pc, pc, r12, lsl #2",
    "    nop",
    "6:",
    "    .rept 16",
    "    ldrb  r11, [r2, r0, lsr #22]",
    "    add   r0, r0, r1",
    "    strb  r11, [r3], r4",
    "    .endr",
    "    subs  r10, r10, #1",
    "    bge   6b",
    "    bx    lr",
    ".size terrain_fill_line, . - terrain_fill_line",
    // Corner walker. r0 = job (CornerJob). First, as the line walker does,
    // the values of the two vertex lines at the grid lines the line meets,
    // interleaved (a, b) in a buffer on the stack (b = a + the grid lines'
    // difference, scaled); then per cell the two values and steps, and per
    // tile: the two vertex entries, their pair (a | b << (9 - X)), the key
    // (the last pair | this one << X: X = 3 along a row, 6 down a column, so
    // that the key is `corner_key` of the tile's corners), the tile by the
    // key, a store; through a ladder of 8 tiles unrolled (entered part way).
    ".macro terrain_corner_step x", // r0, r1 values, r5, r6 steps, r2 vertex table, r7 last pair, r8 tiles, r3 dst, r4 dst_step
    "    ldrb  r11, [r2, r0, lsr #22]",
    "    ldrb  r12, [r2, r1, lsr #22]",
    "    add   r0, r0, r5",
    "    add   r1, r1, r6",
    "    orr   r12, r11, r12, lsl #(9 - \\x)",
    "    orr   r11, r7, r12, lsl #\\x",
    "    mov   r7, r12",
    "    ldrb  r11, [r8, r11]",
    "    strb  r11, [r3], r4",
    ".endm",
    ".global terrain_corner_line",
    ".type terrain_corner_line,%function",
    "terrain_corner_line:",
    "    push  {{r4-r11, lr}}",
    // 34 value pairs (272 bytes), then [sp + 272] s, [sp + 276] tiles left,
    // [sp + 280] down, [sp + 284] tiles before the ring's edge, [sp + 288]
    // bytes back at it, [sp + 292] tiles after it, a pad: with the 36 bytes
    // pushed, sp stays a multiple of 8
    "    sub   sp, sp, #300",
    "    mov   r9, r0",
    "    ldr   r10, [r9, #8]", // count
    "    cmp   r10, #0",
    "    beq   38f",
    "    ldr   r8, [r9, #12]", // t
    "    ldr   r6, [r9, #36]", // s
    "    str   r6, [sp, #272]",
    "    mov   r12, #1",
    "    mov   r12, r12, lsl r6",
    "    sub   r12, r12, #1",
    "    and   r12, r8, r12", // ft of the first tile
    "    add   r10, r10, r12",
    "    mov   r10, r10, lsr r6",
    "    add   r10, r10, #2",   // values: the cells of the count + 1 vertices, and one more
    "    mov   r8, r8, lsr r6", // k of the first cell
    "    add   r0, r9, #16",
    "    ldmia r0, {{r1, r2, r3, r4, r5}}", // grid lines, k_stride, gm, fraction
    "    ldr   r7, [r9, #40]",              // up
    "    mov   r11, sp",
    "30:",
    "    terrain_grid_pair",
    "    mul   r0, r5, lr", // (B - A) * f
    "    add   r12, r0, r12, lsl r6",
    "    mov   r12, r12, lsl r7",
    "    str   r12, [r11], #4", // line a
    "    add   r12, r12, lr, lsl r7",
    "    str   r12, [r11], #4", // line b: (B - A) * (f + 1)
    "    add   r8, r8, #1",
    "    subs  r10, r10, #1",
    "    bne   30b",
    "    ldmia r9, {{r3, r4, r10, r12}}", // dst, dst_step, count, t
    "    ldr   r2, [r9, #44]",            // vertex table
    "    ldr   r8, [r9, #56]",            // tiles
    "    ldr   lr, [r9, #60]",            // down
    "    str   lr, [sp, #280]",
    "    ldr   lr, [r9, #48]",
    "    str   lr, [sp, #284]", // tiles before the ring's edge
    "    ldr   lr, [r9, #52]",
    "    str   lr, [sp, #288]",  // bytes back at it
    "    ldr   r11, [sp, #272]", // s
    "    mov   lr, #1",
    "    mov   lr, lr, lsl r11",
    "    sub   lr, lr, #1",
    "    and   lr, r12, lr", // ft
    // the first cell, from the line's first vertex (its lead: no tile)
    "    mov   r9, sp",
    "    ldmia r9!, {{r0, r1}}", // near (a, b)
    "    ldmia r9, {{r5, r6}}",  // far
    "    sub   r5, r5, r0",      // steps
    "    sub   r6, r6, r1",
    "    mov   r0, r0, lsl r11",
    "    mov   r1, r1, lsl r11",
    "    mla   r0, r5, lr, r0", // ft steps in
    "    mla   r1, r6, lr, r1",
    "    mov   r12, #1",
    "    mov   r12, r12, lsl r11",
    "    sub   r12, r12, lr",
    "    sub   r12, r12, #1", // tiles in the cell after the lead: one - ft - 1
    "    ldrb  r11, [r2, r0, lsr #22]",
    "    ldrb  lr, [r2, r1, lsr #22]",
    "    add   r0, r0, r5",
    "    add   r1, r1, r6",
    "    ldr   r7, [sp, #280]",
    "    cmp   r7, #0",
    "    orreq r7, r11, lr, lsl #6", // the lead pair: along a row (X = 3)
    "    orrne r7, r11, lr, lsl #3", // down a column (X = 6)
    "    b     33f",
    "32:", // a whole cell, or what is left of the line in it
    "    cmp   r10, #0",
    "    beq   38f",
    "    ldmia r9!, {{r0, r1}}",
    "    ldmia r9, {{r5, r6}}",
    "    sub   r5, r5, r0",
    "    sub   r6, r6, r1",
    "    ldr   r11, [sp, #272]",
    "    mov   r0, r0, lsl r11",
    "    mov   r1, r1, lsl r11",
    "    mov   r12, #1",
    "    mov   r12, r12, lsl r11",
    "33:", // r12 tiles, at most those left
    "    cmp   r12, r10",
    "    movhi r12, r10",
    "    sub   r10, r10, r12",
    "    str   r10, [sp, #276]",
    "    ldr   r11, [sp, #284]", // tiles before the ring's edge
    "    cmp   r11, r12",
    "    bls   39f",
    "    sub   r11, r11, r12",
    "    str   r11, [sp, #284]",
    "    bl    40f",
    "35:",
    "    ldr   r10, [sp, #276]",
    "    b     32b",
    "39:", // the run reaches the edge: r11 tiles, back to the ring's start, the rest
    "    sub   r10, r12, r11",
    "    str   r10, [sp, #292]",
    "    mvn   r10, #0",
    "    str   r10, [sp, #284]", // no edge left
    "    mov   r12, r11",
    "    bl    40f",
    "    ldr   r11, [sp, #288]",
    "    sub   r3, r3, r11",
    "    ldr   r12, [sp, #292]",
    "    bl    40f",
    "    b     35b",
    "40:", // r12 tiles by the ladder of the line's direction (returns to lr)
    "    ldr   r11, [sp, #280]",
    "    cmp   r11, #0",
    "    bne   36f",
    "34:", // r12 tiles along a row; uses r10, r11, r12
    "    subs  r12, r12, #1",
    "    bxmi  lr",
    "    and   r11, r12, #7",
    "    rsb   r11, r11, #7", // ladder steps to pass over: the first round does (r12 - 1) % 8 + 1
    "    add   r11, r11, r11, lsl #3", // 9 instructions a step
    "    mov   r10, r12, lsr #3", // whole rounds after it
    "    add   pc, pc, r11, lsl #2",
    "    nop",
    "31:",
    "    .rept 8",
    "    terrain_corner_step 3",
    "    .endr",
    "    subs  r10, r10, #1",
    "    bge   31b",
    "    bx    lr",
    "36:", // down a column
    "    subs  r12, r12, #1",
    "    bxmi  lr",
    "    and   r11, r12, #7",
    "    rsb   r11, r11, #7",
    "    add   r11, r11, r11, lsl #3",
    "    mov   r10, r12, lsr #3",
    "    add   pc, pc, r11, lsl #2",
    "    nop",
    "37:",
    "    .rept 8",
    "    terrain_corner_step 6",
    "    .endr",
    "    subs  r10, r10, #1",
    "    bge   37b",
    "    bx    lr",
    "38:",
    "    add   sp, sp, #300",
    "    pop   {{r4-r11, lr}}",
    "    bx    lr",
    ".size terrain_corner_line, . - terrain_corner_line",
    ".thumb",
);
