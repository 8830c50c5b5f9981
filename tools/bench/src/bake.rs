//! tilebake's speed on the host: wall-clock time to bake pairs of growing size
//! (host time, so it varies a little from run to run: the median of 3 runs).
//!
//! The inputs are the default assets (256 x 256) repeated 1x1, 2x2, 4x4 and
//! 8x8 times: 16 px tiles then give 256 distinct tiles at every size, so each
//! bake succeeds and the time shows how the work grows with pixels and tiles cut.

use crate::record::{Json, json_line};
use anyhow::Result;
use image::{GenericImage, GenericImageView};
use std::fmt::Write;
use std::path::Path;
use std::time::Instant;

pub struct Report {
    pub text: String,
    pub jsonl: String,
}

fn tiled(src: &Path, dst: &Path, times: u32) -> Result<()> {
    let img = image::open(src)?;
    let (w, h) = img.dimensions();
    let mut out = image::DynamicImage::new(w * times, h * times, img.color());
    for ty in 0..times {
        for tx in 0..times {
            out.copy_from(&img, tx * w, ty * h)?;
        }
    }
    out.save(dst)?;
    Ok(())
}

pub fn bench(root: &Path) -> Result<Report> {
    let dir = tempfile::tempdir()?;
    let mut text = String::new();
    let mut jsonl = String::new();
    writeln!(text, "| pair | tile | tiles cut | distinct | bake time (median of 3) |")?;
    writeln!(text, "|---|---|---|---|---|")?;
    for times in [1u32, 2, 4, 8] {
        let (h, t) = (dir.path().join(format!("h{times}.png")), dir.path().join(format!("t{times}.png")));
        tiled(&root.join("assets/height.png"), &h, times)?;
        tiled(&root.join("assets/texture.png"), &t, times)?;
        let options = tilebake::Options {
            tile_size: 16,
            colours: 52,
            pairs: vec![tilebake::Pair { height: h, texture: t }],
            seam_band: 0,
        };
        let mut times_ms = Vec::new();
        let mut baked = None;
        for _ in 0..3 {
            let start = Instant::now();
            baked = Some(tilebake::bake(&options, &mut |_, _, _| {})?);
            times_ms.push(start.elapsed().as_secs_f64() * 1000.0);
        }
        times_ms.sort_by(f64::total_cmp);
        let baked = baked.expect("three runs");
        let side = 256 * times;
        writeln!(
            text,
            "| {side} x {side} | 16 px | {} | {} | {:.0} ms |",
            baked.tiles_cut, baked.tiles_stored, times_ms[1]
        )?;
        jsonl += &json_line(&[
            ("name", Json::Str("bake".into())),
            ("side", Json::Int(side as u64)),
            ("tile_size", Json::Int(16)),
            ("tiles_cut", Json::Int(baked.tiles_cut as u64)),
            ("tiles_stored", Json::Int(baked.tiles_stored as u64)),
            ("ms", Json::Float(times_ms[1])),
        ]);
        jsonl.push('\n');
    }
    Ok(Report { text, jsonl })
}
