//! Reading a transmission's data from where the program put it, for the
//! file media: a file (`t=f`), a temporary file (`t=t`, deleted after
//! reading) or a POSIX shared memory object (`t=s`, which on Linux is a
//! file under `/dev/shm`, so no mapping and no `unsafe` is needed).
//!
//! The names come from whatever runs in a pane, so: only regular files
//! (opened non-blocking, so a FIFO cannot hold the open, then refused by
//! what the descriptor is: FIFOs, devices, sockets, directories), never
//! under `/proc`, `/sys` or `/dev` (but `/dev/shm`), only files the user
//! can read (the open is the user's own), and never more than
//! [`MAX_DATA`](super::transfer::MAX_DATA) bytes.
//!
//! A temporary file is deleted, so it is held to more (another user may own
//! a directory on its way and swap it for a link between any two calls):
//! it must be under one of the system's temporary directories with no link
//! below that directory, be the user's own, and carry the mark in its own
//! name. Its directory is opened once, component by component without
//! following links, and the file is opened, read and deleted relative to
//! that descriptor, the delete only while the name still leads to the file
//! read (`os::open_dir_beneath`, `os::unlink_if_same`). A shared memory
//! object is opened and unlinked the same way in `/dev/shm`, never through
//! a link.
//!
//! These functions touch the file system and may wait on it: call them
//! off the render loop.

use std::ffi::OsStr;
use std::io::{Read as _, Seek as _, SeekFrom};
use std::os::fd::AsFd as _;
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};

use super::command::{Command, Medium};
use super::reply::KittyError;
use super::transfer::MAX_DATA;
use crate::os::{self, OpenedFile};

/// The longest file or object name taken (kitty's limit).
const MAX_NAME: usize = 2048;

/// A temporary file is deleted after reading only when its name says it
/// was made for this (kitty's rule), so a program cannot have tilework
/// delete any other file of the user's.
const TEMP_MARK: &str = "tty-graphics-protocol";

/// Where POSIX shared memory objects are, on Linux.
const SHM_DIR: &str = "/dev/shm";

/// The data of a transmission by file, temporary file or shared memory;
/// `name` is the decoded payload.
pub fn read_medium(cmd: &Command, name: &[u8]) -> Result<Vec<u8>, KittyError> {
    if name.is_empty() || name.len() > MAX_NAME || name.contains(&0) {
        return Err(KittyError::invalid("bad file name"));
    }
    let name = Path::new(OsStr::from_bytes(name));
    match cmd.medium {
        Medium::Direct => Err(KittyError::invalid("direct data is not a file")),
        Medium::File => {
            let path = resolve(name)?;
            refuse_system_paths(&path)?;
            let opened =
                os::open_regular_at(rustix::fs::CWD, path.as_os_str()).map_err(|e| io_error(&e))?;
            read_range(opened, cmd.data_offset, cmd.data_size)
        }
        Medium::TempFile => read_temp_file(cmd, name),
        Medium::SharedMemory => {
            let object = name
                .as_os_str()
                .as_bytes()
                .strip_prefix(b"/")
                .unwrap_or(name.as_os_str().as_bytes());
            if object.is_empty() || object.contains(&b'/') || object == b"." || object == b".." {
                return Err(KittyError::invalid("bad shared memory name"));
            }
            let object = OsStr::from_bytes(object);
            let dir = os::open_dir_beneath(Path::new(SHM_DIR), Path::new(""))
                .map_err(|e| io_error(&e))?;
            let opened = os::open_regular_at(dir.as_fd(), object).map_err(|e| io_error(&e))?;
            let id = opened.id;
            let data = read_range(opened, cmd.data_offset, cmd.data_size);
            // The object is the terminal's to remove once read (the spec).
            if let Err(e) = os::unlink_if_same(dir.as_fd(), object, id) {
                tracing::debug!("kitty graphics: shared memory not unlinked: {e}");
            }
            data
        }
    }
}

/// A temporary file (`t=t`): read, then deleted when its name carries the
/// mark (see the module's comment for why each step is as it is).
fn read_temp_file(cmd: &Command, name: &Path) -> Result<Vec<u8>, KittyError> {
    if !name.is_absolute() {
        return Err(KittyError::invalid("the file name must be absolute"));
    }
    let outside = || {
        KittyError::new(
            "EPERM",
            "a temporary file must be in a temporary directory, reached without links",
        )
    };
    let (root, rel) = temp_dirs()
        .into_iter()
        .find_map(|root| Some((root.clone(), name.strip_prefix(&root).ok()?.to_path_buf())))
        .ok_or_else(outside)?;
    let (Some(file_name), Some(parent)) = (rel.file_name(), rel.parent()) else {
        return Err(outside());
    };
    let dir = os::open_dir_beneath(&root, parent).map_err(|_| outside())?;
    let opened = os::open_regular_at(dir.as_fd(), file_name).map_err(|e| io_error(&e))?;
    if !opened.is_mine() {
        return Err(KittyError::new(
            "EPERM",
            "a temporary file must belong to the user",
        ));
    }
    let id = opened.id;
    let data = read_range(opened, cmd.data_offset, cmd.data_size);
    if file_name
        .as_bytes()
        .windows(TEMP_MARK.len())
        .any(|w| w == TEMP_MARK.as_bytes())
    {
        // Gone whether it could be read or not, as kitty does; a failure
        // to delete leaves a file in a temporary directory.
        if let Err(e) = os::unlink_if_same(dir.as_fd(), file_name, id) {
            tracing::debug!("kitty graphics: temporary file not deleted: {e}");
        }
    }
    data
}

/// The path with every link followed (the spec asks that links be
/// followed; a loop is an error), absolute names only: a relative one
/// would be read from tilework's directory, not the program's.
fn resolve(name: &Path) -> Result<PathBuf, KittyError> {
    if !name.is_absolute() {
        return Err(KittyError::invalid("the file name must be absolute"));
    }
    std::fs::canonicalize(name).map_err(|e| io_error(&e))
}

fn refuse_system_paths(path: &Path) -> Result<(), KittyError> {
    let system = ["/proc", "/sys", "/dev"]
        .iter()
        .any(|dir| path.starts_with(dir))
        && !path.starts_with(SHM_DIR);
    if system {
        return Err(KittyError::new("EPERM", "refusing to read a system file"));
    }
    Ok(())
}

/// The system's temporary directories, as named and as they are after
/// links (a program may name either; each is the system's own).
fn temp_dirs() -> Vec<PathBuf> {
    let named = [std::env::temp_dir(), "/tmp".into(), SHM_DIR.into()];
    let resolved = named
        .iter()
        .filter_map(|dir| std::fs::canonicalize(dir).ok());
    let mut dirs: Vec<PathBuf> = named.iter().cloned().chain(resolved).collect();
    dirs.dedup();
    dirs
}

/// `size` bytes (0: to the end) from `offset` of the opened file.
fn read_range(opened: OpenedFile, offset: u32, size: u32) -> Result<Vec<u8>, KittyError> {
    let len = opened.len;
    let offset = u64::from(offset);
    if offset > len {
        return Err(KittyError::new(
            "ENODATA",
            "the offset is past the end of the file",
        ));
    }
    let wanted = match size {
        0 => len - offset,
        n => u64::from(n).min(len - offset),
    };
    if wanted > MAX_DATA as u64 {
        return Err(KittyError::new(
            "EFBIG",
            format!("the file holds over tilework's {MAX_DATA} byte limit"),
        ));
    }
    let mut file = opened.file;
    file.seek(SeekFrom::Start(offset))
        .map_err(|e| io_error(&e))?;
    let mut data = Vec::with_capacity(wanted as usize);
    file.take(wanted)
        .read_to_end(&mut data)
        .map_err(|e| io_error(&e))?;
    Ok(data)
}

fn io_error(e: &std::io::Error) -> KittyError {
    // What the descriptor turned out to be (a FIFO, a device, a directory).
    if e.kind() == std::io::ErrorKind::InvalidInput {
        return KittyError::new("EBADF", "not a regular file");
    }
    let code = match e.kind() {
        std::io::ErrorKind::NotFound => "ENOENT",
        std::io::ErrorKind::PermissionDenied => "EPERM",
        _ => "EBADF",
    };
    KittyError::new(code, format!("could not read the file: {e}"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn cmd(control: &[u8]) -> Command {
        Command::parse(control).unwrap()
    }

    fn read(control: &[u8], path: &Path) -> Result<Vec<u8>, KittyError> {
        read_medium(&cmd(control), path.as_os_str().as_bytes())
    }

    #[test]
    fn a_regular_file_is_read_whole_or_in_part() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("picture.rgba");
        std::fs::write(&path, b"0123456789").unwrap();
        assert_eq!(read(b"t=f", &path).unwrap(), b"0123456789");
        assert_eq!(read(b"t=f,O=2,S=3", &path).unwrap(), b"234");
        assert_eq!(read(b"t=f,O=8,S=30", &path).unwrap(), b"89");
        assert_eq!(read(b"t=f,O=11", &path).unwrap_err().code, "ENODATA");
        assert!(path.exists(), "a plain file is never deleted");
    }

    #[test]
    fn fifos_devices_and_directories_are_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        // No writer: an open that waited would hang this test.
        assert_eq!(read(b"t=f", &fifo).unwrap_err().code, "EBADF");
        assert_eq!(
            read(b"t=f", Path::new("/dev/zero")).unwrap_err().code,
            "EPERM"
        );
        assert_eq!(read(b"t=f", dir.path()).unwrap_err().code, "EBADF");
        // A link to a device is followed and refused all the same.
        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert_eq!(read(b"t=f", &link).unwrap_err().code, "EPERM");
        assert_eq!(
            read(b"t=f", Path::new("/proc/self/environ"))
                .unwrap_err()
                .code,
            "EPERM"
        );
    }

    #[test]
    fn relative_missing_and_odd_names_are_refused() {
        assert_eq!(
            read(b"t=f", Path::new("relative.png")).unwrap_err().code,
            "EINVAL"
        );
        assert_eq!(
            read(b"t=f", Path::new("/nonexistent/x.png"))
                .unwrap_err()
                .code,
            "ENOENT"
        );
        assert_eq!(
            read_medium(&cmd(b"t=f"), b"/a\0b").unwrap_err().code,
            "EINVAL"
        );
        assert_eq!(
            read_medium(&cmd(b"t=s"), b"/a/b").unwrap_err().code,
            "EINVAL"
        );
    }

    #[test]
    fn temporary_files_are_read_only_in_temporary_directories_then_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data-tty-graphics-protocol");
        std::fs::write(&path, b"abc").unwrap();
        assert_eq!(read(b"t=t", &path).unwrap(), b"abc");
        assert!(!path.exists());
        // Without the mark in its name it is read and kept.
        let plain = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(plain.path(), b"xyz").unwrap();
        assert_eq!(read(b"t=t", plain.path()).unwrap(), b"xyz");
        assert!(plain.path().exists());
        // The mark in a directory's name is not the file's.
        let marked = tempfile::Builder::new()
            .prefix("tty-graphics-protocol-test")
            .tempdir()
            .unwrap();
        let inside = marked.path().join("data");
        std::fs::write(&inside, b"abc").unwrap();
        assert_eq!(read(b"t=t", &inside).unwrap(), b"abc");
        assert!(inside.exists());
    }

    #[test]
    fn a_temporary_file_through_a_link_or_not_the_users_is_refused_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir(&real).unwrap();
        let file = real.join("data-tty-graphics-protocol");
        std::fs::write(&file, b"abc").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let through = link.join("data-tty-graphics-protocol");
        assert_eq!(read(b"t=t", &through).unwrap_err().code, "EPERM");
        let climbing = dir.path().join("real/../real/data-tty-graphics-protocol");
        assert_eq!(read(b"t=t", &climbing).unwrap_err().code, "EPERM");
        let named_link = dir.path().join("x-tty-graphics-protocol");
        std::os::unix::fs::symlink(&file, &named_link).unwrap();
        assert_eq!(read(b"t=t", &named_link).unwrap_err().code, "EBADF");
        assert!(file.exists() && named_link.exists());
        // Another user's file is neither read nor deleted.
        if rustix::process::getuid().is_root() {
            let theirs = Some(rustix::fs::Uid::from_raw(65534));
            rustix::fs::chown(&file, theirs, None).unwrap();
            assert_eq!(read(b"t=t", &file).unwrap_err().code, "EPERM");
            assert!(file.exists());
        }
    }

    #[test]
    fn a_temporary_file_elsewhere_is_refused() {
        // A system file, outside every temporary directory wherever this
        // checkout is (read-only: it has no mark, so nothing could delete
        // it, and the refusal comes before any open).
        let elsewhere = Path::new("/etc/passwd");
        assert!(!temp_dirs().iter().any(|dir| elsewhere.starts_with(dir)));
        assert_eq!(read(b"t=t", elsewhere).unwrap_err().code, "EPERM");
    }

    #[test]
    fn shared_memory_is_read_then_unlinked() {
        let name = format!("tilework-test-{}", std::process::id());
        let path = Path::new("/dev/shm").join(&name);
        if std::fs::write(&path, b"\x01\x02\x03\x04").is_err() {
            return; // no /dev/shm here
        }
        let data = read_medium(&cmd(b"t=s,S=3"), format!("/{name}").as_bytes()).unwrap();
        assert_eq!(data, [1, 2, 3]);
        assert!(!path.exists());
        // A link there is neither followed nor unlinked.
        let target = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(target.path(), b"secret").unwrap();
        std::os::unix::fs::symlink(target.path(), &path).unwrap();
        let refused = read_medium(&cmd(b"t=s"), format!("/{name}").as_bytes());
        let _ = std::fs::remove_file(&path);
        assert_eq!(refused.unwrap_err().code, "EBADF");
        assert_eq!(std::fs::read(target.path()).unwrap(), b"secret");
    }

    #[test]
    fn files_over_the_limit_are_refused_before_reading() {
        let file = tempfile::NamedTempFile::new().unwrap();
        file.as_file().set_len(MAX_DATA as u64 + 1).unwrap();
        assert_eq!(read(b"t=f", file.path()).unwrap_err().code, "EFBIG");
    }
}
