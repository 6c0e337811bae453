//! Where saved workspaces live and how their files are made: one private
//! directory per workspace under `$XDG_STATE_HOME/tilework/saved/` (else
//! `~/.local/state/tilework/saved/`), every directory 0700 and every file
//! 0600 from the moment it exists, none reached through a symbolic link
//! (pane output can hold secrets; see `config::private_file`).

use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, Write as _};
use std::os::unix::fs::{
    DirBuilderExt as _, MetadataExt as _, OpenOptionsExt as _, PermissionsExt as _,
};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

pub const FILE_MODE: u32 = 0o600;
pub const DIR_MODE: u32 = 0o700;

/// The file that says what a saved workspace holds (see `manifest`).
pub const MANIFEST: &str = "manifest.json";

/// `$XDG_STATE_HOME/tilework/saved`, else under `~/.local/state`.
pub fn saved_root() -> Result<PathBuf> {
    let state = match std::env::var_os("XDG_STATE_HOME") {
        Some(base) if Path::new(&base).is_absolute() => PathBuf::from(base),
        _ => dirs::home_dir()
            .context("no home directory to save workspaces in ($HOME)")?
            .join(".local")
            .join("state"),
    };
    Ok(state.join("tilework").join("saved"))
}

/// The directory of workspace `name` (not created).
pub fn workspace_dir(name: &str) -> Result<PathBuf> {
    check_name(name)?;
    Ok(saved_root()?.join(name))
}

/// Creates the directory of workspace `name` and the ones above it, and
/// checks that the two of tilework's own are private real directories.
pub fn make_workspace_dir(name: &str) -> Result<PathBuf> {
    let dir = workspace_dir(name)?;
    let root = saved_root()?;
    if let Some(tilework) = root.parent() {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(DIR_MODE)
            .create(tilework)
            .with_context(|| format!("creating {}", tilework.display()))?;
    }
    ensure_private_dir(&root)?;
    ensure_private_dir(&dir)?;
    Ok(dir)
}

/// A saved workspace's name names a directory: nothing that could lead
/// elsewhere passes.
pub fn check_name(name: &str) -> Result<()> {
    let ok_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if name.is_empty() || name.starts_with('.') || !name.chars().all(ok_char) {
        bail!("{name:?} is not a workspace name");
    }
    Ok(())
}

/// Creates `dir` (0700) unless it exists, then checks it is a real
/// directory (not a symlink), the user's own, closed to everyone else.
pub fn ensure_private_dir(dir: &Path) -> Result<()> {
    match fs::DirBuilder::new().mode(DIR_MODE).create(dir) {
        Ok(()) => {}
        Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {}
        Err(err) => return Err(err).with_context(|| format!("creating {}", dir.display())),
    }
    let meta = fs::symlink_metadata(dir).with_context(|| format!("checking {}", dir.display()))?;
    if !meta.file_type().is_dir() {
        bail!(
            "{} is not a directory (a symlink?): refusing to save there",
            dir.display()
        );
    }
    if meta.uid() != rustix::process::getuid().as_raw() {
        bail!(
            "{} belongs to someone else: refusing to save there",
            dir.display()
        );
    }
    if meta.permissions().mode() & 0o077 != 0 {
        bail!(
            "{} is open to other users (mode {:o}): refusing to save there (chmod 700 it)",
            dir.display(),
            meta.permissions().mode() & 0o777
        );
    }
    Ok(())
}

/// A new file at `path` for appending, 0600; one already there (or a
/// link) is refused.
pub fn create_new(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .create_new(true)
        .append(true)
        .mode(FILE_MODE)
        .custom_flags(nix::fcntl::OFlag::O_NOFOLLOW.bits())
        .open(path)
}

/// Reads `path`, refusing a symbolic link.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = OpenOptions::new()
        .read(true)
        .custom_flags(nix::fcntl::OFlag::O_NOFOLLOW.bits())
        .open(path)?;
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut file, &mut bytes)?;
    Ok(bytes)
}

/// Replaces `path` with `bytes` whole or not at all: written to a new
/// private file beside it, synced, then renamed over it.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(path.file_name().unwrap_or_default());
    let mut tmp = tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(".tmp")
        .permissions(Permissions::from_mode(FILE_MODE))
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_data()?;
    tmp.persist(path).map_err(|err| err.error)?;
    Ok(())
}

/// Bytes the files in `dir` take on disk.
pub fn disk_use(dir: &Path) -> u64 {
    fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.metadata().ok())
                .filter(|m| m.is_file())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// Moves a workspace's saved directory `from` to the name `name` (`C-b $`).
/// Refused when a saved workspace has that name; a directory there that
/// holds no manifest (nothing that could come back) is replaced.
pub fn rename_workspace_dir(from: &Path, name: &str) -> Result<PathBuf> {
    let to = workspace_dir(name)?;
    move_dir(from, &to)?;
    Ok(to)
}

fn move_dir(from: &Path, to: &Path) -> Result<()> {
    match fs::symlink_metadata(to) {
        Err(err) if err.kind() == io::ErrorKind::NotFound => {}
        Err(err) => return Err(err).with_context(|| format!("checking {}", to.display())),
        Ok(meta) if meta.is_dir() && to.join(MANIFEST).exists() => {
            bail!("{} holds a saved workspace", to.display())
        }
        // A link planted there is removed itself, never followed.
        Ok(meta) if !meta.is_dir() => {
            fs::remove_file(to).with_context(|| format!("deleting {}", to.display()))?
        }
        Ok(_) => fs::remove_dir_all(to).with_context(|| format!("deleting {}", to.display()))?,
    }
    fs::rename(from, to).with_context(|| format!("renaming {} to {}", from.display(), to.display()))
}

/// Deletes saved workspace `name`. Returns whether there was one.
pub fn forget(name: &str) -> Result<bool> {
    let dir = workspace_dir(name)?;
    match fs::symlink_metadata(&dir) {
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(err) => return Err(err).with_context(|| format!("checking {}", dir.display())),
        // A link planted there is removed itself, never followed.
        Ok(meta) if !meta.file_type().is_dir() => fs::remove_file(&dir),
        Ok(_) => fs::remove_dir_all(&dir),
    }
    .with_context(|| format!("deleting {}", dir.display()))?;
    Ok(true)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn names_cannot_lead_out_of_the_directory() {
        for bad in ["", "..", ".x", "a/b", "../../etc"] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
        assert!(check_name("dev-2.old").is_ok());
    }

    #[test]
    fn a_moved_directory_keeps_its_files_and_never_replaces_a_saved_one() {
        let root = tempfile::tempdir().unwrap();
        let (from, to) = (root.path().join("old"), root.path().join("new"));
        ensure_private_dir(&from).unwrap();
        write_atomically(&from.join(MANIFEST), b"{}").unwrap();
        move_dir(&from, &to).unwrap();
        assert!(!from.exists());
        assert_eq!(read(&to.join(MANIFEST)).unwrap(), b"{}");
        // A saved one of that name stays; a leftover without one goes.
        ensure_private_dir(&from).unwrap();
        assert!(move_dir(&from, &to).is_err());
        assert!(from.exists() && to.join(MANIFEST).exists());
        let leftover = root.path().join("leftover");
        ensure_private_dir(&leftover).unwrap();
        move_dir(&from, &leftover).unwrap();
        assert!(!from.exists() && leftover.exists());
    }

    #[test]
    fn files_are_private_and_never_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        write_atomically(&path, b"one").unwrap();
        write_atomically(&path, b"two").unwrap();
        assert_eq!(read(&path).unwrap(), b"two");
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let target = dir.path().join("target");
        fs::write(&target, b"theirs").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(create_new(&link).is_err());
        assert!(read(&link).is_err());
        let private = dir.path().join("private");
        ensure_private_dir(&private).unwrap();
        let mode = fs::metadata(&private).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        let linked = dir.path().join("linked");
        std::os::unix::fs::symlink(&private, &linked).unwrap();
        assert!(ensure_private_dir(&linked).is_err());
    }
}
