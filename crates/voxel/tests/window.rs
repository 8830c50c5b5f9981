//! A window smaller than the view: the renderer reads the tiles beyond it
//! from the world's lookup, so the frame is the one a window holding the
//! whole world draws.

use voxel::{Camera, Frame, Landscape, Options, Parts, Stats};

/// 16 tiles of 32 texels (128 world px), each of its own heights and colour.
fn bank_bytes() -> Vec<u8> {
    let n = 32usize;
    let mut tiles = Vec::new();
    for t in 0..16 {
        for y in 0..n {
            for x in 0..n {
                tiles.push(bank::texel(((t * 37 + x * 3 + y * 2) % 160) as u8, (t % 8) as u8));
            }
        }
    }
    let palette: Vec<u16> = (0..8).map(|i| i * 0x0421).collect();
    let contents = bank::Contents {
        tile_size: n as u16,
        palette: &palette,
        tiles: &tiles,
        placement: bank::Placement::Paper,
        height_scale: bank::HEIGHT_SCALE_ONE,
    };
    bank::encode(&contents).unwrap()
}

/// The frame of `camera` over the world of seed 3, with a window of `N`
/// tiles a side, and whether that window holds the tile 1,000 px ahead.
fn frame<const N: usize>(bytes: &[u8], camera: &Camera) -> (Box<Frame>, Stats, bool) {
    let (mut world, mut window) = (Box::new(terrain::World::empty()), Box::new(terrain::Window::<N>::new()));
    let parts = Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    let mut land = Landscape::new(bank::parse(bytes).unwrap(), parts, 3).unwrap();
    land.follow(camera);
    let mut frame = Box::new(Frame::default());
    let stats = land.render(camera, Options::default(), &mut *frame);
    let (c, s) = (voxel::trig::cos(camera.heading), voxel::trig::sin(camera.heading));
    let ahead = |p: u32, t: i32| ((p >> 8) as i32 + t * 1000 / 16384) as u32 >> 7;
    let far = (ahead(camera.x, c) & 127, ahead(camera.y, s) & 127);
    let held = land.scene().window().covers(land.world(), far.0, far.1);
    (frame, stats, held)
}

#[test]
fn a_small_window_draws_what_the_whole_world_does() {
    let bytes = bank_bytes();
    for heading in [0u16, 8192, 20000, 40000, 57344] {
        let camera = Camera { x: 5000 << 8, y: 7000 << 8, z: 260 << 8, heading, pitch: 20 };
        let (small, small_stats, held) = frame::<8>(&bytes, &camera);
        let (whole, whole_stats, _) = frame::<128>(&bytes, &camera);
        // 8 tiles: 3 beyond the camera's on each side, 384 px; the view
        // reaches 776 px ahead.
        assert!(!held, "heading {heading}: the small window holds the far ground");
        assert!(small == whole, "heading {heading}: the small window's frame differs");
        assert_eq!(small_stats, whole_stats, "heading {heading}");
        assert!(whole_stats.draws > 300, "heading {heading}: {whole_stats:?}");
    }
}
