//! Pane and tab ids that outlive the process: the ids scripts and tmux's
//! front-end know (`%N`, `@N`, `$N`, `list-panes`) are saved with the
//! layout ([`SavedIds`]) and given back to the panes and tabs a restore
//! opens (`wanted_ids`), so a tool that kept `%3` before a crash finds the
//! same pane after `attach`. Ids handed out later start past every saved
//! one, so none is given twice.

use serde::{Deserialize, Serialize};

use crate::pane::PaneId;
use crate::workspace::Workspace;

/// The ids of a saved workspace.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedIds {
    /// Each pane's script id, in the order the saved profile opens them
    /// (every tab's tiled panes in layout order, then its floating ones).
    pub panes: Vec<u32>,
    /// Each tab's serial (`@N`), in tab order.
    pub tabs: Vec<u64>,
    /// The first pane id not handed out yet (a pane closed before the save
    /// keeps its id from being given again).
    pub next_pane: u32,
    /// The first tab serial not handed out yet.
    pub next_tab: u64,
    /// The workspace's tmux session number (`$N`).
    #[serde(default)]
    pub tmux_session: u32,
}

impl SavedIds {
    /// The ids of `ws`, whose panes in the saved order are `order`.
    pub fn of(ws: &Workspace, order: &[PaneId]) -> Self {
        let panes: Vec<u32> = order.iter().map(|&id| ws.panes().script_id(id)).collect();
        let tabs: Vec<u64> = ws.tabs.iter().map(|t| t.serial).collect();
        let highest_pane = panes.iter().max().map_or(0, |&n| n.saturating_add(1));
        let highest_tab = tabs.iter().max().map_or(0, |&n| n.saturating_add(1));
        Self {
            next_pane: ws.panes.next_id.max(highest_pane),
            next_tab: ws.tabs.serials.next().max(highest_tab),
            panes,
            tabs,
            tmux_session: ws.panes.spawner.tmux_session(),
        }
    }
}

/// Gets `ws` (empty) ready to open the profile `saved` was saved with: its
/// panes will take the saved ids, and new ids start past them. The ids are
/// refused whole when two panes would share one (a file tilework did not
/// write): the panes then get new ids, as before ids were saved.
pub fn expect(ws: &mut Workspace, saved: &SavedIds) {
    let mut seen = saved.panes.clone();
    seen.sort_unstable();
    seen.dedup();
    if seen.len() != saved.panes.len() || seen.first() == Some(&0) {
        tracing::warn!("saved pane ids repeat; the restored panes get new ones");
        return;
    }
    let past = seen.last().map_or(0, |&n| n.saturating_add(1));
    // Past the saved ids, the restored panes' own ids never equal a
    // script id another pane is known by.
    ws.panes.next_id = ws.panes.next_id.max(saved.next_pane).max(past);
    ws.panes.spawner.wanted_ids.expect(&saved.panes);
    ws.panes.spawner.adopt_tmux_session(saved.tmux_session);
}

/// After the profile opened: the tabs take their saved serials (in order;
/// as many as both have), and new tabs' serials start past them.
pub fn adopt_tabs(ws: &mut Workspace, saved: &SavedIds) {
    ws.panes.spawner.wanted_ids.expect(&[]);
    let mut serials = saved.tabs.clone();
    serials.sort_unstable();
    serials.dedup();
    if serials.len() != saved.tabs.len() || ws.tabs.len() != saved.tabs.len() {
        tracing::warn!("saved tab ids do not fit the restored tabs; they get new ones");
        return;
    }
    let past = serials.last().map_or(0, |&n| n.saturating_add(1));
    ws.tabs.serials.reserve(saved.next_tab.max(past));
    for (tab, &serial) in ws.tabs.list.iter_mut().zip(&saved.tabs) {
        tab.serial = serial;
    }
}
