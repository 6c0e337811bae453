//! While the user types into one pane, output from the others is taken at
//! a bounded rate.
//!
//! On a 2-core machine a flood in another pane (`cat` of a big file runs
//! at 70-80 MB/s through tilework) keeps both cores busy: the program
//! writing it, the pane's reader thread and the render loop. Every thread
//! on a key's way to the screen (input, loop, writer, reader) then waits
//! for a core, and the echo's p99 was 2-8 ms. While keys are being typed,
//! the other panes together are fed at most [`TYPING_OTHERS_RATE`]; their
//! readers then fill their channels and block, the flooding programs block
//! on their PTYs, and the cores are free for the key. One flood keeps more
//! than 48 MB/s (twice what tmux gave it on round 7's VM; 1.4-1.8x on a
//! VM where tmux floods faster, docs/startup-and-echo.md, round 8) and is
//! back to full speed
//! [`TYPING_WINDOW`] after the last key.
//!
//! The allowance is shared by all other panes, not given to each: 32 panes
//! running `yes` each given a flood's allowance kept both cores in the
//! kernel, and the echo waited 50-200 ms for a core. It is counted in bytes
//! plus [`LINE_CHARGE`] per line, because what a program costs the machine
//! to write to a terminal is mostly per line (the kernel turns each `\n`
//! into `\r\n` and pushes the buffer on, waking a worker each time): `yes`
//! writes 2-byte lines and costs the kernel ~30 times what `cat` of a log
//! does per byte.

use std::time::{Duration, Instant};

use crate::pane::PaneId;

/// How long after a key other panes stay throttled.
pub const TYPING_WINDOW: Duration = Duration::from_millis(300);

/// What one line of output costs, in bytes of allowance.
pub const LINE_CHARGE: usize = 64;

/// Allowance per second for all other panes together while the user types:
/// 50 MB/s of the flood benchmark's log lines (62 bytes on average), about
/// 3 MB/s of `yes`. Beside the same typing, tmux 3.3a floods at 20-24 MB/s
/// on a quiet 2-core VM; at 44 MB/s the flood was not always twice that,
/// and at 55 MB/s the echo's p99 went over tmux's in one run of three
/// (`bench-harness latency --flood`, docs/startup-and-echo.md). Where tmux
/// floods at 27-35 MB/s, 60-80 MB/s put the p99 over tmux's (round 8).
pub const TYPING_OTHERS_RATE: f64 = 50_000_000.0 * (62.0 + LINE_CHARGE as f64) / 62.0;

/// The most the other panes can save up (one frame's worth at 60 fps).
const BURST: f64 = TYPING_OTHERS_RATE / 60.0;

/// Held-back panes are looked at again once they may take this much: at
/// 50 MB/s that is ~5,700 looks a second, where waking for every 4 KiB read
/// was ~10,000. Larger steps let the flood arrive in bursts that delay
/// echoes (`bench-latency.sh`, flood p99: 0.8-2.2 ms with 32 KiB steps,
/// 0.6-0.8 ms with 8 KiB, except one 1.2 ms run).
const REFILL: f64 = 8.0 * 1024.0 * (62.0 + LINE_CHARGE as f64) / 62.0;

/// What taking `chunk` from a pane costs in allowance.
pub fn cost_of(chunk: &[u8]) -> usize {
    chunk.len() + LINE_CHARGE * chunk.iter().filter(|&&b| b == b'\n').count()
}

#[derive(Debug)]
struct Bucket {
    /// Allowance left; negative after a large chunk.
    tokens: f64,
    at: Instant,
}

#[derive(Debug, Default)]
pub struct TypingThrottle {
    typing: Option<(PaneId, Instant)>,
    /// Shared by every pane but the one typed into.
    others: Option<Bucket>,
}

impl TypingThrottle {
    /// A key (or paste) went to `pane`.
    pub fn key_sent(&mut self, pane: PaneId, now: Instant) {
        if self
            .typing
            .is_none_or(|(p, until)| p != pane || until <= now)
        {
            self.others = None;
        }
        self.typing = Some((pane, now + TYPING_WINDOW));
    }

    /// Whether `pane`'s output counts against the allowance now (the
    /// user types into another pane).
    pub fn limits(&self, pane: PaneId, now: Instant) -> bool {
        self.typing
            .is_some_and(|(typed, until)| typed != pane && now < until)
    }

    /// Whether `pane` may be fed now.
    pub fn may_feed(&mut self, pane: PaneId, now: Instant) -> bool {
        if !self.limits(pane, now) {
            return true;
        }
        let bucket = self.others.get_or_insert(Bucket {
            tokens: BURST,
            at: now,
        });
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * TYPING_OTHERS_RATE).min(BURST);
        bucket.at = now;
        bucket.tokens > 0.0
    }

    /// Whether `pane` may take another chunk after taking `cost` (see
    /// [`cost_of`]) this turn.
    pub fn may_feed_more(&self, pane: PaneId, cost: usize, now: Instant) -> bool {
        !self.limits(pane, now)
            || self
                .others
                .as_ref()
                .is_none_or(|b| b.tokens - cost as f64 > 0.0)
    }

    /// `pane` was fed output costing `cost`.
    pub fn fed(&mut self, pane: PaneId, cost: usize, now: Instant) {
        if self.limits(pane, now)
            && let Some(bucket) = self.others.as_mut()
        {
            bucket.tokens -= cost as f64;
        }
    }

    /// Whether `pane` is waiting for its allowance (the loop then does not
    /// wake for its output).
    pub fn holds_back(&self, pane: PaneId, now: Instant) -> bool {
        self.limits(pane, now) && self.others.as_ref().is_some_and(|b| b.tokens <= 0.0)
    }

    /// When the loop must look again: the held-back panes' allowance comes
    /// back, or typing ends.
    pub fn next_deadline(&self, now: Instant) -> Option<Instant> {
        let (_, until) = self.typing.filter(|&(_, until)| now < until)?;
        let refill = self
            .others
            .as_ref()
            .filter(|b| b.tokens <= 0.0)
            .map(|b| b.at + Duration::from_secs_f64((REFILL - b.tokens) / TYPING_OTHERS_RATE));
        Some(refill.map_or(until, |r| r.min(until)))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;

    #[test]
    fn the_other_panes_share_one_allowance() {
        let mut t = TypingThrottle::default();
        let now = Instant::now();
        let (typed, a, b) = (PaneId(1), PaneId(2), PaneId(3));
        t.key_sent(typed, now);
        assert!(t.may_feed(a, now));
        t.fed(a, BURST as usize + 1, now);
        assert!(t.holds_back(a, now));
        assert!(t.holds_back(b, now), "b spends what a left: nothing");
        assert!(!t.may_feed(b, now));
        assert!(!t.holds_back(typed, now));
    }

    #[test]
    fn lines_cost_more_than_their_bytes() {
        assert_eq!(cost_of(b"abc"), 3);
        assert_eq!(cost_of(b"y\ny\n"), 4 + 2 * LINE_CHARGE);
        // The flood benchmark's lines keep 50 MB/s.
        let line = [b'x'; 61].iter().chain(b"\n").copied().collect::<Vec<u8>>();
        let lines_per_s = TYPING_OTHERS_RATE / cost_of(&line) as f64;
        assert!(
            (lines_per_s * 62.0 - 50e6).abs() < 1e6,
            "{}",
            lines_per_s * 62.0
        );
    }

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
        t.fed(other, 8 * 1024 * 1024, now);
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
            rate > TYPING_OTHERS_RATE * 0.95 && rate < TYPING_OTHERS_RATE * 1.1,
            "{rate} bytes in a second"
        );
    }
}
