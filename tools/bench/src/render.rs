//! The renderer benchmark: the product ROM flown along a fixed script; the ROM
//! logs the cycles of every frame it renders.

use crate::record::{Json, json_line, ms};
use anyhow::{Result, bail};
use mgba_test_runner::{KeyScript, RunConfig, run};
use std::collections::HashMap;
use std::fmt::Write;

/// Rows of a page ([`voxel::render::HEIGHT`]): a frame's `fill=` of them is
/// the whole page.
const PAGE_ROWS: u64 = voxel::render::HEIGHT as u64;

/// Screen refreshes from power-on the flight runs for: the same stretch of
/// route for every build, whatever its speed (a faster renderer draws more
/// frames of it, not a shorter route). Until 2026-12 the flight was 600
/// frames, however many refreshes they took (955 for the build before the
/// packed march): a faster build flew less of the route.
pub const REFRESHES: u32 = 960;
/// The fewest frames a flight must render to be measured.
pub const MIN_FRAMES: usize = 150;
/// Emulator frame (screen refresh) the flight starts moving at: before it a
/// configuration presses its keys (`configs`), so that every configuration
/// flies the same refreshes, with the same cameras and worlds (a new world's
/// seed depends on the refresh START is pressed at).
pub const ROUTE_START: u32 = 30;
/// The flight (emulator frames: keys): straight, turns, climbs and dives, a
/// world change, and (from the start position near the world's corner) wraps.
/// (Until 2026-12 it moved from frame 1; the rest at the same frames.) The
/// ROM's main loop starts at about frame 18: its first dozen frames stand
/// still.
pub const SCRIPT: &str = "30:UP,151:UP+RIGHT,301:UP+A,421:UP+LEFT,561:UP+B,701:UP+START,713:UP,851:UP+R,\
                          1001:UP+RIGHT+A,1151:UP+L,1301:UP,1501:UP+LEFT+B,1701:UP";
/// CPU cycles per second.
pub const HZ: f64 = 16_777_216.0;
/// Cycles of one screen refresh (228 lines of 1,232 cycles).
pub const REFRESH: u64 = 280_896;

/// Frames per second on screen: `frames` shown over `refreshes` screen
/// refreshes (59.73 a second).
fn displayed_fps(frames: u64, refreshes: u64) -> f64 {
    HZ / REFRESH as f64 * frames as f64 / refreshes.max(1) as f64
}

/// One `frame ...` line's numbers.
pub fn fields(line: &str) -> HashMap<&str, &str> {
    line.split_whitespace().filter_map(|w| w.split_once('=')).collect()
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// The report.
pub struct Report {
    pub text: String,
    pub jsonl: String,
    /// The flight's frames (the configurations and the seams table fly as
    /// many refreshes as it took).
    pub flight: Flight,
}

/// Per-frame cycle figures of a flight.
#[derive(Debug, Clone)]
pub struct Flight {
    /// Cycles per frame (every frame rendered in the refreshes flown). Which
    /// frames a build renders depends on how fast it draws (each frame
    /// replays the refreshes since the last), and the median lies between
    /// the frames of one refresh and those of two: the mean moves least
    /// between builds.
    pub median: u64,
    pub mean: u64,
    pub p95: u64,
    pub max: u64,
    /// Frames shown per second: 59.73 Hz refreshes over the refreshes each frame took.
    pub fps: f64,
    /// The frames' `frame n=...` log lines.
    pub lines: Vec<String>,
    /// The emulator frame (screen refresh) the last frame's line came in.
    pub last_refresh: u32,
    /// The emulator frame the ROM's first frame (`frame n=0`) came in: its
    /// main loop reads keys from then on (after the boot, and a packed
    /// bank's check).
    pub loop_start: u32,
}

/// Flies `script` for `refreshes` emulator frames: the frames rendered in
/// them (at least [`MIN_FRAMES`]), however many that is. Flights of
/// the same script over the same refreshes see the same cameras and worlds,
/// whatever each frame costs.
pub fn flight_refreshes(rom: &[u8], script: &str, refreshes: u32) -> Result<Flight> {
    let keys: KeyScript = script.parse()?;
    flown(&run(rom, &RunConfig { frames: refreshes, keys, ..Default::default() })?, MIN_FRAMES)
}

/// Flies `script` from `rom` as `reference` flew it: as many refreshes from
/// the start of `rom`'s main loop as the reference's took from its own (a
/// ROM with a packed bank starts later: it checks the bank first; keys
/// before the loop starts are lost, so the script is shifted as much).
pub fn flight_like(rom: &[u8], script: &str, reference: &Flight) -> Result<Flight> {
    let probe = run(rom, &RunConfig { frames: 6000, stop_on: Some("frame n=0 ".into()), ..Default::default() })?;
    probe.verdict()?;
    let start = first_frame(&probe)?;
    let shift = start.saturating_sub(reference.loop_start);
    flight_refreshes(rom, &shifted(script, shift), reference.last_refresh + shift)
}

/// `script` (FRAME:KEYS entries) with every entry `by` emulator frames later.
pub fn shifted(script: &str, by: u32) -> String {
    script
        .split(',')
        .map(|entry| match entry.split_once(':') {
            Some((frame, keys)) => match frame.parse::<u32>() {
                Ok(f) => format!("{}:{keys}", f + by),
                Err(_) => entry.to_string(),
            },
            None => entry.to_string(),
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The emulator frame of a run's `frame n=0` line.
fn first_frame(report: &mgba_test_runner::RunReport) -> Result<u32> {
    report
        .log
        .iter()
        .find(|l| l.text.starts_with("frame n=0 "))
        .map(|l| l.frame)
        .ok_or_else(|| anyhow::anyhow!("the ROM rendered no frame"))
}

/// A run's frames (but the first, 3D or not, which times the set-up), at
/// least `least` of them.
fn flown(report: &mgba_test_runner::RunReport, least: usize) -> Result<Flight> {
    report.verdict()?;
    let loop_start = first_frame(report)?;
    let (lines, last_refresh): (Vec<String>, Vec<u32>) = report
        .log
        .iter()
        .filter(|l| l.text.starts_with("frame n=") && !l.text.starts_with("frame n=0 "))
        .map(|l| (l.text.clone(), l.frame))
        .unzip();
    let field = |l: &String, k: &str| -> Option<u64> { fields(l).get(k).and_then(|v| v.parse().ok()) };
    let mut cycles: Vec<u64> = lines.iter().filter_map(|l| field(l, "cycles")).collect();
    if cycles.len() < least.max(1) {
        bail!("the flight rendered only {} frames", cycles.len());
    }
    let refreshes: u64 = lines.iter().filter_map(|l| field(l, "refreshes")).sum();
    cycles.sort_unstable();
    Ok(Flight {
        median: percentile(&cycles, 0.5),
        mean: cycles.iter().sum::<u64>() / cycles.len() as u64,
        p95: percentile(&cycles, 0.95),
        max: *cycles.last().expect("at least one frame"),
        fps: displayed_fps(cycles.len() as u64, refreshes),
        lines,
        last_refresh: last_refresh.last().copied().unwrap_or(0),
        loop_start,
    })
}

/// The reference renderer's counters of logged frame `f`, drawn with `bank`
/// and its `relief` (as the ROM draws: the relief's tops bound the skips).
fn counts(bank: &bank::Bank<'_>, relief: &voxel::flight::Relief, f: &HashMap<&str, &str>) -> Result<voxel::Stats> {
    let num = |k: &str| -> Result<i64> { Ok(f.get(k).ok_or_else(|| anyhow::anyhow!("no {k}"))?.parse()?) };
    let seed = u32::from_str_radix(f.get("seed").unwrap_or(&"0").trim_start_matches("0x"), 16)?;
    let camera = voxel::Camera {
        x: num("x")? as u32,
        y: num("y")? as u32,
        z: num("z")? as i32,
        heading: num("heading")? as u16,
        pitch: num("pitch")? as i16,
    };
    let (mut world, mut window) = (Box::<terrain::World>::default(), Box::<terrain::Window<64>>::default());
    let parts = voxel::Parts { world: &mut world, window: &mut window, cache: None, relief: Some(relief) };
    let mut land = voxel::Landscape::new(*bank, parts, seed).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut frame = voxel::Frame::default();
    let columns = voxel::Columns::from_count(num("columns")? as usize)
        .ok_or_else(|| anyhow::anyhow!("no column mode of {} columns", num("columns").unwrap_or(0)))?;
    let options = voxel::Options { boundaries: num("view")? == 1, columns };
    Ok(land.render(&camera, options, &mut frame))
}

/// Least squares: the coefficients `c` minimising the sum over rows of
/// (y - c . x)^2 (normal equations, Gaussian elimination); `None` if singular.
fn least_squares(xs: &[Vec<f64>], ys: &[f64]) -> Option<Vec<f64>> {
    let k = xs.first()?.len();
    let mut a = vec![vec![0f64; k + 1]; k];
    for (x, y) in xs.iter().zip(ys) {
        for i in 0..k {
            for j in 0..k {
                a[i][j] += x[i] * x[j];
            }
            a[i][k] += x[i] * y;
        }
    }
    for c in 0..k {
        let p = (c..k).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        a.swap(c, p);
        if a[c][c].abs() < 1e-9 {
            return None;
        }
        let pivot = a[c].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != c {
                let f = row[c] / pivot[c];
                for (x, p) in row.iter_mut().zip(&pivot).skip(c) {
                    *x -= f * p;
                }
            }
        }
    }
    Some((0..k).map(|i| a[i][k] / a[i][i]).collect())
}

/// Field `key` of the first line the ROM logged that starts with `start`
/// (`sky cycles=23472`: `logged(report, "sky cycles=", "cycles")`).
fn logged(report: &mgba_test_runner::RunReport, start: &str, key: &str) -> Result<u64> {
    let line = report
        .lines()
        .find(|l| l.starts_with(start))
        .ok_or_else(|| anyhow::anyhow!("the ROM logged no `{start}` line"))?;
    let value = fields(line).get(key).copied().ok_or_else(|| anyhow::anyhow!("no {key} in {line:?}"))?;
    value.parse().map_err(|e| anyhow::anyhow!("{key} in {line:?}: {e}"))
}

/// The texel cache's upkeep a line at a time, timed alone by the ROM in its
/// first 3D frame (`cache_lines still=C/0 east=C/128 east=C/384 south=..`:
/// cycles / entries read of a follow that moves nothing, then of two moves
/// of 4 px east and two south): the first move each way reads one near-ring
/// line, the second that and one far-ring line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheLines {
    /// A follow that moves nothing, cycles (every frame pays it).
    pub still: u64,
    /// One near-ring column and row ([`voxel::cache::NEAR`] texels), cycles
    /// beyond `still`.
    pub near_column: u64,
    pub near_row: u64,
    /// One far-ring column and row ([`voxel::cache::FAR`] entries), cycles:
    /// the move that reads both lines less the one that reads the near line.
    pub far_column: u64,
    pub far_row: u64,
}

impl CacheLines {
    /// Reads the ROM's `cache_lines` line; an error if a move did not read
    /// the lines it should have.
    pub fn parse(line: &str) -> Result<CacheLines> {
        let (near, far) = (voxel::cache::NEAR as u64, voxel::cache::FAR as u64);
        let moves: Vec<(&str, u64, u64)> = line
            .split_whitespace()
            .skip(1)
            .map(|w| {
                let (name, v) = w.split_once('=').ok_or_else(|| anyhow::anyhow!("{w:?} in {line:?}: not NAME=C/E"))?;
                let (c, e) = v.split_once('/').ok_or_else(|| anyhow::anyhow!("{w:?} in {line:?}: not NAME=C/E"))?;
                Ok((name, c.parse()?, e.parse()?))
            })
            .collect::<Result<_>>()?;
        let want = [("still", 0), ("east", near), ("east", near + far), ("south", near), ("south", near + far)];
        if moves.len() != want.len() || moves.iter().zip(&want).any(|(m, w)| (m.0, m.2) != *w) {
            bail!("the ROM's cache moves did not read one line at a time ({want:?} expected): {line:?}");
        }
        let c = |k: usize| moves[k].1;
        Ok(CacheLines {
            still: c(0),
            near_column: c(1).saturating_sub(c(0)),
            far_column: c(2).saturating_sub(c(1)),
            near_row: c(3).saturating_sub(c(0)),
            far_row: c(4).saturating_sub(c(3)),
        })
    }
}

/// Runs the flight and builds the report.
pub fn bench(rom: &[u8], bank_bytes: &[u8]) -> Result<Report> {
    let keys: KeyScript = SCRIPT.parse()?;
    let config = RunConfig { frames: REFRESHES, keys, ..Default::default() };
    let report = run(rom, &config)?;
    report.verdict()?;
    let frames: Vec<HashMap<&str, &str>> =
        report.lines().filter(|l| l.starts_with("frame n=")).map(fields).filter(|f| f["n"] != "0").collect();
    if frames.len() < MIN_FRAMES {
        bail!("the flight rendered only {} frames in {} emulator frames", frames.len(), report.frames);
    }
    // The sky rows a frame fills first when its page holds no sky at its
    // horizon (a pitch move: down to where the last frame's lowest top
    // moves; a view change: the whole page): the whole page timed alone at
    // boot (160 rows of word stores, the same work each row); other frames
    // repaint rows.
    let sky_cycles = logged(&report, "sky cycles=", "cycles")?;
    // The set-up, timed alone in the first 3D frame: a frame where every band of slices
    // is hidden (its whole-sky fill taken off).
    let setup = |k: &str| logged(&report, "setup cycles=", k);
    if (setup("samples")?, setup("skipped")?, setup("passed")?) != (0, 11_520, 0) {
        bail!(
            "the set-up frame did not step past every band: {} samples, {} slices skipped, {} groups passed by their test",
            setup("samples")?,
            setup("skipped")?,
            setup("passed")?
        );
    }
    let setup_cycles = setup("cycles")?.saturating_sub(sky_cycles);
    // The frame before it, the first at the bank's height scale: the
    // scale's reciprocals for the bottom chain come with the landscape
    // (`Landscape::new`), so it should take no more.
    let first_extra = setup("first")?.saturating_sub(sky_cycles).saturating_sub(setup_cycles);
    let lines = CacheLines::parse(
        report
            .lines()
            .find(|l| l.starts_with("cache_lines "))
            .ok_or_else(|| anyhow::anyhow!("the ROM logged no `cache_lines` line"))?,
    )?;
    // A full fill of both rings: the first 3D frame's (frame 0, a new cache;
    // a new world or a jump past a ring does the same).
    let full_entries = (voxel::cache::NEAR * voxel::cache::NEAR + voxel::cache::FAR * voxel::cache::FAR) as u64;
    let first = report
        .lines()
        .find(|l| l.starts_with("frame n=0 "))
        .ok_or_else(|| anyhow::anyhow!("the ROM logged no frame 0"))?;
    let field = |k: &str| -> Option<u64> { fields(first).get(k).and_then(|v| v.parse().ok()) };
    if field("cache_entries") != Some(full_entries) {
        bail!("the first frame did not fill the whole texel cache ({full_entries} entries): {first:?}");
    }
    let full_fill = field("cache").ok_or_else(|| anyhow::anyhow!("no cache cycles in {first:?}"))?;
    // The frame's own log line: in mGBA only (on hardware the ROM finds no
    // mGBA and skips it), outside the frame's count, after the flip and
    // before the next frame's preparation and the wait for the page to show.
    // The ROM logs the most it took in each 256 frames.
    let log_line = report
        .lines()
        .filter_map(|l| l.strip_prefix("frame_log max_cycles="))
        .filter_map(|r| r.split_whitespace().next().and_then(|v| v.parse::<u64>().ok()))
        .max()
        .ok_or_else(|| anyhow::anyhow!("the ROM logged no `frame_log max_cycles=` line"))?;
    let num = |f: &HashMap<&str, &str>, k: &str| -> u64 { f.get(k).and_then(|v| v.parse().ok()).unwrap_or(0) };
    // `fill=N`: N rows filled with the sky before the terrain (160: the
    // whole page); `sky=N`: N rows repainted per column.
    let fill_rows = |f: &HashMap<&str, &str>| -> u64 { num(f, "fill") };
    let fills = frames.iter().filter(|f| fill_rows(f) > 0).count() as u64;
    let whole = frames.iter().filter(|f| fill_rows(f) == PAGE_ROWS).count() as u64;
    let filled_rows: u64 = frames.iter().map(fill_rows).sum();
    let repainted: u64 = frames.iter().map(|f| num(f, "sky")).sum();
    let mut cycles: Vec<u64> = frames.iter().map(|f| num(f, "cycles")).collect();
    let render: u64 = frames.iter().map(|f| num(f, "render")).sum();
    let window: u64 = frames.iter().map(|f| num(f, "window")).sum();
    let cache: u64 = frames.iter().map(|f| num(f, "cache")).sum();
    let cache_entries: u64 = frames.iter().map(|f| num(f, "cache_entries")).sum();
    let flight: u64 = frames.iter().map(|f| num(f, "flight")).sum();
    if flight == 0 {
        bail!("the ROM's frame lines give no flight cycles (`flight=`)");
    }
    let samples: u64 = frames.iter().map(|f| num(f, "samples")).sum();
    let slices: u64 = samples + frames.iter().map(|f| num(f, "skipped")).sum::<u64>();
    let total: u64 = cycles.iter().sum();
    let refreshes: u64 = frames.iter().map(|f| num(f, "refreshes")).sum();
    let seeds: std::collections::BTreeSet<&str> = frames.iter().map(|f| f["seed"]).collect();
    cycles.sort_unstable();
    let n = frames.len() as u64;
    let (median, p95, max) = (percentile(&cycles, 0.5), percentile(&cycles, 0.95), *cycles.last().unwrap());
    let within = cycles.iter().filter(|&&c| c <= REFRESH).count();
    // The rows both pages held alike at each frame's flip (`same_rows=`).
    let mut shared: Vec<u64> = frames.iter().map(|f| num(f, "same_rows")).collect();
    shared.sort_unstable();
    let same_rows = percentile(&shared, 0.5);
    // How each frame's page was shown (`shown=`: vblank, sky or next).
    let shown = |how: &str| frames.iter().filter(|f| f.get("shown") == Some(&how)).count();
    if shown("vblank") + shown("sky") + shown("next") != frames.len() {
        bail!("the ROM's frame lines do not all say how their page was shown (`shown=`)");
    }
    let spf = samples / n;
    let cps = render as f64 / samples.max(1) as f64;
    // Per slice marched, sample or skipped: the cost per sample rises as
    // more slices are skipped, this one does not.
    let cpl = render as f64 / slices.max(1) as f64;
    let mut text = String::new();
    writeln!(
        text,
        "{n} frames of scripted flight ({} refreshes, {} worlds), 120 columns x 96 slices, view distance 776 px:\n",
        refreshes,
        seeds.len()
    )?;
    writeln!(text, "| cycles per frame | median | p95 | max |")?;
    writeln!(text, "|---|---|---|---|")?;
    writeln!(text, "| cycles | {median} | {p95} | {max} |")?;
    writeln!(text, "| ms | {:.2} | {:.2} | {:.2} |", ms(median), ms(p95), ms(max))?;
    writeln!(
        text,
        "| frames per second at 16,777,216 Hz | {:.1} | {:.1} | {:.1} |",
        HZ / median as f64,
        HZ / p95 as f64,
        HZ / max as f64
    )?;
    writeln!(
        text,
        "| screen refreshes (280,896 cycles) | {:.2} | {:.2} | {:.2} |\n",
        median as f64 / REFRESH as f64,
        p95 as f64 / REFRESH as f64,
        max as f64 / REFRESH as f64
    )?;
    writeln!(
        text,
        "Displayed: {:.1} frames per second ({:.2} refreshes per frame on average). A page is shown as soon as the \
         switch cannot be seen: at once if the display is in VBlank ({} frames) or drawing the top rows both pages \
         hold alike, the sky above both frames' terrain ({} frames; at the median flip the pages shared {} rows), else \
         at the next VBlank ({} frames); the next frame's preparation, its flight, window and texel cache, runs \
         while a page waits. In mGBA a frame's log \
         line, up to {log_line} cycles, see below, comes before that preparation and delays the next frame when no \
         wait is left, so on hardware, without the lines, at least as many. Within one refresh (280,896 cycles): \
         {within} of {n} frames.",
        displayed_fps(n, refreshes),
        refreshes as f64 / n as f64,
        shown("vblank"),
        shown("sky"),
        same_rows,
        shown("next"),
    )?;
    writeln!(
        text,
        "Depth samples per frame: {spf} of 11,520 (columns stop once filled to the top, and pass over groups of 8 \
         slices that not even the highest texel under them could show in); render cycles per slice marched (sample or \
         skipped): {cpl:.1}.\n"
    )?;
    writeln!(text, "Where the cycles go (per frame, mean):\n")?;
    writeln!(text, "| part | cycles | share |")?;
    writeln!(text, "|---|---|---|")?;
    let share = |c: u64| format!("{:.0}%", 100.0 * c as f64 / total as f64);
    let (wm, cm) = (window / n, cache / n);
    let sky_total = sky_cycles * filled_rows / PAGE_ROWS;
    writeln!(
        text,
        "| sky fills: rows filled with the sky before the terrain, 60 word stores a row (the whole page timed alone at boot: {sky_cycles}), in {fills} of {n} frames, {whole} of them the whole page ({} rows a fill: after a pitch move only down to where the page's last frame's lowest top moves); the rest repaint rows, {} a frame: in the march | {} | {} |",
        filled_rows.checked_div(fills).unwrap_or(0),
        repainted / n,
        sky_total / n,
        share(sky_total)
    )?;
    writeln!(
        text,
        "| march: set-up, samples, draws, spans and sky repaints (the render less the sky fills; split by counters below) | {} | {} |",
        (render - sky_total) / n,
        share(render - sky_total)
    )?;
    writeln!(text, "| window update (on tile crossings) | {wm} | {} |", share(window))?;
    writeln!(text, "| texel cache upkeep ({} entries read per frame) | {cm} | {} |", cache_entries / n, share(cache))?;
    writeln!(
        text,
        "| flight: the camera's motion, its floor and look-ahead, once a refresh replayed ({:.2} a frame) | {} | {} |",
        refreshes as f64 / n as f64,
        flight / n,
        share(flight)
    )?;
    writeln!(
        text,
        "| rest: input, HUD | {} | {} |",
        (total - render - window - cache - flight) / n,
        share(total - render - window - cache - flight)
    )?;
    writeln!(
        text,
        "| the frame's log line, in mGBA only (on hardware the ROM finds no mGBA and skips it): after the count and the flip, before the next frame's preparation and the wait | {log_line} at most, not counted | |"
    )?;
    writeln!(
        text,
        "| flip: waiting for the page to show (at once during VBlank or over the rows both pages share, else the interrupt shows it at the next VBlank) | not counted (the CPU sleeps) | |"
    )?;
    let (near, far) = (voxel::cache::NEAR, voxel::cache::FAR);
    writeln!(
        text,
        "\nThe texel cache a line at a time, timed alone in the ROM's first 3D frame (its camera moved back less than \
         8 px, to where the far ring's centre sits on an entry's corner: a follow that moves nothing, then moves of 4 px \
         that read one near-ring line, or that and one far-ring line; each line beyond the follow's own cost); and a full \
         fill, frame 0's own follow of the cache (the follow's cost, and any interrupts taken meanwhile, included):\n"
    )?;
    writeln!(text, "| update | entries read | cycles | per entry |")?;
    writeln!(text, "|---|---|---|---|")?;
    writeln!(text, "| a follow that moves nothing (every frame) | 0 | {} | |", lines.still)?;
    for (what, entries, c) in [
        ("one near-ring column (4 px east)", near, lines.near_column),
        ("one near-ring row (4 px south)", near, lines.near_row),
        ("one far-ring column (the next 4 px east, less its near column)", far, lines.far_column),
        ("one far-ring row (the next 4 px south, less its near row)", far, lines.far_row),
    ] {
        writeln!(text, "| {what} | {entries} | {c} | {:.1} |", c as f64 / entries as f64)?;
    }
    writeln!(
        text,
        "| a full fill, both rings (the first 3D frame's; a new world, or a jump past a ring, the same) | {full_entries} | \
         {full_fill} | {:.1} |",
        full_fill as f64 / full_entries as f64
    )?;

    // The frame, explained by counters: the reference renderer counts each
    // frame's samples, draws and rows; a least-squares fit of the ROM's
    // render cycles on them gives each unit's cost.
    let bank = bank::parse(bank_bytes)?;
    let relief = voxel::flight::Relief::of(&bank);
    let mut stats: Vec<voxel::Stats> = frames.iter().map(|f| counts(&bank, &relief, f)).collect::<Result<_>>()?;
    // The sky's work depends on what the page held, which only the ROM
    // knows: its own counts.
    for (f, s) in frames.iter().zip(stats.iter_mut()) {
        (s.sky_rows_filled, s.repainted_rows) = (fill_rows(f) as u32, num(f, "sky") as u32);
    }
    // The ROM counts its samples too: the two renderers must agree.
    for (f, s) in frames.iter().zip(&stats) {
        if (num(f, "samples"), num(f, "skipped")) != (s.samples as u64, s.skipped as u64) {
            bail!(
                "frame {}: the ROM took {} samples and skipped {} slices, the reference renderer {} and {}",
                f["n"],
                num(f, "samples"),
                num(f, "skipped"),
                s.samples,
                s.skipped
            );
        }
    }
    let sum = |g: fn(&voxel::Stats) -> u32| stats.iter().map(|s| g(s) as u64).sum::<u64>() / n;
    let (s_mean, d_mean, span_mean, sky_mean, skip_mean) =
        (sum(|s| s.samples), sum(|s| s.draws), sum(|s| s.span_rows), sum(|s| s.sky_rows), sum(|s| s.skipped));
    let runs_mean = sum(|s| s.runs);
    // Counters that never change cannot be told from the fixed cost: they
    // join it. Every pixel pair is terrain or sky (span rows + sky rows = 19,200), so
    // the fit takes span rows only. A frame fills rows with sky first (the
    // whole page timed apart, by rows) and repaints, per column, the sky
    // rows below them its page's last frame covered with terrain (the ROM
    // counts them), then draws each span row.
    type Counter = (&'static str, fn(&voxel::Stats) -> u32);
    // The timed set-up frame has every band hidden, which each column steps
    // past at once: group tests come in with the samples (a marched group's
    // test, an eighth to each of its samples) and the passes.
    let all: [Counter; 6] = [
        (
            "depth samples but the bottom chain's (texel, projection, y-buffer test; and an eighth of its group's test)",
            |s| s.samples - s.bottom_samples,
        ),
        (
            "depth samples in the bottom chain: near bands, up to the column's first draw (texel, its height against its slice's least that shows; and an eighth of its group's test)",
            |s| s.bottom_samples,
        ),
        (
            "groups of 8 slices passed over by their test (hidden whatever their texels; not the leading bands every column steps past at once, in the set-up)",
            |s| s.passed_groups,
        ),
        ("draws (samples above the y-buffer: a span each)", |s| s.draws),
        ("span rows (terrain pixel pairs, drawn over the sky)", |s| s.span_rows),
        ("sky rows repainted (pixel pairs the page's last frame showed terrain in; the ROM's count)", |s| {
            s.repainted_rows
        }),
    ];
    let varying: Vec<Counter> = all.into_iter().filter(|(_, g)| stats.iter().any(|s| g(s) != g(&stats[0]))).collect();
    let constant: Vec<String> = all
        .iter()
        .filter(|(_, g)| stats.iter().all(|s| g(s) == g(&stats[0])))
        .map(|(name, g)| format!("{} {}", g(&stats[0]), name.split(" (").next().unwrap_or("")))
        .collect();
    let xs: Vec<Vec<f64>> =
        stats.iter().map(|s| std::iter::once(1.0).chain(varying.iter().map(|(_, g)| g(s) as f64)).collect()).collect();
    // The render less its timed parts: the set-up, and the sky rows filled
    // (the whole page's time by rows). The fit's constant is what they
    // leave unexplained.
    let ys: Vec<f64> = frames
        .iter()
        .map(|f| num(f, "render") as f64 - (sky_cycles * fill_rows(f) / PAGE_ROWS + setup_cycles) as f64)
        .collect();
    let mut fit_text = String::new();
    let mut fit_json = vec![
        ("samples_per_frame_counted", Json::Int(s_mean)),
        ("draws_per_frame", Json::Int(d_mean)),
        ("hidden_samples_per_frame", Json::Int(s_mean - d_mean)),
        ("bottom_samples_per_frame", Json::Int(sum(|s| s.bottom_samples))),
        ("visible_runs_per_frame", Json::Int(runs_mean)),
        ("sky_page_cycles", Json::Int(sky_cycles)),
        ("setup_cycles", Json::Int(setup_cycles)),
        ("setup_first_extra_cycles", Json::Int(first_extra)),
        ("log_line_cycles_max", Json::Int(log_line)),
        ("cache_follow_still_cycles", Json::Int(lines.still)),
        ("cache_near_column_cycles", Json::Int(lines.near_column)),
        ("cache_near_row_cycles", Json::Int(lines.near_row)),
        ("cache_far_column_cycles", Json::Int(lines.far_column)),
        ("cache_far_row_cycles", Json::Int(lines.far_row)),
        ("cache_full_fill_cycles", Json::Int(full_fill)),
        ("sky_pages_filled", Json::Int(whole)),
        ("sky_fills", Json::Int(fills)),
        ("sky_fill_rows_per_frame", Json::Int(filled_rows / n)),
        ("sky_rows_repainted_per_frame", Json::Int(repainted / n)),
        ("skipped_slices_per_frame", Json::Int(skip_mean)),
        ("passed_groups_per_frame", Json::Int(sum(|s| s.passed_groups))),
        ("span_rows_per_frame", Json::Int(span_mean)),
        ("sky_rows_per_frame", Json::Int(sky_mean)),
    ];
    if let Some(c) = least_squares(&xs, &ys) {
        let predicted: Vec<f64> = xs.iter().map(|x| x.iter().zip(&c).map(|(a, b)| a * b).sum()).collect();
        let err = ys.iter().zip(&predicted).map(|(y, p)| (y - p).abs() / y).sum::<f64>() / ys.len() as f64;
        writeln!(
            fit_text,
            "\nThe render, explained by counters: the host's reference renderer draws each logged frame again (the \
             same frame, pixel for pixel) and counts {s_mean} samples, {d_mean} draws ({} hidden samples) in \
             {runs_mean} visible runs (draws by consecutive samples), {skip_mean} slices skipped, {span_mean} span \
             rows and {sky_mean} sky rows per frame on average (the \
             ROM's own samples and skips are the same, frame by frame); the ROM counts the sky rows it \
             repainted, {} per frame; a least-squares fit of the ROM's render cycles, less its timed parts, on \
             the counts that vary gives each one's cost (mean error of the fit {:.2}%):\n",
            s_mean - d_mean,
            repainted / n,
            err * 100.0
        )?;
        writeln!(fit_text, "| per frame | count (mean) | cycles each (fit) | cycles (mean) |")?;
        writeln!(fit_text, "|---|---|---|---|")?;
        writeln!(
            fit_text,
            "| sky rows filled before the terrain, in pages of 160 (the whole page timed alone) | {:.3} | {sky_cycles} | {} |",
            filled_rows as f64 / PAGE_ROWS as f64 / n as f64,
            sky_total / n
        )?;
        writeln!(
            fit_text,
            "| set-up, timed alone in the ROM's first 3D frame (a frame from 1,500 px up, every band hidden): the slice \
             tables (built again when the horizon, the eye's height or the height scale changed, as here: the camera is new), per column its rays, 6 bands' steps into their heads, its steps past the bands hidden in every column (here all six: a frame \
             that marches a band does not step past it, so the fitted costs below come out less by that share, a few cycles a \
             group) and its top on the page (the first frame at a bank's height scale takes {first_extra} more: the \
             scale's reciprocals for the bottom chain come with the landscape) | 1 | {setup_cycles} | {setup_cycles} |"
        )?;
        writeln!(
            fit_text,
            "| fixed, the rest (the fit's constant: what the timed parts leave){} | 1 | {:.0} | {:.0} |",
            if constant.is_empty() { String::new() } else { format!("; with the {}", constant.join(", ")) },
            c[0],
            c[0]
        )?;
        for (k, (name, g)) in varying.iter().enumerate() {
            let count = stats.iter().map(|s| g(s) as u64).sum::<u64>() / n;
            writeln!(fit_text, "| {name} | {count} | {:.1} | {:.0} |", c[k + 1], c[k + 1] * count as f64)?;
            fit_json.push((
                match k {
                    _ if name.starts_with("depth") => "fit_cycles_per_sample",
                    _ if name.starts_with("draws") => "fit_cycles_per_draw",
                    _ if name.starts_with("groups") => "fit_cycles_per_passed_group",
                    _ if name.starts_with("span") => "fit_cycles_per_span_row",
                    _ => "fit_cycles_per_repainted_row",
                },
                Json::Float(c[k + 1]),
            ));
        }
        fit_json.push(("fit_rest_cycles", Json::Float(c[0])));
        fit_json.push(("fit_mean_error", Json::Float(err)));
    }
    text.push_str(&fit_text);
    // What skips could still spare: the samples of groups marched to their
    // end without a draw, over every frame and over those that took more
    // than a refresh.
    let silent_mean = sum(|s| s.silent_samples);
    let over: Vec<&voxel::Stats> =
        frames.iter().zip(&stats).filter(|(f, _)| num(f, "cycles") > REFRESH).map(|(_, s)| s).collect();
    let over_sum =
        |g: fn(&voxel::Stats) -> u32| over.iter().map(|s| g(s) as u64).sum::<u64>() / over.len().max(1) as u64;
    let (over_samples, over_silent) = (over_sum(|s| s.samples), over_sum(|s| s.silent_samples));
    let pct = |a: u64, b: u64| 100.0 * a as f64 / b.max(1) as f64;
    writeln!(
        text,
        "\nWhat a skip could still spare: {silent_mean} samples per frame ({:.0}% of them) lie in groups of 8 slices \
         marched to their end without a draw (the reference renderer's count); in the {} frames over one refresh \
         {over_silent} of {over_samples} ({:.0}%). A group test that could tell such a group without reading its \
         texels would pass over it; the tests above (the highest tile under each near band, the highest block under the first, the relief's top beyond) \
         pass over {skip_mean} slices a frame.",
        pct(silent_mean, s_mean),
        over.len(),
        pct(over_silent, over_samples)
    )?;
    fit_json.push(("silent_samples_per_frame", Json::Int(silent_mean)));
    fit_json.push(("silent_samples_per_frame_over_a_refresh", Json::Int(over_silent)));
    let jsonl = json_line(
        &[
            ("name", Json::Str("flight".into())),
            ("columns", Json::Int(120)),
            ("slices", Json::Int(96)),
            ("median", Json::Int(median)),
            ("p95", Json::Int(p95)),
            ("max", Json::Int(max)),
            ("frames_within_one_refresh", Json::Int(within as u64)),
            ("frames", Json::Int(n)),
            ("refreshes", Json::Int(refreshes)),
            ("displayed_fps", Json::Float(displayed_fps(n, refreshes))),
            ("shown_in_vblank", Json::Int(shown("vblank") as u64)),
            ("shown_over_sky", Json::Int(shown("sky") as u64)),
            ("shown_at_next_vblank", Json::Int(shown("next") as u64)),
            ("same_rows_median", Json::Int(same_rows)),
            ("samples_per_frame", Json::Int(spf)),
            ("cycles_per_sample", Json::Float(cps)),
            ("cycles_per_slice", Json::Float(cpl)),
            ("cache_cycles_per_frame", Json::Int(cm)),
            ("window_cycles_per_frame", Json::Int(wm)),
            ("flight_cycles_per_frame", Json::Int(flight / n)),
        ]
        .into_iter()
        .chain(fit_json)
        .collect::<Vec<_>>(),
    ) + "\n";
    Ok(Report { text, jsonl, flight: flown(&report, MIN_FRAMES)? })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shifting moves every entry, releases too, and keeps the keys.
    #[test]
    fn a_shifted_script_keeps_its_keys() {
        assert_eq!(shifted("30:UP,151:UP+RIGHT,160:", 7), "37:UP,158:UP+RIGHT,167:");
        assert_eq!(shifted(SCRIPT, 0), SCRIPT);
        shifted(SCRIPT, 400).parse::<KeyScript>().expect("a key script");
    }

    /// Each line's cost is its move's less the one before it; a move that
    /// read other lines than one at a time is an error, not a figure.
    #[test]
    fn cache_lines_are_the_moves_differences() {
        let line = "cache_lines still=600/0 east=2900/128 east=7800/384 south=2950/128 south=7700/384";
        let c = CacheLines::parse(line).unwrap();
        assert_eq!(c, CacheLines { still: 600, near_column: 2300, far_column: 4900, near_row: 2350, far_row: 4750 });
        let rebuilt = "cache_lines still=600/0 east=2900/128 east=7800/640 south=2950/128 south=7700/384";
        assert!(CacheLines::parse(rebuilt).unwrap_err().to_string().contains("one line at a time"));
        assert!(CacheLines::parse("cache_lines still=600/0").is_err());
        assert!(CacheLines::parse("cache_lines still=600").is_err());
    }
}
