//! Flying into terrain: over a bank with steep borders (the paper's placement:
//! tiles as cut, every border a cliff) the camera climbs ahead of walls along
//! a scripted route: no frame is (nearly) one colour, and the altitude never
//! changes by more than the relief's bound per refresh. The same route flown
//! the old way (no look-ahead, just above the ground) fails both, so the
//! checks can fail.

use e2e::{FrameLog, paper_bank, rom, top_colour_share};
use mgba_test_runner::{Frame, KeyScript, RunConfig, run};
use voxel::flight::{CLIMB, Controls, Relief};

/// Cruise, turns into the hills, strafing, descending, backing up.
const ROUTE: &str = "1:UP,301:UP+RIGHT,361:UP,601:UP+B,701:UP+LEFT,801:UP+L,901:DOWN+RIGHT,1001:UP+B+LEFT,1101:UP";
const REFRESHES: u32 = 1300;
/// A frame with more of one colour than this is "one colour".
const ONE_COLOUR: f64 = 0.85;

#[test]
fn flying_into_a_paper_bank_climbs_ahead_of_walls() {
    let bank_bytes = paper_bank();
    let bank = bank::parse(bank_bytes).unwrap();
    let relief = Relief::of(&bank);
    let packed = tilebake::pack::pack("terrain.gba".as_ref(), &rom("terrain"), bank_bytes).unwrap();
    let dir = std::env::temp_dir().join(format!("e2e-flight-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shots: Vec<(u32, std::path::PathBuf)> =
        (60..REFRESHES).step_by(2).map(|f| (f, dir.join(format!("{f}.png")))).collect();
    let config = RunConfig {
        frames: REFRESHES,
        keys: ROUTE.parse::<KeyScript>().unwrap(),
        screenshots: shots.clone(),
        ..Default::default()
    };
    let report = run(&packed, &config).unwrap();
    report.verdict().unwrap();
    let line = report.lines().find(|l| l.starts_with("relief:")).expect("relief line");
    assert!(line.contains(&format!("floor slope {}", relief.slope())), "{line}");

    // No frame (nearly) one colour.
    let mut worst = (0.0, 0);
    for (f, path) in &shots {
        let frame = Frame::load_png(path).unwrap();
        let share = top_colour_share(frame.pixels());
        if share > worst.0 {
            worst = (share, *f);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(worst.0 < ONE_COLOUR, "refresh {}: {:.0}% of the screen one colour", worst.1, worst.0 * 100.0);

    // The altitude per refresh: the frames log the camera and the refreshes
    // each replayed.
    let frames: Vec<(FrameLog, i32)> = report
        .lines()
        .filter_map(|l| Some((FrameLog::parse(l)?, e2e::fields(l).get("refreshes")?.parse().ok()?)))
        .collect();
    assert!(frames.len() > 400, "only {} frames", frames.len());
    let bound = relief.max_rise();
    let (mut low, mut high) = (i32::MAX, i32::MIN);
    for w in frames.windows(2) {
        let (a, (b, n)) = (&w[0].0, &w[1]);
        let dz = (b.camera.z - a.camera.z) as f64 / 256.0;
        assert!(
            dz <= (bound * n) as f64 && -dz <= ((CLIMB >> 8) * n) as f64,
            "frame {}: the altitude moved {dz} px in {n} refreshes (bound {bound} px a refresh)",
            b.n
        );
        low = low.min(b.camera.z >> 8);
        high = high.max(b.camera.z >> 8);
    }
    // The route does climb over terrain: the checks are not vacuous.
    assert!(high - low > 80, "altitude only {low}..{high}");
    println!(
        "worst frame {:.0}% one colour (refresh {}); altitude {low}..{high} px, at most {bound} px a refresh",
        worst.0 * 100.0,
        worst.1
    );
}

/// The same route, flown on the host by the old rule (no relief: just above
/// the ground under the camera), fills the screen with a wall and jumps.
#[test]
fn the_old_flight_fails_this_route() {
    let bank = bank::parse(paper_bank()).unwrap();
    let (mut world, mut window) = (Box::<terrain::World>::default(), Box::<terrain::Window<64>>::default());
    let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: None };
    let mut land = voxel::Landscape::new(bank, parts, 1).unwrap();
    let world_px = land.size_px();
    let mut cam = voxel::Camera { x: (world_px - 160) << 8, y: (world_px - 96) << 8, z: 0, heading: 8192, pitch: 0 };
    cam.z = (land.ground_height(cam.x >> 8, cam.y >> 8) + 80) << 8;
    land.settle(&mut cam);
    let keys: KeyScript = ROUTE.parse().unwrap();
    let (mut worst, mut jump) = (0.0f64, 0);
    for r in 0..REFRESHES {
        let k = keys.keys_at(r).bits();
        let axis = |plus: u16, minus: u16| (k & plus != 0) as i8 - (k & minus != 0) as i8;
        let c = Controls {
            forward: axis(1 << 6, 1 << 7),
            turn: axis(1 << 4, 1 << 5),
            strafe: axis(1 << 8, 1 << 9),
            climb: axis(1, 2),
            pitch: 0,
        };
        let z0 = cam.z;
        land.fly(&mut cam, c, 1);
        land.follow(&cam);
        jump = jump.max((cam.z - z0).abs() >> 8);
        if r % 8 == 0 {
            let mut frame = voxel::Frame::default();
            land.render(&cam, voxel::Options::default(), &mut frame);
            worst = worst.max(top_colour_share(&frame.0));
        }
    }
    assert!(
        worst > 0.95 && jump > 50,
        "the old flight: worst frame {:.0}% one colour, largest step {jump} px",
        worst * 100.0
    );
}
