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

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    /// The loop polls the PTY and reads it; the thread waits.
    Loop,
    /// The reader thread reads it.
    Thread,
    /// The output ended (or the pane is gone): nobody reads.
    Ended,
}

#[derive(Debug)]
pub struct ReaderGate {
    holder: Mutex<Holder>,
    turn: Condvar,
    /// The thread waits for its turn (reads nothing until handed the PTY):
    /// an upgrade hands the PTY to another process only then.
    parked: AtomicBool,
}

impl Default for ReaderGate {
    /// The thread reads first: a program's start-up output streams.
    fn default() -> Self {
        Self {
            holder: Mutex::new(Holder::Thread),
            turn: Condvar::new(),
            parked: AtomicBool::new(false),
        }
    }
}

impl ReaderGate {
    pub fn holder(&self) -> Holder {
        *self.lock()
    }

    /// The thread's side: waits while the loop holds the PTY. True when
    /// the thread may read, false once the output ended.
    pub fn thread_may_read(&self) -> bool {
        let mut holder = self.lock();
        while *holder == Holder::Loop {
            self.parked.store(true, Ordering::SeqCst);
            holder = self
                .turn
                .wait(holder)
                .unwrap_or_else(PoisonError::into_inner);
        }
        self.parked.store(false, Ordering::SeqCst);
        *holder == Holder::Thread
    }

    /// The thread's side: the PTY went quiet, the loop reads it now.
    pub fn to_loop(&self) {
        let mut holder = self.lock();
        if *holder == Holder::Thread {
            *holder = Holder::Loop;
        }
    }

    /// The loop's side: output streams, the thread reads it now.
    pub fn to_thread(&self) {
        let mut holder = self.lock();
        if *holder == Holder::Loop {
            *holder = Holder::Thread;
            self.turn.notify_all();
        }
    }

    /// Nobody reads any more: the output ended, or the pane is gone (a
    /// waiting thread then exits).
    pub fn end(&self) {
        *self.lock() = Holder::Ended;
        self.turn.notify_all();
    }

    /// Whether the thread reads nothing now and until handed the PTY
    /// (it waits for its turn, or the output ended).
    pub fn thread_parked(&self) -> bool {
        let holder = self.lock();
        *holder == Holder::Ended || (*holder == Holder::Loop && self.parked.load(Ordering::SeqCst))
    }

    fn lock(&self) -> MutexGuard<'_, Holder> {
        self.holder.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn the_pty_changes_hands_and_an_end_is_final() {
        let gate = ReaderGate::default();
        assert_eq!(gate.holder(), Holder::Thread);
        gate.to_thread();
        assert_eq!(gate.holder(), Holder::Thread, "only the loop gives back");
        gate.to_loop();
        assert_eq!(gate.holder(), Holder::Loop);
        gate.to_loop();
        assert_eq!(gate.holder(), Holder::Loop);
        gate.to_thread();
        assert_eq!(gate.holder(), Holder::Thread);
        gate.end();
        gate.to_loop();
        gate.to_thread();
        assert_eq!(gate.holder(), Holder::Ended);
        assert!(!gate.thread_may_read());
    }

    #[test]
    fn a_waiting_thread_reads_when_given_the_pty_and_leaves_when_it_ends() {
        for end in [false, true] {
            let gate = Arc::new(ReaderGate::default());
            gate.to_loop();
            let waiting = Arc::clone(&gate);
            let thread = std::thread::spawn(move || waiting.thread_may_read());
            if end {
                gate.end();
            } else {
                gate.to_thread();
            }
            let may_read = thread.join().expect("the waiting thread");
            assert_eq!(may_read, !end);
        }
    }
}
