//! Tabs: a [`Tab`] is one split tree, the panes floating over it and
//! which pane has the focus, with what the focus and layout actions do to
//! it. The workspace's list of tabs is [`Tabs`](crate::workspace::Tabs).
//!
//! A tab holds pane ids, not panes: the workspace owns the panes and
//! resizes them after a tab's geometry changed (`relayout_tab`).

use ratatui::layout::Rect;

use crate::config::action::{Direction, Preset, RESIZE_STEP};
use crate::pane::PaneId;
use crate::workspace::floating::{self, Floats};
use crate::workspace::layout::{Axis, Layout};

pub struct Tab {
    /// The name the user (`prefix ,`) or the profile gave; `None`: named
    /// after its focused pane (see [`Tabs::name`](crate::workspace::Tabs::name)).
    pub name: Option<String>,
    pub layout: Layout,
    pub focus: PaneId,
    pub zoomed: bool,
    /// Keys typed go to every pane of the tab.
    pub broadcast: bool,
    /// The last preset applied, so `next-layout` cycles from it.
    pub preset: Option<Preset>,
    /// A pane of this tab printed while the tab was not shown.
    pub activity: bool,
    /// A pane of this tab rang the bell while the tab was not shown.
    pub bell: bool,
    /// Panes over the layout (`C-b w`).
    pub floats: Floats,
    /// Which tab this is, whatever its place in the list (for `last-tab`).
    pub serial: u64,
    /// The pane focused before the focus moved to this one (`last-pane`).
    pub last_focus: Option<PaneId>,
}

/// Hands out [`Tab::serial`]s: unique among a workspace's tabs (kept by
/// its `Tabs`), from 1 (0 names no tab).
#[derive(Debug)]
pub struct Serials {
    next: u64,
}

impl Default for Serials {
    fn default() -> Self {
        Self { next: 1 }
    }
}

impl Serials {
    /// The serial the next tab gets.
    pub fn next(&self) -> u64 {
        self.next
    }

    /// New tabs' serials start at `next` or later (restored tabs keep
    /// theirs, see `stable_ids`).
    pub fn reserve(&mut self, next: u64) {
        self.next = self.next.max(next);
    }

    fn take(&mut self) -> u64 {
        let serial = self.next;
        self.next += 1;
        serial
    }

    /// Gives `tab` the next serial.
    pub fn name(&mut self, tab: &mut Tab) {
        tab.serial = self.take();
    }
}

impl Tab {
    pub fn new(name: Option<String>, layout: Layout, focus: PaneId) -> Self {
        Self {
            name,
            layout,
            focus,
            zoomed: false,
            broadcast: false,
            preset: None,
            activity: false,
            bell: false,
            floats: Floats::default(),
            // Given by the `Tabs` it joins.
            serial: 0,
            last_focus: None,
        }
    }

    /// Whether pane `id` is one of this tab's, tiled or floating.
    pub fn holds(&self, id: PaneId) -> bool {
        self.layout.contains(id) || self.floats.contains(id)
    }

    /// The focused tiled pane: the focus, or the one focused before a
    /// floating pane took it.
    pub fn tiled_focus(&self) -> PaneId {
        if self.layout.contains(self.focus) {
            return self.focus;
        }
        self.floats
            .tiled_focus
            .filter(|id| self.layout.contains(*id))
            .or_else(|| self.layout.panes().first().copied())
            .unwrap_or(self.focus)
    }

    fn floating_focused(&self) -> bool {
        self.floats.contains(self.focus)
    }

    /// The tiled panes on screen and their rectangles in `tiles`: the
    /// focused one over all of it when zoomed.
    pub(super) fn tiled_rects(&self, tiles: Rect) -> Vec<(PaneId, Rect)> {
        if self.zoomed {
            vec![(self.tiled_focus(), tiles)]
        } else {
            self.layout.rects(tiles)
        }
    }

    /// Every pane of the tab: the tiled ones, then the floating ones.
    pub(super) fn pane_ids(&self) -> Vec<PaneId> {
        let floating = self.floats.iter().map(|f| f.id);
        self.layout.panes().into_iter().chain(floating).collect()
    }

    /// Focuses pane `id` of this tab; a floating one comes to the top,
    /// and the tiled pane it takes the focus from is remembered.
    pub(super) fn focus_on(&mut self, id: PaneId) {
        if self.floats.contains(id) {
            if !self.floating_focused() {
                self.floats.tiled_focus = Some(self.focus);
            }
            self.floats.raise(id);
        }
        self.focus = id;
    }

    /// Focuses pane `id` if it is this tab's, showing the floating panes
    /// when it is a hidden one of them.
    pub(super) fn reveal(&mut self, id: PaneId) {
        if !self.holds(id) {
            return;
        }
        if self.floats.contains(id) && !self.floats.is_pinned(id) {
            self.floats.shown = true;
        }
        self.focus_on(id);
    }

    /// Focuses the pane focused before this one (`C-b ;`, a hidden
    /// floating one is shown). Returns whether the focus moved.
    pub(super) fn focus_last(&mut self) -> bool {
        match self.last_focus {
            Some(id) if id != self.focus && self.holds(id) => {
                self.reveal(id);
                true
            }
            _ => false,
        }
    }

    /// The nearest pane that way, in a tab whose layout tiles `tiles`.
    /// With floating panes on screen they count too, by where their boxes
    /// are (see [`floating::nearest_towards`]): from a tiled pane, its
    /// neighbour in the layout or a floating pane nearer that way; from a
    /// floating pane, another or a tiled pane beyond it.
    pub(super) fn focus_towards(&mut self, tiles: Rect, dir: Direction) -> bool {
        let floats: Vec<(PaneId, Rect, usize)> = self
            .floats
            .visible()
            .enumerate()
            .map(|(z, f)| (f.id, f.rect, z + 1))
            .collect();
        let tiled = self.tiled_rects(tiles);
        let next = if let Some(&(_, from, _)) = floats.iter().find(|f| f.0 == self.focus) {
            let others = floats.iter().copied().filter(|f| f.0 != self.focus);
            let under = tiled.iter().map(|&(id, rect)| (id, rect, 0));
            floating::nearest_towards(from, dir, others.chain(under))
        } else {
            let neighbour = if self.zoomed {
                None
            } else {
                self.layout.neighbor(tiles, self.focus, dir)
            };
            match tiled.iter().find(|t| t.0 == self.focus) {
                Some(&(_, from)) if !floats.is_empty() => {
                    let near = neighbour
                        .and_then(|n| tiled.iter().find(|t| t.0 == n))
                        .map(|&(id, rect)| (id, rect, 0));
                    floating::nearest_towards(from, dir, floats.into_iter().chain(near))
                }
                _ => neighbour,
            }
        };
        match next {
            Some(next) if next != self.focus => {
                self.focus_on(next);
                true
            }
            _ => false,
        }
    }

    /// Focuses the next pane: the tiled ones in reading order, then the
    /// floating ones on screen in the order they were opened (each comes
    /// to the top as it gets the focus, so the order stays put). Returns
    /// whether the focus moved.
    pub(super) fn focus_cycle(&mut self, step: isize) -> bool {
        let mut order = self.layout.panes();
        let mut floats: Vec<PaneId> = self.floats.visible().map(|f| f.id).collect();
        floats.sort();
        order.extend(floats);
        let Some(pos) = order.iter().position(|&p| p == self.focus) else {
            return false;
        };
        let n = order.len() as isize;
        let next = order[((pos as isize + step).rem_euclid(n)) as usize];
        if next == self.focus {
            return false;
        }
        self.focus_on(next);
        true
    }

    /// Focuses the pane at a screen position (mouse click) in a tab
    /// whose layout tiles `tiles`.
    pub(super) fn focus_at(&mut self, tiles: Rect, x: u16, y: u16) -> Option<PaneId> {
        // Floating panes are on top: they take the click first.
        if let Some(id) = self.floats.at(x, y) {
            self.focus_on(id);
            return Some(id);
        }
        if self.zoomed {
            return Some(self.focus);
        }
        let id = self.layout.pane_at(tiles, x, y)?;
        self.focus = id;
        Some(id)
    }

    /// Grows or shrinks the focused pane by `cells` that way: a floating
    /// one inside `screen`, a tiled one in a layout tiling `tiles`.
    pub(super) fn resize_focused(
        &mut self,
        tiles: Rect,
        screen: Rect,
        dir: Direction,
        cells: u16,
    ) -> bool {
        if self.floating_focused() {
            self.floats.resize_by(self.focus, dir, cells, screen)
        } else {
            !self.zoomed && self.layout.resize(tiles, self.focus, dir, cells)
        }
    }

    pub(super) fn toggle_zoom(&mut self) -> bool {
        if self.floating_focused() || (self.layout.len() < 2 && !self.zoomed) {
            return false;
        }
        self.zoomed = !self.zoomed;
        true
    }

    pub(super) fn toggle_broadcast(&mut self) -> bool {
        self.broadcast = !self.broadcast;
        true
    }

    pub(super) fn apply_preset(&mut self, preset: Preset) -> bool {
        let panes = self.layout.panes();
        match Layout::preset(preset, &panes, self.focus) {
            Some(layout) => {
                self.layout = layout;
                self.zoomed = false;
                self.preset = Some(preset);
                true
            }
            None => false,
        }
    }

    /// The preset after the last one applied.
    pub(super) fn next_preset(&self) -> Preset {
        self.preset.map_or(Preset::EvenHorizontal, Preset::next)
    }

    /// Swaps the focused pane with the one `step` away in reading order.
    pub(super) fn swap_focused(&mut self, step: isize) -> bool {
        let panes = self.layout.panes();
        let Some(pos) = panes.iter().position(|&p| p == self.focus) else {
            return false;
        };
        let n = panes.len() as isize;
        let other = panes[((pos as isize + step).rem_euclid(n)) as usize];
        other != self.focus && self.layout.swap(self.focus, other)
    }

    /// Splits the focused pane (a tiled one) along `axis` for pane `id`,
    /// which takes the focus. Returns its rectangle in `tiles`.
    pub(super) fn split_focused(&mut self, axis: Axis, id: PaneId, tiles: Rect) -> Option<Rect> {
        if !self.layout.split(self.focus, axis, id) {
            return None;
        }
        self.zoomed = false;
        self.focus = id;
        Some(self.layout.pane_rect(tiles, id).unwrap_or(tiles))
    }

    /// Puts pane `id` on top of the floating panes, placed in `area`,
    /// shown and focused. Returns its rectangle.
    pub(super) fn float_new(&mut self, id: PaneId, area: Rect) -> Rect {
        let rect = self.floats.place_new(area);
        self.floats.tiled_focus = Some(self.tiled_focus());
        self.floats.push(id, rect);
        self.floats.shown = true;
        self.focus = id;
        rect
    }

    /// Shows or hides the floating panes (there are some); the focus goes
    /// with them.
    pub(super) fn toggle_floats_shown(&mut self) -> bool {
        if self.floats.shown {
            self.floats.shown = false;
            self.focus = self.tiled_focus();
        } else {
            self.floats.shown = true;
            if let Some(top) = self.floats.top() {
                self.floats.tiled_focus = Some(self.tiled_focus());
                self.focus = top;
            }
        }
        true
    }

    /// A floating pane goes into the layout next to the tiled focus; a
    /// tiled pane (not the last) comes out of it, floating in `area`.
    pub(super) fn toggle_embed(&mut self, area: Rect) -> bool {
        let id = self.focus;
        if self.floats.contains(id) {
            let target = self.tiled_focus();
            self.floats.remove(id);
            if !self.layout.split(target, Axis::Horizontal, id) {
                return false;
            }
            if self.floats.is_empty() {
                self.floats.shown = false;
            }
            self.zoomed = false;
        } else {
            if self.zoomed || !self.layout.remove(id) {
                return false;
            }
            let rect = self.floats.place_new(area);
            self.floats.tiled_focus = self.layout.panes().first().copied();
            self.floats.push(id, rect);
            self.floats.shown = true;
        }
        true
    }

    /// Pins the focused floating pane (it stays on screen while the others
    /// are hidden) or unpins it.
    pub(super) fn toggle_pin(&mut self) -> bool {
        let id = self.focus;
        let pinned = self.floats.is_pinned(id);
        self.floats.set_pinned(id, !pinned)
    }

    /// Moves the focused floating pane, if shown, a step that way inside
    /// `area`.
    pub(super) fn move_floating(&mut self, dir: Direction, area: Rect) -> bool {
        let id = self.focus;
        self.floats.is_visible(id) && self.floats.move_by(id, dir, RESIZE_STEP, area)
    }

    /// Takes tiled pane `id` out of the layout; its sibling takes its
    /// place and, if it had the focus, the pane before it in reading order
    /// gets it. False if it is the layout's only pane (or not in it).
    pub(super) fn take_tiled(&mut self, id: PaneId) -> bool {
        let order = self.layout.panes();
        if !self.layout.remove(id) {
            return false;
        }
        if self.focus == id {
            let pos = order.iter().position(|&p| p == id).unwrap_or(0);
            let remaining = self.layout.panes();
            self.focus = remaining[pos.saturating_sub(1).min(remaining.len() - 1)];
        }
        if self.layout.len() < 2 {
            self.zoomed = false;
        }
        true
    }

    /// Takes floating pane `id` away; the focus, if it had it, goes to
    /// the top floating pane when shown, else back to the tiles. False if
    /// `id` does not float here.
    pub(super) fn take_float(&mut self, id: PaneId) -> bool {
        if self.floats.remove(id).is_none() {
            return false;
        }
        if self.focus == id {
            self.focus = match self.floats.top() {
                Some(top) if self.floats.shown => top,
                _ => self.tiled_focus(),
            };
        }
        if self.floats.is_empty() {
            self.floats.shown = false;
        }
        true
    }

    /// Pane `new` takes pane `old`'s place (and focus), floating or tiled.
    /// Returns its rectangle, in `tiles` for a tiled one.
    pub(super) fn replace_pane(&mut self, old: PaneId, new: PaneId, tiles: Rect) -> Rect {
        if let Some(float) = self.floats.remove(old) {
            self.floats.push(new, float.rect);
            if self.focus == old {
                self.focus = new;
            }
            return float.rect;
        }
        self.layout.replace(old, new);
        if self.focus == old {
            self.focus = new;
        }
        if self.zoomed && self.focus == new {
            tiles
        } else {
            self.layout.pane_rect(tiles, new).unwrap_or(tiles)
        }
    }

    /// Position of the focused pane in the layout (1-based) and the
    /// layout's size.
    pub(super) fn focus_position(&self) -> (usize, usize) {
        let panes = self.layout.panes();
        let pos = panes.iter().position(|&p| p == self.focus).unwrap_or(0);
        (pos + 1, panes.len())
    }

    /// Names the tab; an empty name gives it back its automatic one.
    /// Returns whether the name changed.
    pub(super) fn rename(&mut self, name: String) -> bool {
        if name.is_empty() {
            return self.name.take().is_some();
        }
        self.name = Some(name);
        true
    }

    /// A pane of the tab printed (or rang) while the tab was not shown.
    /// Returns whether the markers changed.
    pub(super) fn mark(&mut self, bell: bool) -> bool {
        let before = (self.activity, self.bell);
        self.activity = true;
        self.bell |= bell;
        before != (self.activity, self.bell)
    }
}
