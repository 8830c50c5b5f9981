//! What the product ROM leaves a game: IWRAM and EWRAM from its ELF's linker
//! symbols (`gbarom::memory`), and the cycles left in a frame at 30 and 20
//! frames per second after the flight's 95th-percentile frame.

use anyhow::{Context, Result};
use gbarom::memory::{EWRAM_LIMIT, IWRAM_LIMIT, Region};
use std::fmt::Write;
use std::path::Path;

use crate::render::REFRESH;
/// Items listed: this many bytes or more.
const MIN_ITEM: u64 = 1024;

/// The memory section's text.
pub struct Report {
    pub text: String,
}

/// Reads `elf` (the product ROM) and words it; `p95` is the flight's
/// 95th-percentile frame, cycles.
pub fn report(elf: &Path, p95: u64) -> Result<Report> {
    let m = gbarom::memory::read(elf, MIN_ITEM).with_context(|| "build it with `cargo xtask rom`".to_string())?;
    let mut text = String::new();
    writeln!(text, "Work RAM of the product ROM, from its ELF (`rom/gba.ld`'s `__iwram_end`, `__bss_end`):\n")?;
    writeln!(text, "| | used, bytes | available | left |")?;
    writeln!(text, "|---|---|---|---|")?;
    writeln!(
        text,
        "| IWRAM (below the 4 KB of stacks) | {} | {} | {} |",
        m.iwram_used,
        IWRAM_LIMIT,
        IWRAM_LIMIT - m.iwram_used
    )?;
    writeln!(text, "| EWRAM | {} | {} | {} |\n", m.ewram_used, EWRAM_LIMIT, EWRAM_LIMIT - m.ewram_used)?;
    writeln!(
        text,
        "Items of {MIN_ITEM} bytes or more (`terrain::WORLD`, `TILE_WINDOW`, `TEXEL_CACHE` and `RELIEF` are \
         the ROM's statics holding a `voxel::Landscape`'s parts; `MAP_LAND` is the ROM's own map view, which a \
         game need not have):\n"
    )?;
    writeln!(text, "| where | item | bytes |")?;
    writeln!(text, "|---|---|---|")?;
    for (region, name, bytes) in &m.items {
        let r = match region {
            Region::Iwram => "IWRAM",
            Region::Ewram => "EWRAM",
        };
        writeln!(text, "| {r} | `{name}` | {bytes} |")?;
    }
    writeln!(text)?;
    let left = |refreshes: u64| (refreshes * REFRESH).saturating_sub(p95);
    writeln!(
        text,
        "Cycles a game has left per frame after the flight's p95 frame ({p95} cycles: flight, window, cache, \
         render): {} at 30 fps (2 refreshes), {} at 20 fps (3 refreshes).",
        left(2),
        left(3)
    )?;
    Ok(Report { text })
}
