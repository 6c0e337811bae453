//! Which terminal the workspace's stdin, stdout and stderr are.
//!
//! Everything that talks to the user's terminal goes through fds 0, 1 and
//! 2: the key reader opens fd 0's terminal again (`key_reader`), the frame
//! writer and the guard duplicate fd 1, the size comes from fd 1 (the workspace has no
//! controlling terminal, so `/dev/tty` is not there), and a panic message
//! goes to fd 2. Attaching a terminal is therefore `dup2` onto 0, 1 and 2;
//! detaching puts a parking PTY there: a terminal nobody types into, so the
//! loop polls it without a wake-up, and writes never fail.

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

static PARKING: OnceLock<Parking> = OnceLock::new();

fn parking() -> io::Result<&'static Parking> {
    if let Some(p) = PARKING.get() {
        return Ok(p);
    }
    // Not the controlling terminal: the workspace leads its own session,
    // and would get a controlling terminal's SIGHUP.
    let (controller, user_side) = crate::os::open_pty()?;
    // Non-blocking: should the key reader have to read a copy of fd 0
    // rather than its own opening of the terminal, a read that found
    // nothing here must come back empty, not wait for good.
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
pub fn install(input: impl AsFd, output: impl AsFd, errors: impl AsFd) -> io::Result<()> {
    rustix::stdio::dup2_stdin(input)?;
    rustix::stdio::dup2_stdout(output)?;
    rustix::stdio::dup2_stderr(errors)?;
    Ok(())
}

/// Puts the parking PTY on fds 0, 1 and 2: the last terminal is let go
/// (this process no longer holds it open through them).
pub fn park() -> io::Result<()> {
    let p = parking()?;
    install(&p.user_side, &p.user_side, &p.user_side)
}

/// The size of the terminal on fd 1: (columns, rows).
pub fn size() -> io::Result<(u16, u16)> {
    let ws = rustix::termios::tcgetwinsize(rustix::stdio::stdout())?;
    Ok((ws.ws_col, ws.ws_row))
}
