//! The window fills' in-ROM check, shared by the two kernel ROMs
//! (`kernels`, 64-tile windows; `window_kernels`, 16-tile ones: each window
//! size brings its own copy of the fills' IWRAM code, and one ROM with both
//! left no IWRAM to spare): random worlds of both placements, random walks,
//! jumps and new worlds; after every move each reference equals
//! `World::tile_at`, the portable lookup, and so does a random line of
//! `Window::line` (ring copies, the corner walker, the line walker into a
//! buffer).

use bank::{CONFIGS, ConfigTiles, Corners, Placement};
use terrain::rng::Rng;
use terrain::{Window, World, WorldParams};
use terrain_rom::log;

/// Corner placement with two classes (no band to respect at any spacing),
/// or three (`three`: thresholds 60 and 200, for spacings of 4 tiles and
/// more): configuration `c` owns tiles `c % 31 * 8 ..`, eight of them.
fn corners(threshold: u8, three: bool) -> Placement {
    let mut configs = [ConfigTiles::default(); CONFIGS];
    for (c, e) in configs.iter_mut().enumerate() {
        *e = ConfigTiles { first: (c % 31 * 8) as u8, count: bank::COMBINATIONS };
    }
    let (classes, thresholds) = if three { (3, [60, 200, 0]) } else { (2, [threshold.max(1), 0, 0]) };
    Placement::Corners(Corners { classes, thresholds, configs })
}

/// The first tile of the 100-tile row from (`x`, `y`), by the world's walk,
/// that differs from the lookup, if any.
fn first_difference(world: &World, x: u32, y: u32) -> Option<usize> {
    let mut row = [0u8; LINE];
    world.fill_row(x, y, &mut row);
    (0..LINE).find(|&i| row[i] != world.tile_at(x.wrapping_add(i as u32), y))
}

/// The first reference of `window` that differs from the lookup, if any.
fn differs<const N: usize>(window: &Window<N>, world: &World) -> Option<(u32, u32, u8, u8)> {
    let (ox, oy) = window.origin();
    for j in 0..N as u32 {
        for i in 0..N as u32 {
            let (x, y) = (ox + i, oy + j);
            let (got, want) = (window.get(x, y), world.tile_at(x, y));
            if got != want {
                return Some((x, y, got, want));
            }
        }
    }
    None
}

/// Random walks of a window over random worlds; returns the moves checked,
/// or `None` after logging the first failure.
pub fn windows<const N: usize>(rng: &mut Rng, world: &mut World, window: &mut Window<N>, worlds: u32) -> Option<u32> {
    let mut moves = 0;
    for w in 0..worlds {
        // A world at least as wide as the window (`recenter`'s contract).
        let grid_log2 = 2 + (rng.next_u32() % 3) as u8;
        let min_spacing = (N.trailing_zeros() as u8).saturating_sub(grid_log2).max(1);
        let params = WorldParams {
            grid_log2,
            spacing_log2: (min_spacing + (rng.next_u32() % 4) as u8).min(7),
            tile_count: 1 + (rng.next_u32() % 256) as u16,
        };
        let placement = match w % 4 {
            0 | 2 => Placement::Paper,
            1 => corners(rng.next_u32() as u8, false),
            _ => corners(0, params.spacing_log2 >= 2),
        };
        world.set_placement(params, &placement).ok()?;
        // Switched to corners, not made yet: the walkers read the old table
        // as vertex entries (the lookup's).
        if let Some(i) = first_difference(world, rng.next_u32(), rng.next_u32()) {
            log!("kernels: window {} FAILED: placement set, not regenerated: tile {} of a row differs", N, i);
            return None;
        }
        let seed = rng.next_u32();
        world.regenerate(seed, params).ok()?;
        window.invalidate();
        let (mut x, mut y) = (rng.next_u32(), rng.next_u32());
        for _ in 0..12 {
            let r = rng.next_u32();
            if r.is_multiple_of(8) {
                (x, y) = (rng.next_u32(), rng.next_u32());
            } else {
                x = x.wrapping_add((r >> 8) % 7).wrapping_sub(3);
                y = y.wrapping_add((r >> 16) % 7).wrapping_sub(3);
            }
            window.recenter(world, x, y);
            moves += 1;
            if let Some((tx, ty, got, want)) = differs(window, world) {
                log!(
                    "kernels: window {} FAILED: world seed={:#x} {:?} placement corners={}: tile ({}, {}) is {} in the window, {} by the lookup",
                    N,
                    seed,
                    params,
                    world.is_corners(),
                    tx,
                    ty,
                    got,
                    want
                );
                return None;
            }
            // A line from near the window, in or out of it: `Window::line`
            // (the ring, the corner walker, or the line walker on a byte
            // buffer) against the lookup.
            let r = rng.next_u32();
            let (down, len) = (r & 1 == 1, 1 + (r >> 1) as usize % LINE);
            let lx = x.wrapping_add((r >> 8) % (2 * N as u32)).wrapping_sub(N as u32);
            let ly = y.wrapping_add((r >> 20) % (2 * N as u32)).wrapping_sub(N as u32);
            let mut line = [0u8; LINE];
            window.line(world, lx, ly, down, &mut line[..len]);
            for (i, &got) in line[..len].iter().enumerate() {
                let (tx, ty) = if down { (lx, ly.wrapping_add(i as u32)) } else { (lx.wrapping_add(i as u32), ly) };
                let want = world.tile_at(tx, ty);
                if got != want {
                    log!(
                        "kernels: line {} FAILED: world seed={:#x} {:?} placement corners={}: tile {} of the {}-tile line from ({}, {}) down={} is {}, {} by the lookup",
                        N,
                        seed,
                        params,
                        world.is_corners(),
                        i,
                        len,
                        lx,
                        ly,
                        down,
                        got,
                        want
                    );
                    return None;
                }
            }
        }
    }
    Some(moves)
}

/// Longest line checked (a little more than a 64-wide window).
const LINE: usize = 100;
