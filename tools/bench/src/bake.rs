//! tilebake's speed on the host: wall-clock time to bake what a user bakes
//! (host time, so it varies a little from run to run: the median of 3 runs).
//!
//! The inputs: the default assets (512 x 512) and pairs made by `tilebake
//! generate` at 1024 and 2048 texels a side, baked as the defaults do (a
//! corner set of 32-texel tiles), and the default assets with the paper's
//! placement (tiles as cut) for comparison.

use crate::record::{Json, json_line};
use anyhow::Result;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tilebake::{Options, Pair, PlacementKind};

pub struct Report {
    pub text: String,
    pub jsonl: String,
}

pub fn bench(root: &Path) -> Result<Report> {
    let dir = tempfile::tempdir()?;
    let mut text = String::new();
    let mut jsonl = String::new();
    writeln!(text, "| pair | placement | tile | tiles stored | bake time (median of 3) |")?;
    writeln!(text, "|---|---|---|---|---|")?;
    let assets = root.join("assets");
    let mut inputs: Vec<(u32, PathBuf, PathBuf, PlacementKind)> = vec![
        (512, assets.join("height.png"), assets.join("texture.png"), PlacementKind::Paper),
        (512, assets.join("height.png"), assets.join("texture.png"), PlacementKind::Corners),
    ];
    for side in [1024u32, 2048] {
        let out = dir.path().join(side.to_string());
        tilebake::generate::write(1, side, &out)?;
        inputs.push((side, out.join("height.png"), out.join("texture.png"), PlacementKind::Corners));
    }
    for (side, height, texture, placement) in inputs {
        let mut options = Options::from_manifest(&assets.join("terrain.toml"))?;
        options.pairs = vec![Pair { height, texture }];
        options.placement = placement;
        let mut times_ms = Vec::new();
        let mut baked = None;
        for _ in 0..3 {
            let start = Instant::now();
            baked = Some(tilebake::bake(&options, &mut |_, _, _| {})?);
            times_ms.push(start.elapsed().as_secs_f64() * 1000.0);
        }
        times_ms.sort_by(f64::total_cmp);
        let baked = baked.expect("three runs");
        let name = match placement {
            PlacementKind::Paper => "paper",
            PlacementKind::Corners => "corners",
        };
        writeln!(
            text,
            "| {side} x {side} | {name} | {} px | {} | {:.0} ms |",
            options.tile_size, baked.tiles_stored, times_ms[1]
        )?;
        jsonl += &json_line(&[
            ("name", Json::Str("bake".into())),
            ("side", Json::Int(side as u64)),
            ("placement", Json::Str(name.into())),
            ("tile_size", Json::Int(options.tile_size as u64)),
            ("tiles_stored", Json::Int(baked.tiles_stored as u64)),
            ("ms", Json::Float(times_ms[1])),
        ]);
        jsonl.push('\n');
    }
    Ok(Report { text, jsonl })
}
