//! Directories tilework keeps for itself (the sockets' runtime directory,
//! the state directory with the log and saved workspaces): created 0700,
//! and refused if one is a symbolic link, belongs to someone else or lets
//! anyone else in. Another user who made one first could plant or reach
//! what is in it (a socket, the log, a link in place of `saved/`), so such
//! a directory is never used, whatever it holds. One check for all of
//! them, by path or on an open descriptor.

use std::fs;
use std::io;
use std::os::fd::BorrowedFd;
use std::os::unix::fs::DirBuilderExt as _;
use std::path::Path;

use anyhow::{Context, Result, bail};
use rustix::fs::FileType;

/// Creates `dir` (0700) unless it exists, then checks it is a real
/// directory, owned by this user, with no access for group or others.
pub fn ensure_private_dir(dir: &Path) -> Result<()> {
    match fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {}
        Err(err) => {
            return Err(err).with_context(|| format!("creating {}", dir.display()));
        }
    }
    check_private_dir(dir)
}

/// Checks that `dir` is a real directory (not a link to one), owned by
/// this user, with no access for group or others.
pub fn check_private_dir(dir: &Path) -> Result<()> {
    let stat = rustix::fs::lstat(dir)
        .map_err(io::Error::from)
        .with_context(|| format!("checking {}", dir.display()))?;
    refuse_unless_private(&stat, dir)
}

/// As [`check_private_dir`], for the directory open at `fd` (`shown`
/// names it in the message).
pub fn check_private_fd(fd: BorrowedFd<'_>, shown: &Path) -> Result<()> {
    let stat = rustix::fs::fstat(fd)
        .map_err(io::Error::from)
        .with_context(|| format!("checking {}", shown.display()))?;
    refuse_unless_private(&stat, shown)
}

fn refuse_unless_private(stat: &rustix::fs::Stat, dir: &Path) -> Result<()> {
    if FileType::from_raw_mode(stat.st_mode) != FileType::Directory {
        bail!(
            "{} is not a directory (a symlink?): refusing to use it",
            dir.display()
        );
    }
    if stat.st_uid != rustix::process::getuid().as_raw() {
        bail!(
            "{} belongs to uid {}, not to you: refusing to use it",
            dir.display(),
            stat.st_uid
        );
    }
    let mode = stat.st_mode & 0o777;
    if mode & 0o077 != 0 {
        bail!(
            "{} is open to other users (mode {mode:o}): refusing to use it (chmod 700 it)",
            dir.display()
        );
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::os::fd::AsFd as _;
    use std::os::unix::fs::PermissionsExt as _;

    #[test]
    fn the_directory_is_created_private_and_a_shared_one_is_refused() {
        let base = tempfile::tempdir().unwrap();
        let dir = base.path().join("tilework");
        ensure_private_dir(&dir).unwrap();
        let mode = fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        let err = ensure_private_dir(&dir).unwrap_err().to_string();
        assert!(err.contains("open to other users"), "{err}");
        let fd =
            rustix::fs::open(&dir, rustix::fs::OFlags::RDONLY, rustix::fs::Mode::empty()).unwrap();
        let err = check_private_fd(fd.as_fd(), &dir).unwrap_err().to_string();
        assert!(err.contains("open to other users"), "{err}");
        // A symlink to a private directory is refused too.
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
        let link = base.path().join("link");
        std::os::unix::fs::symlink(&dir, &link).unwrap();
        let err = ensure_private_dir(&link).unwrap_err().to_string();
        assert!(err.contains("not a directory"), "{err}");
        // Another user's (only root can make one to try).
        if rustix::process::getuid().is_root() {
            let theirs = Some(rustix::fs::Uid::from_raw(65534));
            rustix::fs::chown(&dir, theirs, None).unwrap();
            let err = check_private_dir(&dir).unwrap_err().to_string();
            assert!(err.contains("belongs to uid 65534"), "{err}");
        }
    }
}
