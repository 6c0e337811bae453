//! Puts each attached terminal into workspace mode and, on every exit path,
//! back exactly as it was: detach, normal exit, error, panic, and signals.
//!
//! Turning modes on and off lives here and only here, so no exit path can
//! forget one of them.
//!
//! A panic is an exit path too: the loop arms
//! [`crate::diag::panic_guard::clean_up_on_panic`] with [`restore`].

use std::fs::File;
use std::io::{self, Write};
use std::os::fd::{BorrowedFd, OwnedFd};
use std::sync::Mutex;
use std::sync::atomic::Ordering;

use rustix::termios::{OptionalActions, Termios};

/// Alternate screen, SGR mouse with button motion, bracketed paste, focus
/// events, theme reports (mode 2031), hidden cursor.
const ENTER: &[u8] =
    b"\x1b[?1049h\x1b[?1000h\x1b[?1002h\x1b[?1006h\x1b[?2004h\x1b[?1004h\x1b[?2031h\x1b[?25l";
/// [`ENTER`] without mouse reporting, so the outer terminal's own
/// selection keeps working.
const ENTER_WITHOUT_MOUSE: &[u8] = b"\x1b[?1049h\x1b[?2004h\x1b[?1004h\x1b[?2031h\x1b[?25l";
/// The reverse of [`ENTER`], plus a reset of the cursor shape, the cursor
/// colour (a pane's program may have set it, see `outbox`) and of SGR.
const LEAVE: &[u8] =
    b"\x1b[?2031l\x1b[?1004l\x1b[?2004l\x1b[?1006l\x1b[?1002l\x1b[?1000l\x1b[0 q\x1b]112\x07\x1b[m\x1b[?1049l\x1b[?25h";

/// Saves the terminal's title on its own stack (xterm's XTWINOPS 22), so
/// the title tilework sets (`set_titles`) is the terminal's own again
/// after a detach; [`TITLE_POP`] puts it back. A terminal without the
/// stack ignores both.
const TITLE_PUSH: &[u8] = b"\x1b[22;0t";
const TITLE_POP: &[u8] = b"\x1b[23;0t";

/// Leaves workspace mode on every attached terminal ([`TerminalModes`]).
/// Safe to call from any thread, any number of times (each terminal is put
/// back once): the panic hook, the signal thread and the exit watchdog
/// call it while the loop may hold the terminals.
pub fn restore() {
    restore_telling(None);
}

/// [`restore`], then `note` (a panic's message) on every terminal put
/// back, where its user reads it.
pub fn restore_telling(note: Option<&str>) {
    // Each line on its own row of a terminal left in raw mode's
    // neighbourhood: `\r\n`, not `\n`.
    let note = note.map(|text| format!("tilework: {}\r\n", text.replace('\n', "\r\n")));
    for mut held in held_terminals().drain(..) {
        held.leave();
        if let (Some(out), Some(note)) = (held.output.as_mut(), &note) {
            let _ = out.write_all(note.as_bytes());
        }
    }
}

/// A terminal in workspace mode: one attached client's (see
/// `crate::client`). Held in a process-wide list so that [`restore`]
/// (a panic, a stuck loop's second signal) puts every attached terminal
/// back, not only the one a loop could reach.
struct Held {
    id: u64,
    input: OwnedFd,
    /// Written without waiting: a terminal that stopped reading must not
    /// hold up a detach or an exit.
    output: Option<File>,
    saved: Termios,
}

impl Held {
    fn leave(&mut self) {
        if let Some(out) = self.output.as_mut() {
            // The pop apart from [`LEAVE_SEQUENCE`]: a client that writes
            // that after the workspace did must not pop a title twice.
            let _ = out.write_all(&[LEAVE, TITLE_POP].concat());
        }
        let _ = rustix::termios::tcsetattr(&self.input, OptionalActions::Now, &self.saved);
    }
}

// why process-wide: the terminal guard: the panic hook and a second
// signal restore every terminal, past the loop that holds them.
static HELD: Mutex<Vec<Held>> = Mutex::new(Vec::new());
static NEXT_HELD: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn held_terminals() -> std::sync::MutexGuard<'static, Vec<Held>> {
    HELD.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One attached terminal in workspace mode for as long as this lives:
/// dropped (the client detaches or is let go), the terminal is put back
/// as it was.
#[derive(Debug)]
pub struct TerminalModes {
    id: u64,
}

impl TerminalModes {
    /// Puts the terminal read on `input` and written on `output` into
    /// workspace mode (raw, alternate screen, ...), remembering its line
    /// discipline. `mouse` false leaves mouse reporting off.
    pub fn enter(input: BorrowedFd<'_>, output: BorrowedFd<'_>, mouse: bool) -> io::Result<Self> {
        let saved = rustix::termios::tcgetattr(input)?;
        let mut raw = saved.clone();
        raw.make_raw();
        let id = NEXT_HELD.fetch_add(1, Ordering::Relaxed);
        let input = input.try_clone_to_owned()?;
        let mut out = crate::os::reopen_nonblocking(output)
            .or_else(|_| output.try_clone_to_owned().map(File::from))?;
        held_terminals().push(Held {
            id,
            input: input.try_clone()?,
            output: Some(out.try_clone()?),
            saved,
        });
        let modes = Self { id };
        rustix::termios::tcsetattr(&input, OptionalActions::Now, &raw)?;
        let enter = if mouse { ENTER } else { ENTER_WITHOUT_MOUSE };
        out.write_all(&[TITLE_PUSH, enter].concat())?;
        Ok(modes)
    }
}

impl Drop for TerminalModes {
    fn drop(&mut self) {
        let held = {
            let mut list = held_terminals();
            list.iter()
                .position(|h| h.id == self.id)
                .map(|at| list.swap_remove(at))
        };
        if let Some(mut held) = held {
            held.leave();
        }
    }
}

/// The sequences that take a terminal out of workspace mode, for a client
/// whose workspace died without restoring it.
pub const LEAVE_SEQUENCE: &[u8] = LEAVE;
