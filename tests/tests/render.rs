//! The flyable ROM: the GBA's frames equal the host's reference renderer
//! pixel for pixel; golden frames of each view (the 3D ones equal the host
//! reference render of the frame on screen); a pinned scripted flight.

use e2e::{FrameLog, actual_dir, frame_image, golden, reference_frame, run_rom, run_to_frame};
use mgba_test_runner::{Frame, GoldenMode, KeyScript, RunConfig, check_golden};

/// Runs the ROM with `keys` until it logs its frame `n`, and returns that
/// frame's log and the palette indices of the page it was drawn into.
fn rendered(keys: &str, n: u32) -> (FrameLog, Vec<u8>) {
    let report = run_to_frame(keys, n, 4000);
    let log = report.lines().filter_map(FrameLog::parse).find(|f| f.n == n).expect("frame line");
    let page = report.vram[log.page * 0xA000..log.page * 0xA000 + 240 * 160].to_vec();
    (log, page)
}

fn assert_equal(what: &str, log: &FrameLog, gba: &[u8]) {
    let host = reference_frame(log);
    let differing: Vec<usize> = (0..gba.len()).filter(|&i| gba[i] != host.0[i]).collect();
    assert!(
        differing.is_empty(),
        "{what}: {} of 38400 pixels differ from the host render, first at ({}, {}): GBA {} host {}; camera {:?}",
        differing.len(),
        differing[0] % 240,
        differing[0] / 240,
        gba[differing[0]],
        host.0[differing[0]],
        log
    );
}

#[test]
fn rom_frames_equal_the_host_reference() {
    // Straight, turning while climbing, and looking down.
    for (keys, n) in [("1:UP", 20), ("1:UP+RIGHT+A,41:UP+LEFT", 50), ("1:UP,11:SELECT+DOWN,41:UP+B", 45)] {
        let (log, page) = rendered(keys, n);
        assert_eq!(log.view, 0);
        assert_equal(keys, &log, &page);
    }
}

/// SELECT + R: 240 columns, one per pixel (the odd pixel of each pair drawn
/// apart from the even one), in the terrain view and the boundary view.
#[test]
fn pixel_columns_equal_the_host_reference() {
    for (keys, n, view) in [("21:SELECT+R,25:UP+RIGHT", 40, 0), ("21:SELECT+R,25:,29:SELECT,33:UP", 45, 1)] {
        let (log, page) = rendered(keys, n);
        assert_eq!((log.columns, log.view), (voxel::Columns::Pixels, view), "{keys}");
        assert_equal(keys, &log, &page);
    }
}

/// The number of the first frame of view `view` after the last frame of any
/// other view among the first `limit` frames of a run with `keys`: runs are
/// deterministic, so a second run to it draws the same frames.
fn first_frame_back_in(keys: &str, view: u32, limit: u32) -> u32 {
    let report = run_to_frame(keys, limit, 4000);
    let frames: Vec<FrameLog> = report.lines().filter_map(FrameLog::parse).collect();
    let last_other = frames.iter().rposition(|f| f.view != view).expect("a frame of another view");
    assert!(last_other + 1 < frames.len(), "{keys}: still in another view at frame {limit}");
    frames[last_other + 1].n
}

/// Each page remembers the sky of its last 3D frame and the next frame there
/// repaints only what changed (`voxel::PageSky`): after anything else was
/// drawn into the page (the map view, a message), the frames are still whole.
#[test]
fn frames_after_the_map_and_a_message_equal_the_host_reference() {
    // The map view (SELECT twice) for a third of a second, on both pages,
    // and back (a third time): the first four frames after it, two on each
    // page (the first of a page fills its sky, the next repaints it).
    let keys = "21:SELECT,23:,25:SELECT,27:,45:SELECT,47:UP";
    let back = first_frame_back_in(keys, 0, 80);
    for n in back..back + 4 {
        let (log, page) = rendered(keys, n);
        assert_eq!(log.view, 0, "{keys}");
        assert_equal(keys, &log, &page);
    }
    // A bookmark's message (SELECT + START) over the sky (climbing, looking
    // up), shown for two seconds and gone: two frames long after, one on
    // each page.
    let message = "21:SELECT+DOWN+A,81:A,141:SELECT+START,143:A";
    for n in [300, 301] {
        let (log, page) = rendered(message, n);
        assert_eq!(log.view, 0, "{message}");
        assert_equal(message, &log, &page);
    }
}

#[test]
fn boundary_view_equals_the_host_reference() {
    let (log, page) = rendered("21:SELECT,25:UP", 40);
    assert_eq!(log.view, 1, "SELECT goes to the boundary view");
    assert_equal("boundaries", &log, &page);
}

/// Goldens of still scenes: the keys stop well before the capture, and the
/// flight replays the keys of every refresh, so the picture does not depend on
/// how fast frames are drawn. It does depend on the refresh the main loop
/// starts at (keys held during boot are not replayed): a change in what boot
/// does moves `flight-pinned.png`, whose keys start at frame 1.
#[test]
fn golden_views() {
    for (name, keys, frame) in [
        ("view-terrain.png", "", 60),
        ("view-boundaries.png", "21:SELECT,25:", 60),
        ("view-240-columns.png", "21:SELECT+R,25:", 60),
        ("view-map.png", "21:SELECT,25:,29:SELECT,33:", 60),
        ("flight-pinned.png", "1:UP,101:UP+RIGHT,201:UP+A,301:UP+LEFT+L,401:UP+B,501:", 540),
    ] {
        let config = RunConfig { frames: frame, keys: keys.parse::<KeyScript>().unwrap(), ..Default::default() };
        let report = run_rom("terrain", config);
        report.verdict().unwrap();
        let screen = report.last_frame.as_ref().unwrap();
        check_golden(screen, &golden(name), &actual_dir(), GoldenMode::from_env())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        if name == "view-map.png" {
            continue; // drawn by the ROM's own map code; see the map test below
        }
        // The golden is the host reference renderer's frame: one of the last
        // frames the ROM logged (the one on screen at the capture), drawn on
        // the host through the same palette, equals it in RGB15.
        let stored = Frame::load_png(&golden(name)).unwrap();
        let logs: Vec<FrameLog> = report.lines().filter_map(FrameLog::parse).collect();
        let diffs: Vec<(u32, usize)> = logs
            .iter()
            .rev()
            .take(3)
            .map(|log| (log.n, Frame::from_image(&frame_image(&reference_frame(log), log.seed)).diff(&stored).0))
            .collect();
        assert!(diffs.iter().any(|d| d.1 == 0), "{name}: no logged frame's host render equals the golden: {diffs:?}");
    }
}

/// The map view: the land in the bank's own colours, each map pixel a texel
/// of its tile (the host computes the same picture), the camera as an arrow
/// with its field of view, and a scale bar with its length.
#[test]
fn map_view_shows_the_land_the_camera_and_a_scale() {
    let (log, page) = rendered("21:SELECT,25:,29:SELECT,33:UP+RIGHT,91:", 50);
    assert_map(&log, &page);
}

/// The map keeps its land between frames and draws it again when the window
/// moves or the world changes: after a long flight across many tiles, a new
/// world (START) and more flight, it still shows the land under the camera.
#[test]
fn the_map_follows_the_window_and_a_new_world() {
    let (log, page) = rendered("21:SELECT,25:,29:SELECT,33:UP,300:UP+START,304:UP+LEFT,520:", 450);
    assert_ne!(log.seed, 1, "no new world");
    assert_map(&log, &page);
}

/// Checks frame `log`'s page shows the map of its world round its camera.
fn assert_map(log: &FrameLog, page: &[u8]) {
    assert_eq!(log.view, 2);
    let bank = bank::parse(e2e::default_bank()).unwrap();
    let world = terrain::World::for_bank(log.seed, &bank).unwrap();
    let mut window = Box::new(terrain::Window::<64>::new());
    let tpl = voxel::render::tile_px_log2(bank.tile_size());
    let (cx, cy) = (log.camera.x >> 8, log.camera.y >> 8);
    window.recenter(&world, cx >> tpl, cy >> tpl);
    let (ox, oy) = window.origin();
    let (x0, y0, px) = (56usize, 8usize, 4usize);
    let n = bank.tile_size();
    let texel = |k: usize| (2 * k + 1) * n / (2 * px);
    let overlay =
        |c: u8| c == voxel::palette::ui::WHITE || c == voxel::palette::ui::BLACK || c == voxel::palette::ui::BOUNDARY;
    let (mut same, mut marks) = (0, 0);
    for y in 0..128 {
        for x in 0..128 {
            let (tx, ty) = ((ox + 16 + (x / px) as u32) & 127, (oy + 16 + (y / px) as u32) & 127);
            let tile = world.tile_at(tx, ty) as usize;
            let (_, colour) = bank.texel(tile, texel(x % px), texel(y % px));
            let got = page[(y0 + y) * 240 + x0 + x];
            if got == voxel::palette::terrain(colour, 0) {
                same += 1;
            } else {
                assert!(
                    overlay(got),
                    "map pixel ({x}, {y}) is {got}, the land there is {}",
                    voxel::palette::terrain(colour, 0)
                );
                marks += 1;
            }
        }
    }
    assert!(same > 128 * 128 - 400, "only {same} map pixels are the land");
    // The arrow: white round the camera's place on the map; the field of
    // view's edges: yellow.
    let (mx, my) = (
        x0 as i64 + (((cx as i64 - ((ox as i64 + 16) << tpl)).rem_euclid(16384) * px as i64) >> tpl),
        y0 as i64 + (((cy as i64 - ((oy as i64 + 16) << tpl)).rem_euclid(16384) * px as i64) >> tpl),
    );
    let near = |c: u8, r: i64| {
        (my - r..=my + r)
            .flat_map(|y| (mx - r..=mx + r).map(move |x| (x, y)))
            .filter(|&(x, y)| page[(y * 240 + x) as usize] == c)
            .count()
    };
    assert!(near(voxel::palette::ui::WHITE, 6) >= 20, "no arrow at ({mx}, {my})");
    assert!(near(voxel::palette::ui::BOUNDARY, 30) >= 30, "no field of view round ({mx}, {my})");
    assert!(marks < 400);
    // The scale bar and its label below the map.
    let white_below =
        (136..160).flat_map(|y| (0..240).map(move |x| (x, y))).filter(|&(x, y)| page[y * 240 + x] == 1).count();
    assert!(white_below > 100, "no scale bar");
}

/// The boundary view looking down on hills: the GBA's march draws the same
/// border lines as the reference (whose lines are tested on the host,
/// `crates/voxel/tests/render.rs`).
#[test]
fn boundary_lines_looking_down_equal_the_host_reference() {
    let (log, page) = rendered("21:SELECT,25:,31:SELECT+UP,61:SELECT,65:", 40);
    assert_eq!((log.view, log.camera.pitch), (1, -50));
    assert_equal("boundaries looking down", &log, &page);
    assert!(page.iter().filter(|&&c| voxel::palette::is_mark(c)).count() > 500);
}

/// Pages are shown whole: the ROM shows a finished page at once when the
/// display is in VBlank or drawing the sky rows both pages hold alike
/// (`refresh::show`), else at the next VBlank. At each of many refreshes of
/// a flight (frames ending anywhere in them, shown all three ways), the
/// picture on screen is one of the two pages whole, through the palette: a
/// page shown part way down the screen where the pages differ would leave a
/// picture that is neither. And the two pages differ (in flight, a frame
/// that ended within the refresh its flight reached waits for the next
/// before it prepares another: without that wait the next frame drew the
/// same camera, and both pages held the same picture at refresh 112).
#[test]
fn every_picture_is_one_page_whole() {
    // Cruise, turn, climb, a new world (its palette changes), descend.
    let keys = "21:UP+RIGHT,81:UP+A,101:UP+START,103:UP+A,141:UP+LEFT+B".parse::<KeyScript>().unwrap();
    let mut shown = [0; 2];
    let mut kinds = std::collections::BTreeSet::new();
    // Refreshes 60 to 149, and those up to 300 where a frame was shown over
    // the sky rows (where a frame ends while the display draws them, which
    // small changes of a frame's cycles move): found in one run's log.
    let flight = run_rom("terrain", RunConfig { frames: 300, keys: keys.clone(), ..Default::default() });
    flight.verdict().unwrap();
    let over_sky = flight
        .log
        .iter()
        .filter(|l| l.frame >= 150 && l.text.starts_with("frame n=") && e2e::fields(&l.text)["shown"] == "sky")
        .map(|l| l.frame)
        .take(15);
    let refreshes: std::collections::BTreeSet<u32> = (60..150).chain(over_sky).collect();
    for refresh in refreshes {
        let report = run_rom("terrain", RunConfig { frames: refresh, keys: keys.clone(), ..Default::default() });
        report.verdict().unwrap();
        let picture = report.last_frame.as_ref().unwrap().pixels();
        let page = |p: usize| -> Vec<u16> {
            report.vram[p * 0xA000..p * 0xA000 + 240 * 160]
                .iter()
                .map(|&i| report.palette[i as usize] & 0x7FFF)
                .collect()
        };
        let pages = [page(0), page(1)];
        // In flight each frame shows a refresh's motion more than the last
        // (one that replayed none would draw the last frame again).
        assert!(pages[0] != pages[1], "refresh {refresh}: both pages hold the same frame");
        let whole = (0..2).find(|&p| pages[p] == picture);
        let Some(p) = whole else {
            let rows = (0..160).filter(|&y| pages.iter().any(|pg| pg[y * 240..][..240] == picture[y * 240..][..240]));
            panic!("refresh {refresh}: the picture is neither page whole ({} of 160 rows match one)", rows.count());
        };
        shown[p] += 1;
        // How the pages of the refreshes checked were shown.
        let checked = report.log.iter().filter(|l| l.frame >= 60 && l.text.starts_with("frame n="));
        kinds.extend(checked.map(|l| e2e::fields(&l.text)["shown"].to_string()));
    }
    assert!(shown[0] > 0 && shown[1] > 0, "both pages shown: {shown:?}");
    // Pages shown at once in VBlank, at once over the sky rows, and at the next VBlank.
    assert_eq!(kinds.iter().map(String::as_str).collect::<Vec<_>>(), ["next", "sky", "vblank"]);
}
