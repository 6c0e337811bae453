//! The operating system, in one room: what tilework asks of the kernel
//! that POSIX leaves each system to answer its own way. tilework runs on
//! Linux, whose answers are in `linux` (`/proc`, `SO_PEERCRED`, Linux-only
//! flags); a port to another system writes its own file beside it with the
//! same functions (docs/architecture.md, "Porting", says which and with what).
//!
//! Callers keep their logic (whom to signal, how to name a pane, what a
//! request line says) and ask here only for facts and descriptors:
//! - processes: [`session_processes`], [`terminal_foreground_group`],
//!   [`process_name`], [`cwd_of`], [`process_args`], [`children_of`],
//!   [`process_group`];
//! - sockets: [`peer_uid`], [`send_with_fds`], [`recv_with_fds`];
//! - terminals: [`open_pty`], [`reopen_nonblocking`], [`reopen_nonblocking_to_read`];
//! - files: [`read_small_file`], [`read_whole_small_file`]; through
//!   directory descriptors, never a link: [`open_dir_beneath`], [`open_regular_at`], [`unlink_if_same`],
//!   [`remove_tree_at`]; directories of tilework's own, private:
//!   [`ensure_private_dir`], [`check_private_dir`], [`check_private_fd`]
//!   (the same on every POSIX system).

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
use linux as system;

#[cfg(not(target_os = "linux"))]
compile_error!(
    "tilework runs on Linux only: a port writes src/os/<system>.rs (docs/architecture.md, \"Porting\")"
);

mod beneath;
mod private_dir;
mod small_file;

use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;

pub use beneath::{
    FileId, OpenedFile, kind_at, make_dir_at, open_dir_at, open_dir_beneath, open_regular_at,
    remove_tree_at, rename_at, unlink_if_same,
};
pub use private_dir::{check_private_dir, check_private_fd, ensure_private_dir};
pub use small_file::{read_small_file, read_whole_small_file};

/// `fd` opened anew for writing, non-blocking, as an open file
/// description of its own: `O_NONBLOCK` set on a shared one would reach
/// every process sharing it (the client, the user's shell). Fails for what
/// cannot be opened again (a socket).
pub fn reopen_nonblocking(fd: BorrowedFd<'_>) -> io::Result<std::fs::File> {
    system::reopen_nonblocking(fd, false)
}

/// `fd` opened anew for reading, non-blocking, as an open file description
/// of its own (see [`reopen_nonblocking`]): an attached terminal's keys.
pub fn reopen_nonblocking_to_read(fd: BorrowedFd<'_>) -> io::Result<std::fs::File> {
    system::reopen_nonblocking(fd, true)
}

/// This process's own binary, the very file it runs even if a newer one
/// was installed at its path since: the attaching client runs itself again
/// through it to wait small (`session::small_wait`).
pub fn own_binary() -> PathBuf {
    system::own_binary()
}

/// The most descriptors one message carries ([`send_with_fds`],
/// [`recv_with_fds`]): an attach request's stdin, stdout and stderr.
pub const MAX_FDS: usize = 3;

/// Every process whose session is `sid`, as far as this user may see:
/// empty when the system will not say.
pub fn session_processes(sid: i32) -> Vec<i32> {
    system::session_processes(sid)
}

/// The foreground process group of the terminal that process `pid` has as
/// its controlling terminal; `None` without one, or when the system will
/// not say.
pub fn terminal_foreground_group(pid: u32) -> Option<u32> {
    system::terminal_foreground_group(pid)
}

/// The name the kernel knows process `pid` by (`vim`, `bash`: the
/// program's file name, maybe cut short), never empty.
pub fn process_name(pid: u32) -> Option<String> {
    system::process_name(pid)
}

/// The working directory of process `pid`.
pub fn cwd_of(pid: u32) -> Option<PathBuf> {
    system::cwd_of(pid)
}

/// The arguments process `pid` was started with (its `argv`), when the
/// system says and they are not too long to keep.
pub fn process_args(pid: u32) -> Option<Vec<String>> {
    system::process_args(pid)
}

/// The children of process `pid`, when the system says.
pub fn children_of(pid: u32) -> Option<Vec<u32>> {
    system::children_of(pid)
}

/// The process group of process `pid`.
pub fn process_group(pid: u32) -> Option<u32> {
    system::process_group(pid)
}

/// When process `pid` started (clock ticks since boot): with its pid, it
/// names one process, whatever reuses the pid later.
pub fn process_start_time(pid: u32) -> Option<u64> {
    system::process_start_time(pid)
}

/// The uid of the process at the other end of a Unix socket.
pub fn peer_uid(stream: &impl AsFd) -> io::Result<u32> {
    system::peer_uid(stream)
}

/// Sends `bytes` with `fds` attached (`SCM_RIGHTS`, at most [`MAX_FDS`]),
/// in one message, without SIGPIPE if the peer is gone. Returns the bytes
/// sent.
pub fn send_with_fds(
    stream: &UnixStream,
    bytes: &[u8],
    fds: &[BorrowedFd<'_>],
) -> io::Result<usize> {
    system::send_with_fds(stream, bytes, fds)
}

/// Receives into `buf` one message's bytes and adds the descriptors that
/// came with them (at most [`MAX_FDS`]) to `fds`, close-on-exec from the
/// start. Returns the bytes received (0: the peer closed).
pub fn recv_with_fds(
    stream: &UnixStream,
    buf: &mut [u8],
    fds: &mut Vec<OwnedFd>,
) -> io::Result<usize> {
    system::recv_with_fds(stream, buf, fds)
}

/// A new pseudo-terminal: (controller, user side). Neither becomes the
/// process's controlling terminal, and both are close-on-exec.
pub fn open_pty() -> io::Result<(OwnedFd, OwnedFd)> {
    system::open_pty()
}
