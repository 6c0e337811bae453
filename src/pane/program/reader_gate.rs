//! Who reads a pane's PTY: its reader thread while output streams, the
//! render loop itself while the pane is quiet.
//!
//! Read by a reader thread, a key's echo costs two wake-ups on its way to
//! the screen (the reader's, then the loop's); read by the loop on its own
//! poll(2), one. On a two-core machine each wake-up is tens of
//! microseconds of the echo's latency (issue 14). Output that streams
//! still goes through the thread and the bounded channel, so reading and
//! parsing run on both cores and a flood's backpressure is unchanged.
//!
//! Output stays in order across a handover:
//! - the thread hands the PTY to the loop only after its last chunk is on
//!   the channel, and the loop reads the PTY only after it saw that
//!   handover *and then* emptied the channel;
//! - the loop hands the PTY back (and reads no more) when a read brings
//!   more than an echo, and the thread's chunks come after the loop's.

use std::sync::{Mutex, MutexGuard, PoisonError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    /// The loop polls the PTY and reads it; no thread runs for it.
    Loop,
    /// The reader thread reads it.
    Thread,
    /// The output ended (or the pane is gone): nobody reads.
    Ended,
}

/// Who reads, and, while the loop does, what the reader thread left
/// behind to go on with (`R`: its PTY handle and channels). The thread
/// exits when it hands the PTY over, so a quiet pane costs no thread (a
/// parked thread's stack and its share of glibc's arenas were most of an
/// idle pane's memory once its grid was put away); the loop starts a new
/// one with what was left here when output streams again.
#[derive(Debug)]
pub struct ReaderGate<R> {
    state: Mutex<State<R>>,
}

#[derive(Debug)]
struct State<R> {
    holder: Holder,
    /// What the thread left when it stopped; `None` while one runs.
    parked: Option<R>,
}

impl<R> Default for ReaderGate<R> {
    /// The thread reads first: a program's start-up output streams.
    fn default() -> Self {
        Self {
            state: Mutex::new(State {
                holder: Holder::Thread,
                parked: None,
            }),
        }
    }
}

impl<R> ReaderGate<R> {
    pub fn holder(&self) -> Holder {
        self.lock().holder
    }

    /// The thread's side, once it read everything and the PTY went quiet
    /// (`quiet`), or once it saw it was no longer the holder: it leaves
    /// `reader` here and exits. Handed back instead when the loop gave the
    /// PTY back meanwhile: the thread reads on.
    pub fn park(&self, reader: R, quiet: bool) -> Option<R> {
        let mut state = self.lock();
        match state.holder {
            Holder::Thread if !quiet => Some(reader),
            Holder::Thread | Holder::Loop => {
                state.holder = Holder::Loop;
                state.parked = Some(reader);
                None
            }
            // Nobody reads any more: what was left goes.
            Holder::Ended => None,
        }
    }

    /// The loop's side (an upgrade holds the reader): a running thread
    /// stops after the read it is in, and leaves with [`Self::park`].
    pub fn to_loop(&self) {
        let mut state = self.lock();
        if state.holder == Holder::Thread {
            state.holder = Holder::Loop;
        }
    }

    /// The loop's side: output streams, a thread reads it now. What the
    /// last thread left, for the caller to start a new one with; `None`
    /// when the last thread still runs (it reads on) or nothing was left.
    #[must_use]
    pub fn to_thread(&self) -> Option<R> {
        let mut state = self.lock();
        if state.holder != Holder::Loop {
            return None;
        }
        state.holder = Holder::Thread;
        state.parked.take()
    }

    /// Nobody reads any more: the output ended, or the pane is gone (what
    /// a thread left goes with it).
    pub fn end(&self) {
        let parked = {
            let mut state = self.lock();
            state.holder = Holder::Ended;
            state.parked.take()
        };
        drop(parked);
    }

    /// Whether no thread reads now or until handed the PTY (its last one
    /// stopped, or the output ended).
    pub fn thread_parked(&self) -> bool {
        let state = self.lock();
        state.holder == Holder::Ended || (state.holder == Holder::Loop && state.parked.is_some())
    }

    fn lock(&self) -> MutexGuard<'_, State<R>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pty_changes_hands_and_an_end_is_final() {
        let gate = ReaderGate::<u8>::default();
        assert_eq!(gate.holder(), Holder::Thread);
        assert_eq!(gate.to_thread(), None, "only the loop gives back");
        assert_eq!(gate.holder(), Holder::Thread);
        assert_eq!(gate.park(1, true), None);
        assert_eq!(gate.holder(), Holder::Loop);
        assert!(gate.thread_parked());
        assert_eq!(gate.to_thread(), Some(1), "a new thread goes on with it");
        assert_eq!(gate.holder(), Holder::Thread);
        assert!(!gate.thread_parked());
        gate.end();
        gate.to_loop();
        assert_eq!(gate.to_thread(), None);
        assert_eq!(gate.park(2, true), None, "nothing is kept once ended");
        assert_eq!(gate.holder(), Holder::Ended);
        assert!(gate.thread_parked());
    }

    #[test]
    fn a_thread_stopping_as_the_loop_gives_the_pty_back_reads_on() {
        // The loop took the PTY (an upgrade's hold) while the thread read,
        // and gave it back before the thread had stopped: no new thread is
        // started, and the running one is told to go on.
        let gate = ReaderGate::<u8>::default();
        gate.to_loop();
        assert!(!gate.thread_parked(), "the thread has not stopped yet");
        assert_eq!(gate.to_thread(), None);
        assert_eq!(gate.park(3, false), Some(3));
        assert_eq!(gate.holder(), Holder::Thread);
    }

    #[test]
    fn a_reader_parked_from_the_start_waits_for_the_loop() {
        let gate = ReaderGate::default();
        assert_eq!(gate.park(7u8, true), None);
        assert_eq!(gate.holder(), Holder::Loop);
        assert!(gate.thread_parked());
        assert_eq!(gate.to_thread(), Some(7));
    }
}
