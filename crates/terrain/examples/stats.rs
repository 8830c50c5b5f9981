//! Prints tile-share and neighbour statistics of seeded worlds (used to choose
//! the bounds in tests/distribution.rs).
use terrain::{World, WorldParams};

fn main() {
    for params in [
        WorldParams::DEFAULT,
        WorldParams { grid_log2: 6, spacing_log2: 4, tile_count: 16 },
        WorldParams { grid_log2: 4, spacing_log2: 3, tile_count: 64 },
        WorldParams { grid_log2: 3, spacing_log2: 5, tile_count: 7 },
    ] {
        let mut worst_dev: f64 = 0.0;
        let mut worst_chi: f64 = 0.0;
        let mut same: Vec<f64> = vec![0.0; 40];
        let seeds = 50;
        for seed in 0..seeds {
            let w = World::new(seed, params).unwrap();
            let n = w.size_tiles();
            let t = params.tile_count as usize;
            let mut counts = vec![0u64; t];
            for y in 0..n {
                for x in 0..n {
                    counts[w.tile_at(x, y) as usize] += 1;
                }
            }
            let total = (n * n) as f64;
            let exp = total / t as f64;
            let chi: f64 = counts.iter().map(|c| (*c as f64 - exp).powi(2) / exp).sum::<f64>() / total;
            worst_chi = worst_chi.max(chi);
            for c in &counts {
                worst_dev = worst_dev.max((*c as f64 / exp - 1.0).abs());
            }
            for lag in 1..40u32 {
                let mut s = 0u64;
                for y in 0..n {
                    for x in 0..n {
                        if w.tile_at(x, y) == w.tile_at(x + lag, y) {
                            s += 1;
                        }
                    }
                }
                same[lag as usize] += s as f64 / total / seeds as f64;
            }
        }
        println!(
            "{params:?}: worst share deviation {worst_dev:.3}, worst chi2/N {worst_chi:.4}, 1/T = {:.4}",
            1.0 / params.tile_count as f64
        );
        let s: Vec<String> = (1..40).map(|l| format!("{:.3}", same[l])).collect();
        println!("  p(same) by lag: {}", s.join(" "));
    }
}
