//! The error of a config or profile file, pointing at the place in it:
//! `FILE:LINE:COL: KEY: MESSAGE`, the shape editors and terminals recognise
//! as a jump target.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::config::{locate, locate_toml_error};

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

/// Shared by config and profile errors so both read the same way.
pub(crate) fn write_located(
    f: &mut fmt::Formatter<'_>,
    path: &Path,
    line_col: Option<(usize, usize)>,
    key: Option<&str>,
    message: &str,
) -> fmt::Result {
    write!(f, "{}", path.display())?;
    if let Some((line, col)) = line_col {
        write!(f, ":{line}:{col}")?;
    }
    f.write_str(": ")?;
    if let Some(key) = key {
        write!(f, "{key}: ")?;
    }
    f.write_str(message)
}
