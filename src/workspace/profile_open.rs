//! Opening a profile: each tab's n-ary layout planned into the binary
//! split tree with fresh pane ids, its panes started in their places, its
//! floating panes over it. Saving one is `profile_save`.

use crate::config::profile::{LayoutSpec, PaneSpec, Profile, SplitDirection};
use crate::pane::PaneId;
use crate::workspace::layout::{Axis, Layout, Node};
use crate::workspace::pane_launch::{PaneLaunch, shown_text};
use crate::workspace::tab::Tab;
use crate::workspace::{Panes, Workspace, content_rect};
use ratatui::layout::Rect;

impl Workspace {
    /// Opens every tab of a profile.
    pub fn open_profile(&mut self, profile: &Profile) {
        let mut focus_tab = None;
        for spec in &profile.tabs {
            let (node, launches, focus) = plan(&mut self.panes, &spec.layout);
            let layout = Layout::from_node(node);
            let first = layout.panes().first().copied().unwrap_or(PaneId(0));
            let focus_id = focus.unwrap_or(first);
            if focus.is_some() {
                focus_tab = Some(self.tabs.len());
            }
            self.tabs.add(Tab::new(
                spec.name.as_deref().map(shown_text),
                layout,
                focus_id,
            ));
            let rects = self
                .tabs
                .last()
                .map(|t| t.layout.rects(self.tiling.tiles()))
                .unwrap_or_default();
            for (id, launch) in launches {
                let rect = rects
                    .iter()
                    .find(|(p, _)| *p == id)
                    .map_or(self.tiling.tiles(), |r| r.1);
                let inner = self.tiling.frame.content(rect);
                self.panes.start(id, launch, inner);
            }
            let area = self.tiling.area;
            let opened = self.tabs.list.last_mut();
            if opened.is_some_and(|tab| open_floats(tab, &mut self.panes, area, &spec.floating)) {
                focus_tab = Some(self.tabs.len() - 1);
            }
        }
        self.tabs.active = focus_tab.unwrap_or(0);
    }
}

/// Floats a profile's `floating` panes over `tab` (just opened):
/// hidden (but the pinned) until `C-b w`, unless one has the focus.
/// Returns whether one has.
fn open_floats(tab: &mut Tab, panes: &mut Panes, area: Rect, specs: &[PaneSpec]) -> bool {
    let mut focus = None;
    for spec in specs {
        let id = panes.alloc_id();
        let launch = PaneLaunch::from_profile(spec, &panes.spawner.settings.env);
        let rect = tab.floats.place_new(area);
        tab.floats.push(id, rect);
        // Where the profile puts it, kept inside the screen.
        tab.floats
            .set_rect(id, spec.place.resolve(area, rect), area);
        let rect = tab.floats.rect(id).unwrap_or(rect);
        tab.floats.set_pinned(id, spec.pinned);
        if spec.focus {
            focus = Some(id);
        }
        panes.start(id, launch, content_rect(rect));
    }
    match focus {
        Some(id) => {
            tab.floats.shown = true;
            tab.focus_on(id);
            true
        }
        None => false,
    }
}

/// Converts a profile's n-ary layout into our binary tree, allocating ids.
fn plan(panes: &mut Panes, spec: &LayoutSpec) -> (Node, Vec<(PaneId, PaneLaunch)>, Option<PaneId>) {
    match spec {
        LayoutSpec::Pane(pane) => {
            let id = panes.alloc_id();
            let launch = PaneLaunch::from_profile(pane, &panes.spawner.settings.env);
            (Node::Leaf(id), vec![(id, launch)], pane.focus.then_some(id))
        }
        LayoutSpec::Split {
            direction,
            weights,
            children,
        } => {
            let axis = match direction {
                SplitDirection::Right => Axis::Horizontal,
                SplitDirection::Down => Axis::Vertical,
            };
            let mut planned: Vec<_> = children.iter().map(|c| plan(panes, c)).collect();
            let weights: Vec<f32> = if weights.len() == children.len() {
                weights.iter().map(|&w| w.max(1) as f32).collect()
            } else {
                vec![1.0; children.len()]
            };
            let mut launches = Vec::new();
            let mut focus = None;
            // Fold from the right: a | (b | (c | d))
            let mut node: Option<Node> = None;
            let mut rest_weight = 0.0;
            for (i, (child, l, f)) in planned.drain(..).enumerate().rev() {
                launches.splice(0..0, l);
                focus = focus.or(f);
                node = Some(match node {
                    None => child,
                    Some(rest) => {
                        let w = weights.get(i).copied().unwrap_or(1.0);
                        Node::split(axis, w / (w + rest_weight), child, rest)
                    }
                });
                rest_weight += weights.get(i).copied().unwrap_or(1.0);
            }
            let id = panes.alloc_id();
            (node.unwrap_or(Node::Leaf(id)), launches, focus)
        }
    }
}
