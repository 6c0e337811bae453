//! Reading a small fact from a file that someone else may have planted (a
//! pane's `.git/HEAD`, in a directory any program or cloned repository
//! shapes): never waiting, never through a symbolic link, never more than
//! a cap. A FIFO would block `open(2)` until a writer came, a symbolic link
//! could lead to `/proc/kmsg` (whose read waits for the next kernel
//! message), a device could answer forever: each is refused at once.
//!
//! POSIX only, the same on every system tilework could be ported to.

use std::io::{self, Read};
use std::path::Path;

use rustix::fs::{FileType, Mode, OFlags};

/// Up to `cap` bytes of the regular file at `path`. Refused, without
/// waiting: a symbolic link (`O_NOFOLLOW`, even one to a regular file), a
/// FIFO, a device, a socket or a directory. Opened non-blocking (a FIFO
/// swapped in after the first look opens at once, and is then refused by
/// what the open descriptor is) and never as a controlling terminal.
pub fn read_small_file(path: &Path, cap: usize) -> io::Result<Vec<u8>> {
    // A first look, so a device is not even opened (opening some has
    // effects of its own); the descriptor's own `fstat` decides.
    if !std::fs::symlink_metadata(path)?.file_type().is_file() {
        return Err(not_regular());
    }
    let mut bytes = Vec::new();
    open_regular(path)?
        .take(u64::try_from(cap).unwrap_or(u64::MAX))
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The whole of the regular file at `path`, refused as [`read_small_file`]
/// refuses, and refused too when it holds more than `cap` bytes (it is
/// not what it should be), before anything is read: tilework's own files,
/// which a damaged disk or another program may have replaced with a FIFO,
/// a link or something far larger.
pub fn read_whole_small_file(path: &Path, cap: usize) -> io::Result<Vec<u8>> {
    if !std::fs::symlink_metadata(path)?.file_type().is_file() {
        return Err(not_regular());
    }
    let file = open_regular(path)?;
    let cap = u64::try_from(cap).unwrap_or(u64::MAX);
    let too_large = || {
        io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("larger than {cap} bytes"),
        )
    };
    if file.metadata()?.len() > cap {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    // Bounded even if it grows between the look and the read.
    file.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(too_large());
    }
    Ok(bytes)
}

/// The regular file at `path`, opened without waiting and without
/// following a symbolic link; anything else is refused by what the open
/// descriptor is, whatever a look before the open saw.
fn open_regular(path: &Path) -> io::Result<std::fs::File> {
    let flags =
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NOCTTY;
    let fd = rustix::fs::open(path, flags, Mode::empty())?;
    if FileType::from_raw_mode(rustix::fs::fstat(&fd)?.st_mode) != FileType::RegularFile {
        return Err(not_regular());
    }
    Ok(std::fs::File::from(fd))
}

fn not_regular() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "not a regular file")
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::os::unix::fs::OpenOptionsExt as _;
    use std::time::Duration;

    #[test]
    fn a_regular_file_is_read_up_to_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small");
        std::fs::write(&small, "ref: refs/heads/main\n").unwrap();
        assert_eq!(
            read_small_file(&small, 4096).unwrap(),
            b"ref: refs/heads/main\n"
        );
        let big = dir.path().join("big");
        std::fs::write(&big, vec![b'a'; 100_000]).unwrap();
        assert_eq!(read_small_file(&big, 4096).unwrap().len(), 4096);
    }

    #[test]
    fn a_whole_file_over_the_cap_is_refused_before_reading() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, vec![b'a'; 100]).unwrap();
        assert_eq!(read_whole_small_file(&path, 100).unwrap().len(), 100);
        let err = read_whole_small_file(&path, 99).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::FileTooLarge);
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        assert_eq!(
            unless_stuck(&fifo, |p| read_whole_small_file(p, 4096).is_err()),
            Some(true)
        );
    }

    #[test]
    fn a_symbolic_link_is_refused_even_to_a_regular_file() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::write(&real, "ref: refs/heads/main\n").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert!(read_small_file(&link, 4096).is_err());
    }

    #[test]
    fn a_directory_or_a_device_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read_small_file(dir.path(), 4096).is_err());
        assert!(read_small_file(Path::new("/dev/zero"), 4096).is_err());
        assert!(read_small_file(&dir.path().join("missing"), 4096).is_err());
    }

    /// `read(path)` on a thread of its own, or `None` if it has not come
    /// back after a generous while: a read that blocks (on a FIFO with no
    /// writer, on `/proc/kmsg`) waits for good, and this turns that hang
    /// into a failure instead of a test that never ends.
    fn unless_stuck(path: &Path, read: fn(&Path) -> bool) -> Option<bool> {
        let (tx, rx) = crossbeam_channel::bounded(1);
        let owned = path.to_path_buf();
        std::thread::spawn(move || {
            let _ = tx.send(read(&owned));
        });
        rx.recv_timeout(Duration::from_secs(30)).ok()
    }

    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let whole = unless_stuck(&fifo, |p| read_small_file(p, 4096).is_err());
        // A FIFO swapped in after the first look: the open itself does not
        // wait, and the descriptor is refused for what it is.
        let open = unless_stuck(&fifo, |p| open_regular(p).is_err());
        // A stuck reader is freed by a writer, so the test ends either way.
        let _ = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(OFlags::NONBLOCK.bits() as i32)
            .open(&fifo);
        assert_eq!((whole, open), (Some(true), Some(true)));
    }

    #[test]
    fn a_link_to_proc_kmsg_is_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let kmsg = dir.path().join("kmsg");
        std::os::unix::fs::symlink("/proc/kmsg", &kmsg).unwrap();
        assert_eq!(
            unless_stuck(&kmsg, |p| read_small_file(p, 4096).is_err()),
            Some(true)
        );
    }

    #[test]
    fn the_open_refuses_a_symbolic_link_whatever_the_first_look_saw() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::write(&real, "x").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert!(open_regular(&real).is_ok());
        assert!(open_regular(&link).is_err());
    }
}
