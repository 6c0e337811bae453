//! [`Tabs`]: the workspace's list of tabs, which one is shown, and which
//! was shown before it (`C-b l`, tmux's last-window): showing, renaming,
//! marking and moving tabs, each tab's focus remembered (`C-b ;`), and a
//! terminal's [`View`] of them.
//!
//! Tabs hold pane ids, not panes: whatever changes a tab's geometry is the
//! workspace's, which resizes the panes after (`relayout_tab`).
//!
//! Tabs are remembered by serial, not place, so moving or closing tabs
//! never makes `last-tab` show a different tab than the one left.

use std::ops::Deref;

use crate::config::action::Action;
use crate::pane::PaneId;
use crate::workspace::Panes;
use crate::workspace::layout::{Axis, Layout};
use crate::workspace::tab::{Serials, Tab};
use crate::workspace::view::View;

/// Every tab, in the status bar's order, and which one is shown.
#[derive(Default)]
pub struct Tabs {
    pub(super) list: Vec<Tab>,
    /// The shown tab's place in `list`.
    pub(super) active: usize,
    /// The tab shown before the one shown now, by serial (`last-tab`).
    pub(super) last: Option<u64>,
    /// Serials for the tabs to come.
    pub(super) serials: Serials,
}

/// The shown tab's serial and its focused pane, before a change.
#[derive(Debug, Clone, Copy)]
pub(super) struct FocusMark {
    tab: u64,
    pane: PaneId,
}

/// The tabs read as a slice (`tabs.len()`, `tabs[i]`, `tabs.iter()`);
/// changes go through [`Tabs`]' methods.
impl Deref for Tabs {
    type Target = [Tab];

    fn deref(&self) -> &[Tab] {
        &self.list
    }
}

impl Tabs {
    /// The tab shown.
    pub fn shown(&self) -> Option<&Tab> {
        self.list.get(self.active)
    }

    pub(super) fn shown_mut(&mut self) -> Option<&mut Tab> {
        self.list.get_mut(self.active)
    }

    /// The name tab `index` shows: the one it was given, else what its
    /// focused pane runs (program, or directory when the shell is idle),
    /// as last looked up in `panes`, else the pane's command.
    pub fn name(&self, index: usize, panes: &Panes) -> String {
        let Some(tab) = self.list.get(index) else {
            return String::new();
        };
        if let Some(name) = &tab.name {
            return name.clone();
        }
        match panes.members.get(&tab.focus) {
            Some(member) => match &member.name {
                Some(name) => name.short().to_string(),
                None => member.pane.label().to_string(),
            },
            None => (index + 1).to_string(),
        }
    }

    /// The shown tab's place in the list.
    pub fn active(&self) -> usize {
        self.active
    }

    /// The shown tab's focused pane.
    pub fn focused_id(&self) -> Option<PaneId> {
        self.shown().map(|t| t.focus)
    }

    /// Position of the focused pane in its tab (1-based) and the tab's size.
    pub fn focus_position(&self) -> (usize, usize) {
        self.shown().map_or((0, 0), Tab::focus_position)
    }

    /// Whether pane `id` floats (its frame is always a box).
    pub fn is_floating(&self, id: PaneId) -> bool {
        self.list.iter().any(|t| t.floats.contains(id))
    }

    /// Which tab holds pane `id`.
    pub fn index_of(&self, id: PaneId) -> Option<usize> {
        self.list.iter().position(|t| t.holds(id))
    }

    /// The place in the list of the tab with `serial`.
    pub fn index_of_serial(&self, serial: u64) -> Option<usize> {
        self.list.iter().position(|t| t.serial == serial)
    }

    /// The serial of the tab shown now.
    pub fn shown_serial(&self) -> Option<u64> {
        self.shown().map(|t| t.serial)
    }

    /// The tab shown before the shown one (tmux's last window), by
    /// serial, if it is still open: what `last-tab` goes to.
    pub fn last_serial(&self) -> Option<u64> {
        self.last
            .filter(|&serial| self.index_of_serial(serial).is_some())
    }

    /// Shows tab `index`; it is no longer marked for activity or a bell.
    pub fn select(&mut self, index: usize) -> bool {
        if index >= self.list.len() || index == self.active {
            return false;
        }
        self.active = index;
        if let Some(tab) = self.list.get_mut(index) {
            tab.activity = false;
            tab.bell = false;
        }
        true
    }

    /// Shows the tab `step` tabs away, round the ends.
    pub(super) fn select_by(&mut self, step: isize) -> bool {
        let n = self.list.len().max(1) as isize;
        let index = (self.active as isize + step).rem_euclid(n) as usize;
        self.select(index)
    }

    /// Shows the tab shown before this one.
    pub(super) fn show_last(&mut self) -> bool {
        match self.last_serial().and_then(|s| self.index_of_serial(s)) {
            Some(index) => self.select(index),
            None => false,
        }
    }

    /// Renames the shown tab (an empty name gives back the automatic one).
    pub fn rename_shown(&mut self, name: &str) -> bool {
        let name = crate::sanitize::sanitize_title(name.trim().as_bytes());
        self.shown_mut().is_some_and(|tab| tab.rename(name))
    }

    /// Renames tab `index` (an empty name gives back the automatic one).
    pub fn rename_at(&mut self, index: usize, name: &str) -> bool {
        let name = crate::sanitize::sanitize_title(name.trim().as_bytes());
        self.list.get_mut(index).is_some_and(|tab| tab.rename(name))
    }

    /// Marks a pane's tab for the status bar when it is not the one shown.
    /// Returns whether the tab's markers changed.
    pub fn note_activity(&mut self, id: PaneId, bell: bool) -> bool {
        let active = self.active;
        match self.list.iter_mut().enumerate().find(|(_, t)| t.holds(id)) {
            Some((i, tab)) if i != active => tab.mark(bell),
            _ => false,
        }
    }

    /// Adds `tab` at the end, shown.
    pub(super) fn push(&mut self, tab: Tab) {
        self.add(tab);
        self.active = self.list.len() - 1;
    }

    /// Adds `tab` at the end, with a serial of its own.
    pub(super) fn add(&mut self, mut tab: Tab) {
        self.serials.name(&mut tab);
        self.list.push(tab);
    }

    /// Removes tab `index` (its panes are gone already); the tab shown
    /// stays shown, or the one before it is. Returns whether any tab is
    /// left.
    pub(super) fn remove(&mut self, index: usize) -> bool {
        self.list.remove(index);
        if self.list.is_empty() {
            return false;
        }
        if self.active > index || self.active >= self.list.len() {
            self.active = self.active.saturating_sub(1);
        }
        true
    }

    /// Moves the shown tab to place `to` (0-based) of the list, still
    /// shown. False when it is there already or `to` is past the end.
    pub fn move_shown_to(&mut self, to: usize) -> bool {
        let from = self.active;
        if to >= self.list.len() || to == from {
            return false;
        }
        let tab = self.list.remove(from);
        self.list.insert(to, tab);
        self.active = to;
        true
    }

    /// The focused pane (a tiled one, not its tab's only one) gets a tab
    /// of its own, shown. Returns the tab it left; both tabs' panes are
    /// to follow their new rectangles.
    pub(super) fn break_focused(&mut self) -> Option<usize> {
        let from = self.active;
        let tab = self.shown_mut()?;
        let id = tab.focus;
        if !tab.take_tiled(id) {
            return None;
        }
        self.push(Tab::new(None, Layout::new(id), id));
        Some(from)
    }

    /// The focused pane joins the next tab, split beside its focus, and
    /// that tab is shown; a tab left without panes goes. Returns the tab
    /// left (unless it went) and the one joined, whose panes are to
    /// follow their new rectangles.
    pub(super) fn move_focused_to_next(&mut self) -> Option<(Option<usize>, usize)> {
        if self.list.len() < 2 {
            return None;
        }
        let from = self.active;
        let id = self.focused_id()?;
        let alone = self.shown().is_some_and(|t| t.layout.len() == 1);
        let mut to = (from + 1) % self.list.len();
        if alone {
            self.list.remove(from);
            if to > from {
                to -= 1;
            }
        } else if !self.shown_mut().is_some_and(|tab| tab.take_tiled(id)) {
            return None;
        }
        let tab = self.list.get_mut(to)?;
        let target = tab.focus;
        tab.layout.split(target, Axis::Horizontal, id);
        tab.focus = id;
        tab.zoomed = false;
        self.active = to;
        Some(((!alone).then_some(from), to))
    }

    pub(super) fn where_focus_is(&self) -> Option<FocusMark> {
        self.shown().map(|t| FocusMark {
            tab: t.serial,
            pane: t.focus,
        })
    }

    /// After a change: the tab or pane left is the one to go back to.
    /// One that is gone (a tab closed, a pane not `open`) is not
    /// remembered.
    pub(super) fn remember_focus(
        &mut self,
        before: Option<FocusMark>,
        open: impl Fn(PaneId) -> bool,
    ) {
        let Some(before) = before else {
            return;
        };
        let tab_left = self.index_of_serial(before.tab).is_some();
        let pane_left = open(before.pane);
        let Some(tab) = self.shown_mut() else {
            return;
        };
        if tab.serial != before.tab {
            if tab_left {
                self.last = Some(before.tab);
            }
        } else if tab.focus != before.pane && pane_left && tab.holds(before.pane) {
            tab.last_focus = Some(before.pane);
        }
    }

    /// What a terminal looking at the tabs now sees.
    pub fn view(&self) -> View {
        View {
            tab: self.shown_serial(),
            last_tab: self.last,
            focus: self
                .list
                .iter()
                .map(|t| (t.serial, t.focus, t.last_focus))
                .collect(),
        }
    }

    /// Shows `view`: its tab (if still open) and, in each tab still open,
    /// its focused pane (if still in that tab). Sizes do not change.
    pub fn show_view(&mut self, view: &View) {
        if let Some(at) = view.tab.and_then(|serial| self.index_of_serial(serial)) {
            self.active = at;
        }
        self.last = view.last_tab;
        for &(serial, focus, last) in &view.focus {
            if let Some(tab) = self.list.iter_mut().find(|t| t.serial == serial) {
                if tab.holds(focus) {
                    tab.focus = focus;
                }
                tab.last_focus = last.filter(|id| tab.holds(*id));
            }
        }
    }

    /// Whether `action` would open a pane (see `pane_limit`).
    pub fn opens_pane(&self, action: Action) -> bool {
        match action {
            Action::SplitRight
            | Action::SplitDown
            | Action::NewTab
            | Action::NewFloating
            // The editor opens in a pane of its own.
            | Action::EditScrollback
            | Action::EditLastOutput => true,
            // With no floating pane yet, it opens one.
            Action::ToggleFloating => self.shown().is_some_and(|t| t.floats.is_empty()),
            _ => false,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Tabs of one pane each, ids 1..=n, the first shown.
    fn tabs(n: u32) -> Tabs {
        let mut tabs = Tabs::default();
        for id in 1..=n {
            tabs.push(Tab::new(None, Layout::new(PaneId(id)), PaneId(id)));
        }
        tabs.active = 0;
        tabs
    }

    #[test]
    fn showing_a_tab_clears_its_marks_and_steps_wrap_round() {
        let mut t = tabs(3);
        assert!(t.note_activity(PaneId(3), true));
        assert!(
            !t.note_activity(PaneId(1), false),
            "the shown tab is not marked"
        );
        assert!(t.select_by(-1));
        assert_eq!(t.active(), 2);
        assert!(!t[2].bell && !t[2].activity);
        assert!(!t.select(2), "already shown");
        assert!(!t.select(3), "past the end");
        assert!(t.select_by(1));
        assert_eq!(t.focused_id(), Some(PaneId(1)));
    }

    #[test]
    fn last_tab_follows_a_tab_moved_and_forgets_one_closed() {
        let mut t = tabs(3);
        let before = t.where_focus_is();
        t.select(2);
        t.remember_focus(before, |_| true);
        let first = t[0].serial;
        assert_eq!(t.last_serial(), Some(first));
        // The shown tab moves to the front: the one left is now second.
        assert!(t.move_shown_to(0));
        assert_eq!(t.active(), 0);
        assert!(t.show_last());
        assert_eq!(t.shown_serial(), Some(first));
        // The tab to go back to closes: nothing to go back to.
        let before = t.where_focus_is();
        t.select(2);
        t.remember_focus(before, |_| true);
        assert!(t.remove(1));
        assert_eq!(t.last_serial(), None);
        assert!(!t.show_last());
    }

    #[test]
    fn removing_a_tab_keeps_the_shown_one_shown() {
        let mut t = tabs(3);
        t.select(2);
        let shown = t.shown_serial();
        assert!(t.remove(0));
        assert_eq!(t.shown_serial(), shown);
        assert!(t.remove(1), "the shown tab goes: the one before it shows");
        assert_eq!(t.active(), 0);
        assert!(!t.remove(0), "no tab is left");
    }

    #[test]
    fn a_view_comes_back_without_what_closed_meanwhile() {
        let mut t = tabs(2);
        t.list[1]
            .layout
            .split(PaneId(2), Axis::Horizontal, PaneId(9));
        t.list[1].focus = PaneId(9);
        t.select(1);
        let view = t.view();
        t.select(0);
        t.list[1].layout.remove(PaneId(9));
        t.list[1].focus = PaneId(2);
        t.show_view(&view);
        assert_eq!(t.active(), 1);
        assert_eq!(t.focused_id(), Some(PaneId(2)), "pane 9 is gone");
    }

    #[test]
    fn renaming_sanitizes_and_an_empty_name_gives_the_automatic_one_back() {
        let mut t = tabs(2);
        assert!(t.rename_at(1, "  logs\u{1b}[31m "));
        assert_eq!(t[1].name.as_deref(), Some("logs[31m"));
        assert!(t.rename_at(1, ""));
        assert_eq!(t[1].name, None);
        assert!(!t.rename_at(5, "x"));
    }
}
