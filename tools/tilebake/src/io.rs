//! Reading PNGs with errors that name the file, and writing outputs
//! atomically (a temporary file in the same directory, then a rename): a
//! failed command never leaves a half-written file.

use crate::error::{Error, Result};
use image::{DynamicImage, ImageFormat};
use std::io::Write;
use std::path::Path;

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// Reads a file.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|source| Error::Read { path: path.to_path_buf(), source })
}

/// Decodes a PNG (any bit depth, colour type or interlacing the `image` crate reads).
pub fn load_png(path: &Path) -> Result<DynamicImage> {
    let bytes = read(path)?;
    if !bytes.starts_with(PNG_SIGNATURE) {
        return Err(Error::NotPng { path: path.to_path_buf() });
    }
    image::load_from_memory_with_format(&bytes, ImageFormat::Png)
        .map_err(|e| Error::BadPng { path: path.to_path_buf(), detail: e.to_string() })
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let fail = |source| Error::Write { path: path.to_path_buf(), source };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new().prefix(".tilebake-").tempfile_in(dir).map_err(fail)?;
    tmp.write_all(bytes).map_err(fail)?;
    // Temporary files are private (0600); give the output the permissions of
    // the file it replaces, or the usual 0644 for a new one.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).map(|m| m.permissions().mode()).unwrap_or(0o644);
        tmp.as_file().set_permissions(std::fs::Permissions::from_mode(mode)).map_err(fail)?;
    }
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// Encodes an image as PNG and writes it atomically.
pub fn save_png(path: &Path, image: &DynamicImage) -> Result<()> {
    let mut bytes = Vec::new();
    image
        .write_to(&mut std::io::Cursor::new(&mut bytes), ImageFormat::Png)
        .map_err(|e| Error::Write { path: path.to_path_buf(), source: std::io::Error::other(e) })?;
    write_atomic(path, &bytes)
}
