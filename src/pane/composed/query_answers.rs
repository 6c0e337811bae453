//! A pane's answers to its program's queries, sent at once or held while
//! the program's terminal is still canonical (see `pane::term::held_replies`).

use std::time::Instant;

use super::Pane;

impl Pane {
    /// Sends the answers parsing made to the program, or holds them for
    /// its raw mode.
    pub(super) fn answer_program(&mut self) {
        let replies = self.term.take_replies();
        if replies.is_empty() || self.answered_elsewhere() {
            return;
        }
        let program = &self.program;
        let reads_lines = || program.reads_lines();
        if let Some(now) = self
            .term
            .held_replies
            .offer(replies, reads_lines, Instant::now())
        {
            self.program.send(&now);
        }
    }

    /// A remote pane's program is a pane of a workspace on its host,
    /// which answers its queries there: answered here too, the program
    /// would read a second answer as typed keys.
    fn answered_elsewhere(&self) -> bool {
        crate::config::remote_pane::RemotePane::from_argv(&self.spec.argv).is_some()
    }

    /// Sends the held answers once the program reads raw, or their time
    /// is out.
    pub fn release_held_replies(&mut self, now: Instant) {
        let program = &self.program;
        let reads_lines = || program.reads_lines();
        if let Some(replies) = self.term.held_replies.due(reads_lines, now) {
            self.program.send(&replies);
        }
    }
}
