//! The Voxel-Space terrain renderer, in plain `no_std` Rust with fixed-point
//! maths only: the host's reference renderer and the GBA's, one code.
//!
//! - [`trig`]: integer sine table.
//! - [`projection`]: depth slices, level of detail, reciprocal table, fog levels.
//! - [`palette`]: the 256-colour plan (interface, sky, 4 fog levels of terrain).
//! - [`render`](mod@render): camera, scene (tile window + bank), the column renderer.
//! - [`cache`]: the texels round the camera, flat, for the GBA's march.
//! - [`flight`]: moving the camera from the keypad, never below the ground.
#![no_std]

#[cfg(target_arch = "arm")]
pub mod arm;
pub mod cache;
pub mod flight;
pub mod palette;
pub mod projection;
pub mod render;
pub mod trig;

pub use render::{Camera, Frame, Options, Scene, SceneError, Stats, Target, render};
