//! The error of a config or profile file, pointing at the place in it:
//! `FILE:LINE:COL: KEY: MESSAGE`, the shape editors and terminals recognise
//! as a jump target; and the one way both kinds of file are read.

use std::fmt;
use std::fs::OpenOptions;
use std::io::{self, Read};
use std::ops::Range;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use nix::fcntl::OFlag;

use super::settings::{locate, locate_toml_error};
use crate::sanitize::escape_controls;

/// The largest config or profile file read. Hand-written ones are a few KiB
/// and a saved workspace of 100 panes with long commands stays far below;
/// past this the "file" is a mistake (`--config /dev/zero`, a log file) and
/// reading it on would only grow memory.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// A TOML file (config or profile) that could not be read or understood.
///
/// Displayed as `FILE:LINE:COL: KEY: MESSAGE` (parts that are unknown are
/// left out), the shape editors and terminals recognise as a jump target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    pub path: PathBuf,
    /// 1-based line and column (in characters).
    pub line_col: Option<(usize, usize)>,
    /// Dotted key path, e.g. `keys.prefixed."Q"`.
    pub key: Option<String>,
    pub message: String,
}

impl FileError {
    pub(crate) fn whole_file(path: &Path, message: String) -> FileError {
        FileError {
            path: path.to_path_buf(),
            line_col: None,
            key: None,
            message,
        }
    }

    pub(crate) fn at(text: &str, path: &Path, span: Range<usize>, message: String) -> FileError {
        let located = locate(text, Some(span));
        FileError {
            path: path.to_path_buf(),
            line_col: located.line_col,
            key: located.key,
            message,
        }
    }

    pub(crate) fn from_toml(text: &str, path: &Path, err: &toml::de::Error) -> FileError {
        let located = locate_toml_error(text, err);
        FileError {
            path: path.to_path_buf(),
            line_col: located.line_col,
            key: located.key,
            message: err.message().to_string(),
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_located(
            f,
            &self.path,
            self.line_col,
            self.key.as_deref(),
            &self.message,
        )
    }
}

impl std::error::Error for FileError {}

/// Reads a config or profile file as text, refusing what is not a regular
/// file (a FIFO would block start-up forever, a device could be endless)
/// and anything over [`MAX_FILE_BYTES`]. A missing file keeps
/// [`io::ErrorKind::NotFound`] so callers can treat it as "no file".
pub fn read_bounded(path: &Path) -> io::Result<String> {
    // Checked before opening, so a FIFO or device is never opened at all...
    refuse_unless_regular(&std::fs::metadata(path)?)?;
    // ...and again on what was opened, in case the path changed in between;
    // O_NONBLOCK keeps that open from waiting for a FIFO's writer.
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(OFlag::O_NONBLOCK.bits())
        .open(path)?;
    let metadata = file.metadata()?;
    refuse_unless_regular(&metadata)?;
    if metadata.len() > MAX_FILE_BYTES {
        return Err(too_large(&format!("it is {} bytes", metadata.len())));
    }
    read_at_most(file)
}

/// Reads at most one byte more than allowed: a file that grows while read
/// (or reports a size of 0, as /proc files do) still costs no more memory.
fn read_at_most(reader: impl Read) -> io::Result<String> {
    let mut bytes = Vec::new();
    reader.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(&format!(
            "it holds more than {} MiB",
            MAX_FILE_BYTES >> 20
        )));
    }
    String::from_utf8(bytes)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("not UTF-8 text: {e}")))
}

fn refuse_unless_regular(metadata: &std::fs::Metadata) -> io::Result<()> {
    let kind = metadata.file_type();
    let what = if kind.is_file() {
        return Ok(());
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "something else"
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("it is {what}, not a regular file"),
    ))
}

/// `size` says how big the file is, as far as we know.
fn too_large(size: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!(
            "{size}; a config or profile may be at most {} MiB",
            MAX_FILE_BYTES >> 20
        ),
    )
}

/// Shared by config and profile errors so both read the same way. Every
/// part may hold text from the file or the command line, so each goes
/// through [`escape_controls`]: a profile must not be able to set the
/// user's clipboard or title by making tilework quote it.
pub(crate) fn write_located(
    f: &mut fmt::Formatter<'_>,
    path: &Path,
    line_col: Option<(usize, usize)>,
    key: Option<&str>,
    message: &str,
) -> fmt::Result {
    f.write_str(&escape_controls(&path.display().to_string()))?;
    if let Some((line, col)) = line_col {
        write!(f, ":{line}:{col}")?;
    }
    f.write_str(": ")?;
    if let Some(key) = key {
        write!(f, "{}: ", escape_controls(key))?;
    }
    f.write_str(&escape_controls(message))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    fn temp_dir(tag: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("tilework-file-error-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn has_controls(text: &str) -> bool {
        text.chars().any(char::is_control)
    }

    #[test]
    fn display_escapes_every_part() {
        let err = FileError {
            path: PathBuf::from("/tmp/\u{1b}[2J.toml"),
            line_col: Some((3, 9)),
            key: Some("tab[0].\"\u{9b}x\"".to_string()),
            message: "unknown start mode `\u{1b}]52;c;Zm9v\u{7}`".to_string(),
        };
        let shown = err.to_string();
        assert!(!has_controls(&shown), "{shown:?}");
        assert_eq!(
            shown,
            "/tmp/\\u{1b}[2J.toml:3:9: tab[0].\"\\u{9b}x\": unknown start mode `\\u{1b}]52;c;Zm9v\\u{7}`"
        );
    }

    #[test]
    fn reads_a_regular_file() {
        let dir = temp_dir("regular");
        let file = dir.join("c.toml");
        std::fs::write(&file, "fps = 30\n").unwrap();
        assert_eq!(read_bounded(&file).unwrap(), "fps = 30\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_file_stays_not_found() {
        let e = read_bounded(Path::new("/nonexistent-tilework/c.toml")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn devices_and_directories_are_refused_unread() {
        for (path, what) in [
            ("/dev/zero", "a character device"),
            ("/dev/null", "a character device"),
            ("/", "a directory"),
        ] {
            let e = read_bounded(Path::new(path)).unwrap_err().to_string();
            assert_eq!(e, format!("it is {what}, not a regular file"));
        }
    }

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = temp_dir("fifo");
        let fifo = dir.join("c.toml");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        // On another thread: if the read blocks, the test fails instead of
        // hanging (the thread is left blocked until the process ends).
        let (tx, rx) = mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || {
            let _ = tx.send(read_bounded(&path).map_err(|e| e.to_string()));
        });
        let result = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("reading a FIFO blocked");
        assert_eq!(
            result.unwrap_err(),
            "it is a FIFO (named pipe), not a regular file"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn files_over_the_limit_are_refused() {
        let dir = temp_dir("large");
        let file = dir.join("c.toml");
        let limit = usize::try_from(MAX_FILE_BYTES).unwrap();
        std::fs::write(&file, "#".repeat(limit)).unwrap();
        assert_eq!(read_bounded(&file).unwrap().len(), limit);
        std::fs::write(&file, "#".repeat(limit + 1)).unwrap();
        let e = read_bounded(&file).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(
            e.to_string(),
            "it is 1048577 bytes; a config or profile may be at most 1 MiB"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_endless_stream_is_cut_at_the_limit() {
        // What a file that lies about its size (or grows) looks like.
        let e = read_at_most(io::repeat(b'#')).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
        assert!(e.to_string().contains("more than 1 MiB"), "{e}");
    }

    #[test]
    fn binary_files_are_refused_as_not_text() {
        let e = read_at_most(&b"fps = 1\xff"[..]).unwrap_err();
        assert!(e.to_string().starts_with("not UTF-8 text"), "{e}");
    }
}
