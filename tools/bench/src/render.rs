//! The renderer benchmark: the product ROM flown along a fixed script; the ROM
//! logs the cycles of every frame it renders.

use crate::record::{Json, json_line, ms};
use anyhow::{Result, bail};
use mgba_test_runner::{KeyScript, RunConfig, run};
use std::collections::HashMap;
use std::fmt::Write;

/// Rendered frames measured.
pub const FRAMES: usize = 600;
/// The flight (emulator frames: keys): straight, turns, climbs and dives, a
/// world change, and (from the start position near the world's corner) wraps.
pub const SCRIPT: &str = "1:UP,151:UP+RIGHT,301:UP+A,421:UP+LEFT,561:UP+B,701:UP+START,713:UP,851:UP+R,\
                          1001:UP+RIGHT+A,1151:UP+L,1301:UP,1501:UP+LEFT+B,1701:UP";
/// CPU cycles per second.
pub const HZ: f64 = 16_777_216.0;
/// Cycles of one screen refresh.
pub const REFRESH: u64 = 280_896;

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
}

/// Per-frame cycle figures of a flight.
pub struct Flight {
    pub median: u64,
}

/// Flies the scripted route and returns the median cycles per frame.
pub fn flight(rom: &[u8]) -> Result<Flight> {
    let keys: KeyScript = SCRIPT.parse()?;
    let stop = format!("frame n={FRAMES} ");
    let report = run(rom, &RunConfig { frames: 6000, keys, stop_on: Some(stop), ..Default::default() })?;
    report.verdict()?;
    let mut cycles: Vec<u64> = report
        .lines()
        .filter(|l| l.starts_with("frame n=") && !l.starts_with("frame n=0 "))
        .filter_map(|l| fields(l).get("cycles").and_then(|v| v.parse().ok()))
        .collect();
    if cycles.len() < FRAMES {
        bail!("the flight rendered only {} frames", cycles.len());
    }
    cycles.sort_unstable();
    Ok(Flight { median: percentile(&cycles, 0.5) })
}

/// Runs the flight and builds the report.
pub fn bench(rom: &[u8]) -> Result<Report> {
    let keys: KeyScript = SCRIPT.parse()?;
    let stop = format!("frame n={FRAMES} ");
    let config = RunConfig { frames: 6000, keys, stop_on: Some(stop.clone()), ..Default::default() };
    let report = run(rom, &config)?;
    report.verdict()?;
    let frames: Vec<HashMap<&str, &str>> =
        report.lines().filter(|l| l.starts_with("frame n=")).map(fields).filter(|f| f["n"] != "0").collect();
    if frames.len() < FRAMES {
        bail!("the flight rendered only {} frames in {} emulator frames", frames.len(), report.frames);
    }
    let fill_cycles = report
        .lines()
        .find(|l| l.starts_with("fill cycles="))
        .and_then(|l| l.trim_start_matches("fill cycles=").parse::<u64>().ok());
    let num = |f: &HashMap<&str, &str>, k: &str| -> u64 { f.get(k).and_then(|v| v.parse().ok()).unwrap_or(0) };
    let mut cycles: Vec<u64> = frames.iter().map(|f| num(f, "cycles")).collect();
    let render: u64 = frames.iter().map(|f| num(f, "render")).sum();
    let window: u64 = frames.iter().map(|f| num(f, "window")).sum();
    let samples: u64 = frames.iter().map(|f| num(f, "samples")).sum();
    let total: u64 = cycles.iter().sum();
    let refreshes: u64 = frames.iter().map(|f| num(f, "refreshes")).sum();
    let seeds: std::collections::BTreeSet<&str> = frames.iter().map(|f| f["seed"]).collect();
    cycles.sort_unstable();
    let n = frames.len() as u64;
    let (median, p95, max) = (percentile(&cycles, 0.5), percentile(&cycles, 0.95), *cycles.last().unwrap());
    let spf = samples / n;
    let cps = render as f64 / samples.max(1) as f64;
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
        "Displayed: {:.1} frames per second ({:.2} refreshes per frame on average, the ROM flips at VBlank).",
        59.7275 * n as f64 / refreshes as f64,
        refreshes as f64 / n as f64
    )?;
    writeln!(
        text,
        "Depth samples per frame: {spf} (columns stop once filled to the top); render cycles per sample: {cps:.1}.\n"
    )?;
    writeln!(text, "Where the cycles go (per frame, mean):\n")?;
    writeln!(text, "| part | cycles | share |")?;
    writeln!(text, "|---|---|---|")?;
    let share = |c: u64| format!("{:.0}%", 100.0 * c as f64 / total as f64);
    let (rm, wm, tm) = (render / n, window / n, total / n);
    if let Some(fill) = fill_cycles {
        writeln!(
            text,
            "| fill, at most: 19,200 byte stores, one per pixel pair, in a plain loop (measured alone at boot; the march's unrolled spans and the sky's word stores are faster) | {fill} | {} |",
            share(fill * n)
        )?;
        writeln!(
            text,
            "| march, at least: samples, projection, y-buffer (render minus the fill above) | {} | {} |",
            rm.saturating_sub(fill),
            share((rm.saturating_sub(fill)) * n)
        )?;
    } else {
        writeln!(text, "| render (march + fill) | {rm} | {} |", share(render))?;
    }
    writeln!(text, "| window update (on tile crossings) | {wm} | {} |", share(window))?;
    writeln!(text, "| rest: flight, input, HUD | {} | {} |", tm - rm - wm, share(total - render - window))?;
    writeln!(text, "| flip: waiting for VBlank | not counted (the CPU sleeps) | |")?;
    let jsonl = json_line(&[
        ("name", Json::Str("flight".into())),
        ("columns", Json::Int(120)),
        ("slices", Json::Int(96)),
        ("median", Json::Int(median)),
        ("p95", Json::Int(p95)),
        ("max", Json::Int(max)),
        ("samples_per_frame", Json::Int(spf)),
        ("cycles_per_sample", Json::Float(cps)),
    ]) + "\n";
    Ok(Report { text, jsonl })
}
