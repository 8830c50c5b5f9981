//! `generate`: a heightmap + texture pair from a seed, for people with no art.
//!
//! In the spirit of the procedural-island notes: fractal noise heights
//! (fBm over Perlin noise, `noise` crate), redistributed by rank so a fixed
//! share of the map is sea whatever the seed, water flattened to sea level;
//! a second noise field for moisture; colours from a height x moisture biome
//! table (sea, beach, grass, forest, rock, snow) with a little per-pixel
//! variation. Host-only (floating point is fine here, never on the GBA).

use crate::error::{Error, Result};
use crate::io;
use image::{DynamicImage, ImageBuffer, Luma, Rgb, RgbImage};
use noise::{Fbm, MultiFractal, NoiseFn, Perlin};
use std::path::Path;

/// Share of the map under water.
const SEA: f64 = 0.30;
/// Strength of the baked hill shading (brightness change per unit of slope).
const SHADE: f64 = 0.35;
/// Share of the map that is beach, just above it.
const BEACH: f64 = 0.04;

/// Biome colour for normalised height `h` (0..1, by rank) and moisture `m` (0..1).
fn biome(h: f64, m: f64) -> [f64; 3] {
    if h < SEA {
        let d = h / SEA; // 0 deep .. 1 shore
        [20.0 + 40.0 * d, 60.0 + 70.0 * d, 120.0 + 70.0 * d]
    } else if h < SEA + BEACH {
        [214.0, 196.0, 140.0]
    } else if h < 0.70 {
        if m < 0.33 {
            [150.0, 160.0, 80.0] // dry grass
        } else if m < 0.66 {
            [86.0, 150.0, 64.0] // grass
        } else {
            [40.0, 100.0, 48.0] // forest
        }
    } else if h < 0.92 {
        if m > 0.6 { [70.0, 90.0, 60.0] } else { [128.0, 112.0, 96.0] } // mossy or bare rock
    } else {
        [236.0, 240.0, 246.0] // snow
    }
}

/// Heights (0..1 by rank, water flattened) and moisture for a `size` x `size` map.
fn fields(seed: u32, size: u32) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let height = Fbm::<Perlin>::new(seed).set_octaves(5).set_frequency(2.0);
    let moisture = Fbm::<Perlin>::new(seed.wrapping_add(1)).set_octaves(3).set_frequency(2.0);
    let grain = Perlin::new(seed.wrapping_add(2));
    let n = (size * size) as usize;
    let (mut h, mut m, mut g) = (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
    for y in 0..size {
        for x in 0..size {
            let (u, v) = (x as f64 / size as f64, y as f64 / size as f64);
            h.push(height.get([u, v]));
            m.push((moisture.get([u, v]) * 0.5 + 0.5).clamp(0.0, 1.0));
            g.push(grain.get([u * 64.0, v * 64.0]));
        }
    }
    // Rank redistribution: the k-th lowest value becomes k / n.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| h[a].total_cmp(&h[b]).then(a.cmp(&b)));
    let mut ranked = vec![0.0; n];
    for (rank, &i) in order.iter().enumerate() {
        ranked[i] = rank as f64 / (n - 1).max(1) as f64;
    }
    (ranked, m, g)
}

/// Largest side `generate` makes.
pub const MAX_SIZE: u32 = 4096;

/// A 16-bit grey heightmap.
pub type Heightmap = ImageBuffer<Luma<u16>, Vec<u16>>;

/// Refuses a side `generate` does not make.
fn check_size(size: u32) -> Result<()> {
    if !(128..=MAX_SIZE).contains(&size) || !size.is_multiple_of(128) {
        return Err(Error::range("size", size, format!("is not supported: use a multiple of 128 in 128..={MAX_SIZE}")));
    }
    Ok(())
}

/// Makes the pair; returns (heightmap, texture).
pub fn generate(seed: u32, size: u32) -> Result<(Heightmap, RgbImage)> {
    check_size(size)?;
    let (h, m, g) = fields(seed, size);
    let heights = ImageBuffer::from_fn(size, size, |x, y| {
        let v = h[(y * size + x) as usize].max(SEA);
        // Land rises from sea level; squared so mountains are steeper than plains.
        let land = (v - SEA) / (1.0 - SEA);
        Luma([(land * land * 65535.0).round() as u16])
    });
    // Light from the north-west, as game maps bake it: slopes facing the
    // light brighter, the others darker (water is flat, so unshaded).
    let hv = |x: u32, y: u32| heights.get_pixel(x.min(size - 1), y.min(size - 1))[0] as f64 / 65535.0;
    let shade = |x: u32, y: u32| {
        let (x0, y0) = (x.saturating_sub(1), y.saturating_sub(1));
        let (dx, dy) = (hv(x + 1, y) - hv(x0, y), hv(x, y + 1) - hv(x, y0));
        // Height range per texel times a relief factor: the slope the eye sees.
        let relief = 255.0 / 4.0 * 0.5;
        (1.0 - SHADE * (dx + dy) * relief).clamp(0.55, 1.45)
    };
    let texture = RgbImage::from_fn(size, size, |x, y| {
        let i = (y * size + x) as usize;
        let c = biome(h[i], m[i]);
        let k = (1.0 + 0.08 * g[i]) * shade(x, y);
        Rgb(c.map(|v| (v * k).round().clamp(0.0, 255.0) as u8))
    });
    Ok((heights, texture))
}

/// Writes `<dir>/height.png` (16-bit grey) and `<dir>/texture.png` (both or
/// neither; `dir` is made if missing, and removed again if writing fails; a
/// file there that `generate` did not write is refused,
/// [`io::refuse_replacing_foreign`]).
pub fn write(seed: u32, size: u32, dir: &Path) -> Result<[std::path::PathBuf; 2]> {
    let (hp, tp) = (dir.join("height.png"), dir.join("texture.png"));
    check_size(size)?;
    io::refuse_standard_output(dir)?;
    for out in [&hp, &tp] {
        io::refuse_replacing_foreign(out, "generate")?;
    }
    let (heights, texture) = generate(seed, size)?;
    let mut out = io::Outputs::new();
    out.create_dir(dir)?;
    out.add_png(&hp, &DynamicImage::ImageLuma16(heights), "generate")?;
    out.add_png(&tp, &DynamicImage::ImageRgb8(texture), "generate")?;
    out.commit()?;
    Ok([hp, tp])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each band of the biome table starts at its threshold: the value
    /// itself is the band above, the float just below it the band below.
    #[test]
    fn biome_bands_start_at_their_thresholds() {
        let shore = biome(SEA.next_down(), 0.5);
        assert!(shore[2] > shore[0] && shore[2] > shore[1], "water is blue: {shore:?}");
        let beach = [214.0, 196.0, 140.0];
        assert_eq!(biome(SEA, 0.5), beach);
        assert_eq!(biome((SEA + BEACH).next_down(), 0.5), beach);
        let (dry, grass, forest) = ([150.0, 160.0, 80.0], [86.0, 150.0, 64.0], [40.0, 100.0, 48.0]);
        assert_eq!(biome(SEA + BEACH, 0.33f64.next_down()), dry);
        assert_eq!(biome(SEA + BEACH, 0.33), grass);
        assert_eq!(biome(0.70f64.next_down(), 0.66f64.next_down()), grass);
        assert_eq!(biome(0.5, 0.66), forest);
        let (moss, rock, snow) = ([70.0, 90.0, 60.0], [128.0, 112.0, 96.0], [236.0, 240.0, 246.0]);
        assert_eq!(biome(0.70, 0.6), rock);
        assert_eq!(biome(0.70, 0.6f64.next_up()), moss);
        assert_eq!(biome(0.92f64.next_down(), 1.0), moss);
        assert_eq!(biome(0.92, 1.0), snow);
    }
}
