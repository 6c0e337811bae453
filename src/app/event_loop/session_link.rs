//! The loop's side of sessions (see `crate::session`): each attached
//! terminal is a [`Client`]. Attach makes one and draws everything on it,
//! detach drops it (which puts its terminal back), a terminal that fails
//! is let go (or ends the workspace, per `on_hangup`) instead of ending it
//! with an error, and the layout takes the size `window_size` picks among
//! the terminals attached.

use super::App;
use crate::client::Client;
use crate::config::clients::WindowSize;
use crate::config::hooks::HookEvent;
use crate::input::router::Command;
use crate::input::workspace_chooser::{WorkspaceTarget, WorkspacesWanted};
use crate::session::host::{Joined, SessionEvent, Verdict};
use crate::session::proto::DetachReason;
use crate::session::workspace_list::{WorkspaceEntry, neighbour};
use crate::terminal::frame_sink::FrameSink;

impl<B: FrameSink> App<B> {
    /// Writing to client `at`'s terminal failed: it is lost, and let go
    /// (or the workspace ends, per `on_hangup`).
    pub(super) fn terminal_failed(&mut self, at: usize, err: &anyhow::Error) {
        tracing::warn!("writing to a terminal: {err:#}");
        let link = self.clients.list.get(at).and_then(|c| c.link);
        // Without a session (the loop's own tests) there is nothing to
        // let go.
        if let (Some(host), Some(link)) = (&self.session, link) {
            let verdict = host.judge_write_error(link);
            self.carry_out(verdict);
        }
    }

    /// Client `at`'s terminal can take more of a frame it stopped reading:
    /// sent; drawn whole at once if frames were dropped meanwhile. A
    /// terminal that fails is let go ([`Self::terminal_failed`]).
    pub(super) fn terminal_writable(&mut self, at: usize) {
        let Some(client) = self.clients.list.get_mut(at) else {
            return;
        };
        match client.terminal_writable() {
            Ok(true) => self.clock.changed_now(),
            Ok(false) => {}
            Err(err) => self.terminal_failed(at, &err),
        }
    }

    /// Sends each terminal that stopped reading in the middle of a frame
    /// what it takes of the rest now, without waiting to be told it is
    /// writable: a flood keeps the loop from sleeping in poll(2) for as
    /// long as it lasts, and the frame (a `C-b Q` question among them)
    /// would stay cut off all that time (issue 30).
    pub(super) fn send_unsent_frames(&mut self) {
        // From the last: one that fails is let go, which moves those after.
        for at in (0..self.clients.list.len()).rev() {
            if self.clients.list[at].unsent_fd().is_some() {
                self.terminal_writable(at);
            }
        }
    }

    /// Takes the session's commands out of `commands` (detach, listing
    /// and switching workspaces) and carries them out for client `from`
    /// (the one whose key or script asked).
    pub(super) fn take_session_commands(
        &mut self,
        from: Option<usize>,
        commands: &mut Vec<Command>,
    ) {
        if !commands.iter().any(is_session_command) {
            return;
        }
        let (ours, rest): (Vec<Command>, Vec<Command>) = std::mem::take(commands)
            .into_iter()
            .partition(is_session_command);
        *commands = rest;
        let client = from.and_then(|at| self.clients.list.get(at));
        let link = client.and_then(|c| c.link);
        let key = client.map(Client::router_key);
        if self.session.is_none() {
            return;
        }
        for command in ours {
            match command {
                Command::Detach => match link {
                    Some(link) => self.carry_out(Verdict::Detach(link, DetachReason::Key)),
                    // A script's detach: every terminal goes, as tmux's
                    // `detach-client -a` from outside would.
                    None => self.carry_out(Verdict::DetachAll(DetachReason::Key)),
                },
                Command::ListWorkspaces(wanted) => {
                    let (Some(key), Some(tx)) = (key, &self.queue.tx) else {
                        continue;
                    };
                    crate::session::workspace_list::spawn(
                        crate::app::loop_event::workspaces_mailbox(tx, key, wanted),
                    );
                }
                Command::SwitchWorkspace(target) => {
                    if let Some(link) = link {
                        self.switch_workspace(link, &target);
                    }
                }
                _ => {}
            }
        }
    }

    /// The workspaces were listed for the client whose router's key is
    /// `client`: into its chooser, or a step to the previous or next one.
    pub(super) fn workspaces_listed(
        &mut self,
        client: u64,
        wanted: WorkspacesWanted,
        list: &[WorkspaceEntry],
    ) {
        let Some(at) = self
            .clients
            .list
            .iter()
            .position(|c| c.router_key() == client)
        else {
            return;
        };
        let current = self
            .session
            .as_ref()
            .map(|h| h.name().to_string())
            .unwrap_or_default();
        match wanted {
            WorkspacesWanted::Chooser => {
                if self.clients.list[at]
                    .router
                    .workspaces_listed(list, &current)
                {
                    self.clock.changed_now();
                }
            }
            WorkspacesWanted::Step(step) => {
                // Running ones only: a saved one comes back from the chooser.
                let names: Vec<String> = list
                    .iter()
                    .filter(|e| e.saved.is_none())
                    .map(|e| e.name.clone())
                    .collect();
                let target = neighbour(&names, &current, step).map(|name| WorkspaceTarget {
                    name: name.to_string(),
                    tab: None,
                    pane: None,
                });
                match (target, self.clients.list[at].link) {
                    (Some(target), Some(link)) => self.switch_workspace(link, &target),
                    _ => {
                        self.clients.list[at]
                            .router
                            .notify("no other workspace is running".into());
                        self.clock.changed_now();
                    }
                }
            }
        }
    }

    /// Shows `target` on link `link`'s terminal: in this workspace, its tab
    /// and pane are selected; another workspace takes the terminal (its
    /// client attaches there) and this one lets it go.
    fn switch_workspace(&mut self, link: u64, target: &WorkspaceTarget) {
        let Some(host) = self.session.as_mut() else {
            return;
        };
        if target.name == host.name() {
            if let Some(tab) = target.tab {
                select_place(&mut self.ws, Some((tab, target.pane)));
                self.clock.changed_now();
            }
            return;
        }
        // Put back before the other workspace takes it (see `let_go`): it
        // saves the mode it finds, to restore at its end.
        self.clients.list.retain(|c| c.link != Some(link));
        if let Some(host) = self.session.as_mut() {
            host.switch(link, &target.name, target.tab.map(|tab| (tab, target.pane)));
        }
        self.clients
            .left(link, &mut self.ws, self.settings.configured_colours);
    }

    /// SIGHUP follows `on_hangup` in a session; every other signal (and
    /// SIGHUP without a session) ends the workspace cleanly.
    pub(super) fn on_signal(&mut self, sig: i32) {
        if sig == nix::sys::signal::Signal::SIGHUP as i32
            && let Some(host) = &self.session
        {
            let verdict = host.judge_sighup();
            tracing::info!(sig, ?verdict, "SIGHUP");
            self.carry_out(verdict);
            return;
        }
        tracing::info!(sig, "signal: shutting down");
        self.ws.ending_mut().quit(128 + sig);
    }

    pub(super) fn session_event(&mut self, event: SessionEvent) {
        let Some(host) = self.session.as_mut() else {
            return;
        };
        match event {
            SessionEvent::Attach(arrival) => match host.attach(arrival) {
                Ok(joined) => self.attached(joined),
                Err(err) => tracing::warn!("attaching a terminal: {err:#}"),
            },
            SessionEvent::Link { link, news } => {
                let verdict = host.judge(link, &news);
                self.carry_out(verdict);
            }
            SessionEvent::Info(reply) => {
                let stalled = self.clients.list.iter().any(|c| c.unsent_fd().is_some());
                let _ = reply.send(host.info(self.ws.panes().iter().count(), stalled));
            }
            SessionEvent::Kill(stream) => {
                host.add_killer(stream);
                tracing::info!("tilework kill: shutting down");
                self.ws.ending_mut().quit(0);
            }
            SessionEvent::Script(call) => self.script_call(call),
            SessionEvent::Handoff(asked) => self.hand_over(asked),
        }
    }

    fn carry_out(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::Nothing => {}
            Verdict::Detach(link, reason) => self.let_go(link, reason),
            Verdict::DetachAll(reason) => {
                let links: Vec<u64> = self.clients.list.iter().filter_map(|c| c.link).collect();
                for link in links {
                    self.let_go(link, reason);
                }
            }
            Verdict::Resize(link) => self.clients.resize_news(link),
            Verdict::Quit(code) => self.ws.ending_mut().quit(code),
        }
    }

    /// Lets link `link`'s terminal go: its client is told why and dropped,
    /// which puts its terminal back as it was. The layout may take another
    /// size now.
    fn let_go(&mut self, link: u64, reason: DetachReason) {
        // The terminal is put back (the client dropped) before its client
        // hears: what the client does next (its shell's own mode, another
        // workspace saving the mode it finds) must come after.
        let before = self.clients.list.len();
        self.clients.list.retain(|c| c.link != Some(link));
        if let Some(host) = self.session.as_mut() {
            host.detach(link, reason);
        }
        if self.clients.list.len() != before {
            self.hooks.fire(HookEvent::ClientDetached, Vec::new());
            self.clients
                .left(link, &mut self.ws, self.settings.configured_colours);
        }
    }

    /// Client `at` typed: with `window_size = "latest"`, the layout takes
    /// its size.
    pub(super) fn client_typed(&mut self, at: usize) {
        let Some(link) = self.clients.typed(at) else {
            return;
        };
        if let Some(host) = self.session.as_mut() {
            host.typed(link);
        }
        if self.clients.window_size == WindowSize::Latest {
            self.clients.fit_layout(&mut self.ws);
            self.clock.changed_now();
        }
    }

    /// A terminal was attached: a client is made of it, the layout may
    /// take its size, and everything is drawn on it at once.
    pub(super) fn attached(&mut self, joined: Joined) {
        if joined.detach_others {
            let others: Vec<u64> = self.clients.list.iter().filter_map(|c| c.link).collect();
            for link in others {
                self.let_go(link, DetachReason::TakenOver);
            }
        }
        let link = joined.link;
        let read_only = joined.read_only;
        let select = joined.select;
        if !joined.env.is_empty() {
            self.ws
                .panes_mut()
                .spawner_mut()
                .update_environment(&joined.env);
        }
        self.signals.progress.attached(link, &joined.env);
        let mut router = (self.clients.new_router)(link).with_read_only(read_only);
        if let Some(config) = &self.clients.reloaded_config {
            router.reconfigure(config);
        }
        router.set_workspace_name(self.session.as_ref().map(|h| h.name().to_string()));
        let clients = &self.clients;
        let client = Client::on_terminal(
            joined,
            clients.writer,
            router,
            clients.frame_area,
            clients.configured_features,
        );
        match client {
            Ok(client) => {
                self.clients.list.push(client);
                let at = self.clients.list.len() - 1;
                if self.clients.theme_from_terminal(at) {
                    self.clock.changed_now();
                }
                self.clients.give_own_views(&self.ws);
            }
            Err(err) => {
                tracing::warn!("a terminal attached but cannot be drawn on: {err:#}");
                if let Some(host) = self.session.as_mut() {
                    host.detach(link, DetachReason::TerminalLost);
                }
                return;
            }
        }
        if !read_only {
            self.clients.latest = Some(link);
        }
        select_place(&mut self.ws, select);
        self.hooks.fire(HookEvent::ClientAttached, Vec::new());
        self.clients
            .tell_colours(&mut self.ws, self.settings.configured_colours);
        self.clients.fit_layout(&mut self.ws);
        self.clock.changed_now();
    }
}

fn is_session_command(command: &Command) -> bool {
    matches!(
        command,
        Command::Detach | Command::ListWorkspaces(_) | Command::SwitchWorkspace(_)
    )
}

/// Shows tab `tab` (from 1) and focuses pane `pane` there.
fn select_place(ws: &mut crate::workspace::Workspace, select: Option<(usize, Option<u32>)>) {
    let Some((tab, pane)) = select else {
        return;
    };
    if tab > 0 {
        ws.tabs_mut().select(tab - 1);
    }
    if let Some(pane) = pane {
        ws.focus_pane(crate::pane::PaneId(pane));
    }
}
