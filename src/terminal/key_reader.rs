//! Reads the user's terminal on the loop's own thread: keys, mouse, paste
//! and focus events, each stamped when read (key-to-frame latency starts
//! there), and the terminal's new size after a SIGWINCH.
//!
//! The loop polls fd 0 together with everything else it waits for (see
//! `crate::wake`), so a key costs no thread hop before it is handled. An
//! input thread in between cost a wake-up on every key: 20-35 µs of the
//! echo's median on this project's two-core machine (issue 14).
//!
//! crossterm still parses the bytes, but its `use-dev-tty` source cannot be
//! asked "anything waiting?" without blocking: a zero timeout returns
//! before looking at all, and one read of the terminal can hold several
//! events that it hands out one per call. So:
//! - crossterm is only called when it will return at once: fd 0 is
//!   readable (a split escape sequence may make it wait for its rest, at
//!   most [`SPLIT_SEQUENCE_WAIT`]), or
//! - after an event, when fd 0 is quiet, for what it may still hold
//!   parsed: first with a timeout of [`GLANCE`], which is enough for it to
//!   hand out a held event at once and costs a non-blocking poll when it
//!   holds none, but which it may also let pass without looking (when this
//!   thread is preempted in between), so "none" is not certain. Once fd 0
//!   stayed quiet for [`COLLECT_AFTER`] after the last event (the loop's
//!   sleep ends then), the rest is collected for certain: a SIGWINCH raised
//!   on this thread makes crossterm's own signal pipe readable, and
//!   crossterm hands out every parsed event before the resize that pipe
//!   stands for. That resize ends the collection. The signal costs ~a dozen
//!   syscalls, so it comes after a key's echo, not between key and echo.
//!
//! Resizes themselves are taken from our own SIGWINCH flag and the size of
//! fd 1, never from crossterm's events (which include that marker).

use std::os::fd::BorrowedFd;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use ratatui::crossterm::event::{self, Event};
use rustix::event::{PollFd, PollFlags, Timespec};
use signal_hook::consts::SIGWINCH;

/// The longest crossterm may wait for the rest of an escape sequence that
/// arrived split over two reads (the loop does nothing else meanwhile).
pub const SPLIT_SEQUENCE_WAIT: Duration = Duration::from_millis(1);

/// See the module's doc: a look into what crossterm holds.
const GLANCE: Duration = Duration::from_micros(1);

/// See the module's doc: how long fd 0 stays quiet after an event before
/// what crossterm may still hold is collected for certain. Events that
/// arrived in one read with others (a paste without bracketed paste, keys
/// typed faster than they are read) wait at most this long, and only when
/// the glance missed them.
pub const COLLECT_AFTER: Duration = Duration::from_millis(2);

/// How often, at most, [`KeyReader::keys_waiting`] asks the kernel: it is
/// asked between pieces of a flood's parsing.
const WAITING_CHECK_INTERVAL: Duration = Duration::from_micros(200);

pub struct KeyReader {
    /// Whether fd 0 is read; false after the terminal failed, until the
    /// next one is attached.
    open: bool,
    /// crossterm may hold events it parsed but has not handed out yet.
    maybe_holding: bool,
    /// When the last event was handed out.
    last_event: Instant,
    /// A SIGWINCH was raised as the end marker and crossterm has not
    /// handed out its resize yet.
    marker_raised: bool,
    /// The loop's poll just said fd 0 had nothing: the turn after it need
    /// not ask again (one syscall less per turn in a flood).
    quiet_at_poll: bool,
    resized: Arc<AtomicBool>,
    /// When fd 0 was last polled by `keys_waiting`, and what it said.
    last_check: std::cell::Cell<(Instant, bool)>,
}

/// What a zero-timeout poll of fd 0 says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Readiness {
    Readable,
    Quiet,
    /// Hung up or failed: reading it would fail, polling it would spin.
    Gone,
}

impl KeyReader {
    /// Installs the SIGWINCH handlers (a flag, and a wake-up of the loop).
    pub fn new() -> Result<Self> {
        let resized = Arc::new(AtomicBool::new(false));
        signal_hook::flag::register(SIGWINCH, Arc::clone(&resized))
            .context("installing the SIGWINCH handler")?;
        crate::wake::on_signal(SIGWINCH).context("waking the loop on SIGWINCH")?;
        // crossterm makes its reader on first use, once: made later, on a
        // terminal that has hung up, it would fail for good. (A zero
        // timeout reads nothing, see the module's doc.)
        event::poll(Duration::ZERO).context("starting crossterm's input reader")?;
        Ok(Self {
            open: true,
            maybe_holding: false,
            last_event: Instant::now(),
            marker_raised: false,
            quiet_at_poll: false,
            resized,
            last_check: std::cell::Cell::new((Instant::now(), false)),
        })
    }

    /// fd 0, while it is read: for the loop's poll.
    pub fn fd(&self) -> Option<BorrowedFd<'static>> {
        self.open.then(rustix::stdio::stdin)
    }

    /// A new terminal is on fd 0 (attach): read it.
    pub fn reopen(&mut self) {
        self.open = true;
        self.maybe_holding = false;
        self.marker_raised = false;
    }

    /// The loop's poll reported `revents` for fd 0.
    pub fn polled(&mut self, revents: PollFlags) {
        self.quiet_at_poll = revents.is_empty();
        if revents.intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL)
            && !revents.contains(PollFlags::IN)
        {
            self.close("the terminal hung up");
        }
    }

    /// The terminal's new size, once per SIGWINCH (or `None`). The flag
    /// is cleared before the size is read: a SIGWINCH after the read sets
    /// it again. (A workspace of a session gets no terminal's SIGWINCH, only
    /// its own marker's: resizes reach it as session news.)
    pub fn take_resize(&self) -> Option<(u16, u16)> {
        if !self.resized.swap(false, Ordering::SeqCst) {
            return None;
        }
        match crate::terminal::stdio::size() {
            Ok(size) => Some(size),
            Err(err) => {
                tracing::warn!("reading the terminal's size: {err}");
                None
            }
        }
    }

    /// Whether a key is waiting to be read: asked between pieces of
    /// parsing, so polled at most every [`WAITING_CHECK_INTERVAL`].
    pub fn keys_waiting(&self) -> bool {
        let (at, answer) = self.last_check.get();
        let now = Instant::now();
        if now.duration_since(at) < WAITING_CHECK_INTERVAL {
            return answer;
        }
        let answer = self.open && readiness() == Readiness::Readable;
        self.last_check.set((now, answer));
        answer
    }

    /// When the loop must wake up (if nothing else wakes it) for events
    /// crossterm may still hold: see the module's doc.
    pub fn collect_deadline(&self) -> Option<Instant> {
        (self.open && self.maybe_holding).then(|| self.last_event + COLLECT_AFTER)
    }

    /// The next input event, without blocking (beyond a split sequence's
    /// [`SPLIT_SEQUENCE_WAIT`]), or `None` when nothing is left.
    pub fn next_event(&mut self) -> Option<(Instant, Event)> {
        if std::mem::take(&mut self.quiet_at_poll) && !self.maybe_holding {
            return None;
        }
        while self.open {
            match readiness() {
                Readiness::Gone => {
                    self.close("the terminal hung up");
                    return None;
                }
                Readiness::Quiet if !self.maybe_holding => return None,
                Readiness::Quiet
                    if !self.marker_raised && Instant::now() < self.last_event + COLLECT_AFTER =>
                {
                    match crossterm_next(GLANCE) {
                        // A real resize: taken from our flag.
                        Ok(Some(Event::Resize(..))) | Ok(None) => return None,
                        Ok(Some(ev)) => return Some(self.handed_out(ev)),
                        Err(err) => {
                            self.close(&format!("reading terminal input: {err}"));
                            return None;
                        }
                    }
                }
                Readiness::Quiet if !self.marker_raised => {
                    // See the module's doc: crossterm hands out what it
                    // holds, then the resize this stands for.
                    if let Err(err) = nix::sys::signal::raise(nix::sys::signal::Signal::SIGWINCH) {
                        tracing::warn!("raising SIGWINCH: {err}");
                        self.maybe_holding = false;
                        return None;
                    }
                    self.marker_raised = true;
                }
                Readiness::Quiet | Readiness::Readable => {}
            }
            match crossterm_next(SPLIT_SEQUENCE_WAIT) {
                Ok(Some(Event::Resize(..))) => {
                    // The marker, or a real resize (taken from our flag):
                    // either way nothing parsed was left before it.
                    self.maybe_holding = false;
                    if std::mem::take(&mut self.marker_raised) {
                        // The marker's wake-up of the loop is not needed.
                        crate::wake::drain();
                    }
                }
                Ok(Some(ev)) => return Some(self.handed_out(ev)),
                // Only the start of a sequence has arrived.
                Ok(None) => return None,
                Err(err) => {
                    self.close(&format!("reading terminal input: {err}"));
                    return None;
                }
            }
        }
        None
    }

    fn handed_out(&mut self, ev: Event) -> (Instant, Event) {
        let now = Instant::now();
        self.maybe_holding = true;
        self.last_event = now;
        (now, ev)
    }

    fn close(&mut self, why: &str) {
        tracing::warn!("{why}; waiting for a terminal");
        self.open = false;
        self.maybe_holding = false;
        self.marker_raised = false;
    }
}

/// crossterm's next event, if it hands one out within `timeout`.
fn crossterm_next(timeout: Duration) -> std::io::Result<Option<Event>> {
    if event::poll(timeout)? {
        event::read().map(Some)
    } else {
        Ok(None)
    }
}

/// Polls fd 0 without waiting.
fn readiness() -> Readiness {
    let stdin = rustix::stdio::stdin();
    let mut fds = [PollFd::new(&stdin, PollFlags::IN)];
    match rustix::event::poll(&mut fds, Some(&Timespec::default())) {
        Ok(0) => Readiness::Quiet,
        Ok(_) => {
            let revents = fds[0].revents();
            if revents.contains(PollFlags::IN) {
                Readiness::Readable
            } else if revents.intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL) {
                Readiness::Gone
            } else {
                Readiness::Quiet
            }
        }
        Err(rustix::io::Errno::INTR) => Readiness::Quiet,
        Err(_) => Readiness::Gone,
    }
}
