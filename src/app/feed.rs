//! Feeding the panes on every turn: each pane's output, up to its byte
//! budget and the parse time slice, the pane awaiting a key's echo first
//! and flooding panes on a small slice meanwhile; while the user types,
//! the other panes share one allowance (`typing_throttle`). What parsing
//! turns up (a bell, a notification, a program's clipboard write, activity
//! in a hidden tab) goes to the client and the status bar.

use std::os::fd::BorrowedFd;
use std::time::Instant;

use super::event_loop::{App, ECHO_WAIT_BUDGET, PANE_BYTE_BUDGET, PANE_TIME_BUDGET};
use super::typing_throttle;
use crate::config::Notifications;
use crate::config::hooks::HookEvent;
use crate::pane::PaneId;
use crate::pane::notifications::Notification;
use crate::terminal::frame_sink::FrameSink;

impl<B: FrameSink> App<B> {
    /// Feeds each pane up to its byte budget. Returns whether bytes remain.
    pub(super) fn drain_panes(&mut self) -> bool {
        let mut more = false;
        let mut hidden_activity = Vec::new();
        let mut rang = Vec::new();
        let mut visible: Option<Vec<PaneId>> = None;
        // The pane waiting to echo a key goes first; while it waits, flooding
        // panes get only a small slice so the echo is not stuck behind them.
        let echo = self.clock.awaited_echo();
        self.order.clear();
        self.order
            .extend(echo.filter(|id| self.ws.panes().get(*id).is_some()));
        let first_other = self.order.len();
        self.order
            .extend(self.ws.panes().ids().filter(|id| Some(*id) != echo));
        // While typing, the other panes share one allowance: who goes first
        // takes turns, or the last panes would get none of it.
        let others = &mut self.order[first_other..];
        if !others.is_empty() {
            self.feed_rotation = self.feed_rotation.wrapping_add(1);
            others.rotate_left(self.feed_rotation % others.len());
        }
        if self.ws.drop_seen_notifications() {
            // The pane was focused: its notification leaves the status bar.
            self.clock.changed();
        }
        let now = Instant::now();
        // Seen before their channels are emptied below, which keeps a
        // quiet pane's own reads after its thread's chunks.
        let quiet_ready = self.quiet_panes_ready(now);
        for i in 0..self.order.len() {
            let id = self.order[i];
            if !self.throttle.may_feed(id, now) {
                continue;
            }
            let Some(pane) = self.ws.panes_mut().get_mut(id) else {
                continue;
            };
            let budget = if echo.is_some() && echo != Some(id) {
                ECHO_WAIT_BUDGET
            } else {
                PANE_BYTE_BUDGET
            };
            // Take the whole slice before parsing any of it: the reader is
            // woken once per batch instead of once per chunk (a blocked
            // sender wakes on every freed slot and spins meanwhile). Output
            // left from the last turn's slice goes first and counts.
            let waiting = pane.unfed();
            let mut taken = waiting;
            // Lines are counted only for an allowance: a flood nobody types
            // beside is not scanned twice.
            let charged = self.throttle.limits(id, now);
            let mut cost = 0;
            let mut quiet = quiet_ready.contains(&id);
            while taken < budget {
                let chunk = match pane.try_output() {
                    Some(chunk) => chunk,
                    // The channel is empty: the loop reads the PTY itself.
                    None if std::mem::take(&mut quiet) => match pane.read_quiet() {
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
            let loading = pane.graphics_loading();
            let fed = waiting > 0 || !self.batch.is_empty() || loading;
            if fed && self.hooks.silence_after().is_some() {
                self.silence.output(id, now);
            }
            let number = self.ws.panes().script_id(id);
            let Some(pane) = self.ws.panes_mut().get_mut(id) else {
                continue;
            };
            for chunk in self.batch.drain(..) {
                if !self.hooks.subscribers.is_empty() {
                    self.hooks.subscribers.output(number, &chunk);
                }
                if !self.pipes.is_empty()
                    && let Some(notice) = pipe_on(&mut self.pipes, id, &chunk)
                {
                    for client in &mut self.clients {
                        client.router.notify(notice.clone());
                    }
                }
                pane.take_in(chunk);
            }
            // A key typed meanwhile stops the slice: keys come first.
            let clients = &self.clients;
            let key_waits = || clients.iter().any(|c| c.input.keys_waiting());
            if fed && !pane.feed_until(Instant::now() + PANE_TIME_BUDGET, key_waits) {
                more = true;
            }
            if fed {
                self.ws.panes_mut().names_mut().may_change(now);
                self.ws.panes_mut().pane_printed(id);
                let Some(pane) = self.ws.panes_mut().get_mut(id) else {
                    continue;
                };
                let mut notified = false;
                for notification in pane.take_notifications() {
                    self.command_watch.notified(id);
                    notified |= self.notified(id, &notification);
                }
                let Some(pane) = self.ws.panes_mut().get_mut(id) else {
                    continue;
                };
                let bell = pane.take_bell();
                let shown = visible
                    .get_or_insert_with(|| self.ws_visible_ids())
                    .contains(&id);
                if shown {
                    if bell {
                        for client in &mut self.clients {
                            client.outbox.ring_bell();
                        }
                        rang.push(id);
                    }
                } else {
                    hidden_activity.push((id, bell || notified));
                }
                let finished_unseen = self.command_events(id, shown);
                if finished_unseen && shown {
                    rang.push(id);
                } else if finished_unseen {
                    hidden_activity.push((id, true));
                }
                let Some(pane) = self.ws.panes_mut().get_mut(id) else {
                    continue;
                };
                if self.clock.output_from(id, shown) {
                    self.metrics.key_reflected();
                }
                if pane.queued() > 0
                    && !self.throttle.holds_back(id, now)
                    && !pane.graphics_loading()
                {
                    more = true;
                }
                if let Some(data) = pane.take_clipboard() {
                    if self.clipboard_from_programs {
                        for client in &mut self.clients {
                            client.outbox.set_clipboard_from_program(&data);
                        }
                        self.clock.changed();
                    } else {
                        tracing::info!(
                            ?id,
                            "OSC 52 clipboard write refused (clipboard_from_programs = false)"
                        );
                    }
                }
            } else if pane.queued() > 0 && !loading {
                more = true;
            }
        }
        for (id, bell) in hidden_activity {
            let tab_was_quiet = self
                .ws
                .tab_of(id)
                .and_then(|i| self.ws.tabs().get(i))
                .is_some_and(|t| !t.activity);
            if self.ws.note_activity(id, bell) {
                // The status bar's tab markers changed.
                self.clock.changed();
                if tab_was_quiet {
                    let env = crate::app::hooks::pane_env(&self.ws, id);
                    self.hooks.fire(HookEvent::Activity, env);
                }
            }
            if bell {
                rang.push(id);
            }
        }
        for id in rang {
            let env = crate::app::hooks::pane_env(&self.ws, id);
            self.hooks.fire(HookEvent::Bell, env);
        }
        more
    }

    /// Pane `id`'s program sent `notification`: kept for the status bar
    /// and passed on, as the config says. Returns whether it marks the tab.
    pub(super) fn notify_from(&mut self, id: PaneId, notification: &Notification) -> bool {
        self.notified(id, notification)
    }

    fn notified(&mut self, id: PaneId, notification: &Notification) -> bool {
        let mode = self.ws.attention().notifications();
        if mode == Notifications::Off {
            return false;
        }
        let mut env = crate::app::hooks::pane_env(&self.ws, id);
        env.push(("TILEWORK_NOTIFICATION".into(), notification.summary()));
        self.hooks.fire(HookEvent::Notification, env);
        let focused = self.ws.focused_id();
        let attention = self.ws.attention_mut();
        if attention.note_notification(id, notification.summary(), focused) {
            self.clock.changed();
        }
        if mode == Notifications::Forward {
            let forward = notification.forward();
            for client in &mut self.clients {
                client.outbox.notify(forward.clone());
            }
            self.clock.changed();
        }
        true
    }

    /// The panes whose PTY the loop holds (see `pane::reader_gate`) and
    /// may read now (not held back while the user types), with those PTYs.
    pub(super) fn quiet_fds(&self, now: Instant) -> (Vec<PaneId>, Vec<BorrowedFd<'_>>) {
        self.ws
            .panes()
            .iter()
            .filter(|pane| !self.throttle.holds_back(pane.id, now))
            .filter_map(|pane| Some((pane.id, pane.quiet_fd()?)))
            .unzip()
    }

    /// Of [`Self::quiet_fds`], the panes with something to read (or hung
    /// up).
    fn quiet_panes_ready(&self, now: Instant) -> Vec<PaneId> {
        use rustix::event::{PollFd, PollFlags, Timespec};
        let (ids, fds) = self.quiet_fds(now);
        if fds.is_empty() {
            return Vec::new();
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
}

/// Hands `chunk` of pane `id`'s output to its pipe, if it has one; says
/// so in the status bar when the pipe's command falls behind and output
/// is dropped (never waits for it).
/// Returns a notice for the status bar when the pipe starts dropping.
fn pipe_on(pipes: &mut crate::pane::pipe::PanePipes, id: PaneId, chunk: &[u8]) -> Option<String> {
    use crate::pane::pipe::Sent;
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
