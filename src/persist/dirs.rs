//! Where saved workspaces live and how their files are made: one private
//! directory per workspace under `$XDG_STATE_HOME/tilework/saved/` (else
//! `~/.local/state/tilework/saved/`), every directory 0700 and every file
//! 0600 from the moment it exists, none reached through a symbolic link
//! (pane output can hold secrets; see `config::private_file`).
//!
//! The state directory and `saved/` are refused unless they are the
//! user's own private directories ([`check_state_dirs`]): another user who
//! made one first could read what is saved or put a link where tilework
//! deletes. A workspace's directory is deleted or renamed only through
//! descriptors of `tilework/saved`, opened without following links
//! ([`remove_workspace_dir`]); what is written and deleted inside it goes
//! by path, which is safe once the directories above are checked private:
//! nobody else can change them.

use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, Write as _};
use std::os::fd::{AsFd as _, OwnedFd};
use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

pub const FILE_MODE: u32 = 0o600;
pub const DIR_MODE: u32 = 0o700;

/// The file that says what a saved workspace holds (see `manifest`).
pub const MANIFEST: &str = "manifest.json";

/// tilework's state directory: `$XDG_STATE_HOME/tilework`, else
/// `~/.local/state/tilework` (saved workspaces, and the log by default).
pub fn state_dir() -> Result<PathBuf> {
    let state = match std::env::var_os("XDG_STATE_HOME") {
        Some(base) if Path::new(&base).is_absolute() => PathBuf::from(base),
        _ => dirs::home_dir()
            .context("no home directory to save workspaces in ($HOME)")?
            .join(".local")
            .join("state"),
    };
    Ok(state.join("tilework"))
}

/// The state directory's `saved/`.
pub fn saved_root() -> Result<PathBuf> {
    Ok(state_dir()?.join("saved"))
}

/// Refuses a state directory or `saved/` that is not the user's own
/// private directory (when they exist; nothing is created): another user
/// who made either first could read what is saved or put a link in place
/// of what tilework deletes. Said before anything is read, written or
/// deleted there.
pub fn check_state_dirs() -> Result<()> {
    // No home and no XDG_STATE_HOME: nothing is saved (saving says so).
    let Ok(state) = state_dir() else {
        return Ok(());
    };
    for dir in [state.clone(), state.join("saved")] {
        if fs::symlink_metadata(&dir).is_ok() {
            crate::os::check_private_dir(&dir)?;
        }
    }
    Ok(())
}

/// The directory of workspace `name` (not created).
pub fn workspace_dir(name: &str) -> Result<PathBuf> {
    check_name(name)?;
    Ok(saved_root()?.join(name))
}

/// Creates the directory of workspace `name` and the ones above it, and
/// checks that the three of tilework's own are private real directories.
pub fn make_workspace_dir(name: &str) -> Result<PathBuf> {
    let dir = workspace_dir(name)?;
    let state = state_dir()?;
    if let Some(base) = state.parent() {
        crate::config::private_file::create_dir_all(base)?;
    }
    for own in [state.clone(), state.join("saved"), dir.clone()] {
        ensure_private_dir(&own)?;
    }
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

pub use crate::os::ensure_private_dir;

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

/// Reads the whole of `path`, a saved file of at most `cap` bytes: a
/// symbolic link, a FIFO (which would hang `ls` and `attach`), a device
/// or a larger file is refused at once.
pub fn read(path: &Path, cap: usize) -> io::Result<Vec<u8>> {
    crate::os::read_whole_small_file(path, cap)
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

/// The directory holding saved workspace directory `dir`, opened through
/// descriptors: the place above tilework's own two directories is the
/// user's choice and followed; those two (`tilework/saved`) are opened
/// without following a link and checked private, so a `saved/` replaced by
/// a link to somewhere else leads nowhere.
fn open_saved_parent(dir: &Path) -> Result<OwnedFd> {
    let parent = dir.parent().context("a saved workspace's directory")?;
    let state = parent.parent().context("a saved workspace's directory")?;
    let (Some(base), Some(state_name), Some(saved_name)) =
        (state.parent(), state.file_name(), parent.file_name())
    else {
        bail!("{} is not a saved workspace's directory", dir.display());
    };
    let state_fd = crate::os::open_dir_beneath(base, Path::new(state_name))
        .with_context(|| format!("opening {}", state.display()))?;
    crate::os::check_private_fd(state_fd.as_fd(), state)?;
    let saved_fd = crate::os::open_dir_at(state_fd.as_fd(), saved_name)
        .with_context(|| format!("opening {}", parent.display()))?;
    crate::os::check_private_fd(saved_fd.as_fd(), parent)?;
    Ok(saved_fd)
}

fn move_dir(from: &Path, to: &Path) -> Result<()> {
    let (Some(from_name), Some(to_name)) = (from.file_name(), to.file_name()) else {
        bail!("{} is not a saved workspace's directory", from.display());
    };
    if from.parent() != to.parent() {
        bail!(
            "{} and {} are not side by side",
            from.display(),
            to.display()
        );
    }
    let root = open_saved_parent(to)?;
    let root = root.as_fd();
    let is_dir = crate::os::kind_at(root, to_name)
        .with_context(|| format!("checking {}", to.display()))?
        .is_some_and(|kind| kind == rustix::fs::FileType::Directory);
    if is_dir {
        let there = crate::os::open_dir_at(root, to_name)
            .with_context(|| format!("checking {}", to.display()))?;
        if crate::os::kind_at(there.as_fd(), OsStr::new(MANIFEST))?.is_some() {
            bail!("{} holds a saved workspace", to.display())
        }
    }
    // Whatever else is there goes, a link itself, never followed.
    crate::os::remove_tree_at(root, to_name)
        .with_context(|| format!("deleting {}", to.display()))?;
    crate::os::rename_at(root, from_name, to_name)
        .with_context(|| format!("renaming {} to {}", from.display(), to.display()))
}

/// Deletes the saved workspace directory `dir`, through descriptors (see
/// `open_saved_parent`): a link there is removed itself, and nothing
/// is ever deleted through one. Returns whether there was anything.
pub fn remove_workspace_dir(dir: &Path) -> Result<bool> {
    let name = dir.file_name().context("a saved workspace's directory")?;
    let root = match open_saved_parent(dir) {
        Err(err)
            if err
                .downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::NotFound) =>
        {
            return Ok(false);
        }
        root => root?,
    };
    crate::os::remove_tree_at(root.as_fd(), name)
        .with_context(|| format!("deleting {}", dir.display()))
}

/// Deletes saved workspace `name`. Returns whether there was one.
pub fn forget(name: &str) -> Result<bool> {
    remove_workspace_dir(&workspace_dir(name)?)
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
        let base = tempfile::tempdir().unwrap();
        let root = saved_root_in(base.path());
        let (from, to) = (root.join("old"), root.join("new"));
        ensure_private_dir(&from).unwrap();
        write_atomically(&from.join(MANIFEST), b"{}").unwrap();
        move_dir(&from, &to).unwrap();
        assert!(!from.exists());
        assert_eq!(read(&to.join(MANIFEST), 2).unwrap(), b"{}");
        // A saved one of that name stays; a leftover without one goes.
        ensure_private_dir(&from).unwrap();
        assert!(move_dir(&from, &to).is_err());
        assert!(from.exists() && to.join(MANIFEST).exists());
        let leftover = root.join("leftover");
        ensure_private_dir(&leftover).unwrap();
        move_dir(&from, &leftover).unwrap();
        assert!(!from.exists() && leftover.exists());
    }

    /// `tilework/saved` under `base`, both private.
    fn saved_root_in(base: &Path) -> PathBuf {
        let root = base.join("tilework/saved");
        ensure_private_dir(&base.join("tilework")).unwrap();
        ensure_private_dir(&root).unwrap();
        root
    }

    #[test]
    fn a_saved_directory_replaced_by_a_link_leads_no_delete_through_it() {
        let base = tempfile::tempdir().unwrap();
        let root = saved_root_in(base.path());
        let victim = base.path().join("victim");
        fs::create_dir_all(victim.join("w")).unwrap();
        fs::write(victim.join("w/precious"), b"keep").unwrap();
        fs::remove_dir(&root).unwrap();
        std::os::unix::fs::symlink(&victim, &root).unwrap();
        assert!(remove_workspace_dir(&root.join("w")).is_err());
        assert!(move_dir(&root.join("w"), &root.join("x")).is_err());
        assert_eq!(fs::read(victim.join("w/precious")).unwrap(), b"keep");
        // A link in place of the workspace's own directory goes itself.
        fs::remove_file(&root).unwrap();
        ensure_private_dir(&root).unwrap();
        std::os::unix::fs::symlink(victim.join("w"), root.join("w")).unwrap();
        assert!(remove_workspace_dir(&root.join("w")).unwrap());
        assert!(fs::symlink_metadata(root.join("w")).is_err());
        assert_eq!(fs::read(victim.join("w/precious")).unwrap(), b"keep");
        assert!(!remove_workspace_dir(&root.join("w")).unwrap());
    }

    #[test]
    fn files_are_private_and_never_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        write_atomically(&path, b"one").unwrap();
        write_atomically(&path, b"two").unwrap();
        assert_eq!(read(&path, 3).unwrap(), b"two");
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let target = dir.path().join("target");
        fs::write(&target, b"theirs").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(create_new(&link).is_err());
        assert!(read(&link, 100).is_err());
        let private = dir.path().join("private");
        ensure_private_dir(&private).unwrap();
        let mode = fs::metadata(&private).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        let linked = dir.path().join("linked");
        std::os::unix::fs::symlink(&private, &linked).unwrap();
        assert!(ensure_private_dir(&linked).is_err());
    }
}
