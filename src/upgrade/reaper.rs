//! What the old process becomes once the workspace is handed over, while
//! programs it started still run.
//!
//! A program's exit status goes to its parent only, and a process that
//! exits leaves its children to init, which keeps their statuses: the new
//! process, not their parent, would never know how they ended (the last
//! program's status is `tilework`'s own). So the old process, once the new
//! one has everything, replaces itself (`execve(2)`, same pid, so its
//! children stay its own) with this binary in a mode that only waits for
//! its children and writes each program's status to a note the workspace
//! reads (`pane::program::pty::exit_note`); it exits with its last child.
//! It holds no descriptor of the workspace's: every one tilework opens is
//! close-on-exec.

use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::pane::program::pty::ExitInfo;
use crate::pane::program::pty::exit_note::ExitNotes;

/// The hidden first argument of the reaper: `tilework --reap-programs DIR`.
pub const REAP_FLAG: &str = "--reap-programs";

/// Where the notes are, for a workspace whose sockets are in `runtime`.
pub fn notes_in(runtime: &std::path::Path) -> ExitNotes {
    ExitNotes::new(runtime.join("exits"))
}

/// Old side, told to go: becomes the reaper of its children, if it has
/// any, else exits.
pub fn become_reaper(notes: &ExitNotes) -> ! {
    let me = std::process::id();
    if crate::os::children_of(me).is_some_and(|c| !c.is_empty()) {
        // The binary this process runs, even if the package manager
        // replaced the file meanwhile.
        let err = Command::new("/proc/self/exe")
            .arg0("tilework")
            .arg(REAP_FLAG)
            .arg(notes.dir())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .exec();
        tracing::error!("becoming the programs' reaper: {err}; their statuses are lost");
    }
    std::process::exit(0)
}

/// The reaper's whole life (`args`: what follows [`REAP_FLAG`]): waits
/// for each child, writes the status of those promised, and returns once
/// none is left.
pub fn run(args: &[std::ffi::OsString]) -> i32 {
    use nix::sys::wait::{WaitStatus, wait};
    let Some(dir) = args.first() else {
        return 2;
    };
    // `ps` and the test helpers know it by this name, not `exe`.
    let _ = nix::sys::prctl::set_name(c"tilework");
    let notes = ExitNotes::new(PathBuf::from(dir));
    loop {
        let (pid, info) = match wait() {
            Ok(WaitStatus::Exited(pid, code)) => (
                pid,
                ExitInfo {
                    code,
                    signal: false,
                },
            ),
            Ok(WaitStatus::Signaled(pid, signal, _)) => (
                pid,
                ExitInfo {
                    code: 128 + signal as i32,
                    signal: true,
                },
            ),
            Ok(_) | Err(nix::errno::Errno::EINTR) => continue,
            // No child left (ECHILD): done.
            Err(_) => return 0,
        };
        if let Ok(pid) = u32::try_from(pid.as_raw()) {
            notes.record(pid, info);
        }
    }
}
