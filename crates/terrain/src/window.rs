//! The tile reference window (paper step 5): the tile references of an
//! `N` x `N`-tile square around the camera, in a ring buffer.
//!
//! Tile (`tx`, `ty`) lives at ring position (`tx mod N`, `ty mod N`), so when
//! the window moves by one tile only the row or column that scrolls in is
//! computed ([`World::fill_row`] / [`World::fill_column`]: one add per tile);
//! a jump of `N` tiles or more, or a new world, rebuilds it whole. References
//! are 8 bits (the paper uses 16): `N * N` bytes of RAM.

#[cfg(not(target_arch = "arm"))]
use crate::fill::fill_lines_corners;
use crate::fill::fill_rect;
use crate::world::{RingRowBytes, World};

/// What a [`Window::recenter`] call did.
///
/// ```
/// # use terrain::{Window, World, WorldParams};
/// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
/// let mut window = Box::new(Window::<16>::new());
/// assert_eq!(window.recenter(&world, 40, 40), terrain::Update { tiles: 256, rebuilt: true });
/// assert_eq!(window.recenter(&world, 40, 42), terrain::Update { tiles: 32, rebuilt: false }); // two rows
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Update {
    /// Tile references computed.
    pub tiles: u32,
    /// True if the whole window was rebuilt.
    pub rebuilt: bool,
}

/// An `N` x `N` window of tile references: `N` a power of two, at least 4
/// (another side fails the build), and at most the world's side
/// ([`Window::recenter`]'s contract; a `voxel::Landscape`'s window wider
/// than its world fails the build there).
///
/// ```compile_fail
/// let window = terrain::Window::<2>::new(); // a ring row takes a word: refused
/// ```
///
/// ```
/// # use terrain::{Window, World, WorldParams};
/// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
/// // On the GBA: a `static` in `.bss` (EWRAM: the ROM's and the agb
/// // example's) or in an `.iwram.*` section (a little faster for the texel
/// // cache's fills and the flight), taken once as `&mut` (the ROM's
/// // `Static`, the agb example's `Once`).
/// let mut window = Box::new(Window::<64>::new());
/// window.recenter(&world, 100, 100); // tiles 68 ..= 131 in x and y
/// assert!(window.covers(&world, 68, 131) && !window.covers(&world, 67, 100));
/// assert_eq!(window.get(70, 120), world.tile_at(70, 120));
/// ```
#[derive(Clone)]
#[repr(C)]
pub struct Window<const N: usize> {
    /// First: keeps each ring row word aligned.
    cells: [RingRowBytes<N>; N],
    /// Tile coordinate of the window's first column and row (wrapped to the world).
    origin: (u32, u32),
    valid: bool,
}

impl<const N: usize> core::fmt::Debug for Window<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Window").field("n", &N).field("origin", &self.origin).field("valid", &self.valid).finish()
    }
}

impl<const N: usize> Default for Window<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Window<N> {
    const MASK: u32 = {
        assert!(N.is_power_of_two() && N >= 4, "window side must be a power of two, at least 4");
        // The fills step from one ring row to the next by N bytes: a row
        // (word aligned, for the fills' word stores) must take no more.
        assert!(core::mem::size_of::<RingRowBytes<N>>() == N);
        N as u32 - 1
    };

    /// An empty window; the first [`Window::recenter`] builds it.
    ///
    /// ```
    /// let window = terrain::Window::<64>::new();
    /// assert!(!window.covers(&terrain::World::empty(), 0, 0));
    /// ```
    pub const fn new() -> Self {
        // The side's checks fail the build of a window of any other side.
        let _ = Self::MASK;
        Window { cells: [RingRowBytes([0; N]); N], origin: (0, 0), valid: false }
    }

    /// Side, in tiles.
    ///
    /// ```
    /// assert_eq!(terrain::Window::<64>::side(), 64);
    /// ```
    pub const fn side() -> usize {
        N
    }

    /// Bytes of RAM the references take.
    ///
    /// ```
    /// assert_eq!(terrain::Window::<64>::ram_bytes(), 64 * 64 + 12); // 8-bit references; the origin, a flag, padding
    /// ```
    pub const fn ram_bytes() -> usize {
        core::mem::size_of::<Self>()
    }

    /// Tile coordinate of the first column and row covered.
    ///
    /// ```
    /// # use terrain::{Window, World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// let mut window = Box::new(Window::<16>::new());
    /// window.recenter(&world, 40, 3);
    /// assert_eq!(window.origin(), (32, 123)); // 3 - 8, wrapping round the 128-tile world
    /// ```
    pub fn origin(&self) -> (u32, u32) {
        self.origin
    }

    /// Forgets the contents: the next [`Window::recenter`] rebuilds (call after
    /// the world changes).
    ///
    /// ```
    /// # use terrain::{Window, World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// let mut window = Box::new(Window::<16>::new());
    /// window.recenter(&world, 40, 40);
    /// window.invalidate(); // after a new world
    /// assert!(window.recenter(&world, 40, 40).rebuilt);
    /// ```
    pub fn invalidate(&mut self) {
        self.valid = false;
    }

    /// True if tile (`tx`, `ty`) is inside the window.
    ///
    /// ```
    /// # use terrain::{Window, World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// let mut window = Box::new(Window::<16>::new());
    /// window.recenter(&world, 40, 40);
    /// assert!(window.covers(&world, 32, 47) && !window.covers(&world, 48, 40));
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn covers(&self, world: &World, tx: u32, ty: u32) -> bool {
        self.covers_rect(world.size_tiles() - 1, tx, ty, 1, 1)
    }

    /// True if the `w` x `h` tiles from (`tx`, `ty`) on are all inside the
    /// window, in a world of `m + 1` tiles a side (coordinates wrap with it).
    ///
    /// ```
    /// # use terrain::{Window, World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// let mut window = Box::new(Window::<16>::new());
    /// window.recenter(&world, 40, 40); // tiles 32 ..= 47 in x and y
    /// let m = world.size_tiles() - 1;
    /// assert!(window.covers_rect(m, 32, 40, 16, 8) && !window.covers_rect(m, 33, 40, 16, 8));
    /// assert!(!window.covers_rect(m, 30, 40, 4, 4)); // 30 and 31 are outside
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn covers_rect(&self, m: u32, tx: u32, ty: u32, w: u32, h: u32) -> bool {
        let n = N as u32;
        self.valid
            && w <= n
            && h <= n
            && (tx.wrapping_sub(self.origin.0) & m) + w <= n
            && (ty.wrapping_sub(self.origin.1) & m) + h <= n
    }

    /// The tile reference at (`tx`, `ty`); equals `world.tile_at(tx, ty)` for
    /// every tile the window [`covers`](Window::covers).
    ///
    /// ```
    /// # use terrain::{Window, World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// let mut window = Box::new(Window::<16>::new());
    /// window.recenter(&world, 40, 40);
    /// assert_eq!(window.get(35, 44), world.tile_at(35, 44));
    /// ```
    #[inline(always)]
    pub fn get(&self, tx: u32, ty: u32) -> u8 {
        self.cells[(ty & Self::MASK) as usize].0[(tx & Self::MASK) as usize]
    }

    /// Writes the references of `out.len()` tiles from (`tx`, `ty`) on, along
    /// x (`down` false) or along y (`down` true), wrapping with the world:
    /// `out[i]` is `world.tile_at` of the `i`-th. The tiles the window holds
    /// are copied from the ring (a load each), the rest computed by the
    /// world's line walk (as [`World::fill_row`] / [`World::fill_column`]: a
    /// few adds a tile, where `tile_at` costs four lookups). On the GBA: ARM
    /// code.
    ///
    /// ```
    /// use terrain::{Window, World, WorldParams};
    /// let world = World::new(7, WorldParams { tile_count: 4, ..WorldParams::DEFAULT }).unwrap();
    /// let mut window = Box::new(Window::<16>::new());
    /// window.recenter(&world, 40, 40); // tiles 32 ..= 47 in x and y
    /// let mut line = [0; 30];
    /// window.line(&world, 20, 41, false, &mut line); // 20 ..= 31 from the world, 32 ..= 47 from the ring, 48 ..= 49 from the world
    /// assert!((0..30).all(|i| line[i] == world.tile_at(20 + i as u32, 41)));
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn line(&self, world: &World, tx: u32, ty: u32, down: bool, out: &mut [u8]) {
        let w = world.size_tiles();
        let m = w - 1;
        let (ax, ay) = (tx.wrapping_sub(self.origin.0) & m, ty.wrapping_sub(self.origin.1) & m);
        let (along, across) = if down { (ay, ax) } else { (ax, ay) };
        let (t0, fixed) = if down { (ty, tx) } else { (tx, ty) };
        let held = self.valid && across < N as u32;
        let base = out as *mut [u8] as *mut u8 as usize;
        debug_assert!(out.len() <= u32::MAX as usize, "a line of at most 2^32 - 1 tiles");
        let n = out.len() as u32;
        let mut i = 0;
        while i < n {
            let off = along.wrapping_add(i) & m;
            let left = n - i;
            if held && off < N as u32 {
                // In the window up to its edge.
                let seg = if N as u32 - off < left { N as u32 - off } else { left };
                let mut k = i;
                while k < i + seg {
                    let t = t0.wrapping_add(k);
                    let tile = if down { self.get(fixed, t) } else { self.get(t, fixed) };
                    // SAFETY: k < n, the length of `out`. Integer addressing:
                    // `core`'s slice methods cannot be inlined into ARM code.
                    unsafe { *((base + k as usize) as *mut u8) = tile };
                    k += 1;
                }
                i += seg;
            } else {
                // Outside it up to where the line (wrapping round the world)
                // comes back in, or to the end.
                let seg = if held && w - off < left { w - off } else { left };
                // SAFETY: `seg` bytes from `i`, inside `out` (i + seg <= n).
                unsafe { world.walk(down, t0.wrapping_add(i), fixed, seg as usize, base + i as usize) };
                i += seg;
            }
        }
    }

    /// Ring row `r` (tile (`tx`, `ty`) is at `ring_row(ty mod N)[tx mod N]`), for renderers.
    ///
    /// ```
    /// # use terrain::{Window, World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// let mut window = Box::new(Window::<16>::new());
    /// window.recenter(&world, 40, 40);
    /// assert_eq!(window.ring_row(44 % 16)[35 % 16], world.tile_at(35, 44));
    /// ```
    #[inline(always)]
    pub fn ring_row(&self, r: usize) -> &[u8; N] {
        &self.cells[r & (N - 1)].0
    }

    /// Moves the window so that tile (`cx`, `cy`) is at its centre (position
    /// `N / 2`), computing only what scrolls in. On the GBA: ARM code in IWRAM.
    ///
    /// # Panics
    /// In debug builds, if the window is wider than `world` (it would hold
    /// tiles twice).
    ///
    /// ```
    /// use terrain::{Window, World, WorldParams};
    /// let world = World::new(7, WorldParams { tile_count: 4, ..WorldParams::DEFAULT }).unwrap();
    /// let mut window = Box::new(Window::<16>::new());
    /// let first = window.recenter(&world, 40, 40); // a full build
    /// let step = window.recenter(&world, 41, 40); // one column of 16 tiles
    /// assert_eq!((first.tiles, step.tiles), (256, 16));
    /// assert_eq!(window.get(48, 45), world.tile_at(48, 45));
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32), unsafe(link_section = ".iwram.terrain"), inline(never))]
    pub fn recenter(&mut self, world: &World, cx: u32, cy: u32) -> Update {
        let m = world.size_tiles() - 1;
        debug_assert!(N as u32 <= world.size_tiles(), "window wider than the world");
        let ox = cx.wrapping_sub(N as u32 / 2) & m;
        let oy = cy.wrapping_sub(N as u32 / 2) & m;
        // Most calls (one a frame) find the window where it is: out before
        // the moving code's stack frame.
        if self.valid && self.origin.0 == ox && self.origin.1 == oy {
            return Update { tiles: 0, rebuilt: false };
        }
        self.move_to(world, ox, oy)
    }

    /// [`Window::recenter`]'s move to first tile (`ox`, `oy`) (wrapped).
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32), unsafe(link_section = ".iwram.terrain"), inline(never))]
    fn move_to(&mut self, world: &World, ox: u32, oy: u32) -> Update {
        let m = world.size_tiles() - 1;
        let dx = signed_delta(ox.wrapping_sub(self.origin.0), m);
        let dy = signed_delta(oy.wrapping_sub(self.origin.1), m);
        let (adx, ady) = (if dx < 0 { -dx } else { dx } as u32, if dy < 0 { -dy } else { dy } as u32);
        if !self.valid || adx >= N as u32 || ady >= N as u32 {
            self.rebuild(world, ox, oy);
            return Update { tiles: (N * N) as u32, rebuilt: true };
        }
        // Columns first, over the old rows; then rows, over the new columns.
        let (old_x, old_y) = self.origin;
        if adx > 0 {
            let first = if dx > 0 { old_x.wrapping_add(N as u32) } else { ox };
            scroll_in::<N, true>(world, &mut self.cells, old_y, first, adx);
        }
        if ady > 0 {
            let first = if dy > 0 { old_y.wrapping_add(N as u32) } else { oy };
            scroll_in::<N, false>(world, &mut self.cells, ox, first, ady);
        }
        self.origin = (ox, oy);
        Update { tiles: (adx + ady) * N as u32, rebuilt: false }
    }

    /// Recomputes every reference for a window whose first tile is (`ox`, `oy`).
    /// On the GBA: ARM code in IWRAM.
    ///
    /// ```
    /// # use terrain::{Window, World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// let mut window = Box::new(Window::<16>::new());
    /// window.rebuild(&world, 100, 0);
    /// assert_eq!(window.origin(), (100, 0));
    /// assert_eq!(window.get(115, 15), world.tile_at(115, 15));
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32), unsafe(link_section = ".iwram.terrain"), inline(never))]
    pub fn rebuild(&mut self, world: &World, ox: u32, oy: u32) {
        let m = world.size_tiles() - 1;
        if world.is_corners() {
            // All N rows, as if they scrolled in (the corner walk, a line at a time).
            scroll_in::<N, false>(world, &mut self.cells, ox & m, oy & m, N as u32);
        } else {
            fill_rect(world, &mut self.cells, ox & m, oy & m, N as u32, N as u32);
        }
        self.origin = (ox & m, oy & m);
        self.valid = true;
    }
}

/// Fills `count` window columns (`DOWN`: tile columns `first ..`, rows
/// `from .. from + N`) or rows (tile rows `first ..`, columns `from .. from + N`)
/// that scroll in; tile coordinates wrap to the world. On the GBA each line
/// goes through the ARM walker of the world's placement, elsewhere through
/// [`fill_rect`] or the corner placement's walk.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
fn scroll_in<const N: usize, const DOWN: bool>(
    world: &World,
    cells: &mut [RingRowBytes<N>; N],
    from: u32,
    first: u32,
    count: u32,
) {
    let m = world.size_tiles() - 1;
    #[cfg(target_arch = "arm")]
    crate::fill_kernels::fill_lines_arm::<N, DOWN>(world, cells, from, first, count, m);
    #[cfg(not(target_arch = "arm"))]
    if world.is_corners() {
        fill_lines_corners::<N, DOWN>(world, cells, from, first, count);
    } else if DOWN {
        fill_rect(world, cells, first & m, from, count, N as u32);
    } else {
        fill_rect(world, cells, from, first & m, N as u32, count);
    }
}

/// `d` (a difference of wrapped coordinates, `m` = world size - 1) as the
/// shortest signed step around the world.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
fn signed_delta(d: u32, m: u32) -> i32 {
    let d = d & m;
    if d > m / 2 { d as i32 - (m as i32 + 1) } else { d as i32 }
}
