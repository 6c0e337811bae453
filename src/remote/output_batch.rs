//! A remote pane's output on its way into the local pane's PTY, in fewer
//! and larger pieces.
//!
//! The relay reads ssh's stdout (the proxy's frames) and writes their
//! bytes into the local pane's PTY, which the local workspace's reader
//! reads. Written a frame at a time, a flood cost a `write(2)` per frame
//! and woke that reader as often; ssh, the relay and the local workspace
//! then took turns on the CPU in small steps. So:
//! - ssh's stdout is a pipe of [`PIPE_BYTES`] rather than the default 64
//!   KiB: ssh writes on while the relay is busy, and the relay takes more
//!   at a read;
//! - what the frames of the reads ssh has ready carry is gathered up to
//!   [`BATCH_BYTES`] and written at once, when ssh has nothing more ready
//!   (so a key's echo is never held back waiting for more).

use std::os::fd::AsFd;

/// The pipe from ssh to the relay (Linux caps it at
/// `/proc/sys/fs/pipe-max-size`, 1 MiB by default; a smaller cap leaves
/// the pipe as it was).
pub const PIPE_BYTES: i32 = 1 << 20;

/// Output gathered before a write into the local PTY, at most (a write
/// of it waits while the local workspace reads).
pub const BATCH_BYTES: usize = 256 << 10;

/// Widens the pipe `fd` is (ssh's stdout) to [`PIPE_BYTES`]; one that
/// cannot be widened stays as it is.
pub fn widen_pipe(fd: impl AsFd) {
    use nix::fcntl::{FcntlArg, fcntl};
    if let Err(err) = fcntl(fd.as_fd(), FcntlArg::F_SETPIPE_SZ(PIPE_BYTES)) {
        tracing::debug!("widening ssh's output pipe: {err}");
    }
}

/// Whether `fd` has more to read right now (without waiting).
pub fn more_ready(fd: impl AsFd) -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let fd = fd.as_fd();
    let mut fds = [PollFd::new(&fd, PollFlags::IN)];
    matches!(poll(&mut fds, Some(&Timespec::default())), Ok(n) if n > 0)
        && fds[0].revents().contains(PollFlags::IN)
}

/// Whether the output gathered in `pending` is written now: it reached
/// [`BATCH_BYTES`], or nothing more is ready on `from` (ssh's stdout).
pub fn write_now(pending: &[u8], from: impl AsFd) -> bool {
    !pending.is_empty() && (pending.len() >= BATCH_BYTES || !more_ready(from))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn output_waits_while_more_is_ready_and_up_to_the_batch() {
        let (reader, writer) = std::io::pipe().unwrap();
        widen_pipe(&reader);
        assert!(!write_now(b"", &reader), "nothing to write");
        assert!(write_now(b"echo", &reader), "nothing more ready: at once");
        (&writer).write_all(b"more").unwrap();
        assert!(!write_now(b"echo", &reader), "more is ready: gathered");
        let full = vec![b'x'; BATCH_BYTES];
        assert!(write_now(&full, &reader), "a full batch goes");
    }
}
