//! `tilebake`: heightmap and texture PNGs into GBA tile banks (the format is
//! defined once, in the `bank` crate), and the tools around them: `inspect`,
//! `preview`, `pack` (a bank into a built ROM), `relief` (a bank's relief
//! file, for a game to load) and `generate` (a pair from a seed). The command line is in `main.rs`; everything else is here, so
//! `rom/build.rs` bakes the default tile set with the same code.

pub mod bake;
pub mod corners;
pub mod error;
pub mod generate;
pub mod inspect;
pub mod io;
pub mod measure;
pub mod pack;
mod parallel;
pub mod preview;
pub mod relief;
pub mod seams;
pub mod world;

pub use bake::{Baked, HeightScale, Options, Pair, PlacementKind, bake};
pub use error::{Error, Result};
pub use parallel::with_threads;
