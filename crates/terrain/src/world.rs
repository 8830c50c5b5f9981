//! A seeded, wrapping world: the terrain structure grid, the random lookup
//! table, and the integer Perlin-style tile lookup (paper steps 2-4 and 7).
//!
//! Units: a *tile coordinate* counts tiles; the world is `size_tiles()` tiles
//! square (a power of two) and wraps, so any `u32` tile coordinate is valid and
//! `tile_at(x, y) == tile_at(x + size, y)`. Grid points sit every
//! `spacing()` tiles; between them values are interpolated bilinearly in
//! integer arithmetic (x first, then y): the *field*, 0..=255 with fraction
//! bits, defined at every *vertex* (tile corner; vertex (x, y) is tile
//! (x, y)'s top-left corner). What the field picks depends on the bank's
//! [`Placement`]:
//!
//! - **paper**: the field at tile (x, y)'s top-left vertex indexes the random
//!   table, whose entry is the tile (the paper's steps 3 and 4).
//! - **corners**: the table entry of each vertex holds the vertex's *class*
//!   (bits 0..2: how many of the bank's thresholds the field's integer part
//!   reaches) and the vertex's random bit (bit 2). A
//!   tile's four corner classes make its configuration ([`bank::config`]);
//!   the XOR of the random bits at the two ends of each edge is the edge's
//!   variant, and the variants make the tile's combination
//!   ([`bank::combination`]): the tile is `first + combination` of the
//!   configuration's tiles. Both neighbours across an edge see the same two
//!   classes and the same variant, so they carry the same border texels.
//!   The field is smooth, so classes (water, lowland, hills) form landforms
//!   across many tiles.

use crate::rng::Rng;
use bank::{CONFIGS, Placement};

/// Largest grid side (grid points per row).
pub const MAX_GRID: usize = 64;
/// Bits of the random-table index: the interpolated value keeps 2 bits of
/// fraction below its 8-bit integer part.
pub const TABLE_BITS: u32 = 10;
/// Entries in the random lookup table.
pub const TABLE_LEN: usize = 1 << TABLE_BITS;
/// The least spacing, log2 ([`WorldParams::spacing_log2`]).
pub(crate) const MIN_SPACING_LOG2: u8 = 1;
/// Corner placement: entries of the world's table of tiles by their corners'
/// entries ([`corner_key`]).
pub(crate) const CORNER_KEYS: usize = 1 << 12;

/// The index in that table of the tile whose corners have vertex table
/// entries `tl`, `tr`, `bl`, `br` (3 bits each: class and random bit).
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub(crate) const fn corner_key(tl: u8, tr: u8, bl: u8, br: u8) -> usize {
    (tl & 7) as usize | ((tr & 7) as usize) << 3 | ((bl & 7) as usize) << 6 | ((br & 7) as usize) << 9
}

/// The shape of a world.
///
/// ```
/// use terrain::WorldParams;
/// // A 32 x 32 grid, 4 tiles apart: 128 x 128 tiles, 10 distinct tiles.
/// let params = WorldParams { grid_log2: 5, spacing_log2: 2, tile_count: 10 }.validate().unwrap();
/// assert_eq!(params.size_tiles(), 128);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorldParams {
    /// log2 of the grid side: 2 (4x4) ..= 6 (64x64).
    pub grid_log2: u8,
    /// log2 of the tiles between grid points: 1 (2 tiles) ..= 7 (128 tiles).
    pub spacing_log2: u8,
    /// Distinct tiles to choose from: 1 ..= 256.
    pub tile_count: u16,
}

impl WorldParams {
    /// The product's default: a 16x16 grid, 8 tiles between grid points
    /// (128x128 tiles; with the built-in bank's tiles of 32 texels, 128
    /// world px, a 16,384 x 16,384-pixel world).
    pub const DEFAULT: WorldParams = WorldParams { grid_log2: 4, spacing_log2: 3, tile_count: 16 };

    /// Checks the ranges above.
    ///
    /// ```
    /// use terrain::{ParamError, WorldParams};
    /// let bad = WorldParams { grid_log2: 9, ..WorldParams::DEFAULT };
    /// assert_eq!(bad.validate(), Err(ParamError::Grid(9)));
    /// assert!(WorldParams::DEFAULT.validate().is_ok());
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub const fn validate(self) -> Result<Self, ParamError> {
        if self.grid_log2 < 2 || self.grid_log2 > 6 {
            return Err(ParamError::Grid(self.grid_log2));
        }
        if self.spacing_log2 < MIN_SPACING_LOG2 || self.spacing_log2 > 7 {
            return Err(ParamError::Spacing(self.spacing_log2));
        }
        if self.tile_count == 0 || self.tile_count > 256 {
            return Err(ParamError::TileCount(self.tile_count));
        }
        Ok(self)
    }

    /// World side, in tiles.
    ///
    /// # Panics
    /// In debug builds, for parameters [`WorldParams::validate`] refuses
    /// whose grid and spacing add up to 32 or more (the side overflows).
    ///
    /// ```
    /// assert_eq!(terrain::WorldParams::DEFAULT.size_tiles(), 128); // 16 grid points, 8 tiles apart
    /// ```
    #[inline(always)]
    pub const fn size_tiles(self) -> u32 {
        1 << (self.grid_log2 + self.spacing_log2)
    }
}

/// Parameters out of range.
///
/// ```
/// use terrain::{World, WorldParams};
/// let err = World::new(1, WorldParams { tile_count: 0, ..WorldParams::DEFAULT }).unwrap_err();
/// assert_eq!(err.to_string(), "tile_count 0 is outside 1..=256");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamError {
    /// grid_log2 must be 2..=6.
    Grid(u8),
    /// spacing_log2 must be 1..=7.
    Spacing(u8),
    /// tile_count must be 1..=256.
    TileCount(u16),
    /// Corner placement: a middle class is narrower than the field can move
    /// between two diagonal vertices at this spacing (`need` field units), so
    /// a tile could have corners three classes apart, which banks need not
    /// hold.
    ClassBand { spacing_log2: u8, need: u16 },
}

impl core::fmt::Display for ParamError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ParamError::Grid(g) => write!(f, "grid_log2 {g} is outside 2..=6 (4x4 to 64x64)"),
            ParamError::Spacing(s) => {
                write!(f, "spacing_log2 {s} is outside 1..=7 (2 to 128 tiles)")
            }
            ParamError::TileCount(t) => write!(f, "tile_count {t} is outside 1..=256"),
            ParamError::ClassBand { spacing_log2, need } => write!(
                f,
                "a middle corner class is narrower than {need} field units, the most the field moves \
                 across a tile at spacing 2^{spacing_log2}: use a wider spacing or fewer classes"
            ),
        }
    }
}

/// The most the field (8.0, integer units) moves between two diagonal
/// vertices of one tile at this spacing, plus one: a middle class this wide
/// keeps every tile's corners within two neighbouring classes.
///
/// ```
/// use terrain::class_band;
/// assert_eq!(class_band(3), 64); // 8 tiles between grid points: middle classes 64 wide
/// assert_eq!(class_band(1), 256); // 2 tiles: no room for a middle class
/// assert_eq!(class_band(20), 1); // (no valid spacing, but no overflow)
/// ```
pub const fn class_band(spacing_log2: u8) -> u16 {
    // Along an axis the field moves at most 255 / spacing per tile; a
    // diagonal is two such moves. Two thresholds t1 < t2 crossed on one
    // diagonal need v2 - v1 > t2 - t1 - 1 + 1/64 (integer parts).
    // (Any spacing: no shift overflows; past 8, no field change at all.)
    match (2 * 255u16).checked_shr(spacing_log2 as u32) {
        Some(v) => v + 1,
        None => 1,
    }
}

/// Checks that every middle class of `thresholds` is at least
/// [`class_band`] wide at spacing 2^`spacing_log2`.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
fn check_bands(classes: u8, thresholds: &[u8; 3], spacing_log2: u8) -> Result<(), ParamError> {
    let need = class_band(spacing_log2);
    let mut k = 1;
    while k + 1 < classes as usize && k < 3 {
        if (thresholds[k] as u16) < thresholds[k - 1] as u16 + need {
            return Err(ParamError::ClassBand { spacing_log2, need });
        }
        k += 1;
    }
    Ok(())
}

/// A world: grid values, random table, placement tables, parameters and seed.
/// About 9.7 KB; on the GBA keep it in a `static` (EWRAM) and
/// [`World::regenerate`] it in place.
///
/// ```
/// use terrain::{World, WorldParams};
/// // On the GBA: a `static` (EWRAM, `.bss`), taken once as `&mut` (the
/// // ROM's `Static<World>`), then regenerated in place.
/// let mut world = Box::new(World::empty());
/// world.regenerate(42, WorldParams::DEFAULT).unwrap();
/// let tile = world.tile_at(3, 4); // the tile at tile coordinates (3, 4)
/// assert!(tile < 16);
/// ```
#[derive(Clone)]
pub struct World {
    params: WorldParams,
    seed: u32,
    /// True for corner placement, false for the paper's.
    corners: bool,
    /// Corner placement: class thresholds (field values where classes 1, 2, 3 begin).
    thresholds: [u8; 3],
    /// Corner classes (0 for the paper's placement).
    classes: u8,
    /// Grid values, row-major with a fixed row stride of [`MAX_GRID`].
    grid: [u8; MAX_GRID * MAX_GRID],
    /// Paper: the tile of each interpolated value (the paper's random array,
    /// with the reduction to the tile count already applied). Corners: each
    /// value's class | a random bit << 2.
    table: [u8; TABLE_LEN],
    /// Corner placement: each configuration's tiles, `first | count << 8`.
    configs: [u16; CONFIGS],
    /// Corner placement: the tile of each four corner entries, by
    /// [`corner_key`] (from `configs`, when the placement is set), so that
    /// the line walks on the GBA look a tile up in one load.
    corner_tiles: [u8; CORNER_KEYS],
    /// Corner placement: the largest tile any configuration names.
    max_corner_tile: u8,
}

impl Default for World {
    /// [`World::empty`].
    fn default() -> Self {
        World::empty()
    }
}

impl core::fmt::Debug for World {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("World").field("params", &self.params).field("seed", &self.seed).finish_non_exhaustive()
    }
}

impl World {
    /// An all-zero world (every tile is tile 0) with the default parameters
    /// and the paper's placement; `const`, for statics.
    ///
    /// ```
    /// let world = terrain::World::empty();
    /// assert_eq!((world.tile_at(5, 9), world.seed()), (0, 0));
    /// ```
    pub const fn empty() -> Self {
        World {
            params: WorldParams::DEFAULT,
            seed: 0,
            corners: false,
            thresholds: [0; 3],
            classes: 0,
            grid: [0; MAX_GRID * MAX_GRID],
            table: [0; TABLE_LEN],
            configs: [0; CONFIGS],
            corner_tiles: [0; CORNER_KEYS],
            max_corner_tile: 0,
        }
    }

    /// A world for `seed` and `params`, with the paper's placement.
    ///
    /// ```
    /// use terrain::{World, WorldParams};
    /// let a = World::new(1, WorldParams::DEFAULT).unwrap();
    /// let b = World::new(1, WorldParams::DEFAULT).unwrap();
    /// assert_eq!(a.fingerprint(), b.fingerprint()); // the seed decides everything
    /// ```
    pub fn new(seed: u32, params: WorldParams) -> Result<Self, ParamError> {
        Self::with_placement(seed, params, &Placement::Paper)
    }

    /// A world for `seed` and `params` placing tiles by `placement` (for
    /// corner placement `params.tile_count` is not used: the configurations
    /// name the tiles).
    ///
    /// ```
    /// use bank::{ConfigTiles, Corners, Placement};
    /// use terrain::{World, WorldParams};
    /// // Two corner classes split at field value 128; configuration c uses tile c.
    /// let configs = core::array::from_fn(|c| ConfigTiles { first: c as u8, count: 1 });
    /// let corners = Corners { classes: 2, thresholds: [128, 0, 0], configs };
    /// let world = World::with_placement(7, WorldParams::DEFAULT, &Placement::Corners(corners)).unwrap();
    /// let [tl, tr, bl, br] = [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(dx, dy)| world.vertex_class(10 + dx, 20 + dy));
    /// assert_eq!(world.tile_at(10, 20), bank::config(tl, tr, bl, br));
    /// ```
    pub fn with_placement(seed: u32, params: WorldParams, placement: &Placement) -> Result<Self, ParamError> {
        let mut w = World::empty();
        w.set_placement(params, placement)?;
        w.regenerate(seed, params)?;
        Ok(w)
    }

    /// The world of `seed` for `bank`: the default grid and spacing, the
    /// bank's tile count and placement.
    ///
    /// ```
    /// let bytes = bank::encode(&bank::Contents {
    ///     tile_size: 8,
    ///     palette: &[0x7FFF],
    ///     tiles: &[bank::texel(3, 0); 3 * 64],
    ///     placement: bank::Placement::Paper,
    ///     height_scale: bank::HEIGHT_SCALE_ONE,
    /// })
    /// .unwrap();
    /// let world = terrain::World::for_bank(5, &bank::parse(&bytes).unwrap()).unwrap();
    /// assert_eq!(world.max_tile(), 2); // the bank's three tiles
    /// ```
    pub fn for_bank(seed: u32, bank: &bank::Bank<'_>) -> Result<Self, ParamError> {
        Self::with_placement(seed, Self::params_for(bank), &bank.placement())
    }

    /// The default parameters with `bank`'s tile count.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 8, palette: &[0x7FFF], tiles: &[bank::texel(3, 0); 3 * 64], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// let params = terrain::World::params_for(&bank::parse(&bytes).unwrap());
    /// assert_eq!((params.grid_log2, params.tile_count), (terrain::WorldParams::DEFAULT.grid_log2, 3));
    /// ```
    pub fn params_for(bank: &bank::Bank<'_>) -> WorldParams {
        WorldParams { tile_count: bank.tile_count() as u16, ..WorldParams::DEFAULT }
    }

    /// Sets how tiles are placed; the table is made for it at the next
    /// [`World::regenerate`] (until then the lookup and the walks place tiles
    /// alike from the old table, read the new way). Checks that corner
    /// classes suit `params`'s spacing ([`class_band`]), and refuses
    /// parameters [`WorldParams::validate`] refuses, leaving the world as it
    /// was.
    ///
    /// ```
    /// use bank::{ConfigTiles, Corners, Placement};
    /// use terrain::{ParamError, World, WorldParams};
    /// let mut world = Box::new(World::empty());
    /// // Three classes whose middle one (100 ..= 119) is narrower than the 64
    /// // field units the default spacing needs.
    /// let configs = [ConfigTiles { first: 0, count: 1 }; bank::CONFIGS];
    /// let narrow = Corners { classes: 3, thresholds: [100, 120, 0], configs };
    /// let err = world.set_placement(WorldParams::DEFAULT, &Placement::Corners(narrow)).unwrap_err();
    /// assert_eq!(err, ParamError::ClassBand { spacing_log2: 3, need: 64 });
    /// let wide = WorldParams { spacing_log2: 20, ..WorldParams::DEFAULT };
    /// assert_eq!(world.set_placement(wide, &Placement::Paper), Err(ParamError::Spacing(20)));
    /// world.set_placement(WorldParams::DEFAULT, &Placement::Paper).unwrap();
    /// ```
    pub fn set_placement(&mut self, params: WorldParams, placement: &Placement) -> Result<(), ParamError> {
        #[allow(clippy::question_mark)]
        if let Err(e) = params.validate() {
            return Err(e);
        }
        match placement {
            Placement::Paper => {
                self.corners = false;
                self.classes = 0;
            }
            Placement::Corners(c) => {
                #[allow(clippy::question_mark)]
                if let Err(e) = check_bands(c.classes, &c.thresholds, params.spacing_log2) {
                    return Err(e);
                }
                self.corners = true;
                self.classes = c.classes;
                // Until the next `regenerate` the table may hold the paper's
                // tile references: keep every entry a vertex entry of these
                // classes (class and random bit), which the corner walkers use
                // to index the table of tiles below.
                let top = self.classes.max(1) - 1;
                for e in self.table.iter_mut() {
                    *e = (*e & 4) | (*e & 3).min(top);
                }
                self.thresholds = c.thresholds;
                let mut max = 0u32;
                for (d, e) in self.configs.iter_mut().zip(c.configs.iter()) {
                    // A configuration of no tiles counts as one: its first.
                    let e = bank::ConfigTiles { first: e.first, count: e.count.max(1) };
                    *d = e.to_u16();
                    max = max.max(e.first as u32 + e.count as u32 - 1);
                }
                self.max_corner_tile = max.min(255) as u8;
                // The keys of the classes the world makes (entries: class |
                // random bit << 2); the others never occur.
                self.corner_tiles = [0; CORNER_KEYS];
                let real = |e: u8| e & 3 < self.classes;
                for tl in (0..8).filter(|&e| real(e)) {
                    for tr in (0..8).filter(|&e| real(e)) {
                        for bl in (0..8).filter(|&e| real(e)) {
                            for br in (0..8).filter(|&e| real(e)) {
                                self.corner_tiles[corner_key(tl, tr, bl, br)] = self.corner_tile(tl, tr, bl, br);
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Refills the grid and the table for a new seed (the paper's "new world").
    /// On the GBA: ARM code in IWRAM.
    ///
    /// ```
    /// use terrain::{World, WorldParams};
    /// let mut world = Box::new(World::new(1, WorldParams::DEFAULT).unwrap());
    /// world.regenerate(2, WorldParams::DEFAULT).unwrap(); // in place: no second 9.7 KB
    /// assert_eq!(world.fingerprint(), World::new(2, WorldParams::DEFAULT).unwrap().fingerprint());
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32), unsafe(link_section = ".iwram.terrain"), inline(never))]
    pub fn regenerate(&mut self, seed: u32, params: WorldParams) -> Result<(), ParamError> {
        // Not `?`: its `From::from` is a `core` function, which the GBA's ARM
        // code could not inline.
        #[allow(clippy::question_mark)]
        let params = match params.validate() {
            Ok(p) => p,
            Err(e) => return Err(e),
        };
        if self.corners {
            #[allow(clippy::question_mark)]
            if let Err(e) = check_bands(self.classes, &self.thresholds, params.spacing_log2) {
                return Err(e);
            }
        }
        self.params = params;
        self.seed = seed;
        let mut rng = Rng::new(seed);
        self.fill_grid(&mut rng);
        if self.corners {
            self.fill_vertex_table(&mut rng);
        } else {
            self.fill_table(&mut rng);
        }
        Ok(())
    }

    /// Grid values: four per random word. (Hot-path code below uses only
    /// operators, array indexing with provable bounds and `while` loops: on the
    /// GBA, `core`'s Thumb functions cannot be inlined into ARM code.)
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    fn fill_grid(&mut self, rng: &mut Rng) {
        let g = 1usize << self.params.grid_log2;
        let mut y = 0;
        while y < g {
            let mut x = 0;
            while x < g {
                let r = rng.next_u32();
                let i = (y * MAX_GRID + x) & (MAX_GRID * MAX_GRID - 4);
                self.grid[i] = r as u8;
                self.grid[i + 1] = (r >> 8) as u8;
                self.grid[i + 2] = (r >> 16) as u8;
                self.grid[i + 3] = (r >> 24) as u8;
                x += 4;
            }
            y += 1;
        }
    }

    /// The table: every tile the same number of times (to within one), in a
    /// random order, so no tile is favoured by the table itself. Inside-out
    /// Fisher-Yates (fill and shuffle in one pass), two 16-bit draws per
    /// random word; a draw below `i + 1 <= 1024` from 16 bits is uneven by at
    /// most 1024 / 65536, which only nudges which permutation comes out.
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    fn fill_table(&mut self, rng: &mut Rng) {
        let t = self.params.tile_count as u32;
        let mut i = 0;
        while i < TABLE_LEN {
            let r = rng.next_u32();
            let mut k = 0;
            while k < 2 {
                let draw = if k == 0 { r & 0xFFFF } else { r >> 16 };
                let j = ((draw * (i as u32 + 1)) >> 16) as usize & (TABLE_LEN - 1);
                self.table[i] = self.table[j];
                self.table[j] = ((i as u32 * t) >> TABLE_BITS) as u8;
                i += 1;
                k += 1;
            }
        }
    }

    /// Corner placement's vertex table: entry `i` (field `i / 4`, 8.2 fixed
    /// point) holds the field's class and a random bit above it (bit 2): the
    /// lowest of 6 random bits, each of the 64 values 16 times, shuffled as
    /// [`World::fill_table`] does.
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    fn fill_vertex_table(&mut self, rng: &mut Rng) {
        let mut i = 0;
        while i < TABLE_LEN {
            let r = rng.next_u32();
            let mut k = 0;
            while k < 2 {
                let draw = if k == 0 { r & 0xFFFF } else { r >> 16 };
                let j = ((draw * (i as u32 + 1)) >> 16) as usize & (TABLE_LEN - 1);
                self.table[i] = self.table[j];
                self.table[j] = ((i as u32 * 64) >> TABLE_BITS) as u8;
                i += 1;
                k += 1;
            }
        }
        // Random bits above the class bits.
        let mut i = 0;
        while i < TABLE_LEN {
            let v = (i >> 2) as u8;
            let mut class = 0u8;
            let mut k = 0;
            while k + 1 < self.classes as usize && k < 3 {
                if v >= self.thresholds[k] {
                    class += 1;
                }
                k += 1;
            }
            self.table[i] = (self.table[i] & 1) << 2 | class;
            i += 1;
        }
    }

    /// The largest tile reference the world can produce: every reference in
    /// a window over it is at most this.
    ///
    /// ```
    /// # use terrain::{World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// assert_eq!(world.max_tile(), 15); // the paper's placement: tile_count - 1
    /// ```
    pub fn max_tile(&self) -> u8 {
        if self.corners { self.max_corner_tile } else { (self.params.tile_count - 1) as u8 }
    }

    /// True for corner placement.
    ///
    /// ```
    /// # use terrain::{World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// assert!(!world.is_corners());
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn is_corners(&self) -> bool {
        self.corners
    }

    /// The parameters.
    ///
    /// ```
    /// # use terrain::{World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// assert_eq!(world.params(), WorldParams::DEFAULT);
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn params(&self) -> WorldParams {
        self.params
    }

    /// The seed.
    ///
    /// ```
    /// # use terrain::{World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// assert_eq!(world.seed(), 7);
    /// ```
    pub fn seed(&self) -> u32 {
        self.seed
    }

    /// Grid side, in grid points.
    ///
    /// ```
    /// # use terrain::{World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// assert_eq!(world.grid_side(), 16);
    /// ```
    pub fn grid_side(&self) -> usize {
        1 << self.params.grid_log2
    }

    /// Tiles between grid points.
    ///
    /// ```
    /// # use terrain::{World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// assert_eq!(world.spacing(), 8);
    /// ```
    pub fn spacing(&self) -> u32 {
        1 << self.params.spacing_log2
    }

    /// World side, in tiles (a power of two).
    ///
    /// ```
    /// # use terrain::{World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// assert_eq!(world.size_tiles(), world.grid_side() as u32 * world.spacing());
    /// assert_eq!(world.tile_at(world.size_tiles() + 3, 0), world.tile_at(3, 0)); // it wraps
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn size_tiles(&self) -> u32 {
        self.params.size_tiles()
    }

    /// The grid value at grid point (`gx`, `gy`), wrapping.
    ///
    /// ```
    /// # use terrain::{World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// assert_eq!(world.grid_value(16 + 1, 2), world.grid_value(1, 2));
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn grid_value(&self, gx: u32, gy: u32) -> u8 {
        let m = (1u32 << self.params.grid_log2) - 1;
        // The extra masks cost nothing and prove the index in bounds (m < 64).
        let (x, y) = ((gx & m) as usize & (MAX_GRID - 1), (gy & m) as usize & (MAX_GRID - 1));
        self.grid[y * MAX_GRID + x]
    }

    /// Bytes of RAM the world occupies.
    ///
    /// ```
    /// assert!(terrain::World::ram_bytes() < 10 * 1024); // 4 KB of it the corner placement's tiles
    /// ```
    pub const fn ram_bytes() -> usize {
        core::mem::size_of::<World>()
    }

    /// The interpolated value at tile (`tx`, `ty`), in 8.2k fixed point where
    /// k = 2 * spacing_log2 (grid values times spacing squared).
    ///
    /// ```
    /// # use terrain::{World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// // At a grid point (8 tiles apart) the value is the grid value, in 8.6 fixed point.
    /// assert_eq!(world.value_at(8, 16), (world.grid_value(1, 2) as u32) << 6);
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn value_at(&self, tx: u32, ty: u32) -> u32 {
        let s = self.params.spacing_log2 as u32;
        let one = 1u32 << s;
        let (cx, fx) = (tx >> s, tx & (one - 1));
        let (cy, fy) = (ty >> s, ty & (one - 1));
        let a = self.grid_value(cx, cy) as u32;
        let b = self.grid_value(cx.wrapping_add(1), cy) as u32;
        let c = self.grid_value(cx, cy.wrapping_add(1)) as u32;
        let d = self.grid_value(cx.wrapping_add(1), cy.wrapping_add(1)) as u32;
        let top = a * (one - fx) + b * fx;
        let bottom = c * (one - fx) + d * fx;
        top * (one - fy) + bottom * fy
    }

    /// Right shift from [`World::value_at`] to a table index.
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    fn index_shift(&self) -> u32 {
        2 * self.params.spacing_log2 as u32 + 8 - TABLE_BITS
    }

    /// The table entry of vertex (`vx`, `vy`): the field's entry in the random table.
    ///
    /// ```
    /// # use terrain::{World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// // The paper's placement: the vertex's entry is the tile whose top-left corner it is.
    /// assert_eq!(world.vertex_entry(10, 20), world.tile_at(10, 20));
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn vertex_entry(&self, vx: u32, vy: u32) -> u8 {
        let index = (self.value_at(vx, vy) >> self.index_shift()) as usize;
        self.table[index & (TABLE_LEN - 1)]
    }

    /// The corner class (0 .. classes) of vertex (`vx`, `vy`); 0 for the paper's placement.
    ///
    /// ```
    /// # let configs = core::array::from_fn(|c| bank::ConfigTiles { first: c as u8, count: 1 });
    /// # let corners = bank::Corners { classes: 2, thresholds: [128, 0, 0], configs };
    /// # let world = terrain::World::with_placement(7, terrain::WorldParams::DEFAULT, &bank::Placement::Corners(corners)).unwrap();
    /// assert!(world.vertex_class(10, 20) < 2); // two classes
    /// ```
    pub fn vertex_class(&self, vx: u32, vy: u32) -> u8 {
        if self.corners { self.vertex_entry(vx, vy) & 3 } else { 0 }
    }

    /// The tile at tile coordinate (`tx`, `ty`): any `u32`, the world wraps.
    ///
    /// ```
    /// use terrain::{World, WorldParams};
    /// let params = WorldParams { tile_count: 4, ..WorldParams::DEFAULT };
    /// let world = World::new(7, params).unwrap();
    /// let side = world.size_tiles(); // 128 tiles
    /// assert!(world.tile_at(3, 5) < 4);
    /// assert_eq!(world.tile_at(3, 5), world.tile_at(3 + side, 5 + 2 * side));
    /// // The same seed gives the same world, anywhere.
    /// assert_eq!(World::new(7, params).unwrap().fingerprint(), world.fingerprint());
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn tile_at(&self, tx: u32, ty: u32) -> u8 {
        let tl = self.vertex_entry(tx, ty);
        if !self.corners {
            return tl;
        }
        let (x1, y1) = (tx.wrapping_add(1), ty.wrapping_add(1));
        self.corner_tile(tl, self.vertex_entry(x1, ty), self.vertex_entry(tx, y1), self.vertex_entry(x1, y1))
    }

    /// Corner placement: the tile whose corners have vertex table entries
    /// `tl`, `tr`, `bl`, `br`.
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub(crate) fn corner_tile(&self, tl: u8, tr: u8, bl: u8, br: u8) -> u8 {
        let config = (tl & 3) | (tr & 3) << 2 | (bl & 3) << 4 | (br & 3) << 6;
        let e = self.configs[config as usize] as u32;
        // Edge variants from bit 2 of each entry (see `bank::combination`).
        let combination = (((tl ^ tr) >> 2) & 1) | (((bl ^ br) >> 1) & 2) | ((tl ^ bl) & 4);
        ((e & 0xFF) + (combination as u32 & ((e >> 8) - 1))) as u8
    }

    /// Writes the tiles (`tx0 + i`, `ty`), i in `0..out.len()`, into `out[i]`.
    /// Gives exactly [`World::tile_at`], a few adds per tile.
    ///
    /// ```
    /// # use terrain::{World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// let mut row = [0u8; 300]; // longer than the world: it wraps
    /// world.fill_row(5, 9, &mut row);
    /// assert!((0..300).all(|i| row[i] == world.tile_at(5 + i as u32, 9)));
    /// ```
    pub fn fill_row(&self, tx0: u32, ty: u32, out: &mut [u8]) {
        // SAFETY: `out` is out.len() writable bytes.
        unsafe { self.walk(false, tx0, ty, out.len(), out as *mut [u8] as *mut u8 as usize) };
    }

    /// Writes the tiles (`tx`, `ty0 + i`), i in `0..out.len()`, into `out[i]`.
    ///
    /// ```
    /// # use terrain::{World, WorldParams};
    /// # let world = World::new(7, WorldParams::DEFAULT).unwrap();
    /// let mut column = [0u8; 40];
    /// world.fill_column(5, 9, &mut column);
    /// assert!((0..40).all(|i| column[i] == world.tile_at(5, 9 + i as u32)));
    /// ```
    pub fn fill_column(&self, tx: u32, ty0: u32, out: &mut [u8]) {
        // SAFETY: as above.
        unsafe { self.walk(true, ty0, tx, out.len(), out as *mut [u8] as *mut u8 as usize) };
    }

    /// `n` tiles from `t0` along tile row `fixed` (`down` false) or tile
    /// column `fixed` (`down` true), into the `n` bytes from address `out`,
    /// by the walk of the world's placement (on the GBA: the line walker or
    /// the corner walker of `fill_kernels`, ARM code in IWRAM).
    ///
    /// # Safety
    /// `out` must be the address of `n` writable bytes.
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32), unsafe(link_section = ".iwram.terrain"), inline(never))]
    pub(crate) unsafe fn walk(&self, down: bool, t0: u32, fixed: u32, n: usize, out: usize) {
        // SAFETY: the caller's contract.
        #[cfg(target_arch = "arm")]
        unsafe {
            crate::fill_kernels::walk_arm(self, down, t0, fixed, n, out)
        };
        #[cfg(not(target_arch = "arm"))]
        {
            let ring = RingOut { base: out, start: 0, mask: usize::MAX, stride: 1 };
            // SAFETY: the caller's contract.
            unsafe {
                if self.corners {
                    self.fill_line_corners(down, t0, fixed, n, ring)
                } else if down {
                    self.fill_line::<true>(t0, fixed, n, ring)
                } else {
                    self.fill_line::<false>(t0, fixed, n, ring)
                }
            }
        }
    }

    /// Corner placement's walk on the host (on the GBA the corner walker in
    /// `fill_kernels` does it, reading the same tiles from the table of
    /// tiles by corner entries; the in-ROM kernel tests check both against
    /// [`World::tile_at`]): `n` tiles from `t0` along tile row `fixed`
    /// (`down` false) or tile column `fixed` (`down` true), stored through
    /// `out`. It walks the two vertex lines on either side of the tile line
    /// together, one grid cell at a time (inside a cell the field is linear
    /// along each line): per tile two adds, two table reads and the
    /// configuration lookup.
    ///
    /// # Safety
    /// `out` must describe `n` writable bytes (see [`RingOut`]).
    #[cfg(not(target_arch = "arm"))]
    pub(crate) unsafe fn fill_line_corners(&self, down: bool, t0: u32, fixed: u32, n: usize, out: RingOut) {
        let s = self.params.spacing_log2 as u32;
        let one = 1u32 << s;
        let up = self.scale();
        let f1 = fixed.wrapping_add(1);
        let (ca, fa) = (fixed >> s, fixed & (one - 1));
        let (cb, fb) = (f1 >> s, f1 & (one - 1));
        let table = &self.table;
        let mut t = t0;
        let mut near_a = self.across_at(down, t >> s, ca, fa);
        let mut near_b = self.across_at(down, t >> s, cb, fb);
        // The entries of the tile's leading vertices (top-left and bottom-left
        // along a row; top-left and top-right down a column).
        let mut lead_a = 0u8;
        let mut lead_b = 0u8;
        let mut i = 0;
        // n tiles need n + 1 vertices along the line.
        let mut left = n + 1;
        while left > 0 {
            let (ct, ft) = (t >> s, t & (one - 1));
            let far_a = self.across_at(down, ct.wrapping_add(1), ca, fa);
            let far_b = self.across_at(down, ct.wrapping_add(1), cb, fb);
            let step_a = ((far_a - near_a) as u32) << up;
            let step_b = ((far_b - near_b) as u32) << up;
            let mut va = (((near_a << s) + (far_a - near_a) * ft as i32) as u32) << up;
            let mut vb = (((near_b << s) + (far_b - near_b) * ft as i32) as u32) << up;
            let mut run = (one - ft) as usize;
            if run > left {
                run = left;
            }
            let end = i + run;
            while i < end {
                let ea = table[(va >> (32 - TABLE_BITS)) as usize & (TABLE_LEN - 1)];
                let eb = table[(vb >> (32 - TABLE_BITS)) as usize & (TABLE_LEN - 1)];
                if i > 0 {
                    // Down a column the lines are the tile column's left and
                    // right vertex columns, and `lead` holds its top vertices.
                    let tile = if down {
                        self.corner_tile(lead_a, lead_b, ea, eb)
                    } else {
                        self.corner_tile(lead_a, ea, lead_b, eb)
                    };
                    // SAFETY: i - 1 < n; the caller's contract.
                    unsafe { out.put(i - 1, tile) };
                }
                lead_a = ea;
                lead_b = eb;
                va = va.wrapping_add(step_a);
                vb = vb.wrapping_add(step_b);
                i += 1;
            }
            left -= run;
            t = t.wrapping_add(run as u32);
            near_a = far_a;
            near_b = far_b;
        }
    }

    /// [`World::across`] with the direction chosen at run time.
    #[cfg(not(target_arch = "arm"))]
    #[inline(always)]
    fn across_at(&self, down: bool, along: u32, cf: u32, ff: u32) -> i32 {
        if down { self.across::<true>(along, cf, ff) } else { self.across::<false>(along, cf, ff) }
    }

    /// The paper placement's walk for [`World::walk`] on the host (on the GBA
    /// the line walker in `fill_kernels` does it; the in-ROM kernel tests
    /// check both against [`World::tile_at`]): `n` tiles
    /// from `t0` along x (`DOWN` false; `fixed` is y) or along y (`DOWN` true;
    /// `fixed` is x), handed to `out.put(i, tile)`. One grid cell at a time:
    /// inside a cell the bilinear interpolation is linear along the walk, so a
    /// tile costs one add and one table read (see [`World::scale`]).
    ///
    /// # Safety
    /// `out` must describe `n` writable bytes (see [`RingOut`]).
    #[cfg(not(target_arch = "arm"))]
    pub(crate) unsafe fn fill_line<const DOWN: bool>(&self, t0: u32, fixed: u32, n: usize, out: RingOut) {
        let s = self.params.spacing_log2 as u32;
        let one = 1u32 << s;
        let up = self.scale();
        let (cf, ff) = (fixed >> s, fixed & (one - 1));
        let mut t = t0;
        let mut near = self.across::<DOWN>(t >> s, cf, ff);
        let mut i = 0;
        while i < n {
            let (ct, ft) = (t >> s, t & (one - 1));
            let far = self.across::<DOWN>(ct.wrapping_add(1), cf, ff);
            // value = (near << s) + (far - near) * ft, scaled up so that the
            // table index is its top TABLE_BITS bits.
            let step = ((far - near) as u32) << up;
            let mut v = (((near << s) + (far - near) * ft as i32) as u32) << up;
            let mut run = (one - ft) as usize;
            if run > n - i {
                run = n - i;
            }
            let end = i + run;
            while i < end {
                // SAFETY: i < n; the caller's contract.
                unsafe { out.put(i, self.table[(v >> (32 - TABLE_BITS)) as usize]) };
                v = v.wrapping_add(step);
                i += 1;
            }
            t = t.wrapping_add(run as u32);
            near = far;
        }
    }

    /// The grid line at index `along` (a column when walking along x, a row
    /// when walking down), interpolated across the walk at cell `cf`, fraction
    /// `ff`: `g0 * (one - ff) + g1 * ff`, in grid units times the spacing.
    #[cfg(not(target_arch = "arm"))]
    #[inline(always)]
    fn across<const DOWN: bool>(&self, along: u32, cf: u32, ff: u32) -> i32 {
        let s = self.params.spacing_log2 as u32;
        let (g0, g1) = if DOWN {
            (self.grid_value(cf, along), self.grid_value(cf.wrapping_add(1), along))
        } else {
            (self.grid_value(along, cf), self.grid_value(along, cf.wrapping_add(1)))
        };
        ((g0 as i32) << s) + (g1 as i32 - g0 as i32) * ff as i32
    }

    /// Left shift that puts an interpolated value's table index in its top
    /// [`TABLE_BITS`] bits: values are below 2^(8 + 2 * spacing_log2), so
    /// `v << scale() >> (32 - TABLE_BITS)` is `v >> index_shift()` and needs no mask.
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub(crate) fn scale(&self) -> u32 {
        32 - 8 - 2 * self.params.spacing_log2 as u32
    }

    /// The grid values (row-major, row stride [`MAX_GRID`]).
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub(crate) fn grid(&self) -> &[u8; MAX_GRID * MAX_GRID] {
        &self.grid
    }

    /// The random table (tile of each table index).
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub(crate) fn table(&self) -> &[u8; TABLE_LEN] {
        &self.table
    }

    /// Corner placement: the tiles by [`corner_key`].
    #[cfg(any(target_arch = "arm", test))]
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub(crate) fn corner_tiles(&self) -> &[u8; CORNER_KEYS] {
        &self.corner_tiles
    }

    /// FNV-1a (32-bit) over every tile of the world, row by row: a fingerprint
    /// to compare worlds made on different machines (the GBA logs it).
    ///
    /// ```
    /// use terrain::{World, WorldParams};
    /// let (a, b) = (World::new(1, WorldParams::DEFAULT).unwrap(), World::new(2, WorldParams::DEFAULT).unwrap());
    /// assert_ne!(a.fingerprint(), b.fingerprint());
    /// ```
    pub fn fingerprint(&self) -> u32 {
        let n = self.size_tiles();
        let mut h: u32 = 0x811C_9DC5;
        let mut row = [0u8; 256];
        for y in 0..n {
            for x0 in (0..n).step_by(256) {
                let len = (n - x0).min(256) as usize;
                self.fill_row(x0, y, &mut row[..len]);
                for t in &row[..len] {
                    h = (h ^ *t as u32).wrapping_mul(0x0100_0193);
                }
            }
        }
        h
    }
}

/// One ring row of the window, word aligned so that four references can be
/// stored at once.
#[derive(Clone, Copy)]
#[repr(C, align(4))]
pub(crate) struct RingRowBytes<const N: usize>(pub(crate) [u8; N]);

// Four tiles per word store assume the byte order of both the GBA and our hosts.
const _: () = assert!(cfg!(target_endian = "little"), "tile words are packed little-endian");

/// Where a line walk stores its `i`-th tile: at address
/// `base + ((start + i) & mask) * stride` (a window's ring row or column, or
/// a plain slice).
#[cfg(not(target_arch = "arm"))]
#[derive(Clone, Copy)]
pub(crate) struct RingOut {
    pub(crate) base: usize,
    pub(crate) start: usize,
    pub(crate) mask: usize,
    pub(crate) stride: usize,
}

#[cfg(not(target_arch = "arm"))]
impl RingOut {
    /// Stores tile `t` as the line's `i`-th.
    ///
    /// # Safety
    /// The address must be writable (the walk's contract).
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    unsafe fn put(self, i: usize, t: u8) {
        // SAFETY: the caller's contract; integer addressing because `core`'s
        // pointer methods cannot be inlined into ARM code on the GBA.
        unsafe { *((self.base + ((self.start + i) & self.mask) * self.stride) as *mut u8) = t };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of tiles by corner entries holds what `corner_tile` gives,
    /// for every entry (class and random bit) of every corner: four classes
    /// use every key; with two, the keys of classes 2 and 3 never occur.
    #[test]
    fn corner_tiles_table_matches_the_lookup() {
        let two = bank::Corners {
            classes: 2,
            thresholds: [128, 0, 0],
            configs: [bank::ConfigTiles { first: 9, count: 8 }; CONFIGS],
        };
        let w = World::with_placement(3, WorldParams::DEFAULT, &Placement::Corners(two)).unwrap();
        for key in 0..CORNER_KEYS {
            let e = |k: usize| (key >> (3 * k)) as u8 & 7;
            if (0..4).all(|k| e(k) & 3 < 2) {
                assert_eq!(w.corner_tiles()[key], w.corner_tile(e(0), e(1), e(2), e(3)));
            }
        }
        let configs = core::array::from_fn(|c| bank::ConfigTiles {
            first: (c % 29 * 8) as u8,
            count: if c % 3 == 0 { 1 } else { bank::COMBINATIONS },
        });
        let corners = bank::Corners { classes: 4, thresholds: [30, 100, 200], configs };
        let w = World::with_placement(3, WorldParams::DEFAULT, &Placement::Corners(corners)).unwrap();
        let mut named = [false; 256];
        for key in 0..CORNER_KEYS {
            let e = |k: usize| (key >> (3 * k)) as u8 & 7;
            let (tl, tr, bl, br) = (e(0), e(1), e(2), e(3));
            assert_eq!(corner_key(tl, tr, bl, br), key);
            assert_eq!(w.corner_tiles()[key], w.corner_tile(tl, tr, bl, br), "corners {tl} {tr} {bl} {br}");
            named[w.corner_tiles()[key] as usize] = true;
        }
        let count = named.iter().filter(|&&n| n).count();
        assert!(count > 100, "{count} tiles named");
        // Every vertex entry is 3 bits: class and random bit.
        assert!(w.table().iter().all(|&e| e < 8));
    }

    /// A paper world switched to corners holds vertex entries of the new
    /// classes before it is made again: the table of tiles by corner
    /// entries gives what the lookup gives for every tile.
    #[test]
    fn switching_to_corners_keeps_vertex_entries() {
        let mut w = World::new(5, WorldParams { tile_count: 256, ..WorldParams::DEFAULT }).unwrap();
        assert!(w.table().iter().any(|&e| e >= 8));
        let configs = core::array::from_fn(|c| bank::ConfigTiles { first: c as u8, count: 1 });
        w.set_placement(
            WorldParams::DEFAULT,
            &Placement::Corners(bank::Corners { classes: 2, thresholds: [99, 0, 0], configs }),
        )
        .unwrap();
        assert!(w.table().iter().all(|&e| e < 8 && e & 3 < 2));
        for y in 0..40 {
            for x in 0..40 {
                let e = |dx: u32, dy: u32| w.vertex_entry(x + dx, y + dy);
                assert_eq!(w.corner_tiles()[corner_key(e(0, 0), e(1, 0), e(0, 1), e(1, 1))], w.tile_at(x, y));
            }
        }
    }

    /// Every tile owns the same number of table entries (to within one), and
    /// the shuffle really moves them.
    #[test]
    fn table_is_a_balanced_permutation() {
        for tiles in [1u16, 2, 7, 16, 100, 256] {
            let w = World::new(99, WorldParams { tile_count: tiles, ..WorldParams::DEFAULT }).unwrap();
            let mut counts = [0u32; 256];
            for t in w.table {
                counts[t as usize] += 1;
            }
            let used = &counts[..tiles as usize];
            let (lo, hi) = (used.iter().min().unwrap(), used.iter().max().unwrap());
            assert!(hi - lo <= 1, "{tiles} tiles: counts {lo}..{hi}");
            assert_eq!(counts[tiles as usize..].iter().sum::<u32>(), 0);
            if tiles > 1 {
                let sorted = w.table.windows(2).all(|p| p[0] <= p[1]);
                assert!(!sorted, "{tiles} tiles: table not shuffled");
            }
        }
    }
}
