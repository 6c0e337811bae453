//! Puts the user's terminal into workspace mode and, on every exit path,
//! back exactly as it was: normal exit, error, panic, and signals.
//!
//! Turning modes on and off lives here and only here, so no exit path can
//! forget one of them.
//!
//! A panic is an exit path too: the loop arms
//! [`crate::diag::panic_guard::clean_up_on_panic`] with [`restore`].

use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::termios::{OptionalActions, Termios};

/// Set while the terminal is in workspace mode, so restoring twice (panic
/// hook, then the guard's drop) writes nothing the second time.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// The line discipline the terminal had before raw mode, put back on
/// restore. Ours rather than crossterm's: crossterm keeps its saved mode
/// until a restore succeeds, so after a terminal that hung up it would
/// never save (nor set raw) the next attached terminal's mode.
static SAVED: Mutex<Option<Termios>> = Mutex::new(None);

/// Alternate screen, SGR mouse with button motion, bracketed paste, focus
/// events, hidden cursor.
const ENTER: &[u8] = b"\x1b[?1049h\x1b[?1000h\x1b[?1002h\x1b[?1006h\x1b[?2004h\x1b[?1004h\x1b[?25l";
/// The reverse of [`ENTER`], plus a reset of the cursor shape, the cursor
/// colour (a pane's program may have set it, see `outbox`) and of SGR.
const LEAVE: &[u8] =
    b"\x1b[?1004l\x1b[?2004l\x1b[?1006l\x1b[?1002l\x1b[?1000l\x1b[0 q\x1b]112\x07\x1b[m\x1b[?1049l\x1b[?25h";

/// While alive, the terminal is in workspace mode.
pub struct TerminalGuard {
    _private: (),
}

impl TerminalGuard {
    /// Enables raw mode and the workspace modes. `mouse` false leaves mouse
    /// reporting off so the outer terminal's own selection keeps working.
    pub fn enter(mouse: bool) -> io::Result<Self> {
        enter(mouse)?;
        Ok(Self { _private: () })
    }
}

/// Puts the terminal on fds 0 and 1 into workspace mode (raw, alternate
/// screen, ...), remembering its line discipline for [`restore`]. Called at
/// start and on every attach.
pub fn enter(mouse: bool) -> io::Result<()> {
    let stdin = rustix::stdio::stdin();
    let saved = rustix::termios::tcgetattr(stdin)?;
    let mut raw = saved.clone();
    raw.make_raw();
    *saved_mode() = Some(saved);
    rustix::termios::tcsetattr(stdin, OptionalActions::Now, &raw)?;
    ACTIVE.store(true, Ordering::SeqCst);
    let mut out = raw_stdout()?;
    if mouse {
        out.write_all(ENTER)?;
    } else {
        out.write_all(b"\x1b[?1049h\x1b[?2004h\x1b[?1004h\x1b[?25l")?;
    }
    Ok(())
}

fn saved_mode() -> std::sync::MutexGuard<'static, Option<Termios>> {
    // A panic elsewhere while holding it must not stop a restore.
    SAVED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Leaves workspace mode. Safe to call from any thread, any number of times.
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    // Best effort: the terminal may be gone (SIGHUP), or not reading (a
    // frozen ssh): never waited for, nothing to report to.
    if let Ok(mut out) =
        crate::os::reopen_nonblocking(io::stdout().as_fd()).or_else(|_| raw_stdout())
    {
        let _ = out.write_all(LEAVE);
    }
    if let Some(saved) = saved_mode().take() {
        let _ = rustix::termios::tcsetattr(rustix::stdio::stdin(), OptionalActions::Now, &saved);
    }
}

/// The sequences that take a terminal out of workspace mode, for a client
/// whose workspace died without restoring it.
pub const LEAVE_SEQUENCE: &[u8] = LEAVE;

fn raw_stdout() -> io::Result<File> {
    Ok(File::from(io::stdout().as_fd().try_clone_to_owned()?))
}
