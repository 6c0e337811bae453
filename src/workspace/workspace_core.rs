//! The workspace: tabs of layout trees over a set of panes, which pane has
//! focus, and what every [`Action`] does to them.
//!
//! Knows nothing about the user's terminal: the render loop feeds it input
//! and output and draws it. Programs start through a [`Launcher`], so with a
//! fake one every behaviour is testable headless. Time comes in as an
//! argument: a restart is a deadline the loop waits for, not a timer thread.
//!
//! Here: the [`Workspace`] itself, its look-ups and sizes, the actions'
//! dispatch and the mouse's grips. Its parts are beside it: `tab`,
//! `launch` and `profile_open`, `pane_life`, `pane_names`.

use crate::pane::event::PaneMailbox;
use ratatui::layout::Rect;

use crate::config::action::{Action, RESIZE_STEP};
use crate::pane::Pane;
use crate::pane::PaneId;
use crate::pane::program::process::{Launcher, PtyLauncher};
use crate::workspace::attention::Attention;
use crate::workspace::ending::Ending;
use crate::workspace::history_editor;
use crate::workspace::layout::Axis;
use crate::workspace::pane_frame::PaneFrame;
use crate::workspace::panes::Panes;
use crate::workspace::spawner::WorkspaceSettings;
use crate::workspace::tab::Tab;
use crate::workspace::tabs::Tabs;
use crate::workspace::tiling::Tiling;

pub struct Workspace {
    /// The tabs, which is shown, and which was before.
    pub(super) tabs: Tabs,
    pub(super) panes: Panes,
    /// Where panes go and how they are framed.
    pub(super) tiling: Tiling,
    /// Whether the workspace is to end, and its exit status.
    pub(super) ending: Ending,
    /// Notifications and notices waiting to be seen.
    pub(super) attention: Attention,
    /// tmux's marked pane (`C-b m`, see `pane_mark`).
    pub(super) mark: crate::workspace::pane_mark::PaneMark,
}

impl Workspace {
    /// A workspace whose panes run programs on PTYs.
    pub fn new(settings: WorkspaceSettings, area: Rect, events: PaneMailbox) -> Self {
        let launcher = Box::new(PtyLauncher::new(events.clone()));
        Self::with_launcher(settings, area, events, launcher)
    }

    /// A workspace whose panes' programs start through `launcher`.
    pub fn with_launcher(
        settings: WorkspaceSettings,
        area: Rect,
        events: PaneMailbox,
        launcher: Box<dyn Launcher>,
    ) -> Self {
        Self {
            tabs: Tabs::default(),
            panes: Panes::new(settings, events, launcher),
            tiling: Tiling::new(area),
            ending: Ending::default(),
            attention: Attention::default(),
            mark: Default::default(),
        }
    }

    /// The pane table and how new panes start.
    pub fn panes(&self) -> &Panes {
        &self.panes
    }

    pub fn panes_mut(&mut self) -> &mut Panes {
        &mut self.panes
    }

    pub fn attention(&self) -> &Attention {
        &self.attention
    }

    pub fn attention_mut(&mut self) -> &mut Attention {
        &mut self.attention
    }

    /// Drops the focused pane's notification and those of panes gone.
    /// Returns whether the status bar changed.
    pub fn drop_seen_notifications(&mut self) -> bool {
        let focused = self.tabs.focused_id();
        let panes = &self.panes;
        self.attention
            .drop_seen(|id| Some(id) != focused && panes.get(id).is_some())
    }

    /// Where the panes go and how they are framed.
    pub fn tiling(&self) -> Tiling {
        self.tiling
    }

    /// Frames panes with boxes or dividers; every pane and its PTY follow.
    pub fn set_pane_frame(&mut self, frame: PaneFrame) {
        self.tiling.frame = frame;
        for tab in &self.tabs.list {
            self.tiling.fit(tab, &mut self.panes);
        }
    }

    /// The tabs and which is shown.
    pub fn tabs(&self) -> &Tabs {
        &self.tabs
    }

    /// Showing, renaming, moving tabs; what changes a tab's geometry is
    /// the workspace's own (its panes follow).
    pub fn tabs_mut(&mut self) -> &mut Tabs {
        &mut self.tabs
    }

    /// Whether the workspace is to end, and its exit status.
    pub fn ending(&self) -> &Ending {
        &self.ending
    }

    pub fn ending_mut(&mut self) -> &mut Ending {
        &mut self.ending
    }

    pub fn focused(&self) -> Option<&Pane> {
        self.tabs.focused_id().and_then(|id| self.panes.get(id))
    }

    /// The terminal changed size: every pane of every tab follows, PTY and
    /// parser alike.
    pub fn set_area(&mut self, area: Rect) {
        self.tiling.area = area;
        for tab in &mut self.tabs.list {
            tab.floats.fit(area);
        }
        for tab in &self.tabs.list {
            self.tiling.fit(tab, &mut self.panes);
        }
    }

    pub(super) fn relayout_tab(&mut self, index: usize) {
        if let Some(tab) = self.tabs.list.get(index) {
            self.tiling.fit(tab, &mut self.panes);
        }
    }

    /// The shown tab laid out at `area` (`client_views = "own"`: each tab
    /// at the size of the terminals showing it); the other tabs keep the
    /// sizes they were last shown at. Panes already at their size are not
    /// touched.
    pub fn set_shown_tab_area(&mut self, area: Rect) {
        self.tiling.area = area;
        let active = self.tabs.active;
        if let Some(tab) = self.tabs.list.get_mut(active) {
            tab.floats.fit(area);
        }
        self.relayout_tab(active);
    }

    /// Applies a workspace action. Returns whether the screen changed.
    pub fn apply(&mut self, action: Action) -> bool {
        let before = self.tabs.where_focus_is();
        let changed = self.apply_action(action);
        let panes = &self.panes;
        self.tabs
            .remember_focus(before, |id| panes.get(id).is_some());
        changed
    }

    fn apply_action(&mut self, action: Action) -> bool {
        match action {
            Action::SplitRight | Action::SplitDown => {
                let axis = match action {
                    Action::SplitRight => Axis::Horizontal,
                    _ => Axis::Vertical,
                };
                let launch = self.panes.spawner.shell_launch(self.focused());
                self.split_with(axis, launch).is_some()
            }
            Action::Focus(dir) | Action::Navigate(dir) => {
                let tiles = self.tiling.tiles();
                self.tabs
                    .shown_mut()
                    .is_some_and(|t| t.focus_towards(tiles, dir))
            }
            Action::FocusNext | Action::FocusPrev => {
                let step = if action == Action::FocusNext { 1 } else { -1 };
                let moved = self.tabs.shown_mut().is_some_and(|t| t.focus_cycle(step));
                self.refocused(moved)
            }
            Action::Resize(dir) => {
                let (tiles, screen) = (self.tiling.tiles(), self.tiling.area);
                self.with_tab_relayout(|t| t.resize_focused(tiles, screen, dir, RESIZE_STEP))
            }
            Action::ToggleZoom => self.with_tab_relayout(Tab::toggle_zoom),
            Action::ClosePane => match self.tabs.focused_id() {
                Some(id) => {
                    self.close_pane(id, None);
                    true
                }
                None => false,
            },
            Action::NewTab => {
                let launch = self.panes.spawner.shell_launch(self.focused());
                self.new_tab_with(launch).is_some()
            }
            Action::NextTab => self.tabs.select_by(1),
            Action::PrevTab => self.tabs.select_by(-1),
            Action::GoToTab(n) => self.tabs.select(usize::from(n).saturating_sub(1)),
            Action::ScrollPageUp | Action::ScrollPageDown => {
                let back = matches!(action, Action::ScrollPageUp);
                let Some(pane) = self.focused() else {
                    return false;
                };
                let page = pane.term().size().0.saturating_sub(1).max(1) as isize;
                let id = pane.id;
                self.panes.scroll(id, if back { page } else { -page });
                true
            }
            Action::Quit => {
                self.ending.quit(self.ending.quitting(&self.panes));
                true
            }
            Action::CloseTab => self.close_tab(self.tabs.active),
            Action::BreakPane => match self.tabs.break_focused() {
                Some(from) => {
                    self.relayout_tab(from);
                    self.relayout_tab(self.tabs.active);
                    true
                }
                None => false,
            },
            Action::MovePaneToNextTab => match self.tabs.move_focused_to_next() {
                Some((from, to)) => {
                    if let Some(from) = from {
                        self.relayout_tab(from);
                    }
                    self.relayout_tab(to);
                    true
                }
                None => false,
            },
            Action::MarkPane => {
                let focused = self.tabs.focused_id().map(|id| self.panes.script_id(id));
                self.mark.toggle(focused)
            }
            Action::ClearPaneMark => self.mark.clear(),
            Action::SwapNext => self.with_tab_relayout(|t| t.swap_focused(1)),
            Action::SwapPrev => self.with_tab_relayout(|t| t.swap_focused(-1)),
            Action::RotatePanes => self.with_tab_relayout(|tab| tab.layout.rotate()),
            Action::Layout(preset) => self.with_tab_relayout(|t| t.apply_preset(preset)),
            Action::NextLayout => self.with_tab_relayout(|t| t.apply_preset(t.next_preset())),
            Action::ToggleBroadcast => self.tabs.shown_mut().is_some_and(Tab::toggle_broadcast),
            Action::ClearHistory => {
                let id = self.tabs.focused_id();
                id.and_then(|id| self.panes.get_mut(id))
                    .map(|pane| pane.history_mut().forget_history())
                    .is_some()
            }
            Action::RestartPane => match self.tabs.focused_id() {
                Some(id) => self.respawn_pane(id, None, 0).is_some(),
                None => false,
            },
            // Handled by the input router / the loop: they need a prompt, the
            // copy buffer or the terminal.
            Action::ScrollMode
            | Action::ToggleHelp
            | Action::ToggleFps
            | Action::SendPrefix
            | Action::RenameTab
            | Action::PasteBuffer
            | Action::SearchBackward
            | Action::SearchAllPanes
            | Action::SaveProfile
            | Action::Detach
            | Action::ChooseWorkspace
            | Action::PrevWorkspace
            | Action::NextWorkspace
            | Action::DisplayPanes
            | Action::PaneInfo
            | Action::SelectTab
            | Action::MoveTab
            | Action::CommandPrompt
            | Action::RenameWorkspace
            | Action::SourceConfig
            | Action::CopyLastOutput
            | Action::EditLastOutput
            | Action::ChooseBuffer => false,
            Action::LastTab => self.tabs.show_last(),
            Action::LastPane => {
                let moved = self.tabs.shown_mut().is_some_and(Tab::focus_last);
                self.refocused(moved)
            }
            Action::MoveTabLeft => self.tabs.move_shown_to(self.tabs.active.wrapping_sub(1)),
            Action::MoveTabRight => self.tabs.move_shown_to(self.tabs.active + 1),
            Action::ToggleFloating => match self.tabs.shown() {
                // With no floating pane yet, a scratch shell opens floating.
                Some(tab) if tab.floats.is_empty() => {
                    let launch = self.panes.spawner.shell_launch(self.focused());
                    self.open_floating(launch).is_some()
                }
                _ => self.tabs.shown_mut().is_some_and(Tab::toggle_floats_shown),
            },
            Action::NewFloating => {
                let launch = self.panes.spawner.shell_launch(self.focused());
                self.open_floating(launch).is_some()
            }
            Action::ToggleEmbed => {
                let area = self.tiling.area;
                self.with_tab_relayout(|t| t.toggle_embed(area))
            }
            Action::MoveFloating(dir) => {
                let area = self.tiling.area;
                self.tabs
                    .shown_mut()
                    .is_some_and(|t| t.move_floating(dir, area))
            }
            Action::TogglePin => self.tabs.shown_mut().is_some_and(Tab::toggle_pin),
            Action::EditScrollback => {
                if let Some(pane) = self.focused() {
                    let spawner = &self.panes.spawner;
                    history_editor::start(pane, spawner.editor_ansi, &spawner.events);
                }
                // The editor opens when the file is written.
                false
            }
        }
    }

    /// The focus moved in the shown tab (if `moved`): a zoomed tab keeps
    /// its zoom on the newly focused tiled pane (like tmux -Z). Returns
    /// `moved`.
    fn refocused(&mut self, moved: bool) -> bool {
        if moved && self.tabs.shown().is_some_and(|t| t.zoomed) {
            self.relayout_tab(self.tabs.active);
        }
        moved
    }

    /// Focuses the pane at a screen position (mouse click).
    pub fn focus_at(&mut self, x: u16, y: u16) -> Option<PaneId> {
        let tiles = self.tiling.tiles();
        let before = self.tabs.where_focus_is();
        let id = self.tabs.shown_mut()?.focus_at(tiles, x, y);
        let panes = &self.panes;
        self.tabs
            .remember_focus(before, |id| panes.get(id).is_some());
        id
    }

    /// Focuses pane `id` if the shown tab holds it.
    pub fn focus_pane(&mut self, id: PaneId) {
        let before = self.tabs.where_focus_is();
        if let Some(tab) = self.tabs.shown_mut() {
            tab.reveal(id);
        }
        let panes = &self.panes;
        self.tabs
            .remember_focus(before, |id| panes.get(id).is_some());
        // A zoomed tab shows the newly focused pane at the zoom's size.
        self.refocused(true);
    }
}
