//! One run of ssh carrying a remote attach, watched until it ends.
//!
//! ssh has the terminal itself (stdin, stdout and stderr inherited): keys
//! and frames go through no tilework process on this side, so typing costs
//! what it costs through a plain `ssh -t`. This side only waits, and
//! decides what the ending means:
//! - exit 0: the remote attach detached (or its workspace ended);
//! - exit 255 or a signal: the link dropped (ssh's own keep-alives gave up,
//!   the connection was cut, or ssh was killed);
//! - an ssh stopped (SIGSTOP, a frozen process) for as long as the
//!   keep-alives would allow: the link is as good as down, the ssh is
//!   killed and the link counts as dropped. A stop by the terminal's
//!   suspend (ssh's `~^Z`) is the user's: tilework stops along with it;
//! - any other status: the remote `tilework attach`'s own.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use nix::sys::signal::{Signal, kill, raise};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;

/// How a run of ssh ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// It exited with this status: 0 for a detach, else the remote
    /// attach's (or the remote shell's: 127 for no such command).
    Exited(i32),
    /// The link dropped: what was seen.
    Dropped(String),
}

/// What the waiting thread sees of the ssh.
enum Seen {
    Stopped(Signal),
    Continued,
    Ended(Ending),
}

/// How often the run is looked at: for a stop that lasts, and until the
/// connection is up, for its control socket.
const WATCH_TICK: Duration = Duration::from_millis(250);
const CONNECT_TICK: Duration = Duration::from_millis(20);

/// Without a shared connection, a run that lasted this long got through.
const CONNECTED_WITHOUT_SHARING: Duration = Duration::from_secs(5);

/// What one run of ssh came to.
pub struct Run {
    pub ending: Ending,
    /// The connection was up at some point of the run.
    pub connected: bool,
}

/// Runs `argv` (ssh) on the inherited terminal until it ends.
/// `control_socket` is the shared connection's socket when there is one:
/// it exists once the connection got through.
pub fn run(argv: &[String], dead_after: Duration, control_socket: Option<&Path>) -> Result<Run> {
    let (program, args) = argv.split_first().context("an empty ssh command")?;
    let started = Instant::now();
    let child = Command::new(program)
        .args(args)
        .spawn()
        .with_context(|| format!("running {program}"))?;
    let pid = Pid::from_raw(i32::try_from(child.id()).context("a pid out of range")?);
    let (tx, rx) = crossbeam_channel::bounded(4);
    crate::jobs::named("ssh-wait", move || watch(pid, &tx)).context("starting the ssh watcher")?;
    // The child is reaped by the watcher: `child` is never waited on.
    drop(child);

    let mut connected = false;
    let mut stopped_since: Option<Instant> = None;
    loop {
        connected = connected || got_through(control_socket, started);
        // Until the connection is up, its socket is looked for often: a
        // link that drops soon after must not pass for one that never got
        // through (that one is not retried).
        let tick = if connected { WATCH_TICK } else { CONNECT_TICK };
        match rx.recv_timeout(tick) {
            Ok(Seen::Ended(ending)) => {
                connected = connected || got_through(control_socket, started);
                return Ok(Run { ending, connected });
            }
            Ok(Seen::Stopped(signal)) if is_terminal_stop(signal) => {
                // The user suspended ssh (`~^Z`): the shell sees this job
                // stop; its `fg` continues the whole group.
                let _ = raise(Signal::SIGTSTP);
                let _ = kill(pid, Signal::SIGCONT);
            }
            Ok(Seen::Stopped(_)) => stopped_since = stopped_since.or(Some(Instant::now())),
            Ok(Seen::Continued) => stopped_since = None,
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => {}
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => {
                anyhow::bail!("lost track of ssh (pid {pid})")
            }
        }
        if let Some(since) = stopped_since
            && since.elapsed() >= dead_after
        {
            tracing::warn!(%pid, "ssh stopped for {dead_after:?}: the link counts as down");
            let _ = kill(pid, Signal::SIGKILL);
            stopped_since = None;
        }
    }
}

fn is_terminal_stop(signal: Signal) -> bool {
    matches!(signal, Signal::SIGTSTP | Signal::SIGTTIN | Signal::SIGTTOU)
}

/// Waits on `pid` (stops and continues too) until it ends.
fn watch(pid: Pid, tx: &crossbeam_channel::Sender<Seen>) {
    let flags = WaitPidFlag::WUNTRACED | WaitPidFlag::WCONTINUED;
    loop {
        let seen = match waitpid(pid, Some(flags)) {
            Ok(WaitStatus::Exited(_, 255)) => {
                Seen::Ended(Ending::Dropped("ssh exited with 255".into()))
            }
            Ok(WaitStatus::Exited(_, code)) => Seen::Ended(Ending::Exited(code)),
            Ok(WaitStatus::Signaled(_, signal, _)) => {
                Seen::Ended(Ending::Dropped(format!("ssh was killed ({signal})")))
            }
            Ok(WaitStatus::Stopped(_, signal)) => Seen::Stopped(signal),
            Ok(WaitStatus::Continued(_)) => Seen::Continued,
            Ok(_) => continue,
            Err(nix::errno::Errno::EINTR) => continue,
            Err(err) => Seen::Ended(Ending::Dropped(format!("waiting for ssh: {err}"))),
        };
        let ended = matches!(seen, Seen::Ended(_));
        if tx.send(seen).is_err() || ended {
            return;
        }
    }
}

fn got_through(control_socket: Option<&Path>, started: Instant) -> bool {
    use std::os::unix::fs::FileTypeExt;
    match control_socket {
        Some(path) => std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_socket()),
        None => started.elapsed() >= CONNECTED_WITHOUT_SHARING,
    }
}
