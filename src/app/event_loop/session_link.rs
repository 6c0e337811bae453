//! The loop's side of sessions (see `crate::session`): each attached
//! terminal is a [`Client`]. Attach makes one and draws everything on it,
//! detach drops it (which puts its terminal back), a terminal that fails
//! is let go (or ends the workspace, per `on_hangup`) instead of ending it
//! with an error, and the layout takes the size `window_size` picks among
//! the terminals attached.

use std::time::Instant;

use anyhow::Result;

use super::App;
use crate::client::Client;
use crate::config::clients::WindowSize;
use crate::config::hooks::HookEvent;
use crate::input::router::Command;
use crate::input::workspace_chooser::{WorkspaceTarget, WorkspacesWanted};
use crate::render::frame;
use crate::session::host::{Joined, SessionEvent, Verdict};
use crate::session::proto::DetachReason;
use crate::session::workspace_list::{WorkspaceEntry, neighbour};
use crate::terminal::frame_sink::FrameSink;

impl<B: FrameSink> App<B> {
    /// Writing to client `at`'s terminal failed: it is lost, and let go
    /// (or the workspace ends, per `on_hangup`).
    pub(super) fn terminal_failed(&mut self, at: usize, err: &anyhow::Error) {
        tracing::warn!("writing to a terminal: {err:#}");
        let link = self.clients.get(at).and_then(|c| c.link);
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
        let Some(client) = self.clients.get_mut(at) else {
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
        for at in (0..self.clients.len()).rev() {
            if self.clients[at].unsent_fd().is_some() {
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
        let client = from.and_then(|at| self.clients.get(at));
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
                    let (Some(key), Some(tx)) = (key, &self.loop_tx) else {
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
        let Some(at) = self.clients.iter().position(|c| c.router_key() == client) else {
            return;
        };
        let current = self
            .session
            .as_ref()
            .map(|h| h.name().to_string())
            .unwrap_or_default();
        match wanted {
            WorkspacesWanted::Chooser => {
                if self.clients[at].router.workspaces_listed(list, &current) {
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
                match (target, self.clients[at].link) {
                    (Some(target), Some(link)) => self.switch_workspace(link, &target),
                    _ => {
                        self.clients[at]
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
            self.select_place(target.tab.map(|tab| (tab, target.pane)));
            return;
        }
        // Put back before the other workspace takes it (see `let_go`): it
        // saves the mode it finds, to restore at its end.
        self.clients.retain(|c| c.link != Some(link));
        if let Some(host) = self.session.as_mut() {
            host.switch(link, &target.name, target.tab.map(|tab| (tab, target.pane)));
        }
        self.client_left(link);
    }

    /// Link `link`'s client was dropped: the layout and the colours
    /// programs are told follow the terminals that stay.
    fn client_left(&mut self, link: u64) {
        if self.latest == Some(link) {
            self.latest = self.clients.last().and_then(|c| c.link);
        }
        self.fit_layout();
        self.tell_panes_the_colours();
    }

    /// Shows tab `tab` (from 1) and focuses pane `pane` there.
    fn select_place(&mut self, select: Option<(usize, Option<u32>)>) {
        let Some((tab, pane)) = select else {
            return;
        };
        if tab > 0 {
            self.ws.select_tab(tab - 1);
        }
        if let Some(pane) = pane {
            self.ws.focus_pane(crate::pane::PaneId(pane));
        }
        self.clock.changed_now();
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
        self.ws.quit(128 + sig);
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
                let stalled = self.clients.iter().any(|c| c.unsent_fd().is_some());
                let _ = reply.send(host.info(self.ws.panes().count(), stalled));
            }
            SessionEvent::Kill(stream) => {
                host.add_killer(stream);
                tracing::info!("tilework kill: shutting down");
                self.ws.quit(0);
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
                let links: Vec<u64> = self.clients.iter().filter_map(|c| c.link).collect();
                for link in links {
                    self.let_go(link, reason);
                }
            }
            Verdict::Resize(link) => {
                if !self.resize_news.contains(&link) {
                    self.resize_news.push(link);
                }
            }
            Verdict::Quit(code) => self.ws.quit(code),
        }
    }

    /// Lets link `link`'s terminal go: its client is told why and dropped,
    /// which puts its terminal back as it was. The layout may take another
    /// size now.
    fn let_go(&mut self, link: u64, reason: DetachReason) {
        // The terminal is put back (the client dropped) before its client
        // hears: what the client does next (its shell's own mode, another
        // workspace saving the mode it finds) must come after.
        let before = self.clients.len();
        self.clients.retain(|c| c.link != Some(link));
        if let Some(host) = self.session.as_mut() {
            host.detach(link, reason);
        }
        if self.clients.len() != before {
            self.hooks.fire(HookEvent::ClientDetached, Vec::new());
            self.client_left(link);
        }
    }

    /// Terminals that changed size since the last turn: their sizes are
    /// read now, after all of the news (the last size wins), and each is
    /// drawn whole even at the size it had. A terminal may have been
    /// another size in between and cut its screen to it; the frames after
    /// this one only draw what changed, and nothing else would repair it.
    pub(super) fn follow_terminal_sizes(&mut self) {
        if self.resize_news.is_empty() {
            return;
        }
        for link in std::mem::take(&mut self.resize_news) {
            if let Some(client) = self.clients.iter_mut().find(|c| c.link == Some(link)) {
                let size = client.read_size().unwrap_or(client.size);
                client.resized(size);
            }
        }
        self.fit_layout();
        self.clock.changed_now();
    }

    /// Client `at` typed: with `window_size = "latest"`, the layout takes
    /// its size.
    pub(super) fn client_typed(&mut self, at: usize) {
        let link = self.clients.get(at).and_then(|c| c.link);
        if link.is_some() && link != self.latest {
            self.latest = link;
            if let (Some(host), Some(link)) = (self.session.as_mut(), link) {
                host.typed(link);
            }
            if self.window_size == WindowSize::Latest {
                self.fit_layout();
                self.clock.changed_now();
            }
        }
    }

    /// The layout takes the size `window_size` picks among the attached
    /// terminals; every client draws its frames at that size (see
    /// `render::fit`). A read-only terminal (`attach -r`) has no say, as
    /// tmux's `ignore-size`: it sees the layout cut or padded, and the
    /// programs never see its size. Without terminals that have a say the
    /// layout keeps its size.
    pub(super) fn fit_layout(&mut self) {
        if self.clients.iter().any(|c| c.own_view.is_some()) {
            // Each terminal's tab at the size of those showing it.
            for at in 0..self.clients.len() {
                self.show_own_view(at);
            }
            return;
        }
        let sizing = || self.clients.iter().filter(|c| !c.read_only);
        let sizes: Vec<(u16, u16)> = sizing().map(|c| (c.size.width, c.size.height)).collect();
        let latest = sizing()
            .find(|c| c.link.is_some() && c.link == self.latest)
            .map(|c| (c.size.width, c.size.height));
        let area = match self.window_size.pick(latest, &sizes) {
            Some((cols, rows)) => frame::drawable_area(cols, rows),
            None => self.frame_area,
        };
        for client in &mut self.clients {
            if client.frame_area() != area || client.needs_refit() {
                client.refit(area);
            }
        }
        self.frame_area = area;
        self.ws.set_area(frame::split_screen(area).0);
    }

    /// A terminal was attached: a client is made of it, the layout may
    /// take its size, and everything is drawn on it at once.
    pub(super) fn attached(&mut self, joined: Joined) {
        if joined.detach_others {
            let others: Vec<u64> = self.clients.iter().filter_map(|c| c.link).collect();
            for link in others {
                self.let_go(link, DetachReason::TakenOver);
            }
        }
        let link = joined.link;
        let read_only = joined.read_only;
        let select = joined.select;
        if !joined.env.is_empty() {
            self.ws.update_environment(&joined.env);
        }
        let mut router = (self.new_router)(link).with_read_only(read_only);
        if let Some(config) = &self.reloaded_config {
            router.reconfigure(config);
        }
        router.set_workspace_name(self.session.as_ref().map(|h| h.name().to_string()));
        match Client::on_terminal(joined, self.writer, router, self.frame_area) {
            Ok(client) => {
                self.clients.push(client);
                self.give_own_views();
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
            self.latest = Some(link);
        }
        self.select_place(select);
        self.hooks.fire(HookEvent::ClientAttached, Vec::new());
        self.tell_panes_the_colours();
        self.fit_layout();
        self.clock.changed_now();
    }

    /// The client that acts for scripts and for what has no terminal of
    /// its own: the one that typed last, else the newest.
    pub(super) fn acting_client(&self) -> Option<usize> {
        self.clients
            .iter()
            .position(|c| c.link.is_some() && c.link == self.latest)
            .or_else(|| self.clients.len().checked_sub(1))
    }

    /// With `client_views = "own"`, each terminal without a view of its
    /// own gets one, starting where the workspace is now.
    pub(super) fn give_own_views(&mut self) {
        if self.client_views != crate::config::clients::ClientViews::Own {
            return;
        }
        for at in 0..self.clients.len() {
            if self.clients[at].own_view.is_none() {
                let view = self.ws.view();
                self.clients[at].own_view = Some(crate::client::views::OwnView::starting_at(view));
            }
        }
    }

    /// Draws a frame on each attached terminal that is reading. One that
    /// stopped reading is skipped (the loop goes back to sleep; it is drawn
    /// whole when it reads again); one that cannot be written to is let go.
    pub(super) fn draw_clients(&mut self, now: Instant) -> Result<()> {
        let reading = self.clients.iter().any(|c| c.unsent_fd().is_none());
        if !reading {
            for client in &mut self.clients {
                client.frame_skipped();
            }
            self.clock.begin_frame();
            self.clock.frame_done(now, false);
            return Ok(());
        }
        self.render()
    }
}

fn is_session_command(command: &Command) -> bool {
    matches!(
        command,
        Command::Detach | Command::ListWorkspaces(_) | Command::SwitchWorkspace(_)
    )
}
