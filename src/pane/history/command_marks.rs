//! Commands as units (issue 43): where each command a shell ran begins
//! and ends in the pane's history, from the OSC 133 marks the shell
//! prints (its prompt, its command line, its output, its exit status).
//!
//! Marks are positions in the pane's byte ring, not rows: the rows a
//! position lands on follow from replaying the ring at whatever size the
//! pane has, so marks move with reflow as the text does, a `clear` leaves
//! them (the ring keeps the bytes), and they are saved beside the history
//! by position (`persist::marks_file`). A mark whose bytes left the ring
//! is dropped.
//!
//! The pane's escape scanner finds the sequences as the output is taken
//! in (`escape_scanner::osc133`); [`osc133`] reads what each says;
//! [`plain`] makes text of a few bytes (an echoed command line).

pub mod osc133;
pub mod plain;

use std::collections::VecDeque;
use std::time::{SystemTime, UNIX_EPOCH};

use osc133::Osc133;

use crate::pane::history::scrollback::ByteRing;
use crate::pane::term::escape_scanner::osc133_capture::Osc133Found;

/// The most commands a pane remembers (the oldest go first): with a
/// prompt every few lines, more than an 8 MiB ring holds.
pub const MAX_COMMANDS: usize = 16_384;

/// The most events kept for the loop between two turns.
const MAX_EVENTS: usize = 256;

/// One command: positions in the ring and what the shell said of it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Command {
    /// Where its prompt starts.
    pub prompt: u64,
    /// The line start at or before `prompt`: the row a jump lands on.
    pub prompt_line: u64,
    /// Where the command line starts (`B`).
    pub input: Option<u64>,
    /// Where its output starts (`C`), and the line start at or before.
    pub output: Option<u64>,
    pub output_line: Option<u64>,
    /// Where it finished (`D`, or the next prompt when no `D` came), and
    /// the line start at or before.
    pub end: Option<u64>,
    pub end_line: Option<u64>,
    /// Its exit status, when the shell told it.
    pub status: Option<i32>,
    /// When its output started and when it finished, in milliseconds since
    /// the epoch.
    pub started_ms: Option<u64>,
    pub finished_ms: Option<u64>,
    /// The command line, when the shell sent it (`cmdline=`).
    pub command_line: Option<String>,
}

impl Command {
    /// Whether it ran and ended with a status other than 0.
    pub fn failed(&self) -> bool {
        self.status.is_some_and(|s| s != 0)
    }

    /// How long it ran, once it finished.
    pub fn duration_ms(&self) -> Option<u64> {
        Some(self.finished_ms?.saturating_sub(self.started_ms?))
    }
}

/// What happened to a pane's commands since the loop last asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandEvent {
    Started {
        command_line: Option<String>,
    },
    Finished {
        status: Option<i32>,
        duration_ms: Option<u64>,
    },
}

/// A pane's commands, oldest first.
#[derive(Debug, Default)]
pub struct CommandMarks {
    commands: VecDeque<Command>,
    events: VecDeque<CommandEvent>,
    /// Commands finished so far (a count `wait --prompt` compares).
    finished: u64,
    /// Changes with every mark taken (saving compares it).
    generation: u64,
    /// Where lines start, from the output the marks came in.
    lines: LineStarts,
}

/// The newest line start before the end of the output seen so far, so a
/// mark's line start is found in the piece it came in, or is this one: no
/// look back into the ring (whose older bytes are compressed blocks, each
/// decompressed to be read: that cost a flood with marks 29 % of its
/// instructions).
#[derive(Debug, Default)]
struct LineStarts {
    /// The position after the newest `\n` seen, valid up to `seen_to`.
    newest: u64,
    /// The end of the output seen (pieces not seen, such as a restored
    /// history, leave a gap: then the ring is asked).
    seen_to: u64,
}

impl LineStarts {
    /// The line start at or before `pos`, in the piece `bytes` (from
    /// `bytes_at`) when it holds one, else the newest seen before it.
    fn before(&self, pos: u64, bytes: &[u8], bytes_at: u64, ring: &ByteRing) -> u64 {
        if pos >= bytes_at {
            let upto = usize::try_from(pos - bytes_at).map_or(bytes.len(), |n| n.min(bytes.len()));
            if let Some(i) = memchr::memrchr(b'\n', &bytes[..upto]) {
                return bytes_at + i as u64 + 1;
            }
            if self.seen_to == bytes_at
                && self.newest >= ring.start()
                && pos - self.newest <= LINE_LOOKBACK
            {
                return self.newest;
            }
        }
        line_start(ring, pos)
    }

    /// The piece `bytes` (from `bytes_at`) was seen.
    fn saw(&mut self, bytes: &[u8], bytes_at: u64) {
        if let Some(i) = memchr::memrchr(b'\n', bytes) {
            self.newest = bytes_at + i as u64 + 1;
        } else if self.seen_to != bytes_at {
            // A gap, and no line start after it: unknown.
            self.newest = 0;
            self.seen_to = 0;
            return;
        }
        self.seen_to = bytes_at + bytes.len() as u64;
    }
}

/// How far back a mark's line start is looked for.
const LINE_LOOKBACK: u64 = 64 * 1024;

/// The line start at or before `pos` (a mark's row begins there).
fn line_start(ring: &ByteRing, pos: u64) -> u64 {
    let floor = pos.saturating_sub(LINE_LOOKBACK);
    ring.last_line_start_in(floor, pos).unwrap_or(pos)
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl CommandMarks {
    /// Takes the marks `found` in the output just pushed to the ring (at
    /// their ring positions), and forgets commands the ring no longer
    /// holds. Returns whether a command finished (the border may say so).
    /// `bytes` is that output, from ring position `bytes_at`.
    pub fn take_found<'a>(
        &mut self,
        found: impl Iterator<Item = Osc133Found<'a>>,
        bytes: &[u8],
        bytes_at: u64,
        ring: &ByteRing,
    ) -> bool {
        let finished = self.finished;
        for mark in found {
            let line = self.lines.before(mark.at, bytes, bytes_at, ring);
            self.take(mark.at, mark.after, line, osc133::parse(mark.body));
        }
        self.lines.saw(bytes, bytes_at);
        while self
            .commands
            .front()
            .is_some_and(|c| c.prompt_line < ring.start())
        {
            self.commands.pop_front();
        }
        self.finished != finished
    }

    /// Takes `mark`, which starts at `at` (on the line starting at
    /// `line`) and ends before `after`.
    fn take(&mut self, at: u64, after: u64, line: u64, mark: Osc133) {
        self.generation += 1;
        match mark {
            Osc133::Prompt => self.prompt(at, line),
            Osc133::NewCommand => {
                self.finish(at, None, line);
                self.prompt(at, line);
            }
            Osc133::Input => {
                if let Some(c) = self.open_mut() {
                    c.input = Some(after);
                }
            }
            Osc133::Output { command_line } => {
                // A shell and a prompt theme that both mark: once.
                if self
                    .commands
                    .back()
                    .is_some_and(|c| c.output.is_some() && c.end.is_none())
                {
                    return;
                }
                if self.open_mut().is_none() {
                    // Output marked with no prompt before it.
                    self.prompt(at, line);
                }
                if let Some(c) = self.open_mut() {
                    // The output is what follows the mark.
                    c.output = Some(after);
                    c.output_line = Some(line);
                    c.started_ms = Some(now_ms());
                    c.command_line = command_line.clone();
                    self.event(CommandEvent::Started { command_line });
                }
            }
            Osc133::Finished { status } => self.finish(at, status, line),
            Osc133::Ignored => {}
        }
    }

    /// The command whose output has not started yet, if the newest is one.
    fn open_mut(&mut self) -> Option<&mut Command> {
        self.commands.back_mut().filter(|c| c.output.is_none())
    }

    fn prompt(&mut self, at: u64, prompt_line: u64) {
        // A command whose output started and that never said it finished
        // ends where the next prompt starts.
        if self
            .commands
            .back()
            .is_some_and(|c| c.output.is_some() && c.end.is_none())
        {
            self.finish(at, None, prompt_line);
        }
        // A prompt drawn again (Ctrl-C, an empty line, a resize) replaces
        // one that ran nothing.
        if self.commands.back().is_some_and(|c| c.output.is_none()) {
            self.commands.pop_back();
        }
        if self.commands.len() >= MAX_COMMANDS {
            self.commands.pop_front();
        }
        self.commands.push_back(Command {
            prompt: at,
            prompt_line,
            ..Command::default()
        });
    }

    fn finish(&mut self, at: u64, status: Option<i32>, line: u64) {
        let Some(c) = self
            .commands
            .back_mut()
            .filter(|c| c.output.is_some() && c.end.is_none())
        else {
            return;
        };
        c.end = Some(at);
        c.end_line = Some(line);
        c.status = status;
        c.finished_ms = Some(now_ms());
        let duration_ms = c.duration_ms();
        self.finished += 1;
        self.event(CommandEvent::Finished {
            status,
            duration_ms,
        });
    }

    fn event(&mut self, event: CommandEvent) {
        if self.events.len() >= MAX_EVENTS {
            self.events.pop_front();
        }
        self.events.push_back(event);
    }

    /// What happened since the last call, oldest first.
    pub fn take_events(&mut self) -> impl Iterator<Item = CommandEvent> + '_ {
        self.events.drain(..)
    }

    /// Whether events wait to be taken (cheap: asked every turn).
    pub fn has_events(&self) -> bool {
        !self.events.is_empty()
    }

    /// Commands finished since the pane started.
    pub fn finished_count(&self) -> u64 {
        self.finished
    }

    /// What the pane's border says when the last command failed: `✗ exit
    /// STATUS`.
    pub fn failure_badge(&self) -> Option<String> {
        let status = self.last_finished()?.status.filter(|&s| s != 0)?;
        Some(format!("✗ exit {status}"))
    }

    /// Every command held, oldest first.
    pub fn commands(&self) -> impl DoubleEndedIterator<Item = &Command> + ExactSizeIterator {
        self.commands.iter()
    }

    /// The finished commands, newest first: `--command -1` is the first.
    pub fn finished(&self) -> impl Iterator<Item = &Command> {
        self.commands.iter().rev().filter(|c| c.end.is_some())
    }

    /// The newest command that finished.
    pub fn last_finished(&self) -> Option<&Command> {
        self.finished().next()
    }

    /// Line starts of the marks a history view puts rows to (prompts, the
    /// starts of output and their ends), in `[from, to)`, in order.
    pub fn stops(&self, from: u64, to: u64) -> Vec<u64> {
        let mut stops: Vec<u64> = self
            .commands
            .iter()
            .flat_map(|c| [Some(c.prompt_line), c.output_line, c.end_line])
            .flatten()
            .filter(|&p| p >= from && p < to)
            .collect();
        stops.sort_unstable();
        stops.dedup();
        stops
    }

    /// Puts back commands saved with the history (positions already in
    /// this ring's terms), replacing any.
    pub fn adopt(&mut self, commands: Vec<Command>) {
        self.commands = commands.into_iter().take(MAX_COMMANDS).collect();
        self.generation += 1;
    }

    /// Changes whenever the commands may have.
    pub fn generation(&self) -> u64 {
        self.generation
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The marks in `text`, fed in pieces of `size` bytes as a pane's
    /// intake does: through the escape scanner into the ring.
    pub(super) fn fed_in(text: &[u8], size: usize) -> (CommandMarks, ByteRing) {
        use crate::pane::term::escape_scanner::EscapeScanner;
        use crate::pane::term::osc_guard::OscGuard;
        let mut ring = ByteRing::new(1 << 20);
        let mut marks = CommandMarks::default();
        let (mut scanner, mut guard) = (EscapeScanner::default(), OscGuard::default());
        for piece in text.chunks(size) {
            let mut out = Vec::new();
            scanner.scan(piece, &mut guard, &mut out, &mut Default::default());
            let at = ring.end();
            ring.push(&out);
            marks.take_found(scanner.osc133_found(), &out, at, &ring);
        }
        (marks, ring)
    }

    fn fed(text: &[u8]) -> (CommandMarks, ByteRing) {
        fed_in(text, 7)
    }

    const A: &str = "\x1b]133;A\x07";
    const B: &str = "\x1b]133;B\x07";
    const C: &str = "\x1b]133;C\x07";

    fn session() -> String {
        format!(
            "{A}$ {B}true\r\n{C}\x1b]133;D;0\x07{A}$ {B}false\r\n{C}oops\r\n\x1b]133;D;1\x07{A}$ {B}\r\n{A}$ "
        )
    }

    #[test]
    fn three_prompts_two_commands_and_their_statuses() {
        let (mut marks, ring) = fed(session().as_bytes());
        let statuses: Vec<Option<i32>> = marks.commands().map(|c| c.status).collect();
        // The empty line's prompt ran nothing: replaced by the next.
        assert_eq!(statuses, [Some(0), Some(1), None]);
        assert_eq!(marks.finished_count(), 2);
        let last = marks.last_finished().unwrap();
        assert!(last.failed());
        let out = ring.copy_range(last.output.unwrap(), last.end.unwrap());
        assert_eq!(out, b"oops\r\n");
        let events: Vec<CommandEvent> = marks.take_events().collect();
        assert_eq!(events.len(), 4);
        assert!(!marks.has_events());
    }

    #[test]
    fn a_prompt_after_output_without_a_newline_lands_on_its_line() {
        let text = format!("{A}$ {B}printf x\r\n{C}x{A}$ ");
        let (marks, _) = fed(text.as_bytes());
        let last = marks.commands().last().unwrap();
        let first = marks.commands().next().unwrap();
        assert!(last.prompt > last.prompt_line);
        // With no D, the next prompt ended it, status unknown.
        assert_eq!(first.end, Some(last.prompt));
        assert_eq!(first.status, None);
    }

    #[test]
    fn stops_list_each_mark_line_once_in_order() {
        let (marks, ring) = fed(session().as_bytes());
        let stops = marks.stops(0, ring.end());
        assert!(stops.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(stops[0], 0);
    }
}

#[cfg(test)]
mod history_rows {
    use crate::pane::history::window::{ReplayRequest, Window};

    #[test]
    fn a_window_knows_the_row_of_each_prompt() {
        let text = b"\x1b[?2004h\x1b]133;A\x07$ \x1b]133;B\x07echo one\r\n\x1b[?2004l\r\x1b]133;C\x07one\r\n\x1b]133;D;0\x07\x1b[?2004h\x1b]133;A\x07$ \x1b]133;B\x07false\r\n\x1b[?2004l\r\x1b]133;C\x07\x1b]133;D;1\x07\x1b[?2004h\x1b]133;A\x07$ \x1b]133;B\x07echo three\r\n\x1b[?2004l\r\x1b]133;C\x07three\r\n\x1b]133;D;7\x07\x1b[?2004h\x1b]133;A\x07$ ";
        let (marks, ring) = super::tests::fed_in(text, 5);
        let stops = marks.stops(0, ring.end());
        let history =
            Window::replay(ReplayRequest::from_ring(&ring, 10, 40, 1000).with_stops(stops));
        let rows: Vec<Option<usize>> = marks
            .commands()
            .map(|c| history.stop_row(c.prompt_line))
            .collect();
        assert_eq!(rows, [Some(0), Some(2), Some(3), Some(5)]);
    }
}
