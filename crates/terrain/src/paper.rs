//! The paper's method as published, written the straightforward way, to
//! benchmark against [`crate::world`] and [`crate::window`] in the same ROM.
//!
//! Differences from ours, all on purpose (they are what the paper describes):
//! C `rand()`-style LCG values; grid of any side with a virtual spacing in
//! pixels; each tile reference interpolated on its own with divisions; the
//! tile picked with a modulo; 16-bit references; every move rebuilds the whole
//! reference array.

/// Largest grid side.
pub const MAX_GRID: usize = 16;
/// Entries of the random lookup table.
pub const TABLE_LEN: usize = 256;

/// The C library's classic `rand()` (ANSI C sample LCG), 15-bit results.
///
/// ```
/// let mut r = terrain::paper::CRand::new(1);
/// // The C standard's sample `rand()` after `srand(1)`.
/// assert_eq!([r.rand(), r.rand(), r.rand()], [16838, 5758, 10113]);
/// ```
#[derive(Debug, Clone)]
pub struct CRand(u32);

impl CRand {
    /// `srand(seed)`.
    ///
    /// ```
    /// let (mut a, mut b) = (terrain::paper::CRand::new(9), terrain::paper::CRand::new(9));
    /// assert_eq!(a.rand(), b.rand());
    /// ```
    pub fn new(seed: u32) -> Self {
        CRand(seed)
    }

    /// `rand()`: 0..=32767.
    ///
    /// ```
    /// let mut r = terrain::paper::CRand::new(5);
    /// assert!((0..1000).all(|_| r.rand() <= 32767));
    /// ```
    #[inline]
    pub fn rand(&mut self) -> u16 {
        self.0 = self.0.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        ((self.0 >> 16) & 0x7FFF) as u16
    }
}

/// The paper's world: a `side` x `side` grid of random values `spacing_px`
/// pixels apart, a random table, a tile count.
///
/// ```
/// use terrain::paper::PaperWorld;
/// // An 8 x 8 grid 256 px apart, 16 tiles.
/// let world = PaperWorld::new(1, 8, 256, 16);
/// assert!(world.tile_at_px(1000, 2000) < 16);
/// assert_eq!(world.tile_at_px(1000 + 8 * 256, 2000), world.tile_at_px(1000, 2000)); // it wraps
/// ```
#[derive(Debug, Clone)]
pub struct PaperWorld {
    side: usize,
    spacing_px: u32,
    tile_count: u16,
    grid: [[u16; MAX_GRID]; MAX_GRID],
    table: [u16; TABLE_LEN],
    rand: CRand,
}

impl PaperWorld {
    /// An empty 4 x 4 world; `const`, for statics.
    ///
    /// ```
    /// static EMPTY: terrain::paper::PaperWorld = terrain::paper::PaperWorld::empty();
    /// assert_eq!(EMPTY.tile_at_px(100, 100), 0);
    /// ```
    pub const fn empty() -> Self {
        PaperWorld {
            side: 4,
            spacing_px: 256,
            tile_count: 1,
            grid: [[0; MAX_GRID]; MAX_GRID],
            table: [0; TABLE_LEN],
            rand: CRand(0),
        }
    }

    /// A world with a `side` x `side` grid (`side` at most 16).
    ///
    /// ```
    /// use terrain::paper::PaperWorld;
    /// let (a, b) = (PaperWorld::new(3, 8, 256, 16), PaperWorld::new(3, 8, 256, 16));
    /// assert_eq!(a.tile_at_px(700, 900), b.tile_at_px(700, 900));
    /// ```
    pub fn new(seed: u32, side: usize, spacing_px: u32, tile_count: u16) -> Self {
        let mut w = PaperWorld::empty();
        w.reset(seed, side, spacing_px, tile_count);
        w
    }

    /// Makes this the world [`PaperWorld::new`] would return, in place.
    ///
    /// ```
    /// use terrain::paper::PaperWorld;
    /// let mut world = Box::new(PaperWorld::empty());
    /// world.reset(3, 8, 256, 16);
    /// assert_eq!(world.tile_at_px(700, 900), PaperWorld::new(3, 8, 256, 16).tile_at_px(700, 900));
    /// ```
    pub fn reset(&mut self, seed: u32, side: usize, spacing_px: u32, tile_count: u16) {
        self.side = side.clamp(2, MAX_GRID);
        self.spacing_px = spacing_px.max(1);
        self.tile_count = tile_count.max(1);
        self.rand = CRand::new(seed);
        self.new_world();
    }

    /// Refills the structure grid and the random table (the paper's Table 3).
    ///
    /// ```
    /// use terrain::paper::PaperWorld;
    /// let mut world = PaperWorld::new(3, 8, 256, 16);
    /// let tiles = |w: &PaperWorld| (0..64).map(|i| w.tile_at_px(i * 97, i * 31)).collect::<Vec<_>>();
    /// let before = tiles(&world);
    /// world.new_world(); // the generator goes on: the next world of the same seed
    /// assert_ne!(tiles(&world), before);
    /// ```
    pub fn new_world(&mut self) {
        for y in 0..self.side {
            for x in 0..self.side {
                self.grid[y][x] = self.rand.rand();
            }
        }
        for e in self.table.iter_mut() {
            *e = self.rand.rand();
        }
    }

    /// Refills only the structure grid (exactly what the paper's Table 3 times).
    ///
    /// ```
    /// use terrain::paper::PaperWorld;
    /// let mut world = PaperWorld::new(3, 8, 256, 16);
    /// let tiles = |w: &PaperWorld| (0..64).map(|i| w.tile_at_px(i * 97, i * 31)).collect::<Vec<_>>();
    /// let before = tiles(&world);
    /// world.new_grid(); // a new grid over the same random table
    /// assert_ne!(tiles(&world), before);
    /// ```
    pub fn new_grid(&mut self) {
        for y in 0..self.side {
            for x in 0..self.side {
                self.grid[y][x] = self.rand.rand();
            }
        }
    }

    /// The tile under world pixel (`px`, `py`): bilinear interpolation of the
    /// four grid values around it (x then y), random table, modulo.
    ///
    /// ```
    /// use terrain::paper::PaperWorld;
    /// let world = PaperWorld::new(3, 8, 256, 5);
    /// assert!((0..2048).step_by(64).all(|p| world.tile_at_px(p, 2 * p) < 5));
    /// ```
    pub fn tile_at_px(&self, px: u32, py: u32) -> u16 {
        let s = self.spacing_px;
        let n = self.side as u32;
        let (cx, fx) = ((px / s) % n, px % s);
        let (cy, fy) = ((py / s) % n, py % s);
        let (cx1, cy1) = ((cx + 1) % n, (cy + 1) % n);
        let g = |x: u32, y: u32| self.grid[y as usize][x as usize] as u32;
        let top = (g(cx, cy) * (s - fx) + g(cx1, cy) * fx) / s;
        let bottom = (g(cx, cy1) * (s - fx) + g(cx1, cy1) * fx) / s;
        let v = (top * (s - fy) + bottom * fy) / s;
        self.table[v as usize % TABLE_LEN] % self.tile_count
    }

    /// Bytes of RAM the world occupies.
    ///
    /// ```
    /// assert!(terrain::paper::PaperWorld::ram_bytes() > 512); // the 256-entry 16-bit table alone
    /// ```
    pub const fn ram_bytes() -> usize {
        core::mem::size_of::<PaperWorld>()
    }
}

/// The paper's tile reference array: `N` x `N` 16-bit references.
///
/// ```
/// use terrain::paper::{PaperWindow, PaperWorld};
/// let world = PaperWorld::new(1, 8, 256, 16);
/// let mut window = Box::new(PaperWindow::<32>::new());
/// window.rebuild(&world, 10, 20, 64); // 64-px tiles from tile (10, 20)
/// assert_eq!(window.get(1, 2), world.tile_at_px(11 * 64 + 32, 22 * 64 + 32));
/// ```
#[derive(Debug, Clone)]
pub struct PaperWindow<const N: usize> {
    refs: [[u16; N]; N],
}

impl<const N: usize> Default for PaperWindow<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> PaperWindow<N> {
    /// All references 0; `const`, for statics.
    ///
    /// ```
    /// let window = terrain::paper::PaperWindow::<8>::new();
    /// assert_eq!(window.get(7, 7), 0);
    /// ```
    pub const fn new() -> Self {
        PaperWindow { refs: [[0; N]; N] }
    }

    /// Bytes of RAM the references take.
    ///
    /// ```
    /// assert_eq!(terrain::paper::PaperWindow::<64>::ram_bytes(), 8192); // the paper's Table 5, 16-bit
    /// ```
    pub const fn ram_bytes() -> usize {
        N * N * 2
    }

    /// Repopulates every reference for tiles of `tile_px` pixels, the first
    /// one at tile (`tx0`, `ty0`); each tile is looked up at its centre pixel.
    ///
    /// ```
    /// use terrain::paper::{PaperWindow, PaperWorld};
    /// let world = PaperWorld::new(1, 8, 256, 16);
    /// let mut window = PaperWindow::<8>::new();
    /// window.rebuild(&world, 0, 0, 32);
    /// assert_eq!(window.get(0, 0), world.tile_at_px(16, 16)); // each tile at its centre
    /// ```
    pub fn rebuild(&mut self, world: &PaperWorld, tx0: u32, ty0: u32, tile_px: u32) {
        for (j, row) in self.refs.iter_mut().enumerate() {
            for (i, r) in row.iter_mut().enumerate() {
                // Wrapping, as C's unsigned arithmetic (and the world) does.
                let px = tx0.wrapping_add(i as u32).wrapping_mul(tile_px).wrapping_add(tile_px / 2);
                let py = ty0.wrapping_add(j as u32).wrapping_mul(tile_px).wrapping_add(tile_px / 2);
                *r = world.tile_at_px(px, py);
            }
        }
    }

    /// Reference at window position (`i`, `j`).
    ///
    /// ```
    /// use terrain::paper::{PaperWindow, PaperWorld};
    /// let world = PaperWorld::new(1, 8, 256, 16);
    /// let mut window = PaperWindow::<8>::new();
    /// window.rebuild(&world, 4, 0, 32);
    /// assert_eq!(window.get(3, 5), world.tile_at_px(7 * 32 + 16, 5 * 32 + 16));
    /// ```
    pub fn get(&self, i: usize, j: usize) -> u16 {
        self.refs[j][i]
    }
}
