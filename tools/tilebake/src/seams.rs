//! The paper placement's optional edge fade (`--seam-band`, the previous
//! release's answer to seams, kept so the comparison can be rerun; the
//! default corner placement needs no fade): in
//! the outer band of every tile, heights ease (smoothstep) towards one level
//! shared by all tiles, the median height of the set; in the outer third of
//! the band colours switch to one border colour shared by all tiles, the
//! commonest colour on the tiles' edges, through an ordered (Bayer 4 x 4)
//! dither so the switch is gradual.
//! Every tile edge then has the same height and colour, so any tile can sit
//! next to any other; but every tile is then framed by a flat band at one
//! level (see [`crate::measure`]: its spread ratio is far below 1).

/// Bayer 4 x 4 thresholds, in 16ths.
const BAYER: [[u32; 4]; 4] = [[0, 8, 2, 10], [12, 4, 14, 6], [3, 11, 1, 9], [15, 7, 13, 5]];

/// Fades the outer `band` texels of every tile (texels as `bank::texel`).
pub fn fade_edges(tiles: &mut [Vec<u16>], n: usize, band: usize) {
    let level = median_height(tiles.iter().flatten().map(|t| (*t & 0xFF) as u8));
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
        fade_tile(t, n, band, level, border);
    }
}

/// The median of `heights` (the upper one of an even count; 0 for none).
pub fn median_height(heights: impl Iterator<Item = u8>) -> i32 {
    let mut counts = [0u64; 256];
    let mut total = 0u64;
    for h in heights {
        counts[h as usize] += 1;
        total += 1;
    }
    let mut below = 0u64;
    for (h, &c) in counts.iter().enumerate() {
        below += c;
        if below > total / 2 {
            return h as i32;
        }
    }
    0
}

/// Fades the outer `band` texels of one `n` x `n` tile towards height
/// `level` and colour `border`.
pub fn fade_tile(t: &mut [u16], n: usize, band: usize, level: i32, border: u16) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_is_the_middle_of_the_sorted_heights() {
        for heights in [vec![5u8, 1, 9], vec![4, 4, 1, 200], vec![7], vec![0, 255]] {
            let mut sorted = heights.clone();
            sorted.sort_unstable();
            assert_eq!(median_height(heights.into_iter()), sorted[sorted.len() / 2] as i32);
        }
    }
}
