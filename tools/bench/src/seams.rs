//! Seams: how visible tile borders are with plain placement (tiles as cut,
//! as in the paper) and with ours (edges faded at bake time), and what ours
//! costs per frame (the same flight, each bank packed into the same ROM).

use crate::record::{Json, json_line};
use crate::render;
use anyhow::Result;
use std::fmt::Write;
use std::path::Path;

pub struct Report {
    pub text: String,
    pub jsonl: String,
}

fn bake(root: &Path, seam_band: u32) -> Result<Vec<u8>> {
    let mut options = tilebake::Options::from_manifest(&root.join("assets/terrain.toml"))?;
    options.seam_band = seam_band;
    Ok(tilebake::bake(&options, &mut |_, _, _| {})?.bytes)
}

pub fn bench(root: &Path, rom: &[u8]) -> Result<Report> {
    let ours_band = tilebake::Options::from_manifest(&root.join("assets/terrain.toml"))?.seam_band;
    let mut rows = Vec::new();
    for (placement, band) in [("paper", 0), ("ours", ours_band)] {
        let bytes = bake(root, band)?;
        let bank = bank::parse(&bytes)?;
        let m = tilebake::seams::measure(&bank, 1, 32);
        let packed = tilebake::pack::pack(Path::new("terrain.gba"), rom, &bytes)?;
        let flight = render::flight(&packed)?;
        rows.push((placement, band, m, flight.median));
    }
    let base = rows[0].3 as f64;
    let mut text = String::new();
    let mut jsonl = String::new();
    writeln!(
        text,
        "Default assets, world seed 1, 32 x 32 tiles measured; cycles: median of the scripted flight with the bank packed into the ROM.\n"
    )?;
    writeln!(
        text,
        "| placement | seam band (texels) | height ratio | colour ratio | median cycles per frame | extra cycles |"
    )?;
    writeln!(text, "|---|---|---|---|---|---|")?;
    for (placement, band, m, median) in &rows {
        let extra = (*median as f64 - base) / base * 100.0;
        let name = if *placement == "paper" { "paper: tiles as cut" } else { "ours: faded edges" };
        writeln!(
            text,
            "| {name} | {band} | {:.3} | {:.3} | {median} | {extra:+.1}% |",
            m.height_ratio, m.colour_ratio
        )?;
        jsonl += &json_line(&[
            ("placement", Json::Str(placement.to_string())),
            ("height_ratio", Json::Float(m.height_ratio)),
            ("colour_ratio", Json::Float(m.colour_ratio)),
            ("extra_cycles_pct", Json::Float(extra)),
        ]);
        jsonl.push('\n');
    }
    writeln!(
        text,
        "\nRatio: mean absolute step between neighbouring texels across tile borders / inside tiles (1.0: borders invisible)."
    )?;
    Ok(Report { text, jsonl })
}
