//! Files reached through directory descriptors, never through a link: for
//! places another user may shape while tilework works in them (a directory
//! of theirs under `/tmp`, a state directory they made first).
//!
//! A path is resolved by the kernel afresh at each call, so checking a path
//! and then deleting it acts on whatever the path names by then: a link
//! swapped in between leads the delete anywhere. Here a directory is opened
//! once, one component at a time with `O_NOFOLLOW`, and every later open,
//! look and delete is relative to that descriptor (`openat`, `fstatat`,
//! `unlinkat`): swapping a directory or a link afterwards changes nothing
//! tilework does.
//!
//! POSIX only (the `*at` calls and `O_NOFOLLOW`).

use std::ffi::OsStr;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Component, Path};

use rustix::fs::{AtFlags, FileType, Mode, OFlags, Stat};

/// How deep [`remove_tree_at`] goes: tilework's own trees are one or two
/// levels deep, so anything deeper is not one of them.
const MAX_DEPTH: usize = 8;

/// A file's identity: the same device and inode is the same file,
/// whatever name leads to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileId {
    dev: u64,
    ino: u64,
}

/// A regular file opened through a directory descriptor.
#[derive(Debug)]
pub struct OpenedFile {
    pub file: File,
    pub id: FileId,
    /// Its owner's uid.
    pub owner: u32,
    /// Its length in bytes when it was opened.
    pub len: u64,
}

impl OpenedFile {
    /// Whether the user running tilework owns it.
    pub fn is_mine(&self) -> bool {
        self.owner == rustix::process::getuid().as_raw()
    }
}

fn id_of(stat: &Stat) -> FileId {
    #[allow(clippy::useless_conversion)] // the types differ between systems
    FileId {
        dev: u64::from(stat.st_dev),
        ino: u64::from(stat.st_ino),
    }
}

const DIR_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

/// The directory `root` (links followed: a root is the system's or the
/// user's own choice), then each component of `rel` beneath it opened
/// with `O_NOFOLLOW`: a link anywhere below `root` is refused (`ELOOP` or
/// `ENOTDIR`), and so are `..` and an absolute `rel`.
pub fn open_dir_beneath(root: &Path, rel: &Path) -> io::Result<OwnedFd> {
    let mut dir = rustix::fs::open(
        root,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    for component in rel.components() {
        match component {
            Component::Normal(name) => dir = open_dir_at(dir.as_fd(), name)?,
            Component::CurDir => {}
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "a path beneath a directory cannot climb out of it",
                ));
            }
        }
    }
    Ok(dir)
}

/// The directory `name` in `dir`, never through a link.
pub fn open_dir_at(dir: BorrowedFd<'_>, name: &OsStr) -> io::Result<OwnedFd> {
    Ok(rustix::fs::openat(dir, name, DIR_FLAGS, Mode::empty())?)
}

/// Creates the directory `name` in `dir` with `mode` unless something is
/// there, then opens it, never through a link.
pub fn make_dir_at(dir: BorrowedFd<'_>, name: &OsStr, mode: u32) -> io::Result<OwnedFd> {
    match rustix::fs::mkdirat(dir, name, Mode::from_raw_mode(mode)) {
        Ok(()) | Err(rustix::io::Errno::EXIST) => {}
        Err(err) => return Err(err.into()),
    }
    open_dir_at(dir, name)
}

/// The regular file `name` in `dir`, opened to read without waiting (a
/// FIFO opens at once, then is refused for what it is) and never through
/// a link; anything but a regular file is refused by what the descriptor
/// is.
pub fn open_regular_at(dir: BorrowedFd<'_>, name: &OsStr) -> io::Result<OpenedFile> {
    let flags =
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NOCTTY;
    let fd = rustix::fs::openat(dir, name, flags, Mode::empty())?;
    let stat = rustix::fs::fstat(&fd)?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok(OpenedFile {
        file: File::from(fd),
        id: id_of(&stat),
        owner: stat.st_uid,
        len: u64::try_from(stat.st_size).unwrap_or(0),
    })
}

/// Deletes the name `name` in `dir` if it still names the file `id` (the
/// one opened and read); a name since given to another file is left.
pub fn unlink_if_same(dir: BorrowedFd<'_>, name: &OsStr, id: FileId) -> io::Result<()> {
    let now = rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)?;
    if id_of(&now) != id {
        return Err(io::Error::other("the name now leads to another file"));
    }
    Ok(rustix::fs::unlinkat(dir, name, AtFlags::empty())?)
}

/// What `name` in `dir` is, if anything (a link is itself, not followed).
pub fn kind_at(dir: BorrowedFd<'_>, name: &OsStr) -> io::Result<Option<FileType>> {
    match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat) => Ok(Some(FileType::from_raw_mode(stat.st_mode))),
        Err(rustix::io::Errno::NOENT) => Ok(None),
        Err(err) => Err(err.into()),
    }
}

/// Renames `from` to `to`, both in `dir`.
pub fn rename_at(dir: BorrowedFd<'_>, from: &OsStr, to: &OsStr) -> io::Result<()> {
    Ok(rustix::fs::renameat(dir, from, dir, to)?)
}

/// Deletes `name` in `dir`: a file or a link is unlinked itself (a link is
/// never followed), a directory emptied the same way, through descriptors,
/// then removed. Returns whether there was anything to delete.
pub fn remove_tree_at(dir: BorrowedFd<'_>, name: &OsStr) -> io::Result<bool> {
    match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Err(rustix::io::Errno::NOENT) => Ok(false),
        Err(err) => Err(err.into()),
        Ok(stat) => {
            remove_entry(dir, name, &stat, 0)?;
            Ok(true)
        }
    }
}

fn remove_entry(dir: BorrowedFd<'_>, name: &OsStr, stat: &Stat, depth: usize) -> io::Result<()> {
    if FileType::from_raw_mode(stat.st_mode) != FileType::Directory {
        return Ok(rustix::fs::unlinkat(dir, name, AtFlags::empty())?);
    }
    if depth >= MAX_DEPTH {
        return Err(io::Error::other("a directory nested too deep to be ours"));
    }
    let inner = open_dir_at(dir, name)?;
    // The directory opened is the one looked at: one swapped in between is
    // not emptied.
    if id_of(&rustix::fs::fstat(&inner)?) != id_of(stat) {
        return Err(io::Error::other(
            "the directory was replaced while deleting",
        ));
    }
    empty_dir(inner.as_fd(), depth)?;
    Ok(rustix::fs::unlinkat(dir, name, AtFlags::REMOVEDIR)?)
}

fn empty_dir(dir: BorrowedFd<'_>, depth: usize) -> io::Result<()> {
    let mut names = Vec::new();
    for entry in rustix::fs::Dir::read_from(dir)? {
        let name = entry?.file_name().to_bytes().to_vec();
        if name != b"." && name != b".." {
            names.push(name);
        }
    }
    for name in names {
        use std::os::unix::ffi::OsStrExt as _;
        let name = OsStr::from_bytes(&name);
        match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
            Err(rustix::io::Errno::NOENT) => {}
            Err(err) => return Err(err.into()),
            Ok(stat) => remove_entry(dir, name, &stat, depth + 1)?,
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::io::Read as _;

    #[test]
    fn a_link_beneath_the_root_is_refused_and_so_is_climbing_out() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join("a/b")).unwrap();
        std::os::unix::fs::symlink(root.path().join("a"), root.path().join("link")).unwrap();
        assert!(open_dir_beneath(root.path(), Path::new("a/b")).is_ok());
        assert!(open_dir_beneath(root.path(), Path::new("link/b")).is_err());
        assert!(open_dir_beneath(root.path(), Path::new("link")).is_err());
        assert!(open_dir_beneath(root.path(), Path::new("a/../a")).is_err());
        assert!(open_dir_beneath(root.path(), Path::new("/etc")).is_err());
    }

    #[test]
    fn a_file_is_read_and_deleted_only_while_its_name_still_leads_to_it() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("f"), b"abc").unwrap();
        let dir = open_dir_beneath(root.path(), Path::new("")).unwrap();
        let mut opened = open_regular_at(dir.as_fd(), OsStr::new("f")).unwrap();
        assert!(opened.is_mine() && opened.len == 3);
        let mut text = String::new();
        opened.file.read_to_string(&mut text).unwrap();
        assert_eq!(text, "abc");
        // Another file put at the name since: left alone.
        std::fs::rename(root.path().join("f"), root.path().join("g")).unwrap();
        std::fs::write(root.path().join("f"), b"other").unwrap();
        assert!(unlink_if_same(dir.as_fd(), OsStr::new("f"), opened.id).is_err());
        assert!(root.path().join("f").exists());
        let g = open_regular_at(dir.as_fd(), OsStr::new("g")).unwrap();
        unlink_if_same(dir.as_fd(), OsStr::new("g"), g.id).unwrap();
        assert!(!root.path().join("g").exists());
        // A link or a directory is not a regular file.
        std::os::unix::fs::symlink(root.path().join("f"), root.path().join("l")).unwrap();
        assert!(open_regular_at(dir.as_fd(), OsStr::new("l")).is_err());
        assert!(open_regular_at(dir.as_fd(), OsStr::new(".")).is_err());
    }

    #[test]
    fn a_tree_is_removed_without_following_a_link_in_it() {
        let root = tempfile::tempdir().unwrap();
        let victim = root.path().join("victim");
        std::fs::create_dir(&victim).unwrap();
        std::fs::write(victim.join("precious"), b"keep").unwrap();
        let tree = root.path().join("tree");
        std::fs::create_dir_all(tree.join("sub")).unwrap();
        std::fs::write(tree.join("sub/file"), b"x").unwrap();
        std::os::unix::fs::symlink(&victim, tree.join("link")).unwrap();
        let dir = open_dir_beneath(root.path(), Path::new("")).unwrap();
        assert!(remove_tree_at(dir.as_fd(), OsStr::new("tree")).unwrap());
        assert!(!tree.exists());
        assert!(!remove_tree_at(dir.as_fd(), OsStr::new("tree")).unwrap());
        // A link given as the tree is removed itself.
        std::os::unix::fs::symlink(&victim, root.path().join("tree")).unwrap();
        assert!(remove_tree_at(dir.as_fd(), OsStr::new("tree")).unwrap());
        assert_eq!(std::fs::read(victim.join("precious")).unwrap(), b"keep");
    }
}
