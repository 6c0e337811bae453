//! Waking the render loop from its poll(2).
//!
//! The loop sleeps in one poll(2) over the user's terminal (it reads the
//! keys itself: no thread sits between a key and the loop, see
//! `client::terminal_input`) and the read end of this process's wake pipe.
//! (A pipe, not a socket pair: a byte through a pipe costs 0.9 µs here, a
//! socket's 3.0 µs, and a flood wakes the loop some 20,000 times; an
//! eventfd, 0.5 µs, cannot take the one-byte writes of signal handlers.)
//! Every thread that hands the loop work on a channel (a pane's reader, a
//! pane's exit, a search, a session's link, a signal) sends, then calls
//! [`wake_loop`]. The write is skipped unless the loop is parked (about to
//! sleep, or asleep), so a flood's thousands of chunks a second cost an
//! atomic swap each, not a syscall.
//!
//! The handshake: the loop [`park`]s, looks at its channels once more, and
//! only then polls; a sender sends, then looks at the flag. Whichever comes
//! second sees the other (both sides fence), so no message is left behind a
//! sleeping loop.
//!
//! One per process, like the loop. Another thread that sleeps in a poll(2)
//! of its own (the pane pipes' writer) uses a [`Waker`] of its own.

use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering, fence};

/// A wake pipe and the flag that says whether its thread is parked (see
/// the handshake above).
pub struct Waker {
    parked: AtomicBool,
    rx: OwnedFd,
    tx: OwnedFd,
}

// why process-wide: every thread that hands the loop work writes it,
// and the loop is one per process.
static WAKE: OnceLock<Option<Waker>> = OnceLock::new();

fn wake() -> Option<&'static Waker> {
    WAKE.get_or_init(|| match Waker::open() {
        Ok(wake) => Some(wake),
        Err(err) => {
            tracing::error!("creating the loop's wake pipe: {err}");
            None
        }
    })
    .as_ref()
}

/// Wakes the loop if it sleeps (or is about to). Call after the send.
pub fn wake_loop() {
    if let Some(wake) = wake() {
        wake.wake();
    }
}

/// The loop is about to sleep: senders write to the pipe from now on.
/// The loop then looks at its channels once more before it polls [`fd`].
pub fn park() {
    if let Some(wake) = wake() {
        wake.park();
    }
}

/// The loop is awake: senders stop writing. What they wrote is read by
/// [`drain`], when the poll said so (a byte left behind costs one extra
/// turn, not a lost wake-up).
pub fn unpark() {
    if let Some(wake) = wake() {
        wake.unpark();
    }
}

/// Reads away pending wake-ups (also those written by signal handlers,
/// see [`on_signal`]) without changing whether the loop is parked.
pub fn drain() {
    if let Some(wake) = wake() {
        wake.drain();
    }
}

impl Waker {
    /// A wake pipe, both ends non-blocking.
    pub fn open() -> io::Result<Self> {
        let (rx, tx) = std::io::pipe()?;
        let (rx, tx) = (OwnedFd::from(rx), OwnedFd::from(tx));
        for end in [&rx, &tx] {
            let flags = rustix::fs::fcntl_getfl(end)?;
            rustix::fs::fcntl_setfl(end, flags | rustix::fs::OFlags::NONBLOCK)?;
        }
        Ok(Self {
            parked: AtomicBool::new(false),
            rx,
            tx,
        })
    }

    /// What its thread polls.
    pub fn fd(&self) -> BorrowedFd<'_> {
        self.rx.as_fd()
    }

    /// Wakes the thread if it is parked. Call after the send.
    pub fn wake(&self) {
        fence(Ordering::SeqCst);
        if self.parked.swap(false, Ordering::SeqCst) {
            // Full only when wake-ups are already pending: nothing is lost.
            let _ = rustix::io::write(&self.tx, &[1]);
        }
    }

    /// The thread is about to sleep: it looks at its work once more, then
    /// polls [`Waker::fd`].
    pub fn park(&self) {
        self.parked.store(true, Ordering::SeqCst);
        fence(Ordering::SeqCst);
    }

    /// The thread is awake.
    pub fn unpark(&self) {
        self.parked.store(false, Ordering::SeqCst);
    }

    /// Reads away pending wake-ups.
    pub fn drain(&self) {
        // Each wake-up is one byte: a read short of the buffer got them all.
        let mut sink = [0u8; 64];
        while matches!(rustix::io::read(&self.rx, &mut sink), Ok(n) if n == sink.len()) {}
    }
}

/// What the loop polls for wake-ups; `None` if the pipe could not be
/// made (the loop then wakes on its deadlines only, see `app::wait`).
pub fn fd() -> Option<BorrowedFd<'static>> {
    wake().map(|wake| wake.rx.as_fd())
}

/// Signal `sig` wakes the loop (its handler writes to the pipe).
pub fn on_signal(sig: i32) -> io::Result<()> {
    let wake = wake().ok_or_else(|| io::Error::other("the loop's wake pipe is missing"))?;
    let tx = wake.tx.try_clone()?;
    signal_hook::low_level::pipe::register(sig, tx)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn readable(wake: &Waker) -> bool {
        let mut fds = [rustix::event::PollFd::new(
            &wake.rx,
            rustix::event::PollFlags::IN,
        )];
        rustix::event::poll(&mut fds, Some(&rustix::event::Timespec::default())).expect("poll") > 0
    }

    #[test]
    fn only_a_parked_loop_is_woken_and_unpark_reads_the_wake_up() {
        let wake = Waker::open().expect("a pipe");
        wake.wake();
        assert!(!readable(&wake), "an awake loop is not written to");
        wake.park();
        wake.wake();
        assert!(readable(&wake), "a parked loop is woken");
        wake.wake();
        wake.unpark();
        wake.wake();
        wake.drain();
        assert!(!readable(&wake), "drain reads every wake-up");
        for _ in 0..100 {
            wake.park();
            wake.wake();
        }
        wake.drain();
        assert!(!readable(&wake), "however many there were");
    }
}
