//! Every child process group tilework started and has not reaped yet, so
//! the last-resort exit paths (a panic, a second signal while the loop is
//! stuck) can still kill them. The normal paths kill panes one by one.

use std::sync::{Mutex, PoisonError};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

static CHILDREN: Mutex<Vec<i32>> = Mutex::new(Vec::new());

pub fn register(pid: i32) {
    CHILDREN
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(pid);
}

pub fn unregister(pid: i32) {
    CHILDREN
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .retain(|&p| p != pid);
}

/// SIGHUP then SIGKILL to every registered process group.
pub fn kill_all() {
    let pids = CHILDREN
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    for pid in pids {
        let group = Pid::from_raw(pid);
        // ESRCH (already gone) is fine.
        let _ = killpg(group, Signal::SIGHUP);
        let _ = killpg(group, Signal::SIGCONT);
        let _ = killpg(group, Signal::SIGKILL);
    }
}
