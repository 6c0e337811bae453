//! [`Panes`]: the workspace's pane table and what every pane is started
//! with: the launcher, the settings and environment, the most panes there
//! may be, the terminal's colours. Which tab a pane is in and which has
//! the focus are the workspace's; what a pane is and runs is here.
//!
//! Also here, because they live in each pane's [`Member`]: what was last
//! learnt of a pane (its name, directory, job) and what a restored pane
//! waits to have typed at its prompt (tmux-resurrect's way).

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::config::colour::Rgb;
use crate::pane::event::PaneMailbox;
use crate::pane::program::process::Launcher;
use crate::pane::program::spawn::ChildEnv;
use crate::pane::program::spawn::current_dir;
use crate::pane::{Pane, PaneId};
use crate::workspace::cwd::PanePlace;
use crate::workspace::foreground::Job;
use crate::workspace::member::Member;
use crate::workspace::names::Names;
use crate::workspace::naming::PaneName;

/// Settings the workspace's panes start with, from the config.
#[derive(Debug, Clone)]
pub struct WorkspaceSettings {
    pub env: ChildEnv,
    pub scrollback_bytes: usize,
    pub keep_exited_panes: bool,
}

/// Every pane of every tab, by id, and how new ones start.
pub struct Panes {
    pub(super) members: BTreeMap<PaneId, Member>,
    pub(super) next_id: u32,
    pub(super) settings: WorkspaceSettings,
    /// Where panes' work on other threads (history replays) reports.
    pub(super) events: PaneMailbox,
    pub(super) launcher: Box<dyn Launcher>,
    /// A history opened in the editor keeps its colours (`editor_ansi`).
    pub(super) editor_ansi: bool,
    /// The most panes open at once (see [`Panes::room_for_pane`]).
    max_panes: usize,
    /// Which variables an attaching terminal may refresh for new panes
    /// (`update_environment`).
    update_names: Vec<String>,
    /// What programs asking for the terminal's colours are told (the
    /// attached terminal's, under the config's).
    pub(super) terminal_colours: [Option<Rgb>; 3],
    /// When and how to look at what the panes run (see `pane_names`).
    pub(super) names: Names,
}

impl Panes {
    pub(super) fn new(
        settings: WorkspaceSettings,
        events: PaneMailbox,
        launcher: Box<dyn Launcher>,
    ) -> Self {
        Self {
            members: BTreeMap::new(),
            next_id: 1,
            settings,
            events,
            launcher,
            editor_ansi: false,
            max_panes: crate::config::profile::MAX_PANES,
            update_names: crate::config::clients::default_update_environment(),
            terminal_colours: [None; 3],
            names: Names::new(),
        }
    }

    pub fn get(&self, id: PaneId) -> Option<&Pane> {
        self.members.get(&id).map(|m| &m.pane)
    }

    pub fn get_mut(&mut self, id: PaneId) -> Option<&mut Pane> {
        self.members.get_mut(&id).map(|m| &mut m.pane)
    }

    /// Every pane of every tab, by id.
    pub fn iter(&self) -> impl Iterator<Item = &Pane> + Clone {
        self.members.values().map(|m| &m.pane)
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Pane> {
        self.members.values_mut().map(|m| &mut m.pane)
    }

    /// Every pane's id, in order.
    pub fn ids(&self) -> impl Iterator<Item = PaneId> + '_ {
        self.members.keys().copied()
    }

    pub fn len(&self) -> usize {
        self.members.len()
    }

    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    pub(super) fn alloc_id(&mut self) -> PaneId {
        let id = PaneId(self.next_id);
        self.next_id += 1;
        id
    }

    pub fn settings(&self) -> &WorkspaceSettings {
        &self.settings
    }

    /// Where panes' work on other threads (history replays) reports.
    pub fn events(&self) -> PaneMailbox {
        self.events.clone()
    }

    /// Programs asking for the terminal's colours are told `colours`, in
    /// every pane and every pane opened later.
    pub fn set_terminal_colours(&mut self, colours: [Option<Rgb>; 3]) {
        self.terminal_colours = colours;
        for pane in self.iter_mut() {
            pane.term_mut().set_terminal_colours(colours);
        }
    }

    /// A terminal told its theme (mode 2031): the programs that
    /// subscribed hear it.
    pub fn terminal_theme_changed(&self) {
        for pane in self.iter() {
            pane.theme_changed();
        }
    }

    /// Histories opened in the editor (`C-b e`) keep colours as SGR.
    pub fn set_editor_ansi(&mut self, on: bool) {
        self.editor_ansi = on;
    }

    /// Scrolls a pane's history by `rows` (positive: back in time).
    pub fn scroll(&mut self, id: PaneId, rows: isize) {
        let events = self.events.clone();
        if let Some(pane) = self.get_mut(id) {
            pane.history_mut().scroll(rows, &events);
        }
    }

    /// Directory a new pane would start in, for saving profiles.
    pub fn dir(&self, id: PaneId) -> Option<PathBuf> {
        let pane = self.get(id)?;
        current_dir(pane.term().told().cwd(), pane.program().pid())
    }

    /// At most `n` panes open at once (the config's `max_panes`).
    pub fn set_max_panes(&mut self, n: usize) {
        self.max_panes = n.max(1);
    }

    /// Whether one more pane may open; if not, why, for the user.
    pub fn room_for_pane(&self) -> Result<(), String> {
        let open = self.len();
        if open < self.max_panes {
            return Ok(());
        }
        Err(format!(
            "{open} panes are open, the most there may be (max_panes): close one first"
        ))
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

    /// What pane `id`'s border shows: the title its program set, else the
    /// one the profile gave, else the program in its foreground or the
    /// directory its idle shell is in, else its command.
    pub fn title(&self, id: PaneId) -> &str {
        let Some(member) = self.members.get(&id) else {
            return "";
        };
        let pane = &member.pane;
        pane.term()
            .told()
            .title()
            .or(member.title.as_deref())
            .or(member.name.as_ref().map(PaneName::long))
            .unwrap_or_else(|| pane.label())
    }

    /// The title the profile gave pane `id`, if any (saved with it).
    pub fn given_title(&self, id: PaneId) -> Option<&str> {
        self.members.get(&id).and_then(|m| m.title.as_deref())
    }

    /// Pane `id`'s directory and git branch, as last looked up.
    pub fn place(&self, id: PaneId) -> Option<&PanePlace> {
        self.members.get(&id).and_then(|m| m.place.as_ref())
    }

    /// Pane `id`'s directory as last looked up, else the one it started
    /// in: asks the system nothing.
    pub fn known_dir(&self, id: PaneId) -> Option<PathBuf> {
        let member = self.members.get(&id)?;
        (member.dir.clone()).or_else(|| member.pane.spec.cwd.clone())
    }

    /// The job the pane's shell runs in the foreground, as last looked up
    /// (off the loop).
    pub fn job(&self, id: PaneId) -> Option<&Job> {
        self.members.get(&id).and_then(|m| m.job.as_ref())
    }

    /// Whether the pane's output may be written to disk (not `save =
    /// false`, not `tilework run --no-save`).
    pub fn history_saved(&self, id: PaneId) -> bool {
        self.members.get(&id).is_some_and(|m| !m.unsaved)
    }

    /// Types `text` into pane `id` once its program first prints: typed
    /// earlier, a terminal in its cooked mode would echo it before the
    /// prompt.
    pub fn type_at_prompt(&mut self, id: PaneId, text: Vec<u8>) {
        if let Some(member) = self.members.get_mut(&id) {
            member.typed_ahead = Some(text);
        }
    }

    /// Pane `id` printed: what waits to be typed into it is typed.
    pub fn pane_printed(&mut self, id: PaneId) {
        if let Some(member) = self.members.get_mut(&id)
            && let Some(text) = member.typed_ahead.take()
            && !member.pane.program().send_owned(text)
        {
            tracing::warn!(?id, "the restored job could not be typed");
        }
    }

    /// The id scripts know pane `id` by: the same across its command's
    /// restarts.
    pub fn script_id(&self, id: PaneId) -> u32 {
        self.members.get(&id).map_or(id.0, |m| m.script_id)
    }

    /// The pane scripts know as `n` (see [`Panes::script_id`]).
    pub fn by_script_id(&self, n: u32) -> Option<PaneId> {
        self.members
            .iter()
            .find(|(_, m)| m.script_id == n)
            .map(|(id, _)| *id)
    }
}
