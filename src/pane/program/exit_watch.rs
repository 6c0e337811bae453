//! One thread that sees every pane program end.
//!
//! A thread blocked in `wait(2)` per pane was a third of a hundred idle
//! panes' threads (each with its stack and a share of glibc's arenas: see
//! docs/memory.md). Instead each program's pidfd (`pidfd_open(2)`, Linux
//! 5.3) is polled by one thread, started with the first program; what a
//! program's end sets off runs on a short-lived thread of its own, so a
//! slow one (waiting for the reader to drain) never holds up the others.

use std::os::fd::{AsFd, OwnedFd};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use rustix::event::{EventfdFlags, PollFd, PollFlags, eventfd, poll};

/// What to do once the program is gone (runs on a thread of its own).
pub type OnGone = Box<dyn FnOnce() + Send>;

struct Watched {
    pidfd: OwnedFd,
    on_gone: OnGone,
    /// The thread `on_gone` runs on.
    name: String,
}

struct Watcher {
    /// Programs to add to the poll, handed over by [`watch`].
    added: Mutex<Vec<Watched>>,
    /// Wakes the thread to take them.
    wake: OwnedFd,
}

static WATCHER: OnceLock<Option<Watcher>> = OnceLock::new();

/// Whether the watcher thread runs (started on first asking); if not, the
/// caller waits for its program on a thread of its own.
pub fn running() -> bool {
    WATCHER.get_or_init(start).is_some()
}

/// Watches the process behind `pidfd`: when it is gone, `on_gone` runs on
/// a thread named `name`. Only once [`running`] said yes (else `on_gone`
/// is dropped, said in the log).
pub fn watch(pidfd: OwnedFd, name: String, on_gone: OnGone) {
    let Some(watcher) = WATCHER.get().and_then(Option::as_ref) else {
        tracing::warn!("no exit watcher for {name}");
        return;
    };
    watcher
        .added
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(Watched {
            pidfd,
            on_gone,
            name,
        });
    // A full counter (it never is: the thread reads it on every wake-up)
    // still wakes the thread.
    if let Err(err) = rustix::io::write(&watcher.wake, &1u64.to_ne_bytes()) {
        tracing::debug!("waking the exit watcher: {err}");
    }
}

fn start() -> Option<Watcher> {
    let wake = eventfd(0, EventfdFlags::CLOEXEC | EventfdFlags::NONBLOCK)
        .inspect_err(|err| tracing::warn!("creating the exit watcher's eventfd: {err}"))
        .ok()?;
    let ours = wake
        .try_clone()
        .inspect_err(|err| tracing::warn!("duplicating the exit watcher's eventfd: {err}"))
        .ok()?;
    crate::jobs::named("pty-wait", move || watch_loop(&ours)).ok()?;
    Some(Watcher {
        added: Mutex::new(Vec::new()),
        wake,
    })
}

fn watch_loop(wake: &OwnedFd) {
    let mut watched: Vec<Watched> = Vec::new();
    loop {
        let mut fds: Vec<PollFd<'_>> = std::iter::once(wake.as_fd())
            .chain(watched.iter().map(|w| w.pidfd.as_fd()))
            .map(|fd| PollFd::from_borrowed_fd(fd, PollFlags::IN))
            .collect();
        match poll(&mut fds, None) {
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(err) => {
                tracing::warn!("the exit watcher's poll failed: {err}");
                return;
            }
        }
        let ready: Vec<bool> = fds.iter().map(|fd| !fd.revents().is_empty()).collect();
        drop(fds);
        // Back to front, so the indices stay right while they go.
        for index in (0..watched.len()).rev() {
            if ready[index + 1] {
                let gone = watched.swap_remove(index);
                report_gone(gone);
            }
        }
        if ready[0] {
            let mut count = [0u8; 8];
            let _ = rustix::io::read(wake, &mut count);
            let Some(watcher) = WATCHER.get().and_then(Option::as_ref) else {
                continue;
            };
            watched.append(&mut watcher.added.lock().unwrap_or_else(PoisonError::into_inner));
        }
    }
}

/// Runs what `gone`'s end sets off on a thread of its own, or here if no
/// thread can start (the end is reported late rather than never).
fn report_gone(gone: Watched) {
    let Watched { on_gone, name, .. } = gone;
    let slot = Arc::new(Mutex::new(Some(on_gone)));
    let taken = Arc::clone(&slot);
    let take =
        |slot: &Mutex<Option<OnGone>>| slot.lock().unwrap_or_else(PoisonError::into_inner).take();
    let started = crate::jobs::named(&name, move || {
        if let Some(on_gone) = take(&taken) {
            on_gone();
        }
    });
    if started.is_err()
        && let Some(on_gone) = take(&slot)
    {
        on_gone();
    }
}
