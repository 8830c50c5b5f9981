//! `world`: a square of a seeded world exactly as the ROM places it, as
//! pictures: the texel heights (8-bit grey) and colours (RGB from the bank's
//! palette, no fog or mood), one pixel per texel.

use crate::error::{Error, Result};
use crate::io;
use crate::preview::rgb;
use bank::Bank;
use image::{DynamicImage, GrayImage, Luma, RgbImage};
use std::path::{Path, PathBuf};
use terrain::World;

/// Most tiles on a side of the square (2048 x 2048 texels at 32-texel tiles).
pub const MAX_TILES: u32 = 64;

/// The texels of `tiles` x `tiles` tiles of the world of `seed` from tile
/// (0, 0): a closure from texel coordinates to (height, colour index).
pub fn texels<'a>(bank: &'a Bank<'a>, world: &'a World) -> impl Fn(u32, u32) -> (u8, u8) + 'a {
    let n = bank.tile_size() as u32;
    move |x, y| bank.texel(world.tile_at(x / n, y / n) as usize, (x % n) as usize, (y % n) as usize)
}

/// The two pictures of the square.
pub fn pictures(bank: &Bank<'_>, seed: u32, tiles: u32) -> (GrayImage, RgbImage) {
    let world = World::for_bank(seed, bank).expect("a parsed bank makes a valid world");
    let side = tiles * bank.tile_size() as u32;
    let at = texels(bank, &world);
    let height = GrayImage::from_fn(side, side, |x, y| Luma([at(x, y).0]));
    let colour = RgbImage::from_fn(side, side, |x, y| rgb(bank.colour(at(x, y).1 as usize)));
    (height, colour)
}

/// `tilebake world BANK --seed S --tiles N -o DIR`: writes `DIR/height.png`
/// and `DIR/colour.png` (both or neither; DIR is made if missing).
pub fn write(bank_path: &Path, seed: u32, tiles: u32, dir: &Path) -> Result<[PathBuf; 2]> {
    if !(1..=MAX_TILES).contains(&tiles) {
        return Err(Error::range("tiles", tiles, format!("is outside 1..={MAX_TILES}")));
    }
    let (hp, cp) = (dir.join("height.png"), dir.join("colour.png"));
    for out in [&hp, &cp] {
        io::refuse_overwriting_inputs(out, &[bank_path])?;
    }
    let bytes = crate::inspect::load(bank_path)?;
    let b = bank::parse(&bytes).map_err(|source| Error::Bank { path: bank_path.to_path_buf(), source })?;
    let (height, colour) = pictures(&b, seed, tiles);
    let mut out = io::Outputs::new();
    out.create_dir(dir)?;
    out.add_png(&hp, &DynamicImage::ImageLuma8(height))?;
    out.add_png(&cp, &DynamicImage::ImageRgb8(colour))?;
    out.commit()?;
    Ok([hp, cp])
}
