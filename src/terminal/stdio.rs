//! The workspace process's own stdin, stdout and stderr: a parking PTY.
//!
//! Attached terminals come with descriptors of their own (each client
//! reads and draws its own: `crate::client`), so nothing of the workspace
//! goes through fds 0-2. They are parked on a terminal nobody types into
//! and nobody reads, so that a stray write (a library's message) never
//! fails nor reaches a user's terminal, and the launcher's descriptors are
//! not held open by the workspace.

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::OnceLock;

/// The parking PTY, made once. Both ends stay open for the life of the
/// process: with the controller side closed, reading the other end would
/// fail at once (and the loop would spin on the error).
struct Parking {
    _controller: OwnedFd,
    user_side: OwnedFd,
}

// why process-wide: fds 0-2 are the process's, parked for its whole life.
static PARKING: OnceLock<Parking> = OnceLock::new();

fn parking() -> io::Result<&'static Parking> {
    if let Some(p) = PARKING.get() {
        return Ok(p);
    }
    // Not the controlling terminal: the workspace leads its own session,
    // and would get a controlling terminal's SIGHUP.
    let (controller, user_side) = crate::os::open_pty()?;
    // Non-blocking: a stray write to it must never wait.
    rustix::io::ioctl_fionbio(&user_side, true)?;
    let _ = PARKING.set(Parking {
        _controller: controller,
        user_side,
    });
    PARKING
        .get()
        .ok_or_else(|| io::Error::other("the parking terminal vanished"))
}

/// Makes `input`, `output` and `errors` the process's fds 0, 1 and 2.
fn install(input: impl AsFd, output: impl AsFd, errors: impl AsFd) -> io::Result<()> {
    rustix::stdio::dup2_stdin(input)?;
    rustix::stdio::dup2_stdout(output)?;
    rustix::stdio::dup2_stderr(errors)?;
    Ok(())
}

/// Puts the parking PTY on fds 0, 1 and 2 (the launcher's are let go).
pub fn park() -> io::Result<()> {
    let p = parking()?;
    install(&p.user_side, &p.user_side, &p.user_side)
}
