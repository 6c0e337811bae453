//! Copy-mode search limited to command lines (issue 43): a pattern that
//! starts with [`PREFIX`] (`/cmd:make`) matches only on the rows of the
//! prompts and the command lines typed after them, in a pane whose shell
//! marks its commands (OSC 133), not in their output.
//!
//! A command line's rows run from its prompt's line start to the line
//! start where its output begins (to the end for the command being
//! typed). The search replays the history with a row anchor of its own at
//! each of those line starts (`ReplayRequest::with_stops`), so a row is on
//! a command line exactly when its anchor lies in one of those ranges.

use std::sync::Arc;

use crate::input::row_text::GlobalMatch;
use crate::pane::history::command_marks::CommandMarks;

/// What starts a pattern searched for in command lines only.
pub const PREFIX: &str = "cmd:";

/// The pattern without [`PREFIX`], and whether it had it.
pub fn split(pattern: &str) -> (bool, &str) {
    match pattern.strip_prefix(PREFIX) {
        Some(rest) => (true, rest),
        None => (false, pattern),
    }
}

/// The ring ranges of a pane's command lines, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommandLines(Arc<[(u64, u64)]>);

impl CommandLines {
    pub fn of(marks: &CommandMarks) -> Self {
        Self(
            marks
                .commands()
                .map(|c| (c.prompt_line, c.output_line.unwrap_or(u64::MAX)))
                .collect(),
        )
    }

    /// The line starts a replay gives anchors of their own to.
    pub fn stops(&self) -> Vec<u64> {
        let mut stops: Vec<u64> = self
            .0
            .iter()
            .flat_map(|&(from, to)| [from, to])
            .filter(|&p| p != u64::MAX)
            .collect();
        stops.sort_unstable();
        stops.dedup();
        stops
    }

    /// Whether a match starts on a command line's row.
    pub fn hold(&self, m: &GlobalMatch) -> bool {
        let pos = m.start.pos;
        let after = self.0.partition_point(|&(from, _)| from <= pos);
        after > 0 && pos < self.0[after - 1].1
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
