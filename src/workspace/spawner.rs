//! [`Spawner`]: what every new pane is started with: the launcher, the
//! settings and environment (refreshed by attaching terminals), the
//! terminal's colours, what tools built for tmux are told
//! ([`TmuxIdentity`]), the script ids a restore's panes take, and the
//! workspace's picture store its pictures go to. The
//! pane table it starts them into is [`Panes`](crate::workspace::Panes).

use ratatui::layout::Rect;

use crate::graphics::picture_store::PictureStore;
use crate::pane::event::PaneMailbox;
use crate::pane::program::process::Launcher;
use crate::pane::program::pty::SpawnSpec;
use crate::pane::program::spawn::{ChildEnv, current_dir};
use crate::pane::term::attached_facts::AttachedFacts;
use crate::pane::{Pane, PaneId};
use crate::workspace::pane_launch::PaneLaunch;
use crate::workspace::tmux_env::{SessionNumber, TmuxIdentity};
use crate::workspace::wanted_ids::WantedIds;

/// Settings the workspace's panes start with, from the config.
#[derive(Debug, Clone)]
pub struct WorkspaceSettings {
    pub env: ChildEnv,
    pub scrollback_bytes: usize,
    pub keep_exited_panes: bool,
}

/// What every new pane is started with.
pub struct Spawner {
    pub(super) settings: WorkspaceSettings,
    /// Where panes' work on other threads (history replays) reports.
    pub(super) events: PaneMailbox,
    pub(super) launcher: Box<dyn Launcher>,
    /// A history opened in the editor keeps its colours (`editor_ansi`).
    pub(super) editor_ansi: bool,
    /// Which variables an attaching terminal may refresh for new panes
    /// (`update_environment`).
    update_names: Vec<String>,
    /// What programs are told of the attached terminals, their colours
    /// and theme (set by the loop).
    pub(super) attached_facts: AttachedFacts,
    /// The ids a restore's panes take (see `stable_ids`).
    pub(super) wanted_ids: WantedIds,
    /// What panes are told so that `tmux` in them reaches this workspace
    /// (`None`: `tmux_compat` off, or the socket not known yet).
    tmux: Option<TmuxIdentity>,
    /// The workspace's pictures, which every pane it takes in is given:
    /// their programs add to them, every client draws them.
    pictures: PictureStore,
    /// The workspace's tmux session number (`$N`).
    tmux_session: SessionNumber,
}

impl Spawner {
    pub(super) fn new(
        settings: WorkspaceSettings,
        events: PaneMailbox,
        launcher: Box<dyn Launcher>,
    ) -> Self {
        Self {
            settings,
            events,
            launcher,
            editor_ansi: false,
            update_names: crate::config::clients::default_update_environment(),
            attached_facts: AttachedFacts::default(),
            wanted_ids: WantedIds::default(),
            tmux: None,
            pictures: PictureStore::default(),
            tmux_session: SessionNumber::from_env(),
        }
    }

    pub fn settings(&self) -> &WorkspaceSettings {
        &self.settings
    }

    /// Where panes' work on other threads (history replays) reports.
    pub fn events(&self) -> PaneMailbox {
        self.events.clone()
    }

    /// Histories opened in the editor (`C-b e`) keep colours as SGR.
    pub fn set_editor_ansi(&mut self, on: bool) {
        self.editor_ansi = on;
    }

    /// The variables an attaching terminal may refresh (the config's
    /// `update_environment`).
    pub fn set_update_environment(&mut self, names: Vec<String>) {
        self.update_names = names;
    }

    /// A terminal attached with `vars` (its values of the variables it was
    /// asked for; `None` where unset): panes opened from now on get those
    /// the config names (tmux's `update-environment`: after a reattach
    /// over a new ssh connection, a new pane's `git push` finds the new
    /// agent socket). Panes already running keep theirs, as in tmux.
    pub fn update_environment(&mut self, vars: &[(String, Option<String>)]) {
        let allowed: Vec<(String, Option<String>)> = vars
            .iter()
            .filter(|(name, _)| self.update_names.iter().any(|n| n == name))
            .cloned()
            .collect();
        if !allowed.is_empty() {
            tracing::info!(
                vars = ?allowed.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
                "environment refreshed by an attaching terminal"
            );
            self.settings.env.refresh(&allowed);
        }
    }

    /// Panes started from now on are told `identity` (`$TMUX`,
    /// `$TMUX_PANE`, the `tmux` first on `PATH`).
    pub fn set_tmux_identity(&mut self, identity: TmuxIdentity) {
        self.tmux = Some(identity);
    }

    /// The workspace's socket moved (a rename): new panes get the new one.
    pub fn tmux_socket_moved(&mut self, socket: std::path::PathBuf) {
        if let Some(identity) = self.tmux.as_mut() {
            identity.socket = socket;
        }
    }

    /// What new panes' programs are told of the attached terminals.
    pub fn attached_facts(&self) -> AttachedFacts {
        self.attached_facts
    }

    /// The workspace's pictures and their placements, under the
    /// `image_memory` budget.
    pub fn pictures(&self) -> &PictureStore {
        &self.pictures
    }

    /// What panes are told of tmux, if anything: the identity and the
    /// session number.
    pub fn tmux_identity(&self) -> Option<(&TmuxIdentity, u32)> {
        Some((self.tmux.as_ref()?, self.tmux_session.get()))
    }

    /// The workspace's tmux session number (`$N`).
    pub fn tmux_session(&self) -> u32 {
        self.tmux_session.get()
    }

    /// A restored workspace keeps the session number it was saved with
    /// (see [`SessionNumber::adopt`]).
    pub(super) fn adopt_tmux_session(&mut self, saved: u32) {
        self.tmux_session.adopt(saved);
    }

    /// A new shell beside pane `beside` (in its directory, like zellij;
    /// on its host for a remote pane), or in tilework's directory.
    pub(super) fn shell_launch(&self, beside: Option<&Pane>) -> PaneLaunch {
        if let Some((spec, label)) = beside.and_then(super::remote_launch::shell_beside) {
            return PaneLaunch::new(spec, label);
        }
        let cwd = beside.and_then(|p| current_dir(p.term().told().cwd(), p.program().pid()));
        let (spec, label) = self.settings.env.shell(cwd);
        PaneLaunch::new(spec, label)
    }

    /// Starts pane `id`'s program with content area `inner`.
    pub(super) fn spawn(&self, id: PaneId, spec: SpawnSpec, label: String, inner: Rect) -> Pane {
        Pane::spawn(
            id,
            spec,
            label,
            (inner.height, inner.width),
            self.settings.scrollback_bytes,
            self.launcher.as_ref(),
            self.attached_facts,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pane::program::process::fake::FakeLauncher;

    fn spawner() -> Spawner {
        let (tx, _events) = crossbeam_channel::unbounded();
        let launcher = Box::new(FakeLauncher::new(tx.clone().into()));
        Spawner::new(
            crate::workspace::fake_workspace::settings(),
            tx.into(),
            launcher,
        )
    }

    fn value<'a>(spec: &'a SpawnSpec, name: &str) -> Option<&'a str> {
        spec.env
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    #[test]
    fn an_attaching_terminal_refreshes_only_the_variables_the_config_names() {
        let mut s = spawner();
        s.set_update_environment(vec!["SSH_AUTH_SOCK".into()]);
        s.update_environment(&[
            ("SSH_AUTH_SOCK".into(), Some("/tmp/agent.2".into())),
            ("EDITOR".into(), Some("ed".into())),
        ]);
        let launch = s.shell_launch(None);
        assert_eq!(value(&launch.spec, "SSH_AUTH_SOCK"), Some("/tmp/agent.2"));
        assert_ne!(value(&launch.spec, "EDITOR"), Some("ed"));
        assert_eq!(launch.spec.argv, vec!["/bin/sh".to_string()]);
    }

    #[test]
    fn a_renamed_socket_is_what_new_panes_are_told() {
        let mut s = spawner();
        s.tmux_socket_moved("/run/x".into());
        assert!(s.tmux_identity().is_none(), "no identity: nothing to move");
        s.set_tmux_identity(TmuxIdentity {
            socket: "/run/a".into(),
            bin_dir: None,
        });
        s.tmux_socket_moved("/run/b".into());
        let socket = s.tmux_identity().map(|(i, _)| i.socket.clone());
        assert_eq!(socket, Some("/run/b".into()));
    }
}
