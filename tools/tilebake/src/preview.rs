//! `preview`: a contact sheet of the tiles (colour and shaded height side by
//! side) and a top-down map of the world a seed makes with the bank.

use crate::error::{Error, Result};
use crate::io;
use bank::Bank;
use image::{DynamicImage, Rgb, RgbImage};
use std::path::Path;

/// Pixels between tiles on the contact sheet.
const GAP: u32 = 2;
/// Tile pairs per contact sheet row.
const PER_ROW: u32 = 8;

/// A BGR555 colour as 8-bit RGB (`bank::colour`).
pub fn rgb(c: u16) -> Rgb<u8> {
    Rgb(bank::colour::to_rgb888(c))
}

/// Lambert shading of tile `t`'s heights, light from the upper left.
fn shade(b: &Bank<'_>, t: usize, x: usize, y: usize) -> u8 {
    let n = b.tile_size();
    let h = |x: usize, y: usize| b.texel(t, x.min(n - 1), y.min(n - 1)).0 as i32;
    let (dx, dy) = (h(x + 1, y) - h(x.saturating_sub(1), y), h(x, y + 1) - h(x, y.saturating_sub(1)));
    let base = h(x, y) / 2 + 64;
    (base - 2 * (dx + dy)).clamp(0, 255) as u8
}

/// The contact sheet.
pub fn contact_sheet(b: &Bank<'_>) -> RgbImage {
    let n = b.tile_size() as u32;
    let count = b.tile_count() as u32;
    let rows = count.div_ceil(PER_ROW);
    let cell_w = 2 * n + GAP;
    let mut img = RgbImage::from_pixel(PER_ROW * (cell_w + GAP) + GAP, rows * (n + GAP) + GAP, Rgb([24, 24, 32]));
    for t in 0..count {
        let (cx, cy) = (GAP + (t % PER_ROW) * (cell_w + GAP), GAP + (t / PER_ROW) * (n + GAP));
        for y in 0..n {
            for x in 0..n {
                let (_, colour) = b.texel(t as usize, x as usize, y as usize);
                img.put_pixel(cx + x, cy + y, rgb(b.colour(colour as usize)));
                let s = shade(b, t as usize, x as usize, y as usize);
                img.put_pixel(cx + n + GAP + x, cy + y, Rgb([s, s, s]));
            }
        }
    }
    img
}

/// The world of `seed` seen from above: `tiles` x `tiles` tiles from tile
/// (0, 0), each texel one pixel (tiles above 32 px are shown at half size).
pub fn world_map(b: &Bank<'_>, seed: u32, tiles: u32) -> std::result::Result<RgbImage, voxel::LandscapeError> {
    let n = b.tile_size() as u32;
    let step = if n > 32 { 2 } else { 1 };
    let side = tiles * n / step;
    crate::world::with_texels(b, seed, |at| {
        RgbImage::from_fn(side, side, |px, py| rgb(b.colour(at(px * step, py * step).1 as usize)))
    })
}

/// Most tiles on a side of the map (as `world`: 2048 x 2048 texels at 32-texel tiles).
pub const MAX_TILES: u32 = crate::world::MAX_TILES;

/// The two files of `prefix`: `<prefix>-tiles.png` and `<prefix>-map.png`;
/// a prefix that names a directory (it ends in `/`, or is one) gets them
/// inside it, named after the bank (`my.bank`: `my-tiles.png`).
fn outputs(prefix: &Path, bank_path: &Path) -> [std::path::PathBuf; 2] {
    let is_dir = prefix.as_os_str().to_string_lossy().ends_with(std::path::MAIN_SEPARATOR) || prefix.is_dir();
    let (dir, name) = if is_dir {
        (prefix, bank_path.file_stem())
    } else {
        (prefix.parent().unwrap_or(Path::new("")), prefix.file_name())
    };
    let name = name.map(|f| f.to_string_lossy().into_owned()).unwrap_or_else(|| "preview".into());
    [dir.join(format!("{name}-tiles.png")), dir.join(format!("{name}-map.png"))]
}

/// Writes `<prefix>-tiles.png` and `<prefix>-map.png` (both or neither; the
/// prefix's directory is made if missing); returns their paths.
pub fn write(bank_path: &Path, prefix: &Path, seed: u32, tiles: u32) -> Result<[std::path::PathBuf; 2]> {
    if !(1..=MAX_TILES).contains(&tiles) {
        return Err(Error::range("tiles", tiles, format!("is outside 1..={MAX_TILES}")));
    }
    io::refuse_standard_output(prefix)?;
    // A device or a pipe (`-o /dev/null`, as for the other commands): no
    // prefix for files beside it.
    if std::fs::metadata(prefix).is_ok_and(|m| !m.is_dir() && !m.is_file()) {
        return Err(Error::Write {
            path: prefix.to_path_buf(),
            source: std::io::Error::other("a device or a pipe, not a prefix or a directory for the pictures"),
        });
    }
    let [sheet, map] = outputs(prefix, bank_path);
    for out in [&sheet, &map] {
        io::refuse_overwriting_inputs(out, &[bank_path])?;
    }
    let bytes = crate::inspect::load(bank_path)?;
    let b = bank::parse(&bytes).map_err(|source| Error::Bank { path: bank_path.to_path_buf(), source })?;
    let map_picture =
        world_map(&b, seed, tiles).map_err(|reason| Error::Landscape { path: bank_path.to_path_buf(), reason })?;
    let mut out = io::Outputs::new();
    if let Some(dir) = sheet.parent() {
        out.create_dir(dir)?;
    }
    out.add_png(&sheet, &DynamicImage::ImageRgb8(contact_sheet(&b)), "preview")?;
    out.add_png(&map, &DynamicImage::ImageRgb8(map_picture), "preview")?;
    out.commit()?;
    Ok([sheet, map])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_or_a_directory() {
        let names = |prefix: &Path| outputs(prefix, Path::new("banks/my.bank")).map(|p| p.display().to_string());
        assert_eq!(names(Path::new("preview/x")), ["preview/x-tiles.png", "preview/x-map.png"]);
        assert_eq!(names(Path::new("x")), ["x-tiles.png", "x-map.png"]);
        // A directory, by its trailing slash or because it is one: inside it,
        // named after the bank.
        assert_eq!(names(Path::new("out/")), ["out/my-tiles.png", "out/my-map.png"]);
        let d = tempfile::tempdir().unwrap();
        assert_eq!(names(d.path())[0], d.path().join("my-tiles.png").display().to_string());
    }
}
