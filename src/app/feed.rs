//! Feeding the panes on every turn ([`Feed`]): each pane's output, up to
//! its byte budget and the parse time slice, the pane awaiting a key's
//! echo first and flooding panes on a small slice meanwhile; while the
//! user types, the other panes share one allowance (`typing_throttle`).
//! The loop's turn that uses it is `event_loop::pane_output`.

use crate::app::idle_parking::IdleParking;
use std::os::fd::BorrowedFd;
use std::time::{Duration, Instant};

use super::pane_streams::PaneStreams;
use super::quiet_poll::QuietPoll;
use super::silence::Silence;
use super::subscribers::Subscribers;
use super::typing_throttle::{self, TypingThrottle};
use crate::pane::program::pipe::PanePipes;
use crate::pane::program::pty::OutputChunk;
use crate::pane::{Pane, PaneId};
use crate::session::script::Reply;
use crate::workspace::Workspace;

/// What feeding the panes keeps from turn to turn: the buffers reused
/// every wake-up, where the turn starts, the typing throttle, when panes
/// went quiet (the `silence` hook), and the panes whose output also goes
/// to a command (`tilework pipe`).
pub(super) struct Feed {
    /// Chunks taken from one pane before any is parsed.
    batch: Vec<OutputChunk>,
    /// This turn's pane visit order.
    pub(super) order: Vec<PaneId>,
    /// Where in the pane order this turn's feeding starts.
    rotation: usize,
    pub(super) throttle: TypingThrottle,
    /// When panes went quiet, for the `silence` hook.
    pub(super) silence: Silence,
    /// Panes whose output goes on to a command (`tilework pipe`).
    pub(super) pipes: PanePipes,
    /// Panes followed by a remote pane elsewhere (`tilework proxy`).
    pub(super) streams: PaneStreams,
    /// Which hidden, quiet panes' grids to put away.
    pub(super) parking: IdleParking,
    /// What the last sleep's poll said of the quiet panes' PTYs.
    pub(super) quiet_poll: QuietPoll,
}

impl Default for Feed {
    fn default() -> Self {
        Self {
            batch: Vec::with_capacity(64),
            order: Vec::with_capacity(16),
            rotation: 0,
            throttle: TypingThrottle::default(),
            silence: Silence::default(),
            pipes: PanePipes::default(),
            streams: PaneStreams::default(),
            parking: IdleParking::default(),
            quiet_poll: QuietPoll::default(),
        }
    }
}

impl Feed {
    /// This turn's order: the pane waiting to echo a key first, then the
    /// others from a place that moves every turn (while typing they share
    /// one allowance: who goes first takes turns, or the last panes would
    /// get none of it).
    pub(super) fn order_panes(&mut self, echo: Option<PaneId>, ws: &Workspace) {
        self.order.clear();
        self.order
            .extend(echo.filter(|id| ws.panes().get(*id).is_some()));
        let first_other = self.order.len();
        self.order
            .extend(ws.panes().ids().filter(|id| Some(*id) != echo));
        let others = &mut self.order[first_other..];
        if !others.is_empty() {
            self.rotation = self.rotation.wrapping_add(1);
            others.rotate_left(self.rotation % others.len());
        }
    }

    /// Takes pane `id`'s slice of output (up to `budget` bytes, and what
    /// the throttle allows) into the batch. `quiet`: the loop reads the
    /// pane's PTY itself once its channel is empty. Returns whether the
    /// pane is to be fed: bytes left from the last turn, bytes taken, or
    /// a kitty graphics file read going on.
    pub(super) fn take_slice(
        &mut self,
        pane: &mut Pane,
        budget: usize,
        quiet: bool,
        now: Instant,
    ) -> bool {
        let id = pane.id;
        // Take the whole slice before parsing any of it: the reader is
        // woken once per batch instead of once per chunk (a blocked
        // sender wakes on every freed slot and spins meanwhile). Output
        // left from the last turn's slice goes first and counts.
        let waiting = pane.program().unfed();
        let mut taken = waiting;
        // Lines are counted only for an allowance: a flood nobody types
        // beside is not scanned twice.
        let charged = self.throttle.limits(id, now);
        let mut cost = 0;
        let mut quiet = quiet;
        while taken < budget {
            let chunk = match pane.program_mut().try_output() {
                Some(chunk) => chunk,
                // The channel is empty: the loop reads the PTY itself.
                None if std::mem::take(&mut quiet) => match pane.program_mut().read_quiet() {
                    Some(chunk) => chunk,
                    None => break,
                },
                None => break,
            };
            taken += chunk.len();
            cost += if charged {
                typing_throttle::cost_of(&chunk)
            } else {
                chunk.len()
            };
            self.batch.push(chunk);
            if !self.throttle.may_feed_more(id, cost, now) {
                break;
            }
        }
        self.throttle.fed(id, cost, now);
        // A pane waiting on a kitty graphics file read goes on when
        // it is in (its thread wakes the loop).
        waiting > 0 || !self.batch.is_empty() || pane.term().graphics_loading()
    }

    /// Hands the batch to the pane, after the subscribers (as script
    /// number `number`) and the pane's pipe. Returns the notices for the
    /// status bar (the pipe started dropping output).
    pub(super) fn hand_over(
        &mut self,
        pane: &mut Pane,
        number: u32,
        subscribers: &mut Subscribers,
    ) -> Vec<String> {
        let mut notices = Vec::new();
        for chunk in self.batch.drain(..) {
            if !subscribers.is_empty() {
                subscribers.output(number, &chunk);
            }
            if !self.pipes.is_empty()
                && let Some(said) = pipe_on(&mut self.pipes, pane.id, &chunk)
            {
                notices.push(said);
            }
            pane.program_mut().take_in(chunk);
        }
        notices
    }

    /// The panes whose PTY the loop holds (see `pane::program::reader_gate`) and
    /// may read now (not held back while the user types), with those PTYs.
    pub(super) fn quiet_fds<'a>(
        &self,
        ws: &'a Workspace,
        now: Instant,
    ) -> (Vec<PaneId>, Vec<BorrowedFd<'a>>) {
        ws.panes()
            .iter()
            .filter(|pane| !self.throttle.holds_back(pane.id, now))
            .filter_map(|pane| Some((pane.id, pane.program().quiet_fd()?)))
            .unzip()
    }

    /// Of [`Self::quiet_fds`], the panes with something to read (or hung
    /// up).
    /// Right after a sleep, its poll's answer (no second look), unless
    /// it found nothing from the pane whose echo is awaited (`echo`): the
    /// key went out after the sleep, and an echo that is already there is
    /// read in this turn instead of after one more sleep.
    pub(super) fn quiet_panes_ready(
        &mut self,
        ws: &Workspace,
        now: Instant,
        echo: Option<PaneId>,
    ) -> Vec<PaneId> {
        use rustix::event::{PollFd, PollFlags, Timespec};
        let (ids, fds) = self.quiet_fds(ws, now);
        if fds.is_empty() {
            self.quiet_poll = QuietPoll::default();
            return Vec::new();
        }
        if let Some(ready) = self.quiet_poll.take_ready(&ids)
            && echo.is_none_or(|echo| ready.contains(&echo) || !ids.contains(&echo))
        {
            return ready;
        }
        let mut polled: Vec<PollFd<'_>> = fds
            .iter()
            .map(|fd| PollFd::new(fd, PollFlags::IN))
            .collect();
        if let Err(err) = rustix::event::poll(&mut polled, Some(&Timespec::default())) {
            if err != rustix::io::Errno::INTR {
                tracing::warn!("polling quiet panes: {err}");
            }
            return Vec::new();
        }
        ids.into_iter()
            .zip(&polled)
            .filter(|(_, fd)| !fd.revents().is_empty())
            .map(|(id, _)| id)
            .collect()
    }

    /// The panes quiet for `after` by `now` (each told once), among those
    /// still open.
    pub(super) fn gone_quiet(
        &mut self,
        ws: &Workspace,
        after: Duration,
        now: Instant,
    ) -> Vec<PaneId> {
        self.silence.retain(|id| ws.panes().get(id).is_some());
        self.silence.due(after, now)
    }

    /// `tilework pipe`: pane `id`'s output goes to `command` from now on
    /// (in place of a pipe it had), or its pipe stops.
    pub(super) fn pipe(&mut self, id: PaneId, command: Option<String>) -> Reply {
        let Some(command) = command else {
            self.pipes.stop(id);
            return Reply::Text(format!("pane {}: not piped\n", id.0).into_bytes());
        };
        match self.pipes.start(id, &command) {
            Ok(()) => {
                tracing::info!(pane = id.0, %command, "pane piped");
                Reply::Text(Vec::new())
            }
            Err(err) => Reply::error(format!("cannot run `{command}`: {err}")),
        }
    }

    /// Whether pane output waits that the poll would not announce.
    pub(super) fn output_waiting(&self, ws: &Workspace, now: Instant) -> bool {
        ws.panes().iter().any(|pane| {
            pane.program().output().is_some_and(|rx| !rx.is_empty())
                && !self.throttle.holds_back(pane.id, now)
        })
    }
}

/// Hands `chunk` of pane `id`'s output to its pipe, if it has one; says
/// so in the status bar when the pipe's command falls behind and output
/// is dropped (never waits for it).
/// Returns a notice for the status bar when the pipe starts dropping.
fn pipe_on(
    pipes: &mut crate::pane::program::pipe::PanePipes,
    id: PaneId,
    chunk: &[u8],
) -> Option<String> {
    use crate::pane::program::pipe::Sent;
    match pipes.send(id, chunk)? {
        Sent::Queued | Sent::Dropped => None,
        Sent::StartedDropping => {
            let command = pipes.command(id)?;
            tracing::warn!(pane = id.0, %command, "pane pipe behind: dropping output");
            Some(format!(
                "pane {}: `{command}` is too slow, output dropped",
                id.0
            ))
        }
        Sent::Closed => {
            tracing::info!(pane = id.0, "pane pipe's command ended");
            None
        }
    }
}
