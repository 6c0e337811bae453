//! The loop's side of scripts' calls about commands (issue 43): one
//! command's output, the list of a pane's commands, and waits (held in
//! `app::command_watch` and answered on a later turn).

use std::ops::ControlFlow;

use super::scripting::{Desk, target};
use crate::pane::history::as_text;
use crate::pane::history::command_marks::Command;
use crate::pane::history::command_marks::plain::echoed_text;
use crate::pane::history::scrollback::ByteRing;
use crate::session::command_calls::{CommandCapture, CommandInfo};
use crate::session::script::Reply;

/// The most bytes of an echoed command line read for its text.
const MAX_ECHO: u64 = 2048;

impl Desk<'_> {
    /// `tilework capture --command N`: the output of one command, replayed
    /// on the call's thread.
    pub(super) fn capture_command(&mut self, call: &CommandCapture) -> Reply {
        let id = match target(self.ws, call.pane) {
            Ok(id) => id,
            Err(reply) => return reply,
        };
        let number = self.ws.panes().script_id(id);
        let Some(pane) = self.ws.panes_mut().get_mut(id) else {
            return Reply::error(format!("no pane {number}"));
        };
        let marks = pane.history().command_marks();
        let chosen = if call.index < 0 {
            let back = usize::try_from(call.index.unsigned_abs() - 1).unwrap_or(usize::MAX);
            marks.finished().nth(back)
        } else {
            let n = usize::try_from(call.index).unwrap_or(usize::MAX);
            n.checked_sub(1).and_then(|i| marks.commands().nth(i))
        };
        let Some(command) = chosen else {
            let held = marks.finished().count();
            return Reply::error(format!(
                "pane {number} has no command {} ({held} finished commands are held; \
                 is the shell integration on? tilework shell-integration --help)",
                call.index
            ));
        };
        let from = command.output.unwrap_or(command.prompt);
        let to = command.end.unwrap_or_else(|| pane.history().ring().end());
        pane.settle();
        Reply::Pieces(Box::new(as_text::write_range(pane, from, to, call.ansi)))
    }

    /// `tilework capture --commands`: every command held, as JSON.
    pub(super) fn commands(&mut self, pane: Option<u32>) -> Reply {
        let id = match target(self.ws, pane) {
            Ok(id) => id,
            Err(reply) => return reply,
        };
        let Some(pane) = self.ws.panes().get(id) else {
            return Reply::error(format!("no pane {}", self.ws.panes().script_id(id)));
        };
        let ring = pane.history().ring();
        let commands: Vec<&Command> = pane.history().command_marks().commands().collect();
        let finished = commands.iter().filter(|c| c.end.is_some()).count();
        let mut lines = LineCounter::new(ring);
        let mut seen_finished: usize = 0;
        let infos: Vec<CommandInfo> = commands
            .iter()
            .map(|c| {
                let index = if c.end.is_some() {
                    seen_finished += 1;
                    i64::try_from(seen_finished).unwrap_or(i64::MAX)
                        - i64::try_from(finished).unwrap_or(i64::MAX)
                        - 1
                } else {
                    0
                };
                let output_lines = c.output.map(|from| {
                    [
                        lines.line_of(from),
                        lines.line_of(c.end.unwrap_or(ring.end())),
                    ]
                });
                CommandInfo {
                    index,
                    command: command_line(ring, c, pane.term().size().1),
                    status: c.status,
                    failed: c.failed(),
                    finished: c.end.is_some(),
                    started_ms: c.started_ms,
                    finished_ms: c.finished_ms,
                    duration_ms: c.duration_ms(),
                    prompt_line: lines.line_of(c.prompt_line),
                    output_lines,
                }
            })
            .collect();
        match serde_json::to_vec(&infos) {
            Ok(json) => Reply::Text(json),
            Err(err) => Reply::error(format!("writing the list: {err}")),
        }
    }
}

/// The command line: as the shell sent it, else the text echoed between
/// the prompt's end and the output.
fn command_line(ring: &ByteRing, c: &Command, cols: u16) -> String {
    if let Some(line) = &c.command_line {
        return line.clone();
    }
    let Some(from) = c.input else {
        return String::new();
    };
    let to = c.output.unwrap_or(ring.end()).min(from + MAX_ECHO);
    echoed_text(&ring.copy_range(from, to), cols)
}

/// Line numbers of ring positions, as `capture --history` counts its
/// lines (from the oldest line held), for positions asked in order.
struct LineCounter<'a> {
    ring: &'a ByteRing,
    at: u64,
    line: u64,
}

impl<'a> LineCounter<'a> {
    fn new(ring: &'a ByteRing) -> Self {
        Self {
            ring,
            at: ring.first_line_start(),
            line: 0,
        }
    }

    fn line_of(&mut self, pos: u64) -> u64 {
        if pos <= self.at {
            return self.line;
        }
        let mut newlines = 0u64;
        self.ring.visit(self.at, pos, false, |_, bytes| {
            newlines += memchr::memchr_iter(b'\n', bytes).count() as u64;
            ControlFlow::<()>::Continue(())
        });
        self.at = pos;
        self.line += newlines;
        self.line
    }
}
