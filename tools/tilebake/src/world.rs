//! `world`: a square of a seeded world exactly as the ROM places it, as
//! pictures: the texel heights (8-bit grey) and colours (RGB from the bank's
//! palette, no fog or mood), one pixel per texel.

use crate::error::{Error, Result};
use crate::io;
use crate::preview::rgb;
use bank::Bank;
use image::{DynamicImage, GrayImage, Luma, RgbImage};
use std::path::{Path, PathBuf};
use terrain::{Window, World};
use voxel::{Landscape, LandscapeError, Parts};

/// Most tiles on a side of the square (2048 x 2048 texels at 32-texel tiles).
pub const MAX_TILES: u32 = 64;

/// The world of `seed` drawn with `bank`, as the ROM places it (through the
/// engine's [`Landscape`]), handed to `f` as a function from texel
/// coordinates (wrapping) to (height, colour index). Fails if the bank's
/// placement cannot make a world (a hostile bank can parse and still not).
pub fn with_texels<R>(
    bank: &Bank<'_>,
    seed: u32,
    f: impl FnOnce(&dyn Fn(u32, u32) -> (u8, u8)) -> R,
) -> std::result::Result<R, LandscapeError> {
    // The window is not read here: the smallest one.
    let (mut world, mut window) = (Box::<World>::default(), Box::<Window<4>>::default());
    let parts = Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    let land = Landscape::new(*bank, parts, seed)?;
    let shift = voxel::render::TEXEL_SHIFT;
    Ok(f(&|x, y| land.texel(x << shift, y << shift)))
}

/// The two pictures of the square.
pub fn pictures(bank: &Bank<'_>, seed: u32, tiles: u32) -> std::result::Result<(GrayImage, RgbImage), LandscapeError> {
    let side = tiles * bank.tile_size() as u32;
    with_texels(bank, seed, |at| {
        let height = GrayImage::from_fn(side, side, |x, y| Luma([at(x, y).0]));
        let colour = RgbImage::from_fn(side, side, |x, y| rgb(bank.colour(at(x, y).1 as usize)));
        (height, colour)
    })
}

/// `tilebake world BANK --seed S --tiles N -o DIR`: writes `DIR/height.png`
/// and `DIR/colour.png` (both or neither; DIR is made if missing; a file
/// there that `world` did not write is refused, [`io::refuse_replacing_foreign`]).
pub fn write(bank_path: &Path, seed: u32, tiles: u32, dir: &Path) -> Result<[PathBuf; 2]> {
    if !(1..=MAX_TILES).contains(&tiles) {
        return Err(Error::range("tiles", tiles, format!("is outside 1..={MAX_TILES}")));
    }
    let (hp, cp) = (dir.join("height.png"), dir.join("colour.png"));
    io::refuse_standard_output(dir)?;
    for out in [&hp, &cp] {
        io::refuse_overwriting_inputs(out, &[bank_path])?;
        io::refuse_replacing_foreign(out, "world")?;
    }
    let bytes = crate::inspect::load(bank_path)?;
    let b = bank::parse(&bytes).map_err(|source| Error::Bank { path: bank_path.to_path_buf(), source })?;
    let (height, colour) =
        pictures(&b, seed, tiles).map_err(|reason| Error::Landscape { path: bank_path.to_path_buf(), reason })?;
    let mut out = io::Outputs::new();
    out.create_dir(dir)?;
    out.add_png(&hp, &DynamicImage::ImageLuma8(height), "world")?;
    out.add_png(&cp, &DynamicImage::ImageRgb8(colour), "world")?;
    out.commit()?;
    Ok([hp, cp])
}
