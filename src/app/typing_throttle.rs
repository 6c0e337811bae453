//! While the user types into one pane, output from the others is taken at
//! a bounded rate.
//!
//! On a 2-core machine a flood in another pane (`cat` of a big file runs
//! at 70-80 MB/s through tilework) keeps both cores busy: the program
//! writing it, the pane's reader thread and the render loop. Every thread
//! on a key's way to the screen (input, loop, writer, reader) then waits
//! for a core, and the echo's p99 was 2-8 ms. While keys are being typed,
//! other panes are fed at most [`TYPING_FLOOD_RATE`]; their readers then
//! fill their channels and block, the flooding program blocks on its PTY,
//! and the cores are free for the key. The flood keeps more than 40 MB/s
//! (the benchmark's floor) and is back to full speed
//! [`TYPING_WINDOW`] after the last key.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::pane::PaneId;

/// How long after a key other panes stay throttled.
pub const TYPING_WINDOW: Duration = Duration::from_millis(300);

/// Bytes per second other panes may deliver while the user types.
pub const TYPING_FLOOD_RATE: f64 = 44_000_000.0;

/// The most a throttled pane can save up (one frame's worth at 60 fps).
const BURST: f64 = TYPING_FLOOD_RATE / 60.0;

/// A held-back pane is looked at again once it may take this much: at
/// 44 MB/s that is ~5,000 looks a second, where waking for every 4 KiB read
/// was ~10,000. Larger steps let the flood arrive in bursts that delay
/// echoes (`bench-latency.sh`, flood p99: 0.8-2.2 ms with 32 KiB steps,
/// 0.6-0.8 ms with 8 KiB, except one 1.2 ms run).
const REFILL: f64 = 8.0 * 1024.0;

#[derive(Debug)]
struct Bucket {
    /// Bytes the pane may still deliver; negative after a large chunk.
    tokens: f64,
    at: Instant,
}

#[derive(Debug, Default)]
pub struct TypingThrottle {
    typing: Option<(PaneId, Instant)>,
    buckets: HashMap<PaneId, Bucket>,
}

impl TypingThrottle {
    /// A key (or paste) went to `pane`.
    pub fn key_sent(&mut self, pane: PaneId, now: Instant) {
        if self
            .typing
            .is_none_or(|(p, until)| p != pane || until <= now)
        {
            self.buckets.clear();
        }
        self.typing = Some((pane, now + TYPING_WINDOW));
    }

    fn limits(&self, pane: PaneId, now: Instant) -> bool {
        self.typing
            .is_some_and(|(typed, until)| typed != pane && now < until)
    }

    /// Whether `pane` may be fed now.
    pub fn may_feed(&mut self, pane: PaneId, now: Instant) -> bool {
        if !self.limits(pane, now) {
            return true;
        }
        let bucket = self.buckets.entry(pane).or_insert(Bucket {
            tokens: BURST,
            at: now,
        });
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * TYPING_FLOOD_RATE).min(BURST);
        bucket.at = now;
        bucket.tokens > 0.0
    }

    /// Whether `pane` may take another chunk after `taken` bytes this turn.
    pub fn may_feed_more(&self, pane: PaneId, taken: usize, now: Instant) -> bool {
        !self.limits(pane, now)
            || self
                .buckets
                .get(&pane)
                .is_none_or(|b| b.tokens - taken as f64 > 0.0)
    }

    /// `pane` was fed `bytes`.
    pub fn fed(&mut self, pane: PaneId, bytes: usize, now: Instant) {
        if self.limits(pane, now)
            && let Some(bucket) = self.buckets.get_mut(&pane)
        {
            bucket.tokens -= bytes as f64;
        }
    }

    /// Whether `pane` is waiting for its allowance (the loop then does not
    /// wake for its output).
    pub fn holds_back(&self, pane: PaneId, now: Instant) -> bool {
        self.limits(pane, now) && self.buckets.get(&pane).is_some_and(|b| b.tokens <= 0.0)
    }

    /// When the loop must look again: a held-back pane's allowance comes
    /// back, or typing ends.
    pub fn next_deadline(&self, now: Instant) -> Option<Instant> {
        let (_, until) = self.typing.filter(|&(_, until)| now < until)?;
        let refill = self
            .buckets
            .values()
            .filter(|b| b.tokens <= 0.0)
            .map(|b| b.at + Duration::from_secs_f64((REFILL - b.tokens) / TYPING_FLOOD_RATE))
            .min();
        Some(refill.map_or(until, |r| r.min(until)))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;

    #[test]
    fn only_other_panes_are_limited_and_only_while_typing() {
        let mut t = TypingThrottle::default();
        let now = Instant::now();
        let (typed, other) = (PaneId(1), PaneId(2));
        assert!(t.may_feed(other, now));
        t.fed(other, 10_000_000, now);
        assert!(t.may_feed(other, now), "no key yet: no limit");
        t.key_sent(typed, now);
        assert!(t.may_feed(typed, now));
        assert!(t.may_feed(other, now));
        t.fed(other, 4 * 1024 * 1024, now);
        assert!(!t.may_feed(other, now));
        assert!(t.holds_back(other, now));
        assert!(!t.holds_back(typed, now));
        let back = t.next_deadline(now).unwrap();
        assert!(back > now && back <= now + TYPING_WINDOW);
        // After the window the flood runs free.
        let later = now + TYPING_WINDOW;
        assert!(t.may_feed(other, later));
        assert!(!t.holds_back(other, later));
        assert_eq!(t.next_deadline(later), None);
    }

    #[test]
    fn the_rate_over_a_second_is_the_limit() {
        let mut t = TypingThrottle::default();
        let start = Instant::now();
        let (typed, other) = (PaneId(1), PaneId(2));
        let mut fed = 0usize;
        for ms in 0..1000u64 {
            let now = start + Duration::from_millis(ms);
            if ms % 100 == 0 {
                t.key_sent(typed, now);
            }
            while t.may_feed(other, now) {
                t.fed(other, 4096, now);
                fed += 4096;
            }
        }
        let rate = fed as f64;
        assert!(
            rate > TYPING_FLOOD_RATE * 0.95 && rate < TYPING_FLOOD_RATE * 1.1,
            "{rate} bytes in a second"
        );
    }
}
