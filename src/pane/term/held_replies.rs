//! Answers to a program's queries (DA1, kitty graphics' `a=q`, cursor
//! reports, colours) held while its terminal still hands it whole lines.
//!
//! Programs often write a query and only then switch their terminal to
//! raw mode to read the answer; Python's `tty.setraw` and kitty's own
//! `icat` (Debian 12's 0.26) do that switch with `TCSAFLUSH`, which throws
//! away input that came before it. A real terminal's answer takes long
//! enough to miss that window; tilework's comes within a fraction of a
//! millisecond and was thrown away (`icat` then said the terminal has no
//! graphics, 1 run in 3), and an answer that lands in canonical mode with
//! echo on is also printed as `^[_Gi=1;OK^[\`. So an answer waits while
//! the pane's terminal is canonical, until the program turns that off or
//! [`HOLD_LIMIT`] passes, whichever is first; in raw mode (vim, shells'
//! line editors, every TUI) it goes at once, as before.

use std::time::{Duration, Instant};

/// The longest an answer waits for the program to leave canonical mode:
/// a program that reads its answers line by line (or never) gets them
/// this much later than before, and no later.
pub const HOLD_LIMIT: Duration = Duration::from_millis(200);

/// How often the terminal's mode is looked at while an answer waits
/// (the kernel says nothing when a program changes it).
pub const CHECK_EVERY: Duration = Duration::from_millis(3);

/// Answers waiting, in the order they were made.
#[derive(Debug, Default)]
pub struct HeldReplies {
    bytes: Vec<u8>,
    /// When the first waiting answer goes whatever the mode.
    until: Option<Instant>,
}

impl HeldReplies {
    /// What to send of `replies` now; `reads_lines()` tells whether the
    /// program's terminal is still canonical (asked only when it matters).
    /// Later answers wait behind earlier ones, so they keep their order.
    pub fn offer(
        &mut self,
        replies: Vec<u8>,
        reads_lines: impl FnOnce() -> bool,
        now: Instant,
    ) -> Option<Vec<u8>> {
        if replies.is_empty() {
            return None;
        }
        if self.until.is_none() && !reads_lines() {
            return Some(replies);
        }
        self.until.get_or_insert(now + HOLD_LIMIT);
        self.bytes.extend_from_slice(&replies);
        None
    }

    /// The waiting answers, if they may go by `now`.
    pub fn due(&mut self, reads_lines: impl FnOnce() -> bool, now: Instant) -> Option<Vec<u8>> {
        let until = self.until?;
        if now < until && reads_lines() {
            return None;
        }
        self.until = None;
        Some(std::mem::take(&mut self.bytes))
    }

    /// When to look again (`None`: nothing waits).
    pub fn next_check(&self, now: Instant) -> Option<Instant> {
        self.until.map(|until| until.min(now + CHECK_EVERY))
    }

    /// Forgets the waiting answers (the program ended).
    pub fn clear(&mut self) {
        *self = Self::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_in_raw_mode_gets_its_answer_at_once() {
        let mut held = HeldReplies::default();
        let now = Instant::now();
        assert_eq!(
            held.offer(b"\x1b[?62c".to_vec(), || false, now),
            Some(b"\x1b[?62c".to_vec())
        );
        assert_eq!(held.next_check(now), None);
    }

    #[test]
    fn an_answer_waits_for_raw_mode_then_goes() {
        let mut held = HeldReplies::default();
        let now = Instant::now();
        assert_eq!(held.offer(b"A".to_vec(), || true, now), None);
        assert_eq!(
            held.due(|| true, now + CHECK_EVERY),
            None,
            "still canonical"
        );
        assert_eq!(held.next_check(now), Some(now + CHECK_EVERY));
        assert_eq!(held.due(|| false, now + CHECK_EVERY), Some(b"A".to_vec()));
        assert_eq!(held.next_check(now), None);
    }

    #[test]
    fn an_answer_goes_after_the_limit_whatever_the_mode() {
        let mut held = HeldReplies::default();
        let now = Instant::now();
        assert_eq!(held.offer(b"A".to_vec(), || true, now), None);
        assert_eq!(held.due(|| true, now + HOLD_LIMIT), Some(b"A".to_vec()));
    }

    #[test]
    fn later_answers_wait_behind_earlier_ones_in_order() {
        let mut held = HeldReplies::default();
        let now = Instant::now();
        assert_eq!(held.offer(b"1".to_vec(), || true, now), None);
        // The mode changed, but the first answer has not gone yet.
        assert_eq!(held.offer(b"2".to_vec(), || false, now), None);
        assert_eq!(held.due(|| false, now), Some(b"12".to_vec()));
        assert_eq!(
            held.offer(Vec::new(), || true, now),
            None,
            "nothing to send"
        );
        assert_eq!(held.next_check(now), None);
    }
}
