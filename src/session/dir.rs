//! Where the workspaces' sockets live, and what a workspace may be called.
//!
//! `$XDG_RUNTIME_DIR/tilework/` (per user, on tmpfs, gone at logout), else
//! `tilework-UID/` under the temp directory. Either way the directory is
//! ours: created 0700, and refused if it is a symlink, belongs to someone
//! else or lets anyone else in, so no other user can plant or reach a socket.

use std::fs;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// The longest name: the socket path must fit `sun_path` (108 bytes).
pub const MAX_NAME_LEN: usize = 40;

/// The directory of the user's workspace sockets, created if missing and
/// checked to be private.
pub fn runtime_dir() -> Result<PathBuf> {
    let dir = match std::env::var_os("XDG_RUNTIME_DIR") {
        Some(base) if Path::new(&base).is_absolute() => Path::new(&base).join("tilework"),
        _ => std::env::temp_dir().join(format!("tilework-{}", my_uid())),
    };
    ensure_private_dir(&dir)?;
    Ok(dir)
}

pub fn my_uid() -> u32 {
    rustix::process::getuid().as_raw()
}

pub use crate::os::ensure_private_dir;

/// A workspace name: letters, digits, `-`, `_` and `.`, not starting with
/// `.`, at most [`MAX_NAME_LEN`] bytes. It names a file in the directory, so
/// nothing else may pass.
pub fn check_name(name: &str) -> Result<()> {
    let ok_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if name.is_empty() || name.len() > MAX_NAME_LEN {
        bail!("a workspace name has 1 to {MAX_NAME_LEN} characters, not {name:?}");
    }
    if name.starts_with('.') || !name.chars().all(ok_char) {
        bail!(
            "{name:?} is not a workspace name: use letters, digits, `-`, `_` and `.` \
             (not first)"
        );
    }
    Ok(())
}

/// A name made from `text` (a profile's name or path): its file stem with
/// every other character turned into `-`; `None` when nothing is left.
pub fn name_from(text: &str) -> Option<String> {
    let stem = Path::new(text).file_stem()?.to_str()?;
    let name: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_') {
                c
            } else {
                '-'
            }
        })
        .take(MAX_NAME_LEN - 4)
        .collect();
    let name = name.trim_matches('-').to_string();
    (!name.is_empty()).then_some(name)
}

pub fn socket_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(name)
}

/// The names of the sockets in `dir`, sorted (live or stale: see
/// `client::live_sessions`).
pub fn socket_names(dir: &Path) -> Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir).with_context(|| format!("listing {}", dir.display()))? {
        let entry = entry.with_context(|| format!("listing {}", dir.display()))?;
        let is_socket = entry.file_type().is_ok_and(|t| t.is_socket());
        if let Some(name) = entry.file_name().to_str()
            && is_socket
            && check_name(name).is_ok()
        {
            names.push(name.to_string());
        }
    }
    names.sort_by(|a, b| natural_key(a).cmp(&natural_key(b)));
    Ok(names)
}

/// Numbers in numeric order (`2` before `10`), then the rest by name.
fn natural_key(name: &str) -> (u8, u64, &str) {
    match name.parse::<u64>() {
        Ok(n) => (0, n, name),
        Err(_) => (1, 0, name),
    }
}

/// Makes a socket file readable and writable by its owner only. The
/// directory already keeps others out; this is the second lock.
pub fn restrict_socket(path: &Path) -> Result<()> {
    fs::set_permissions(path, fs::Permissions::from_mode(0o600))
        .with_context(|| format!("restricting {}", path.display()))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn names_are_plain_file_names() {
        for good in ["0", "dev", "my-work_2.old", &"x".repeat(MAX_NAME_LEN)] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            ".hidden",
            "../etc",
            "a/b",
            "sp ace",
            "tab\t",
            "é",
            &"x".repeat(MAX_NAME_LEN + 1),
        ] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_profile_gives_its_stem_as_the_name() {
        assert_eq!(name_from("dev").as_deref(), Some("dev"));
        assert_eq!(name_from("/x/y/my work.toml").as_deref(), Some("my-work"));
        assert_eq!(name_from("...").as_deref(), None);
        let long = name_from(&"a".repeat(200)).unwrap();
        assert!(check_name(&long).is_ok() && long.len() + 4 <= MAX_NAME_LEN);
    }

    #[test]
    fn numbers_sort_numerically() {
        let mut names = vec!["10", "b", "2", "a"];
        names.sort_by(|a, b| natural_key(a).cmp(&natural_key(b)));
        assert_eq!(names, ["2", "10", "a", "b"]);
    }
}
