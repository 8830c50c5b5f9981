//! Cameras, controls and parts out of the flight's range, or that do not
//! match: drawn at the renderer's limits or in wrong colours and heights,
//! never an overflow or a panic (these panicked in debug builds).

use voxel::flight::Controls;
use voxel::render::{EYE_HIGHEST, EYE_LOWEST, PITCH_RANGE};
use voxel::{Camera, Frame, Landscape, Options, Parts};

fn bank_bytes() -> Vec<u8> {
    let tiles: Vec<u16> = (0..32 * 32).map(|i: u32| bank::texel((i % 200) as u8, (i / 32 % 4) as u8)).collect();
    let contents = bank::Contents {
        tile_size: 32,
        palette: &[0, 0x7FFF, 0x03E0, 0x7C00],
        tiles: &tiles,
        placement: bank::Placement::Paper,
        height_scale: bank::HEIGHT_SCALE_ONE * 8,
    };
    bank::encode(&contents).unwrap()
}

/// `f` with a landscape of [`bank_bytes`], world seed 1.
fn with_land(f: impl FnOnce(&mut Landscape<'_, 64>)) {
    let bytes = bank_bytes();
    let (mut world, mut window) = (Box::new(terrain::World::empty()), Box::new(terrain::Window::<64>::new()));
    let parts = Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    f(&mut Landscape::new(bank::parse(&bytes).unwrap(), parts, 1).unwrap());
}

#[test]
fn a_camera_past_the_limits_is_drawn_at_them() {
    with_land(|land| {
        let mut draw = |z: i32, pitch: i16| {
            let camera = Camera { x: 3000 << 8, y: 3000 << 8, z: z << 8, heading: 9000, pitch };
            land.follow(&camera);
            let mut frame = Box::new(Frame::default());
            let stats = land.render(&camera, Options::default(), &mut *frame);
            (frame, stats)
        };
        for (z, limit) in [(4000, EYE_HIGHEST), (-3000, EYE_LOWEST), (30_000, EYE_HIGHEST)] {
            let (past, past_stats) = draw(z, 0);
            let (at, at_stats) = draw(limit, 0);
            assert!(past == at && past_stats == at_stats, "z {z}");
        }
        // Its ground (up to 199 units at 8 px a unit) shows from the limit,
        // looking down.
        assert!(draw(EYE_HIGHEST, -60).1.draws > 0);
        for (pitch, limit) in [(i16::MAX, PITCH_RANGE), (i16::MIN, -PITCH_RANGE)] {
            let (past, _) = draw(100, pitch);
            let (at, _) = draw(100, limit);
            assert!(past == at, "pitch {pitch}");
        }
    });
}

#[test]
fn controls_past_one_are_one() {
    with_land(|land| {
        let start = Camera { x: 3000 << 8, y: 3000 << 8, z: 2100 << 8, heading: 9000, pitch: 0 };
        land.follow(&start);
        let full = Controls { forward: i8::MAX, turn: i8::MIN, strafe: 100, climb: -128, pitch: 127 };
        let one = Controls { forward: 1, turn: -1, strafe: 1, climb: -1, pitch: 1 };
        let (mut a, mut b) = (start, start);
        land.fly(&mut a, full, 3);
        land.fly(&mut b, one, 3);
        assert_eq!(a, b);
        assert_ne!(a, start);
    });
}

#[test]
fn a_relief_of_other_tops_draws_wrong_ground_without_a_panic() {
    let bytes = bank_bytes();
    let bank = bank::parse(&bytes).unwrap();
    // Tops far below the bank's (up to 199): groups of slices are passed
    // over where the ground shows.
    let right = Box::new(voxel::flight::Relief::of(&bank));
    let mut low = Box::new(voxel::flight::Relief::new());
    // A relief file of this bank's (its CRC-32) with other tops, and their
    // CRC-32 (a file written from a wrong relief).
    let mut file = right.file().unwrap();
    file[12..].fill(20);
    let crc = bank::crc32(&file[12..]);
    file[8..12].copy_from_slice(&crc.to_le_bytes());
    assert_eq!(low.load_file(&bank, &file), Ok(()));
    let mut frames = Vec::new();
    for relief in [&low, &right] {
        let (mut world, mut window) = (Box::new(terrain::World::empty()), Box::new(terrain::Window::<64>::new()));
        let parts = Parts { world: &mut world, window: &mut window, cache: None, relief: Some(relief) };
        let mut land = Landscape::new(bank, parts, 1).unwrap();
        let camera = Camera { x: 3000 << 8, y: 3000 << 8, z: 900 << 8, heading: 9000, pitch: -20 };
        land.follow(&camera);
        let mut frame = Box::new(Frame::default());
        let stats = land.render(&camera, Options::default(), &mut *frame);
        frames.push((frame, stats.skipped));
    }
    assert!(frames[0].0 != frames[1].0 && frames[0].1 > frames[1].1);
}

#[test]
fn colours_past_the_palette_draw_without_a_panic() {
    let mut bytes = bank_bytes();
    // Every texel's colour index 210 (the palette has 4): `parse` refuses
    // it, `parse_trusted` (a ROM's own bank) does not look.
    let texels = bytes.len() - 2 * 32 * 32;
    for c in bytes[texels..].iter_mut().skip(1).step_by(2) {
        *c = 210;
    }
    assert!(bank::parse(&bytes).is_err());
    let bank = bank::parse_trusted(&bytes).unwrap();
    let (mut world, mut window) = (Box::new(terrain::World::empty()), Box::new(terrain::Window::<64>::new()));
    let parts = Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    let mut land = Landscape::new(bank, parts, 1).unwrap();
    let camera = Camera { x: 3000 << 8, y: 3000 << 8, z: 900 << 8, heading: 9000, pitch: -20 };
    land.follow(&camera);
    let mut frame = Box::new(Frame::default());
    assert!(land.render(&camera, Options::default(), &mut *frame).draws > 0);
}

#[test]
fn a_relief_under_four_px_looks_ahead_to_the_ground() {
    // Flat ground at height 1 (1 px): no block in the look-ahead's reach.
    let tiles = vec![bank::texel(1, 0); 32 * 32];
    let contents = bank::Contents {
        tile_size: 32,
        palette: &[0x7FFF],
        tiles: &tiles,
        placement: bank::Placement::Paper,
        height_scale: bank::HEIGHT_SCALE_ONE,
    };
    let bytes = bank::encode(&contents).unwrap();
    let bank = bank::parse(&bytes).unwrap();
    let relief = Box::new(voxel::flight::Relief::of(&bank));
    let (mut world, mut window) = (Box::new(terrain::World::empty()), Box::new(terrain::Window::<64>::new()));
    let parts = Parts { world: &mut world, window: &mut window, cache: None, relief: Some(&relief) };
    let mut land = Landscape::new(bank, parts, 1).unwrap();
    let mut camera = Camera { x: 3000 << 8, y: 3000 << 8, z: 0, heading: 9000, pitch: 0 };
    land.follow(&camera);
    assert_eq!(relief.look_ahead(&land.scene(), 3000, 3000, 9000), 0);
    land.fly(&mut camera, Controls { climb: -1, ..Default::default() }, 1);
    assert_eq!(camera.z >> 8, 1 + voxel::flight::CLEARANCE);
}

#[test]
fn tile_tops_of_no_tile_are_none() {
    let mut out = [7; voxel::flight::PER_TILE];
    voxel::flight::tile_tops(&[], 0, &mut out);
    assert_eq!(out, [0; voxel::flight::PER_TILE]);
}

/// A bank at an odd address (an `include_bytes!` static has no alignment of
/// its own) parses, but its texels cannot be read in place: the relief is
/// still its own (it read as all 0, which leaves terrain out), and a
/// landscape refuses it naming the address, not the header.
#[test]
fn a_bank_at_an_odd_address_gets_its_relief_and_a_clear_refusal() {
    let bytes = bank_bytes();
    let mut odd = vec![0u8; bytes.len() + 1];
    odd[1..].copy_from_slice(&bytes);
    let (aligned, unaligned) = (bank::parse(&bytes).unwrap(), bank::parse(&odd[1..]).unwrap());
    assert!(aligned.texels().is_some() && unaligned.texels().is_none(), "a Vec's buffer is 2-aligned");
    let (a, u) = (voxel::flight::Relief::of(&aligned), voxel::flight::Relief::of(&unaligned));
    assert_eq!(u.tops(), a.tops());
    assert_eq!((u.top(), u.top_px()), (199, 199 * 8));
    let (mut world, mut window) = (Box::new(terrain::World::empty()), Box::new(terrain::Window::<64>::new()));
    let parts = Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    let e = Landscape::new(unaligned, parts, 1).unwrap_err();
    assert_eq!(e, voxel::LandscapeError::Scene(voxel::SceneError::Unaligned));
    assert!(e.to_string().contains("odd address"), "{e}");
}
