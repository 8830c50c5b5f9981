//! The window's fill, cell by cell: the hot path of rebuilds and scrolls.
//!
//! Inside one grid cell the interpolated value is bilinear in the tile offset
//! (fx, fy): along a row it is `start(fy) + step(fy) * fx`, and from one row
//! to the next `start` and `step` each change by a constant. So a cell costs
//! four grid reads and a little arithmetic once, then per row two adds, and
//! per tile one add and one table read. Values are kept scaled up so that the
//! table index is their top [`TABLE_BITS`] bits (see `World::scale`).
//!
//! Everything here runs as ARM code from IWRAM on the GBA, so it uses only
//! operators, array indexing with provable bounds and `while` loops: `core`'s
//! Thumb functions could not be inlined into it.

#[cfg(target_arch = "arm")]
use crate::fill_kernels::part_in_asm;
#[cfg(not(target_arch = "arm"))]
use crate::world::RingOut;
use crate::world::{MAX_GRID, RingRowBytes, TABLE_BITS, TABLE_LEN, World};

/// Shift from a scaled value to its table index.
const INDEX: u32 = 32 - TABLE_BITS;

/// Fills ring positions for tiles `x0 .. x0 + w`, `y0 .. y0 + h` (tile
/// coordinates; `w`, `h` at most `N`): tile (tx, ty) goes to
/// `rows[ty mod N][tx mod N]`.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub(crate) fn fill_rect<const N: usize>(
    world: &World,
    rows: &mut [RingRowBytes<N>; N],
    x0: u32,
    y0: u32,
    w: u32,
    h: u32,
) {
    let p = world.params();
    let s = p.spacing_log2 as u32;
    let one = 1u32 << s;
    let gm = (1u32 << p.grid_log2) - 1;
    let up = world.scale();
    let grid = world.grid();
    let table = world.table();
    let mut ty = y0;
    let mut left_y = h;
    while left_y > 0 {
        let (fy0, hy) = cell_run(ty, one, left_y);
        let ra = grid_index(ty >> s, gm) * MAX_GRID;
        let rb = grid_index((ty >> s).wrapping_add(1), gm) * MAX_GRID;
        let mut tx = x0;
        let mut left_x = w;
        while left_x > 0 {
            let (fx0, wx) = cell_run(tx, one, left_x);
            let (ca, cb) = (grid_index(tx >> s, gm), grid_index((tx >> s).wrapping_add(1), gm));
            let a = grid[ra + ca] as i32;
            let b = grid[ra + cb] as i32;
            let c = grid[rb + ca] as i32;
            let d = grid[rb + cb] as i32;
            // Unscaled (grid units times spacing squared, as `World::value_at`):
            //   v(fx, fy) = start(fy) + step(fy) * fx
            //   start(fy) = ((a << s) + (c - a) * fy) << s
            //   step(fy)  = ((b - a) << s) + (d - c - b + a) * fy
            let cross = d - c - b + a;
            let mut start = ((((a << s) + (c - a) * fy0 as i32) << s) as u32) << up;
            let dstart = (((c - a) << s) as u32) << up;
            let mut step = ((((b - a) << s) + cross * fy0 as i32) as u32) << up;
            let dstep = (cross as u32) << up;
            let col = tx as usize & (N - 1);
            if wx == 1 {
                // A column of tiles: the value moves by a constant per row.
                let mut v = start.wrapping_add(step.wrapping_mul(fx0));
                let dv = dstart.wrapping_add(dstep.wrapping_mul(fx0));
                let mut r = ty as usize;
                let end = r + hy as usize;
                while r < end {
                    rows[r & (N - 1)].0[col] = table[(v >> INDEX) as usize & (TABLE_LEN - 1)];
                    v = v.wrapping_add(dv);
                    r += 1;
                }
            } else if wx == one && one >= 4 {
                // Whole cell rows: aligned words (the cell starts at a multiple
                // of the spacing, so of 4, in the ring row too; its rows never
                // straddle the ring's edge, N being a multiple of the spacing).
                #[cfg(target_arch = "arm")]
                crate::fill_kernels::fill_cell_rows::<N>(rows, ty, col, hy, one, [start, dstart, step, dstep], table);
                #[cfg(not(target_arch = "arm"))]
                {
                    let mut r = ty as usize;
                    let end = r + hy as usize;
                    while r < end {
                        let base = &mut rows[r & (N - 1)] as *mut RingRowBytes<N> as usize + col;
                        let (step2, step3, step4) = (step << 1, step.wrapping_mul(3), step << 2);
                        let mut v = start;
                        let mut k = 0;
                        while k < one as usize {
                            let t0 = table[(v >> INDEX) as usize] as u32;
                            let t1 = table[(v.wrapping_add(step) >> INDEX) as usize] as u32;
                            let t2 = table[(v.wrapping_add(step2) >> INDEX) as usize] as u32;
                            let t3 = table[(v.wrapping_add(step3) >> INDEX) as usize] as u32;
                            // SAFETY: `base + k` is a word of the ring row (see
                            // `put_word`'s contract, met as explained there).
                            unsafe { put_word(base + k, t0 | t1 << 8 | t2 << 16 | t3 << 24) };
                            v = v.wrapping_add(step4);
                            k += 4;
                        }
                        start = start.wrapping_add(dstart);
                        step = step.wrapping_add(dstep);
                        r += 1;
                    }
                }
            } else if part_in_asm::<N>(one, wx) {
                // Part of a cell (the window's edges), or cells of 2 tiles, in
                // ARM code (see `fill_kernels::part_in_asm`).
                #[cfg(target_arch = "arm")]
                crate::fill_kernels::fill_part_rows::<N>(
                    rows,
                    ty,
                    col,
                    hy,
                    wx,
                    fx0,
                    [start, dstart, step, dstep],
                    table,
                );
            } else {
                // Part of a cell (the window's edges), or cells of 2 tiles.
                let mut r = ty as usize;
                let end = r + hy as usize;
                while r < end {
                    let row = &mut rows[r & (N - 1)].0;
                    let mut v = start.wrapping_add(step.wrapping_mul(fx0));
                    let mut k = 0;
                    while k < wx as usize {
                        row[(col + k) & (N - 1)] = table[(v >> INDEX) as usize & (TABLE_LEN - 1)];
                        v = v.wrapping_add(step);
                        k += 1;
                    }
                    start = start.wrapping_add(dstart);
                    step = step.wrapping_add(dstep);
                    r += 1;
                }
            }
            tx = tx.wrapping_add(wx);
            left_x -= wx;
        }
        ty = ty.wrapping_add(hy);
        left_y -= hy;
    }
}

/// On the host no part of a cell goes to ARM code (see
/// `fill_kernels::part_in_asm`, the GBA's version).
#[cfg(not(target_arch = "arm"))]
#[inline(always)]
const fn part_in_asm<const N: usize>(_one: u32, _wx: u32) -> bool {
    false
}

/// Where coordinate `t` sits in its cell (`one` tiles wide) and how many
/// tiles of the `left` still to fill lie in that cell: (fraction, run).
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
fn cell_run(t: u32, one: u32, left: u32) -> (u32, u32) {
    let f = t & (one - 1);
    let run = one - f;
    (f, if run > left { left } else { run })
}

/// Grid point `i` wrapped by `gm` (side - 1), as an index below [`MAX_GRID`].
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
fn grid_index(i: u32, gm: u32) -> usize {
    (i & gm) as usize & (MAX_GRID - 1)
}

/// Stores four references (`word`'s low byte first) at address `at`.
///
/// # Safety
/// `at` must be 4-aligned, and the four bytes from it writable and not
/// borrowed elsewhere. The one caller passes `row address + col + k` where
/// the row is a 4-aligned `RingRowBytes<N>` it borrows mutably, `col` is a
/// cell start (a multiple of the spacing, >= 4) below N and `k + 4 <=
/// spacing`, so the word is aligned and inside the row (a cell never
/// straddles the ring's edge: N is a multiple of the spacing, or the spacing
/// exceeds N and that path is not taken).
#[cfg(not(target_arch = "arm"))]
#[inline(always)]
unsafe fn put_word(at: usize, word: u32) {
    debug_assert!(at & 3 == 0);
    // SAFETY: the caller's contract. Pointer arithmetic by integer: `core`'s
    // pointer methods cannot be inlined into ARM code on the GBA.
    unsafe { *(at as *mut u32) = word }
}

/// Corner placement on the host: fills `count` lines into the ring, rows
/// (`DOWN` false: tile rows `first ..`, columns `from .. from + N`) or
/// columns (`DOWN` true: tile columns `first ..`, rows `from .. from + N`).
/// Tile coordinates wrap to the world. (On the GBA `fill_kernels`' corner
/// walker does it.)
#[cfg(not(target_arch = "arm"))]
pub(crate) fn fill_lines_corners<const N: usize, const DOWN: bool>(
    world: &World,
    rows: &mut [RingRowBytes<N>; N],
    from: u32,
    first: u32,
    count: u32,
) {
    let m = world.size_tiles() - 1;
    let base = rows as *mut [RingRowBytes<N>; N] as usize;
    for k in 0..count {
        let line = first.wrapping_add(k) & m;
        let ring = line as usize & (N - 1);
        // A column: ring column `ring`, rows apart by N bytes; a row: ring
        // row `ring`, bytes apart by 1; both wrap round the ring.
        let (at, stride) = if DOWN { (base + ring, N) } else { (base + ring * N, 1) };
        let out = RingOut { base: at, start: from as usize, mask: N - 1, stride };
        // SAFETY: every address is inside `rows` (positions masked below N;
        // rows are N bytes, `repr(C)` and contiguous), which we borrow mutably.
        unsafe { world.fill_line_corners(DOWN, from, line, N, out) };
    }
}
