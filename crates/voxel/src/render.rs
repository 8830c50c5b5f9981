//! The column renderer (Voxel Space, after Comanche): for each of 120 screen
//! columns (two pixels wide; or 240, one pixel wide, `Columns::Pixels`),
//! march 96 depth slices front to back through the
//! height field; a sample that rises above everything drawn so far in its
//! column (the y-buffer) fills the rows up to it; what stays open at the top
//! is sky. Perspective comes from a per-slice reciprocal table, pitch from
//! moving the horizon, level of detail from slices that thin out with
//! distance, fog from the palette (a later block of the same colours).
//!
//! The same code renders on the host (the reference the ROM's frames are
//! compared with) and on the GBA, where its column loop is ARM code (in ROM:
//! [`crate::render()`] takes it only for targets the march cannot draw) and
//! its per-frame tables (`group_tops`, `skip_rows`) feed the march in IWRAM;
//! so it sticks to operators, provable-bounds indexing and `while` loops (on
//! the GBA, `core`'s Thumb functions cannot be inlined into ARM code).

use crate::palette;
use crate::projection::SLICES;
use crate::projection::{BAND_LEN, BAND_STEP, BANDS, FOG, INV_Z, Z0};
use crate::trig;
use terrain::{Window, World};

/// Screen size in pixels.
pub const WIDTH: usize = 240;
pub const HEIGHT: usize = 160;
/// Columns rendered by default ([`Columns::Pairs`]): each two pixels wide.
pub const COLUMNS: usize = WIDTH / 2;
/// A texel is this many world pixels wide, as a shift: 4 x 4 pixels, so a
/// 32-texel tile covers 128 x 128 world pixels and slopes stay believable.
pub const TEXEL_SHIFT: u32 = 2;

/// log2 of a tile's side in world pixels, for tiles of `tile_size` texels.
///
/// ```
/// assert_eq!(voxel::render::tile_px_log2(32), 7); // 32 texels of 4 world px: 128 px
/// ```
pub const fn tile_px_log2(tile_size: usize) -> u32 {
    tile_size.trailing_zeros() + TEXEL_SHIFT
}
/// Rows of the screen above the horizon when the pitch is 0.
pub const HORIZON: i32 = 60;

/// The screen row of the horizon for a camera pitched `pitch` (rows, up
/// positive): [`HORIZON`] moved by the pitch.
///
/// ```
/// assert_eq!(voxel::render::horizon(-20), voxel::render::HORIZON - 20);
/// ```
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub const fn horizon(pitch: i16) -> i32 {
    HORIZON + pitch as i32
}

/// The most pitch [`crate::render()`] draws, screen rows either way: far
/// past the screen (the flight keeps to [`crate::flight::PITCH_LIMIT`]); a
/// camera pitched more is drawn at it ([`Camera::drawn`]), so that the
/// slice rows stay within 32 bits.
pub const PITCH_RANGE: i16 = 1000;

/// The highest eye [`crate::render()`] draws from, world px: a camera above
/// it is drawn from it ([`Camera::drawn`]), so that the slice rows (`a +
/// h * b` of `slice_rows`, 16.16) stay within 32 bits. Above any ground
/// the flight reaches (its ceiling, 700 px, or the tallest bank's top: 255
/// units at the largest height scale, 2,040 px).
pub const EYE_HIGHEST: i32 = 2500;

/// The lowest eye [`crate::render()`] draws from, world px (below the
/// ground, where the flight never goes): a camera below it is drawn from it,
/// for the same reason as [`EYE_HIGHEST`] (the tallest bank's top is 2,040
/// px above 0).
pub const EYE_LOWEST: i32 = -600;

impl Camera {
    /// The camera [`crate::render()`] draws: this one, its altitude within
    /// [`EYE_LOWEST`] ..= [`EYE_HIGHEST`] and its pitch within
    /// [`PITCH_RANGE`].
    ///
    /// ```
    /// use voxel::render::{EYE_HIGHEST, EYE_LOWEST, PITCH_RANGE};
    /// let c = voxel::Camera { z: 40 << 8, pitch: 20, ..Default::default() };
    /// assert_eq!(c.drawn(), c);
    /// let far = voxel::Camera { z: 4000 << 8, pitch: i16::MIN, ..Default::default() };
    /// assert_eq!((far.drawn().z, far.drawn().pitch), (EYE_HIGHEST << 8, -PITCH_RANGE));
    /// let low = voxel::Camera { z: -3000 << 8, ..Default::default() };
    /// assert_eq!(low.drawn().z, EYE_LOWEST << 8);
    /// ```
    pub fn drawn(self) -> Camera {
        Camera {
            z: self.z.clamp(EYE_LOWEST << 8, EYE_HIGHEST << 8),
            pitch: self.pitch.clamp(-PITCH_RANGE, PITCH_RANGE),
            ..self
        }
    }
}

const _: () = {
    // `a + h * b` at the nearest slice (INV_Z[0] = FOCAL / 10 in 16.16), the
    // march's `a` a row less, over horizons, eyes and heights at the largest
    // height scale: within 32 bits.
    let iz = crate::projection::FOCAL as i64 * 65536 / 10;
    let top = 255 * iz * *bank::HEIGHT_SCALES.end() as i64 / 256;
    let highest = ((HORIZON + PITCH_RANGE as i32) as i64) * 65536 + EYE_HIGHEST as i64 * iz;
    let lowest = ((HORIZON - PITCH_RANGE as i32) as i64) * 65536 + EYE_LOWEST as i64 * iz - top - 65536 - 256;
    assert!(highest < i32::MAX as i64 && lowest > i32::MIN as i64);
};

/// Where the camera is and looks.
///
/// ```
/// // 1000.5 world px east, 2000 px south, 60 px up, looking along +y.
/// let camera = voxel::Camera { x: 1000 << 8 | 128, y: 2000 << 8, z: 60 << 8, heading: 16_384, pitch: 0 };
/// assert_eq!(camera.x >> 8, 1000);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Camera {
    /// Position, world pixels in 24.8 fixed point (wraps with the world).
    pub x: u32,
    pub y: u32,
    /// Altitude, world pixels in 24.8 fixed point ([`crate::render()`] draws
    /// from [`EYE_LOWEST`] to [`EYE_HIGHEST`]: [`Camera::drawn`]).
    pub z: i32,
    /// Heading, 65,536 steps per turn; 0 looks along +x, 16,384 along +y.
    pub heading: u16,
    /// Horizon offset, screen pixels: positive moves the horizon (and the
    /// picture) down the screen, as looking up does.
    pub pitch: i16,
}

/// What the renderer reads: the tile window and the bank's texels, and on
/// the GBA the texel cache filled from them.
///
/// ```
/// # // Texel (x, y) of the one tile: height x, colour y (32 colours).
/// # let tiles: Vec<u16> = (0..32 * 32).map(|i: u32| bank::texel((i % 32) as u8, (i / 32) as u8)).collect();
/// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0; 32], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
/// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
/// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
/// let camera = voxel::Camera { x: 500 << 8, y: 500 << 8, ..Default::default() };
/// land.follow(&camera);
/// let scene = land.scene(); // the only way to a scene: from a landscape
/// assert_eq!(scene.texel(500, 500), bank::texel(29, 29)); // 500 px: 116 px into a tile, texel 29
/// ```
#[derive(Clone, Copy)]
pub struct Scene<'a, const N: usize> {
    window: &'a Window<N>,
    /// The world the window was filled from: tiles beyond the window come
    /// from its lookup.
    world: &'a World,
    /// The texel cache the GBA's march reads (`None`: read the window and the bank).
    #[cfg_attr(not(target_arch = "arm"), allow(dead_code))]
    pub(crate) cache: Option<&'a crate::cache::TexelCache>,
    /// The bank's block tops, for the flight (`None`: it keeps just above the ground).
    relief: Option<&'a crate::flight::Relief>,
    /// The bank's texels and numbers, and the world's size.
    pub(crate) shape: SceneShape<'a>,
}

/// What a [`Scene`] takes from its bank and its world's size, checked once
/// ([`SceneShape::of`]): the same for every scene of a
/// [`crate::Landscape`], whose bank and world parameters do not change.
#[derive(Clone, Copy)]
pub(crate) struct SceneShape<'a> {
    texels: &'a [u16],
    /// World pixels per height unit, 8.8 fixed point (the bank's).
    pub(crate) height_scale: i32,
    /// Tiles in the bank.
    tile_count: u32,
    /// log2 of the bank's tile side, in texels.
    pub(crate) tile_log2: u32,
    /// log2 of a tile's side in world pixels.
    pub(crate) tile_px_log2: u32,
    /// World side in pixels, minus 1.
    world_mask: u32,
}

impl<'a> SceneShape<'a> {
    /// `bank`'s texels and numbers for `world`. Fails if the world can
    /// refer to a tile the bank lacks, or the texels do not match the
    /// bank's header or sit at an odd address.
    pub(crate) fn of(world: &World, bank: &bank::Bank<'a>) -> Result<Self, SceneError> {
        if world.max_tile() as usize >= bank.tile_count() {
            return Err(SceneError::TileCount { world: world.max_tile() as u16 + 1, bank: bank.tile_count() });
        }
        let texels = bank.texels().ok_or(SceneError::Unaligned)?;
        let n = bank.tile_size();
        if texels.len() != bank.tile_count() * n * n {
            return Err(SceneError::Texels);
        }
        let tile_px_log2 = tile_px_log2(n);
        Ok(SceneShape {
            texels,
            height_scale: bank.height_scale() as i32,
            tile_count: bank.tile_count() as u32,
            tile_log2: n.trailing_zeros(),
            tile_px_log2,
            world_mask: (world.size_tiles() << tile_px_log2) - 1,
        })
    }
}

/// Why a scene cannot be built.
///
/// ```
/// let e = voxel::SceneError::TileCount { world: 16, bank: 4 };
/// assert_eq!(voxel::LandscapeError::Scene(e).to_string(), "the world places 16 tiles, the bank has 4");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SceneError {
    /// The world refers to more tiles than the bank has.
    TileCount { world: u16, bank: usize },
    /// The texels are not the bank's size.
    Texels,
    /// The bank's bytes start at an odd address: its texels (u16 each)
    /// cannot be read in place ([`bank::Bank::texels`]).
    Unaligned,
}

impl<'a, const N: usize> Scene<'a, N> {
    /// The scene over `window` (filled from `world`) of a checked `shape`
    /// ([`SceneShape::of`] for a world of the same size and placement as
    /// `world`), with `relief` and `cache`, at once: no checks (a
    /// [`crate::Landscape`] keeps its shape, and makes a scene each time it
    /// draws, flies or moves its cache: about 270 cycles on the GBA when it
    /// checked the bank each time). Crate-private: the window must have
    /// been filled from this very world (its references are read without
    /// checks), which only a [`crate::Landscape`] guarantees.
    #[inline]
    pub(crate) fn of_shape(
        window: &'a Window<N>,
        world: &'a World,
        shape: SceneShape<'a>,
        relief: Option<&'a crate::flight::Relief>,
        cache: Option<&'a crate::cache::TexelCache>,
    ) -> Self {
        Scene { window, world, cache, relief, shape }
    }

    /// The same scene with `cache`, which must have followed the camera
    /// through this scene ([`crate::cache::TexelCache::follow`]) since the
    /// world or the camera last changed: the GBA's march then reads texels
    /// from it.
    ///
    /// ```
    /// # // Texel (x, y) of the one tile: height x, colour y (32 colours).
    /// # let tiles: Vec<u16> = (0..32 * 32).map(|i: u32| bank::texel((i % 32) as u8, (i / 32) as u8)).collect();
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0; 32], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// use voxel::cache::TexelCache;
    /// let camera = voxel::Camera { x: 500 << 8, y: 500 << 8, ..Default::default() };
    /// land.follow(&camera);
    /// let scene = land.scene();
    /// let mut cache = Box::new(TexelCache::new());
    /// cache.follow(land.world(), &scene, camera.x >> 8, camera.y >> 8, camera.heading);
    /// let scene = scene.with_cache(&cache);
    /// assert_eq!(scene.texel(500, 500), bank::texel(29, 29));
    /// ```
    pub fn with_cache(self, cache: &'a crate::cache::TexelCache) -> Self {
        Scene { cache: Some(cache), ..self }
    }

    /// The same scene with the bank's `relief` ([`crate::flight::Relief::build`]
    /// from the same bank): the flight then follows the ground ahead, and
    /// the renderer passes over depth slices that not even the relief's top,
    /// or nearer the highest tile (or block) under them, could show in (a relief of
    /// another bank can hide terrain).
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// let relief = voxel::flight::Relief::of(land.bank());
    /// land.follow(&voxel::Camera::default());
    /// let scene = land.scene().with_relief(&relief);
    /// assert!(scene.relief().is_some());
    /// ```
    pub fn with_relief(self, relief: &'a crate::flight::Relief) -> Self {
        Scene { relief: Some(relief), ..self }
    }

    /// The relief, if the scene has one.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// land.follow(&voxel::Camera::default());
    /// assert!(land.scene().relief().is_none()); // made without one
    /// ```
    pub fn relief(&self) -> Option<&'a crate::flight::Relief> {
        self.relief
    }

    /// The highest a texel can be, height units: the relief's
    /// ([`crate::flight::Relief::top`]), or 255 (any texel) without one.
    /// The renderer skips the slices such a texel could not show in
    /// ([`skip_rows`]), or, nearer, the slices the highest tile (or block)
    /// under them could not ([`group_tops`]).
    pub(crate) fn top(&self) -> i32 {
        match self.relief {
            Some(r) => r.top() as i32,
            None => u8::MAX as i32,
        }
    }

    /// World side, in pixels.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// land.follow(&voxel::Camera::default());
    /// assert_eq!(land.scene().world_px(), land.size_px());
    /// ```
    pub fn world_px(&self) -> u32 {
        self.shape.world_mask + 1
    }

    /// log2 of a tile's side, in world pixels.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// land.follow(&voxel::Camera::default());
    /// assert_eq!(land.scene().tile_px_log2(), 7);
    /// ```
    pub fn tile_px_log2(&self) -> u32 {
        self.shape.tile_px_log2
    }

    /// The texel under world pixel (`wx`, `wy`) (wrapped): height | colour << 8
    /// (its tile from the window, or beyond it from the world's lookup).
    ///
    /// ```
    /// # // Texel (x, y) of the one tile: height x, colour y (32 colours).
    /// # let tiles: Vec<u16> = (0..32 * 32).map(|i: u32| bank::texel((i % 32) as u8, (i / 32) as u8)).collect();
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0; 32], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// land.follow(&voxel::Camera::default()); // tile 0, 0 at the window's centre
    /// assert_eq!(land.scene().texel(5, 6), bank::texel(1, 1)); // 4 world px a texel
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn texel(&self, wx: u32, wy: u32) -> u16 {
        let (wx, wy) = (wx & self.shape.world_mask, wy & self.shape.world_mask);
        let t = self.tile_at(wx >> self.shape.tile_px_log2, wy >> self.shape.tile_px_log2) as usize;
        let shift = self.shape.tile_px_log2 - self.shape.tile_log2;
        let in_x = ((wx & ((1 << self.shape.tile_px_log2) - 1)) >> shift) as usize;
        let in_y = ((wy & ((1 << self.shape.tile_px_log2) - 1)) >> shift) as usize;
        let i = (t << (2 * self.shape.tile_log2)) + (in_y << self.shape.tile_log2) + in_x;
        debug_assert!(i < self.shape.texels.len(), "tile {t} outside the bank");
        // SAFETY: `t` is a tile reference the world made, below the world's
        // tile count, which `SceneShape::of` checked is at most the bank's, and
        // in_x, in_y are below the tile side; so `i` is inside `texels`.
        // Raw pointer arithmetic by integer: `core`'s slice and pointer
        // methods cannot be inlined into ARM code on the GBA.
        unsafe { *((self.shape.texels as *const [u16] as *const u16 as usize + 2 * i) as *const u16) }
    }

    /// The tile at tile coordinate (`tx`, `ty`) (below the world's side):
    /// the window's, or beyond it the world's lookup (slower).
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    fn tile_at(&self, tx: u32, ty: u32) -> u8 {
        if self.window.covers_rect(self.shape.world_mask >> self.shape.tile_px_log2, tx, ty, 1, 1) {
            self.window.get(tx, ty)
        } else {
            self.world.tile_at(tx, ty)
        }
    }

    /// The tile window.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// land.follow(&voxel::Camera::default());
    /// assert!(land.scene().window().covers(land.world(), 0, 0));
    /// ```
    pub fn window(&self) -> &'a Window<N> {
        self.window
    }

    /// log2 of the bank's tile side, in texels.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// land.follow(&voxel::Camera::default());
    /// assert_eq!(land.scene().tile_log2(), 5); // 32 texels
    /// ```
    pub fn tile_log2(&self) -> u32 {
        self.shape.tile_log2
    }

    /// Tiles in the bank ([`Scene::tile_texel_address`] reads tile 0 for a
    /// reference at or past it).
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub(crate) fn tile_count(&self) -> u32 {
        self.shape.tile_count
    }

    /// The address of texel (`ix`, `iy`) (taken modulo the tile side) of tile
    /// `tile` (tile 0 for a tile the bank does not have): the texels from
    /// there to the end of the tile are the bank's.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// land.follow(&voxel::Camera::default());
    /// let scene = land.scene();
    /// let at = scene.tile_texel_address(0, 3, 1);
    /// assert_eq!(at - scene.tile_texel_address(0, 0, 0), 2 * (32 + 3)); // u16 texels, rows of 32
    /// assert_eq!(scene.tile_texel_address(200, 3, 1), at); // no tile 200: tile 0
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn tile_texel_address(&self, tile: u8, ix: u32, iy: u32) -> usize {
        let tile = if (tile as u32) < self.shape.tile_count { tile } else { 0 };
        let side = 1u32 << self.shape.tile_log2;
        let (ix, iy) = (ix & (side - 1), iy & (side - 1));
        let i = ((tile as usize) << (2 * self.shape.tile_log2)) + ((iy as usize) << self.shape.tile_log2) + ix as usize;
        self.shape.texels as *const [u16] as *const u16 as usize + 2 * i
    }

    /// Texel (`ix`, `iy`) (taken modulo the tile side) of tile `tile`:
    /// height | colour << 8; 0 for a tile the bank does not have.
    ///
    /// ```
    /// # // Texel (x, y) of the one tile: height x, colour y (32 colours).
    /// # let tiles: Vec<u16> = (0..32 * 32).map(|i: u32| bank::texel((i % 32) as u8, (i / 32) as u8)).collect();
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0; 32], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// land.follow(&voxel::Camera::default());
    /// let scene = land.scene();
    /// assert_eq!(scene.tile_texel(0, 35, 1), bank::texel(3, 1)); // x 35 is x 3
    /// assert_eq!(scene.tile_texel(200, 3, 1), 0); // no tile 200
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub fn tile_texel(&self, tile: u8, ix: u32, iy: u32) -> u16 {
        if tile as u32 >= self.shape.tile_count {
            return 0;
        }
        let side = 1u32 << self.shape.tile_log2;
        let (ix, iy) = (ix & (side - 1), iy & (side - 1));
        let i = ((tile as usize) << (2 * self.shape.tile_log2)) + ((iy as usize) << self.shape.tile_log2) + ix as usize;
        // SAFETY: `tile` is below the bank's count (checked above) and the
        // offsets are masked below the side, so `i` is inside `texels`
        // (`SceneShape::of` checked its length). Integer addressing: `core`'s
        // slice methods cannot be inlined into ARM code.
        unsafe { *((self.shape.texels as *const [u16] as *const u16 as usize + 2 * i) as *const u16) }
    }

    /// Ground height under world pixel (`wx`, `wy`), in world pixels.
    ///
    /// ```
    /// # // Texel (x, y) of the one tile: height x, colour y (32 colours).
    /// # let tiles: Vec<u16> = (0..32 * 32).map(|i: u32| bank::texel((i % 32) as u8, (i / 32) as u8)).collect();
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0; 32], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// land.follow(&voxel::Camera::default());
    /// assert_eq!(land.scene().ground(13, 5), 3); // texel (3, 1): height 3, one px per unit
    /// ```
    pub fn ground(&self, wx: u32, wy: u32) -> i32 {
        ((self.texel(wx, wy) & 0xFF) as i32 * self.shape.height_scale) >> 8
    }

    /// World pixels per height unit, 8.8 fixed point.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// land.follow(&voxel::Camera::default());
    /// assert_eq!(land.scene().height_scale(), 256); // bank::HEIGHT_SCALE_ONE
    /// ```
    pub fn height_scale(&self) -> i32 {
        self.shape.height_scale
    }
}

/// Where a frame goes: palette indices, in column pairs (or single pixel
/// columns, `Columns::Pixels`).
///
/// # Safety
/// [`Target::vram_column`] hands the GBA's march an address it writes without
/// checks: an implementation that returns `Some` promises that
/// `vram_column(0)` is the word-aligned start of 240 x 160 bytes laid out as a
/// mode 4 page (rows 240 bytes apart) that may be written by byte, halfword
/// and word and read by byte, and that `vram_column(col)` is
/// `vram_column(0) + 2 * col` for every `col` below 120. (The sky goes in by
/// word; in 240-column mode the march rewrites the odd pixel of a pair by
/// loading the even one and storing the halfword.) `span`, `put` and
/// `put_pixel` are safe to call with any arguments: implementations check
/// their ranges (those here ignore what falls outside the screen).
///
/// A target that counts sky pixels and keeps no picture (no `vram_column`,
/// so nothing is unchecked):
///
/// ```
/// struct SkyCounter(usize);
/// // SAFETY: `vram_column` is the default `None`.
/// unsafe impl voxel::Target for SkyCounter {
///     fn put(&mut self, _col: usize, _y: usize, c: u8) {
///         let sky = voxel::palette::SKY_BASE..voxel::palette::SKY_BASE + voxel::palette::SKY_LEN;
///         self.0 += 2 * sky.contains(&c) as usize; // a pair of pixels
///     }
///     fn put_pixel(&mut self, _x: usize, _y: usize, c: u8) {
///         let sky = voxel::palette::SKY_BASE..voxel::palette::SKY_BASE + voxel::palette::SKY_LEN;
///         self.0 += sky.contains(&c) as usize;
///     }
/// }
/// ```
pub unsafe trait Target {
    /// Rows `y0 .. y1` of column `col` (pixels 2 col and 2 col + 1) in palette index `c`.
    ///
    /// ```
    /// use voxel::{Frame, Target};
    /// let mut frame = Box::new(Frame::default());
    /// frame.span(3, 10, 12, 7);
    /// assert_eq!((frame.0[10 * 240 + 6], frame.0[11 * 240 + 7], frame.0[12 * 240 + 6]), (7, 7, 0));
    /// ```
    ///
    /// By default one [`Target::put`] a row.
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    fn span(&mut self, col: usize, y0: usize, y1: usize, c: u8) {
        let mut y = y0;
        while y < y1 {
            self.put(col, y, c);
            y += 1;
        }
    }
    /// Row `y` of column `col` in `c`.
    ///
    /// ```
    /// use voxel::{Frame, Target};
    /// let mut frame = Box::new(Frame::default());
    /// frame.put(0, 159, 9);
    /// assert_eq!(&frame.0[159 * 240..159 * 240 + 3], &[9, 9, 0]);
    /// ```
    fn put(&mut self, col: usize, y: usize, c: u8);
    /// Pixel (`x`, `y`) in `c` (240-column mode, `Columns::Pixels`). In
    /// mode 4 VRAM a byte store fills both pixels of a pair, so write the
    /// pair's halfword, keeping the other pixel ([`put_in_pair`]: a plain
    /// read-modify-write in Rust may compile to a byte store).
    ///
    /// ```
    /// use voxel::{Frame, Target};
    /// let mut frame = Box::new(Frame::default());
    /// frame.put_pixel(7, 159, 9);
    /// assert_eq!(&frame.0[159 * 240 + 6..159 * 240 + 9], &[0, 9, 0]);
    /// ```
    fn put_pixel(&mut self, x: usize, y: usize, c: u8);
    /// Rows `y0 .. y1` of pixel column `x` in `c` (240-column mode); by
    /// default one [`Target::put_pixel`] a row.
    ///
    /// ```
    /// use voxel::{Frame, Target};
    /// let mut frame = Box::new(Frame::default());
    /// frame.pixel_span(3, 10, 12, 7);
    /// assert_eq!((frame.0[10 * 240 + 3], frame.0[11 * 240 + 3], frame.0[11 * 240 + 2], frame.0[12 * 240 + 3]), (7, 7, 0, 0));
    /// ```
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    fn pixel_span(&mut self, x: usize, y0: usize, y1: usize, c: u8) {
        let mut y = y0;
        while y < y1 {
            self.put_pixel(x, y, c);
            y += 1;
        }
    }
    /// The address of column `col`'s pixel pair on row 0, if the target is
    /// mode 4 VRAM (rows 240 bytes apart, a byte store fills the pair): the
    /// GBA's fast path writes there directly.
    ///
    /// ```
    /// use voxel::{Frame, Target};
    /// assert_eq!(Frame::default().vram_column(0), None); // memory, not VRAM: the reference path
    /// ```
    fn vram_column(&self, _col: usize) -> Option<usize> {
        None
    }
    /// What the page holds of the sky from the last frame drawn into it
    /// ([`PageSky`](crate::PageSky)), if the target keeps one for it: the
    /// GBA's fast path then repaints only the sky that changed instead of
    /// filling the whole page first, and after a pitch move fills only the
    /// rows its terrain is not expected to cover (the pixels are the same).
    /// The default, `None`, fills the whole sky every frame.
    ///
    /// ```
    /// use voxel::{Frame, Target};
    /// assert!(Frame::default().page_sky().is_none());
    /// ```
    fn page_sky(&mut self) -> Option<&mut crate::PageSky> {
        None
    }
}

/// A frame in memory: 240 x 160 palette indices, row by row.
///
/// ```
/// let mut frame = Box::new(voxel::Frame::default()); // 38,400 bytes: keep it off small stacks
/// voxel::Target::put(&mut *frame, 1, 2, 5);
/// assert_eq!(frame.0[2 * 240 + 2], 5);
/// ```
///
/// On a host, a landscape renders into one (the reference renderer, the
/// pictures the GBA's frames are checked against); the palette the ROM
/// would load ([`crate::palette::build`]) turns its indices into colours:
///
/// ```
/// # let tiles: Vec<u16> = (0..32 * 32).map(|i: u32| bank::texel((i % 32) as u8 * 4, (i / 256) as u8)).collect();
/// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0x03E0, 0x7FFF, 0x7C00, 0x001F], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// use voxel::{Camera, Frame, Landscape, Options, Parts, palette};
/// let bank = bank::parse(&bytes).unwrap();
/// let (mut world, mut window) = (Box::new(terrain::World::empty()), Box::new(terrain::Window::<64>::new()));
/// let parts = Parts { world: &mut world, window: &mut window, cache: None, relief: None };
/// let seed = 7;
/// let mut land = Landscape::new(bank, parts, seed).unwrap();
/// let colours: Vec<u16> = (0..bank.palette_len()).map(|i| bank.colour(i)).collect();
/// let bgr555 = palette::build(&colours, &palette::Mood::of(seed)); // 256 entries
/// let camera = Camera { x: 900 << 8, y: 900 << 8, z: 200 << 8, heading: 0, pitch: 0 };
/// let mut frame = Box::new(Frame::default());
/// land.render(&camera, Options::default(), &mut *frame);
/// // RGB, row by row (for an image library's `from_raw`, say).
/// let rgb: Vec<u8> = frame.0.iter().flat_map(|&i| bank::colour::to_rgb888(bgr555[i as usize])).collect();
/// assert_eq!(rgb.len(), 240 * 160 * 3);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Frame(pub [u8; WIDTH * HEIGHT]);

impl Default for Frame {
    fn default() -> Self {
        Frame([0; WIDTH * HEIGHT])
    }
}

// SAFETY: `vram_column` is `None`: the march never writes through it.
unsafe impl Target for Frame {
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    fn put(&mut self, col: usize, y: usize, c: u8) {
        if col < COLUMNS {
            self.put_pixel(2 * col, y, c);
            self.put_pixel(2 * col + 1, y, c);
        }
    }

    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    fn put_pixel(&mut self, x: usize, y: usize, c: u8) {
        if x < WIDTH && y < HEIGHT {
            // SAFETY: inside the frame (checked above). Integer addressing:
            // `core`'s slice methods cannot be inlined into ARM code.
            unsafe { *((self.0.as_mut_ptr() as usize + y * WIDTH + x) as *mut u8) = c };
        }
    }
}

/// Screen-column offsets from the view axis, 2.14 fixed point (-1 .. 1), of
/// `N` columns: the middle of column `i` is at (2 i + 1 - N) / N; padded with
/// zeros to `LEN`, a power of two, so that a masked index needs no check.
const fn offsets<const N: usize, const LEN: usize>() -> [i32; LEN] {
    assert!(LEN.is_power_of_two() && N <= LEN);
    let mut t = [0i32; LEN];
    let mut i = 0;
    while i < N {
        t[i] = ((2 * i as i32 + 1 - N as i32) * trig::ONE) / N as i32;
        i += 1;
    }
    t
}

/// Screen-column offsets of the 120 column pairs ([`offsets`]).
#[cfg_attr(target_arch = "arm", unsafe(link_section = ".iwram.voxel_tables"))]
pub(crate) static U: [i32; 128] = offsets::<COLUMNS, 128>();

/// Screen-column offsets of the 240 pixel columns ([`offsets`]; read once a
/// column, so in ROM on the GBA, sparing IWRAM).
#[cfg(feature = "pixel-columns")]
pub(crate) static U_PIXELS: [i32; 256] = offsets::<WIDTH, 256>();

/// How wide the rendered columns are.
///
/// ```
/// use voxel::Columns;
/// assert_eq!(Columns::default(), Columns::Pairs);
/// assert_eq!(Columns::Pairs.count(), 120);
/// #[cfg(feature = "pixel-columns")]
/// assert_eq!(Columns::Pixels.count(), 240);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive] // `Pixels` comes with a feature: matches elsewhere need a `_` arm
pub enum Columns {
    /// 120 columns two pixels wide (the default, and the faster: the
    /// bench's "240 columns" row gives the other's cost).
    #[default]
    Pairs,
    /// 240 columns, one per pixel: twice the detail across the screen
    /// (with the `pixel-columns` feature, a default one: without it the GBA
    /// build leaves out the code, about 2 KB of IWRAM).
    #[cfg(feature = "pixel-columns")]
    Pixels,
}

impl Columns {
    /// Columns across the screen.
    ///
    /// ```
    /// assert_eq!(voxel::Columns::Pairs.count(), voxel::render::COLUMNS);
    /// #[cfg(feature = "pixel-columns")]
    /// assert_eq!(voxel::Columns::Pixels.count(), voxel::render::WIDTH);
    /// ```
    pub const fn count(self) -> usize {
        match self {
            Columns::Pairs => COLUMNS,
            #[cfg(feature = "pixel-columns")]
            Columns::Pixels => WIDTH,
        }
    }

    /// The mode with `count` columns (120 or 240), if there is one.
    ///
    /// ```
    /// use voxel::Columns;
    /// assert_eq!(Columns::from_count(Columns::Pairs.count()), Some(Columns::Pairs));
    /// assert_eq!(Columns::from_count(160), None);
    /// #[cfg(feature = "pixel-columns")]
    /// assert_eq!(Columns::from_count(240), Some(Columns::Pixels));
    /// ```
    pub const fn from_count(count: usize) -> Option<Columns> {
        match count {
            COLUMNS => Some(Columns::Pairs),
            #[cfg(feature = "pixel-columns")]
            WIDTH => Some(Columns::Pixels),
            _ => None,
        }
    }

    /// The view-axis offsets of the columns ([`Columns::offset`]): at least
    /// [`Columns::count`] of them.
    #[cfg(target_arch = "arm")]
    pub(crate) fn offsets(self) -> *const i32 {
        match self {
            Columns::Pairs => U.as_ptr(),
            #[cfg(feature = "pixel-columns")]
            Columns::Pixels => U_PIXELS.as_ptr(),
        }
    }

    /// The view-axis offset of column `col` (below [`Columns::count`]), 2.14
    /// fixed point.
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    pub(crate) fn offset(self, col: usize) -> i32 {
        match self {
            Columns::Pairs => U[col & 127],
            #[cfg(feature = "pixel-columns")]
            Columns::Pixels => U_PIXELS[col & 255],
        }
    }
}

/// Writes palette index `c` into one pixel of the mode 4 pixel pair at
/// address `pair` (the odd one if `odd`), keeping the other: for a
/// [`Target::put_pixel`] in mode 4 VRAM, where a byte store fills both
/// pixels of a pair. On the GBA a halfword load and a halfword store, both
/// asm: the plain Rust `*p = (*p & 0xFF) | c << 8` may compile to a byte
/// store of `c` at `p + 1`. Elsewhere (a host's model of a page) the same
/// halfword read and write, volatile.
///
/// ```
/// let mut page = [0x0403u16; 2]; // two pairs: pixels 3, 4 each
/// let pair = page.as_mut_ptr() as usize + 2; // the second
/// // SAFETY: a halfword of `page`.
/// unsafe { voxel::render::put_in_pair(pair, true, 9) };
/// assert_eq!(page, [0x0403, 0x0903]);
/// ```
///
/// The odd pixel is the pair's high byte (the GBA, and the hosts it is
/// built for, are little-endian).
///
/// # Safety
/// `pair` must be the address of a halfword, halfword aligned, readable and
/// writable by halfword, that nothing else reads or writes during the call:
/// on the GBA a pair of mode 4 VRAM; on a host an initialised `u16` whose
/// pointer was turned into the address with `as usize` (which exposes it).
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub unsafe fn put_in_pair(pair: usize, odd: bool, c: u8) {
    #[cfg(target_arch = "arm")]
    let old: u32 = {
        let old: u32;
        // SAFETY: the caller's contract. Load and store are both asm, so the
        // compiler cannot narrow the store to a byte.
        unsafe {
            core::arch::asm!("ldrh {o}, [{a}]", o = out(reg) old, a = in(reg) pair, options(nostack, readonly, preserves_flags))
        };
        old
    };
    // SAFETY: the caller's contract.
    #[cfg(not(target_arch = "arm"))]
    let old = unsafe { (pair as *const u16).read_volatile() } as u32;
    let new = if odd { (old & 0x00FF) | (c as u32) << 8 } else { (old & 0xFF00) | c as u32 };
    // SAFETY: the caller's contract.
    #[cfg(target_arch = "arm")]
    unsafe {
        core::arch::asm!("strh {n}, [{a}]", n = in(reg) new, a = in(reg) pair, options(nostack, preserves_flags))
    };
    // SAFETY: the caller's contract.
    #[cfg(not(target_arch = "arm"))]
    unsafe {
        (pair as *mut u16).write_volatile(new as u16)
    };
}

/// Sky palette index by (row - horizon + 256): a gradient down to the horizon.
#[cfg_attr(target_arch = "arm", unsafe(link_section = ".iwram.voxel_tables"))]
pub(crate) static SKY: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut k = 0;
    while k < 512 {
        let d = k as i32 - 256; // row minus horizon
        let shade = if d >= 0 {
            palette::SKY_LEN as i32 - 1
        } else {
            let v = palette::SKY_LEN as i32 - 1 + d * (palette::SKY_LEN as i32 - 1) / (HORIZON + 40);
            if v < 0 { 0 } else { v }
        };
        t[k] = palette::SKY_BASE + shade as u8;
        k += 1;
    }
    t
};

/// The per-frame projection of each slice: a sample of height `h` (units) at
/// slice `s` lands on screen row `(a[s] + h * b[s]) >> 16`, with
/// `a[s] = (horizon << 16) + eye * iz[s]` and `b[s] = -(iz[s] * scale >> 8)`
/// (`iz` = FOCAL / z in 16.16, `eye` the camera altitude in world pixels,
/// `scale` the bank's world pixels per height unit in 8.8). Both renderers
/// use these numbers, so their rows agree exactly; the height scale costs
/// nothing per sample.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub(crate) fn slice_rows(s: usize, horizon: i32, eye: i32, scale: i32) -> (i32, i32) {
    let iz = INV_Z[s & 127];
    ((horizon << 16) + eye * iz, -((iz * scale) >> 8))
}

const _: () = assert!(SLICES <= 128, "slice tables are indexed with & 127");

/// Depth slices tested together for a skip: a group of them is passed over,
/// no texel read, when not even the highest texel it could sample (the
/// highest tile or block under its ground, `group_tops`; or the relief's top,
/// [`crate::flight::Relief::top`]; 255 without a relief) could rise above
/// what its column has drawn so far. Every group lies within one band.
///
/// ```
/// use voxel::projection::{BAND_LEN, SLICES};
/// use voxel::render::{SKIP_GROUPS, SKIP_LEN};
/// assert_eq!((SKIP_LEN, BAND_LEN / SKIP_LEN, SKIP_GROUPS * SKIP_LEN), (8, 2, SLICES));
/// ```
pub const SKIP_LEN: usize = 8;
/// Groups of [`SKIP_LEN`] slices in a column.
///
/// ```
/// assert_eq!(voxel::render::SKIP_GROUPS, 12); // 96 slices
/// ```
pub const SKIP_GROUPS: usize = SLICES / SKIP_LEN;

const _: () = assert!(
    SKIP_LEN.is_power_of_two() && BAND_LEN.is_multiple_of(SKIP_LEN) && SLICES.is_multiple_of(BAND_LEN),
    "skip groups tile the bands"
);

/// Per group of [`SKIP_LEN`] slices, a screen row no texel of height
/// `tops[g]` (height units: the highest the group can sample,
/// [`group_tops`]) rises above in it: at most the least of `(a[s] + top *
/// b[s]) >> 16` ([`slice_rows`]) over its slices, found from its first and
/// last slice alone (see [`skip_rows_of`]). Every texel it samples is at
/// most that high and `b[s] <= 0`, so none of the group's samples lands
/// above that row: once a column's y-buffer is at or above it, the whole
/// group is hidden, and both renderers pass over it (the pictures are the
/// same with or without the skip; only the work is less).
///
/// Once a frame, for both renderers. Padded to 16 with rows that never
/// skip, so that an index `& 15` needs no check.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub(crate) fn skip_rows(horizon: i32, eye: i32, scale: i32, tops: &[i32; 16]) -> [i32; 16] {
    let mut table = [0; 2 * SLICES];
    slice_table(&mut table, horizon, eye, scale, 0);
    skip_rows_of(&table, 0, scale, tops)
}

/// Fills `table` with each slice's `a - bias` and `b` of [`slice_rows`],
/// interleaved: the frame's slice table (the GBA's march keeps its rows
/// `bias` less).
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub(crate) fn slice_table(table: &mut [i32; 2 * SLICES], horizon: i32, eye: i32, scale: i32, bias: i32) {
    let mut s = 0;
    while s < SLICES {
        let (a, b) = slice_rows(s, horizon, eye, scale);
        (table[2 * s], table[2 * s + 1]) = (a - bias, b);
        s += 1;
    }
}

/// [`skip_rows`] from the frame's slice table (`a - bias`, `b` of
/// [`slice_rows`] per slice, interleaved): the march reads the one it built
/// for its samples (whose `a` it keeps `bias` less), instead of computing
/// the numbers twice.
///
/// Two slices a group, not eight: with `iz` the slice's `INV_Z`, `y(s) = a
/// + top * b` (16.16, `scale` the height scale) is the line `horizon << 16
/// + iz * (eye - top * scale / 256)` plus `top` times the fraction that
/// `b`'s `>> 8` dropped, `((iz * scale) & 255) / 256`. `INV_Z` falls slice
/// by slice (the projection's tests check it), so over a group the line is
/// least at its first or its last slice, and every `y(s)` is at least the
/// lesser of the line at those two: each that slice's `y` less `top` times
/// its fraction (rounded up). That, `>> 16`, is the row (at most one row
/// above the least `y(s) >> 16`, seldom any: the tests check).
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub(crate) fn skip_rows_of(table: &[i32; 2 * SLICES], bias: i32, scale: i32, tops: &[i32; 16]) -> [i32; 16] {
    let mut rows = [i32::MIN; 16];
    let mut g = 0;
    while g < SKIP_GROUPS {
        rows[g] = skip_row(table, bias, scale, tops[g & 15], g);
        g += 1;
    }
    rows
}

/// [`skip_rows_of`]'s row of group `g` (below [`SKIP_GROUPS`]) for its top
/// `top`.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub(crate) fn skip_row(table: &[i32; 2 * SLICES], bias: i32, scale: i32, top: i32, g: usize) -> i32 {
    let first = skip_line(table, bias, scale, top, g * SKIP_LEN);
    let last = skip_line(table, bias, scale, top, (g + 1) * SKIP_LEN - 1);
    (if first < last { first } else { last }) >> 16
}

/// [`skip_rows_of`]'s line at slice `s` for a texel of height `top`,
/// rounded down (16.16 rows).
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
fn skip_line(table: &[i32; 2 * SLICES], bias: i32, scale: i32, top: i32, s: usize) -> i32 {
    let dropped = (INV_Z[s & 127] * scale) & 255;
    table[2 * s] + bias + top * table[2 * s + 1] - ((top * dropped + 255) >> 8)
}

const _: () = assert!(SKIP_GROUPS <= 16, "skip_rows pads to 16");

/// Most tiles [`group_tops`] reads under one band: the near bands' ground
/// spans a few tiles; a band whose ground spans more (small tiles) keeps the
/// relief's top.
pub(crate) const TOPS_TILES: u32 = 25;

/// Bands (from the first) whose ground [`group_tops`] reads block by block
/// ([`crate::flight::Relief`]'s block tops, a quarter or less of a tile a
/// side) in the tiles that could raise its top: the first band's box is a
/// few blocks wide, and its ground, just ahead, is what a low flight over
/// hills hides behind the screen's bottom edge (on the scripted flight's
/// frames over a refresh, its tiles' tops let 595 samples a frame through
/// that its blocks' pass over: a few more block reads, 357 fewer samples;
/// the second band's blocks spared 12 more, the third's none worth their
/// reads, measured on the host's reference renderer).
pub(crate) const BLOCK_BANDS: usize = 1;

/// Groups [`group_tops`] looks under: those of the near ring's bands (up to
/// 200 px), a band (two groups) at a time. The far bands' ground spans too
/// many tiles to pay, and one box a group instead of a band cost more
/// cycles and skipped no more: both measured on the scripted flight.
pub(crate) const TOPS_GROUPS: usize = 2 * crate::cache::NEAR_BANDS;

/// Per band of those groups, its first and last slice's distance, world pixels.
const BAND_Z: [(i32, i32); TOPS_GROUPS / 2] = {
    let mut t = [(0, 0); TOPS_GROUPS / 2];
    let mut b = 0;
    while b < TOPS_GROUPS / 2 {
        t[b] = (crate::projection::Z[b * BAND_LEN] as i32, crate::projection::Z[(b + 1) * BAND_LEN - 1] as i32);
        b += 1;
    }
    t
};

/// World pixels round a band's ground that [`group_tops`] adds: positions
/// step in truncated 24.8, packed ([`pack`]: each step floored to 1/128 px,
/// a carry out of x moves y 1/128 px), and the camera's pixel drops its
/// fraction: together up to 2 px on the high side (the margin is tight, not
/// roomy; the tests walk every near sample); a near band reads the texel
/// under its position, in the tile its position is in.
const TOPS_MARGIN: i32 = 2;

/// Per group of [`SKIP_LEN`] slices, the highest texel (height units) any of
/// its samples can read, for [`skip_rows`]: for the first [`TOPS_GROUPS`],
/// the highest tile top ([`crate::flight::Relief`]'s: each tile's highest
/// texel) of the tiles under their band's ground, and for the first
/// [`BLOCK_BANDS`] bands' the highest block top of those tiles' blocks
/// under it (read only in a tile whose top is above what the band has found
/// so far). That ground is the
/// trapezoid between the band's first and last slice across the whole view
/// (rays `u` = -1 .. 1), taken as a box of world pixels with [`TOPS_MARGIN`].
/// Without a relief, for the other groups, where the box spans more than
/// [`TOPS_TILES`] tiles, or where the window does not hold all of the box
/// (not followed to this camera, or too small a window: the GBA's march
/// reads the cache, not the window), a group keeps the scene's top. Over
/// open sea the near groups' top is the sea's: their ground lies below the
/// screen, and every column passes over them.
///
/// Once a frame, for both renderers (the same skips: the same work counted).
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32), unsafe(link_section = ".iwram.voxel_tops"), inline(never))]
#[cfg_attr(not(target_arch = "arm"), inline(never))]
pub(crate) fn group_tops<const N: usize>(scene: &Scene<'_, N>, camera: &Camera) -> [i32; 16] {
    let top = scene.top();
    let mut tops = [top; 16];
    let Some(relief) = scene.relief else {
        return tops;
    };
    let tp = scene.shape.tile_px_log2;
    let m = scene.shape.world_mask >> tp; // tiles a side - 1
    // Not unrolled: a copy of the loop a band would take twice the IWRAM.
    let view = NearView::new(camera);
    let bands = core::hint::black_box(TOPS_GROUPS / 2);
    let mut b = 0;
    while b < bands {
        let bounds = view.band_box(b);
        let [x0, x1, y0, y1] = bounds;
        // Tiles, as world tile coordinates before the wrap (shifts floor).
        let (tx0, tx1, ty0, ty1) = (x0 >> tp, x1 >> tp, y0 >> tp, y1 >> tp);
        let (w, h) = ((tx1 - tx0 + 1) as u32, (ty1 - ty0 + 1) as u32);
        if w * h <= TOPS_TILES && scene.window.covers_rect(m, tx0 as u32 & m, ty0 as u32 & m, w, h) {
            let mut high = 0;
            let mut ty = ty0;
            while ty <= ty1 {
                let mut tx = tx0;
                while tx <= tx1 {
                    let tile = scene.window.get(tx as u32 & m, ty as u32 & m);
                    if relief.tile_top(tile) as i32 > high {
                        // The tile's blocks under the box, or the whole tile.
                        high = high.max(relief.top_under(tile, (tx, ty), &bounds, b < BLOCK_BANDS, tp) as i32);
                    }
                    tx += 1;
                }
                ty += 1;
            }
            // Both groups of the band.
            tops[(2 * b) & 15] = high;
            tops[(2 * b + 1) & 15] = high;
        }
        b += 1;
    }
    tops
}

/// What the near bands' boxes share for one camera: its pixel and the
/// view's edge rays (u = -1 and +1), 2.14, least and most in x and in y.
struct NearView {
    cx: i32,
    cy: i32,
    rx: (i32, i32),
    ry: (i32, i32),
}

impl NearView {
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    fn new(camera: &Camera) -> Self {
        let (c, s) = (trig::cos(camera.heading), trig::sin(camera.heading));
        NearView {
            cx: (camera.x >> 8) as i32,
            cy: (camera.y >> 8) as i32,
            rx: ((c + s).min(c - s), (c + s).max(c - s)),
            ry: ((s - c).min(s + c), (s - c).max(s + c)),
        }
    }

    /// The box of world pixels round near band `b`'s ground (`b` below
    /// [`TOPS_GROUPS`] / 2): `[x0, x1, y0, y1]`, inclusive, as coordinates
    /// before the world's wrap (`camera.x >> 8` plus an offset),
    /// [`TOPS_MARGIN`] included. Every sample of the band lands in it:
    /// between its first and last slice, between the view's edge rays.
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
    #[inline(always)]
    fn band_box(&self, b: usize) -> [i32; 4] {
        let (z0, z1) = BAND_Z[b % (TOPS_GROUPS / 2)];
        // The least and most of ray * z over z0..z1.
        let lo = |r: i32| (r * if r < 0 { z1 } else { z0 }) >> 14;
        let hi = |r: i32| (r * if r > 0 { z1 } else { z0 }) >> 14;
        let m = TOPS_MARGIN;
        [
            self.cx + lo(self.rx.0) - m,
            self.cx + hi(self.rx.1) + m,
            self.cy + lo(self.ry.0) - m,
            self.cy + hi(self.ry.1) + m,
        ]
    }
}

/// Leading bands that every column passes over before its first sample:
/// those whose two groups' skip rows ([`skip_rows`]) are at or below the
/// screen's last row. A column's y-buffer starts there and only rises, so
/// each of their groups is hidden in every column; the GBA's march steps
/// past them at once (16 steps a band, no group test), the reference
/// renderer tests each group and finds the same.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32), unsafe(link_section = ".iwram.voxel_hidden"))]
#[inline(never)]
pub(crate) fn hidden_bands(skip: &[i32; 16]) -> u32 {
    let mut b = 0;
    while b < BANDS && skip[(2 * b) & 15] >= HEIGHT as i32 && skip[(2 * b + 1) & 15] >= HEIGHT as i32 {
        b += 1;
    }
    b as u32
}

const _: () = assert!(BAND_LEN == 2 * SKIP_LEN, "hidden_bands: two groups a band");

/// [`Stats::passed_groups`] of a frame of `columns` columns that skipped
/// `skipped` slices with `hidden` leading bands hidden: every column passes
/// over the hidden bands' groups (it cannot fill before its first sample),
/// the rest were passed by their tests.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub(crate) fn passed_groups(skipped: u32, hidden: u32, columns: u32) -> u32 {
    skipped / SKIP_LEN as u32 - hidden * 2 * columns
}

/// The boundary view's lines (`Options::boundaries`) are this many of a
/// ring's entries wide, from a tile's edge: 8 world px in the near bands
/// (texels of 4 px), 16 in the far ones (entries of 8 px, every other
/// texel), where a ray's samples are up to 16 px apart (22 at the screen's
/// edges): few of them step over a line.
pub const MARK_ENTRIES: u32 = 2;

/// The boundary view's lines: whether the texel at (`cx`, `cy`) in its
/// tile (texels from the tile's corner) lies on a tile border, within
/// [`MARK_ENTRIES`] of its ring's entries (`far`: the far bands', every
/// other texel) of its tile's first column or row. Such a texel is drawn in
/// [`palette::MARK`], fogged as the texel's own colour would be.
///
/// ```
/// use voxel::render::on_border;
/// assert!(on_border(1, 5, false) && on_border(7, 0, false) && !on_border(2, 2, false));
/// assert!(on_border(2, 6, true) && !on_border(4, 6, true)); // far: texels 0 and 2
/// ```
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub const fn on_border(cx: u32, cy: u32, far: bool) -> bool {
    let width = MARK_ENTRIES << far as u32;
    cx < width || cy < width
}

/// What to draw.
///
/// ```
/// let boundary_view = voxel::Options { boundaries: true, ..Default::default() };
/// assert_ne!(boundary_view, voxel::Options::default());
/// #[cfg(feature = "pixel-columns")]
/// {
///     let sharp = voxel::Options { columns: voxel::Columns::Pixels, ..Default::default() };
///     assert_eq!(sharp.columns.count(), 240);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    /// Mark tile boundaries on the terrain as lines (the paper's figure
    /// 10): the texels on tile borders ([`on_border`]) in
    /// [`palette::MARK`]. On the GBA the texel cache holds them so (a
    /// change marks its border texels in place, or reads them again:
    /// [`crate::cache::TexelCache::set_marks`]).
    pub boundaries: bool,
    /// 120 columns of pixel pairs (the default) or 240 of single pixels.
    pub columns: Columns,
}

/// Counters of one frame. The GBA's fast path counts samples, skipped
/// slices and passed groups only; the reference renderer (which draws the
/// same frame, and skips the same slices) counts everything.
///
/// ```
/// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
/// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
/// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
/// let camera = voxel::Camera { x: 500 << 8, y: 500 << 8, z: 50 << 8, ..Default::default() };
/// let stats = land.render(&camera, voxel::Options::default(), &mut *Box::new(voxel::Frame::default()));
/// // Every pixel pair of the 120 columns is terrain or sky.
/// assert_eq!(stats.span_rows + stats.sky_rows, 120 * 160);
/// #[cfg(feature = "pixel-columns")]
/// {
///     let pixels = voxel::Options { columns: voxel::Columns::Pixels, ..Default::default() };
///     let stats = land.render(&camera, pixels, &mut *Box::new(voxel::Frame::default()));
///     assert_eq!(stats.span_rows + stats.sky_rows, 240 * 160); // every pixel
///     assert!(stats.samples > 120 * 20); // 240 columns to march
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Depth samples taken: a texel read and projected (columns stop early
    /// once filled to the top; skipped slices are not samples, so samples +
    /// skipped is 96 a column until it fills).
    pub samples: u32,
    /// Samples that rose above everything drawn so far in their column: each
    /// draws a span (the rest are hidden).
    pub draws: u32,
    /// Visible runs: draws whose column's previous slice (sampled, not
    /// skipped) did not draw, so each starts a run of draws by consecutive
    /// samples; `draws / runs` is how many samples in a row rise above the
    /// y-buffer on average.
    pub runs: u32,
    /// Rows of terrain drawn, summed over the columns (pixel pairs, or
    /// pixels in 240-column mode).
    pub span_rows: u32,
    /// Rows of sky, summed over the columns (as `span_rows`).
    pub sky_rows: u32,
    /// Depth slices passed over without a sample, in groups of [`SKIP_LEN`]
    /// that not even the highest texel they could sample could show in (the
    /// relief's top, [`crate::flight::Relief::top`], or nearer the highest
    /// tile under them; 255 without a relief).
    pub skipped: u32,
    /// Groups of [`SKIP_LEN`] slices passed over by their own test: the
    /// skipped slices less those of the leading bands hidden in every
    /// column, which the GBA's march steps past at once, no test (the
    /// frame's cost of a pass is its test's).
    pub passed_groups: u32,
    /// Rows (0 to 160) the frame filled with the sky, row by row, before
    /// its terrain: 160 (the whole page) on the reference path, which paints
    /// the whole sky (last); on the GBA's fast path 0 if the target's
    /// [`PageSky`](crate::PageSky) held the last frame's sky at this
    /// horizon, else [`PageSky::fill_rows`](crate::PageSky::fill_rows) (160
    /// without a `PageSky`).
    pub sky_rows_filled: u32,
    /// Sky rows the fast path repainted, per column, below those it filled
    /// (pixel pairs, summed over the columns): the rows the page's last
    /// frame showed terrain in (or below the rows filled) and this one shows
    /// sky.
    pub repainted_rows: u32,
    /// Samples in groups of [`SKIP_LEN`] slices that were all sampled and
    /// none of which drew: work a skip test could still spare, if it could
    /// tell such a group without reading its texels (its upper bound: the
    /// reference renderer counts them; the GBA's fast path leaves 0).
    pub silent_samples: u32,
    /// Samples taken in the near ring's bands while their column had drawn
    /// nothing (its y-buffer still the screen's bottom edge), the first
    /// draw's own included: the GBA's march takes them in its bottom chain,
    /// a compare of the texel's height each (in 240-column mode, the even
    /// pixels' columns). The reference renderer counts them; the GBA's fast
    /// path leaves 0.
    pub bottom_samples: u32,
}

/// First terrain palette entry of each slice's fog level.
#[cfg_attr(target_arch = "arm", unsafe(link_section = ".iwram.voxel_tables"))]
pub(crate) static FOG_BASE: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut s = 0;
    while s < 128 {
        t[s] = palette::terrain(0, FOG[s]);
        s += 1;
    }
    t
};

/// Where row `y`'s sky colour sits in [`SKY`] for a horizon at row
/// `horizon`: `(y - horizon + 256) & 511` (the table is indexed by the row
/// less the horizon, offset to stay positive).
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub(crate) fn sky_index(y: i32, horizon: i32) -> u32 {
    ((y - horizon + 256) & 511) as u32
}

/// How far a band's packed position ([`pack`]) shifts a 24.8 world
/// coordinate: 1 for the near bands (units of 1/128 px: a texel of 4 px is
/// 512, the near ring's 128 texels one field), 3 for the far ones (1/32 px:
/// an entry of 8 px is 256, the far ring's 256 entries one field).
///
/// ```
/// use voxel::render::pack_shift;
/// assert_eq!((pack_shift(0), pack_shift(2), pack_shift(3), pack_shift(5)), (1, 1, 3, 3));
/// ```
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub const fn pack_shift(band: usize) -> u32 {
    if band < crate::cache::NEAR_BANDS { 1 } else { 3 }
}

/// A march position packed into one word, so that one add steps it: x >> `k`
/// in the low 16 bits, y >> `k` in the high 16 (both 24.8 world px, `k` the
/// band's [`pack_shift`]). Each field holds a ring's side (the top bits of
/// the low field are the texel's column, of the high field its row); a step
/// whose x carries out of the low field moves y by one unit (1/128 or 1/32
/// px), in both renderers alike.
///
/// ```
/// use voxel::render::pack;
/// // x 1000.5 px, y 2000 px, near units (1/128 px): 128,064 and 256,000.
/// assert_eq!(pack(1000 << 8 | 128, 2000 << 8, 1), (256_000 & 0xFFFF) << 16 | (128_064 & 0xFFFF));
/// ```
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub const fn pack(x: u32, y: u32, k: u32) -> u32 {
    (y >> k) << 16 | ((x >> k) & 0xFFFF)
}

/// A 24.8 step (`sx`, `sy`) packed for [`pack`]'s positions: `sx >> k` plus
/// `(sy >> k) << 16` (both arithmetic shifts, so a negative x borrows from
/// y's field: adding the step to a position moves each field by its own, but
/// for one unit of y when x runs out of its field).
///
/// ```
/// use voxel::render::{pack, pack_step};
/// let p = pack(1000 << 8, 2000 << 8, 3);
/// let q = p.wrapping_add(pack_step(-(16 << 8), 8 << 8, 3)); // 16 px west, 8 px south
/// assert_eq!(q, pack(984 << 8, 2008 << 8, 3));
/// ```
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub const fn pack_step(sx: i32, sy: i32, k: u32) -> u32 {
    ((sx >> k) as u32).wrapping_add(((sy >> k) as u32) << 16)
}

/// The world position of a packed position `p` (units of [`pack_shift`] `k`:
/// `(x, y)` 24.8 >> k) that lies within a quarter field of the 24.8 position
/// (`px`, `py`) (the march's exact one, from which `p` drifts by the steps'
/// rounding and the carries: under 64 units, of a quarter field's 16,384).
///
/// ```
/// use voxel::render::{pack, unpack};
/// // 3 units (1/32 px) past x 1000 px, far from y 2000.5: the field's 16 bits
/// // come back whole, next to the exact position.
/// let p = pack(1000 << 8, 2000 << 8, 3).wrapping_add(3);
/// assert_eq!(unpack(p, 1000 << 8, 2000 << 8 | 128, 3), ((1000 << 5) + 3, 2000 << 5));
/// ```
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub fn unpack(p: u32, px: u32, py: u32, k: u32) -> (u32, u32) {
    let (ex, ey) = (px >> k, py >> k);
    let dx = (p as u16).wrapping_sub(ex as u16) as i16 as i32;
    let dy = ((p >> 16) as u16).wrapping_sub(ey as u16) as i16 as i32;
    (ex.wrapping_add(dx as u32), ey.wrapping_add(dy as u32))
}

/// How far the first far band's slices start past the first band's, world
/// px (16 slices of each near band's step): the far bands' packed position
/// starts from the ray's exact point there, `(d * FAR_FROM) >> 6` past the
/// first position (`3 d`), not from the near bands' sum of rounded steps.
pub const FAR_FROM: i32 = {
    let mut z = 0;
    let mut b = 0;
    while b < crate::cache::NEAR_BANDS {
        z += BAND_LEN as i32 * BAND_STEP[b] as i32;
        b += 1;
    }
    z
};

/// The column loop (every tile size: one copy, to spare the GBA's IWRAM).
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32), inline(never))]
pub(crate) fn columns<const N: usize, T: Target>(
    scene: &Scene<'_, N>,
    camera: &Camera,
    options: Options,
    target: &mut T,
) -> Stats {
    let tl = scene.shape.tile_log2; // tile side in texels, log2
    let tp = tl + TEXEL_SHIFT; // tile side in world pixels, log2
    let shift = TEXEL_SHIFT; // world pixels per texel, log2
    let cos = trig::cos(camera.heading);
    let sin = trig::sin(camera.heading);
    let horizon = horizon(camera.pitch);
    let eye = camera.z >> 8;
    let wmask = scene.shape.world_mask;
    let tile_mask = (1u32 << tp) - 1;
    // Addresses as integers: `core`'s slice and pointer methods cannot be
    // inlined into ARM code on the GBA.
    let texels = scene.shape.texels as *const [u16] as *const u16 as usize;
    let (mut samples, mut draws, mut span_rows, mut sky_rows, mut skipped) = (0u32, 0u32, 0u32, 0u32, 0u32);
    let (mut runs, mut silent, mut bottom) = (0u32, 0u32, 0u32);
    let tops = group_tops(scene, camera);
    let skip = skip_rows(horizon, eye, scene.shape.height_scale, &tops);
    let columns = options.columns;
    let mut col = 0;
    while col < columns.count() {
        let u = columns.offset(col);
        // Ray direction: forward + right * u, 2.14 fixed point.
        let dx = cos - ((sin * u) >> 14);
        let dy = sin + ((cos * u) >> 14);
        // 24.8 world position of the first sample's predecessor.
        let mut px = camera.x.wrapping_add(((dx * Z0 as i32) >> 6) as u32);
        let mut py = camera.y.wrapping_add(((dy * Z0 as i32) >> 6) as u32);
        let far = (px.wrapping_add(((dx * FAR_FROM) >> 6) as u32), py.wrapping_add(((dy * FAR_FROM) >> 6) as u32));
        let mut ybuf = HEIGHT as i32;
        // Whether the column's previous slice drew (a run goes on), and
        // whether any slice of its group did.
        let (mut drew, mut group_drew) = (false, false);
        // The packed position (`pack`): the texels' coordinates.
        let mut p = 0u32;
        let mut s = 0;
        let mut band = 0;
        'march: while band < BANDS {
            let step = BAND_STEP[band] as i32;
            let (sx, sy) = (((dx * step) >> 6) as u32, ((dy * step) >> 6) as u32);
            let k = pack_shift(band);
            // The packed position starts from the exact one at the first
            // band and at the first far one (whatever the skips pass over:
            // the picture does not depend on them), as the GBA's march does.
            if band == 0 {
                p = pack(px, py, k);
            } else if band == crate::cache::NEAR_BANDS {
                p = pack(far.0, far.1, k);
            }
            let ps = pack_step(sx as i32, sy as i32, k);
            // Level of detail: far bands see the texel at even coordinates
            // (what the texel cache's far ring holds).
            let lod = if band < crate::cache::NEAR_BANDS { !0u32 } else { !7u32 };
            let end = s + BAND_LEN;
            while s < end {
                if s & (SKIP_LEN - 1) == 0 && skip[(s / SKIP_LEN) & 15] >= ybuf {
                    // Hidden whatever its texels: on to the next group.
                    px = px.wrapping_add(sx.wrapping_mul(SKIP_LEN as u32));
                    py = py.wrapping_add(sy.wrapping_mul(SKIP_LEN as u32));
                    p = p.wrapping_add(ps.wrapping_mul(SKIP_LEN as u32));
                    skipped += SKIP_LEN as u32;
                    s += SKIP_LEN;
                    drew = false;
                    continue;
                }
                px = px.wrapping_add(sx);
                py = py.wrapping_add(sy);
                p = p.wrapping_add(ps);
                let (ux, uy) = unpack(p, px, py, k);
                let (mx, my) = ((ux >> (8 - k)) & wmask, (uy >> (8 - k)) & wmask);
                let (wx, wy) = (mx & lod, my & lod);
                // The window's reference, or beyond it (a window too small
                // for the view, or not followed here) the world's lookup.
                let t = scene.tile_at(wx >> tp, wy >> tp) as usize;
                let (cx, cy) = ((wx & tile_mask) >> shift, (wy & tile_mask) >> shift);
                let i = (t << (2 * tl)) + ((cy as usize) << tl) + cx as usize;
                debug_assert!(i < scene.shape.texels.len(), "tile {t} outside the bank");
                // SAFETY: `t` is a tile reference below the world's tile count,
                // which `SceneShape::of` checked is at most the bank's; the texel
                // offsets are below the tile side: `i` is inside `texels`.
                let mut texel = unsafe { *((texels + 2 * i) as *const u16) } as u32;
                if options.boundaries && on_border(cx, cy, band >= crate::cache::NEAR_BANDS) {
                    texel = (texel & 0xFF) | (palette::MARK as u32) << 8;
                }
                samples += 1;
                bottom += (band < crate::cache::NEAR_BANDS && ybuf == HEIGHT as i32) as u32;
                let h = (texel & 0xFF) as i32;
                let (a, b) = slice_rows(s, horizon, eye, scene.shape.height_scale);
                let y = (a + h * b) >> 16;
                if y < ybuf {
                    let top = if y < 0 { 0 } else { y };
                    // Wrapping: a bank parsed without its colour check
                    // (`bank::parse_trusted`) may hold colours past the
                    // palette; the GBA's draw keeps the low byte alike.
                    let c = FOG_BASE[s & 127].wrapping_add((texel >> 8) as u8);
                    span(target, columns, col, top, ybuf, c);
                    draws += 1;
                    runs += !drew as u32;
                    drew = true;
                    group_drew = true;
                    span_rows += (ybuf - top) as u32;
                    ybuf = top;
                    if ybuf == 0 {
                        break 'march;
                    }
                } else {
                    drew = false;
                }
                s += 1;
                // A group sampled to its end (a column stops only on a draw):
                // silent if it drew nothing; the next group starts afresh (a
                // group passed over leaves the flag as it found it).
                if s & (SKIP_LEN - 1) == 0 {
                    silent += if group_drew { 0 } else { SKIP_LEN as u32 };
                    group_drew = false;
                }
            }
            band += 1;
        }
        // The sky above what the terrain covered.
        sky_rows += ybuf as u32;
        let mut y = 0;
        while y < ybuf {
            put(target, columns, col, y, SKY[sky_index(y, horizon) as usize]);
            y += 1;
        }
        col += 1;
    }
    let passed_groups = passed_groups(skipped, hidden_bands(&skip), columns.count() as u32);
    Stats {
        samples,
        draws,
        runs,
        span_rows,
        sky_rows,
        skipped,
        passed_groups,
        sky_rows_filled: HEIGHT as u32,
        repainted_rows: 0,
        silent_samples: silent,
        bottom_samples: bottom,
    }
}

/// Row `y` of column `col` of `columns` in `c`.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
fn put<T: Target>(target: &mut T, columns: Columns, col: usize, y: i32, c: u8) {
    match columns {
        Columns::Pairs => target.put(col, y as usize, c),
        #[cfg(feature = "pixel-columns")]
        Columns::Pixels => target.put_pixel(col, y as usize, c),
    }
}

/// Rows `y0 .. y1` of column `col` of `columns` in `c`.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
fn span<T: Target>(target: &mut T, columns: Columns, col: usize, y0: i32, y1: i32, c: u8) {
    match columns {
        Columns::Pairs => target.span(col, y0 as usize, y1 as usize, c),
        #[cfg(feature = "pixel-columns")]
        Columns::Pixels => target.pixel_span(col, y0 as usize, y1 as usize, c),
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    /// The column offsets: (2 col + 1 - 120) / 120 in 2.14, rounded towards
    /// 0, symmetric about the middle of the screen.
    #[test]
    fn column_offsets_are_pinned() {
        assert_eq!((U[0], U[1], U[59], U[60], U[119]), (-16247, -15974, -136, 136, 16247));
        assert!((0..COLUMNS).all(|c| U[c] == -U[COLUMNS - 1 - c]));
    }

    /// The 240 pixel columns' offsets: (2 x + 1 - 240) / 240 in 2.14.
    #[cfg(feature = "pixel-columns")]
    #[test]
    fn pixel_column_offsets_are_pinned() {
        // Pixel columns: (2 x + 1 - 240) / 240; pixel pair c's two lie
        // either side of the pair's own offset.
        assert_eq!((U_PIXELS[0], U_PIXELS[119], U_PIXELS[120], U_PIXELS[239]), (-16315, -68, 68, 16315));
        assert!((0..COLUMNS).all(|c| U_PIXELS[2 * c] < U[c] && U[c] < U_PIXELS[2 * c + 1]));
    }

    /// The sky: the horizon's shade (the last) on and below the horizon,
    /// darker by 31 shades per 100 rows above it (rounded towards 0), the
    /// first shade from 100 rows up.
    #[test]
    fn sky_gradient_is_pinned() {
        let at = |d: i32| SKY[(d + 256) as usize] - palette::SKY_BASE;
        let want =
            [(255, 31), (0, 31), (-1, 31), (-4, 30), (-40, 19), (-60, 13), (-99, 1), (-100, 0), (-101, 0), (-256, 0)];
        for (d, shade) in want {
            assert_eq!(at(d), shade, "{d} rows from the horizon");
        }
    }

    /// The fog bases: the first terrain entry of each slice's fog block.
    #[test]
    fn fog_bases_are_pinned() {
        assert_eq!((FOG_BASE[0], FOG_BASE[47], FOG_BASE[48], FOG_BASE[64], FOG_BASE[95]), (44, 44, 97, 150, 203));
    }

    /// The projection of a slice: row = (a + h b) >> 16, with a the horizon
    /// and the eye's offset, b minus the slice's scale times the height scale.
    #[test]
    fn slice_rows_are_pinned() {
        // Slice 2 (z 14, INV_Z 561,737), horizon 60, eye 30, scale 1 and 2.
        assert_eq!(slice_rows(2, 60, 30, 256), ((60 << 16) + 30 * 561_737, -561_737));
        assert_eq!(slice_rows(2, 70, 30, 512), ((70 << 16) + 30 * 561_737, -2 * 561_737));
        assert_eq!(slice_rows(2 + 128, 60, 30, 256), slice_rows(2, 60, 30, 256));
    }

    /// The skip rows from each group's two end slices are never below the
    /// least row of its eight (the skip stays safe) and at most one row above
    /// it, seldom that (under 0.5% of the groups; without each end's dropped
    /// fraction, 7%), over heights, eyes, horizons and the height scales'
    /// range.
    #[test]
    fn skip_rows_bound_every_slice_of_their_group() {
        let mut off_by_one = 0;
        for horizon in [-60, 0, HORIZON, 160, 220] {
            for eye in (-40..1600).step_by(37) {
                for scale in [16, 64, 200, 256, 300, 1024, 2048] {
                    let tops: [i32; 16] = core::array::from_fn(|g| (g as i32 * 97 + eye) & 255);
                    let rows = skip_rows(horizon, eye, scale, &tops);
                    for g in 0..SKIP_GROUPS {
                        let least = (g * SKIP_LEN..(g + 1) * SKIP_LEN)
                            .map(|s| {
                                let (a, b) = slice_rows(s, horizon, eye, scale);
                                (a + tops[g] * b) >> 16
                            })
                            .min()
                            .unwrap();
                        assert!(rows[g] <= least && rows[g] >= least - 1, "{horizon} {eye} {scale} group {g}");
                        off_by_one += (rows[g] < least) as u32;
                    }
                }
            }
        }
        // The bound is seldom a row off.
        assert!(off_by_one * 200 < (5 * 44 * 7 * SKIP_GROUPS) as u32, "{off_by_one}");
    }

    /// A band is hidden in every column only if both its groups' rows are
    /// at or below the screen's last row, and only while every band before
    /// it is; from 1,500 px up every band is, from just above the top none.
    #[test]
    fn hidden_bands_lead_and_need_both_groups() {
        let mut skip = [i32::MIN; 16];
        skip[..12].copy_from_slice(&[200, 170, 160, 160, 159, 300, 400, 400, 400, 400, 400, 400]);
        assert_eq!(hidden_bands(&skip), 2); // band 2's second group could show on row 159
        skip[4] = 160;
        assert_eq!(hidden_bands(&skip), 6);
        skip[0] = 159;
        assert_eq!(hidden_bands(&skip), 0); // the first group could show: nothing leads
        assert_eq!(hidden_bands(&skip_rows(HORIZON, 1500, 256, &[255; 16])), 6);
        assert_eq!(hidden_bands(&skip_rows(HORIZON, 260, 256, &[255; 16])), 0);
        // Between: the hidden bands' rows are all below the screen.
        for eye in (0..1500).step_by(7) {
            let rows = skip_rows(HORIZON, eye, 256, &[255; 16]);
            let b = hidden_bands(&rows) as usize;
            assert!(rows[..2 * b].iter().all(|&r| r >= HEIGHT as i32), "eye {eye}");
            assert!(b == BANDS || rows[2 * b] < HEIGHT as i32 || rows[2 * b + 1] < HEIGHT as i32, "eye {eye}");
        }
    }

    /// A paper-placement bank of `texels` (tiles of `n` texels), one colour.
    fn paper_bank(n: u16, texels: &[u16]) -> std::vec::Vec<u8> {
        bank::encode(&bank::Contents {
            tile_size: n,
            palette: &[0x03E0],
            tiles: texels,
            placement: bank::Placement::Paper,
            height_scale: bank::HEIGHT_SCALE_ONE,
        })
        .unwrap()
    }

    /// A world that refers to more tiles than the bank has is refused: the
    /// renderer reads texels by reference without checking.
    #[test]
    fn a_world_with_more_tiles_than_the_bank_is_refused() {
        let texels = [bank::texel(1, 0); 4 * 32 * 32];
        let bytes = paper_bank(32, &texels);
        let bank = bank::parse(&bytes).unwrap();
        for (tiles, ok) in [(4, true), (5, false)] {
            let world =
                World::new(1, terrain::WorldParams { tile_count: tiles, ..terrain::WorldParams::DEFAULT }).unwrap();
            let got = SceneShape::of(&world, &bank).err();
            assert_eq!(got, if ok { None } else { Some(SceneError::TileCount { world: 5, bank: 4 }) });
        }
    }

    /// Every sample the near bands can take, skipped or not, reads a texel
    /// no higher than its group's top: the march's positions stepped as
    /// `columns` steps them, every column of both modes, over tiles that are
    /// low but for one spike at a corner or an edge (where a box or margin
    /// too small, or a block range one short, would show), every tile size,
    /// cameras at tile edges and the world's wrap, every eighth of a turn
    /// and between.
    #[test]
    fn no_near_sample_is_above_its_groups_top() {
        use std::boxed::Box;
        let (mut lowered, mut by_blocks) = (0, 0);
        for n in [8u32, 16, 32, 64, 128] {
            // Tiles 0..6: height 10, but 250 at one corner or edge texel;
            // tiles 6..12: 10 all over.
            let spike = |t: u32| {
                [(0, 0), (n - 1, 0), (0, n - 1), (n - 1, n - 1), (n / 2, 0), (0, n / 2)].get(t as usize).copied()
            };
            let texels: std::vec::Vec<u16> = (0..12 * n * n)
                .map(|i| {
                    let (t, x, y) = (i / (n * n), i % n, i / n % n);
                    bank::texel(if Some((x, y)) == spike(t) { 250 } else { 10 }, 0)
                })
                .collect();
            let bytes = paper_bank(n as u16, &texels);
            let relief = crate::flight::Relief::of(&bank::parse(&bytes).unwrap());
            let (mut world, mut window) = (Box::new(World::empty()), Box::new(Window::<64>::new()));
            let parts = crate::Parts { world: &mut world, window: &mut window, cache: None, relief: Some(&relief) };
            let mut land = crate::Landscape::new(bank::parse(&bytes).unwrap(), parts, 9).unwrap();
            let (side, tp) = (land.size_px(), land.tile_px_log2());
            let mut seed = 0x9E37_79B9u32;
            for k in 0..64u32 {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                // On a tile edge (within a pixel), near the world's wrap, or anywhere.
                let edge = |v: u32| (v >> tp << tp).wrapping_add(v % 3).wrapping_sub(1) % side;
                let (x, y) = match k % 3 {
                    0 => (edge(seed % side), edge((seed >> 7) % side)),
                    1 => (side - 1 - seed % 3, seed % 3),
                    _ => (seed % side, (seed >> 9) % side),
                };
                let heading = if k % 2 == 0 { (k / 2 % 8 * 8192) as u16 } else { (seed >> 12) as u16 };
                let camera =
                    Camera { x: x << 8 | (seed >> 24), y: y << 8 | (seed >> 16 & 255), heading, ..Camera::default() };
                land.follow(&camera);
                let scene = land.scene();
                let tops = group_tops(&scene, &camera);
                lowered += tops[..TOPS_GROUPS].iter().filter(|&&t| t < 250).count();
                // Below a spike tile's top though one lies under the box:
                // its spike's block does not (the first bands' blocks).
                let [x0, x1, y0, y1] = NearView::new(&camera).band_box(0);
                let m = (side >> tp) - 1;
                let spiked = (y0 >> tp..=y1 >> tp).any(|ty| {
                    (x0 >> tp..=x1 >> tp)
                        .any(|tx| relief.tile_top(scene.window.get(tx as u32 & m, ty as u32 & m)) == 250)
                });
                by_blocks += (spiked && tops[0] < 250) as u32;
                near_samples(&camera, |col, s, px, py| {
                    let h = (scene.texel(px >> 8, py >> 8) & 0xFF) as i32;
                    assert!(h <= tops[s / SKIP_LEN], "{n}-texel tiles, camera {camera:?}, column {col}, slice {s}");
                });
            }
        }
        assert!(lowered > 0, "no group got a top below the spikes: the test tests nothing");
        assert!(by_blocks > 0, "no first band's top came from blocks below a spike tile's: the blocks untested");
    }

    /// Every near sample's pixel lies in its band's box ([`NearView::band_box`]), for
    /// every heading in a sweep (and heading 64, where a sample lands a
    /// pixel outside the box without its margin), every column of both
    /// modes, with the camera's fraction 0 and 255.
    #[test]
    fn near_boxes_hold_every_sample() {
        let mut outside_without_margin = 0;
        for heading in (0..65536u32).step_by(97).chain([64]) {
            for frac in [0u32, 255] {
                let camera =
                    Camera { x: 5000 << 8 | frac, y: 7000 << 8 | frac, heading: heading as u16, ..Camera::default() };
                let boxes: [[i32; 4]; TOPS_GROUPS / 2] = core::array::from_fn(|b| NearView::new(&camera).band_box(b));
                near_samples(&camera, |col, s, px, py| {
                    let (x, y) = ((px >> 8) as i32, (py >> 8) as i32);
                    let [x0, x1, y0, y1] = boxes[s / BAND_LEN];
                    assert!(
                        (x0..=x1).contains(&x) && (y0..=y1).contains(&y),
                        "heading {heading}, fraction {frac}, column {col}, slice {s}"
                    );
                    let m = TOPS_MARGIN;
                    outside_without_margin +=
                        !((x0 + m..=x1 - m).contains(&x) && (y0 + m..=y1 - m).contains(&y)) as u32;
                });
            }
        }
        // The margin is needed: some samples fall outside the bare box.
        assert!(outside_without_margin > 0);
    }

    /// Walks the near bands' samples of `camera` as `columns` steps them
    /// (packed, from the exact position at the first band), every column of
    /// both modes (pairs first, then pixels, with the `pixel-columns`
    /// feature): `visit(column, slice, x, y)` with the world position of the
    /// packed one, 24.8.
    fn near_samples(camera: &Camera, mut visit: impl FnMut(usize, usize, u32, u32)) {
        let (c, sn) = (trig::cos(camera.heading), trig::sin(camera.heading));
        let modes = [
            Columns::Pairs,
            #[cfg(feature = "pixel-columns")]
            Columns::Pixels,
        ];
        for columns in modes {
            for col in 0..columns.count() {
                let u = columns.offset(col);
                let (dx, dy) = (c - ((sn * u) >> 14), sn + ((c * u) >> 14));
                let mut px = camera.x.wrapping_add(((dx * Z0 as i32) >> 6) as u32);
                let mut py = camera.y.wrapping_add(((dy * Z0 as i32) >> 6) as u32);
                let k = pack_shift(0);
                let mut p = pack(px, py, k);
                for s in 0..TOPS_GROUPS * SKIP_LEN {
                    let step = BAND_STEP[s / BAND_LEN] as i32;
                    let (sx, sy) = ((dx * step) >> 6, (dy * step) >> 6);
                    px = px.wrapping_add(sx as u32);
                    py = py.wrapping_add(sy as u32);
                    p = p.wrapping_add(pack_step(sx, sy, k));
                    let (ux, uy) = unpack(p, px, py, k);
                    visit(col, s, ux << k, uy << k);
                }
            }
        }
    }

    /// A relief built for another tile size than the scene's (a safe call:
    /// `Parts::relief` takes any) gives group tops at once, from tiles'
    /// tops, not blocks (whose ranges in the scene's tiles would be wrong,
    /// or empty: the block loop once ran for ever there).
    #[test]
    fn a_relief_of_another_tile_size_gives_tops_at_once() {
        use std::boxed::Box;
        // 10 high but for texel (0, 0), 200: its blocks differ, its top is 200.
        let mut spike = std::vec![bank::texel(10, 0); 128 * 128];
        spike[0] = bank::texel(200, 0);
        let other = paper_bank(128, &spike);
        let relief = crate::flight::Relief::of(&bank::parse(&other).unwrap());
        let texels: std::vec::Vec<u16> = (0..4 * 8 * 8).map(|i| bank::texel((i % 50) as u8, 0)).collect();
        let bytes = paper_bank(8, &texels);
        let (mut world, mut window) = (Box::new(World::empty()), Box::new(Window::<64>::new()));
        let parts = crate::Parts { world: &mut world, window: &mut window, cache: None, relief: Some(&relief) };
        let mut land = crate::Landscape::new(bank::parse(&bytes).unwrap(), parts, 3).unwrap();
        for k in 0..16u32 {
            let camera = Camera {
                x: (300 + 37 * k) << 8,
                y: (500 + 91 * k) << 8,
                heading: (k * 4099) as u16,
                ..Camera::default()
            };
            land.follow(&camera);
            let scene = land.scene();
            let tops = group_tops(&scene, &camera);
            // The first band's top is its tiles' highest top, as without
            // blocks (the relief's tile 0 tops 200; it has no others).
            let (tp, m) = (scene.shape.tile_px_log2, (scene.shape.world_mask >> scene.shape.tile_px_log2) as i32);
            let [x0, x1, y0, y1] = NearView::new(&camera).band_box(0);
            let want = (y0 >> tp..=y1 >> tp)
                .flat_map(|ty| (x0 >> tp..=x1 >> tp).map(move |tx| (tx & m, ty & m)))
                .map(|(tx, ty)| relief.tile_top(scene.window.get(tx as u32, ty as u32)) as i32)
                .max()
                .unwrap();
            assert_eq!((tops[0], tops[1]), (want, want), "{camera:?}");
        }
    }

    /// The tops under the near bands come from the window only where it
    /// holds their ground: followed elsewhere, or invalidated, every group
    /// keeps the relief's top (the GBA's march reads the cache, so a stale
    /// window would otherwise hide terrain without a trace in its frames).
    #[test]
    fn group_tops_need_the_window_round_the_camera() {
        use std::boxed::Box;
        // Tile 0 low (10), tile 1 high (200): the relief's top is 200.
        let mut texels = std::vec![bank::texel(10, 0); 32 * 32];
        texels.extend([bank::texel(200, 0); 32 * 32]);
        let bytes = paper_bank(32, &texels);
        let relief = crate::flight::Relief::of(&bank::parse(&bytes).unwrap());
        let (mut world, mut window) = (Box::new(World::empty()), Box::new(Window::<64>::new()));
        let parts = crate::Parts { world: &mut world, window: &mut window, cache: None, relief: Some(&relief) };
        let mut land = crate::Landscape::new(bank::parse(&bytes).unwrap(), parts, 3).unwrap();
        // A camera whose near ground is all low tiles.
        let side = land.size_px();
        let tp = land.tile_px_log2();
        let tiles = side >> tp;
        let camera = (0..tiles * tiles)
            .map(|i| Camera { x: ((i % tiles) << tp | 64) << 8, y: ((i / tiles) << tp | 64) << 8, ..Camera::default() })
            .find(|c| {
                land.follow(c);
                group_tops(&land.scene(), c)[..TOPS_GROUPS].iter().all(|&t| t == 10)
            })
            .expect("some camera sees only low tiles near it");
        land.follow(&camera);
        assert!(group_tops(&land.scene(), &camera)[..TOPS_GROUPS].iter().all(|&t| t == 10));
        // The window followed to the other side of the world.
        land.follow(&Camera { x: camera.x.wrapping_add((side / 2) << 8), ..camera });
        assert_eq!(group_tops(&land.scene(), &camera), [200; 16]);
        land.new_world(3); // invalidates the window
        assert_eq!(group_tops(&land.scene(), &camera), [200; 16]);
    }
}
