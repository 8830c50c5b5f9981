//! Every configuration a user can pick, flown the same way: the scripted
//! flight in each view, with the HUD on, held low at the minimum clearance,
//! and with banks of every tile size the format allows (each packed into the
//! same ROM). Cycles per frame and the frame rate the screen shows.

use crate::record::{Json, json_line};
use crate::render::{self, ROUTE_START, SCRIPT, fields};
use anyhow::{Context, Result, bail};
use std::fmt::Write;
use std::path::Path;
use tilebake::{Options, Pair};

pub struct Report {
    pub text: String,
    pub jsonl: String,
}

/// Tiles on a side of the generated pair baked at each tile size.
const PAIR_TILES: u32 = 16;

/// Emulator frame from which the ROM reads the keypad (after its boot).
const FIRST_INPUT: usize = 21;

/// The scripted flight after `presses`: each pressed for two emulator
/// frames and released for two, from [`FIRST_INPUT`] on, all before the
/// flight starts ([`ROUTE_START`]), which then flies as it does unpressed.
///
/// # Panics
/// If the presses do not end before the flight starts (two at most).
fn after(presses: &[&str]) -> String {
    assert!(FIRST_INPUT as u32 + 4 * presses.len() as u32 <= ROUTE_START, "the presses end before the flight");
    let mut s = String::new();
    for (i, keys) in presses.iter().enumerate() {
        write!(s, "{}:{keys},{}:,", FIRST_INPUT + 4 * i, FIRST_INPUT + 4 * i + 2).expect("a String");
    }
    s + SCRIPT
}

/// The scripted flight with B (descend) held throughout and A never pressed.
fn low() -> String {
    SCRIPT
        .split(',')
        .map(|entry| {
            let (frame, keys) = entry.split_once(':').expect("FRAME:KEYS");
            let keys: Vec<&str> = keys.split('+').filter(|k| *k != "A" && *k != "B" && !k.is_empty()).collect();
            format!("{frame}:{}+B", keys.join("+"))
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Looking up and down while turning on the spot (SELECT held throughout
/// stops the flight): up and down in turns of 24 frames (the pitch sweeps 48
/// rows and back, short of its limit) and right. Every frame but those at
/// the turns of the pitch comes at a new horizon and fills the whole sky:
/// the worst case for the pages' memory of their sky.
fn looking() -> String {
    (0..80)
        .map(|k| format!("{}:SELECT+{}+RIGHT", FIRST_INPUT + 24 * k, if k % 2 == 0 { "UP" } else { "DOWN" }))
        .collect::<Vec<_>>()
        .join(",")
}

/// The scripted flight without START: one world. A world change's seed
/// counts the refreshes from power-on, which a packed bank's check moves, so
/// the tile sizes' rows fly their first world only, the same from build to
/// build.
fn one_world() -> String {
    SCRIPT.replace("+START", "")
}

/// The median of the frames' camera altitudes, world px (`z` is 24.8): how
/// high a flight flies sets much of its cost (the lower, the more of the
/// ground is sampled and drawn), and it differs from landscape to landscape
/// with the same keys.
///
/// # Errors
/// If a frame's line has no altitude, or one below the ground's zero (the
/// ROM's flight keeps a clearance above the ground).
fn median_altitude(flight: &render::Flight) -> Result<u64> {
    let mut z = Vec::with_capacity(flight.lines.len());
    for line in &flight.lines {
        let Some(v) = fields(line).get("z").and_then(|v| v.parse::<i64>().ok()) else {
            bail!("a frame's line gives no altitude: {line}");
        };
        let Ok(v) = u64::try_from(v) else {
            bail!("a frame's altitude is below 0: {line}");
        };
        z.push(v >> 8);
    }
    z.sort_unstable();
    Ok(z.get(z.len() / 2).copied().unwrap_or(0))
}

/// The mean of `key` over the flight's frames (rounded down; 0 for none).
fn mean_field(flight: &render::Flight, key: &str) -> u64 {
    let values: Vec<u64> =
        flight.lines.iter().filter_map(|l| fields(l).get(key).and_then(|v| v.parse().ok())).collect();
    values.iter().sum::<u64>().checked_div(values.len() as u64).unwrap_or(0)
}

/// The largest value of `key` over the flight's frames.
fn max_field(flight: &render::Flight, key: &str) -> u64 {
    flight.lines.iter().filter_map(|l| fields(l).get(key).and_then(|v| v.parse().ok())).max().unwrap_or(0)
}

/// Every configuration's row; `default` is `rom`'s flight of [`SCRIPT`]
/// (the renderer benchmark's): its frames, and the refreshes every other
/// flight takes.
pub fn bench(root: &Path, rom: &[u8], default: &render::Flight) -> Result<Report> {
    let mut text = String::new();
    let mut jsonl = String::new();
    let default_rom = rom;
    writeln!(
        text,
        "The scripted flight in every configuration a user can pick, over the same screen refreshes as the \
         default configuration ({} from power-on: a slower configuration renders fewer frames in them). The views, the HUD and 240 columns fly the same cameras and worlds as the default; \
         the low flight and looking round fly their own keys. Tile sizes: a pair made by \
         `tilebake generate --seed 1` at {PAIR_TILES} tiles a side (512 x 512 at 32 px: the default assets), baked \
         with the defaults at that tile size and packed into the same ROM: other worlds (but at 32 px), flown with the same keys \
         less START (their first world throughout: a new world's seed counts the refreshes from power-on, which the \
         check of a packed bank moves) from when the ROM is ready (it checks a packed bank first) for as many \
         refreshes. The 32-px row is the default bank so packed and flown: one world, as the other sizes (the \
         default row flies two, and its second costs less), so compare the sizes with it. Altitude and samples: \
         the lower a flight, the more of the ground its frames sample and draw; with the same keys each landscape \
         (each tile size's) is flown at its own height.\n",
        default.last_refresh
    )?;
    writeln!(
        text,
        "| configuration | median | mean | p95 | max | displayed fps | altitude, px (median) | samples a frame (mean) |"
    )?;
    writeln!(text, "|---|---|---|---|---|---|---|---|")?;
    let mut row = |key: &str, label: &str, rom: &[u8], script: &str, check: &dyn Fn(&render::Flight) -> Result<()>| {
        let flight = if script == SCRIPT && rom == default_rom {
            Ok(default.clone())
        } else if rom == default_rom {
            render::flight_refreshes(rom, script, default.last_refresh)
        } else {
            render::flight_like(rom, script, default)
        }
        .with_context(|| format!("the {label} flight"))?;
        check(&flight).with_context(|| format!("the {label} flight"))?;
        let (altitude, samples) = (median_altitude(&flight)?, mean_field(&flight, "samples"));
        writeln!(
            text,
            "| {label} | {} | {} | {} | {} | {:.1} | {altitude} | {samples} |",
            flight.median, flight.mean, flight.p95, flight.max, flight.fps
        )?;
        jsonl += &json_line(&[
            ("name", Json::Str(key.into())),
            ("median", Json::Int(flight.median)),
            ("mean", Json::Int(flight.mean)),
            ("p95", Json::Int(flight.p95)),
            ("max", Json::Int(flight.max)),
            ("fps", Json::Float(flight.fps)),
            ("altitude_px", Json::Int(altitude)),
            ("samples", Json::Int(samples)),
        ]);
        jsonl.push('\n');
        anyhow::Ok(())
    };
    let view = |n: u64| {
        move |f: &render::Flight| {
            if max_field(f, "view") != n {
                bail!("the ROM did not switch to view {n}");
            }
            Ok(())
        }
    };
    let any = |_: &render::Flight| Ok(());
    row("default", "3D view (the default)", rom, SCRIPT, &any)?;
    row("hud", "3D view, HUD on (L + R)", rom, &after(&["L+R"]), &|f| {
        if max_field(f, "hud_objects") == 0 {
            bail!("the HUD did not come on");
        }
        Ok(())
    })?;
    row("boundaries", "boundary view (SELECT)", rom, &after(&["SELECT"]), &view(1))?;
    row("map", "map view (SELECT twice)", rom, &after(&["SELECT", "SELECT"]), &view(2))?;
    row("low", "low flight: B held, at the minimum clearance", rom, &low(), &any)?;
    row(
        "looking",
        "looking up and down, turning on the spot (SELECT + up/down: nearly every frame a new pitch: the sky filled anew)",
        rom,
        &looking(),
        &|f| {
            let pitches: Vec<String> =
                f.lines.iter().filter_map(|l| fields(l).get("pitch").map(|p| p.to_string())).collect();
            let moved = pitches.windows(2).filter(|w| w[0] != w[1]).count();
            // All but the frames at the pitch's turns (one in 12 at two
            // refreshes a frame).
            if moved < pitches.len() * 3 / 4 {
                bail!("only {moved} of {} frames moved the pitch", pitches.len());
            }
            Ok(())
        },
    )?;
    let pixels = |f: &render::Flight| {
        if max_field(f, "columns") != 240 {
            bail!("the ROM did not switch to 240 columns");
        }
        Ok(())
    };
    row("columns_240", "240 columns, one per pixel (SELECT + R)", rom, &after(&["SELECT+R"]), &pixels)?;
    // 240 columns with the other choices that change the 3D frame's work.
    row("columns_240_hud", "240 columns, HUD on (SELECT + R, L + R)", rom, &after(&["SELECT+R", "L+R"]), &|f| {
        pixels(f)?;
        if max_field(f, "hud_objects") == 0 {
            bail!("the HUD did not come on");
        }
        Ok(())
    })?;
    row(
        "columns_240_boundaries",
        "240 columns, boundary view (SELECT + R, SELECT)",
        rom,
        &after(&["SELECT+R", "SELECT"]),
        &|f| {
            pixels(f)?;
            view(1)(f)
        },
    )?;
    let dir = tempfile::tempdir()?;
    // Every size, 32 px too: the default assets packed, one world, to set
    // the other sizes against (the default row flies two worlds).
    for tile in bank::TILE_SIZES.map(u32::from) {
        let out = dir.path().join(tile.to_string());
        let [height, texture] = tilebake::generate::write(1, tile * PAIR_TILES, &out)?;
        let mut options = Options::from_manifest(&root.join("assets/terrain.toml"))?;
        options.pairs = vec![Pair { height, texture }];
        options.tile_size = tile;
        let baked = tilebake::bake(&options, &mut |_, _, _| {}).with_context(|| format!("baking {tile}-px tiles"))?;
        let packed = tilebake::pack::pack(Path::new("terrain.gba"), rom, &baked.bytes)?;
        let side = tile * PAIR_TILES;
        row(
            &format!("tile_{tile}"),
            &format!("{tile}-px tiles ({side} x {side} pair, {} tiles stored)", baked.tiles_stored),
            &packed,
            &one_world(),
            &|f| {
                let seeds: std::collections::BTreeSet<&str> =
                    f.lines.iter().filter_map(|l| fields(l).get("seed").copied()).collect();
                if seeds.len() != 1 {
                    bail!("the flight flew {} worlds, not one", seeds.len());
                }
                Ok(())
            },
        )?;
    }
    Ok(Report { text, jsonl })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mgba_test_runner::KeyScript;

    /// The presses come after the boot, each released before the next, and
    /// before the flight, which follows them unchanged: every configuration
    /// flies the same refreshes.
    #[test]
    fn presses_come_first_then_the_same_flight() {
        let s = after(&["SELECT", "SELECT"]);
        assert!(s.starts_with("21:SELECT,23:,25:SELECT,27:,30:UP,151:UP+RIGHT,"), "{s}");
        assert!(s.ends_with(SCRIPT), "{s}");
        assert!(after(&[]) == SCRIPT && after(&["L+R"]).ends_with(SCRIPT));
        assert!(SCRIPT.starts_with(&format!("{ROUTE_START}:")));
        s.parse::<KeyScript>().expect("a key script");
    }

    fn flight_of(lines: &[&str]) -> render::Flight {
        render::Flight {
            median: 0,
            mean: 0,
            p95: 0,
            max: 0,
            fps: 0.0,
            lines: lines.iter().map(|l| l.to_string()).collect(),
            last_refresh: 0,
            loop_start: 0,
        }
    }

    /// The altitude column: the median of the frames' `z` in whole pixels;
    /// a frame without one, or below 0, is an error, not a skipped frame.
    #[test]
    fn altitude_is_the_frames_median_and_samples_their_mean() {
        let f = flight_of(&["n=1 z=25600 samples=10", "n=2 z=12900 samples=20", "n=3 z=51199 samples=31"]);
        assert_eq!(median_altitude(&f).unwrap(), 100);
        assert_eq!(mean_field(&f, "samples"), 20);
        assert_eq!(mean_field(&f, "absent"), 0);
        assert!(median_altitude(&flight_of(&["n=1 z=-256"])).unwrap_err().to_string().contains("below 0"));
        assert!(median_altitude(&flight_of(&["n=1 x=3"])).unwrap_err().to_string().contains("no altitude"));
    }

    /// The tile sizes' flight is the scripted one with START let go: the
    /// same keys at the same refreshes otherwise.
    #[test]
    fn one_world_drops_start_only() {
        let s = one_world();
        assert!(SCRIPT.contains("+START") && !s.contains("START"), "{s}");
        assert_eq!(s.split(',').count(), SCRIPT.split(',').count());
        for (a, b) in SCRIPT.split(',').zip(s.split(',')) {
            assert_eq!(a.replace("+START", ""), b);
        }
        s.parse::<KeyScript>().expect("a key script");
    }

    /// A third press would run into the flight.
    #[test]
    #[should_panic(expected = "the presses end before the flight")]
    fn three_presses_do_not_fit_before_the_flight() {
        after(&["SELECT", "SELECT", "SELECT"]);
    }

    /// Looking round holds SELECT and RIGHT throughout, up and down in turns.
    #[test]
    fn looking_holds_select_and_turns_the_pitch_both_ways() {
        let s = looking();
        assert!(s.starts_with("21:SELECT+UP+RIGHT,45:SELECT+DOWN+RIGHT,69:SELECT+UP+RIGHT,"), "{s}");
        assert!(s.split(',').all(|e| e.ends_with("+RIGHT") && e.contains(":SELECT+")), "{s}");
        s.parse::<KeyScript>().expect("a key script");
    }

    /// The low flight holds B in every entry and never climbs.
    #[test]
    fn the_low_flight_holds_b_and_never_climbs() {
        let s = low();
        for entry in s.split(',') {
            let keys: Vec<&str> = entry.split_once(':').expect("FRAME:KEYS").1.split('+').collect();
            assert!(keys.contains(&"B") && !keys.contains(&"A"), "{entry}");
        }
        assert_eq!(s.split(',').count(), SCRIPT.split(',').count());
        assert!(s.starts_with("30:UP+B,151:UP+RIGHT+B,301:UP+B,"), "{s}");
        s.parse::<KeyScript>().expect("a key script");
    }
}
