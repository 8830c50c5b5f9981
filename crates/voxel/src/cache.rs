//! The texel cache: the texels round the camera, flat, in two rings, so
//! the march reads a sample's texel with one load (no tile reference, no
//! tile arithmetic, no ROM wait states).
//!
//! - **near**: [`NEAR`] x [`NEAR`] texels at full resolution, for the first
//!   [`NEAR_BANDS`] bands (up to 200 world px away); it holds the world texels
//!   within [`NEAR_RADIUS`] texels of its centre, [`NEAR_AHEAD`] ahead of
//!   the camera.
//! - **far**: [`FAR`] x [`FAR`] entries at half resolution (every other texel
//!   in x and y: 8 x 8 world px each), for the other bands (up to the view
//!   distance, 776 px); it holds the entries within [`FAR_RADIUS`] of its
//!   centre, [`FAR_AHEAD`] ahead.
//!
//! Texel (x, y) (near) sits at ring position (x mod NEAR, y mod NEAR); far
//! entry (x, y), the world texel (2x, 2y), at (x mod FAR, y mod FAR). Each
//! ring holds the whole square its side allows, centred [`NEAR_AHEAD`] or
//! [`FAR_AHEAD`] ahead of the camera along the heading. The view wedge (90
//! degrees wide, `reach` deep: R) is the triangle of the camera and the two
//! ends of its far edge, at R (cos phi -+ sin phi, sin phi +- cos phi); from
//! a centre d ahead, each end's offset in x and in y is a sinusoid of the
//! heading of amplitude sqrt((R - d)^2 + R^2), and the camera's is at most d.
//! So a square of half-side H (the ring's, less an entry for the centre's
//! rounding) holds the wedge at any heading once (R - d)^2 + R^2 <= H^2:
//! [`ahead`] takes the least such d (89 of the near ring's 216 px, 158 of the
//! far one's 792), where a square round the camera would need H = 1.414 R,
//! and d = R needs H = R. The nearer the centre is to the camera, the less
//! it moves as the camera turns, and turning is when most lines come into
//! range. When the camera moves
//! or turns, only the rows and columns that come into range are read, in
//! lines: a line's tile references from the window
//! ([`terrain::Window::line`]: the ring's copy, or the world's line walk
//! beyond it), then per tile a run of the bank's texels. The lines that
//! cross the same tiles go together: their references are read once and a
//! tile's runs copied one after the other (fewer lines a group with
//! smaller tiles; with the built-in bank's a full fill takes about 30% less
//! time than a line at a time). On the GBA the cache is 160 KB of EWRAM.
//!
//! The reference renderer reads the world directly, with the same level of
//! detail (far bands see the texel at even coordinates); the emulator tests
//! check that the GBA's frames, read through the cache, are the same.

use crate::render::Scene;
use terrain::World;

/// Side of the near ring, in texels.
pub const NEAR: usize = 128;
/// Side of the far ring, in entries (two texels each).
pub const FAR: usize = 256;
/// The near ring holds texels within this many of its centre (in x and y):
/// the whole ring.
pub const NEAR_RADIUS: u32 = NEAR as u32 / 2;
/// The far ring holds entries within this many of its centre (1,024 world
/// px): the whole ring.
pub const FAR_RADIUS: u32 = FAR as u32 / 2;
/// Bands read from the near ring; the rest read the far one.
pub const NEAR_BANDS: usize = 3;
/// How deep each ring's bands reach, world px (with a margin of two texels
/// or entries for rounding: the centre and the samples are quantised).
pub const NEAR_REACH: u32 = crate::projection::Z[NEAR_BANDS * crate::projection::BAND_LEN - 1] + 16;
pub const FAR_REACH: u32 = crate::projection::VIEW_DISTANCE + 16;
/// How far ahead of the camera the near ring is centred, world px
/// ([`ahead`] of its reach and half-side).
pub const NEAR_AHEAD: u32 = ahead(NEAR_REACH, NEAR_RADIUS * 4 - 4);
/// How far ahead of the camera the far ring is centred, world px.
pub const FAR_AHEAD: u32 = ahead(FAR_REACH, FAR_RADIUS * 8 - 8);

/// The least distance ahead of the camera (world px) at which a square of
/// half-side `half` holds the view wedge `reach` deep at any heading: `reach -
/// isqrt(half^2 - reach^2)` (module docs; none if that is negative: a square
/// of half-side 1.414 `reach` round the camera holds the wedge), and 2 px
/// more for the centre's truncated offset.
///
/// # Panics
/// If `reach` is more than `half` (no centre holds the wedge); at compile
/// time for the rings' constants.
///
/// ```
/// use voxel::cache::ahead;
/// assert_eq!(ahead(216, 252), 89); // the near ring: 216 px deep, half-side 256 less a texel
/// assert_eq!(ahead(792, 1016), 158); // the far ring
/// assert_eq!(ahead(200, 300), 2); // room to spare: round the camera (and the 2 px)
/// ```
pub const fn ahead(reach: u32, half: u32) -> u32 {
    assert!(reach <= half, "the wedge must fit the square");
    let room = (half as u64 * half as u64) - (reach as u64 * reach as u64);
    let mut root = 0u64;
    while (root + 1) * (root + 1) <= room {
        root += 1;
    }
    (reach as u64).saturating_sub(root) as u32 + 2
}

const _: () = {
    assert!(NEAR.is_power_of_two() && FAR.is_power_of_two());
    assert!(2 * NEAR_RADIUS as usize <= NEAR && 2 * FAR_RADIUS as usize <= FAR);
    // Round its centre each ring holds the wedge at any heading (texels of
    // 4 px, entries of 8; an entry less for the centre's rounding).
    assert!(holds(NEAR_REACH, NEAR_AHEAD, NEAR_RADIUS * 4 - 4));
    assert!(holds(FAR_REACH, FAR_AHEAD, FAR_RADIUS * 8 - 8));
};

/// Whether a square of half-side `half` centred `ahead` of the camera holds
/// the view wedge `reach` deep at any heading (all world px).
const fn holds(reach: u32, ahead: u32, half: u32) -> bool {
    let back = reach.abs_diff(ahead) as u64;
    back * back + reach as u64 * reach as u64 <= half as u64 * half as u64 && ahead <= half
}

/// The centre of a ring `ahead` world px ahead of a camera at (`px`, `py`)
/// with `heading` (2.14 trig): [`NEAR_AHEAD`] or [`FAR_AHEAD`].
///
/// ```
/// use voxel::cache::centre;
/// assert_eq!(centre(1000, 1000, 0, 200), (1200, 1000)); // heading 0: along +x
/// assert_eq!(centre(1000, 1000, 16_384, 200), (1000, 1200)); // a quarter turn: along +y
/// ```
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
pub fn centre(px: u32, py: u32, heading: u16, ahead: u32) -> (u32, u32) {
    let ahead = ahead as i32;
    let (c, s) = (crate::trig::cos(heading), crate::trig::sin(heading));
    (px.wrapping_add(((ahead * c) >> 14) as u32), py.wrapping_add(((ahead * s) >> 14) as u32))
}

/// What a [`TexelCache::follow`] call did.
///
/// ```
/// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
/// # let mut cache = Box::new(voxel::cache::TexelCache::new());
/// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: Some(&mut cache), relief: None };
/// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
/// let mut camera = voxel::Camera { x: 1000 << 8, y: 1000 << 8, z: 50 << 8, ..Default::default() };
/// land.follow(&camera);
/// assert!(land.follow_cache(&camera).unwrap().rebuilt); // the first call fills both rings
/// camera.x += 4 << 8; // one texel east
/// land.follow(&camera);
/// let update = land.follow_cache(&camera).unwrap();
/// assert!(!update.rebuilt && update.written > 0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CacheUpdate {
    /// Entries read from the bank into the rings (near and far; marking
    /// the boundary view's lines in place, [`TexelCache::set_marks`], reads
    /// none).
    pub written: u32,
    /// True if everything was refilled.
    pub rebuilt: bool,
}

/// One ring: its side, what it covers and where.
#[derive(Debug, Clone, Copy)]
struct Ring {
    /// Level coordinates of the first column and row covered.
    origin: (u32, u32),
}

/// The two rings (160 KB: keep it in a `static`, on the GBA in EWRAM).
///
/// ```
/// use voxel::cache::TexelCache;
/// // On the GBA: a `static` in `.bss` (EWRAM, zeroed at boot: a `.ewram` section
/// // would store its 160 KB in ROM to copy), taken once as `&mut` (the ROM's
/// // `Static<TexelCache>`).
/// let mut cache = Box::new(TexelCache::new());
/// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
/// let parts = voxel::Parts { world: &mut world, window: &mut window, cache: Some(&mut cache), relief: None };
/// let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
/// let camera = voxel::Camera { x: 1000 << 8, y: 1000 << 8, z: 50 << 8, ..Default::default() };
/// land.render(&camera, voxel::Options::default(), &mut *Box::new(voxel::Frame::default()));
/// assert!(land.cache().unwrap().is_valid()); // filled by the render
/// ```
#[repr(C)]
pub struct TexelCache {
    near: [u16; NEAR * NEAR],
    far: [u16; FAR * FAR],
    near_ring: Ring,
    far_ring: Ring,
    /// The fill's line buffer (tile references).
    line: [u8; LINE_TILES],
    valid: bool,
    /// The texels on tile borders hold the boundary view's colour
    /// ([`TexelCache::set_marks`]).
    marks: bool,
    /// `marks` changed since the last follow: the rings' borders are to be
    /// marked, or read again.
    remark: bool,
}

/// Bytes from the texel cache's near ring to its far ring: the march's
/// column loop finds the far ring from the near one with one add (an ARM
/// immediate).
pub(crate) const FAR_RING_OFFSET: usize = 2 * NEAR * NEAR;

const _: () = {
    use core::mem::offset_of;
    assert!(offset_of!(TexelCache, far) - offset_of!(TexelCache, near) == FAR_RING_OFFSET);
    assert!(FAR_RING_OFFSET == 0x8000, "an ARM immediate");
};

impl Default for TexelCache {
    fn default() -> Self {
        Self::new()
    }
}

impl core::fmt::Debug for TexelCache {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TexelCache")
            .field("near_origin", &self.near_ring.origin)
            .field("far_origin", &self.far_ring.origin)
            .field("valid", &self.valid)
            .field("marks", &self.marks)
            .field("remark", &self.remark)
            .finish_non_exhaustive()
    }
}

impl TexelCache {
    /// An empty cache; the first [`TexelCache::follow`] fills it.
    ///
    /// ```
    /// let cache = Box::new(voxel::cache::TexelCache::new());
    /// assert!(!cache.is_valid());
    /// ```
    pub const fn new() -> Self {
        TexelCache {
            near: [0; NEAR * NEAR],
            far: [0; FAR * FAR],
            near_ring: Ring { origin: (0, 0) },
            far_ring: Ring { origin: (0, 0) },
            line: [0; LINE_TILES],
            valid: false,
            marks: false,
            remark: false,
        }
    }

    /// Forgets the contents (call when the world or the bank changes).
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let mut cache = Box::new(voxel::cache::TexelCache::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: Some(&mut cache), relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// let camera = voxel::Camera::default();
    /// land.follow(&camera);
    /// land.follow_cache(&camera);
    /// land.new_world(2); // invalidates the window and the cache
    /// assert!(!land.cache().unwrap().is_valid());
    /// ```
    pub fn invalidate(&mut self) {
        self.valid = false;
    }

    /// True once filled.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let mut cache = Box::new(voxel::cache::TexelCache::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: Some(&mut cache), relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// let camera = voxel::Camera::default();
    /// assert!(!land.cache().unwrap().is_valid());
    /// land.follow(&camera);
    /// land.follow_cache(&camera);
    /// assert!(land.cache().unwrap().is_valid());
    /// ```
    pub fn is_valid(&self) -> bool {
        self.valid
    }

    /// Whether the texels on tile borders ([`crate::render::on_border`])
    /// hold the colour [`crate::palette::MARK`]: the boundary view
    /// (`Options::boundaries`), whose frames the march draws from the cache
    /// only when it holds them so (else the reference path draws them). The
    /// next [`TexelCache::follow`] makes a filled cache hold them so: it
    /// marks the border texels in place (about 195,000 cycles on the GBA),
    /// or reads them again from the bank (the rings' border lines: about
    /// 430,000 with the built-in bank's tiles; as much as a full fill with
    /// the smallest).
    ///
    /// ```
    /// let mut cache = Box::new(voxel::cache::TexelCache::new());
    /// cache.set_marks(true);
    /// assert!(cache.marks());
    /// ```
    pub fn set_marks(&mut self, on: bool) {
        if on != self.marks {
            self.marks = on;
            self.remark = true;
        }
    }

    /// Whether the cache holds the boundary view's marks
    /// ([`TexelCache::set_marks`]).
    pub fn marks(&self) -> bool {
        self.marks
    }

    /// The near ring (row-major, [`NEAR`] entries a row).
    ///
    /// ```
    /// # // Texel (x, y) of the one tile: height x, colour y (32 colours).
    /// # let tiles: Vec<u16> = (0..32 * 32).map(|i: u32| bank::texel((i % 32) as u8, (i / 32) as u8)).collect();
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0; 32], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let mut cache = Box::new(voxel::cache::TexelCache::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: Some(&mut cache), relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// use voxel::cache::NEAR;
    /// let camera = voxel::Camera { x: 1000 << 8, y: 1000 << 8, ..Default::default() };
    /// land.follow(&camera);
    /// land.follow_cache(&camera);
    /// // The texel under world pixel (1000, 1000): texel (250, 250).
    /// let (tx, ty) = (250 % NEAR, 250 % NEAR);
    /// assert_eq!(land.cache().unwrap().near()[ty * NEAR + tx], bank::texel(26, 26)); // texel 26 of tile 7
    /// ```
    pub fn near(&self) -> &[u16; NEAR * NEAR] {
        &self.near
    }

    /// The address of the near ring, with the far ring
    /// [`FAR_RING_OFFSET`] bytes past it: a pointer to both rings (derived
    /// from the whole cache), for the march.
    #[cfg(target_arch = "arm")]
    pub(crate) fn rings(&self) -> *const u16 {
        (self as *const Self).cast::<u8>().wrapping_add(core::mem::offset_of!(Self, near)).cast()
    }

    /// The far ring (row-major, [`FAR`] entries a row).
    ///
    /// ```
    /// # // Texel (x, y) of the one tile: height x, colour y (32 colours).
    /// # let tiles: Vec<u16> = (0..32 * 32).map(|i: u32| bank::texel((i % 32) as u8, (i / 32) as u8)).collect();
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0; 32], tiles: &tiles, placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let mut cache = Box::new(voxel::cache::TexelCache::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: Some(&mut cache), relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// use voxel::cache::FAR;
    /// let camera = voxel::Camera { x: 1000 << 8, y: 1000 << 8, ..Default::default() };
    /// land.follow(&camera);
    /// land.follow_cache(&camera);
    /// // World texel (250, 250) is far entry (125, 125).
    /// assert_eq!(land.cache().unwrap().far()[125 % FAR * FAR + 125 % FAR], bank::texel(26, 26));
    /// ```
    pub fn far(&self) -> &[u16; FAR * FAR] {
        &self.far
    }

    /// Brings both rings round the view of a camera at world pixel (`px`,
    /// `py`) looking along `heading`, reading what comes into range from
    /// `world` (placed tiles) and `scene` (their texels); first, if
    /// [`TexelCache::set_marks`] switched the boundary view's marks, makes
    /// the rings hold them so. On the GBA the move is ARM code in IWRAM.
    ///
    /// ```
    /// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
    /// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
    /// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    /// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
    /// use voxel::cache::TexelCache;
    /// let camera = voxel::Camera { x: 1000 << 8, y: 1000 << 8, ..Default::default() };
    /// land.follow(&camera);
    /// let mut cache = Box::new(TexelCache::new());
    /// let update = cache.follow(land.world(), &land.scene(), camera.x >> 8, camera.y >> 8, camera.heading);
    /// assert!(update.rebuilt && cache.is_valid());
    /// ```
    pub fn follow<const N: usize>(
        &mut self,
        world: &World,
        scene: &Scene<'_, N>,
        px: u32,
        py: u32,
        heading: u16,
    ) -> CacheUpdate {
        // The boundary view's switch first, where the rings are (in ROM on
        // the GBA: a button's, rare; its work is `fill`'s and
        // `mark_borders`', in IWRAM).
        let mut read = 0;
        if self.remark && self.valid {
            let marks = self.marks;
            read += remark(&mut self.near, &mut self.line, &self.near_ring, world, scene, false, marks);
            read += remark(&mut self.far, &mut self.line, &self.far_ring, world, scene, true, marks);
        }
        self.remark = false;
        let moved = self.follow_rings(world, scene, (px, py, heading));
        CacheUpdate { written: read + moved.written, ..moved }
    }

    /// [`TexelCache::follow`]'s move of the rings round the camera at
    /// `at` (world px x, y and heading): ARM code in IWRAM on the GBA.
    #[cfg_attr(target_arch = "arm", instruction_set(arm::a32), unsafe(link_section = ".iwram.cache"), inline(never))]
    fn follow_rings<const N: usize>(
        &mut self,
        world: &World,
        scene: &Scene<'_, N>,
        at: (u32, u32, u16),
    ) -> CacheUpdate {
        let (px, py, heading) = at;
        let rebuild = !self.valid;
        let marks = self.marks;
        let mut written = 0;
        let (nx, ny) = centre(px, py, heading, NEAR_AHEAD);
        written += follow_ring::<N, false>(
            &mut self.near,
            &mut self.line,
            &mut self.near_ring,
            world,
            scene,
            nx >> 2,
            ny >> 2,
            rebuild,
            marks,
        );
        let (fx, fy) = centre(px, py, heading, FAR_AHEAD);
        written += follow_ring::<N, true>(
            &mut self.far,
            &mut self.line,
            &mut self.far_ring,
            world,
            scene,
            fx >> 3,
            fy >> 3,
            rebuild,
            marks,
        );
        self.valid = true;
        CacheUpdate { written, rebuilt: rebuild }
    }
}

/// Brings one filled ring (`far_level`: the far one) to the boundary view's
/// marks being `marks`, where it is (`state`): on, it marks its border
/// entries in place ([`mark_borders`]); off, it reads its border lines
/// again from the bank ([`fill`]), a row or column at a time. Returns the
/// entries read (marking in place reads none).
fn remark<const N: usize>(
    ring: &mut [u16],
    line: &mut [u8; LINE_TILES],
    state: &Ring,
    world: &World,
    scene: &Scene<'_, N>,
    far_level: bool,
    marks: bool,
) -> u32 {
    let (span, unit) = if far_level { (2 * FAR_RADIUS, 1) } else { (2 * NEAR_RADIUS, 0) };
    let tl = scene.tile_log2();
    let (ox, oy) = state.origin;
    if marks {
        mark_borders(ring, far_level, tl, ox, oy, span, span);
        return 0;
    }
    // Level coordinates wrap with the world (as `follow_ring`'s).
    let m = (scene.world_px() >> (2 + unit)) - 1;
    let period = 1u32 << (tl - unit);
    let mut read = 0;
    let mut k = 0;
    while k < span {
        let (x, y) = (ox.wrapping_add(k) & m, oy.wrapping_add(k) & m);
        if on_border_line(y, period) {
            fill(ring, line, world, scene, far_level, ox, y, span, 1, false);
            read += span;
        }
        if on_border_line(x, period) {
            fill(ring, line, world, scene, far_level, x, oy, 1, span, false);
            read += span;
        }
        k += 1;
    }
    read
}

/// Moves one ring (`FAR_LEVEL`: the far one, whose entries are every other
/// texel) so that level coordinate (`cx`, `cy`) is at its centre.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn follow_ring<const N: usize, const FAR_LEVEL: bool>(
    ring: &mut [u16],
    line: &mut [u8; LINE_TILES],
    state: &mut Ring,
    world: &World,
    scene: &Scene<'_, N>,
    cx: u32,
    cy: u32,
    rebuild: bool,
    marks: bool,
) -> u32 {
    let radius = if FAR_LEVEL { FAR_RADIUS } else { NEAR_RADIUS };
    let span = 2 * radius;
    // Level coordinates wrap with the world: its side in texels, or in pairs.
    let m = (scene.world_px() >> if FAR_LEVEL { 3 } else { 2 }) - 1;
    let (ox, oy) = (cx.wrapping_sub(radius) & m, cy.wrapping_sub(radius) & m);
    let dx = signed(ox.wrapping_sub(state.origin.0) & m, m);
    let dy = signed(oy.wrapping_sub(state.origin.1) & m, m);
    let (adx, ady) = (dx.unsigned_abs(), dy.unsigned_abs());
    if rebuild || adx >= span || ady >= span {
        fill(ring, line, world, scene, FAR_LEVEL, ox, oy, span, span, marks);
        state.origin = (ox, oy);
        return span * span;
    }
    let (old_x, old_y) = state.origin;
    // Columns first, over the old rows; then rows, over the new columns.
    if adx > 0 {
        let first = if dx > 0 { old_x.wrapping_add(span) } else { ox };
        fill(ring, line, world, scene, FAR_LEVEL, first & m, old_y, adx, span, marks);
    }
    if ady > 0 {
        let first = if dy > 0 { old_y.wrapping_add(span) } else { oy };
        fill(ring, line, world, scene, FAR_LEVEL, ox, first & m, span, ady, marks);
    }
    state.origin = (ox, oy);
    (adx + ady) * span
}

/// Copies `n` halfwords, from `src` on (`src_step` bytes apart) to `dst` on
/// (`dst_step` apart): a fill's run. On the GBA, a run of the near ring's
/// rows (both steps 2: entries next to each other in the tile and in the
/// ring) goes to `voxel_copy_halves` (words, four a load and a store
/// multiple); any other four a round in ARM code (each a post-indexed load
/// and store: a quarter of the plain loop's count and branch), then one at
/// a time; elsewhere the plain loop, its twin.
///
/// # Safety
/// The `n` halfwords read must be readable and the `n` written writable,
/// each aligned; integer addresses (`core`'s pointer methods cannot be
/// inlined into ARM code).
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
unsafe fn copy_run(dst: usize, src: usize, n: u32, dst_step: usize, src_step: usize) {
    #[cfg(target_arch = "arm")]
    if dst_step == 2 && src_step == 2 {
        // SAFETY: the caller's contract: `n` halfwords from each, in a row.
        unsafe { voxel_copy_halves(dst as *mut u16, src as *const u16, n) };
        return;
    }
    #[cfg(target_arch = "arm")]
    // SAFETY: the caller's contract; the asm touches only those halfwords.
    unsafe {
        core::arch::asm!(
            "subs  {n}, {n}, #4",
            "blt   3f",
            "2:",
            ".rept 4",
            "ldrh  {t}, [{s}], {ss}",
            "strh  {t}, [{d}], {ds}",
            ".endr",
            "subs  {n}, {n}, #4",
            "bge   2b",
            "3:",
            "adds  {n}, {n}, #4",
            "beq   5f",
            "4:",
            "ldrh  {t}, [{s}], {ss}",
            "strh  {t}, [{d}], {ds}",
            "subs  {n}, {n}, #1",
            "bne   4b",
            "5:",
            n = inout(reg) n => _,
            s = inout(reg) src => _,
            d = inout(reg) dst => _,
            ss = in(reg) src_step,
            ds = in(reg) dst_step,
            t = out(reg) _,
            options(nostack),
        );
    }
    #[cfg(not(target_arch = "arm"))]
    {
        let (mut dst, mut src) = (dst, src);
        for _ in 0..n {
            // SAFETY: the caller's contract.
            unsafe { *(dst as *mut u16) = *(src as *const u16) };
            src += src_step;
            dst += dst_step;
        }
    }
}

/// Copies `src` into `dst`: the texel cache's copy of a run of the near
/// ring's rows (texels next to each other in a tile and in the ring), on
/// the GBA ARM code in IWRAM that moves four words a load and a store
/// multiple where the two share their word alignment, and a halfword at a
/// time where they do not (the in-ROM tests of the kernels check both
/// against a plain loop).
///
/// # Panics
/// If the two differ in length.
///
/// ```
/// let src = [1u16, 2, 3, 4, 5];
/// let mut dst = [0u16; 6];
/// voxel::cache::copy_texels(&mut dst[1..], &src);
/// assert_eq!(dst, [0, 1, 2, 3, 4, 5]);
/// ```
pub fn copy_texels(dst: &mut [u16], src: &[u16]) {
    assert_eq!(dst.len(), src.len(), "copy_texels: the two must have the same length");
    #[cfg(target_arch = "arm")]
    // SAFETY: `dst.len()` halfwords of each slice, aligned (slices of u16);
    // a length below 2^32 (the GBA's address space).
    unsafe {
        voxel_copy_halves(dst.as_mut_ptr(), src.as_ptr(), dst.len() as u32)
    };
    #[cfg(not(target_arch = "arm"))]
    dst.copy_from_slice(src);
}

/// A lone line's runs, or the part of one on either side of the ring's
/// edge ([`runs`]; offsets used by the asm): per tile one run of its
/// entries, the first from part way into its tile, the last to part way.
#[repr(C)]
struct Runs {
    /// 0: the first entry's address in the ring.
    dst: usize,
    /// 4: bytes from one entry to the next in the ring.
    dst_step: usize,
    /// 8: entries.
    n: u32,
    /// 12: the address of the first entry's tile reference (then one byte
    /// a tile: a line buffer's).
    refs: usize,
    /// 16: entries the first tile gives (from the first entry to its edge).
    first: u32,
    /// 20: the first entry's byte offset in its tile's run.
    first_src: usize,
    /// 24: entries a whole tile gives.
    tile_entries: u32,
    /// 28: the address of the run's line in tile 0 (its texel 0 of the
    /// line's texel row or column across the tiles).
    texels: usize,
    /// 32: log2 of a tile's bytes.
    tile_shift: u32,
    /// 36: tiles in the bank: a reference at or past it reads tile 0
    /// ([`Scene::tile_texel_address`]'s rule).
    tiles: u32,
    /// 40: bytes from one entry to the next in a tile.
    src_step: usize,
}

#[cfg(target_arch = "arm")]
const _: () = {
    use core::mem::offset_of;
    assert!(offset_of!(Runs, dst) == 0 && offset_of!(Runs, dst_step) == 4 && offset_of!(Runs, n) == 8);
    assert!(offset_of!(Runs, refs) == 12 && offset_of!(Runs, first) == 16 && offset_of!(Runs, first_src) == 20);
    assert!(offset_of!(Runs, tile_entries) == 24 && offset_of!(Runs, texels) == 28);
    assert!(offset_of!(Runs, tile_shift) == 32 && offset_of!(Runs, tiles) == 36 && offset_of!(Runs, src_step) == 40);
};

#[cfg(target_arch = "arm")]
unsafe extern "C" {
    /// [`runs`] on the GBA: per run one tile reference, its source address
    /// and a copy: by `voxel_copy_halves` when both steps are 2 (the near
    /// ring's rows; two registers pushed round each call), else four
    /// entries a round (each a post-indexed load and store), then one at a
    /// time, every number in a register.
    fn voxel_cache_runs(job: *const Runs);
    /// Copies the `n` halfwords from `src` to `dst` (each in a row); returns
    /// `dst`'s end. When the two share their word alignment (the near ring
    /// and a tile: a texel's place in a ring row and in a tile row have the
    /// same parity, and the banks' texels are word aligned), a halfword to
    /// the word boundary, then four words a load and a store multiple (a
    /// halfword each is a load and a store of its own, with the ROM's first
    /// access wait each time: 6.1 cycles a texel in place of 11), pairs,
    /// and a last halfword; otherwise a halfword at a time. Both ranges must
    /// be valid and halfword aligned.
    fn voxel_copy_halves(dst: *mut u16, src: *const u16, n: u32) -> *mut u16;
}

#[cfg(target_arch = "arm")]
core::arch::global_asm!(
    ".section .iwram.cache_runs,\"ax\",%progbits",
    ".arm",
    ".align 2",
    ".global voxel_cache_runs",
    ".type voxel_cache_runs,%function",
    // A run's start: its tile (r11), the source (r12), how many (r4, at most
    // the entries left, r2, which it takes them from).
    ".macro voxel_cache_run_start",
    "    ldrb  r11, [r3], #1",
    "    cmp   r11, r9",
    "    movhs r11, #0", // no such tile: tile 0
    "    add   r12, r7, r5",
    "    add   r12, r12, r11, lsl r8",
    "    mov   r5, #0", // the next runs start at their tiles' edge
    "    cmp   r4, r2",
    "    movhi r4, r2", // at most the entries left
    "    sub   r2, r2, r4",
    ".endm",
    "voxel_cache_runs:",        // r0 the job
    "    push  {{r4-r12, lr}}", // 40 bytes: sp stays a multiple of 8 (the IRQ handler's Rust code runs on this stack)
    // r0 dst, r1 dst_step, r2 entries left, r3 refs, r4 the run's entries,
    // r5 its first entry's offset, r6 a whole tile's entries, r7 tile 0's
    // line, r8 tile shift, r9 tiles, r10 src_step
    "    ldmia r0, {{r0-r10}}",
    "    cmp   r2, #0",
    "    beq   9f",
    "    cmp   r1, #2",
    "    cmpeq r10, #2",
    "    beq   11f",
    "1:", // a run: its tile, the source, how many
    "    voxel_cache_run_start",
    "    subs  r4, r4, #4",
    "    blt   3f",
    "2:",
    "    .rept 4",
    "    ldrh  r11, [r12], r10",
    "    strh  r11, [r0], r1",
    "    .endr",
    "    subs  r4, r4, #4",
    "    bge   2b",
    "3:",
    "    adds  r4, r4, #4",
    "    beq   5f",
    "4:",
    "    ldrh  r11, [r12], r10",
    "    strh  r11, [r0], r1",
    "    subs  r4, r4, #1",
    "    bne   4b",
    "5:",
    "    mov   r4, r6", // the next run: a whole tile
    "    cmp   r2, #0",
    "    bne   1b",
    "    b     9f",
    "11:", // both steps 2 (the near ring's rows): each run by words
    "    voxel_cache_run_start",
    "    push  {{r2, r3}}", // 8 bytes: sp stays a multiple of 8
    "    mov   r1, r12",
    "    mov   r2, r4",
    "    bl    voxel_copy_halves", // r0 to the run's end
    "    pop   {{r2, r3}}",
    "    mov   r4, r6", // the next run: a whole tile
    "    cmp   r2, #0",
    "    bne   11b",
    "9:",
    "    pop   {{r4-r12, lr}}",
    "    bx    lr",
    ".size voxel_cache_runs, . - voxel_cache_runs",
    ".global voxel_copy_halves",
    ".type voxel_copy_halves,%function",
    "voxel_copy_halves:", // r0 dst, r1 src, r2 halfwords
    "    cmp   r2, #0",
    "    bxeq  lr",
    "    eor   r3, r0, r1",
    "    tst   r3, #2",
    "    bne   7f", // not the same word alignment: a halfword at a time
    "    tst   r0, #2",
    "    beq   1f",
    "    ldrh  r3, [r1], #2", // up to a word boundary
    "    strh  r3, [r0], #2",
    "    subs  r2, r2, #1",
    "    bxeq  lr",
    "1:",
    "    subs  r2, r2, #8",
    "    blt   3f",
    "    push  {{r4, r5}}", // 8 bytes: sp stays a multiple of 8
    "2:",                   // 8 halfwords a round
    "    ldmia r1!, {{r3, r4, r5, r12}}",
    "    stmia r0!, {{r3, r4, r5, r12}}",
    "    subs  r2, r2, #8",
    "    bge   2b",
    "    pop   {{r4, r5}}",
    "3:",
    "    adds  r2, r2, #8", // 0 to 7 left
    "4:",
    "    subs  r2, r2, #2", // pairs
    "    ldrge r3, [r1], #4",
    "    strge r3, [r0], #4",
    "    bgt   4b",
    "    bxeq  lr",
    "    cmn   r2, #1", // one left (-1), or none (-2)
    "    ldrheq r3, [r1]",
    "    strheq r3, [r0], #2",
    "    bx    lr",
    "7:",
    "    ldrh  r3, [r1], #2",
    "    strh  r3, [r0], #2",
    "    subs  r2, r2, #1",
    "    bne   7b",
    "    bx    lr",
    ".size voxel_copy_halves, . - voxel_copy_halves",
);

/// Copies `job`'s runs into the ring: on the GBA the asm, elsewhere its
/// portable twin (the same copies in plain Rust).
///
/// # Safety
/// The `n` entries from `dst`, `dst_step` bytes apart, must be writable
/// halfwords; `refs` must be readable for as many bytes as the runs (one a
/// tile the entries cross); and each run's halfwords, from its tile's
/// address (tile 0's for a reference of `tiles` or more) plus `texels -
/// tile 0's`, plus `first_src` for the first run, `src_step` bytes apart,
/// readable; all aligned.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
unsafe fn runs(job: &Runs) {
    #[cfg(target_arch = "arm")]
    // SAFETY: the caller's contract; the asm touches only those bytes.
    unsafe {
        voxel_cache_runs(job)
    };
    #[cfg(not(target_arch = "arm"))]
    {
        let (mut dst, mut left, mut refs) = (job.dst, job.n, job.refs);
        let (mut run, mut offset) = (job.first, job.first_src);
        while left > 0 {
            // SAFETY: the caller's contract.
            let tile = unsafe { *(refs as *const u8) } as u32;
            refs += 1;
            let tile = if tile < job.tiles { tile } else { 0 };
            let src = job.texels + ((tile as usize) << job.tile_shift) + offset;
            offset = 0;
            let n = if run < left { run } else { left };
            left -= n;
            // SAFETY: the caller's contract.
            unsafe { copy_run(dst, src, n, job.dst_step, job.src_step) };
            dst += n as usize * job.dst_step;
            run = job.tile_entries;
        }
    }
}

/// The byte steps of a group of lines' runs ([`copy_lines`]).
struct LineSteps {
    /// From one entry of a run to the next: in the ring (`dst`) and in the
    /// tile (`src`).
    dst: usize,
    src: usize,
    /// From one line's first entry to the next line's: in the ring and in
    /// the tile.
    dst_next: usize,
    src_next: usize,
}

/// [`copy_run`] of `lines` runs of `n` halfwords each: line `l` from `src +
/// l * steps.src_next` to `dst + l * steps.dst_next`, its entries
/// `steps.src` and `steps.dst` bytes apart.
///
/// # Safety
/// For each line `l < lines`: the `n` halfwords from `src + l *
/// steps.src_next`, `steps.src` bytes apart, must be readable, and the `n`
/// from `dst + l * steps.dst_next`, `steps.dst` apart, writable; all
/// aligned ([`copy_run`]'s contract, line by line).
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32), unsafe(link_section = ".iwram.cache"), inline(never))]
unsafe fn copy_lines(dst: usize, src: usize, n: u32, steps: &LineSteps, lines: u32) {
    let mut l = 0;
    while l < lines as usize {
        // SAFETY: the caller's contract.
        unsafe { copy_run(dst + l * steps.dst_next, src + l * steps.src_next, n, steps.dst, steps.src) };
        l += 1;
    }
}

/// `d` (a difference of wrapped coordinates, `m` = side - 1) as the shortest
/// signed step.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
fn signed(d: u32, m: u32) -> i32 {
    if d > m / 2 { d as i32 - (m as i32 + 1) } else { d as i32 }
}

/// The fill's line buffer: the tiles of one line, at most a ring's side of
/// entries (two texels each in the far ring) from anywhere in a tile of the
/// smallest size; a power of two, so indices are masked into it.
const LINE_TILES: usize = 128;

/// The boundary view's marks in the level entries `x0 .. x0 + w` x `y0 ..
/// y0 + h` (wrapping) of a ring ([`fill`]'s, just written): the colour of
/// each entry whose texel lies on a tile border
/// ([`crate::render::on_border`]; for far entries texel (2x, 2y)) becomes
/// [`crate::palette::MARK`]. Line by line along the longer side (a lone
/// line is what a moving camera mostly brings in): a line on a border
/// whole ([`mark_line`]), any other where it crosses one
/// ([`mark_across`]); a store an entry marked, nothing for the rest.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32), unsafe(link_section = ".iwram.cache"), inline(never))]
fn mark_borders(ring: &mut [u16], far_level: bool, tl: u32, x0: u32, y0: u32, w: u32, h: u32) {
    let (side, unit) = if far_level { (FAR, 1) } else { (NEAR, 0) };
    if ring.len() != side * side || w as usize > side || h as usize > side {
        return;
    }
    // The entries of a tile's side, and a level coordinate's bits in its
    // tile: the first MARK_ENTRIES of each tile are on its border.
    let period = 1u32 << (tl - unit);
    // Each entry's colour: the high byte of its halfword (little-endian).
    let colours = ring as *mut [u16] as *mut u16 as usize + 1;
    let mask = side - 1;
    // The lines: along x (rows) or y (columns); the first one's coordinates
    // along and across; log2 of the bytes from one entry to the next along
    // a line, and the bytes from one line to the next.
    let rows = w >= h;
    let (along, across, len, lines) = if rows { (x0, y0, w, h) } else { (y0, x0, h, w) };
    let (shift, next) = if rows { (1, 2 * side) } else { ((2 * side).trailing_zeros(), 2) };
    // The offset from `along` of the first strip of border entries that
    // reaches it (negative: a strip it starts inside of).
    let local = (along & (period - 1)) as i32;
    let first = if local < crate::render::MARK_ENTRIES as i32 { -local } else { period as i32 - local };
    let start = along as usize & mask;
    let mut k = 0;
    while k < lines {
        let c = across.wrapping_add(k);
        let line = (colours + (c as usize & mask) * next, shift);
        // SAFETY (both): every address marked is a colour byte of `ring`'s
        // side * side entries, borrowed mutably: the line is one of the
        // ring's (masked); `mark_across` masks each position along it, and
        // `mark_line`'s two strides stay in it, as a line is at most a
        // side (checked above).
        if on_border_line(c, period) {
            unsafe { mark_line(line, start, len, mask) };
        } else {
            unsafe { mark_across(first, len, period, line, start, mask) };
        }
        k += 1;
    }
}

/// Whether the ring line at level coordinate `c` (along either axis) lies on
/// a tile border, a tile being `period` entries: [`crate::render::on_border`]
/// for a whole row or column of a ring.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
const fn on_border_line(c: u32, period: u32) -> bool {
    c & (period - 1) < crate::render::MARK_ENTRIES
}

/// [`mark_borders`]' marks in a line on a border: its `count` entries
/// from `start`, wrapping at the ring's edge (`mask`: its side less one).
/// Entry `k` is the colour byte at `line.0 + ((start + k) & mask) <<
/// line.1`: the line's first colour byte in the ring, and log2 of the
/// bytes from one entry to the next. In two strides, the entries before
/// the ring's edge and those after it ([`mark_stride`]).
///
/// # Safety
/// `start` and `count` at most `mask + 1` (a side); every byte so reached
/// must be writable and not borrowed elsewhere.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
unsafe fn mark_line(line: (usize, u32), start: usize, count: u32, mask: usize) {
    debug_assert!(start <= mask && count as usize <= mask + 1);
    let (base, shift) = line;
    let step = 1 << shift;
    let before = (mask + 1 - start) as u32;
    let first = if count < before { count } else { before };
    // SAFETY (both): the caller's contract.
    unsafe { mark_stride(base + (start << shift), first, step) };
    unsafe { mark_stride(base, count - first, step) };
}

/// [`mark_borders`]' marks in a line across the borders: of its `count`
/// entries, from offset `first` (negative: inside a strip), the strips of
/// [`crate::render::MARK_ENTRIES`] on a border, one a tile's `period`
/// entries. Entry `k` is the colour byte at `line.0 + ((start + k) & mask)
/// << line.1`: the line's first colour byte in the ring, and log2 of the
/// bytes from one entry to the next.
///
/// # Safety
/// Every byte so reached must be writable and not borrowed elsewhere.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
unsafe fn mark_across(mut first: i32, count: u32, period: u32, line: (usize, u32), start: usize, mask: usize) {
    let (base, shift) = line;
    while first < count as i32 {
        let mut e = 0;
        while e < crate::render::MARK_ENTRIES as i32 {
            let k = first + e;
            if k >= 0 && k < count as i32 {
                // SAFETY: the caller's contract.
                unsafe { *((base + (((start + k as usize) & mask) << shift)) as *mut u8) = crate::palette::MARK };
            }
            e += 1;
        }
        first += period as i32;
    }
}

/// Writes [`crate::palette::MARK`] into `n` bytes from address `at`, `step`
/// bytes apart: four stores a round (a store to EWRAM takes four cycles;
/// the round's count and steps about one more a store).
///
/// # Safety
/// Every byte so reached must be writable and not borrowed elsewhere.
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32))]
#[inline(always)]
unsafe fn mark_stride(mut at: usize, mut n: u32, step: usize) {
    // SAFETY (all): the caller's contract.
    while n >= 4 {
        unsafe {
            *(at as *mut u8) = crate::palette::MARK;
            *((at + step) as *mut u8) = crate::palette::MARK;
            *((at + 2 * step) as *mut u8) = crate::palette::MARK;
            *((at + 3 * step) as *mut u8) = crate::palette::MARK;
        }
        at += 4 * step;
        n -= 4;
    }
    while n > 0 {
        unsafe { *(at as *mut u8) = crate::palette::MARK };
        at += step;
        n -= 1;
    }
}

const _: () = {
    let smallest = bank::TILE_SIZES[0] as usize;
    assert!(LINE_TILES.is_power_of_two());
    assert!((FAR * 2).div_ceil(smallest) < LINE_TILES && NEAR <= FAR * 2);
    // A tile's side holds more than a border strip in either ring (`mark_borders`).
    assert!(smallest / 2 > crate::render::MARK_ENTRIES as usize);
};

/// Writes level entries `x0 .. x0 + w` x `y0 .. y0 + h` (wrapping) into the
/// ring, in lines along the longer side: the tiles of a line from the window
/// ([`terrain::Window::line`]: the ring's copy, or the world's line walk
/// where the window does not reach), then per tile the texels from the bank.
/// The lines that cross the same tiles (up to the tiles' edge, the ring's
/// edge or the last line) go together: their tile references are read once,
/// and each tile's runs, one a line, are copied one after the other
/// ([`copy_lines`]): a full fill reads a tile's references and works out its
/// addresses once per tile, not once per line of it. A lone line (what a
/// moving camera mostly brings in) goes to [`runs`], ARM code that keeps
/// every number of its runs in registers: one call up to the ring's edge,
/// one after it. With `marks`, then [`mark_borders`].
#[cfg_attr(target_arch = "arm", instruction_set(arm::a32), unsafe(link_section = ".iwram.cache"), inline(never))]
#[allow(clippy::too_many_arguments)]
fn fill<const N: usize>(
    ring: &mut [u16],
    line: &mut [u8; LINE_TILES],
    world: &World,
    scene: &Scene<'_, N>,
    far_level: bool,
    x0: u32,
    y0: u32,
    w: u32,
    h: u32,
    marks: bool,
) {
    let (side, unit) = if far_level { (FAR, 1) } else { (NEAR, 0) };
    let tl = scene.tile_log2();
    if ring.len() != side * side {
        return;
    }
    // A line (at most a ring's side) of the smallest tiles fits the line
    // buffer; `SceneShape::of` took the tile size from a parsed bank, and
    // `follow_ring` fills at most a ring's side.
    debug_assert!(tl >= bank::TILE_SIZES[0].trailing_zeros());
    // A lone line's runs stay in the ring only if a line is at most a side
    // (`follow_ring` fills at most that): checked, as the asm relies on it.
    if w as usize > side || h as usize > side {
        return;
    }
    let tmask = (1u32 << tl) - 1;
    let base = ring as *mut [u16] as *mut u16 as usize;
    let window = scene.window();
    let rows = w >= h;
    let (along, across) = if rows { (w, h) } else { (h, w) };
    let mut j = 0;
    while j < across {
        // The line's first entry, and its world texel (texel (2x, 2y) for far
        // entries).
        let (xs, ys) = if rows { (x0, y0.wrapping_add(j)) } else { (x0.wrapping_add(j), y0) };
        let (txs, tys) = (xs << unit, ys << unit);
        let lead = if rows { txs & tmask } else { tys & tmask };
        // At most LINE_TILES (see above; the check spares the slicing a
        // panic path, which ARM code could not call, and bounds the runs'
        // reads of the references below).
        let count = ((lead + ((along - 1) << unit)) >> tl) as usize + 1;
        if count > LINE_TILES {
            return;
        }
        window.line(world, txs >> tl, tys >> tl, !rows, &mut line[..count]);
        // Per line: where its first entry sits in the ring (along it, and the
        // line across), the line's texel offset across its tiles, and the
        // byte steps along it in a tile and in the ring.
        let (first, line_at, across_in_tile) = if rows {
            (xs as usize & (side - 1), ys as usize & (side - 1), tys & tmask)
        } else {
            (ys as usize & (side - 1), xs as usize & (side - 1), txs & tmask)
        };
        // The group: the lines from this one that cross the same tiles, up
        // to the tiles' edge across them and the last line; and the ring's edge,
        // which the tiles' edge never passes (a ring's side is a multiple
        // of a tile's, in entries), but the copy's bounds need not rest on
        // that.
        let mut group = ((tmask - across_in_tile) >> unit) + 1;
        if group > across - j {
            group = across - j;
        }
        if group as usize > side - line_at {
            group = (side - line_at) as u32;
        }
        let (texel_bytes, across_bytes) = if rows {
            (2usize, (across_in_tile as usize) << (tl + 1))
        } else {
            (2usize << tl, 2 * across_in_tile as usize)
        };
        let (dst_step, dst_line) = if rows { (2, base + 2 * side * line_at) } else { (2 * side, base + 2 * line_at) };
        let src_step = texel_bytes << unit;
        // From one line to the next: in the ring, and in a tile (a texel
        // across, two for the far ring's entries).
        let (dst_next, src_next) = if rows { (2 * side, 2usize << (tl + unit)) } else { (2, 2usize << unit) };
        let texels = scene.tile_texel_address(0, 0, 0) + across_bytes;
        if group == 1 {
            // A lone line: its runs up to the ring's edge, then the rest
            // from the ring's start.
            let before = if along as usize > side - first { (side - first) as u32 } else { along };
            let mut job = Runs {
                dst: dst_line + first * dst_step,
                dst_step,
                n: before,
                refs: line.as_ptr() as usize,
                first: ((tmask - lead) >> unit) + 1,
                first_src: lead as usize * texel_bytes,
                tile_entries: (tmask >> unit) + 1,
                texels,
                tile_shift: 2 * tl + 1,
                tiles: scene.tile_count(),
                src_step,
            };
            // SAFETY: the entries up to the ring's edge, `dst_step` apart
            // along a ring row or column (`ring` has side * side entries,
            // checked above); the references of the tiles they cross, of the
            // first `count` in the line buffer (those the window wrote); each
            // run within its tile's texels (it ends with the tile), which
            // `tile_texel_address` vouches for.
            unsafe { runs(&job) };
            if along > before {
                // Entry `before`, in texels along from the first tile's edge.
                let t = lead + (before << unit);
                let in_tile = t & tmask;
                job.dst = dst_line;
                job.n = along - before;
                job.refs = line.as_ptr() as usize + (t >> tl) as usize;
                job.first = ((tmask - in_tile) >> unit) + 1;
                job.first_src = in_tile as usize * texel_bytes;
                // SAFETY: as above, from the ring's start (at most `first`
                // entries: `along` is at most a side), and the references from
                // entry `before`'s tile to the line's last (the buffer's
                // `count - 1`th).
                unsafe { runs(&job) };
            }
            j += 1;
            continue;
        }
        // A run is the entries of one tile that sit next to each other in the
        // ring: per run one source address, then a plain copy.
        let mut at = first; // ring position (along) of entry i
        let mut in_tile = lead; // texel offset (along) of entry i in tile k
        let mut k = 0;
        let mut i = 0;
        while i < along {
            // Entries left in this tile, in the line, and in this lap of the ring.
            let mut run = ((tmask - in_tile) >> unit) + 1;
            if run > along - i {
                run = along - i;
            }
            if run as usize > side - at {
                run = (side - at) as u32;
            }
            let tile = line[k & (LINE_TILES - 1)];
            let src = scene.tile_texel_address(tile, 0, 0) + across_bytes + in_tile as usize * texel_bytes;
            let dst = dst_line + at * dst_step;
            let steps = LineSteps { dst: dst_step, src: src_step, dst_next, src_next };
            // SAFETY: each line's run: its `src` entries stay inside the tile
            // (the run ends with it), which `tile_texel_address` vouched for;
            // its `dst` entries inside the ring (the run ends at its edge;
            // `ring` has side * side entries, checked above); and line `l` of
            // the group is a texel row or column of the same tile (the group
            // ends with it) and a line of the ring (it ends at its edge).
            unsafe { copy_lines(dst, src, run, &steps, group) };
            i += run;
            // On into the next tile, and round the ring.
            in_tile += run << unit;
            if in_tile > tmask {
                in_tile = 0;
                k += 1;
            }
            at = (at + run as usize) & (side - 1);
        }
        j += group;
    }
    if marks {
        mark_borders(ring, far_level, tl, x0, y0, w, h);
    }
}
