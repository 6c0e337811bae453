//! Every child session tilework started, so every exit path can end them.
//!
//! A pane's program is a session leader (portable-pty calls `setsid`), so
//! everything it starts — pipelines, `cmd &` jobs in their own process
//! groups, grandchildren holding the PTY — shares its session id unless it
//! calls `setsid` itself. Ending a pane means signalling every process of
//! that session, found in `/proc`; process groups alone would miss
//! background jobs of interactive shells.
//!
//! A session stays registered until it has been killed, so the last-resort
//! paths (a panic, a second signal, exiting right after closing a pane)
//! still find it.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;

static SESSIONS: Mutex<Vec<i32>> = Mutex::new(Vec::new());

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

/// Processes whose session is `sid` (from `/proc/PID/stat`).
pub fn session_members(sid: i32) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|entry| {
        let pid: i32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // Fields after the command name (which may contain spaces and
        // parentheses): state ppid pgrp session ...
        let rest = &stat[stat.rfind(')')? + 2..];
        let session: i32 = rest.split(' ').nth(3)?.parse().ok()?;
        (session == sid).then_some(pid)
    })
    .collect()
}

fn signal_session(sid: i32, signal: Signal) {
    // The group first (cheap, and covers processes /proc hides from us).
    let _ = killpg(Pid::from_raw(sid), signal);
    for pid in session_members(sid) {
        // ESRCH (gone meanwhile) is fine.
        let _ = kill(Pid::from_raw(pid), signal);
    }
}

/// Hangs up on a session and kills what is left after [`GRACE`], on its
/// own thread so the caller never waits.
pub fn end_session(sid: i32) {
    // All of it off the caller's thread: scanning /proc takes milliseconds
    // with many processes, and the caller is the render loop.
    let spawned = std::thread::Builder::new()
        .name("end-session".into())
        .spawn(move || {
            signal_session(sid, Signal::SIGHUP);
            signal_session(sid, Signal::SIGCONT);
            std::thread::sleep(GRACE);
            signal_session(sid, Signal::SIGKILL);
            unregister(sid);
        });
    if let Err(err) = spawned {
        tracing::warn!("starting the session killer: {err}");
        signal_session(sid, Signal::SIGKILL);
        unregister(sid);
    }
}

/// Kills every registered session at once: for exit paths that cannot wait.
pub fn kill_all() {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_our_own_session() {
        let sid = nix::unistd::getsid(None).map(|p| p.as_raw()).unwrap_or(-1);
        let me = std::process::id() as i32;
        assert!(session_members(sid).contains(&me));
    }
}
