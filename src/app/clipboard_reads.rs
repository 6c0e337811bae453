//! Programs' clipboard reads (`OSC 52 ; c ; ?`) as `clipboard_read` says:
//! never answered (`off`), asked in the status bar (`ask`: `pane 3 wants
//! to read the clipboard: y/n`, as ghostty and kitty ask), or passed on
//! (`allow`, tmux 3.7's `get-clipboard`). A read the user allows is sent
//! to one terminal, and its answer goes to the pane that asked, and only
//! to it.
//!
//! A read the user refuses, or leaves unanswered for [`QUESTION_TIME`],
//! or that the terminal does not answer within [`ANSWER_TIME`] (xterm
//! without `allowWindowOps`, most terminals over ssh) gets an empty
//! answer, `OSC 52 ; c ; ST`: the program (neovim's paste waits for one)
//! goes on at once with nothing pasted, and learns nothing of the
//! clipboard. With `off` nothing is answered, as before the setting.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::config::clipboard_read::ClipboardRead;
use crate::pane::PaneId;

/// How long a question waits for `y` or `n`.
pub const QUESTION_TIME: Duration = Duration::from_secs(30);

/// How long a terminal has to answer a read.
pub const ANSWER_TIME: Duration = Duration::from_secs(2);

/// Reads waiting for the user or a terminal, at most (a program asking in
/// a loop does not pile them up).
const MAX_WAITING: usize = 8;

/// One program's read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Read {
    pub pane: PaneId,
    /// The selection the program named (`c`, `p`, `s0`…; empty is `s0`).
    pub selection: String,
}

impl Read {
    /// The question to the terminal: the program's own read, ended by ST.
    pub fn query(&self) -> Vec<u8> {
        let selection = if self.selection.is_empty() {
            "c"
        } else {
            &self.selection
        };
        format!("\x1b]52;{selection};?\x1b\\").into_bytes()
    }

    /// The answer the program gets: `data` (base64, checked), or empty.
    pub fn answer(&self, data: &str) -> Vec<u8> {
        format!("\x1b]52;{};{data}\x1b\\", self.selection).into_bytes()
    }
}

/// What the loop does next about a read.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    /// Show this question in every terminal's status bar until then.
    Ask(Read, Instant),
    /// Send the read to a terminal (the one whose user allowed it, or the
    /// one that typed last).
    Forward(Read),
    /// Tell the program its read is refused: the empty answer.
    Refuse(Read),
}

/// A read sent to a terminal, waiting for its answer.
#[derive(Debug)]
struct Sent {
    read: Read,
    /// The terminal's link.
    link: Option<u64>,
    until: Instant,
}

#[derive(Debug, Default)]
pub struct ClipboardReads {
    policy: ClipboardRead,
    /// Reads waiting on the user, oldest first; the first is asked, until
    /// `question_until`.
    asking: VecDeque<Read>,
    question_until: Option<Instant>,
    sent: VecDeque<Sent>,
}

impl ClipboardReads {
    pub fn new(policy: ClipboardRead) -> Self {
        Self {
            policy,
            ..Self::default()
        }
    }

    pub fn set_policy(&mut self, policy: ClipboardRead) {
        self.policy = policy;
    }

    /// Pane `pane`'s program asked to read `selection`.
    pub fn requested(&mut self, pane: PaneId, selection: String, now: Instant) -> Option<Step> {
        let read = Read { pane, selection };
        match self.policy {
            ClipboardRead::Off => {
                tracing::info!(
                    ?pane,
                    "OSC 52 clipboard read refused (clipboard_read = \"off\")"
                );
                None
            }
            ClipboardRead::Allow => Some(Step::Forward(read)),
            ClipboardRead::Ask => {
                if self.asking.iter().any(|r| r.pane == pane) {
                    return None;
                }
                if self.asking.len() >= MAX_WAITING {
                    return Some(Step::Refuse(read));
                }
                self.asking.push_back(read);
                self.ask_next(now)
            }
        }
    }

    /// The question now up, if none was: the oldest read waiting.
    fn ask_next(&mut self, now: Instant) -> Option<Step> {
        if self.question_until.is_some() {
            return None;
        }
        let read = self.asking.front()?.clone();
        let until = now + QUESTION_TIME;
        self.question_until = Some(until);
        Some(Step::Ask(read, until))
    }

    /// Whether a question is up (keys `y` and `n` answer it).
    pub fn asking(&self) -> bool {
        self.question_until.is_some()
    }

    /// The user answered the question: the read's step, and the next
    /// question if another read waits.
    pub fn answered(&mut self, yes: bool, now: Instant) -> Vec<Step> {
        let mut steps = Vec::new();
        if self.question_until.take().is_none() {
            return steps;
        }
        if let Some(read) = self.asking.pop_front() {
            steps.push(if yes {
                Step::Forward(read)
            } else {
                Step::Refuse(read)
            });
        }
        steps.extend(self.ask_next(now));
        steps
    }

    /// A read went to the terminal `link`.
    pub fn forwarded(&mut self, read: Read, link: Option<u64>, now: Instant) -> Option<Step> {
        if self.sent.len() >= MAX_WAITING {
            return Some(Step::Refuse(read));
        }
        self.sent.push_back(Sent {
            read,
            link,
            until: now + ANSWER_TIME,
        });
        None
    }

    /// Terminal `link` answered `text` (after `52;`): the read it answers
    /// and the base64 to give its program (empty when the answer is not
    /// base64). `None`: no read of this terminal waits (an answer nobody
    /// asked for goes nowhere).
    pub fn answer_arrived(&mut self, link: Option<u64>, text: &str) -> Option<(Read, String)> {
        let at = self.sent.iter().position(|s| s.link == link)?;
        let sent = self.sent.remove(at)?;
        let data = text.split_once(';').map_or("", |(_, data)| data);
        let base64 = data.len() <= crate::pane::term::terminal_queries::MAX_CLIPBOARD_BASE64
            && data
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='));
        Some((
            sent.read,
            if base64 {
                data.to_owned()
            } else {
                String::new()
            },
        ))
    }

    /// Reads whose time is up, refused (and the next question).
    pub fn due(&mut self, now: Instant, pane_gone: impl Fn(PaneId) -> bool) -> Vec<Step> {
        let mut steps = Vec::new();
        while let Some(sent) = self.sent.front()
            && sent.until <= now
        {
            if let Some(sent) = self.sent.pop_front() {
                steps.push(Step::Refuse(sent.read));
            }
        }
        self.sent.retain(|s| !pane_gone(s.read.pane));
        let asked_gone = self.asking.front().is_some_and(|r| pane_gone(r.pane));
        self.asking.retain(|r| !pane_gone(r.pane));
        if asked_gone {
            self.question_until = None;
            steps.extend(self.ask_next(now));
        } else if self.question_until.is_some_and(|until| until <= now) {
            steps.extend(self.answered(false, now));
        }
        steps
    }

    /// When [`Self::due`] has something to do.
    pub fn deadline(&self) -> Option<Instant> {
        let sent = self.sent.iter().map(|s| s.until).min();
        match (sent, self.question_until) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn read(pane: u32) -> Read {
        Read {
            pane: PaneId(pane),
            selection: "c".into(),
        }
    }

    #[test]
    fn off_answers_nothing_and_allow_forwards() {
        let now = Instant::now();
        let mut off = ClipboardReads::new(ClipboardRead::Off);
        assert_eq!(off.requested(PaneId(1), "c".into(), now), None);
        let mut allow = ClipboardReads::new(ClipboardRead::Allow);
        assert_eq!(
            allow.requested(PaneId(1), "c".into(), now),
            Some(Step::Forward(read(1)))
        );
    }

    #[test]
    fn questions_come_one_at_a_time_and_an_unanswered_one_is_refused() {
        let now = Instant::now();
        let mut reads = ClipboardReads::new(ClipboardRead::Ask);
        let asked = reads.requested(PaneId(1), "c".into(), now);
        assert_eq!(asked, Some(Step::Ask(read(1), now + QUESTION_TIME)));
        assert_eq!(reads.requested(PaneId(2), "c".into(), now), None);
        assert_eq!(
            reads.answered(true, now),
            vec![
                Step::Forward(read(1)),
                Step::Ask(read(2), now + QUESTION_TIME)
            ]
        );
        let later = now + QUESTION_TIME;
        assert_eq!(reads.due(later, |_| false), vec![Step::Refuse(read(2))]);
        assert!(!reads.asking());
    }

    #[test]
    fn an_answer_goes_to_the_read_of_its_terminal_and_only_base64_passes() {
        let now = Instant::now();
        let mut reads = ClipboardReads::new(ClipboardRead::Allow);
        assert_eq!(reads.forwarded(read(1), Some(7), now), None);
        assert_eq!(reads.forwarded(read(2), Some(8), now), None);
        assert_eq!(reads.answer_arrived(Some(9), "c;aGk="), None);
        assert_eq!(
            reads.answer_arrived(Some(8), "c;aGk="),
            Some((read(2), "aGk=".into()))
        );
        assert_eq!(
            reads.answer_arrived(Some(7), "c;\u{1b}[2J"),
            Some((read(1), String::new()))
        );
        assert_eq!(reads.deadline(), None);
    }

    #[test]
    fn a_terminal_that_never_answers_has_the_read_refused() {
        let now = Instant::now();
        let mut reads = ClipboardReads::new(ClipboardRead::Allow);
        reads.forwarded(read(1), Some(7), now);
        assert_eq!(reads.deadline(), Some(now + ANSWER_TIME));
        assert_eq!(reads.due(now, |_| false), vec![]);
        assert_eq!(
            reads.due(now + ANSWER_TIME, |_| false),
            vec![Step::Refuse(read(1))]
        );
    }

    #[test]
    fn the_answers_are_the_programs_own_read() {
        assert_eq!(read(1).query(), b"\x1b]52;c;?\x1b\\");
        assert_eq!(read(1).answer("aGk="), b"\x1b]52;c;aGk=\x1b\\");
        let s0 = Read {
            pane: PaneId(1),
            selection: String::new(),
        };
        assert_eq!(s0.query(), b"\x1b]52;c;?\x1b\\");
        assert_eq!(s0.answer(""), b"\x1b]52;;\x1b\\");
    }
}
