//! `relief`: a bank's relief file (`voxel::flight::Relief::file`: the
//! highest texel of each block of each tile, and the bank's CRC-32), so a
//! game loads it with `Relief::load_file` at start-up instead of reading
//! every tile on the GBA (`Relief::build`).

use crate::error::{Error, Result};
use crate::io;
use std::path::Path;
use voxel::flight::Relief;

/// The relief file of the bank in `bytes` (a whole bank, checked).
pub fn of_bank(bytes: &[u8], bank_path: &Path) -> Result<[u8; voxel::flight::FILE_LEN]> {
    let b = bank::parse(bytes).map_err(|source| Error::Bank { path: bank_path.to_path_buf(), source })?;
    Ok(Relief::of(&b).file().expect("built"))
}

/// `tilebake relief BANK -o FILE`: writes FILE (atomically; never over the
/// bank).
pub fn write(bank_path: &Path, output: &Path) -> Result<()> {
    io::refuse_overwriting_inputs(output, &[bank_path])?;
    // (A missing directory named as such, as `bake` and `pack` do.)
    io::check_output(output)?;
    let bytes = crate::inspect::load(bank_path)?;
    io::write_atomic(output, &of_bank(&bytes, bank_path)?)
}
