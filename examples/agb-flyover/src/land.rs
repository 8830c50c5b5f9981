//! Every call into the terrain engine (`bank`, `terrain`, `voxel`) is in this
//! module: the rest of the game sees a [`Land`] that makes worlds, flies a
//! camera over them, answers the ground height and draws into a mode 4 page.
//!
//! Where things live (the engine's hot code is ARM code in `.iwram.*`
//! sections, which agb's linker script puts in IWRAM like ours):
//! - the tile window (4 KB, read by the texel cache's fills and the flight,
//!   the march reading the cache), the world (9.7 KB, read when the camera crosses a
//!   tile), the texel cache (160 KB) and the relief (4 KB): EWRAM, as zero-initialised
//!   statics (`.bss`). Never on the stack: the stack is in IWRAM and far
//!   smaller than the cache.

use core::cell::UnsafeCell;

use agb::external::portable_atomic::{AtomicBool, Ordering};
use terrain::{Window, World};
use voxel::cache::TexelCache;
use voxel::flight::Relief;
use voxel::palette::Mood;
use voxel::projection::FOCAL;
use voxel::render::HORIZON;
use voxel::{Landscape, Parts};

pub use voxel::flight::Controls;
pub use voxel::{Camera, Options, PageSky, Target};

/// Tile references kept round the camera (`N` x `N`).
const WINDOW: usize = 64;

/// The default tile bank, baked from `assets/` by `build.rs` with tilebake.
static BANK: Aligned<[u8; include_bytes!(concat!(env!("OUT_DIR"), "/default.bank")).len()]> =
    Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/default.bank")));
/// Its relief file (the flight's block tops, `Relief::file`), made by `build.rs` too.
static RELIEF_FILE: [u8; include_bytes!(concat!(env!("OUT_DIR"), "/default.relief")).len()] =
    *include_bytes!(concat!(env!("OUT_DIR"), "/default.relief"));

/// The renderer reads the texels in place, as u16 (`bank::Bank::texels`):
/// an `include_bytes!` static has no alignment of its own, so this gives it.
#[repr(C, align(4))]
struct Aligned<T>(T);

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

/// The game's landscape: the engine's [`Landscape`] over the built-in bank,
/// and the bank's colours for the palette.
pub struct Land {
    land: Landscape<'static, WINDOW>,
    colours: [u16; bank::MAX_COLOURS],
}

impl Land {
    /// The land of the built-in bank, with world `seed`. Call once.
    pub fn new(seed: u32) -> Land {
        // Baked and checked by build.rs: its structure is checked again, not its CRC.
        let bank = bank::parse_trusted(&BANK.0).expect("the built-in bank parses");
        let relief = RELIEF.take();
        if let Err(e) = relief.load_file(&bank, &RELIEF_FILE) {
            panic!("the built-in relief: {e}");
        }
        let mut colours = [0; bank::MAX_COLOURS];
        for (i, c) in colours.iter_mut().enumerate().take(bank.palette_len()) {
            *c = bank.colour(i);
        }
        let parts = Parts {
            world: WORLD.take(),
            window: TILE_WINDOW.take(),
            cache: Some(TEXEL_CACHE.take()),
            relief: Some(relief),
        };
        let land = Landscape::new(bank, parts, seed).expect("the built-in bank makes a world");
        Land { land, colours }
    }

    /// Replaces the world with the one of `seed`.
    pub fn new_world(&mut self, seed: u32) {
        self.land.new_world(seed);
    }

    /// The 256 colours (BGR555) of the view of this world: sky, fogged terrain.
    pub fn palette(&self) -> [u16; 256] {
        voxel::palette::build(&self.colours[..self.land.bank().palette_len()], &Mood::of(self.land.seed()))
    }

    /// A camera above the ground near the world's corner, heading diagonally.
    pub fn start_camera(&mut self) -> Camera {
        let world_px = self.land.size_px();
        let mut camera = Camera { x: (world_px - 160) << 8, y: (world_px - 96) << 8, z: 0, heading: 8192, pitch: 0 };
        camera.z = (self.land.ground_height(camera.x >> 8, camera.y >> 8) + 80) << 8;
        self.land.settle(&mut camera);
        camera
    }

    /// Moves the tile window so that `camera` is at its centre.
    pub fn follow(&mut self, camera: &Camera) {
        self.land.follow(camera);
    }

    /// Flies `camera` by `controls` for one screen refresh (above the ground,
    /// easing up before hills), then moves the window with it.
    pub fn fly(&mut self, camera: &mut Camera, controls: Controls) {
        self.land.fly(camera, controls, 1);
        self.land.follow(camera);
    }

    /// Ground height (world pixels) under world pixel (`x`, `y`).
    pub fn ground_height(&self, x: u32, y: u32) -> i32 {
        self.land.ground_height(x, y)
    }

    /// Draws the view from `camera` into `target`; returns the depth samples taken.
    pub fn render(&mut self, camera: &Camera, options: Options, target: &mut impl Target) -> u32 {
        self.land.render(camera, options, target).samples
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
