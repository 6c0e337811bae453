//! The loop's turn of feeding the panes (the state kept between turns is
//! [`Feed`]): each pane's slice of output, and what parsing it turns up (a
//! bell, a notification, a program's clipboard write, activity in a
//! hidden tab) handed to the clients, the status bar and the hooks.

use std::time::Instant;

use super::{App, ECHO_WAIT_BUDGET, PANE_BYTE_BUDGET, PANE_TIME_BUDGET};
use crate::app::signals_from_programs::Around;
use crate::config::Notifications;
use crate::config::hooks::HookEvent;
use crate::pane::PaneId;
use crate::pane::term::notifications::Notification;
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
        self.feed.order_panes(echo, &self.ws);
        if self.ws.drop_seen_notifications() {
            // The pane was focused: its notification leaves the status bar.
            self.clock.changed();
        }
        let now = Instant::now();
        // Seen before their channels are emptied below, which keeps a
        // quiet pane's own reads after its thread's chunks.
        let quiet_ready = self.feed.quiet_panes_ready(&self.ws, now, echo);
        for i in 0..self.feed.order.len() {
            let id = self.feed.order[i];
            if !self.feed.throttle.may_feed(id, now) {
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
            let fed = self
                .feed
                .take_slice(pane, budget, quiet_ready.contains(&id), now);
            if fed && self.hooks.silence_after().is_some() {
                self.feed.silence.output(id, now);
            }
            let number = self.ws.panes().script_id(id);
            let Some(pane) = self.ws.panes_mut().get_mut(id) else {
                continue;
            };
            for notice in self
                .feed
                .hand_over(pane, number, &mut self.hooks.subscribers)
            {
                for client in &mut self.clients.list {
                    client.router.notify(notice.clone());
                }
            }
            // A key typed meanwhile stops the slice: keys come first.
            let clients = &self.clients.list;
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
                let mut news = pane.term_mut().take_news();
                let mut notified = false;
                for notification in std::mem::take(&mut news.notifications) {
                    self.command_watch.notified(id);
                    notified |= self.notified(id, &notification);
                }
                if self.ws.panes().get(id).is_none() {
                    continue;
                }
                let bell = news.bell;
                let shown = visible
                    .get_or_insert_with(|| {
                        self.ws
                            .tiling()
                            .visible(self.ws.tabs().shown())
                            .into_iter()
                            .map(|(id, _)| id)
                            .collect()
                    })
                    .contains(&id);
                if shown {
                    if bell {
                        for client in &mut self.clients.list {
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
                    self.measures.metrics.key_reflected();
                }
                if pane.program().queued() > 0
                    && !self.feed.throttle.holds_back(id, now)
                    && !pane.term().graphics_loading()
                {
                    more = true;
                }
                let signals = std::mem::take(&mut news.signals);
                if !signals.is_empty() {
                    self.signals.program_signalled(
                        id,
                        signals,
                        &mut Around {
                            ws: &mut self.ws,
                            clients: &mut self.clients,
                            clock: &mut self.clock,
                        },
                    );
                }
                if let Some(data) = news.clipboard.take() {
                    if self.settings.clipboard_from_programs {
                        for client in &mut self.clients.list {
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
            } else if pane.program().queued() > 0 {
                // (Not fed: no graphics file read goes on either.)
                more = true;
            }
        }
        if !self.feed.streams.is_empty() {
            self.feed.streams.pump(&self.ws);
        }
        for (id, bell) in hidden_activity {
            let tab_was_quiet = self
                .ws
                .tabs()
                .index_of(id)
                .and_then(|i| self.ws.tabs().get(i))
                .is_some_and(|t| !t.activity);
            if self.ws.tabs_mut().note_activity(id, bell) {
                // The status bar's tab markers changed.
                self.clock.changed();
                if tab_was_quiet {
                    let env = crate::app::hook_runner::pane_env(&self.ws, id);
                    self.hooks.fire(HookEvent::Activity, env);
                }
            }
            if bell {
                rang.push(id);
            }
        }
        for id in rang {
            let env = crate::app::hook_runner::pane_env(&self.ws, id);
            self.hooks.fire(HookEvent::Bell, env);
        }
        more
    }

    /// Pane `id`'s program sent `notification`: kept for the status bar
    /// and passed on, as the config says. Returns whether it marks the tab.
    pub(in crate::app) fn notified(&mut self, id: PaneId, notification: &Notification) -> bool {
        let mode = self.ws.attention().notifications();
        if mode == Notifications::Off {
            return false;
        }
        let mut env = crate::app::hook_runner::pane_env(&self.ws, id);
        env.push(("TILEWORK_NOTIFICATION".into(), notification.summary()));
        self.hooks.fire(HookEvent::Notification, env);
        let focused = self.ws.tabs().focused_id();
        let attention = self.ws.attention_mut();
        if attention.note_notification(id, notification.summary(), focused) {
            self.clock.changed();
        }
        if mode == Notifications::Forward {
            let forward = self.signals.notification_forward(id, notification);
            for client in &mut self.clients.list {
                client.outbox.notify(forward.clone());
            }
            self.clock.changed();
        }
        true
    }
}
