//! Continuity: how much a world built from the default assets reads as one
//! landscape, for the paper's placement (tiles as cut), the previous
//! release's edge fade, and corner tiles (ours, the default), measured on
//! the world as the ROM places it (`tilebake::measure`), and what each costs
//! per frame (the same flight, each bank packed into the same ROM).

use crate::record::{Json, json_line};
use crate::render::{self, REFRESHES};
use anyhow::Result;
use std::fmt::Write;
use std::path::Path;
use tilebake::{Options, PlacementKind};

pub struct Report {
    pub text: String,
    pub jsonl: String,
}

/// Seeds measured; the figures are their means.
const SEEDS: [u32; 3] = [1, 2, 3];
/// Tiles on a side of each measured square.
const TILES: u32 = 32;

fn bake(root: &Path, edit: impl FnOnce(&mut Options)) -> Result<Vec<u8>> {
    let mut options = Options::from_manifest(&root.join("assets/terrain.toml"))?;
    edit(&mut options);
    Ok(tilebake::bake(&options, &mut |_, _, _| {})?.bytes)
}

/// The seams table; `reference` is `rom`'s flight of the script (the
/// renderer benchmark's): each bank, packed, flies as many refreshes from
/// its ROM's start.
pub fn bench(root: &Path, rom: &[u8], reference: &render::Flight) -> Result<Report> {
    let variants: [(&str, &str, Vec<u8>); 3] = [
        (
            "paper",
            "paper: tiles as cut",
            bake(root, |o| {
                o.placement = PlacementKind::Paper;
            })?,
        ),
        (
            "paper_faded",
            "paper + edge fade (the last release)",
            bake(root, |o| {
                o.placement = PlacementKind::Paper;
                o.seam_band = 6;
            })?,
        ),
        ("corners", "ours: corner tiles", bake(root, |_| {})?),
    ];
    let mut rows = Vec::new();
    for (key, name, bytes) in &variants {
        let bank = bank::parse(bytes)?;
        let all: Vec<tilebake::measure::Measures> =
            SEEDS.iter().map(|&s| tilebake::measure::measure(&bank, s, TILES)).collect::<Result<_, _>>()?;
        let m = tilebake::measure::Measures::mean(&all);
        let packed = tilebake::pack::pack(Path::new("terrain.gba"), rom, bytes)?;
        let flight = render::flight_like(&packed, render::SCRIPT, reference)?;
        rows.push((*key, *name, bank.tile_count(), m, flight.median, flight.mean));
    }
    let base = rows[0].5 as f64;
    let mut text = String::new();
    let mut jsonl = String::new();
    writeln!(
        text,
        "Default assets; the world exactly as the ROM places it, {TILES} x {TILES} tiles, mean of seeds {SEEDS:?}; \
         cycles: median and mean of the scripted flight with the bank packed into the ROM, over as many \
         refreshes from the ROM's start as the built-in bank's flight ({REFRESHES} from power-on; the extra: of the \
         mean, which moves least between builds). Natural maps score 1.0 on the \
         ratios, 0.5 to 0.9 on the correlation, about 0 on grid, periodicity and lattice (`tilebake seams` explains each).\n"
    )?;
    writeln!(
        text,
        "| placement | tiles | height step | colour step | height spread | colour spread | neighbour correlation | \
         height grid | colour grid | height periodicity | colour periodicity | height lattice | colour lattice | median cycles per frame | mean | extra |"
    )?;
    writeln!(text, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")?;
    for (key, name, tiles, m, median, mean) in &rows {
        let extra = (*mean as f64 - base) / base * 100.0;
        writeln!(
            text,
            "| {name} | {tiles} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {median} | {mean} | {extra:+.1}% |",
            m.height_step,
            m.colour_step,
            m.height_spread,
            m.colour_spread,
            m.neighbour_correlation,
            m.height_grid,
            m.colour_grid,
            m.height_periodicity,
            m.colour_periodicity,
            m.height_lattice,
            m.colour_lattice,
        )?;
        let mut fields = vec![("placement", Json::Str(key.to_string())), ("tiles", Json::Int(*tiles as u64))];
        for (k, v) in m.fields() {
            fields.push((k, Json::Float(v)));
        }
        fields.push(("median_cycles", Json::Int(*median)));
        fields.push(("mean_cycles", Json::Int(*mean)));
        fields.push(("extra_cycles_pct", Json::Float(extra)));
        jsonl += &json_line(&fields);
        jsonl.push('\n');
    }
    writeln!(
        text,
        "\nStep: mean step between neighbouring texels across tile borders / inside tiles. Spread: spread of the \
         texels in the tiles' outer band / in their centres. Grid: the largest relative deviation of the mean step at \
         any offset in the tile. Periodicity: how much alike texels one tile apart are (1 - D(tile) / D(tile +- 2)). Lattice: how far the texel that stands out most \
         of those repeated at every tile corner or edge of one kind (the same 2 x 2 texels there) stands out of the \
         land round it (natural about 0; from 5 a lattice shows from above)."
    )?;
    Ok(Report { text, jsonl })
}
