//! [`Panes`]: the workspace's pane table, the most panes there may be,
//! and its [`Spawner`] (what every pane is started with: the launcher,
//! the settings and environment, the terminal's colours, the picture
//! store). Which tab a
//! pane is in and which has the focus are the workspace's; what a pane is
//! and runs is here.
//!
//! Also here, because they live in each pane's [`Member`]: what was last
//! learnt of a pane (its name, directory, job) and what a restored pane
//! waits to have typed at its prompt (tmux-resurrect's way).

use std::collections::BTreeMap;
use std::path::PathBuf;

use std::time::Instant;

use ratatui::layout::Rect;

use crate::config::profile::RestartPolicy;
use crate::pane::event::PaneMailbox;
use crate::pane::program::process::Launcher;
use crate::pane::program::spawn::current_dir;
use crate::pane::term::attached_facts::AttachedFacts;
use crate::pane::{Pane, PaneId};
use crate::workspace::cwd::PanePlace;
use crate::workspace::foreground::Job;
use crate::workspace::member::Member;
use crate::workspace::names::Names;
use crate::workspace::naming::PaneName;
use crate::workspace::pane_launch::PaneLaunch;
use crate::workspace::spawner::{Spawner, WorkspaceSettings};
use crate::workspace::tmux_env;

/// Every pane of every tab, by id, and how new ones start.
pub struct Panes {
    pub(super) members: BTreeMap<PaneId, Member>,
    pub(super) next_id: u32,
    /// The most panes open at once (see [`Panes::room_for_pane`]).
    max_panes: usize,
    /// When and how to look at what the panes run (see `pane_names`).
    pub(super) names: Names,
    /// What new panes start with.
    pub(super) spawner: Spawner,
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
            max_panes: crate::config::profile::MAX_PANES,
            names: Names::new(),
            spawner: Spawner::new(settings, events, launcher),
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

    /// What new panes start with.
    pub fn spawner(&self) -> &Spawner {
        &self.spawner
    }

    pub fn spawner_mut(&mut self) -> &mut Spawner {
        &mut self.spawner
    }

    /// Takes in a started pane, with what to do when its program ends.
    pub(super) fn insert(
        &mut self,
        mut pane: Pane,
        keep_open: Option<bool>,
        restart: RestartPolicy,
    ) {
        // Panes made elsewhere (see `open_tab_of`) keep their ids.
        self.next_id = self.next_id.max(pane.id.0.saturating_add(1));
        // Its pictures from now on are the workspace's (a pane comes here
        // before its program's output is fed).
        pane.set_pictures(self.spawner.pictures());
        self.members
            .insert(pane.id, Member::new(pane, keep_open, restart));
    }

    /// Starts pane `id` running `launch`, with content area `inner`.
    pub(super) fn start(&mut self, id: PaneId, mut launch: PaneLaunch, inner: Rect) {
        // A respawn set the id it keeps already.
        let script_id = self.spawner.wanted_ids.next_script_id(id);
        let tmux = self.spawner.tmux_identity();
        tmux_env::add_pane_vars(tmux, &mut launch.spec, script_id);
        let pane = self.spawner.spawn(id, launch.spec, launch.label, inner);
        self.insert(pane, launch.keep_open, launch.restart);
        if let Some(member) = self.members.get_mut(&id) {
            member.title = launch.title;
            member.unsaved = launch.unsaved;
            member.script_id = script_id;
        }
    }

    /// Programs are told `facts` of the attached terminals, in every pane
    /// and every pane opened later.
    pub fn set_attached_facts(&mut self, facts: AttachedFacts) {
        if self.take_attached_facts(facts) {
            for pane in self.iter_mut() {
                pane.cell_pixels_changed();
            }
        }
    }

    /// [`Panes::set_attached_facts`] but for the programs' size in pixels:
    /// returns whether the cell changed, and the caller tells each program
    /// once, by resizing its pane or with `Pane::cell_pixels_changed` (a
    /// terminal resized in cells and pixels at once: one SIGWINCH each, at
    /// the new size, rather than one at the old size first).
    pub fn take_attached_facts(&mut self, facts: AttachedFacts) -> bool {
        let cell = facts.reach.cell_pixels();
        let new_cell = self.spawner.attached_facts.reach.cell_pixels() != cell;
        self.spawner.attached_facts = facts;
        for pane in self.iter_mut() {
            pane.term_mut().set_attached_facts(facts);
            pane.history_mut().set_picture_reach(facts.reach);
        }
        new_cell
    }

    /// A terminal told its theme (mode 2031): the programs that
    /// subscribed hear it.
    pub fn terminal_theme_changed(&self) {
        for pane in self.iter() {
            pane.theme_changed();
        }
    }

    /// Scrolls a pane's history by `rows` (positive: back in time).
    pub fn scroll(&mut self, id: PaneId, rows: isize) {
        let events = self.spawner.events();
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

    /// Pane `id`'s output is no longer written to disk, as if it had been
    /// opened with `--no-save` (a remote pane's: the local workspace saves
    /// it).
    pub fn stop_saving_history(&mut self, id: PaneId) {
        if let Some(member) = self.members.get_mut(&id) {
            member.unsaved = true;
        }
    }

    /// Types `text` into pane `id` once its program first prints: typed
    /// earlier, a terminal in its cooked mode would echo it before the
    /// prompt.
    pub fn type_at_prompt(&mut self, id: PaneId, text: Vec<u8>) {
        if let Some(member) = self.members.get_mut(&id) {
            member.typed_ahead = Some(text);
        }
    }

    /// Sets the title tmux's `select-pane -T` gives (a title the program
    /// sets still wins, as in tmux after it).
    pub fn set_title(&mut self, id: PaneId, title: &str) -> bool {
        let title = crate::sanitize::sanitize_title(title.as_bytes());
        match self.members.get_mut(&id) {
            Some(member) => {
                member.title = Some(title);
                member.pane.term_mut().name_changed();
                true
            }
            None => false,
        }
    }

    /// When the next ended command pane is due to start again, for the
    /// loop's wait.
    pub fn next_restart(&self) -> Option<Instant> {
        self.members.values().filter_map(|m| m.restart_at).min()
    }

    /// The command panes whose restart is due at `now`, with their
    /// failures in a row; each is no longer due (a restart that cannot
    /// happen is not due again on every wake-up).
    pub(super) fn take_due_restarts(&mut self, now: Instant) -> Vec<(PaneId, u32)> {
        self.members
            .iter_mut()
            .filter(|(_, m)| m.restart_at.is_some_and(|at| at <= now))
            .map(|(id, m)| {
                m.restart_at = None;
                (*id, m.failures)
            })
            .collect()
    }

    /// Ends every program at once (quitting).
    pub fn kill_all(&self) {
        for pane in self.iter() {
            pane.program().kill_now();
        }
        // Including panes closed moments ago and still in their grace period.
        self.spawner.launcher.kill_all();
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;

    use crate::graphics::picture_store::ImageId;
    use crate::pane::event::PaneEvent;
    use crate::workspace::Workspace;
    use crate::workspace::fake_workspace::one_pane;

    /// The focused pane's program prints `bytes`.
    fn print(ws: &mut Workspace, bytes: &[u8]) {
        let id = ws.tabs().focused_id().unwrap();
        ws.panes_mut().get_mut(id).unwrap().feed(bytes.to_vec());
    }

    /// Kitty's `a=T` of an RGB picture of 20 x 40 pixels of one `shade`,
    /// under the program's `i=5`.
    fn picture(shade: u8) -> Vec<u8> {
        let data = STANDARD.encode(vec![shade; 20 * 40 * 3]);
        format!("\x1b_Ga=T,f=24,s=20,v=40,i=5,q=2;{data}\x1b\\").into_bytes()
    }

    /// The shade of the picture `id` in the workspace's store, if kept.
    fn shade(ws: &Workspace, id: ImageId) -> Option<u8> {
        let store = ws.panes().spawner().pictures().lock();
        store.image(id).map(|image| image.pixels()[0])
    }

    #[test]
    fn two_workspaces_keep_their_pictures_apart() {
        let (mut one, _) = one_pane("sh");
        let (mut two, _) = one_pane("sh");
        print(&mut one, &picture(1));
        print(&mut two, &picture(2));
        // The first picture each store keeps: the same id, each its own.
        assert_eq!(shade(&one, ImageId(1)), Some(1));
        assert_eq!(shade(&two, ImageId(1)), Some(2));
        for ws in [&one, &two] {
            let store = ws.panes().spawner().pictures().lock();
            assert_eq!(store.used(), 20 * 40 * 4, "one picture each");
        }

        // The program in one deletes its picture: the other's stays.
        print(&mut one, b"\x1b_Ga=d,d=I,i=5,q=2\x1b\\");
        assert_eq!(shade(&one, ImageId(1)), None);
        assert_eq!(shade(&two, ImageId(1)), Some(2));
    }

    /// A sixel picture of 20 x 40 pixels (2 x 3 cells of 10 x 20).
    fn sixel() -> Vec<u8> {
        let mut out = b"\x1bPq\"1;1;20;40#1;2;50;0;0#1".to_vec();
        for band in 0..7 {
            if band > 0 {
                out.push(b'-');
            }
            out.extend_from_slice(b"!20~");
        }
        out.extend_from_slice(b"\x1b\\");
        out
    }

    #[test]
    fn a_pane_scrolled_back_shows_the_pictures_the_workspace_keeps() {
        let (mut ws, _) = one_pane("sh");
        print(
            &mut ws,
            &[b"above\r\n".as_slice(), &sixel(), b"\r\nbelow\r\n"].concat(),
        );
        let id = ws.tabs().focused_id().unwrap();
        let pane = ws.panes_mut().get_mut(id).unwrap();
        let (tx, rx) = crossbeam_channel::unbounded();
        pane.history_mut().scroll(1, &tx.into());
        match rx.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(PaneEvent::HistoryReady(_, window)) => pane.history_mut().history_ready(window),
            _ => panic!("no history replay"),
        }
        assert!(pane.history().is_scrolled());
        // Anchored again to the placement kept (placement 0 would keep
        // its place blank).
        let anchors = pane.screen().picture_anchors();
        assert!(!anchors.is_empty(), "the history shows the picture");
        let store = ws.panes().spawner().pictures().lock();
        assert!(
            anchors
                .iter()
                .all(|(_, _, a)| store.placement(a.placement).is_some()),
            "{anchors:?}"
        );
    }
}
