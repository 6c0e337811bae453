//! Bytes waiting to be written to a pane's program, bounded by bytes.
//!
//! The render loop pushes (never blocks); the pane's writer thread pops and
//! blocks in `write(2)` for as long as the program does not read. A paste
//! of many megabytes into a program that stopped reading therefore costs
//! memory up to [`INPUT_QUEUE_BUDGET`], never a frozen workspace; beyond the
//! budget input is refused and logged.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, PoisonError};

/// Large enough for a big paste (a 10 MB log), small enough to bound memory.
pub const INPUT_QUEUE_BUDGET: usize = 32 * 1024 * 1024;

/// Pastes are queued in pieces of this size, so the writer thread hands the
/// kernel a bounded amount at a time.
pub const INPUT_CHUNK: usize = 4096;

/// Waiting chunks grow up to this size by appending (the writer hands the
/// kernel at most this much per `write(2)`).
const COALESCE_LIMIT: usize = INPUT_CHUNK;

#[derive(Default)]
struct State {
    chunks: VecDeque<Vec<u8>>,
    bytes: usize,
    closed: bool,
    /// The writer holds a chunk it has not finished writing.
    writing: bool,
}

#[derive(Default)]
pub struct InputQueue {
    state: Mutex<State>,
    ready: Condvar,
}

impl InputQueue {
    /// Queues `bytes`; false when they do not fit in the budget or the
    /// writer is gone.
    pub fn push(&self, bytes: &[u8]) -> bool {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if s.closed || s.bytes + bytes.len() > INPUT_QUEUE_BUDGET {
            return false;
        }
        s.bytes += bytes.len();
        // Typed keys arrive a byte or a few at a time: appended to the last
        // waiting chunk, a mebibyte of them costs a mebibyte, not a million
        // allocations and ~50 bytes of bookkeeping each.
        match s.chunks.back_mut() {
            Some(last) if last.len() + bytes.len() <= COALESCE_LIMIT => {
                last.extend_from_slice(bytes);
            }
            _ => s.chunks.push_back(bytes.to_vec()),
        }
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
        if s.closed || s.writing || !s.chunks.is_empty() {
            return None;
        }
        Some(write(bytes).unwrap_or(0))
    }

    /// Blocks until there is something to write; `None` once closed and
    /// drained. Calling it again means the previous chunk is written.
    pub fn pop(&self) -> Option<Vec<u8>> {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        s.writing = false;
        loop {
            if let Some(chunk) = s.chunks.pop_front() {
                s.bytes -= chunk.len();
                s.writing = true;
                return Some(chunk);
            }
            if s.closed {
                return None;
            }
            s = self.ready.wait(s).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Bytes waiting.
    pub fn queued(&self) -> usize {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .bytes
    }

    /// No more input will come (the pane closed) or can go (write failed):
    /// drop what is queued and wake the writer so it can exit.
    pub fn close(&self) {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        s.closed = true;
        s.chunks.clear();
        s.bytes = 0;
        drop(s);
        self.ready.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

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
    fn refuses_beyond_the_budget() {
        let q = InputQueue::default();
        let big = vec![0u8; INPUT_QUEUE_BUDGET];
        assert!(q.push(&big));
        assert!(!q.push(b"x"));
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
