//! Every child session tilework started, so every exit path can end them.
//!
//! A pane's program is a session leader (portable-pty calls `setsid`), so
//! everything it starts — pipelines, `cmd &` jobs in their own process
//! groups, grandchildren holding the PTY — shares its session id unless it
//! calls `setsid` itself. Ending a pane means signalling every process of
//! that session (`os::session_processes`: on Linux, from `/proc`); process
//! groups alone would miss background jobs of interactive shells.
//!
//! A session stays registered until it has been killed, so the last-resort
//! paths (a panic, a second signal, exiting right after closing a pane)
//! still find it.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;

use crate::os;

// why process-wide: children are ended on every exit path, the panic
// hook's and a signal's among them, past the loop.
static SESSIONS: Mutex<Vec<i32>> = Mutex::new(Vec::new());
/// Process groups of commands tilework started outside the panes (a
/// `tilework pipe` command): ended by whoever started them, and by
/// [`kill_all`] on every exit path.
static GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// How long a hung-up session gets to exit before SIGKILL.
pub const GRACE: Duration = Duration::from_millis(300);

pub fn register(sid: i32) {
    SESSIONS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(sid);
}

fn unregister(sid: i32) {
    SESSIONS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .retain(|&s| s != sid);
}

fn signal_session(sid: i32, signal: Signal) {
    // The group first (cheap, and covers processes the system hides from
    // us).
    let _ = killpg(Pid::from_raw(sid), signal);
    for pid in os::session_processes(sid) {
        // ESRCH (gone meanwhile) is fine.
        let _ = kill(Pid::from_raw(pid), signal);
    }
}

/// Hangs up on a session and kills what is left after [`GRACE`], on its
/// own thread so the caller never waits.
pub fn end_session(sid: i32) {
    // All of it off the caller's thread: finding a session's processes
    // (scanning /proc) takes milliseconds with many processes, and the
    // caller is the render loop.
    let spawned = crate::jobs::named("end-session", move || {
        signal_session(sid, Signal::SIGHUP);
        signal_session(sid, Signal::SIGCONT);
        std::thread::sleep(GRACE);
        signal_session(sid, Signal::SIGKILL);
        unregister(sid);
    });
    // A thread that cannot start is said in the log by `jobs::named`.
    if spawned.is_err() {
        signal_session(sid, Signal::SIGKILL);
        unregister(sid);
    }
}

/// A process group to end on every exit path, until [`forget_group`].
pub fn register_group(pgid: i32) {
    GROUPS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(pgid);
}

/// The group was killed by its owner (its leader is not reaped yet, so the
/// id is not reused meanwhile).
pub fn forget_group(pgid: i32) {
    GROUPS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .retain(|&g| g != pgid);
}

/// Kills every registered session and group at once: for exit paths that
/// cannot wait.
pub fn kill_all() {
    let groups = std::mem::take(&mut *GROUPS.lock().unwrap_or_else(PoisonError::into_inner));
    for group in groups {
        for signal in [Signal::SIGHUP, Signal::SIGCONT, Signal::SIGKILL] {
            let _ = killpg(Pid::from_raw(group), signal);
        }
    }
    let sessions = SESSIONS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    for sid in sessions {
        signal_session(sid, Signal::SIGHUP);
        signal_session(sid, Signal::SIGCONT);
        signal_session(sid, Signal::SIGKILL);
        unregister(sid);
    }
}
