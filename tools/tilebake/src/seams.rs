//! Seams between tiles: the fade that removes them at bake time, and the
//! measure that says how visible they are.
//!
//! The method ("tile detail that fades to a common level at the edges"): in
//! the outer band of every tile, heights ease (smoothstep) towards one level
//! shared by all tiles, the median height of the set; in the outer third of
//! the band colours switch to one border colour shared by all tiles, the
//! commonest colour on the tiles' edges, through an ordered (Bayer 4 x 4)
//! dither so the switch is gradual.
//! Every tile edge then has the same height and colour, so any tile can sit
//! next to any other, in any orientation; the lookup and the renderer do not
//! change, so the cost is zero cycles and zero bytes.
//!
//! The measure: over a large area of a seeded world, the mean absolute height
//! step between neighbouring texels that straddle a tile border, divided by
//! the same inside tiles (1.0: borders are invisible); likewise for colour
//! (the L1 distance of the two palette colours' 5-bit channels).

use terrain::{World, WorldParams};

/// Bayer 4 x 4 thresholds, in 16ths.
const BAYER: [[u32; 4]; 4] = [[0, 8, 2, 10], [12, 4, 14, 6], [3, 11, 1, 9], [15, 7, 13, 5]];

/// Fades the outer `band` texels of every tile (texels as `bank::texel`).
pub fn fade_edges(tiles: &mut [Vec<u16>], n: usize, band: usize) {
    let mut heights: Vec<u8> = tiles.iter().flatten().map(|t| (*t & 0xFF) as u8).collect();
    heights.sort_unstable();
    let level = heights[heights.len() / 2] as i32;
    let mut counts = [0usize; 256];
    for t in tiles.iter() {
        for i in 0..n {
            for (x, y) in [(i, 0), (i, n - 1), (0, i), (n - 1, i)] {
                counts[(t[y * n + x] >> 8) as usize] += 1;
            }
        }
    }
    let border = (0..256).max_by_key(|&c| (counts[c], std::cmp::Reverse(c))).unwrap_or(0) as u16;
    for t in tiles.iter_mut() {
        for y in 0..n {
            for x in 0..n {
                let d = x.min(y).min(n - 1 - x).min(n - 1 - y);
                if d >= band {
                    continue;
                }
                // Weight of the tile's own texel, 0 on the edge itself .. 256 past
                // the band: smoothstep of d / band, in integers.
                let u = (d * 256 / band) as i32;
                let w = u * u * (3 * 256 - 2 * u) / (256 * 256);
                let h = (t[y * n + x] & 0xFF) as i32;
                let h = level + ((h - level) * w + 128).div_euclid(256);
                // Colours switch over a third of the band only, so the shared
                // border colour makes a thin seam, not a frame round each tile.
                let cband = (band / 3).max(1);
                let keep = d >= cband || (d * 16 / cband) as u32 > BAYER[y % 4][x % 4];
                let colour = if keep { t[y * n + x] >> 8 } else { border };
                t[y * n + x] = bank::texel(h.clamp(0, 255) as u8, colour as u8);
            }
        }
    }
}

/// How visible the seams of a bank are in the world of `seed`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeamMeasure {
    /// Mean height step across tile borders / inside tiles.
    pub height_ratio: f64,
    /// Mean colour step across tile borders / inside tiles.
    pub colour_ratio: f64,
}

/// Measures `bank` placed by the world of `seed`, over `tiles` x `tiles` tiles.
pub fn measure(bank: &bank::Bank<'_>, seed: u32, tiles: u32) -> SeamMeasure {
    let params = WorldParams { tile_count: bank.tile_count() as u16, ..WorldParams::DEFAULT };
    let world = World::new(seed, params).expect("bank tile counts are 1..=256");
    let n = bank.tile_size() as u32;
    let side = tiles * n;
    let texel = |x: u32, y: u32| bank.texel(world.tile_at(x / n, y / n) as usize, (x % n) as usize, (y % n) as usize);
    let colour = |c: u8| {
        let v = bank.colour(c as usize);
        [(v & 31) as i32, ((v >> 5) & 31) as i32, ((v >> 10) & 31) as i32]
    };
    let (mut across, mut inside) = ([0f64; 2], [0f64; 2]);
    let (mut n_across, mut n_inside) = (0f64, 0f64);
    for y in 0..side {
        for x in 0..side {
            let (h0, c0) = texel(x, y);
            for (dx, dy) in [(1, 0), (0, 1)] {
                let (h1, c1) = texel(x + dx, y + dy);
                let dh = (h0 as f64 - h1 as f64).abs();
                let (a, b) = (colour(c0), colour(c1));
                let dc = (0..3).map(|i| (a[i] - b[i]).abs()).sum::<i32>() as f64;
                let border = if dx == 1 { x % n == n - 1 } else { y % n == n - 1 };
                if border {
                    across[0] += dh;
                    across[1] += dc;
                    n_across += 1.0;
                } else {
                    inside[0] += dh;
                    inside[1] += dc;
                    n_inside += 1.0;
                }
            }
        }
    }
    let ratio = |a: f64, i: f64| if i == 0.0 { 0.0 } else { (a / n_across) / (i / n_inside) };
    SeamMeasure { height_ratio: ratio(across[0], inside[0]), colour_ratio: ratio(across[1], inside[1]) }
}
