//! Reading PNGs with errors that name the file, and writing outputs as one
//! transaction ([`Outputs`]): every output goes to a temporary file in its
//! directory, and only when all of them are written are they renamed into
//! place. A failed command leaves no output, no temporary file and no
//! directory it created.

use crate::error::{Error, Result, lower_first};
use image::{DynamicImage, ImageError, ImageFormat};
use std::io::Write;
use std::path::{Path, PathBuf};

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
    image::load_from_memory_with_format(&bytes, ImageFormat::Png).map_err(|e| decode_error(path, &e))
}

/// A decoder error in words, naming the file.
fn decode_error(path: &Path, e: &ImageError) -> Error {
    let path = path.to_path_buf();
    match e {
        ImageError::Limits(_) => Error::Image {
            path,
            detail: "the image is too large to decode (over 512 MiB of pixels); use a smaller one".into(),
        },
        ImageError::Unsupported(u) => {
            Error::Image { path, detail: format!("this kind of PNG is not supported: {}", lower_first(&u.to_string())) }
        }
        ImageError::IoError(io) => Error::BadPng { path, detail: crate::error::words(io) },
        other => Error::BadPng { path, detail: decode_words(&other.to_string()) },
    }
}

/// The PNG decoder's message without its Rust debug text: `ChunkType { type:
/// IDAT, critical: true, .. }` becomes `IDAT`, a corrupt deflate stream's
/// error enum becomes words, checksums are said plainly.
pub fn decode_words(message: &str) -> String {
    let mut s = message.trim().to_string();
    for prefix in ["Format error decoding Png:", "Format error:"] {
        if let Some(rest) = s.strip_prefix(prefix) {
            s = rest.trim().to_string();
        }
    }
    // `ChunkType { type: IDAT, ... }` -> `IDAT`.
    while let Some(at) = s.find("ChunkType {") {
        let end = s[at..].find('}').map(|e| at + e + 1).unwrap_or(s.len());
        let name = s[at..end]
            .split("type:")
            .nth(1)
            .and_then(|t| t.split([',', '}']).next())
            .map(|t| t.trim().to_string())
            .unwrap_or_else(|| "a".into());
        s.replace_range(at..end, &name);
    }
    if s.starts_with("CRC error") {
        let chunk = s.split("while decoding ").nth(1).map(|c| c.trim_end_matches('.').to_string());
        return format!(
            "the checksum of the {} does not match: the file is damaged",
            chunk.as_deref().unwrap_or("chunk")
        );
    }
    if s.starts_with("Corrupt deflate stream") {
        return "the compressed pixel data is damaged".into();
    }
    if s.contains("does not have enough data") || s.contains("unexpected end of file") || s.contains("UnexpectedEof") {
        return "the pixel data ends too soon (the file is truncated)".into();
    }
    // Anything else still in Rust's debug form is no use to the reader.
    if s.contains(['{', '}']) || s.contains("::") || s.is_empty() {
        return "the file is damaged".into();
    }
    lower_first(s.trim_end_matches('.'))
}

/// Refuses `output` when it is (canonically) one of `inputs`: a command must
/// not overwrite what it reads.
pub fn refuse_overwriting_inputs(output: &Path, inputs: &[&Path]) -> Result<()> {
    let Ok(out) = output.canonicalize() else {
        return Ok(()); // does not exist yet: cannot be an input
    };
    for input in inputs {
        if input.canonicalize().is_ok_and(|i| i == out) {
            return Err(Error::OutputIsInput { path: output.to_path_buf() });
        }
    }
    Ok(())
}

/// The outputs of one command, written all or none: [`Outputs::add`] writes
/// each to a temporary file beside its destination, [`Outputs::commit`]
/// renames them all into place. Dropped uncommitted (on any error), the
/// temporary files are deleted and the directories [`Outputs::create_dir`]
/// made are removed again.
#[derive(Default)]
pub struct Outputs {
    staged: Vec<(tempfile::NamedTempFile, PathBuf)>,
    /// Directories this command created, outermost first.
    created: Vec<PathBuf>,
    committed: bool,
}

impl Outputs {
    /// No outputs yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Creates `dir` and any missing parents (remembered, so a failed command
    /// removes them again).
    pub fn create_dir(&mut self, dir: &Path) -> Result<()> {
        let mut missing = Vec::new();
        let mut at = Some(dir);
        while let Some(d) = at.filter(|d| !d.as_os_str().is_empty() && !d.exists()) {
            missing.push(d.to_path_buf());
            at = d.parent();
        }
        for d in missing.into_iter().rev() {
            match std::fs::create_dir(&d) {
                Ok(()) => self.created.push(d),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && d.is_dir() => {}
                Err(source) => return Err(Error::Write { path: d, source }),
            }
        }
        if !dir.as_os_str().is_empty() && !dir.is_dir() {
            let source = std::io::Error::from(std::io::ErrorKind::NotADirectory);
            return Err(Error::Write { path: dir.to_path_buf(), source });
        }
        Ok(())
    }

    /// Writes `bytes` for `path` (to a temporary file until [`Outputs::commit`]).
    pub fn add(&mut self, path: &Path, bytes: &[u8]) -> Result<()> {
        let fail = |source| Error::Write { path: path.to_path_buf(), source };
        if path.is_dir() {
            return Err(fail(std::io::ErrorKind::IsADirectory.into()));
        }
        // "out.bank" has the parent "", which names the current directory.
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut tmp = tempfile::Builder::new().prefix(".tilebake-").tempfile_in(dir).map_err(fail)?;
        tmp.write_all(bytes).map_err(fail)?;
        // Temporary files are private (0600); give the output the permissions
        // of the file it replaces, or the usual 0644 for a new one.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path).map(|m| m.permissions().mode()).unwrap_or(0o644);
            tmp.as_file().set_permissions(std::fs::Permissions::from_mode(mode)).map_err(fail)?;
        }
        tmp.as_file().sync_all().map_err(fail)?;
        self.staged.push((tmp, path.to_path_buf()));
        Ok(())
    }

    /// Encodes `image` as PNG for `path`.
    pub fn add_png(&mut self, path: &Path, image: &DynamicImage) -> Result<()> {
        let mut bytes = Vec::new();
        image
            .write_to(&mut std::io::Cursor::new(&mut bytes), ImageFormat::Png)
            .map_err(|e| Error::Write { path: path.to_path_buf(), source: std::io::Error::other(e.to_string()) })?;
        self.add(path, &bytes)
    }

    /// Renames every output into place. Should a rename fail (the outputs
    /// are in directories checked when they were written, so this is rare),
    /// the outputs renamed before it that did not exist before are deleted.
    pub fn commit(mut self) -> Result<()> {
        let staged = std::mem::take(&mut self.staged);
        let mut placed: Vec<PathBuf> = Vec::new();
        for (tmp, path) in staged {
            let existed = path.exists();
            if let Err(e) = tmp.persist(&path) {
                for p in &placed {
                    let _ = std::fs::remove_file(p);
                }
                return Err(Error::Write { path, source: e.error });
            }
            if !existed {
                placed.push(path);
            }
        }
        self.committed = true;
        Ok(())
    }
}

impl Drop for Outputs {
    fn drop(&mut self) {
        self.staged.clear(); // deletes the temporary files
        if !self.committed {
            for d in self.created.iter().rev() {
                let _ = std::fs::remove_dir(d); // only if empty
            }
        }
    }
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut out = Outputs::new();
    out.add(path, bytes)?;
    out.commit()
}

/// Encodes an image as PNG and writes it atomically.
pub fn save_png(path: &Path, image: &DynamicImage) -> Result<()> {
    let mut out = Outputs::new();
    out.add_png(path, image)?;
    out.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoder_debug_text_becomes_words() {
        let crc = "Format error decoding Png: CRC error: expected 0x1 have 0x2 while decoding ChunkType { type: IDAT, \
                   critical: true, private: false, reserved: false, safecopy: false } chunk.";
        assert_eq!(decode_words(crc), "the checksum of the IDAT chunk does not match: the file is damaged");
        let order =
            "Format error decoding Png: Chunk ChunkType { type: PLTE, critical: true } is invalid after IDAT chunk.";
        assert_eq!(decode_words(order), "chunk PLTE is invalid after IDAT chunk");
        assert_eq!(
            decode_words("Format error decoding Png: Corrupt deflate stream. BadLiteral"),
            "the compressed pixel data is damaged"
        );
        assert_eq!(decode_words("Something { odd: 1 }"), "the file is damaged");
        assert_eq!(decode_words("png::decoder::Thing"), "the file is damaged");
        assert_eq!(decode_words(" "), "the file is damaged");
        // The decoders' three ways of saying the file is cut short.
        for cut in ["Format error: does not have enough data", "unexpected end of file", "Io(UnexpectedEof)"] {
            assert_eq!(decode_words(cut), "the pixel data ends too soon (the file is truncated)", "{cut}");
        }
    }

    #[test]
    fn a_failed_transaction_leaves_nothing_and_removes_the_directories_it_made() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("a/b");
        {
            let mut out = Outputs::new();
            out.create_dir(&dir).unwrap();
            out.add(&dir.join("one"), b"1").unwrap();
            std::fs::create_dir(dir.join("two")).unwrap();
            assert!(out.add(&dir.join("two"), b"2").is_err());
            std::fs::remove_dir(dir.join("two")).unwrap();
        }
        assert!(!d.path().join("a").exists(), "created directories stay behind");
        let mut out = Outputs::new();
        out.create_dir(&dir).unwrap();
        out.add(&dir.join("one"), b"1").unwrap();
        out.add(&dir.join("two"), b"2").unwrap();
        assert!(!dir.join("one").exists(), "written before commit");
        out.commit().unwrap();
        assert_eq!(std::fs::read(dir.join("two")).unwrap(), b"2");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2, "temporary files left");
    }
}
