//! Battery saves as files (`--sav FILE`): read before a run when the file
//! exists, written back at the end through a temporary file and a rename, so
//! an interrupted write never leaves half a save.

use std::path::{Path, PathBuf};

/// The largest GBA battery save: 128 KB of flash.
pub const MAX_SAVE: u64 = 128 * 1024;

/// A save file that could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SavError {
    #[error("{0}: {1}")]
    Io(PathBuf, String),
    #[error("{0}: {1} bytes is too big for a GBA save (at most 131072 bytes)")]
    TooBig(PathBuf, u64),
    #[error("{0}: looks like {1}, not a save file (a save is the raw battery RAM; it would be overwritten)")]
    NotASave(PathBuf, &'static str),
}

/// What a file that starts with `bytes` is, if it is a format no save
/// file is: an image, an archive, an executable or a GBA ROM.
///
/// ```
/// use mgba_test_runner::foreign_format;
/// assert_eq!(foreign_format(b"\x89PNG\r\n\x1a\n...."), Some("a PNG image"));
/// assert_eq!(foreign_format(&[0xFF; 64]), None); // a blank flash save
/// ```
pub fn foreign_format(bytes: &[u8]) -> Option<&'static str> {
    const MAGICS: [(&[u8], &str); 8] = [
        (b"\x89PNG\r\n\x1a\n", "a PNG image"),
        (b"GIF87a", "a GIF image"),
        (b"GIF89a", "a GIF image"),
        (b"\xFF\xD8\xFF", "a JPEG image"),
        (b"PK\x03\x04", "a zip archive"),
        (b"\x1F\x8B", "a gzip archive"),
        (b"\x7FELF", "an ELF executable"),
        (b"%PDF", "a PDF document"),
    ];
    if let Some((_, what)) = MAGICS.iter().find(|(magic, _)| bytes.starts_with(magic)) {
        return Some(what);
    }
    // A GBA ROM: a branch at 0 and the header's fixed byte 0x96 at 0xB2.
    (bytes.len() >= 0xC0 && bytes[3] == 0xEA && bytes[0xB2] == 0x96).then_some("a GBA ROM")
}

/// The save in `path`: `None` when the file does not exist or is empty (a
/// blank save, as mGBA's own frontend creates).
pub fn read_sav(path: &Path) -> Result<Option<Vec<u8>>, SavError> {
    let io = |e: std::io::Error| SavError::Io(path.to_path_buf(), e.to_string());
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(e)),
    };
    if meta.is_dir() {
        return Err(SavError::Io(path.to_path_buf(), "is a directory, not a save file".into()));
    }
    // A device or a pipe (`/dev/null`, `/dev/zero`): the write back would
    // replace it with a file, and a read may never end.
    if !meta.is_file() {
        return Err(SavError::Io(
            path.to_path_buf(),
            "is not a regular file (a device or a pipe?): saves are files".into(),
        ));
    }
    if meta.len() > MAX_SAVE {
        return Err(SavError::TooBig(path.to_path_buf(), meta.len()));
    }
    let bytes = std::fs::read(path).map_err(io)?;
    if let Some(what) = foreign_format(&bytes) {
        return Err(SavError::NotASave(path.to_path_buf(), what));
    }
    Ok(if bytes.is_empty() { None } else { Some(bytes) })
}

/// What goes back into a save file after a run: the battery save the ROM
/// left (`ram`: its save type's size, 32 KB of SRAM for most ROMs), then the
/// bytes of the file as it was loaded (`loaded`) beyond it, which the ROM
/// could not reach: a file longer than the ROM's save (a 64 or 128 KB
/// flash image given to an SRAM ROM) keeps its length and its tail.
///
/// ```
/// use mgba_test_runner::sav_to_write;
/// let loaded = vec![7u8; 65536];
/// let back = sav_to_write(Some(&loaded), &[1; 32768]);
/// assert_eq!((back.len(), back[0], back[40000]), (65536, 1, 7));
/// assert_eq!(sav_to_write(None, &[1; 32768]).len(), 32768);
/// ```
pub fn sav_to_write(loaded: Option<&[u8]>, ram: &[u8]) -> Vec<u8> {
    let mut out = ram.to_vec();
    if let Some(loaded) = loaded
        && loaded.len() > ram.len()
    {
        out.extend_from_slice(&loaded[ram.len()..]);
    }
    out
}

/// Writes `data` to `path` atomically (`gbarom::write_atomic`: a temporary
/// file beside it, then a rename).
pub fn write_sav(path: &Path, data: &[u8]) -> Result<(), SavError> {
    gbarom::write_atomic(path, data)
        .map_err(|e| SavError::Io(path.to_path_buf(), format!("cannot write the save: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_round_trip_and_bad_files_name_themselves() {
        let dir = std::env::temp_dir().join(format!("mgba-sav-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.sav");
        assert_eq!(read_sav(&path), Ok(None), "no file yet");
        write_sav(&path, &[1, 2, 3]).unwrap();
        assert_eq!(read_sav(&path), Ok(Some(vec![1, 2, 3])));
        write_sav(&path, &[4; 10]).unwrap();
        assert_eq!(read_sav(&path), Ok(Some(vec![4; 10])), "replaced");
        let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(leftovers, vec![std::ffi::OsString::from("game.sav")], "no temporary file left");
        std::fs::write(&path, b"").unwrap();
        assert_eq!(read_sav(&path), Ok(None), "an empty file is a blank save");
        std::fs::write(&path, vec![0; MAX_SAVE as usize + 1]).unwrap();
        assert!(read_sav(&path).unwrap_err().to_string().starts_with(&path.display().to_string()));
        #[cfg(unix)]
        {
            // A device: refused before anything is read or written.
            let err = read_sav("/dev/zero".as_ref()).unwrap_err().to_string();
            assert!(err.starts_with("/dev/zero: is not a regular file"), "{err}");
        }
        let err = read_sav(&dir).unwrap_err().to_string();
        assert!(err.contains("is a directory"), "{err}");
        let err = write_sav(&dir.join("missing/x.sav"), &[1]).unwrap_err().to_string();
        assert!(err.contains("missing"), "{err}");
        // A picture passed by mistake is refused, and left as it was.
        let png = dir.join("shot.png");
        std::fs::write(&png, b"\x89PNG\r\n\x1a\nrest").unwrap();
        let err = read_sav(&png).unwrap_err().to_string();
        assert!(err.starts_with(&png.display().to_string()) && err.contains("a PNG image"), "{err}");
        assert_eq!(std::fs::read(&png).unwrap(), b"\x89PNG\r\n\x1a\nrest");
        std::fs::remove_dir_all(dir).ok();
    }
}
