//! The top-down map (SELECT twice): the land round the camera in the bank's
//! own colours (each map pixel a texel of its tile, water as water), the
//! camera as an arrow along its heading with the edges of its field of view,
//! and a scale bar.
//!
//! The map shows the [`TILES`] x [`TILES`] tiles at the centre of the tile
//! window, [`PX`] x [`PX`] pixels a tile, so its grid moves a tile at a time
//! as the window follows the camera; the arrow moves smoothly within it.

use crate::text::TextWriter;
use crate::video::Page;
use core::fmt::Write;
use gba::mem::copy_u32x8_unchecked;
use voxel::palette::{terrain, ui};
use voxel::projection::VIEW_DISTANCE;
use voxel::{Camera, Scene, trig};

/// Map pixels a tile side.
pub const PX: usize = 4;
/// Tiles a map side.
pub const TILES: usize = 32;
/// Map side, pixels.
pub const SIDE: usize = PX * TILES;
/// Tiles of the scale bar.
pub const SCALE_TILES: usize = 8;

/// The map's first tile (world tiles): the window's centre tiles.
fn first_tile<const N: usize>(scene: &Scene<'_, N>) -> (usize, usize) {
    let (ox, oy) = scene.window().origin();
    (ox as usize + (N - TILES) / 2, oy as usize + (N - TILES) / 2)
}

/// The map's land ([`SIDE`] x [`SIDE`] palette indices, 16 KB: put it in
/// EWRAM), drawn again only when the window has moved or the world changed,
/// and copied onto the page every frame. A move of one tile each way (the
/// window following the camera) shifts the land drawn and draws only the
/// tiles that come in (a row and a column of 32, against 1,024 for the whole
/// land: the frame that draws them stays within a screen refresh).
pub struct Land {
    /// The window origin (tiles) and world seed it was drawn for.
    drawn: Option<(u32, u32, u32)>,
    rows: [[u32; SIDE / 4]; SIDE],
}

impl Land {
    /// Nothing drawn yet.
    pub const fn new() -> Self {
        Land { drawn: None, rows: [[0; SIDE / 4]; SIDE] }
    }

    /// Draws the land of `scene`'s window centre if it is not the one drawn
    /// last (`seed`: the world's): after a move of at most one tile each
    /// way in the same world, only the tiles that came in.
    #[inline(never)] // apart from the frame loop's code (inlined, it slowed the flight's)
    fn update<const N: usize>(&mut self, scene: &Scene<'_, N>, seed: u32) {
        let (ox, oy) = scene.window().origin();
        if self.drawn == Some((ox, oy, seed)) {
            return;
        }
        let m = (scene.world_px() >> scene.tile_px_log2()) - 1;
        let step = |d: u32| match d & m {
            0 => Some(0),
            1 => Some(1),
            d if d == m => Some(-1),
            _ => None,
        };
        let moved = match self.drawn {
            Some((x, y, s)) if s == seed => step(ox.wrapping_sub(x)).zip(step(oy.wrapping_sub(y))),
            _ => None,
        };
        let last = TILES - 1;
        match moved {
            Some((dx, dy)) => {
                // The land drawn moves the other way; the tiles that come in
                // are drawn at the edge it leaves.
                if dx != 0 {
                    // A loop, not 128 copies of it (ROM is plenty, not that plenty).
                    for y in 0..core::hint::black_box(SIDE) {
                        let r = &mut self.rows[y % SIDE];
                        if dx > 0 { r.copy_within(1.., 0) } else { r.copy_within(..last, 1) }
                    }
                }
                match dy {
                    1 => self.rows.copy_within(PX.., 0),
                    -1 => self.rows.copy_within(..SIDE - PX, PX),
                    _ => {}
                }
                for k in 0..TILES {
                    match dx {
                        1 => self.draw_tile(scene, last, k),
                        -1 => self.draw_tile(scene, 0, k),
                        _ => {}
                    }
                    match dy {
                        1 => self.draw_tile(scene, k, last),
                        -1 => self.draw_tile(scene, k, 0),
                        _ => {}
                    }
                }
            }
            None => {
                for j in 0..TILES {
                    for i in 0..TILES {
                        self.draw_tile(scene, i, j);
                    }
                }
            }
        }
        self.drawn = Some((ox, oy, seed));
    }

    /// Draws map tile (`i`, `j`) (tiles from the map's first, [`first_tile`]):
    /// its PX x PX map pixels, each the colour of the texel at its centre.
    fn draw_tile<const N: usize>(&mut self, scene: &Scene<'_, N>, i: usize, j: usize) {
        let (mx, my) = first_tile(scene);
        let side = 1u32 << scene.tile_log2();
        // Texel of each of a tile's PX map pixels along a side (their
        // centres), as byte offsets in the tile: rows and columns.
        let texel = |k: usize| 2 * (((2 * k as u32 + 1) * side) / (2 * PX as u32)) as usize;
        let tile = scene.tile_texel_address(scene.window().ring_row(my + j)[(mx + i) & (N - 1)], 0, 0);
        for v in 0..PX {
            let mut word = 0u32;
            for u in 0..PX {
                // A texel's colour index (its high byte) at fog level 0.
                // SAFETY: `tile_texel_address` vouches for the tile's texels;
                // the offset (row v's texel, then column u's) is inside it.
                let texel = unsafe { *((tile + texel(v) * side as usize + texel(u)) as *const u16) };
                word |= (terrain((texel >> 8) as u8, 0) as u32) << (8 * u);
            }
            self.rows[(j * PX + v) % SIDE][i % (SIDE / 4)] = word;
        }
    }
}

impl Default for Land {
    fn default() -> Self {
        Self::new()
    }
}

const _: () = assert!(
    PX == 4 && SIDE.is_multiple_of(32),
    "a map tile's row of pixels is one word; a map row whole blocks of 8 words"
);

/// Draws the map of `scene` round `camera` with its top-left corner at pixel
/// (`x0`, `y0`) (`x0` a multiple of 4; the map and its scale bar, 20 rows below
/// it, must fit on the screen); the window must cover at least [`TILES`] tiles
/// round the camera's. The land comes from `land`, drawn again first if the
/// window moved or the world (`seed`) changed.
pub fn draw<const N: usize>(
    page: Page,
    land: &mut Land,
    scene: &Scene<'_, N>,
    seed: u32,
    camera: &Camera,
    x0: usize,
    y0: usize,
) {
    assert!(x0.is_multiple_of(4) && x0 + SIDE <= crate::video::WIDTH && y0 + SIDE + 20 <= crate::video::HEIGHT);
    assert!(N >= TILES);
    land.update(scene, seed);
    let (mx, my) = first_tile(scene);
    let base = page.as_ptr() as usize;
    for (y, row) in land.rows.iter().enumerate() {
        let at = base + (y0 + y) * crate::video::WIDTH + x0;
        // SAFETY: a row of the map's area of the page (checked above: x0 a
        // multiple of 4, the map fits), word aligned; `row` is SIDE bytes,
        // word aligned, apart from the page.
        unsafe { copy_u32x8_unchecked(at as *mut [u32; 8], row.as_ptr().cast(), SIDE / 32) };
    }
    // The camera: where it is on the map, in 24.8 map pixels.
    let tpl = scene.tile_px_log2();
    let wmask = (scene.world_px() << 8) - 1;
    let rel = |c: u32, first: usize| -> i32 {
        let first_px = ((first as u32) << tpl << 8) & wmask;
        (((c.wrapping_sub(first_px) & wmask) as u64 * PX as u64) >> tpl) as i32
    };
    let (cx, cy) = (rel(camera.x, mx) + ((x0 as i32) << 8), rel(camera.y, my) + ((y0 as i32) << 8));
    let clip = (x0 as i32, y0 as i32, (x0 + SIDE) as i32, (y0 + SIDE) as i32);
    // The field of view's edges (90 degrees), as long as the view distance.
    let reach = ((VIEW_DISTANCE as usize * PX) >> tpl) as i32;
    for edge in [camera.heading.wrapping_sub(8192), camera.heading.wrapping_add(8192)] {
        line(page, cx, cy, edge, reach, ui::BOUNDARY, clip);
    }
    arrow(page, cx, cy, camera.heading, clip);
    // The scale bar: SCALE_TILES tiles, with ends, and its length in world pixels.
    let (bx, by) = (x0, y0 + SIDE + 8);
    page.fill_rect(bx, by + 2, SCALE_TILES * PX, 2, ui::WHITE);
    page.fill_rect(bx, by, 1, 6, ui::WHITE);
    page.fill_rect(bx + SCALE_TILES * PX - 1, by, 1, 6, ui::WHITE);
    let mut w = TextWriter::new(page, (bx + SCALE_TILES * PX) / 8 + 1, by / 8, ui::WHITE, ui::GREY);
    let _ = write!(w, "{} PX", SCALE_TILES << tpl);
}

/// Sets pixel (`x`, `y`) if inside `clip` (x0, y0, x1, y1).
fn dot(page: Page, x: i32, y: i32, c: u8, clip: (i32, i32, i32, i32)) {
    if x >= clip.0 && y >= clip.1 && x < clip.2 && y < clip.3 {
        page.set(x as usize, y as usize, c);
    }
}

/// A line of `len` pixels from (`x`, `y`) (24.8) along `angle`.
fn line(page: Page, x: i32, y: i32, angle: u16, len: i32, c: u8, clip: (i32, i32, i32, i32)) {
    let (dx, dy) = (trig::cos(angle), trig::sin(angle));
    // Half-pixel steps, so the line has no gaps at any angle.
    for t in 0..2 * len {
        dot(page, (x + ((dx * t) >> 7)) >> 8, (y + ((dy * t) >> 7)) >> 8, c, clip);
    }
}

/// The camera: a white arrowhead 12 pixels long along `heading`, outlined
/// in black, its centre at (`x`, `y`) (24.8).
fn arrow(page: Page, x: i32, y: i32, heading: u16, clip: (i32, i32, i32, i32)) {
    let (c, s) = (trig::cos(heading), trig::sin(heading));
    // A point of the arrow's frame (forward f, right r, pixels), scaled by
    // `k` sixteenths, in 24.8 screen coordinates: forward = (c, s), right =
    // (-s, c), 2.14 trig.
    let at = |f: i32, r: i32, k: i32| -> (i32, i32) {
        (x + (((c * f - s * r) * k) >> 10), y + (((s * f + c * r) * k) >> 10))
    };
    for (k, colour) in [(22, ui::BLACK), (16, ui::WHITE)] {
        // The arrowhead: tip, back corners, and the notch between them, as
        // two triangles.
        let (tip, left, notch, right) = (at(7, 0, k), at(-5, -5, k), at(-2, 0, k), at(-5, 5, k));
        for t in [[tip, left, notch], [tip, notch, right]] {
            let lo_x = t.iter().map(|q| q.0).min().unwrap_or(0) >> 8;
            let hi_x = t.iter().map(|q| q.0).max().unwrap_or(0) >> 8;
            let lo_y = t.iter().map(|q| q.1).min().unwrap_or(0) >> 8;
            let hi_y = t.iter().map(|q| q.1).max().unwrap_or(0) >> 8;
            for py in lo_y..=hi_y {
                for px in lo_x..=hi_x {
                    // The pixel's centre inside all three edges (either winding).
                    let (qx, qy) = ((px << 8) + 128, (py << 8) + 128);
                    // (Within a few pixels of each other: the products fit an i32.)
                    let side =
                        |a: (i32, i32), b: (i32, i32)| -> i32 { (b.0 - a.0) * (qy - a.1) - (b.1 - a.1) * (qx - a.0) };
                    let (e0, e1, e2) = (side(t[0], t[1]), side(t[1], t[2]), side(t[2], t[0]));
                    if (e0 >= 0 && e1 >= 0 && e2 >= 0) || (e0 <= 0 && e1 <= 0 && e2 <= 0) {
                        dot(page, px, py, colour, clip);
                    }
                }
            }
        }
    }
}
