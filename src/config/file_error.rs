//! The error of a config or profile file, pointing at the place in it:
//! `FILE:LINE:COL: KEY: MESSAGE`, the shape editors and terminals recognise
//! as a jump target, with the line, column and dotted key path found from
//! a byte offset in the text (`locate`); and the one way both kinds of
//! file are read.

use std::fmt;
use std::fs::OpenOptions;
use std::io::{self, Read};
use std::ops::Range;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use nix::fcntl::OFlag;
use toml::de::{DeTable, DeValue};

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

/// Where in a TOML text something went wrong, for error messages.
pub(crate) struct Located {
    pub line_col: Option<(usize, usize)>,
    pub key: Option<String>,
}

/// Turns a byte span into line:column and the dotted key path at that spot.
///
/// toml's errors carry a byte span but not (publicly) the key path, and our
/// own validation only has spans; re-walking the document's spans gives both
/// kinds of error the same `file:line:col: key:` shape.
pub(crate) fn locate(text: &str, span: Option<Range<usize>>) -> Located {
    match span {
        Some(span) => Located {
            line_col: Some(line_col(text, span.start)),
            key: key_path_at(text, span.start),
        },
        None => Located {
            line_col: None,
            key: None,
        },
    }
}

/// Like [`locate`], for toml's own errors. A duplicate key is not in the
/// parsed document under its second position, so its name is taken from the
/// text the error points at and appended to the enclosing table's path.
pub(crate) fn locate_toml_error(text: &str, err: &toml::de::Error) -> Located {
    let mut located = locate(text, err.span());
    if err.message().starts_with("duplicate key")
        && let Some(token) = err.span().and_then(|s| text.get(s))
        && !token.is_empty()
        && !token.contains('\n')
    {
        let outer = located.key.take();
        located.key = Some(match outer {
            Some(outer) if outer == token || outer.ends_with(&format!(".{token}")) => outer,
            Some(outer) => format!("{outer}.{token}"),
            None => token.to_string(),
        });
    }
    located
}

/// 1-based line and column (counted in characters) of a byte offset.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

/// The dotted path (`tab[0].layout.panes[1].cwd`) of the innermost key or
/// value whose span contains `offset`; failing that, of the `[table]` whose
/// header last precedes it, since that is the table the text there is in.
fn key_path_at(text: &str, offset: usize) -> Option<String> {
    // Recoverable parsing still yields the keys before a syntax error, which
    // is enough to name e.g. the table a duplicate key sits in.
    let (doc, _) = DeTable::parse_recoverable(text);
    let mut spans = Vec::new();
    collect_table_spans(text, doc.get_ref(), "", &mut spans);
    let mut best: Option<(usize, &String)> = None;
    for (path, span) in &spans {
        let contains = (span.start <= offset && offset < span.end)
            || (span.is_empty() && span.start == offset);
        // `<=` prefers later entries on ties, which are the deeper ones.
        if contains && best.is_none_or(|(len, _)| span.len() <= len) {
            best = Some((span.len(), path));
        }
    }
    if let Some((_, path)) = best {
        return Some(path.clone());
    }
    spans
        .iter()
        .filter(|(_, span)| {
            span.end <= offset && text.get(span.clone()).is_some_and(|s| s.starts_with('['))
        })
        .max_by_key(|(_, span)| span.start)
        .map(|(path, _)| path.clone())
}

fn collect_table_spans(
    text: &str,
    table: &DeTable<'_>,
    prefix: &str,
    out: &mut Vec<(String, Range<usize>)>,
) {
    for (key, value) in table.iter() {
        // Quote the key if the user did, so the path reads like their file.
        let source = text.get(key.span()).unwrap_or_default();
        let segment = if source.starts_with(['"', '\'']) {
            source.to_string()
        } else {
            key.get_ref().to_string()
        };
        let path = if prefix.is_empty() {
            segment
        } else {
            format!("{prefix}.{segment}")
        };
        out.push((path.clone(), key.span()));
        out.push((path.clone(), value.span()));
        collect_value_spans(text, value.get_ref(), &path, out);
    }
}

fn collect_value_spans(
    text: &str,
    value: &DeValue<'_>,
    path: &str,
    out: &mut Vec<(String, Range<usize>)>,
) {
    match value {
        DeValue::Table(t) => collect_table_spans(text, t, path, out),
        DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let item_path = format!("{path}[{i}]");
                out.push((item_path.clone(), item.span()));
                collect_value_spans(text, item.get_ref(), &item_path, out);
            }
        }
        _ => {}
    }
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

    #[test]
    fn line_col_counts_characters() {
        assert_eq!(line_col("abc", 0), (1, 1));
        assert_eq!(line_col("a\nbc", 3), (2, 2));
        assert_eq!(line_col("é = 1\nx", 3), (1, 3));
        assert_eq!(line_col("ab", 99), (1, 3));
    }
}
