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

    #[test]
    fn median_values_pinned() {
        for (heights, median) in [
            (&[5u8, 1, 9][..], 5),
            (&[4, 4, 1, 200], 4),
            // An even count: the upper of the two middle values.
            (&[0, 255], 255),
            (&[200, 3, 3, 200], 200),
            (&[3, 3, 3, 200, 200], 3),
            (&[7], 7),
            (&[], 0),
        ] {
            assert_eq!(median_height(heights.iter().copied()), median, "{heights:?}");
        }
    }

    /// A 14 x 14 tile, band 6, towards level 100 and border colour 9. Own
    /// weights by distance d to the edge (smoothstep of d / 6 in 256ths):
    /// 0, 18, 65, 128, 188, 236, then 256 (untouched) from d = 6. Colours
    /// switch over band / 3 = 2 texels: always at d = 0; at d = 1 where the
    /// Bayer threshold is 8 or more; never from d = 2.
    #[test]
    fn fade_tile_pinned() {
        let n = 14;
        let mut t: Vec<u16> = (0..n * n)
            .map(|i| {
                let (x, y) = (i % n, i / n);
                bank::texel(((x * 17 + y * 29) % 256) as u8, (1 + (x + y) % 3) as u8)
            })
            .collect();
        let before = t.clone();
        fade_tile(&mut t, n, 6, 100, 9);
        #[rustfmt::skip]
        let heights: [[u8; 14]; 14] = [
            [100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100],
            [100,  96,  97,  99, 100, 101, 102, 103, 105, 106, 107, 108, 109, 100],
            [100,  98,  98, 102, 107, 111, 115, 120, 124, 128, 133, 137,  93, 100],
            [100, 100, 105, 119, 128, 136, 145, 153, 162, 170,  51,  79,  95, 100],
            [100, 102, 113, 134, 162, 174, 187, 199, 212,  36,  65,  87,  97, 100],
            [100, 104, 120, 148, 183, 220, 236,  15,  31,  57,  80,  94, 100, 100],
            [100, 106, 127, 163, 204,  11,  20,  37,  58,  79,  94, 101, 102, 100],
            [100, 108, 135, 177,  38,  37,  49,  66,  84, 100, 109, 109, 104, 100],
            [100, 110,  77,  64,  59,  64,  80,  95, 111, 121, 123, 116, 106, 100],
            [100,  95,  85,  78,  80,  93, 105, 118, 130, 143, 138, 123, 108, 100],
            [100,  97,  92,  93, 101, 110, 118, 127, 135, 144, 152, 131, 110, 100],
            [100,  99,  99, 104, 108, 112, 117, 121, 125, 129, 134, 138,  94, 100],
            [100, 101, 102, 103, 104, 105, 107, 108, 109, 110,  93,  95,  96, 100],
            [100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100],
        ];
        let colours = [
            "99999999999999",
            "93929193929199",
            "99231231231239",
            "92312312312399",
            "99123123123129",
            "91231231231299",
            "99312312312319",
            "93123123123199",
            "99231231231239",
            "92312312312399",
            "99123123123129",
            "91231231231299",
            "99392919392919",
            "99999999999999",
        ];
        for y in 0..n {
            let got: Vec<u8> = (0..n).map(|x| (t[y * n + x] & 0xFF) as u8).collect();
            assert_eq!(got, heights[y], "heights of row {y}");
            let got: String = (0..n).map(|x| char::from(b'0' + (t[y * n + x] >> 8) as u8)).collect();
            assert_eq!(got, colours[y], "colours of row {y}");
        }
        // Hand-checked: (1, 1) is 46 at d = 1: 100 + floor(((46 - 100) * 18 + 128) / 256) = 96;
        // (10, 3) is 1 at d = 3: 100 + floor((-99 * 128 + 128) / 256) = 51.
        assert_eq!(heights[1][1], 96);
        assert_eq!(heights[3][10], 51);
        // The middle 2 x 2 (d = 6) is untouched.
        for (x, y) in [(6, 6), (7, 6), (6, 7), (7, 7)] {
            assert_eq!(t[y * n + x], before[y * n + x]);
        }
    }

    /// A band of 0 changes nothing; a band of 1 sets the edge ring alone.
    #[test]
    fn fade_tile_band_limits() {
        let t: Vec<u16> = (0..16u16).map(|i| bank::texel(i as u8 * 10, 1 + (i % 2) as u8)).collect();
        let mut same = t.clone();
        fade_tile(&mut same, 4, 0, 77, 5);
        assert_eq!(same, t);
        let mut one = t.clone();
        fade_tile(&mut one, 4, 1, 77, 5);
        for y in 0..4 {
            for x in 0..4 {
                let inner = (1..3).contains(&x) && (1..3).contains(&y);
                let want = if inner { t[y * 4 + x] } else { bank::texel(77, 5) };
                assert_eq!(one[y * 4 + x], want, "({x}, {y})");
            }
        }
    }

    /// Two 6 x 6 tiles, band 3: the level is the median of all 72 heights
    /// (10..=45 and 100..=135: 100), the border colour the commonest on the
    /// tiles' edges (26 edge visits of colour 3 against 22 of colour 2; the
    /// middles, colour 5, do not count).
    #[test]
    fn fade_edges_pinned() {
        let edge = |i: u16| [0, 5].contains(&(i % 6)) || !(6..30).contains(&i);
        let a: Vec<u16> = (0..36u16)
            .map(|i| {
                bank::texel(
                    10 + i as u8,
                    if !edge(i) {
                        5
                    } else if i == 2 {
                        2
                    } else {
                        3
                    },
                )
            })
            .collect();
        let b: Vec<u16> = (0..36u16)
            .map(|i| {
                bank::texel(
                    100 + i as u8,
                    if !edge(i) {
                        5
                    } else if [6, 12, 18].contains(&i) {
                        3
                    } else {
                        2
                    },
                )
            })
            .collect();
        let mut tiles = vec![a, b];
        fade_edges(&mut tiles, 6, 3);
        #[rustfmt::skip]
        let want: [[[(u8, u8); 6]; 6]; 2] = [
            [
                [(100, 3), (100, 3), (100, 3), (100, 3), (100, 3), (100, 3)],
                [(100, 3), ( 79, 5), ( 79, 5), ( 79, 5), ( 80, 5), (100, 3)],
                [(100, 3), ( 80, 5), ( 44, 5), ( 45, 5), ( 81, 5), (100, 3)],
                [(100, 3), ( 82, 5), ( 49, 5), ( 49, 5), ( 83, 5), (100, 3)],
                [(100, 3), ( 83, 5), ( 84, 5), ( 84, 5), ( 84, 5), (100, 3)],
                [(100, 3), (100, 3), (100, 3), (100, 3), (100, 3), (100, 3)],
            ],
            [
                [(100, 3), (100, 3), (100, 3), (100, 3), (100, 3), (100, 3)],
                [(100, 3), (102, 5), (102, 5), (102, 5), (103, 5), (100, 3)],
                [(100, 3), (103, 5), (110, 5), (111, 5), (104, 5), (100, 3)],
                [(100, 3), (105, 5), (115, 5), (115, 5), (106, 5), (100, 3)],
                [(100, 3), (106, 5), (107, 5), (107, 5), (107, 5), (100, 3)],
                [(100, 3), (100, 3), (100, 3), (100, 3), (100, 3), (100, 3)],
            ],
        ];
        for (k, tile) in tiles.iter().enumerate() {
            for y in 0..6 {
                let got: Vec<(u8, u8)> =
                    (0..6).map(|x| ((tile[y * 6 + x] & 0xFF) as u8, (tile[y * 6 + x] >> 8) as u8)).collect();
                assert_eq!(got, want[k][y], "tile {k}, row {y}");
            }
        }
    }

    /// Equally common edge colours: the lower index is the border colour.
    #[test]
    fn fade_edges_ties_go_to_the_lower_colour() {
        let mut tiles = vec![vec![bank::texel(50, 6); 16], vec![bank::texel(60, 4); 16]];
        fade_edges(&mut tiles, 4, 1);
        // Heights 50 x 16 and 60 x 16: the upper middle is 60.
        assert_eq!(tiles[0][0], bank::texel(60, 4));
        assert_eq!(tiles[1][3], bank::texel(60, 4));
        // Inside the band of 1, untouched.
        assert_eq!(tiles[0][5], bank::texel(50, 6));
    }
}
