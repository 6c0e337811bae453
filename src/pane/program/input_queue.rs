//! Bytes waiting to be written to a pane's program, bounded by bytes.
//!
//! The render loop pushes (never blocks); the pane's writer thread pops and
//! blocks in `write(2)` for as long as the program does not read.
//!
//! A program that reads gets every byte: while more than [`HOLD_ABOVE`]
//! waits for it, the queue asks the loop to stop reading the user's
//! terminal ([`InputQueue::hold_until`]), so a paste bigger than any
//! budget flows through at the program's pace, held back in the terminal,
//! and the loop is woken when the queue is down to [`RELEASE_BELOW`]. A
//! program that made no progress for [`STALL_AFTER`] has stopped reading:
//! the terminal is read again and input for it is queued up to
//! [`INPUT_QUEUE_BUDGET`], then refused and logged, never a frozen
//! workspace.
//!
//! What is queued is bounded by the budget plus one input: crossterm hands
//! a bracketed paste over whole (one `Event::Paste`), so a paste is taken
//! whole when it comes while the queue is under the budget. An input
//! handed over as an owned buffer is queued without a copy.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// What a program that stopped reading may have waiting for it: large
/// enough for a big paste (a 10 MB log), small enough to bound memory.
pub const INPUT_QUEUE_BUDGET: usize = 32 * 1024 * 1024;

/// More than this waiting for a program that reads: the loop stops reading
/// the user's terminal until it is down to [`RELEASE_BELOW`].
pub const HOLD_ABOVE: usize = 1024 * 1024;

/// See [`HOLD_ABOVE`].
pub const RELEASE_BELOW: usize = 256 * 1024;

/// A program that took nothing for this long, with input waiting, has
/// stopped reading: the terminal is no longer held for it.
pub const STALL_AFTER: Duration = Duration::from_secs(1);

/// The writer thread hands the kernel at most this much at a time (queued
/// input is handed out in pieces of this size).
pub const INPUT_CHUNK: usize = 4096;

/// How long a writer thread with nothing to write waits for more before
/// it leaves: a thread per idle pane was most of a hundred idle panes'
/// threads (see docs/memory.md), and input that must wait comes in bursts
/// (a paste, keys for a program busy a moment).
pub const WRITER_LINGER: Duration = Duration::from_secs(2);

/// Waiting chunks grow up to this size by appending (the writer hands the
/// kernel at most this much per `write(2)`).
const COALESCE_LIMIT: usize = INPUT_CHUNK;

/// Bytes queued, written from `start` on.
struct Chunk {
    bytes: Vec<u8>,
    start: usize,
}

impl Chunk {
    fn len(&self) -> usize {
        self.bytes.len() - self.start
    }
}

struct State {
    chunks: VecDeque<Chunk>,
    bytes: usize,
    closed: bool,
    /// The writer holds a chunk it has not finished writing.
    writing: bool,
    /// Over [`HOLD_ABOVE`] and not yet down to [`RELEASE_BELOW`].
    holding: bool,
    /// The piece the writer holds, and how much of it is written (what an
    /// upgrade takes with the rest, see [`InputQueue::take_for_handoff`]).
    in_flight: Vec<u8>,
    in_flight_done: usize,
    /// An upgrade took what waited: nothing is written until it gives it
    /// back (it failed) or this process exits.
    paused: bool,
    /// When the program last took input (the writer asked for more), or
    /// input began to wait.
    progress: Instant,
    /// A writer thread runs (it is started when input must wait, and
    /// leaves [`WRITER_LINGER`] after the queue emptied).
    writer: bool,
}

impl Default for State {
    fn default() -> Self {
        Self {
            chunks: VecDeque::new(),
            bytes: 0,
            closed: false,
            writing: false,
            holding: false,
            in_flight: Vec::new(),
            in_flight_done: 0,
            paused: false,
            progress: Instant::now(),
            writer: false,
        }
    }
}

#[derive(Default)]
pub struct InputQueue {
    state: Mutex<State>,
    ready: Condvar,
}

impl InputQueue {
    /// Queues `bytes`; false when the queue is over its budget (the
    /// program stopped reading) or the writer is gone.
    pub fn push(&self, bytes: &[u8]) -> bool {
        self.push_with(bytes.len(), |chunks| {
            // Typed keys arrive a byte or a few at a time: appended to the
            // last waiting chunk, a mebibyte of them costs a mebibyte, not
            // a million allocations and ~50 bytes of bookkeeping each.
            match chunks.back_mut() {
                Some(last) if last.start == 0 && last.len() + bytes.len() <= COALESCE_LIMIT => {
                    last.bytes.extend_from_slice(bytes);
                }
                _ => chunks.push_back(Chunk {
                    bytes: bytes.to_vec(),
                    start: 0,
                }),
            }
        })
    }

    /// Queues `bytes[start..]`, taking the buffer as it is (a paste is
    /// not copied again); false as for [`Self::push`].
    pub fn push_owned(&self, bytes: Vec<u8>, start: usize) -> bool {
        let start = start.min(bytes.len());
        let len = bytes.len() - start;
        if len < COALESCE_LIMIT {
            return self.push(&bytes[start..]);
        }
        self.push_with(len, |chunks| chunks.push_back(Chunk { bytes, start }))
    }

    fn push_with(&self, len: usize, add: impl FnOnce(&mut VecDeque<Chunk>)) -> bool {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        // The budget bounds what waits before this input: one input (a
        // paste, handed over whole) may go past it.
        if s.closed || s.bytes >= INPUT_QUEUE_BUDGET {
            return false;
        }
        if len == 0 {
            return true;
        }
        if s.bytes == 0 && !s.writing {
            s.progress = Instant::now();
        }
        s.bytes += len;
        s.holding |= s.bytes > HOLD_ABOVE;
        add(&mut s.chunks);
        drop(s);
        self.ready.notify_one();
        true
    }

    /// When nothing is queued or being written, writes `bytes` at once
    /// with `write` (a write that does not block) and returns how many it
    /// took; else returns `None` without calling it. What is left must be
    /// `push`ed next, which keeps the order.
    pub fn write_if_idle(
        &self,
        bytes: &[u8],
        write: impl FnOnce(&[u8]) -> std::io::Result<usize>,
    ) -> Option<usize> {
        let s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if s.closed || s.writing || s.paused || !s.chunks.is_empty() {
            return None;
        }
        Some(write(bytes).unwrap_or(0))
    }

    /// Whether the caller must start a writer thread: input waits and
    /// none runs (it is then counted as running).
    pub fn claim_writer(&self) -> bool {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let claim = !s.writer && !s.closed && !s.chunks.is_empty();
        s.writer |= claim;
        claim
    }

    /// The writer thread [`Self::claim_writer`] asked for could not start.
    pub fn writer_failed(&self) {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .writer = false;
    }

    /// Blocks until there is something to write and hands out at most
    /// `COALESCE_LIMIT` bytes of it; `None` once closed and drained, or
    /// when nothing came for [`WRITER_LINGER`] (the writer thread leaves:
    /// the next input that must wait starts another). Calling it again
    /// means the previous piece is written: the program took it.
    pub fn pop(&self) -> Option<Vec<u8>> {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if std::mem::take(&mut s.writing) {
            s.progress = Instant::now();
        }
        loop {
            if s.paused && !s.closed {
                s = self.ready.wait(s).unwrap_or_else(PoisonError::into_inner);
                continue;
            }
            if let Some(front) = s.chunks.front_mut() {
                let piece = if front.len() <= COALESCE_LIMIT {
                    let Chunk { mut bytes, start } = s.chunks.pop_front()?;
                    bytes.drain(..start);
                    bytes
                } else {
                    let end = front.start + COALESCE_LIMIT;
                    let piece = front.bytes[front.start..end].to_vec();
                    front.start = end;
                    piece
                };
                s.bytes -= piece.len();
                s.writing = true;
                s.in_flight.clear();
                s.in_flight.extend_from_slice(&piece);
                s.in_flight_done = 0;
                let released = s.holding && s.bytes < RELEASE_BELOW;
                if released {
                    s.holding = false;
                }
                drop(s);
                if released {
                    // The loop may be waiting for this to read the
                    // terminal again.
                    crate::wake::wake_loop();
                }
                return Some(piece);
            }
            if s.closed {
                s.writer = false;
                return None;
            }
            let (next, waited) = self
                .ready
                .wait_timeout(s, WRITER_LINGER)
                .unwrap_or_else(PoisonError::into_inner);
            s = next;
            if waited.timed_out() && s.chunks.is_empty() && !s.paused {
                s.writer = false;
                return None;
            }
        }
    }

    /// The writer writes `rest`, the unwritten end of the piece [`Self::pop`]
    /// gave it, with `write` (which must not block); `None`, without
    /// writing, when an upgrade took the piece meanwhile (the writer pops
    /// again, which waits until it gives it back).
    pub fn write_popped(
        &self,
        rest: &[u8],
        write: impl FnOnce(&[u8]) -> std::io::Result<usize>,
    ) -> Option<std::io::Result<usize>> {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if s.paused || !s.writing {
            return None;
        }
        let written = write(rest);
        if let Ok(n) = written {
            s.in_flight_done = (s.in_flight_done + n).min(s.in_flight.len());
        }
        Some(written)
    }

    /// An upgrade: takes every byte not yet written (the rest of the
    /// writer's piece first), in order, and pauses the writer; nothing is
    /// written from now on until [`Self::give_back`].
    pub fn take_for_handoff(&self) -> Vec<u8> {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        s.paused = true;
        let mut taken = Vec::with_capacity(s.bytes + s.in_flight.len());
        if std::mem::take(&mut s.writing) {
            taken.extend_from_slice(&s.in_flight[s.in_flight_done..]);
        }
        for chunk in std::mem::take(&mut s.chunks) {
            taken.extend_from_slice(&chunk.bytes[chunk.start..]);
        }
        s.bytes = 0;
        taken
    }

    /// The upgrade failed: `taken` waits again, before anything queued
    /// since, and the writer goes on.
    pub fn give_back(&self, taken: Vec<u8>) {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        s.paused = false;
        if !taken.is_empty() && !s.closed {
            s.bytes += taken.len();
            s.chunks.push_front(Chunk {
                bytes: taken,
                start: 0,
            });
        }
        drop(s);
        self.ready.notify_all();
    }

    /// Bytes waiting.
    pub fn queued(&self) -> usize {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .bytes
    }

    /// Until when the loop should leave the user's terminal unread: while
    /// much waits for a program that is still taking it (see the module's
    /// doc). `None`: no need.
    pub fn hold_until(&self) -> Option<Instant> {
        let s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        (s.holding && !s.closed).then_some(s.progress + STALL_AFTER)
    }

    /// No more input will come (the pane closed) or can go (write failed):
    /// drop what is queued and wake the writer so it can exit.
    pub fn close(&self) {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        s.closed = true;
        s.chunks.clear();
        s.bytes = 0;
        s.holding = false;
        drop(s);
        self.ready.notify_all();
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn an_upgrade_takes_every_unwritten_byte_in_order_and_can_give_them_back() {
        let q = InputQueue::default();
        assert!(q.push_owned(vec![b'a'; COALESCE_LIMIT], 0));
        assert!(q.push(b"bc"));
        // The writer holds the first piece and wrote 10 bytes of it.
        let piece = q.pop().unwrap();
        assert_eq!(q.write_popped(&piece, |_| Ok(10)).unwrap().unwrap(), 10);
        let taken = q.take_for_handoff();
        let mut expected = vec![b'a'; COALESCE_LIMIT - 10];
        expected.extend_from_slice(b"bc");
        assert_eq!(taken, expected);
        // Nothing more is written, directly or by the writer.
        assert!(
            q.write_popped(&piece[10..], |_| panic!("written"))
                .is_none()
        );
        assert_eq!(q.write_if_idle(b"x", |_| panic!("written")), None);
        // Given back: first, before what came since.
        assert!(q.push(b"d"));
        q.give_back(taken);
        let mut out = Vec::new();
        while q.queued() > 0 {
            out.extend(q.pop().unwrap());
        }
        expected.push(b'd');
        assert_eq!(out, expected);
    }

    #[test]
    fn delivers_in_order() {
        let q = InputQueue::default();
        assert!(q.push(b"ab"));
        assert!(q.push(b"cd"));
        assert_eq!(q.queued(), 4);
        assert_eq!(q.pop().as_deref(), Some(&b"abcd"[..]));
        assert!(q.push(b"ef"));
        assert_eq!(q.pop().as_deref(), Some(&b"ef"[..]));
        assert_eq!(q.queued(), 0);
    }

    #[test]
    fn small_pushes_share_a_chunk_up_to_the_limit() {
        let q = InputQueue::default();
        for _ in 0..COALESCE_LIMIT + 1 {
            assert!(q.push(b"k"));
        }
        assert_eq!(q.queued(), COALESCE_LIMIT + 1);
        assert_eq!(q.pop().map(|c| c.len()), Some(COALESCE_LIMIT));
        assert_eq!(q.pop().as_deref(), Some(&b"k"[..]));
    }

    #[test]
    fn refuses_beyond_the_budget_but_takes_one_input_past_it() {
        let q = InputQueue::default();
        let big = vec![0u8; INPUT_QUEUE_BUDGET - 1];
        assert!(q.push(&big));
        // A paste handed over whole: all of it, or none.
        assert!(q.push_owned(vec![1u8; 2 * COALESCE_LIMIT + 5], 3));
        assert_eq!(q.queued(), INPUT_QUEUE_BUDGET - 1 + 2 * COALESCE_LIMIT + 2);
        assert!(!q.push(b"x"));
        assert!(!q.push_owned(vec![2u8; COALESCE_LIMIT], 0));
    }

    #[test]
    fn an_owned_input_comes_out_in_pieces_whole_and_in_order() {
        let q = InputQueue::default();
        assert!(q.push(b"ab"));
        let big: Vec<u8> = (0..3 * COALESCE_LIMIT + 7)
            .map(|i| (i % 251) as u8)
            .collect();
        assert!(q.push_owned(big.clone(), 1));
        assert!(q.push(b"yz"));
        let mut out = Vec::new();
        while q.queued() > 0 {
            let piece = q.pop().unwrap();
            assert!(piece.len() <= COALESCE_LIMIT);
            out.extend(piece);
        }
        let mut expected = b"ab".to_vec();
        expected.extend_from_slice(&big[1..]);
        expected.extend_from_slice(b"yz");
        assert_eq!(out, expected);
    }

    #[test]
    fn much_waiting_for_a_reading_program_holds_the_terminal_until_it_drains() {
        let q = InputQueue::default();
        assert!(q.push_owned(vec![b'p'; HOLD_ABOVE], 0));
        assert_eq!(q.hold_until(), None, "not over the mark yet");
        assert!(q.push(b"q"));
        let until = q.hold_until().unwrap();
        assert!(until > Instant::now());
        // The program takes a piece: the hold runs from then.
        q.pop().unwrap();
        q.pop().unwrap();
        assert!(q.hold_until().unwrap() >= until);
        while q.queued() >= RELEASE_BELOW {
            assert!(q.hold_until().is_some());
            q.pop().unwrap();
        }
        assert_eq!(q.hold_until(), None, "released below the low mark");
    }

    #[test]
    fn a_program_that_takes_nothing_is_held_for_only_so_long() {
        let q = InputQueue::default();
        assert!(q.push_owned(vec![b'p'; 2 * HOLD_ABOVE], 0));
        let until = q.hold_until().unwrap();
        // Nothing popped: the hold ends when the program has been stalled
        // for STALL_AFTER since the input began to wait.
        assert!(until <= Instant::now() + STALL_AFTER);
        q.close();
        assert_eq!(q.hold_until(), None);
    }

    #[test]
    fn writes_directly_only_when_idle_and_keeps_the_order() {
        let q = InputQueue::default();
        let mut written = Vec::new();
        // Idle: written at once, in part.
        let n = q.write_if_idle(b"abc", |b| {
            written.extend_from_slice(&b[..2]);
            Ok(2)
        });
        assert_eq!((n, &written[..]), (Some(2), &b"ab"[..]));
        assert!(q.push(b"c"));
        // Something queued: not written directly.
        assert_eq!(q.write_if_idle(b"d", |_| panic!("not idle")), None);
        assert!(q.push(b"d"));
        assert_eq!(q.pop().as_deref(), Some(&b"cd"[..]));
        // The writer holds "cd" until it asks for more.
        assert_eq!(q.write_if_idle(b"e", |_| panic!("still writing")), None);
        assert!(q.push(b"e"));
        assert_eq!(q.pop().as_deref(), Some(&b"e"[..]));
        // A write that would block takes nothing.
        let mut s = q.state.lock().unwrap_or_else(PoisonError::into_inner);
        s.writing = false;
        drop(s);
        let would_block = || Err(std::io::ErrorKind::WouldBlock.into());
        assert_eq!(q.write_if_idle(b"f", |_| would_block()), Some(0));
    }

    #[test]
    fn close_wakes_a_waiting_writer() {
        let q = Arc::new(InputQueue::default());
        let writer = {
            let q = Arc::clone(&q);
            std::thread::spawn(move || q.pop())
        };
        q.close();
        assert_eq!(writer.join().ok().flatten(), None);
        assert!(!q.push(b"late"));
    }
}
