//! The terrain method of Marshall et al., "Representing Random Terrain on
//! Resource Limited Devices" (CGAIDE 2004), as `no_std` Rust without floating
//! point or allocation, shared by the ROM, `tilebake` and the host tests.
//!
//! - [`rng`]: the seeded PRNG (xoshiro128**), bit-identical everywhere.
//! - [`world`]: structure grid + random table + integer tile lookup, wrapping.
//! - [`window`]: the tile reference window, updated incrementally.
//! - [`paper`]: a straightforward version of the paper's method, as published,
//!   for side-by-side benchmarks.
//!
//! On the GBA (`target_arch = "arm"`) the hot paths (window update and
//! rebuild, world regeneration) are compiled as ARM code into `.iwram.terrain`
//! sections, which the ROM's linker script copies to IWRAM.
#![no_std]

mod fill;
#[cfg(target_arch = "arm")]
mod fill_kernels;
pub mod paper;
pub mod rng;
pub mod window;
pub mod world;

pub use window::{Update, Window};
pub use world::{ParamError, World, WorldParams, class_band};
