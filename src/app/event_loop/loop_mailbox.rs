//! The loop's mailbox: what other threads hand the loop (a pane's exit,
//! a history read for copy mode, search results, names, signals, session
//! news, saving's notices, a reloaded config, status commands), each done
//! here on the loop's thread, then the timed work those make due.

use std::time::Instant;

use super::App;
use crate::app::attached::SPARE_ROUTER;
use crate::app::loop_event::LoopEvent;
use crate::config::hooks::HookEvent;
use crate::pane::event::PaneEvent;
use crate::terminal::frame_sink::FrameSink;

impl<B: FrameSink> App<B> {
    pub(super) fn drain_events(&mut self) {
        while let Ok(ev) = self.queue.rx.try_recv() {
            match ev {
                LoopEvent::Pane(PaneEvent::Exited(id, info)) => {
                    tracing::info!(?id, code = info.code, "pane exited");
                    let mut env = crate::app::hook_runner::pane_env(&self.ws, id);
                    env.push(("TILEWORK_EXIT_CODE".into(), info.code.to_string()));
                    self.hooks.fire(HookEvent::PaneExited, env);
                    if !self.feed.streams.is_empty() {
                        if let Some(pane) = self.ws.panes_mut().get_mut(id) {
                            pane.drain_pending();
                        }
                        self.feed.streams.pane_ended(&self.ws, id, info.code);
                    }
                    self.ws.pane_exited(id, info, Instant::now());
                    // Every terminal is told (the workspace's news).
                    for notice in self.ws.attention_mut().take_notices() {
                        for client in &mut self.clients.list {
                            client.router.notify(notice.clone());
                        }
                    }
                    self.clock.changed_now();
                }
                LoopEvent::Pane(PaneEvent::HistoryReady(id, history)) => {
                    if let Some(pane) = self.ws.panes_mut().get_mut(id) {
                        pane.history_mut().history_ready(history);
                        // Every client whose copy mode waited for it.
                        for at in 0..self.clients.list.len() {
                            let outcome =
                                self.clients.list[at].router.history_arrived(&mut self.ws);
                            // Keys typed while it loaded may have yanked text.
                            self.perform(Some(at), outcome.commands);
                        }
                        let outcome = self.clients.spare_router.history_arrived(&mut self.ws);
                        self.perform(None, outcome.commands);
                        self.clock.changed_now();
                    }
                }
                LoopEvent::Pane(PaneEvent::HistoryFile(id, file)) => {
                    let opened = file.map(|file| self.ws.open_history_editor(id, file));
                    if let Err(err) = opened {
                        tracing::warn!("writing a pane's history for the editor: {err:#}");
                        self.clients
                            .acting_router()
                            .notify(format!("history not opened: {err:#}"));
                    }
                    self.clock.changed_now();
                }
                LoopEvent::Search(client, result) => {
                    let router = match self
                        .clients
                        .list
                        .iter()
                        .position(|c| c.router_key() == client)
                    {
                        Some(at) => &mut self.clients.list[at].router,
                        None if client == SPARE_ROUTER => &mut self.clients.spare_router,
                        // Its client is gone.
                        None => continue,
                    };
                    router.search_result(&mut self.ws, *result);
                    self.clock.changed_now();
                }
                LoopEvent::Workspaces {
                    client,
                    wanted,
                    list,
                } => self.workspaces_listed(client, wanted, &list),
                LoopEvent::Renamed { client, renamed } => self.workspace_renamed(client, renamed),
                LoopEvent::Names(report) => {
                    if self.ws.panes_mut().names_found(report) {
                        self.clock.changed();
                    }
                }
                LoopEvent::Signal(sig) => self.on_signal(sig),
                LoopEvent::Session(event) => self.session_event(event),
                LoopEvent::Saving(notice) => {
                    for client in &mut self.clients.list {
                        client.router.notify(notice.clone());
                    }
                    self.clock.changed_now();
                }
                LoopEvent::Reloaded(result) => self.reloaded(result),
                LoopEvent::StatusCommand(report) => {
                    self.status_commands.finished(&report, Instant::now());
                    let mut changed = false;
                    for client in &mut self.clients.list {
                        changed |= client
                            .router
                            .status_command_ran(&report.command, report.shown.clone());
                    }
                    if changed {
                        self.clock.changed();
                    }
                }
            }
        }
        // Command panes whose restart delay is over (the wait's deadline
        // includes the next one).
        if self.ws.run_due_restarts(Instant::now()) {
            self.clock.changed();
        }
        self.status_commands.run_due(Instant::now());
        self.hooks.observe(&self.ws);
        if !self.feed.pipes.is_empty() {
            let ws = &self.ws;
            self.feed.pipes.keep_only(|id| ws.panes().get(id).is_some());
        }
    }
}
