//! Every call into the terrain engine (`bank`, `terrain`, `voxel`) is in this
//! module: the rest of the game sees a [`Land`] that makes worlds, flies a
//! camera over them, answers the ground height and draws into a mode 4 page.
//!
//! Where things live (the engine's hot code is ARM code in `.iwram.*`
//! sections, which agb's linker script puts in IWRAM like ours):
//! - the world (5.6 KB): IWRAM, `.iwram.world`, read on every tile crossing;
//! - the texel cache (160 KB), the tile window (4 KB) and the relief (4 KB):
//!   EWRAM, as zero-initialised statics (`.bss`). Never on the stack: the
//!   stack is in IWRAM and far smaller than the cache.

use core::cell::UnsafeCell;

use agb::external::portable_atomic::{AtomicBool, Ordering};
use bank::Bank;
use terrain::{Window, World, WorldParams};
use voxel::Scene;
use voxel::cache::TexelCache;
use voxel::flight::{self, Relief};
use voxel::palette::Mood;
use voxel::projection::FOCAL;
use voxel::render::HORIZON;

pub use voxel::flight::Controls;
pub use voxel::{Camera, Options, Target};

/// Tile references kept round the camera (`N` x `N`).
const WINDOW: usize = 64;

/// The default tile bank, baked from `assets/` by `build.rs` with tilebake.
static BANK: Aligned<[u8; include_bytes!(concat!(env!("OUT_DIR"), "/default.bank")).len()]> =
    Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/default.bank")));
/// Its relief (the flight's block tops), computed by `build.rs` too.
static RELIEF_TOPS: [u8; include_bytes!(concat!(env!("OUT_DIR"), "/default.relief")).len()] =
    *include_bytes!(concat!(env!("OUT_DIR"), "/default.relief"));

/// The bank parser reads words: keep the bytes 4-aligned.
#[repr(C, align(4))]
struct Aligned<T>(T);

#[unsafe(link_section = ".iwram.world")]
static WORLD: Once<World> = Once::new(World::empty());
static TILE_WINDOW: Once<Window<WINDOW>> = Once::new(Window::new());
static TEXEL_CACHE: Once<TexelCache> = Once::new(TexelCache::new());
static RELIEF: Once<Relief> = Once::new(Relief::new());

/// A static handed out once, as `&'static mut` (a second `take` panics).
struct Once<T> {
    taken: AtomicBool,
    value: UnsafeCell<T>,
}

// SAFETY: `take` hands the value out at most once (an atomic swap, which
// portable-atomic makes atomic on the GBA's single core), so no two places
// ever reach it.
unsafe impl<T: Send> Sync for Once<T> {}

impl<T> Once<T> {
    const fn new(value: T) -> Self {
        Once { taken: AtomicBool::new(false), value: UnsafeCell::new(value) }
    }

    #[allow(clippy::mut_from_ref)] // sound: handed out once, checked below
    fn take(&'static self) -> &'static mut T {
        assert!(!self.taken.swap(true, Ordering::AcqRel), "a Land's memory is taken once");
        // SAFETY: the first and only take (checked above).
        unsafe { &mut *self.value.get() }
    }
}

/// A landscape: the bank, the world made from it, and what follows the camera.
pub struct Land {
    bank: Bank<'static>,
    params: WorldParams,
    world: &'static mut World,
    window: &'static mut Window<WINDOW>,
    cache: &'static mut TexelCache,
    relief: &'static mut Relief,
    colours: [u16; bank::MAX_COLOURS],
    seed: u32,
}

impl Land {
    /// The land of the built-in bank, with world `seed`. Call once.
    pub fn new(seed: u32) -> Land {
        // Baked and checked by build.rs: its structure is checked again, not its CRC.
        let bank = bank::parse_trusted(&BANK.0).expect("the built-in bank parses");
        let params = World::params_for(&bank);
        let world = WORLD.take();
        world.set_placement(params, &bank.placement()).expect("the built-in bank's placement fits");
        let relief = RELIEF.take();
        assert!(relief.load(&bank, &RELIEF_TOPS), "the built-in relief fits the bank");
        let mut colours = [0; bank::MAX_COLOURS];
        for (i, c) in colours.iter_mut().enumerate().take(bank.palette_len()) {
            *c = bank.colour(i);
        }
        let mut land =
            Land { bank, params, world, window: TILE_WINDOW.take(), cache: TEXEL_CACHE.take(), relief, colours, seed };
        land.new_world(seed);
        land
    }

    /// Replaces the world with the one of `seed`.
    pub fn new_world(&mut self, seed: u32) {
        self.world.regenerate(seed, self.params).expect("the bank's parameters were checked by set_placement");
        self.window.invalidate();
        self.cache.invalidate();
        self.seed = seed;
    }

    /// The 256 colours (BGR555) of the view of this world: sky, fogged terrain.
    pub fn palette(&self) -> [u16; 256] {
        voxel::palette::build(&self.colours[..self.bank.palette_len()], &Mood::of(self.seed))
    }

    /// A camera above the ground near the world's corner, heading diagonally.
    pub fn start_camera(&mut self) -> Camera {
        let world_px = self.world.size_tiles() << self.tile_px_log2();
        let mut camera = Camera { x: (world_px - 160) << 8, y: (world_px - 96) << 8, z: 0, heading: 8192, pitch: 0 };
        self.follow(&camera);
        let scene = self.scene();
        camera.z = (scene.ground(camera.x >> 8, camera.y >> 8) + 80) << 8;
        flight::settle(&mut camera, &scene);
        camera
    }

    /// Moves the tile window so that `camera` is at its centre.
    pub fn follow(&mut self, camera: &Camera) {
        let shift = self.tile_px_log2();
        self.window.recenter(self.world, (camera.x >> 8) >> shift, (camera.y >> 8) >> shift);
    }

    /// Flies `camera` by `controls` for one screen refresh (above the ground,
    /// easing up before hills), then moves the window with it.
    pub fn fly(&mut self, camera: &mut Camera, controls: Controls) {
        flight::fly(camera, controls, 1, &self.scene());
        self.follow(camera);
    }

    /// Ground height (world pixels) under world pixel (`x`, `y`).
    pub fn ground_height(&self, x: u32, y: u32) -> i32 {
        self.scene().ground(x, y)
    }

    /// Draws the view from `camera` into `target`; returns the depth samples taken.
    pub fn render(&mut self, camera: &Camera, options: Options, target: &mut impl Target) -> u32 {
        let scene = Scene::new(self.window, self.world, &self.bank).expect("world made for the bank");
        let scene = scene.with_relief(self.relief);
        self.cache.follow(self.world, &scene, camera.x >> 8, camera.y >> 8, camera.heading);
        let scene = scene.with_cache(self.cache);
        voxel::render(&scene, camera, options, target).samples
    }

    fn tile_px_log2(&self) -> u32 {
        voxel::render::tile_px_log2(self.bank.tile_size())
    }

    fn scene(&self) -> Scene<'_, WINDOW> {
        Scene::new(self.window, self.world, &self.bank).expect("world made for the bank").with_relief(self.relief)
    }
}

/// The screen row where a point `height` world pixels high, `distance` world
/// pixels ahead of `camera`, appears (the renderer's projection).
pub fn screen_row(camera: &Camera, height: i32, distance: i32) -> i32 {
    HORIZON + camera.pitch as i32 + ((camera.z >> 8) - height) * FOCAL as i32 / distance.max(1)
}

/// World pixel `distance` ahead of `camera`.
pub fn ahead(camera: &Camera, distance: i32) -> (u32, u32) {
    let (c, s) = (voxel::trig::cos(camera.heading), voxel::trig::sin(camera.heading));
    let x = (camera.x >> 8).wrapping_add(((c * distance) >> 14) as u32);
    let y = (camera.y >> 8).wrapping_add(((s * distance) >> 14) as u32);
    (x, y)
}
