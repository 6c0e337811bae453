//! A remote pane's ssh, watched for a stop (issue 47 §2): an ssh stopped
//! (SIGSTOP, a frozen process) carries nothing, yet its pipes stay open,
//! so the relay reading its stdout would wait for ever. Stopped for as
//! long as the keep-alives allow (`3 × keepalive`, as `attach HOST:NAME`
//! counts it in `link.rs`), it is killed: the relay sees its end as a
//! dropped link and reconnects from the position it has.
//!
//! The watch asks the kernel with `waitid(WSTOPPED | WCONTINUED |
//! WNOHANG)`, which reports stops and continues but never reaps: the
//! relay's `wait` still gets the exit. It looks under a lock the relay
//! takes before it reaps, so it never signals a pid that another process
//! may have been given since.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid};
use nix::unistd::Pid;

/// How often the ssh is looked at.
const TICK: Duration = Duration::from_millis(100);

#[derive(Default)]
struct Shared {
    /// The run ended: the ssh may be reaped, and must not be looked at.
    done: bool,
    /// Why the watch killed the ssh, if it did.
    killed: Option<String>,
}

/// The watch over one run of ssh; [`StallWatch::finish`] ends it.
pub struct StallWatch {
    shared: Arc<Mutex<Shared>>,
}

impl StallWatch {
    /// Watches ssh `pid` (a child of this process) on a thread of its own:
    /// stopped for `dead_after`, it is killed.
    pub fn start(pid: u32, dead_after: Duration) -> Self {
        let shared = Arc::new(Mutex::new(Shared::default()));
        let watched = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("ssh-stall-watch".into())
            .spawn(move || watch(pid, dead_after, &watched));
        if let Err(err) = spawned {
            tracing::warn!("no watch over ssh {pid} for stops: {err}");
        }
        Self { shared }
    }

    /// The run ended: the watch stops before the ssh is reaped. Returns
    /// why it killed the ssh, if it did.
    pub fn finish(self) -> Option<String> {
        let mut shared = lock(&self.shared);
        shared.done = true;
        shared.killed.take()
    }
}

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

fn watch(pid: u32, dead_after: Duration, shared: &Mutex<Shared>) {
    let Ok(raw) = i32::try_from(pid) else {
        return;
    };
    let pid = Pid::from_raw(raw);
    let flags = WaitPidFlag::WSTOPPED | WaitPidFlag::WCONTINUED | WaitPidFlag::WNOHANG;
    let mut stopped_since: Option<Instant> = None;
    loop {
        std::thread::sleep(TICK);
        let mut shared = lock(shared);
        if shared.done {
            return;
        }
        match waitid(Id::Pid(pid), flags) {
            Ok(WaitStatus::Stopped(..)) => stopped_since = stopped_since.or(Some(Instant::now())),
            Ok(WaitStatus::Continued(_)) => stopped_since = None,
            Ok(_) | Err(nix::errno::Errno::EINTR) => {}
            // Not a child of ours any more: nothing to watch.
            Err(_) => return,
        }
        if stopped_since.is_some_and(|since| since.elapsed() >= dead_after) {
            tracing::warn!(%pid, "a remote pane's ssh stopped for {dead_after:?}: the link counts as down");
            let _ = kill(pid, Signal::SIGKILL);
            shared.killed = Some(format!("ssh was stopped for {} s", dead_after.as_secs()));
            return;
        }
    }
}
