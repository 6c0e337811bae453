//! Files that can hold a user's secrets: saved profiles (pane commands can
//! carry tokens and passwords), the log, and a pane's history handed to an
//! editor. They are readable by the user
//! alone from the moment they exist, and never written through a symbolic
//! link: someone who can plant one at the path (a shared or misconfigured
//! directory) must not be able to make tilework overwrite or append to a
//! file of their choosing.

use std::fs::{DirBuilder, File, OpenOptions, Permissions};
use std::io::Write as _;
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::Path;

use anyhow::{Context, Result};

/// Mode of the files: the user reads and writes, nobody else.
const FILE_MODE: u32 = 0o600;
/// Mode of the directories tilework creates for them.
const DIR_MODE: u32 = 0o700;

/// Creates `dir` and any missing parents, each private to the user.
/// Directories that already exist keep their mode: they are the user's.
pub fn create_dir_all(dir: &Path) -> Result<()> {
    DirBuilder::new()
        .recursive(true)
        .mode(DIR_MODE)
        .create(dir)
        .with_context(|| format!("creating {}", dir.display()))
}

/// Replaces `path` with `text`, whole or not at all (a crash leaves the old
/// file or the new one, never half of one). The text goes to a uniquely
/// named file created exclusively (`O_EXCL`, mode 0600 on creation) next to
/// `path`, which is then renamed over it: a symbolic link planted at any
/// name is never followed, and a link at `path` itself is replaced.
pub fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(path.file_name().unwrap_or_default());
    prefix.push(".");
    // Hidden and not `*.toml`, so a leftover (after a kill) is never listed
    // as a profile.
    let mut tmp = tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(".tmp")
        .permissions(Permissions::from_mode(FILE_MODE))
        .tempfile_in(dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    tmp.write_all(text.as_bytes())
        .and_then(|()| tmp.as_file().sync_all())
        .with_context(|| format!("writing {}", tmp.path().display()))?;
    tmp.persist(path)
        .map_err(|err| err.error)
        .with_context(|| format!("replacing {}", path.display()))?;
    Ok(())
}

/// Opens `path` for appending, creating it with mode 0600 if missing. A
/// symbolic link at `path` is refused (`O_NOFOLLOW`; the error is `ELOOP`).
/// An existing file keeps its mode.
pub fn open_append(path: &Path) -> std::io::Result<File> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .mode(FILE_MODE)
        .custom_flags(nix::fcntl::OFlag::O_NOFOLLOW.bits())
        .open(path)
}

/// A new file holding `bytes` in the temporary directory (`$TMPDIR`, else
/// `/tmp`), created exclusively with mode 0600 under a random name (never
/// through a planted link). It is removed when the returned path is
/// dropped.
pub fn temp_file(prefix: &str, suffix: &str, bytes: &[u8]) -> Result<tempfile::TempPath> {
    let dir = std::env::temp_dir();
    let mut file = tempfile::Builder::new()
        .prefix(prefix)
        .suffix(suffix)
        .permissions(Permissions::from_mode(FILE_MODE))
        .tempfile_in(&dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    file.write_all(bytes)
        .and_then(|()| file.flush())
        .with_context(|| format!("writing {}", file.path().display()))?;
    Ok(file.into_temp_path())
}

/// A file's permission bits in octal, as `ls -l` and `chmod` speak of them
/// (for the tests of every writer of private files).
#[cfg(test)]
pub(crate) fn mode_of(path: &Path) -> String {
    let mode = std::fs::metadata(path)
        .map(|m| m.permissions().mode())
        .unwrap_or_else(|err| panic!("stat {}: {err}", path.display()));
    format!("{:o}", mode & 0o777)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_temporary_file_is_private_and_goes_with_its_path() {
        let path = temp_file("tilework-test-", ".txt", b"secret output\n").expect("written");
        assert_eq!(mode_of(&path), "600");
        assert_eq!(std::fs::read(&path).expect("read"), b"secret output\n");
        let kept = path.to_path_buf();
        drop(path);
        assert!(!kept.exists());
    }
}
