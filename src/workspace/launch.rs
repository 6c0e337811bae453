//! Starting panes: the ways a new one joins the workspace: a row of them in a new tab, a split, a tab of
//! its own, floating (a scratch shell, the history editor), or panes made
//! elsewhere (render tests). Profiles open through
//! `profile_open`.

use crate::config::profile::RestartPolicy;
use crate::pane::{Pane, PaneId};
use crate::workspace::history_editor;
use crate::workspace::layout::{Axis, Layout};
use crate::workspace::pane_launch::PaneLaunch;
use crate::workspace::tab::Tab;
use crate::workspace::{Workspace, content_rect};

impl Workspace {
    /// Opens one tab whose panes run `launches` side by side.
    pub fn open_row(&mut self, launches: Vec<PaneLaunch>) {
        let ids: Vec<PaneId> = launches.iter().map(|_| self.panes.alloc_id()).collect();
        let Some(layout) = Layout::even(Axis::Horizontal, &ids) else {
            return;
        };
        let rects = layout.rects(self.tiling.tiles());
        self.tabs.push(Tab::new(None, layout, ids[0]));
        for (id, launch) in ids.into_iter().zip(launches) {
            let rect = rects
                .iter()
                .find(|(p, _)| *p == id)
                .map_or(self.tiling.tiles(), |r| r.1);
            self.panes
                .start(id, launch, self.tiling.frame.content(rect));
        }
    }

    /// Splits the focused pane (a tiled one) along `axis`; the new pane,
    /// focused, runs `launch`. Returns its id.
    pub fn split_with(&mut self, axis: Axis, launch: PaneLaunch) -> Option<PaneId> {
        self.panes.room_for_pane().ok()?;
        self.tabs.shown()?;
        let id = self.panes.alloc_id();
        let tiles = self.tiling.tiles();
        let rect = self.tabs.shown_mut()?.split_focused(axis, id, tiles)?;
        self.panes
            .start(id, launch, self.tiling.frame.content(rect));
        self.relayout_tab(self.tabs.active);
        Some(id)
    }

    /// Opens a tab, shown, whose one pane runs `launch`. Returns its id.
    pub fn new_tab_with(&mut self, launch: PaneLaunch) -> Option<PaneId> {
        self.panes.room_for_pane().ok()?;
        let id = self.panes.alloc_id();
        self.tabs.push(Tab::new(None, Layout::new(id), id));
        self.panes
            .start(id, launch, self.tiling.frame.content(self.tiling.tiles()));
        Some(id)
    }

    /// Opens a pane running `launch` floating on top of the shown tab,
    /// focused. Returns its id.
    pub fn open_floating(&mut self, launch: PaneLaunch) -> Option<PaneId> {
        self.panes.room_for_pane().ok()?;
        let area = self.tiling.area;
        let id = self.panes.alloc_id();
        let rect = self.tabs.shown_mut()?.float_new(id, area);
        self.panes.start(id, launch, content_rect(rect));
        Some(id)
    }

    /// Opens the user's editor on `file` (pane `from`'s history) in a new
    /// floating pane, which owns the file: it is removed when the pane
    /// closes. The pane closes when the editor exits.
    pub fn open_history_editor(
        &mut self,
        from: PaneId,
        file: tempfile::TempPath,
    ) -> Option<PaneId> {
        let editor = history_editor::from_env();
        let cwd = self.panes.dir(from);
        let (spec, _) = self
            .panes
            .spawner
            .settings
            .env
            .argv(&history_editor::argv(&editor, &file), cwd);
        let mut launch = PaneLaunch::new(spec, editor);
        launch.keep_open = Some(false);
        let id = self.open_floating(launch)?;
        if let Some(member) = self.panes.members.get_mut(&id) {
            member.file = Some(file);
        }
        Some(id)
    }

    /// Opens a tab over panes made elsewhere, e.g. [`Pane::detached`] ones
    /// fed by hand in benches and render tests. Focus goes to the layout's
    /// first pane.
    pub fn open_tab_of(&mut self, name: &str, layout: Layout, panes: Vec<Pane>) {
        let Some(&first) = layout.panes().first() else {
            return;
        };
        for pane in panes {
            self.panes.insert(pane, None, RestartPolicy::Never);
        }
        self.tabs
            .push(Tab::new(Some(name.to_string()), layout, first));
    }
}

/// A pane made elsewhere floats (render tests).
#[cfg(test)]
impl Workspace {
    /// Floats a pane made elsewhere (a [`Pane::detached`] one) over the
    /// shown tab, like [`Self::open_floating`].
    pub fn open_floating_of(&mut self, mut pane: Pane) {
        let area = self.tiling.area;
        let Some(tab) = self.tabs.shown_mut() else {
            return;
        };
        let rect = tab.float_new(pane.id, area);
        let inner = content_rect(rect);
        pane.resize(inner.height, inner.width);
        self.panes.insert(pane, None, RestartPolicy::Never);
    }
}
