//! A pane's answers to its program's queries, sent at once or held while
//! the program's terminal is still canonical (see `pane::term::held_replies`).

use std::time::Instant;

use super::Pane;

impl Pane {
    /// Sends `replies` to the program, or holds them for its raw mode.
    pub(super) fn answer_program(&mut self, replies: Vec<u8>) {
        let process = self.process.as_deref();
        let reads_lines = || process.is_some_and(|p| p.reads_lines());
        if let Some(now) = self
            .held_replies
            .offer(replies, reads_lines, Instant::now())
        {
            self.send(&now);
        }
    }

    /// When the loop should look at held answers again.
    pub fn held_replies_check(&self, now: Instant) -> Option<Instant> {
        self.held_replies.next_check(now)
    }

    /// Sends the held answers once the program reads raw, or their time
    /// is out.
    pub fn release_held_replies(&mut self, now: Instant) {
        let process = self.process.as_deref();
        let reads_lines = || process.is_some_and(|p| p.reads_lines());
        if let Some(replies) = self.held_replies.due(reads_lines, now) {
            self.send(&replies);
        }
    }
}
