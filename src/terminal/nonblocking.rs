//! The user's terminal written without ever blocking: a descriptor of its
//! own, in non-blocking mode.
//!
//! `O_NONBLOCK` belongs to an open file description, which fds 0-2 share
//! with the client process and, after tilework, the user's shell: set on
//! them it would reach programs that expect a blocking terminal. Opening
//! the terminal anew through `/proc/self/fd/N` gives a description of our
//! own (Linux; see the README's porting notes).

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;

/// fd 1's file, opened anew for writing, non-blocking. Fails for what
/// cannot be opened again (a socket).
pub fn reopen_stdout() -> io::Result<File> {
    OpenOptions::new()
        .write(true)
        .custom_flags(libc_flags())
        .open("/proc/self/fd/1")
}

fn libc_flags() -> i32 {
    (rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY | rustix::fs::OFlags::CLOEXEC).bits()
        as i32
}
