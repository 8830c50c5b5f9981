//! Minimum-error boundary cuts (image quilting, Efros and Freeman 2001): where
//! two overlapping patches meet, the seam follows the path along which they
//! differ least, so the join is hard to see.

/// The boundary of least total cost across a band: for each position `p` in
/// `0 .. len`, a depth `d(p)` in `lo ..= hi` (`d` moves by at most one from
/// one position to the next), minimising the sum of `cost(p, d(p))`. Returns
/// the depths and their total cost. Ties go to the smaller depth, so the
/// result is deterministic.
pub fn min_cut(len: usize, lo: usize, hi: usize, cost: impl Fn(usize, usize) -> f32) -> (Vec<usize>, f32) {
    assert!(lo <= hi && len > 0, "empty band");
    let n = hi - lo + 1;
    let mut total = vec![0f32; len * n];
    let mut from = vec![0u8; len * n];
    for (d, t) in total.iter_mut().take(n).enumerate() {
        *t = cost(0, lo + d);
    }
    for p in 1..len {
        for d in 0..n {
            // Best predecessor among d - 1, d, d + 1 (smaller depth first on ties).
            let mut best = (f32::INFINITY, 0u8);
            for (k, dd) in [d.wrapping_sub(1), d, d + 1].into_iter().enumerate() {
                if dd < n {
                    let t = total[(p - 1) * n + dd];
                    if t < best.0 {
                        best = (t, k as u8);
                    }
                }
            }
            total[p * n + d] = best.0 + cost(p, lo + d);
            from[p * n + d] = best.1;
        }
    }
    let last = &total[(len - 1) * n..];
    let mut d = 0;
    for k in 1..n {
        if last[k] < last[d] {
            d = k;
        }
    }
    let best = last[d];
    let mut path = vec![0usize; len];
    for p in (0..len).rev() {
        path[p] = lo + d;
        if p > 0 {
            d = match from[p * n + d] {
                0 => d - 1,
                1 => d,
                _ => d + 1,
            };
        }
    }
    (path, best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_follows_the_valley_of_least_cost() {
        // A cheap path at depth 2 for p < 5, depth 4 after: the cut follows it,
        // moving one step per position between.
        let cost = |p: usize, d: usize| {
            let want = if p < 5 { 2 } else { 4 };
            (d as f32 - want as f32).abs()
        };
        let (path, total) = min_cut(10, 1, 5, cost);
        assert_eq!(total, 1.0);
        assert_eq!(&path[..4], &[2; 4]);
        assert_eq!(&path[6..], &[4; 4]);
        for w in path.windows(2) {
            assert!(w[0].abs_diff(w[1]) <= 1);
        }
    }

    #[test]
    fn flat_cost_takes_the_smallest_depth() {
        let (path, total) = min_cut(4, 3, 6, |_, _| 1.0);
        assert_eq!(path, vec![3; 4]);
        assert_eq!(total, 4.0);
    }
}

/// A harmonic fill of a `w` x `h` grid: cells with `Some(v)` keep `v`; the
/// others take the value that makes the grid smooth (each the mean of its
/// existing neighbours; grid borders are free). Successive over-relaxation
/// from the mean of the fixed cells, a fixed number of sweeps, so the result
/// is deterministic. Used for gradient-domain joins (Perez et al. 2003):
/// an offset, harmonic inside, that brings a patch to its surroundings'
/// level along the seam while keeping the patch's own slopes.
pub fn harmonic(fixed: &[Option<f32>], w: usize, h: usize) -> Vec<f32> {
    let lanes: Vec<Option<[f32; 1]>> = fixed.iter().map(|f| f.map(|v| [v])).collect();
    harmonic_lanes(&lanes, w, h).into_iter().map(|[v]| v).collect()
}

/// [`harmonic`] of `L` grids that fix the same cells (a cell's `Some` holds
/// its value in each), in lockstep: each lane gets exactly the arithmetic
/// [`harmonic`] gives it alone, so the same values bit for bit, but the
/// lanes' chains of dependent adds run side by side (each cell waits on its
/// left neighbour's new value: alone, the sweep is bound by that latency).
/// (Over-relaxation never settles to the bit here, so no sweep can be
/// spared: the count is part of the result.)
pub fn harmonic_lanes<const L: usize>(fixed: &[Option<[f32; L]>], w: usize, h: usize) -> Vec<[f32; L]> {
    assert_eq!(fixed.len(), w * h, "a value or None per cell");
    let mut start = [0f32; L];
    let count = fixed.iter().flatten().count();
    for (k, lane) in start.iter_mut().enumerate() {
        // As `harmonic` alone: the lane's fixed values summed in order.
        *lane = if count == 0 { 0.0 } else { fixed.iter().flatten().map(|v| v[k]).sum::<f32>() / count as f32 };
    }
    let mut v: Vec<[f32; L]> = fixed.iter().map(|f| f.unwrap_or(start)).collect();
    if count == 0 {
        return v;
    }
    let free: Vec<bool> = fixed.iter().map(Option::is_none).collect();
    let sweeps = 4 * w.max(h) + 20;
    let omega = 1.85f32;
    for _ in 0..sweeps {
        for y in 0..h {
            let inner_row = y > 0 && y + 1 < h;
            for x in 0..w {
                let i = y * w + x;
                if !free[i] {
                    continue;
                }
                // Neighbours in `harmonic`'s order: left, right, up, down
                // (inside the grid all four, n = 4: the same sums).
                let mut s = [0f32; L];
                let n = if inner_row && x > 0 && x + 1 < w {
                    let (l, r, u, d) = (v[i - 1], v[i + 1], v[i - w], v[i + w]);
                    for k in 0..L {
                        s[k] = s[k] + l[k] + r[k] + u[k] + d[k];
                    }
                    4.0
                } else {
                    let mut n = 0f32;
                    for (j, there) in
                        [(i.wrapping_sub(1), x > 0), (i + 1, x + 1 < w), (i.wrapping_sub(w), y > 0), (i + w, y + 1 < h)]
                    {
                        if there {
                            for k in 0..L {
                                s[k] += v[j][k];
                            }
                            n += 1.0;
                        }
                    }
                    n
                };
                let cell = &mut v[i];
                for k in 0..L {
                    cell[k] += omega * (s[k] / n - cell[k]);
                }
            }
        }
    }
    v
}

#[cfg(test)]
mod harmonic_tests {
    use super::{harmonic, harmonic_lanes};

    /// The plain over-relaxation, cell by cell with each neighbour tested
    /// (as `harmonic` was written before its lanes): the oracle.
    fn plain(fixed: &[Option<f32>], w: usize, h: usize) -> Vec<f32> {
        let known: Vec<f32> = fixed.iter().flatten().copied().collect();
        let start = if known.is_empty() { 0.0 } else { known.iter().sum::<f32>() / known.len() as f32 };
        let mut v: Vec<f32> = fixed.iter().map(|f| f.unwrap_or(start)).collect();
        for _ in 0..4 * w.max(h) + 20 {
            for y in 0..h {
                for x in 0..w {
                    let i = y * w + x;
                    if fixed[i].is_some() {
                        continue;
                    }
                    let (mut s, mut n) = (0f32, 0f32);
                    for (j, there) in [(i.wrapping_sub(1), x > 0), (i + 1, x + 1 < w), (i.wrapping_sub(w), y > 0)] {
                        if there {
                            s += v[j];
                            n += 1.0;
                        }
                    }
                    if y + 1 < h {
                        s += v[i + w];
                        n += 1.0;
                    }
                    v[i] += 1.85 * (s / n - v[i]);
                }
            }
        }
        v
    }

    /// Four lanes in lockstep give each lane exactly (to the bit) what the
    /// plain fill gives it alone, and so does `harmonic`: the banks must not
    /// change with the speed-up. Both paths of a cell: inside (four
    /// neighbours) and on a free grid border (the edge strips' fills).
    #[test]
    fn lanes_are_each_the_lone_fill_to_the_bit() {
        let (w, h) = (13, 9);
        for ring in [true, false] {
            // An uneven frame: a few inner cells fixed, and the outer ring
            // fixed or free.
            let is_fixed = |x: usize, y: usize| {
                (ring && (x == 0 || y == 0 || x == w - 1 || y == h - 1)) || (x * 7 + y * 3).is_multiple_of(11)
            };
            let value = |k: usize, x: usize, y: usize| ((x * 31 + y * 17 + k * 5) % 23) as f32 * 0.37 - 3.0 * k as f32;
            let lanes: Vec<Option<[f32; 4]>> = (0..w * h)
                .map(|i| is_fixed(i % w, i / w).then(|| core::array::from_fn(|k| value(k, i % w, i / w))))
                .collect();
            let together = harmonic_lanes(&lanes, w, h);
            for k in 0..4 {
                let fixed: Vec<Option<f32>> = lanes.iter().map(|c| c.map(|v| v[k])).collect();
                let (alone, oracle) = (harmonic(&fixed, w, h), plain(&fixed, w, h));
                for i in 0..w * h {
                    assert_eq!(together[i][k].to_bits(), oracle[i].to_bits(), "ring {ring}, lane {k}, cell {i}");
                    assert_eq!(alone[i].to_bits(), oracle[i].to_bits(), "ring {ring}, alone, lane {k}, cell {i}");
                }
            }
        }
        // No fixed cell: every lane at 0, as alone.
        assert!(harmonic_lanes(&[None::<[f32; 2]>; 6], 3, 2).iter().all(|v| *v == [0.0; 2]));
    }

    /// Free grid borders: past the last fixed column the fill stays at its
    /// level (each free cell the mean of its neighbours), on every side.
    #[test]
    fn free_borders_keep_the_level_of_the_last_fixed_cells() {
        let (w, h) = (7, 3);
        for flip in [false, true] {
            let at = |x: usize, y: usize| if flip { (w - 1 - x) + y * w } else { x + y * w };
            let mut fixed = vec![None; w * h];
            for y in 0..h {
                fixed[at(1, y)] = Some(0.0);
                fixed[at(4, y)] = Some(3.0);
            }
            let v = harmonic(&fixed, w, h);
            for y in 0..h {
                for (x, want) in [(0, 0.0), (2, 1.0), (3, 2.0), (5, 3.0), (6, 3.0)] {
                    assert!((v[at(x, y)] - want).abs() < 0.01, "flip {flip}, ({x}, {y}): {}", v[at(x, y)]);
                }
            }
        }
    }

    #[test]
    fn harmonic_fill_is_linear_between_two_fixed_sides() {
        let (w, h) = (9, 4);
        let fixed: Vec<Option<f32>> = (0..w * h)
            .map(|i| match i % w {
                0 => Some(0.0),
                8 => Some(8.0),
                _ => None,
            })
            .collect();
        let v = harmonic(&fixed, w, h);
        for y in 0..h {
            for x in 0..w {
                assert!((v[y * w + x] - x as f32).abs() < 0.01, "({x}, {y}): {}", v[y * w + x]);
            }
        }
    }
}
