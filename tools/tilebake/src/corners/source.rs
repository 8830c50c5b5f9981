//! The source pairs as the corner construction reads them: heights (height
//! units, 0..=255 with fractions), palette indices, and the *field*: the
//! heights smoothed over about a tile, sampled at texel corners (vertices),
//! whose quantiles give each source vertex its class.
//!
//! A [`Place`] is a window on a source with one of the eight orientations
//! (rotations and flips: the construction's only flips, paid for at bake time).

/// One source pair, decoded and quantised.
pub struct Source {
    /// Side lengths, in texels.
    pub w: i32,
    pub h: i32,
    /// Heights, row-major.
    pub height: Vec<f32>,
    /// Palette indices, row-major.
    pub colour: Vec<u8>,
    /// The field at each vertex ((w + 1) x (h + 1), row-major): the mean
    /// height of the `2 * radius` square of texels around it (clipped).
    pub field: Vec<f32>,
    /// Summed-area table of the heights ((w + 1) x (h + 1)).
    sat: Vec<f64>,
    /// Summed-area table of each texel's slope (|step right| + |step down|).
    slope: Vec<f64>,
}

impl Source {
    /// A source of `w` x `h` texels, with the field smoothed over `radius` texels.
    pub fn new(w: i32, h: i32, height: Vec<f32>, colour: Vec<u8>, radius: i32) -> Source {
        let (wu, hu) = (w as usize, h as usize);
        // Summed-area table of the heights.
        let mut sat = vec![0f64; (wu + 1) * (hu + 1)];
        for y in 0..hu {
            let mut row = 0f64;
            for x in 0..wu {
                row += height[y * wu + x] as f64;
                sat[(y + 1) * (wu + 1) + x + 1] = sat[y * (wu + 1) + x + 1] + row;
            }
        }
        let mut field = vec![0f32; (wu + 1) * (hu + 1)];
        for vy in 0..=h {
            for vx in 0..=w {
                let (x0, x1) = ((vx - radius).max(0) as usize, (vx + radius).min(w) as usize);
                let (y0, y1) = ((vy - radius).max(0) as usize, (vy + radius).min(h) as usize);
                let s = sat[y1 * (wu + 1) + x1] - sat[y0 * (wu + 1) + x1] - sat[y1 * (wu + 1) + x0]
                    + sat[y0 * (wu + 1) + x0];
                let n = ((x1 - x0) * (y1 - y0)).max(1) as f64;
                field[vy as usize * (wu + 1) + vx as usize] = (s / n) as f32;
            }
        }
        let mut slope = vec![0f64; (wu + 1) * (hu + 1)];
        for y in 0..hu {
            let mut row = 0f64;
            for x in 0..wu {
                let here = height[y * wu + x];
                let right = if x + 1 < wu { (height[y * wu + x + 1] - here).abs() } else { 0.0 };
                let down = if y + 1 < hu { (height[(y + 1) * wu + x] - here).abs() } else { 0.0 };
                row += (right + down) as f64;
                slope[(y + 1) * (wu + 1) + x + 1] = slope[y * (wu + 1) + x + 1] + row;
            }
        }
        Source { w, h, height, colour, field, sat, slope }
    }

    /// Mean slope (|step right| + |step down|) of the texels `x0 .. x1` x `y0 .. y1`.
    pub fn mean_slope(&self, (x0, y0, x1, y1): (i32, i32, i32, i32)) -> f32 {
        let w = self.w as usize + 1;
        let at = |x: i32, y: i32| self.slope[y as usize * w + x as usize];
        let s = at(x1, y1) - at(x0, y1) - at(x1, y0) + at(x0, y0);
        (s / ((x1 - x0) * (y1 - y0)) as f64) as f32
    }

    /// Mean height of the texels `x0 .. x1` x `y0 .. y1` (inside, non-empty).
    pub fn mean(&self, (x0, y0, x1, y1): (i32, i32, i32, i32)) -> f32 {
        let w = self.w as usize + 1;
        let at = |x: i32, y: i32| self.sat[y as usize * w + x as usize];
        let s = at(x1, y1) - at(x0, y1) - at(x1, y0) + at(x0, y0);
        (s / ((x1 - x0) * (y1 - y0)) as f64) as f32
    }

    /// Texel (`x`, `y`): (height, colour index). Must be inside.
    pub fn texel(&self, x: i32, y: i32) -> (f32, u8) {
        let i = (y * self.w + x) as usize;
        (self.height[i], self.colour[i])
    }

    /// The field at vertex (`x`, `y`). Must be inside (0..=w, 0..=h).
    pub fn field_at(&self, x: i32, y: i32) -> f32 {
        self.field[(y * (self.w + 1) + x) as usize]
    }
}

/// A window on a source: vertex (`x`, `y`) is the window's origin, and
/// `orient` (0..8) turns and flips it: bit 0 swaps the axes, bit 1 mirrors
/// x, bit 2 mirrors y (after the swap).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    pub src: usize,
    pub x: i32,
    pub y: i32,
    pub orient: u8,
}

impl Place {
    /// The source offset of vertex offset (`u`, `v`).
    pub fn vertex(&self, u: i32, v: i32) -> (i32, i32) {
        let (a, b) = if self.orient & 1 != 0 { (v, u) } else { (u, v) };
        let a = if self.orient & 2 != 0 { -a } else { a };
        let b = if self.orient & 4 != 0 { -b } else { b };
        (self.x + a, self.y + b)
    }

    /// The source texel of texel offset (`u`, `v`) (texel (0, 0) lies right
    /// and below the origin vertex).
    pub fn texel(&self, u: i32, v: i32) -> (i32, i32) {
        let (a, b) = if self.orient & 1 != 0 { (v, u) } else { (u, v) };
        let a = if self.orient & 2 != 0 { -1 - a } else { a };
        let b = if self.orient & 4 != 0 { -1 - b } else { b };
        (self.x + a, self.y + b)
    }

    /// True if texel offsets `u0 .. u1` x `v0 .. v1` all lie inside `src`.
    pub fn fits(&self, src: &Source, u0: i32, u1: i32, v0: i32, v1: i32) -> bool {
        let (ax, ay) = self.texel(u0, v0);
        let (bx, by) = self.texel(u1 - 1, v1 - 1);
        let (x0, x1, y0, y1) = (ax.min(bx), ax.max(bx), ay.min(by), ay.max(by));
        x0 >= 0 && y0 >= 0 && x1 < src.w && y1 < src.h
    }

    /// The source rectangle (x0, y0, x1, y1), exclusive ends, of texel offsets
    /// `u0 .. u1` x `v0 .. v1`.
    pub fn rect(&self, u0: i32, u1: i32, v0: i32, v1: i32) -> (i32, i32, i32, i32) {
        let (ax, ay) = self.texel(u0, v0);
        let (bx, by) = self.texel(u1 - 1, v1 - 1);
        (ax.min(bx), ay.min(by), ax.max(bx) + 1, ay.max(by) + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orientations_are_the_eight_symmetries() {
        let mut seen = std::collections::HashSet::new();
        for orient in 0..8 {
            let p = Place { src: 0, x: 10, y: 10, orient };
            // Texel (0, 0) touches the origin vertex; the window's far vertex
            // is the far corner of texel (3, 3).
            let (tx, ty) = p.texel(0, 0);
            assert!((tx == 10 || tx == 9) && (ty == 10 || ty == 9));
            let (fx, fy) = p.vertex(4, 4);
            let (lx, ly) = p.texel(3, 3);
            assert!(fx == lx || fx == lx + 1);
            assert!(fy == ly || fy == ly + 1);
            seen.insert((p.texel(1, 0), p.texel(0, 1)));
        }
        assert_eq!(seen.len(), 8);
    }

    #[test]
    fn field_is_the_local_mean() {
        let h: Vec<f32> = (0..16).map(|i| (i % 4) as f32).collect();
        let s = Source::new(4, 4, h, vec![0; 16], 1);
        // Around vertex (2, 2): texels x 1..3 -> heights 1, 2.
        assert_eq!(s.field_at(2, 2), 1.5);
        assert_eq!(s.field_at(0, 0), 0.0);
    }
}
