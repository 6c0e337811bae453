//! Output taken from the reader but not parsed yet, fed in pieces against a
//! deadline.
//!
//! The loop takes a pane's output by the byte, but a byte can cost a
//! thousand times another: `x ESC [ 65535 b` is ten bytes and, even bounded
//! by `rep_bound`, a screenful of cell writes. A 64 KiB read of such output
//! takes half a second to parse, and a key typed into another pane waited
//! for all of it. So a chunk is fed in pieces, the first small and each next
//! one twice as big, and once the pane's time slice is over the rest waits
//! here for the loop's next turn (after it has read the user's keys); a key
//! that arrives meanwhile ends the slice early.
//! Ordinary output fits its slice many times over and is fed in a handful
//! of pieces, in the same order, with the same result.

use std::collections::VecDeque;

use crate::pane::program::pty::OutputChunk;

/// The first piece of a chunk fed against a deadline: small enough that
/// even the costliest output parses in about a millisecond.
pub const FIRST_PIECE: usize = 256;

/// Where pieces go.
pub trait FeedSink {
    fn feed_piece(&mut self, bytes: &[u8]);
    /// A chunk fully fed: its buffer can go back to the reader.
    fn chunk_done(&mut self, chunk: OutputChunk);
}

/// Chunks waiting to be fed, oldest first, the front one fed up to `at`.
#[derive(Debug, Default)]
pub struct Unfed {
    chunks: VecDeque<OutputChunk>,
    at: usize,
}

impl Unfed {
    pub fn push(&mut self, chunk: OutputChunk) {
        self.chunks.push_back(chunk);
    }

    pub fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }

    /// Bytes waiting.
    pub fn len(&self) -> usize {
        self.chunks.iter().map(Vec::len).sum::<usize>() - self.at
    }

    /// Feeds everything waiting into `sink`.
    pub fn feed_all(&mut self, sink: &mut impl FeedSink) {
        while let Some(chunk) = self.chunks.pop_front() {
            sink.feed_piece(&chunk[self.at..]);
            self.at = 0;
            sink.chunk_done(chunk);
        }
    }

    /// Feeds what is waiting into `sink` until `stop()` says so (asked
    /// between pieces: at least one piece is fed). Returns whether
    /// everything was fed.
    pub fn feed_until(&mut self, sink: &mut impl FeedSink, mut stop: impl FnMut() -> bool) -> bool {
        let mut piece = FIRST_PIECE;
        while let Some(chunk) = self.chunks.front() {
            let end = chunk.len().min(self.at.saturating_add(piece));
            sink.feed_piece(&chunk[self.at..end]);
            self.at = end;
            if end == chunk.len()
                && let Some(chunk) = self.chunks.pop_front()
            {
                self.at = 0;
                sink.chunk_done(chunk);
            }
            if !self.chunks.is_empty() && stop() {
                return false;
            }
            piece = piece.saturating_mul(2);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    #[derive(Default)]
    struct Sink {
        pieces: Vec<Vec<u8>>,
        done: usize,
    }

    impl FeedSink for Sink {
        fn feed_piece(&mut self, bytes: &[u8]) {
            self.pieces.push(bytes.to_vec());
        }
        fn chunk_done(&mut self, _chunk: OutputChunk) {
            self.done += 1;
        }
    }

    fn bytes(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i % 251) as u8).collect()
    }

    #[test]
    fn with_time_to_spare_everything_is_fed_in_order_in_growing_pieces() {
        let mut unfed = Unfed::default();
        unfed.push(bytes(3000));
        unfed.push(bytes(10));
        let mut sink = Sink::default();
        let t0 = Instant::now();
        assert!(unfed.feed_until(&mut sink, || t0 >= t0 + Duration::from_secs(1)));
        let sizes: Vec<usize> = sink.pieces.iter().map(Vec::len).collect();
        // 256, 512, 1024, then the chunk's rest; the next chunk whole.
        assert_eq!(sizes, vec![256, 512, 1024, 1208, 10]);
        assert_eq!(sink.pieces.concat(), [bytes(3000), bytes(10)].concat());
        assert_eq!(sink.done, 2);
        assert!(unfed.is_empty());
    }

    #[test]
    fn past_the_deadline_the_rest_waits_and_is_fed_later_exactly_once() {
        let mut unfed = Unfed::default();
        unfed.push(bytes(5000));
        unfed.push(bytes(700));
        let mut sink = Sink::default();
        let t0 = Instant::now();
        let late = t0 + Duration::from_millis(5);
        // The clock passes the deadline after the first piece.
        assert!(!unfed.feed_until(&mut sink, || late >= t0 + Duration::from_millis(1)));
        assert_eq!(sink.pieces.len(), 1);
        assert_eq!(unfed.len(), 5700 - FIRST_PIECE);
        assert_eq!(sink.done, 0);
        unfed.feed_all(&mut sink);
        assert_eq!(sink.pieces.concat(), [bytes(5000), bytes(700)].concat());
        assert_eq!(sink.done, 2);
        assert_eq!(unfed.len(), 0);
    }

    #[test]
    fn a_finished_chunk_is_handed_back_even_when_time_runs_out_with_it() {
        let mut unfed = Unfed::default();
        unfed.push(bytes(100));
        unfed.push(bytes(100));
        let mut sink = Sink::default();
        let t0 = Instant::now();
        let late = t0 + Duration::from_millis(5);
        assert!(!unfed.feed_until(&mut sink, || late >= t0));
        assert_eq!(sink.done, 1);
        assert_eq!(unfed.len(), 100);
    }
}
