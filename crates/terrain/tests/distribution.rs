//! Tile placement statistics over whole (wrapping) worlds.
//!
//! Bounds, and why:
//! - Every tile is used.
//! - Shares: chi-square over the world divided by the tile count N,
//!   chi2 / N = T * sum_i (p_i - 1/T)^2, is the mean squared relative
//!   deviation of the shares. A classical chi-square test does not apply (the
//!   map is a deterministic function of G^2 grid values and the table, and
//!   neighbouring tiles are correlated), so the bound is on the effect size:
//!   the table gives each tile the same number of entries (1024 / T), and
//!   interpolated values cluster mid-range, so a tile's share is a sum of
//!   1024 / T unequal masses: its relative spread is about cv / sqrt(1024 / T).
//!   For T = 16 that is ~0.1; we require RMS <= 0.2 (chi2 / N <= 0.04) and no
//!   tile more than 50% away from even, for every one of 20 seeds.
//! - Periodicity: P(tile(x) == tile(x + lag)) for lag 1..W/2, along x and y.
//!   Independent placement gives 1/T; adjacent tiles inside a cell share grid
//!   values, so lag 1 may be a little higher. We require <= 1.5/T at lag 1
//!   and <= 1.2/T beyond, which a repeat at any period below the world's
//!   (a peak at the cell size, say) would break.

use terrain::{World, WorldParams};

fn shares(world: &World) -> Vec<u64> {
    let n = world.size_tiles();
    let mut counts = vec![0u64; world.params().tile_count as usize];
    for y in 0..n {
        for x in 0..n {
            counts[world.tile_at(x, y) as usize] += 1;
        }
    }
    counts
}

#[test]
fn every_tile_used_and_shares_near_even() {
    for params in [WorldParams::DEFAULT, WorldParams { grid_log2: 3, spacing_log2: 5, tile_count: 7 }] {
        for seed in 0..20 {
            let w = World::new(seed, params).unwrap();
            let counts = shares(&w);
            let total: u64 = counts.iter().sum();
            let t = counts.len() as f64;
            let exp = total as f64 / t;
            assert!(counts.iter().all(|c| *c > 0), "seed {seed}: unused tile in {counts:?}");
            let chi_per_n: f64 = counts.iter().map(|c| (*c as f64 - exp).powi(2) / exp).sum::<f64>() / total as f64;
            assert!(chi_per_n <= 0.04, "seed {seed} {params:?}: chi2/N = {chi_per_n:.4}");
            let worst = counts.iter().map(|c| (*c as f64 / exp - 1.0).abs()).fold(0.0, f64::max);
            assert!(worst <= 0.5, "seed {seed} {params:?}: a tile is {:.0}% off even", worst * 100.0);
        }
    }
}

#[test]
fn no_periodicity_below_the_world_period() {
    for seed in [1u32, 2, 3] {
        let w = World::new(seed, WorldParams::DEFAULT).unwrap();
        let n = w.size_tiles();
        let t = w.params().tile_count as f64;
        for lag in 1..n / 2 {
            let (mut sx, mut sy) = (0u32, 0u32);
            for y in 0..n {
                for x in 0..n {
                    let here = w.tile_at(x, y);
                    sx += (here == w.tile_at(x + lag, y)) as u32;
                    sy += (here == w.tile_at(x, y + lag)) as u32;
                }
            }
            let bound = if lag == 1 { 1.5 / t } else { 1.2 / t };
            for (axis, same) in [("x", sx), ("y", sy)] {
                let p = same as f64 / (n * n) as f64;
                assert!(p <= bound, "seed {seed}: p(same) at lag {lag} along {axis} is {p:.4} > {bound:.4}");
            }
        }
    }
}
