//! A landscape: one owner for a world, its tile window, the bank it is drawn
//! with and (on the GBA) the texel cache, so that every [`Scene`] is made
//! from a world and a window that belong to the bank: no safe call can read
//! a texel outside it. (The relief, [`Parts::relief`], is trusted to be the
//! bank's: a wrong one gives wrong pictures, never a read outside memory.)
//!
//! The memory is the caller's ([`Parts`]): on the GBA the window (4 KB at 64
//! tiles), world (9.7 KB), cache (160 KB) and relief (4 KB) go to EWRAM, as
//! zero-initialised statics (`.bss`); the march reads the cache, and the
//! window only for its groups' tops, so a window in IWRAM would save only
//! about 250 cycles a frame (the cache's fills and the flight read it). On a
//! host: boxes or locals.
//!
//! ```
//! use voxel::landscape::{Landscape, Parts};
//! use voxel::{Camera, Frame, Options};
//!
//! // A one-tile bank of flat 32 x 32 texels: height 10, colour 1, one
//! // world pixel per height unit.
//! let bank_bytes = bank::encode(&bank::Contents {
//!     tile_size: 32,
//!     palette: &[0, 0x7FFF],
//!     tiles: &[bank::texel(10, 1); 32 * 32],
//!     placement: bank::Placement::Paper,
//!     height_scale: bank::HEIGHT_SCALE_ONE,
//! })
//! .unwrap();
//! let bank = bank::parse(&bank_bytes).unwrap();
//! let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
//! let parts = Parts { world: &mut world, window: &mut window, cache: None, relief: None };
//! let mut land = Landscape::new(bank, parts, 1).unwrap();
//! assert_eq!(land.ground_height(100, 200), 10);
//!
//! let camera = Camera { x: 100 << 8, y: 200 << 8, z: 40 << 8, heading: 0, pitch: 0 };
//! let mut frame = Box::new(Frame::default());
//! let stats = land.render(&camera, Options::default(), &mut *frame);
//! assert!(stats.samples > 0);
//! ```

use crate::cache::{CacheUpdate, TexelCache};
use crate::flight::{self, Controls, Relief};
use crate::render::{self, Camera, Options, Scene, SceneError, SceneShape, Stats, Target};
use bank::Bank;
use terrain::{ParamError, Update, Window, World, WorldParams};

/// The memory a [`Landscape`] works in, placed by the caller. `N` is the
/// window's side, in tiles, a power of two from 4 to 128 (the world's side;
/// any other fails the build). The flight reads the window
/// alone: `N / 2 - 1` tiles must reach its look-ahead
/// ([`flight::LOOK_AHEAD`], 512 world px), or the window hold the whole
/// world (128 tiles a side): 64 for tiles of 32 world px (8 texels), 16
/// for 128 px (32 texels, the built-in bank's), 4 for 512 px. The view
/// reaches farther (up to 1,100 px across at a diagonal heading): the
/// renderer reads the tiles beyond the window from the world's lookup
/// (slower), and the GBA's texel cache fills from it. The ROM takes 64 for
/// every tile size.
///
/// ```
/// use voxel::{Landscape, Parts};
/// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let bank = bank::parse(&bytes).unwrap();
/// // On a host: boxes. On the GBA: statics, in EWRAM (the ROM's; see the README).
/// let mut world = Box::new(terrain::World::empty());
/// let mut window = Box::new(terrain::Window::<64>::new());
/// let mut cache = Box::new(voxel::cache::TexelCache::new());
/// let relief = Box::new(voxel::flight::Relief::of(&bank));
/// let parts = Parts { world: &mut world, window: &mut window, cache: Some(&mut cache), relief: Some(&relief) };
/// let land = Landscape::new(bank, parts, 1).unwrap();
/// ```
///
/// A window wider than the world fails the build:
///
/// ```compile_fail
/// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// let (mut world, mut window) = (Box::new(terrain::World::empty()), Box::new(terrain::Window::<256>::new()));
/// let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
/// let land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1);
/// ```
pub struct Parts<'a, const N: usize> {
    /// The world's grid, tables and placement (9.7 KB; EWRAM on the GBA).
    pub world: &'a mut World,
    /// The tile references round the camera (`N` x `N` bytes).
    pub window: &'a mut Window<N>,
    /// The texels round the camera, which the GBA's march reads (160 KB);
    /// `None`: the renderer reads the window and the bank (the host's
    /// reference renderer, or a slower GBA frame).
    pub cache: Option<&'a mut TexelCache>,
    /// The bank's block tops ([`Relief::of`] or [`Relief::load_file`] from the same
    /// bank): the flight then follows the ground ahead, and the renderer skips
    /// the depth slices that not even the relief's top, or nearer the highest
    /// tile under them, could show in. `None`:
    /// the flight keeps just above the ground under the camera, and the
    /// renderer skips only what a texel of any height (255) could not show
    /// in. A relief of another bank, lower than this one anywhere, makes the flight
    /// fly into hills and the renderer leave out terrain: it is trusted, not
    /// checked.
    pub relief: Option<&'a Relief>,
}

/// Why a landscape cannot be made from a bank.
///
/// ```
/// let e = voxel::LandscapeError::Scene(voxel::SceneError::Texels);
/// assert_eq!(e.to_string(), "the bank's texels do not match its header");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LandscapeError {
    /// The bank's placement does not suit the world's grid.
    World(ParamError),
    /// The bank cannot be drawn as it is: the world places more tiles than
    /// it has, its texels do not match its header, or they are at an odd
    /// address ([`SceneError`]).
    Scene(SceneError),
}

impl core::fmt::Display for LandscapeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LandscapeError::World(e) => write!(f, "{e}"),
            LandscapeError::Scene(SceneError::TileCount { world, bank }) => {
                write!(f, "the world places {world} tiles, the bank has {bank}")
            }
            LandscapeError::Scene(SceneError::Texels) => write!(f, "the bank's texels do not match its header"),
            LandscapeError::Scene(SceneError::Unaligned) => write!(
                f,
                "the bank's bytes are at an odd address: keep them 2-aligned (in ROM, a #[repr(align(4))] static)"
            ),
        }
    }
}

impl core::error::Error for LandscapeError {}

/// A world drawn with a bank: the world of a seed, the window round the
/// camera, and the cache; see the [module docs](self).
///
/// ```
/// let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
/// let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
/// let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
/// let camera = voxel::Camera { x: 100 << 8, y: 200 << 8, z: 40 << 8, ..Default::default() };
/// land.follow(&camera);
/// assert_eq!(land.ground_height(100, 200), 10);
/// ```
pub struct Landscape<'a, const N: usize> {
    bank: Bank<'a>,
    params: WorldParams,
    world: &'a mut World,
    window: &'a mut Window<N>,
    cache: Option<&'a mut TexelCache>,
    relief: Option<&'a Relief>,
    /// What every scene takes from the bank, checked in `new` (the bank
    /// and the world's parameters never change).
    shape: SceneShape<'a>,
}

impl<const N: usize> core::fmt::Debug for Landscape<'_, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Landscape")
            .field("seed", &self.world.seed())
            .field("world", &self.world)
            .finish_non_exhaustive()
    }
}

impl<'a, const N: usize> Landscape<'a, N> {
    /// The world of `seed` drawn with `bank` (the default grid and spacing,
    /// the bank's tile count and placement), in `parts`. Fails if the bank's
    /// placement does not suit the grid or its texels do not match its header.
    ///
    /// ```
    /// use voxel::{Landscape, LandscapeError, Parts};
    /// // A corner bank whose two class thresholds are too close for the grid.
    /// let configs = [bank::ConfigTiles { first: 0, count: 1 }; bank::CONFIGS];
    /// let corners = bank::Corners { classes: 3, thresholds: [100, 101, 0], configs };
    /// let bytes = bank::encode(&bank::Contents {
    ///     tile_size: 8,
    ///     palette: &[0x7FFF],
    ///     tiles: &[bank::texel(3, 0); 64],
    ///     placement: bank::Placement::Corners(corners),
    ///     height_scale: bank::HEIGHT_SCALE_ONE,
    /// })
    /// .unwrap();
    /// let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// let parts = Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// let err = Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap_err();
    /// assert!(matches!(err, LandscapeError::World(_)), "{err}");
    /// ```
    pub fn new(bank: Bank<'a>, parts: Parts<'a, N>, seed: u32) -> Result<Self, LandscapeError> {
        let () = Self::WINDOW_FITS;
        let params = World::params_for(&bank);
        let Parts { world, window, cache, relief } = parts;
        world.set_placement(params, &bank.placement()).map_err(LandscapeError::World)?;
        world.regenerate(seed, params).map_err(LandscapeError::World)?;
        window.invalidate();
        let shape = SceneShape::of(world, &bank).map_err(LandscapeError::Scene)?;
        let mut land = Landscape { bank, params, world, window, cache, relief, shape };
        if let Some(c) = land.cache.as_deref_mut() {
            c.invalidate();
        }
        // The GBA's march needs its bank's height scale's reciprocals (about
        // 32k cycles of divides): now, with the rest of the set-up, rather
        // than in the first frame.
        // (Unless a render runs, which this interrupts: the first frame
        // spends them then.)
        #[cfg(target_arch = "arm")]
        if crate::march::enter() {
            crate::march::prepare(land.bank.height_scale() as i32);
            crate::march::leave();
        }
        Ok(land)
    }

    /// A window no wider than the landscapes' worlds (the default grid:
    /// [`WorldParams::DEFAULT`]'s 128 tiles a side, whatever the bank): a
    /// wider one fails the build.
    const WINDOW_FITS: () =
        assert!(N as u32 <= WorldParams::DEFAULT.size_tiles(), "the window is wider than the world");

    /// Replaces the world with the world of `seed` (the paper's "new world":
    /// on the GBA about 60k cycles at the default grid); the window and the
    /// cache are rebuilt at the next [`Landscape::follow`] or render.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// land.new_world(2);
    /// assert_eq!(land.seed(), 2);
    /// ```
    pub fn new_world(&mut self, seed: u32) {
        // The parameters and placement were checked in `new`; the seed
        // cannot make them fail.
        let _ = self.world.regenerate(seed, self.params);
        self.window.invalidate();
        if let Some(c) = self.cache.as_deref_mut() {
            c.invalidate();
        }
    }

    /// The seed of the world.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// assert_eq!(land.seed(), 1);
    /// ```
    pub fn seed(&self) -> u32 {
        self.world.seed()
    }

    /// The bank the landscape is drawn with.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// assert_eq!((land.bank().tile_size(), land.bank().tile_count()), (32, 1));
    /// ```
    pub fn bank(&self) -> &Bank<'a> {
        &self.bank
    }

    /// The world (tile placement, read only).
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// let tiles = land.world().size_tiles();
    /// assert_eq!(land.size_px(), tiles * 128); // 32-texel tiles: 128 world px
    /// ```
    pub fn world(&self) -> &World {
        self.world
    }

    /// The texel cache, if the landscape has one (filled once it followed
    /// the camera).
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// assert!(land.cache().is_none()); // made without one
    /// ```
    pub fn cache(&self) -> Option<&TexelCache> {
        self.cache.as_deref()
    }

    /// The world's side, in world pixels (the world wraps at it).
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// let side = land.size_px();
    /// assert_eq!(land.ground_height(side + 5, 7), land.ground_height(5, 7));
    /// ```
    pub fn size_px(&self) -> u32 {
        self.world.size_tiles() << self.tile_px_log2()
    }

    /// log2 of a tile's side, in world pixels.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// assert_eq!(land.tile_px_log2(), 7); // 32 texels of 4 world px
    /// ```
    pub fn tile_px_log2(&self) -> u32 {
        render::tile_px_log2(self.bank.tile_size())
    }

    /// Moves the tile window so that the tile under the camera is at its
    /// centre (a row or column of tiles per tile crossed; a rebuild after a
    /// new world). The flight and [`Landscape::ground_height`] read near the
    /// camera through it.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// let mut camera = voxel::Camera { x: 1000 << 8, y: 1000 << 8, z: 40 << 8, ..Default::default() };
    /// assert!(land.follow(&camera).rebuilt); // the first call builds the window
    /// camera.x += 128 << 8; // one tile east
    /// let update = land.follow(&camera);
    /// assert_eq!((update.rebuilt, update.tiles), (false, 64)); // one column of the 64-tile window
    /// ```
    pub fn follow(&mut self, camera: &Camera) -> Update {
        let tp = self.tile_px_log2();
        self.window.recenter(self.world, (camera.x >> 8) >> tp, (camera.y >> 8) >> tp)
    }

    /// Whether the texel cache (if there is one) holds the boundary view's
    /// marks ([`crate::cache::TexelCache::set_marks`]): set it to the
    /// frames' `Options::boundaries` before [`Landscape::follow_cache`]
    /// ([`Landscape::render`] does), which makes the cache hold them so.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// let mut cache = Box::new(voxel::cache::TexelCache::new());
    /// let parts = voxel::Parts { world: &mut world, window: &mut window, cache: Some(&mut cache), relief: None };
    /// let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// let camera = voxel::Camera::default();
    /// land.mark_boundaries(true); // the boundary view
    /// land.follow(&camera);
    /// assert!(land.follow_cache(&camera).unwrap().rebuilt);
    /// assert!(land.cache().unwrap().marks());
    /// ```
    pub fn mark_boundaries(&mut self, on: bool) {
        if let Some(c) = self.cache.as_deref_mut() {
            c.set_marks(on);
        }
    }

    /// Moves the texel cache (if there is one) with the camera, reading what
    /// comes into range ([`TexelCache::follow`]); `None` without a cache.
    /// [`Landscape::render`] does this itself; call it first to time it apart.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// let camera = voxel::Camera::default();
    /// assert!(land.follow_cache(&camera).is_none()); // no cache
    /// ```
    pub fn follow_cache(&mut self, camera: &Camera) -> Option<CacheUpdate> {
        let scene = Scene::of_shape(self.window, self.world, self.shape, None, None);
        let cache = self.cache.as_deref_mut()?;
        Some(cache.follow(self.world, &scene, camera.x >> 8, camera.y >> 8, camera.heading))
    }

    /// What the renderer, the flight and a game's own drawing read: the window
    /// and the bank, with the relief and (if it is filled) the cache.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// let camera = voxel::Camera::default();
    /// land.follow(&camera);
    /// assert_eq!(land.scene().ground(0, 0), 10);
    /// ```
    pub fn scene(&self) -> Scene<'_, N> {
        // The shape was checked in `new`, and neither the bank nor the
        // world's parameters change.
        let cache = match self.cache.as_deref() {
            Some(c) if c.is_valid() => Some(c),
            _ => None,
        };
        Scene::of_shape(self.window, self.world, self.shape, self.relief, cache)
    }

    /// The texel at world pixel (`x`, `y`) (wrapping): (height, colour
    /// index). Exact anywhere in the world, not only round the camera (a
    /// tile lookup in the world: about 60 cycles on the GBA).
    ///
    /// ```
    /// # // Texel (x, y) of the one tile: height x, colour y (32 colours).
    /// # let tiles: Vec<u16> = (0..32 * 32).map(|i: u32| bank::texel((i % 32) as u8, (i / 32) as u8)).collect();
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0; 32], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// assert_eq!(land.texel(123_456, 7), (16, 1)); // 64 px into its tile (texel 16), row 1
    /// ```
    pub fn texel(&self, x: u32, y: u32) -> (u8, u8) {
        let scene = self.scene();
        let tp = self.tile_px_log2();
        let m = self.size_px() - 1;
        let (x, y) = (x & m, y & m);
        let tile = self.world.tile_at(x >> tp, y >> tp);
        let shift = tp - scene.tile_log2();
        let in_tile = (1 << tp) - 1;
        let t = scene.tile_texel(tile, (x & in_tile) >> shift, (y & in_tile) >> shift);
        (t as u8, (t >> 8) as u8)
    }

    /// The ground height at world pixel (`x`, `y`) (wrapping), in world
    /// pixels: for collisions and shadows. Exact anywhere in the world.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// // A shadow on the ground below a craft at (x, y).
    /// let (x, y) = (300, 400);
    /// let shadow_z = land.ground_height(x, y);
    /// assert_eq!(shadow_z, 10);
    /// ```
    pub fn ground_height(&self, x: u32, y: u32) -> i32 {
        (self.texel(x, y).0 as i32 * self.bank.height_scale() as i32) >> 8
    }

    /// Moves `camera` by `controls` held for `refreshes` screen refreshes
    /// (at most [`flight::MAX_REFRESHES`] a call: call it once a refresh to
    /// replay a longer gap), above the ground ([`flight::fly`]); follow the
    /// window once a frame.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// use voxel::flight::Controls;
    /// let mut camera = voxel::Camera { x: 1000 << 8, y: 1000 << 8, z: 40 << 8, ..Default::default() };
    /// land.follow(&camera);
    /// land.fly(&mut camera, Controls { forward: 1, ..Default::default() }, 2);
    /// assert!(camera.x > 1000 << 8 && camera.y == 1000 << 8); // heading 0 flies along +x
    /// let (x, mut far) = (camera.x, camera);
    /// land.fly(&mut far, Controls { forward: 1, ..Default::default() }, 100); // moves as 8 would
    /// assert_eq!(far.x - x, 8 * voxel::flight::SPEED as u32);
    /// ```
    pub fn fly(&self, camera: &mut Camera, controls: Controls, refreshes: u32) {
        flight::fly(camera, controls, refreshes, &self.scene());
    }

    /// Lifts `camera` at once onto or above its floor ([`flight::settle`]):
    /// after a new world or a jump. Follows the window first.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// let mut camera = voxel::Camera { x: 1000 << 8, y: 1000 << 8, z: 0, ..Default::default() };
    /// land.settle(&mut camera);
    /// assert!(camera.z >> 8 > land.ground_height(1000, 1000));
    /// ```
    pub fn settle(&mut self, camera: &mut Camera) {
        self.follow(camera);
        flight::settle(camera, &self.scene());
    }

    /// Renders one frame from `camera` into `target`: follows the window and
    /// the cache, then [`crate::render()`].
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// let camera = voxel::Camera { x: 1000 << 8, y: 1000 << 8, z: 40 << 8, ..Default::default() };
    /// let mut frame = Box::new(voxel::Frame::default());
    /// let stats = land.render(&camera, voxel::Options::default(), &mut *frame);
    /// assert!(stats.samples > 0 && stats.draws > 0);
    /// ```
    pub fn render<T: Target>(&mut self, camera: &Camera, options: Options, target: &mut T) -> Stats {
        self.follow(camera);
        self.mark_boundaries(options.boundaries);
        self.follow_cache(camera);
        crate::render(&self.scene(), camera, options, target)
    }
}
