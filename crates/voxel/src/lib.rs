//! The Voxel-Space terrain renderer, in plain `no_std` Rust with fixed-point
//! maths only: the host's reference renderer and the GBA's, one code.
//!
//! - [`trig`]: integer sine table.
//! - [`projection`]: depth slices, level of detail, reciprocal table, fog levels.
//! - [`page`]: what a mode 4 page keeps of its sky between frames.
//! - [`palette`]: the 256-colour plan (interface, sky, 4 fog levels of terrain).
//! - [`render`](mod@render): camera, scene (tile window + bank), the
//!   reference column renderer (host and GBA).
//! - `march` (GBA only): the fast path, the frame's tables, then the column
//!   loop and each column's march in ARM assembly, reading the texel cache.
//!
//! [`render()`] (below) picks the path; `march` uses `render`'s tables, and
//! `render` knows nothing of `march`.
//! - [`cache`]: the texels round the camera, flat, for the GBA's march.
//! - [`flight`]: moving the camera from the keypad, never below the ground.
//! - [`landscape`]: one owner for a world, its window, its bank and its cache:
//!   where a game starts.
#![no_std]

#[cfg(any(target_arch = "arm", test))]
mod bottom;
pub mod cache;
pub mod flight;
pub mod landscape;
#[cfg(target_arch = "arm")]
pub mod march;
pub mod page;
pub mod palette;
pub mod projection;
pub mod render;
pub mod trig;

pub use landscape::{Landscape, LandscapeError, Parts};
pub use page::PageSky;
pub use render::{Camera, Columns, Frame, Options, Scene, SceneError, Stats, Target};

/// Renders one frame of `scene` from `camera` into `target`, every pixel of
/// it: the reference path writes each once (terrain front to back, then the
/// sky above it); the GBA's march fills the page with the sky first, whole
/// rows of word stores, and draws the terrain over it, or, when the target's
/// [`PageSky`] holds the page's last frame at the same horizon, repaints
/// only the sky rows that frame's terrain covered.
///
/// On the GBA the march (IWRAM) takes a target with
/// [`Target::vram_column`] and a scene with a valid texel cache that holds
/// the boundary view's marks exactly when `options` asks for them
/// ([`cache::TexelCache::set_marks`]); anything else takes the reference
/// path, which stays in ROM as ARM code (slower;
/// IWRAM is kept for the march). This dispatch itself is ROM code. The
/// march's bottom chain needs reciprocals of the height scale's (the
/// bank's) slice rows: about 32,000 cycles of divides, once a scale, which
/// [`Landscape::new`] spends; a scene of another scale pays them in its
/// first frame. The march's tables are statics, one frame's: on the GBA, a
/// render that would take the march while another march runs, or while
/// [`Landscape::new`] computes those reciprocals (an interrupt handler's
/// render, say), draws nothing and returns [`Stats::default()`]: no samples
/// and no slices skipped, which any frame drawn has one or the other of (the
/// reference path draws as ever).
///
/// ```
/// # let bytes = bank::encode(&bank::Contents { tile_size: 32, palette: &[0, 0x7FFF], tiles: &[bank::texel(10, 1); 32 * 32], placement: bank::Placement::Paper, height_scale: bank::HEIGHT_SCALE_ONE }).unwrap();
/// # let (mut world, mut window) = (terrain::World::empty(), terrain::Window::<64>::new());
/// # let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
/// # let mut land = voxel::Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap();
/// let camera = voxel::Camera { x: 500 << 8, y: 500 << 8, z: 50 << 8, ..Default::default() };
/// land.follow(&camera);
/// let mut frame = Box::new(voxel::Frame::default());
/// let stats = voxel::render(&land.scene(), &camera, voxel::Options::default(), &mut *frame);
/// assert!(stats.draws > 0);
/// ```
#[cfg_attr(target_arch = "arm", inline(never))]
pub fn render<const N: usize, T: Target>(
    scene: &Scene<'_, N>,
    camera: &Camera,
    options: Options,
    target: &mut T,
) -> Stats {
    // Out of range, the slice rows would not fit 32 bits.
    let camera = &camera.drawn();
    #[cfg(target_arch = "arm")]
    if let (Some(cache), Some(_)) = (scene.cache, target.vram_column(0))
        && cache.is_valid()
        && cache.marks() == options.boundaries
    {
        // The march's statics are one frame's: a render inside a render (an
        // interrupt handler's) draws nothing.
        if !march::enter() {
            return Stats::default();
        }
        march::prepare(scene.shape.height_scale);
        let stats = march::columns(scene, cache, camera, options, target);
        march::leave();
        return stats;
    }
    // The reference path writes every pixel and keeps no tops.
    if let Some(sky) = target.page_sky() {
        sky.invalidate();
    }
    render::columns::<N, T>(scene, camera, options, target)
}
