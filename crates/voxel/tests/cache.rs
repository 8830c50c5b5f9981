//! The texel cache, pinned: what each follow writes (counts), when it
//! rebuilds, and that every entry of both rings' windows is the world's
//! texel after moves in each direction, across the world's edge and after
//! jumps.

use terrain::{Window, World};
use voxel::cache::{
    CacheUpdate, FAR, FAR_AHEAD, FAR_RADIUS, FAR_REACH, NEAR, NEAR_AHEAD, NEAR_RADIUS, NEAR_REACH, TexelCache, centre,
};
use voxel::{Camera, Landscape, Parts};

/// A bank of 4 tiles of `n` texels, every texel distinct within its tile
/// and from the other tiles' (height and colour from its coordinates).
fn bank_bytes(n: u32) -> Vec<u8> {
    let mut texels = Vec::new();
    for t in 0..4u32 {
        for y in 0..n {
            for x in 0..n {
                texels.push(bank::texel(((x + 3 * y + 60 * t) % 256) as u8, ((y / 4 + t) % 5) as u8));
            }
        }
    }
    bank::encode(&bank::Contents {
        tile_size: n as u16,
        palette: &[0x03E0, 0x7C00, 0x001F, 0x7FFF, 0x0200],
        tiles: &texels,
        placement: bank::Placement::Paper,
        height_scale: bank::HEIGHT_SCALE_ONE,
    })
    .unwrap()
}

#[derive(Default)]
struct Memory {
    world: Box<World>,
    window: Box<Window<64>>,
    cache: Box<TexelCache>,
}

impl Memory {
    fn land<'a>(&'a mut self, bytes: &'a [u8]) -> Landscape<'a, 64> {
        let parts =
            Parts { world: &mut self.world, window: &mut self.window, cache: Some(&mut *self.cache), relief: None };
        Landscape::new(bank::parse(bytes).unwrap(), parts, 21).unwrap()
    }
}

/// Every entry of both rings' windows for a camera at (`px`, `py`) facing
/// `heading` is the world's texel (near: texel (x, y); far: texel (2x, 2y)),
/// with the boundary view's colour on tile borders if the cache holds its
/// marks.
fn check_all(land: &Landscape<'_, 64>, px: u32, py: u32, heading: u16) {
    let cache = land.cache().unwrap();
    let in_tile = (1u32 << (land.tile_px_log2() - voxel::render::TEXEL_SHIFT)) - 1;
    // The world's texel anywhere (the window holds only 64 tiles round the
    // camera), at world px (x, y).
    let texel = |x: u32, y: u32, far: bool| {
        let (h, c) = land.texel(x, y);
        let (tx, ty) = (x >> voxel::render::TEXEL_SHIFT, y >> voxel::render::TEXEL_SHIFT);
        let marked = cache.marks() && voxel::render::on_border(tx & in_tile, ty & in_tile, far);
        bank::texel(h, if marked { voxel::palette::MARK } else { c })
    };
    let (nx, ny) = centre(px, py, heading, NEAR_AHEAD);
    let (nx, ny) = ((nx >> 2).wrapping_sub(NEAR_RADIUS), (ny >> 2).wrapping_sub(NEAR_RADIUS));
    for j in 0..2 * NEAR_RADIUS {
        for i in 0..2 * NEAR_RADIUS {
            let (x, y) = (nx.wrapping_add(i), ny.wrapping_add(j));
            let got = cache.near()[(y as usize & (NEAR - 1)) * NEAR + (x as usize & (NEAR - 1))];
            assert_eq!(got, texel(x << 2, y << 2, false), "near ({x}, {y}), camera ({px}, {py}) {heading}");
        }
    }
    let (fx, fy) = centre(px, py, heading, FAR_AHEAD);
    let (fx, fy) = ((fx >> 3).wrapping_sub(FAR_RADIUS), (fy >> 3).wrapping_sub(FAR_RADIUS));
    for j in 0..2 * FAR_RADIUS {
        for i in 0..2 * FAR_RADIUS {
            let (x, y) = (fx.wrapping_add(i), fy.wrapping_add(j));
            let got = cache.far()[(y as usize & (FAR - 1)) * FAR + (x as usize & (FAR - 1))];
            assert_eq!(got, texel(x << 3, y << 3, true), "far ({x}, {y}), camera ({px}, {py}) {heading}");
        }
    }
}

/// The rings' reaches (216 and 792 world px: the near bands' and the view's
/// depth plus 16), how far ahead their centres are (89 and 158 px: the
/// least from which the whole ring holds the view at any heading) and
/// where.
#[test]
fn reaches_and_centres_are_pinned() {
    assert_eq!((NEAR_REACH, FAR_REACH), (216, 792));
    assert_eq!((NEAR_AHEAD, FAR_AHEAD), (89, 158));
    assert_eq!((NEAR_RADIUS, FAR_RADIUS), (NEAR as u32 / 2, FAR as u32 / 2));
    assert_eq!(centre(1000, 2000, 0, NEAR_AHEAD), (1089, 2000));
    assert_eq!(centre(1000, 2000, 16384, FAR_AHEAD), (1000, 2158));
    assert_eq!(centre(1000, 2000, 32768, FAR_AHEAD), (842, 2000));
}

/// The centres are as near the camera as they can be: one pixel nearer
/// (less the 2 px kept for rounding), a ring's square misses a corner of
/// the view at some heading.
#[test]
fn the_rings_centres_are_the_nearest_that_hold_the_view() {
    for (reach, ahead, half) in
        [(NEAR_REACH, NEAR_AHEAD, NEAR_RADIUS * 4 - 4), (FAR_REACH, FAR_AHEAD, FAR_RADIUS * 8 - 8)]
    {
        // The far corners' offsets from a centre `d` ahead, over headings.
        let worst = |d: f64| {
            (0..3600)
                .map(|k| {
                    let phi = k as f64 * std::f64::consts::TAU / 3600.0;
                    let (c, s) = (phi.cos(), phi.sin());
                    let r = reach as f64;
                    [(r - d) * c - r * s, (r - d) * s + r * c, (r - d) * c + r * s, (r - d) * s - r * c]
                        .into_iter()
                        .fold(0.0f64, |m, v| m.max(v.abs()))
                })
                .fold(0.0f64, f64::max)
        };
        assert!(worst(ahead as f64 - 2.0) <= half as f64, "reach {reach}: the wedge fits");
        assert!(worst(ahead as f64 - 3.0) > half as f64, "reach {reach}: one px nearer it does not");
    }
}

/// Walks and jumps, pinned: the first follow fills both rings (128^2 near
/// entries and 256^2 far ones); a step writes the columns and rows that come
/// into range, in each ring (a ring's level coordinate moving by d writes
/// |d| lines of its window's side); a jump past a window rebuilds that ring.
/// Every step leaves both windows exact, for every tile size.
#[test]
fn follows_write_what_comes_into_range() {
    const FULL: u32 = 128 * 128 + 256 * 256;
    // Every tile size, with the boundary view's marks and without.
    for (n, marks) in [8u32, 16, 32, 64, 128].into_iter().flat_map(|n| [(n, false), (n, true)]) {
        let bytes = bank_bytes(n);
        let mut memory = Memory::default();
        let mut land = memory.land(&bytes);
        land.mark_boundaries(marks);
        let side = land.size_px();
        assert!(!land.cache().unwrap().is_valid(), "a new landscape's cache is empty");
        assert!(side >= 4096);
        let (far_x, far_y) = (1000 + side / 2, 2000 + side / 2);
        // (x, y, heading) in world px, and what the follow writes. The near
        // ring's level coordinate is (x + 89) / 4 at heading 0, the far
        // one's (x + 158) / 8; a line is a whole ring's side (128, 256).
        let moves: [(u32, u32, u16, u32, bool); 12] = [
            (1000, 2000, 0, FULL, true),
            // 4 px along +x: near 272 -> 273, far 144 -> 145 (a column each).
            (1004, 2000, 0, 128 + 256, false),
            // 8 more: near 2 columns, far 1 (145 -> 146).
            (1012, 2000, 0, 2 * 128 + 256, false),
            // Back along -x, 12 px: near 3 columns, far 2.
            (1000, 2000, 0, 3 * 128 + 2 * 256, false),
            // Along +y and back: near 500 <-> 504, far 250 <-> 252.
            (1000, 2016, 0, 4 * 128 + 2 * 256, false),
            (1000, 2000, 0, 4 * 128 + 2 * 256, false),
            // Diagonally: near 2 columns and a row, far a column.
            (1007, 2006, 0, 3 * 128 + 256, false),
            // Jumps by half the world (4,096 px or more): the near ring is
            // rebuilt, though the cache was valid; the far one, 255 entries
            // along (145 -> 400 at 4,096: less than its side), reads 255
            // columns where the world is 4,096 px, else it is rebuilt.
            (far_x, 2000, 0, 128 * 128 + if side == 4096 { 255 * 256 } else { 256 * 256 }, false),
            (3, far_y, 32768, FULL, false),
            // Over the world's edge at x = 0, along -x: near 2 columns, far 1.
            (side - 5, far_y, 32768, 2 * 128 + 256, false),
            // Turning round moves each centre by twice its distance ahead:
            // near 45 columns (-24 -> 21), far 40 (-21 -> 19).
            (side - 5, far_y, 0, 45 * 128 + 40 * 256, false),
            // A quarter turn: near 23 columns and 22 rows, far 20 and 19.
            (side - 5, far_y, 16384, 45 * 128 + 39 * 256, false),
        ];
        for (k, &(x, y, heading, written, rebuilt)) in moves.iter().enumerate() {
            let cam = Camera { x: x << 8, y: y << 8, heading, ..Camera::default() };
            land.follow(&cam);
            let up = land.follow_cache(&cam).unwrap();
            assert_eq!(
                up,
                CacheUpdate { written, rebuilt },
                "tile size {n}, marks {marks}, move {k} to ({x}, {y}) {heading}"
            );
            assert!(land.cache().unwrap().is_valid());
            check_all(&land, x, y, heading);
        }
        // A new world forgets the cache: the next follow rebuilds it.
        land.new_world(22);
        assert!(!land.cache().unwrap().is_valid());
        let cam = Camera { x: 100 << 8, y: 100 << 8, ..Camera::default() };
        land.follow(&cam);
        assert_eq!(land.follow_cache(&cam), Some(CacheUpdate { written: FULL, rebuilt: true }));
        check_all(&land, 100, 100, 0);
    }
}

/// Switching the boundary view's marks on a filled cache marks its border
/// texels in place (nothing read from the bank), and off reads its border
/// lines again (two rows and two columns a tile in each ring): both leave
/// the rings as a fill would, for every tile size, standing or moving.
#[test]
fn marks_switch_in_place() {
    for n in [8u32, 16, 32, 64, 128] {
        let bytes = bank_bytes(n);
        let mut memory = Memory::default();
        let mut land = memory.land(&bytes);
        let cam = Camera { x: 1000 << 8, y: 2000 << 8, heading: 5000, ..Camera::default() };
        land.follow(&cam);
        land.follow_cache(&cam);
        land.mark_boundaries(true);
        assert_eq!(land.follow_cache(&cam), Some(CacheUpdate { written: 0, rebuilt: false }), "tile size {n}");
        check_all(&land, 1000, 2000, 5000);
        land.mark_boundaries(false);
        // Rows and columns: two a tile, of a ring's side each.
        let lines = |side: u32, period: u32| 2 * 2 * (side / period) * side;
        let back = CacheUpdate { written: lines(128, n) + lines(256, n / 2), rebuilt: false };
        assert_eq!(land.follow_cache(&cam), Some(back), "tile size {n}");
        check_all(&land, 1000, 2000, 5000);
        // On again, moving.
        land.mark_boundaries(true);
        let moved = Camera { x: 1013 << 8, y: 1995 << 8, ..cam };
        land.follow(&moved);
        land.follow_cache(&moved);
        check_all(&land, 1013, 1995, 5000);
    }
}

/// The marks where the rings' lines start inside a border strip, or just
/// before one: cameras that put each ring's origin at the first entries of
/// a tile and at its last ones (along x and y), for every tile size; a full
/// fill, a switch off and on, and a move (rows and columns brought in)
/// each hold the world's texels and marks.
#[test]
fn marks_from_every_place_in_a_tile() {
    for n in [8u32, 16, 32, 64, 128] {
        let bytes = bank_bytes(n);
        let mut memory = Memory::default();
        let mut land = memory.land(&bytes);
        land.mark_boundaries(true);
        // k moves the near ring's origin k entries along x and y, the far
        // ring's k / 2: round the first and last entries of each tile.
        let half = n / 2;
        for k in (0..2 * n).filter(|k| k % half < 4 || k % half >= half - 2) {
            let (x, y) = (1000 + 4 * k, 2000 + 4 * k);
            // A jump of half the world and back: whole rings (or nearly).
            let cam = Camera { x: (x + land.size_px() / 2) << 8, y: y << 8, ..Camera::default() };
            land.follow(&cam);
            land.follow_cache(&cam);
            let cam = Camera { x: x << 8, y: y << 8, ..Camera::default() };
            land.follow(&cam);
            assert!(land.follow_cache(&cam).unwrap().written >= 128 * 128, "tile size {n}, k {k}");
            check_all(&land, x, y, 0);
            land.mark_boundaries(false);
            land.follow_cache(&cam);
            land.mark_boundaries(true);
            land.follow_cache(&cam);
            check_all(&land, x, y, 0);
            let moved = Camera { x: (x + 8) << 8, y: (y + 12) << 8, ..Camera::default() };
            land.follow(&moved);
            land.follow_cache(&moved);
            check_all(&land, x + 8, y + 12, 0);
        }
    }
}

/// The cache's debug form names its rings' origins and whether it is filled.
#[test]
fn debug_shows_origins_and_validity() {
    let cache = Box::new(TexelCache::new());
    assert_eq!(
        format!("{cache:?}"),
        "TexelCache { near_origin: (0, 0), far_origin: (0, 0), valid: false, marks: false, remark: false, .. }"
    );
}
