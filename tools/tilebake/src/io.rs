//! Reading PNGs with errors that name the file, and writing outputs as one
//! transaction ([`Outputs`]): every output goes to a temporary file in its
//! directory, and only when all of them are written are they renamed into
//! place. A failed command leaves no output, no temporary file and no
//! directory it created.

use crate::error::{Error, Result, lower_first};
use image::{DynamicImage, ImageError, ImageFormat};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The eight bytes every PNG file starts with.
pub(crate) const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// Largest file any command reads, bytes: above any PNG within
/// [`MAX_PIXELS`] (512 MiB of 16-bit RGBA pixels, uncompressed), a bank
/// (8 MiB at most) or a cartridge ROM (32 MiB), and a bound on what a
/// stream such as a FIFO can make it hold.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// Most pixels of an image `tilebake` reads (8192 x 8192, in any shape).
/// A bank holds at most 256 tiles of up to 128 px, and a bake holds about
/// 26 bytes per source pixel while it works (435 MB measured at 4096 x 4096).
pub const MAX_PIXELS: u64 = 1 << 26;

/// `message` on one line whatever the file names in it hold: control
/// characters (a newline or a terminal escape in a name) escaped, `\n`.
/// Every line the command line prints goes through it.
///
/// ```
/// assert_eq!(tilebake::io::one_line("a\nb.png: \x1b[2J"), "a\\nb.png: \\u{1b}[2J");
/// ```
pub fn one_line(message: &str) -> String {
    message.chars().flat_map(|c| if c.is_control() { c.escape_default().collect() } else { vec![c] }).collect()
}

/// Reads a file: a regular file or a stream, up to [`MAX_FILE_BYTES`]
/// (a device such as `/dev/zero` is refused: it never ends).
pub fn read(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let fail = |source| Error::Read { path: path.to_path_buf(), source };
    // What the path is, before opening it: opening a terminal or a tape
    // has effects of its own.
    let meta = std::fs::metadata(path).map_err(fail)?;
    if meta.is_dir() {
        return Err(fail(std::io::ErrorKind::IsADirectory.into()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_char_device() || t.is_block_device() || t.is_socket() {
            return Err(fail(std::io::Error::other("it is a device, not a file")));
        }
    }
    let file = std::fs::File::open(path).map_err(fail)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(fail)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(fail(std::io::Error::other(format!(
            "it is over {} MiB, more than any input of tilebake",
            MAX_FILE_BYTES >> 20
        ))));
    }
    Ok(bytes)
}

/// Decodes a PNG (any bit depth, colour type or interlacing the `image` crate
/// reads) of at most [`MAX_PIXELS`].
pub fn load_png(path: &Path) -> Result<DynamicImage> {
    let bytes = read(path)?;
    if !bytes.starts_with(PNG_SIGNATURE) {
        return Err(Error::NotPng { path: path.to_path_buf() });
    }
    check_png_chunks(&bytes).map_err(|e| match e {
        PngProblem::TooLarge(detail) => Error::Image { path: path.to_path_buf(), detail },
        PngProblem::Damaged(detail) => Error::BadPng { path: path.to_path_buf(), detail },
    })?;
    let image = image::load_from_memory_with_format(&bytes, ImageFormat::Png).map_err(|e| decode_error(path, &e))?;
    palette_indices_fit(&bytes).map_err(|detail| Error::BadPng { path: path.to_path_buf(), detail })?;
    Ok(image)
}

/// A paletted PNG whose pixels name entries its palette lacks (the decoder
/// draws them black, silently): refused, naming the first such index. Other
/// PNGs pass; so does one the raw decode cannot read (the `image` decode
/// before it read it, and said nothing).
fn palette_indices_fit(bytes: &[u8]) -> std::result::Result<(), String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::IDENTITY);
    let Ok(mut reader) = decoder.read_info() else { return Ok(()) };
    let info = reader.info();
    if info.color_type != png::ColorType::Indexed {
        return Ok(());
    }
    let entries = info.palette.as_ref().map_or(0, |p| p.len() / 3);
    let Some(size) = reader.output_buffer_size() else { return Ok(()) };
    let mut buf = vec![0; size];
    let Ok(frame) = reader.next_frame(&mut buf) else { return Ok(()) };
    let bits = frame.bit_depth as usize;
    let per_byte = 8 / bits;
    let mask = (1u16 << bits) - 1;
    for row in buf.chunks(frame.line_size).take(frame.height as usize) {
        for x in 0..frame.width as usize {
            let byte = row[x / per_byte] as u16;
            let index = (byte >> (8 - bits * (x % per_byte + 1))) & mask;
            if index as usize >= entries {
                return Err(format!(
                    "pixel index {index} is past its palette of {entries} colours (the decoder would draw it black): \
                     the file is damaged"
                ));
            }
        }
    }
    Ok(())
}

/// What [`check_png_chunks`] refuses.
#[derive(Debug, PartialEq)]
enum PngProblem {
    /// More than [`MAX_PIXELS`].
    TooLarge(String),
    /// A chunk the decoder would mishandle.
    Damaged(String),
}

/// Checks what the decoder trusts before it decodes: the header's size
/// (the pixel limit, before any memory is spent on pixels) and the palette's
/// length (a multiple of 3: the `png` crate panics on another). Anything
/// else, a truncated or misordered file, is left to the decoder's own
/// errors.
fn check_png_chunks(bytes: &[u8]) -> std::result::Result<(), PngProblem> {
    let mut at = PNG_SIGNATURE.len();
    while let Some(head) = at.checked_add(8).and_then(|end| bytes.get(at..end)) {
        let len = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) as usize;
        let kind = &head[4..8];
        let data = bytes.get(at + 8..).map(|d| &d[..len.min(d.len())]).unwrap_or_default();
        match kind {
            b"IHDR" if data.len() >= 8 => {
                let w = u32::from_be_bytes([data[0], data[1], data[2], data[3]]) as u64;
                let h = u32::from_be_bytes([data[4], data[5], data[6], data[7]]) as u64;
                if w * h > MAX_PIXELS {
                    return Err(PngProblem::TooLarge(format!(
                        "{w} x {h} pixels is more than tilebake takes ({MAX_PIXELS} pixels, 8192 x 8192); \
                         scale the image down (a bank holds at most 256 tiles of up to 128 px)"
                    )));
                }
            }
            b"PLTE" if !len.is_multiple_of(3) => {
                return Err(PngProblem::Damaged(format!(
                    "the palette (PLTE chunk) is {len} bytes, not a whole number of 3-byte colours"
                )));
            }
            b"IEND" => break,
            _ => {}
        }
        at = match at.checked_add(12).and_then(|a| a.checked_add(len)) {
            Some(next) => next,
            None => break,
        };
    }
    Ok(())
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
    // A damaged chunk name's bytes, shown as decoded, may be anything.
    s = s.chars().map(|c| if c.is_ascii_graphic() || c == ' ' { c } else { '?' }).collect();
    if s.to_ascii_lowercase().starts_with("unrecognized critical chunk") {
        let name = s.rsplit(' ').next().unwrap_or_default();
        return format!("a chunk this decoder does not know is marked needed ({name}): the file is damaged");
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
                // `exists` follows links: a link whose target is missing.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && d.is_symlink() && !d.exists() => {
                    let target = std::fs::read_link(&d).unwrap_or_default();
                    return Err(Error::Write { path: d, source: dangling(&target, "made") });
                }
                Err(source) => return Err(Error::Write { path: d, source }),
            }
        }
        if !dir.as_os_str().is_empty() && !dir.is_dir() {
            let source = if dir.exists() {
                std::io::Error::other("it is a file, not a directory")
            } else {
                std::io::Error::from(std::io::ErrorKind::NotADirectory)
            };
            return Err(Error::Write { path: dir.to_path_buf(), source });
        }
        Ok(())
    }

    /// Writes `bytes` for `path` (to a temporary file until [`Outputs::commit`]).
    pub fn add(&mut self, path: &Path, bytes: &[u8]) -> Result<()> {
        let fail = |source| Error::Write { path: path.to_path_buf(), source };
        let dest = destination(path)?;
        // "out.bank" has the parent "", which names the current directory.
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut tmp = tempfile::Builder::new().prefix(".tilebake-").tempfile_in(dir).map_err(fail)?;
        tmp.write_all(bytes).map_err(fail)?;
        // Temporary files are private (0600); give the output the permissions
        // of the file it replaces, or the usual 0644 for a new one.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&dest).map(|m| m.permissions().mode()).unwrap_or(0o644);
            tmp.as_file().set_permissions(std::fs::Permissions::from_mode(mode)).map_err(fail)?;
        }
        tmp.as_file().sync_all().map_err(fail)?;
        self.staged.push((tmp, dest));
        Ok(())
    }

    /// Encodes `image` as PNG for `path`, marked as written by `command`
    /// (`generate`: see [`refuse_replacing_foreign`]).
    pub fn add_png(&mut self, path: &Path, image: &DynamicImage, command: &str) -> Result<()> {
        let mut bytes = Vec::new();
        image
            .write_to(&mut std::io::Cursor::new(&mut bytes), ImageFormat::Png)
            .map_err(|e| Error::Write { path: path.to_path_buf(), source: std::io::Error::other(e.to_string()) })?;
        self.add(path, &with_marker(bytes, command))
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

/// The error for a dangling link to `target`: nothing is `done` (written,
/// made) through it.
fn dangling(target: &Path, done: &str) -> std::io::Error {
    let target = one_line(&target.display().to_string());
    std::io::Error::other(format!(
        "it is a symbolic link to {target}, which does not exist (not {done} through a dangling link)"
    ))
}

/// Refuses `-o -`, which reads as standard output in many tools: tilebake
/// writes files (and directories), none called `-` unless named `./-`.
pub fn refuse_standard_output(path: &Path) -> Result<()> {
    if path.as_os_str() == "-" {
        let source =
            std::io::Error::other("tilebake writes files, not standard output: name a file (./- for one called -)");
        return Err(Error::Write { path: path.to_path_buf(), source });
    }
    Ok(())
}

/// Refuses an output [`Outputs::add`] would refuse for what is at its path
/// (a directory, a device, a FIFO, a dangling link) or for a directory it
/// names that does not exist, before a long command does its work.
pub fn check_output(path: &Path) -> Result<()> {
    refuse_standard_output(path)?;
    let dest = destination(path)?;
    // `-o name/` names a directory: a file cannot be written there.
    let last = path.as_os_str().as_encoded_bytes().last().copied();
    if !path.exists() && (last == Some(b'/') || (cfg!(windows) && last == Some(b'\\'))) {
        return Err(Error::Write {
            path: path.to_path_buf(),
            source: std::io::Error::other("it names a directory (it ends in a slash): give the output file's name"),
        });
    }
    let dir = match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(Error::Write {
            path: path.to_path_buf(),
            source: std::io::Error::other(format!(
                "the directory {} does not exist",
                one_line(&dir.display().to_string())
            )),
        });
    }
    // The directory must take the temporary file the output is written
    // through (permissions, a read-only or special file system): found
    // now, not after the work. The probe is deleted at once.
    tempfile::Builder::new().prefix(".tilebake-").tempfile_in(dir).map(drop).map_err(|source| {
        // The directory is there: "no such file" would mislead (`/proc`).
        let source = if source.kind() == std::io::ErrorKind::NotFound {
            std::io::Error::other(format!("the directory {} takes no new files", one_line(&dir.display().to_string())))
        } else {
            source
        };
        Error::Write { path: path.to_path_buf(), source }
    })
}

/// Where the output named `path` goes. A symbolic link is written through:
/// its target is replaced and the link stays, as `cp` does; and as `cp`
/// does, not a dangling one (its target does not exist: a typing slip
/// would make a file somewhere else). Anything there that is not a regular
/// file (a directory, a device such as `/dev/null`, a FIFO, a socket) is
/// refused: the atomic rename would replace it with a file.
fn destination(path: &Path) -> Result<PathBuf> {
    let fail = |source| Error::Write { path: path.to_path_buf(), source };
    let mut dest = path.to_path_buf();
    let mut linked = false;
    // As many links in a chain as Linux follows.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&dest) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&dest).map_err(fail)?;
                // A relative target is relative to the link's directory.
                dest = dest.parent().map(|d| d.join(&target)).unwrap_or(target);
                linked = true;
            }
            Ok(m) if m.is_dir() => return Err(fail(std::io::ErrorKind::IsADirectory.into())),
            Ok(m) if !m.is_file() => {
                return Err(fail(std::io::Error::other(
                    "it is not a regular file (a device, FIFO or socket): outputs are files",
                )));
            }
            Ok(m) if m.permissions().readonly() => {
                return Err(fail(std::io::Error::other(
                    "it is read-only: make it writable, or choose another output (it is not replaced)",
                )));
            }
            Ok(_) => return Ok(dest),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && linked => {
                return Err(fail(dangling(&dest, "written")));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(dest),
            Err(e) => return Err(fail(e)),
        }
    }
    Err(fail(std::io::Error::other("too many levels of symbolic links")))
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

/// The `tEXt` chunk's data (keyword `Software`, then the text) that every
/// PNG tilebake writes carries, naming the command that wrote it (`tilebake
/// generate`): `generate` and `world`, which write fixed names into a
/// directory, replace their own earlier pictures but nothing else, not a
/// user's heightmap, nor the other's ([`refuse_replacing_foreign`]).
fn marker(command: &str) -> Vec<u8> {
    [&b"Software\0tilebake "[..], command.as_bytes()].concat()
}

/// Bytes from a PNG's start to the end of its IHDR chunk (signature 8,
/// length 4, type 4, data 13, CRC 4): where the marker goes.
const AFTER_IHDR: usize = 33;

/// `png` (as the `image` crate encodes it: IHDR first) with `command`'s
/// [`marker`] chunk after its IHDR.
fn with_marker(png: Vec<u8>, command: &str) -> Vec<u8> {
    let text = marker(command);
    let mut chunk = Vec::with_capacity(text.len() + 12);
    chunk.extend_from_slice(&(text.len() as u32).to_be_bytes());
    chunk.extend_from_slice(b"tEXt");
    chunk.extend_from_slice(&text);
    // PNG's CRC is CRC-32/ISO-HDLC, over the chunk's type and data.
    chunk.extend_from_slice(&bank::crc32(&chunk[4..]).to_be_bytes());
    let mut out = png;
    out.splice(AFTER_IHDR..AFTER_IHDR, chunk);
    out
}

/// True if `head` (a file's first bytes) is a PNG with `command`'s
/// [`marker`] chunk right after its IHDR, where [`with_marker`] puts it.
fn written_by(head: &[u8], command: &str) -> bool {
    let text = marker(command);
    let chunk = head.get(AFTER_IHDR..).unwrap_or_default();
    head.starts_with(PNG_SIGNATURE)
        && chunk.get(..4) == Some(&(text.len() as u32).to_be_bytes()[..])
        && chunk.get(4..8) == Some(&b"tEXt"[..])
        && chunk.get(8..8 + text.len()) == Some(&text[..])
}

/// Refuses to replace `path` if it holds anything but a picture `command`
/// wrote (tilebake's PNGs carry a `tEXt` chunk `Software: tilebake
/// <command>`): a heightmap of the user's own, say, where `generate` or
/// `world` would write `height.png`. Nothing there is fine.
pub fn refuse_replacing_foreign(path: &Path, command: &str) -> Result<()> {
    use std::io::Read;
    // Through a link, what it points to (a dangling one is the write's to
    // refuse, as any output's).
    let foreign = || Error::Foreign { path: path.to_path_buf(), command: command.to_string() };
    match std::fs::metadata(path) {
        Err(_) => Ok(()),
        Ok(m) if m.is_dir() => {
            let source = std::io::Error::from(std::io::ErrorKind::IsADirectory);
            Err(Error::Write { path: path.to_path_buf(), source })
        }
        // A FIFO or a device is no picture (and reading one may block).
        Ok(m) if !m.is_file() => Err(foreign()),
        Ok(_) => {
            // Its first bytes only: as far as the marker reaches.
            let mut head = Vec::new();
            let want = (AFTER_IHDR + 12 + marker(command).len()) as u64;
            std::fs::File::open(path)
                .and_then(|f| f.take(want).read_to_end(&mut head))
                .map_err(|source| Error::Read { path: path.to_path_buf(), source })?;
            if written_by(&head, command) { Ok(()) } else { Err(foreign()) }
        }
    }
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut out = Outputs::new();
    out.add(path, bytes)?;
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

    /// A PNG's chunks as bytes (the checks read lengths and kinds, not CRCs).
    fn png(chunks: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
        let mut b = PNG_SIGNATURE.to_vec();
        for (kind, data) in chunks {
            b.extend((data.len() as u32).to_be_bytes());
            b.extend(*kind);
            b.extend(data);
            b.extend([0; 4]);
        }
        b
    }

    fn ihdr(w: u32, h: u32, colour_type: u8) -> Vec<u8> {
        [w.to_be_bytes(), h.to_be_bytes()].concat().into_iter().chain([8, colour_type, 0, 0, 0]).collect()
    }

    #[test]
    fn chunks_the_decoder_trusts_are_checked_first() {
        let ok = png(&[(b"IHDR", ihdr(8192, 8192, 3)), (b"PLTE", vec![0; 768]), (b"IDAT", vec![]), (b"IEND", vec![])]);
        assert_eq!(check_png_chunks(&ok), Ok(()));
        // The png crate panics on a palette of 4 bytes.
        let pal = png(&[(b"IHDR", ihdr(16, 16, 3)), (b"PLTE", vec![0; 4]), (b"IDAT", vec![]), (b"IEND", vec![])]);
        assert_eq!(
            check_png_chunks(&pal),
            Err(PngProblem::Damaged(
                "the palette (PLTE chunk) is 4 bytes, not a whole number of 3-byte colours".into()
            ))
        );
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join("pal.png");
        std::fs::write(&file, &pal).unwrap();
        let e = load_png(&file).unwrap_err().to_string();
        assert!(e.starts_with(&format!("{}: corrupt or truncated PNG: the palette", file.display())), "{e}");
        // A header asking for more pixels than the limit, in any shape.
        for (w, h) in [(8193, 8192), (1 << 22, 17), (u32::MAX, u32::MAX)] {
            let big = png(&[(b"IHDR", ihdr(w, h, 0)), (b"IEND", vec![])]);
            assert!(matches!(check_png_chunks(&big), Err(PngProblem::TooLarge(_))), "{w} x {h}");
        }
        // Lengths past the end, or absurd ones, are the decoder's to report.
        let mut cut = png(&[(b"IHDR", ihdr(16, 16, 0))]);
        cut.extend(u32::MAX.to_be_bytes());
        cut.extend(b"PLTE");
        assert_eq!(check_png_chunks(&cut), Ok(()));
        assert_eq!(check_png_chunks(&cut[..20]), Ok(()));
    }

    #[test]
    fn devices_are_neither_read_nor_replaced() {
        let e = read(Path::new("/dev/zero")).unwrap_err().to_string();
        assert_eq!(e, "/dev/zero: cannot read: it is a device, not a file");
        let d = tempfile::tempdir().unwrap();
        let fifo = d.path().join("fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        let e = write_atomic(&fifo, b"x").expect_err("a FIFO is refused").to_string();
        assert!(
            e.ends_with("cannot write: it is not a regular file (a device, FIFO or socket): outputs are files"),
            "{e}"
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO was replaced");
        }
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1, "temporary files left");
    }

    #[cfg(unix)]
    #[test]
    fn outputs_write_through_symbolic_links() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir(d.path().join("real")).unwrap();
        std::fs::write(d.path().join("real/out.bank"), b"old").unwrap();
        // A relative link, and a link to it: both are followed to the file.
        std::os::unix::fs::symlink("real/out.bank", d.path().join("link")).unwrap();
        std::os::unix::fs::symlink(d.path().join("link"), d.path().join("link2")).unwrap();
        write_atomic(&d.path().join("link2"), b"new").unwrap();
        assert_eq!(std::fs::read(d.path().join("real/out.bank")).unwrap(), b"new");
        assert!(std::fs::symlink_metadata(d.path().join("link")).unwrap().file_type().is_symlink());
        assert!(std::fs::symlink_metadata(d.path().join("link2")).unwrap().file_type().is_symlink());
        // A loop is an error, not a hang.
        std::os::unix::fs::symlink("loop_b", d.path().join("loop_a")).unwrap();
        std::os::unix::fs::symlink("loop_a", d.path().join("loop_b")).unwrap();
        let e = write_atomic(&d.path().join("loop_a"), b"x").unwrap_err().to_string();
        assert!(e.ends_with("cannot write: too many levels of symbolic links"), "{e}");
        // A dangling link is not written through (nor is a directory made
        // through one), and nothing is made where it points.
        std::os::unix::fs::symlink(d.path().join("gone/out.bank"), d.path().join("dangling")).unwrap();
        let e = write_atomic(&d.path().join("dangling"), b"x").unwrap_err().to_string();
        assert!(e.contains("which does not exist (not written through a dangling link)"), "{e}");
        assert!(check_output(&d.path().join("dangling")).is_err());
        std::os::unix::fs::symlink(d.path().join("gone"), d.path().join("dir_link")).unwrap();
        let e = Outputs::new().create_dir(&d.path().join("dir_link")).unwrap_err().to_string();
        assert!(e.contains("which does not exist (not made through a dangling link)"), "{e}");
        assert!(!d.path().join("gone").exists());
    }

    /// An output in a directory that does not exist is refused before the
    /// work, naming the directory.
    #[test]
    fn check_output_needs_the_directory() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("no/such/out.bank");
        let e = check_output(&out).unwrap_err().to_string();
        assert!(
            e.ends_with(&format!("cannot write: the directory {} does not exist", out.parent().unwrap().display())),
            "{e}"
        );
        check_output(&d.path().join("out.bank")).unwrap();
        check_output(Path::new("out.bank")).unwrap();
        // A name ending in a slash names a directory, there or not.
        let e = check_output(&d.path().join("newd/")).unwrap_err().to_string();
        assert!(
            e.ends_with("cannot write: it names a directory (it ends in a slash): give the output file's name"),
            "{e}"
        );
        assert!(!d.path().join("newd").exists());
        let left: Vec<_> = std::fs::read_dir(d.path()).unwrap().collect();
        assert!(left.is_empty(), "the probe is deleted");
        // A directory that takes no files (even root's): refused before the work.
        #[cfg(target_os = "linux")]
        {
            let e = check_output(Path::new("/proc/out.bank")).unwrap_err().to_string();
            assert_eq!(e, "/proc/out.bank: cannot write: the directory /proc takes no new files");
        }
    }

    /// A read-only output is refused (by the check before the work and by
    /// the write itself), and left as it was.
    #[test]
    fn read_only_outputs_are_not_replaced() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("kept.bank");
        std::fs::write(&out, b"old").unwrap();
        let mut perms = std::fs::metadata(&out).unwrap().permissions();
        perms.set_readonly(true);
        std::fs::set_permissions(&out, perms).unwrap();
        for e in [check_output(&out).unwrap_err(), write_atomic(&out, b"new").unwrap_err()] {
            assert!(e.to_string().contains("it is read-only"), "{e}");
        }
        assert_eq!(std::fs::read(&out).unwrap(), b"old");
    }
}
