//! `inspect`: what a bank holds, and its memory next to the paper's Table 5.

use crate::error::{Error, Result};
use crate::io;
use std::fmt::Write;
use std::path::Path;

/// Reads and validates a bank file: it parses, and it makes a world (a bank
/// can parse and still not: hand-made corner classes too close together,
/// which the ROM would show its error screen for).
pub fn load(path: &Path) -> Result<Vec<u8>> {
    let bytes = io::read(path)?;
    let b = bank::parse(&bytes).map_err(|source| match source {
        // What it is instead, when that is plain: a common mix-up.
        bank::BankError::BadMagic if bytes.starts_with(io::PNG_SIGNATURE) => {
            Error::NotBank { path: path.to_path_buf(), what: "a PNG image (tilebake bake makes banks of PNGs)" }
        }
        bank::BankError::BadMagic if gbarom::check_header(&bytes).is_ok() => Error::NotBank {
            path: path.to_path_buf(),
            what: "a GBA ROM (tilebake pack puts a bank into a ROM; give the bank itself)",
        },
        bank::BankError::BadMagic if bytes.starts_with(&voxel::flight::FILE_MAGIC) => Error::NotBank {
            path: path.to_path_buf(),
            what: "a relief file (tilebake relief makes one of a bank; give the bank itself)",
        },
        source => Error::Bank { path: path.to_path_buf(), source },
    })?;
    crate::world::with_texels(&b, 1, |_| ()).map_err(|reason| Error::Landscape { path: path.to_path_buf(), reason })?;
    Ok(bytes)
}

/// The report `tilebake inspect` prints.
pub fn report(path: &Path) -> Result<String> {
    let bytes = load(path)?;
    let b = bank::parse(&bytes).map_err(|source| Error::Bank { path: path.to_path_buf(), source })?;
    let h = *b.header();
    let n = b.tile_size();
    let mut s = String::new();
    let name = crate::io::one_line(&path.display().to_string());
    let _ = writeln!(s, "bank {name}: {} bytes, format version {}", bytes.len(), h.version);
    let _ = writeln!(
        s,
        "checksum: {:#010x} (CRC-32 of the header XOR of the {} payload bytes, ok)",
        h.crc32, h.payload_len
    );
    let _ = writeln!(s, "tiles: {} of {n}x{n} texels", b.tile_count());
    match b.placement() {
        bank::Placement::Paper => {
            let _ = writeln!(s, "placement: paper (tiles as cut, chosen by the random table alone)");
        }
        bank::Placement::Corners(c) => {
            let used: Vec<String> = c.thresholds[..c.classes as usize - 1].iter().map(|t| t.to_string()).collect();
            // Configurations a world cannot make borrow another's tiles: count
            // the distinct tile runs.
            let mut firsts: Vec<u8> =
                c.configs.iter().filter(|e| e.count == bank::COMBINATIONS).map(|e| e.first).collect();
            firsts.sort_unstable();
            firsts.dedup();
            let full = firsts.len();
            let _ = writeln!(
                s,
                "placement: corners, {} classes (world field thresholds {}), {full} configurations x {} edge combinations",
                c.classes,
                used.join(", "),
                bank::COMBINATIONS
            );
        }
    }
    let scale = b.height_scale() as f64 / 256.0;
    let _ = writeln!(
        s,
        "height scale: {scale:.3} world px per unit (texels are 4 world px: heights 0..255 span 0..{:.0} px)",
        255.0 * scale
    );
    let (mean, p90) = slopes(&b);
    let _ = writeln!(
        s,
        "slopes inside tiles: mean {mean:.2}, 90th percentile {p90:.2} world px of rise per world px across"
    );
    let _ = write!(s, "palette: {} colours (BGR555):", b.palette_len());
    for i in 0..b.palette_len() {
        if i % 8 == 0 {
            s.push_str("\n  ");
        }
        let _ = write!(s, " {:#06x}", b.colour(i));
    }
    s.push('\n');
    let ours = b.tile_count() * n * n * 2;
    let paper = b.tile_count() * n * n * 4;
    let _ = writeln!(s, "\ntile storage (ROM): ours {ours} bytes (8-bit height + 8-bit colour index per texel);");
    let _ = writeln!(s, "  the paper's 16-bit height + 16-bit colour would take {paper} bytes");
    let _ = writeln!(s, "\ntile reference window (RAM) by view, in the paper's Table 5 form:");
    let _ = writeln!(s, "  {:<10} {:>8} {:>12} {:>14}", "view", "refs", "ours (8-bit)", "paper (16-bit)");
    // Tiles of n texels are n << TEXEL_SHIFT world px wide.
    let tile_px = n << voxel::render::TEXEL_SHIFT;
    for view in [256usize, 512, 1024, 2048] {
        let refs = view.div_ceil(tile_px).pow(2);
        let _ = writeln!(s, "  {:<10} {:>8} {:>12} {:>14}", format!("{view}^2 px"), refs, refs, refs * 2);
    }
    Ok(s)
}

/// Mean and 90th percentile of the slope between neighbouring texels inside
/// tiles, in world pixels of rise per world pixel across (texels are 4 world
/// pixels apart; heights times the bank's height scale).
pub fn slopes(b: &bank::Bank<'_>) -> (f64, f64) {
    let n = b.tile_size();
    let k = b.height_scale() as f64 / 256.0 / 4.0;
    let mut all = Vec::with_capacity(b.tile_count() * n * n * 2);
    for t in 0..b.tile_count() {
        for y in 0..n {
            for x in 0..n {
                let h = b.texel(t, x, y).0 as f64;
                if x + 1 < n {
                    all.push((h - b.texel(t, x + 1, y).0 as f64).abs() * k);
                }
                if y + 1 < n {
                    all.push((h - b.texel(t, x, y + 1).0 as f64).abs() * k);
                }
            }
        }
    }
    if all.is_empty() {
        return (0.0, 0.0);
    }
    let mean = all.iter().sum::<f64>() / all.len() as f64;
    all.sort_by(f64::total_cmp);
    (mean, all[all.len() * 9 / 10])
}
