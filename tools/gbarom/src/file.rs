//! Writing output files so that none is ever half-written: a temporary file
//! beside the target, synced, then renamed over it (a rename within one
//! directory is atomic). The tools' single place for it: ROMs (`xtask`),
//! saves (`mgba-test-runner`); tilebake's multi-file outputs build on the
//! same rule.

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically; on failure `path` is untouched and no
/// temporary file is left. The new file keeps the permissions of the file it
/// replaces, or gets 0644. Refuses to replace anything but a regular file
/// (a device such as `/dev/null`, a pipe, a directory): the rename would put
/// a file in its place.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path.file_name().ok_or_else(|| std::io::Error::other("not a file name"))?;
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(std::io::Error::other("not a regular file (a device, a pipe or a directory?): outputs are files"));
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let tmp = dir.join(format!(".{}.tmp-{}", name.to_string_lossy(), std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path).map(|m| m.permissions().mode()).unwrap_or(0o644);
            f.set_permissions(std::fs::Permissions::from_mode(mode))?;
        }
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().inspect_err(|_| {
        std::fs::remove_file(&tmp).ok();
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pipe (`mkfifo`), as a device such as `/dev/null` would be: refused,
    /// and left a pipe.
    #[cfg(unix)]
    #[test]
    fn refuses_to_replace_a_pipe() {
        let dir = std::env::temp_dir().join(format!("gbarom-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let err = write_atomic(&fifo, b"x").unwrap_err();
        assert!(err.to_string().starts_with("not a regular file"), "{err}");
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo(), "still a pipe");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, vec![std::ffi::OsString::from("pipe")], "no temporary file left");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writes_whole_files_and_leaves_nothing_on_failure() {
        let dir = std::env::temp_dir().join(format!("gbarom-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.bin");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        // A directory in the way: the write fails, nothing is left behind.
        let blocked = dir.join("blocked");
        std::fs::create_dir_all(blocked.join("inside")).unwrap();
        assert!(write_atomic(&blocked, b"x").is_err());
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left.len(), 2, "{left:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
