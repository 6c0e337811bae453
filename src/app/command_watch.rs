//! Scripts waiting on panes (`tilework wait`, issue 43): each wait holds
//! its call's reply channel and is answered by the loop the turn its
//! condition holds, or with an error at its deadline. Nothing here
//! blocks: a reply goes to a channel of one that holds it, and the call's
//! own thread writes it to the client.

use std::time::{Duration, Instant};

use crossbeam_channel::Sender;
use regex::Regex;

use crate::pane::history::command_marks::plain::Plain;
use crate::pane::{Pane, PaneId};
use crate::session::command_calls::{WaitCall, WaitFor};
use crate::session::script::Reply;
use crate::workspace::Workspace;

/// Waits held at once; one more is refused (each also holds a socket
/// conversation, of which a uid has 32).
pub const MAX_WAITS: usize = 24;

/// Output text a `--output` wait keeps to match across pieces: its last
/// line, at most this long.
const MAX_TAIL: usize = 4096;

/// Output read at most per turn for a `--output` wait: a flood's older
/// bytes are skipped (the wait is for what comes from now on).
const MAX_READ: u64 = 256 * 1024;

struct Waiting {
    pane: PaneId,
    /// How scripts name it, for messages.
    number: u32,
    until: Until,
    reply: Sender<Reply>,
    deadline: Instant,
}

enum Until {
    Output {
        regex: Regex,
        seen: u64,
        plain: Plain,
        tail: Vec<u8>,
    },
    Prompt {
        finished: u64,
    },
    Exit,
    Silence {
        quiet: Duration,
        seen: u64,
        since: Instant,
    },
    Notification {
        sent: bool,
    },
}

#[derive(Default)]
pub struct CommandWatch {
    waits: Vec<Waiting>,
}

impl CommandWatch {
    /// Starts waiting on `pane` (script number `number`); refused with the
    /// reply when the condition is bad or too many wait.
    pub fn add(
        &mut self,
        pane: &Pane,
        number: u32,
        until: &WaitFor,
        timeout: Duration,
        reply: Sender<Reply>,
    ) {
        if self.waits.len() >= MAX_WAITS {
            let _ = reply.send(Reply::error(format!(
                "{MAX_WAITS} waits are running already"
            )));
            return;
        }
        let now = Instant::now();
        let end = pane.history().ring().end();
        let until = match until {
            WaitFor::Output { regex } => match Regex::new(regex) {
                Ok(regex) => Until::Output {
                    regex,
                    seen: end,
                    plain: Plain::default(),
                    tail: Vec::new(),
                },
                Err(err) => {
                    let _ = reply.send(Reply::error(format!("--output: {err}")));
                    return;
                }
            },
            WaitFor::Prompt => Until::Prompt {
                finished: pane.history().command_marks().finished_count(),
            },
            WaitFor::Exit => Until::Exit,
            WaitFor::Silence { ms } => Until::Silence {
                quiet: Duration::from_millis(*ms),
                seen: end,
                since: now,
            },
            WaitFor::Notification => Until::Notification { sent: false },
        };
        self.waits.push(Waiting {
            pane: pane.id,
            number,
            until,
            reply,
            deadline: now + timeout,
        });
    }

    pub fn is_empty(&self) -> bool {
        self.waits.is_empty()
    }

    /// `tilework wait` on pane `id` of `ws`: held until its condition
    /// holds (it may already: the program ended).
    pub fn wait(&mut self, ws: &Workspace, id: PaneId, call: &WaitCall, reply: Sender<Reply>) {
        let number = ws.panes().script_id(id);
        let Some(pane) = ws.panes().get(id) else {
            let _ = reply.send(Reply::error(format!("no pane {number}")));
            return;
        };
        // Said in the log: a script (or a test) can tell the wait is on.
        tracing::info!(pane = number, until = ?call.until, "a script waits");
        self.add(pane, number, &call.until, call.timeout(), reply);
        self.check_in(ws);
    }

    /// Answers the waits whose condition holds in `ws` now. Cheap with
    /// none.
    pub fn check_in(&mut self, ws: &Workspace) {
        if self.is_empty() {
            return;
        }
        self.check(Instant::now(), |id| ws.panes().get(id));
    }

    /// Pane `id`'s program sent a notification.
    pub fn notified(&mut self, id: PaneId) {
        for wait in &mut self.waits {
            if let (true, Until::Notification { sent }) = (wait.pane == id, &mut wait.until) {
                *sent = true;
            }
        }
    }

    /// Answers each wait whose condition holds (`pane` finds a pane, `None`
    /// once it closed), and each past its deadline.
    pub fn check<'a>(&mut self, now: Instant, mut pane: impl FnMut(PaneId) -> Option<&'a Pane>) {
        self.waits.retain_mut(|wait| {
            let answer = match pane(wait.pane) {
                Some(p) => wait.until.holds(p, now),
                None => Some(Reply::error(format!("pane {} closed", wait.number))),
            };
            let answer =
                answer.or_else(|| (now >= wait.deadline).then(|| Reply::error("timed out")));
            match answer {
                Some(reply) => {
                    // Capacity one, one reply: never blocks.
                    let _ = wait.reply.send(reply);
                    false
                }
                None => true,
            }
        });
    }

    /// When the loop must look again with no output coming: the soonest
    /// deadline or silence.
    pub fn deadline(&self) -> Option<Instant> {
        self.waits
            .iter()
            .map(|w| match &w.until {
                Until::Silence { quiet, since, .. } => w.deadline.min(*since + *quiet),
                _ => w.deadline,
            })
            .min()
    }
}

impl Until {
    fn holds(&mut self, pane: &Pane, now: Instant) -> Option<Reply> {
        let ended = pane.program().exit().is_some() || pane.program().spawn_error().is_some();
        match self {
            Until::Exit => ended.then(|| {
                let code = pane.program().exit().map_or(-1, |e| e.code);
                Reply::Text(format!("{code}\n").into_bytes())
            }),
            Until::Prompt { finished } => {
                let marks = pane.history().command_marks();
                if marks.finished_count() > *finished {
                    let status = marks.last_finished().and_then(|c| c.status);
                    let text = status.map_or(String::from("\n"), |s| format!("{s}\n"));
                    Some(Reply::Text(text.into_bytes()))
                } else if ended {
                    Some(Reply::error("the pane's program ended"))
                } else {
                    None
                }
            }
            Until::Notification { sent } => (*sent).then(|| Reply::Text(Vec::new())),
            Until::Silence { quiet, seen, since } => {
                let end = pane.history().ring().end();
                if end != *seen {
                    *seen = end;
                    *since = now;
                }
                (now >= *since + *quiet).then(|| Reply::Text(Vec::new()))
            }
            Until::Output {
                regex,
                seen,
                plain,
                tail,
            } => {
                let ring = pane.history().ring();
                let end = ring.end();
                if end == *seen {
                    return None;
                }
                let from = (*seen).max(end.saturating_sub(MAX_READ));
                *seen = end;
                plain.push(&ring.copy_range(from, end), tail);
                let text = String::from_utf8_lossy(tail).into_owned();
                if let Some(line) = text.lines().find(|line| regex.is_match(line)) {
                    return Some(Reply::Text(format!("{line}\n").into_bytes()));
                }
                // Only the last line can still grow into a match.
                let keep = tail
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1)
                    .max(tail.len().saturating_sub(MAX_TAIL));
                tail.drain(..keep);
                None
            }
        }
    }
}
