//! A pane's commands (OSC 133 marks, see `command_marks`): what the rest
//! of tilework reads of them, and putting saved ones back.

use super::Pane;
use crate::pane::history::command_marks::{Command, CommandMarks};

impl Pane {
    /// Where each command the shell ran begins and ends.
    pub fn command_marks(&self) -> &CommandMarks {
        &self.marks
    }

    pub fn command_marks_mut(&mut self) -> &mut CommandMarks {
        &mut self.marks
    }

    /// Puts back commands saved with the history (see
    /// `persist::marks_file`); positions in this ring's terms.
    pub fn adopt_commands(&mut self, commands: Vec<Command>) {
        self.marks.adopt(commands);
    }
}
