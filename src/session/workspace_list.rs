//! The running workspaces with their tabs and panes, and the saved ones
//! (see `persist`), for `C-b s` (tmux's `choose-tree`) and `C-b (`
//! `C-b )`: gathered on a thread of its own, since it is a conversation
//! with every workspace's socket and a read of the saved ones' files, and
//! handed to the loop when done.

use std::time::Duration;

use super::attach_process::{self, Live};
use super::dir;
use super::script::PaneInfo;
use super::script_client;
use crate::mailbox::Mailbox;

/// The longest one workspace may take to list its panes before it is
/// shown without them.
const PANES_TIMEOUT: Duration = Duration::from_secs(1);

/// One running workspace as the chooser shows it.
#[derive(Debug, Clone)]
pub struct WorkspaceEntry {
    pub name: String,
    /// Terminals attached.
    pub clients: usize,
    /// Its panes, in tab order (empty if it did not answer in time, or
    /// it is only saved).
    pub panes: Vec<PaneInfo>,
    /// Not running: saved after a crash or a reboot; choosing it brings it
    /// back. How many panes it had.
    pub saved: Option<usize>,
    /// What each tab shows (its focused pane's screen as text), by tab
    /// number, for the chooser's preview (tmux's choose-tree preview).
    pub previews: Vec<(usize, String)>,
}

/// At most this many tabs are previewed in one listing: each is a call to
/// its workspace.
const MAX_PREVIEWS: usize = 32;

/// Every running workspace, then every saved one not running, each sorted
/// by name.
pub fn gather() -> Vec<WorkspaceEntry> {
    let live = match dir::runtime_dir().and_then(|dir| attach_process::live_sessions(&dir)) {
        Ok(live) => live,
        Err(err) => {
            tracing::warn!("listing the workspaces: {err:#}");
            Vec::new()
        }
    };
    let saved: Vec<WorkspaceEntry> = crate::persist::manifest::saved_list(false)
        .into_iter()
        .filter(|s| !live.iter().any(|l| l.name == s.name))
        .map(|s| WorkspaceEntry {
            name: s.name,
            clients: 0,
            panes: Vec::new(),
            saved: Some(s.panes),
            previews: Vec::new(),
        })
        .collect();
    let mut budget = MAX_PREVIEWS;
    let mut all: Vec<WorkspaceEntry> = live
        .into_iter()
        .map(|live| entry(live, &mut budget))
        .collect();
    all.extend(saved);
    all
}

fn entry(live: Live, budget: &mut usize) -> WorkspaceEntry {
    let panes = match script_client::panes_of(&live.path, PANES_TIMEOUT) {
        Ok(mut panes) => {
            panes.sort_by_key(|p| (p.tab, p.id));
            panes
        }
        Err(err) => {
            tracing::info!("listing the panes of {}: {err:#}", live.name);
            Vec::new()
        }
    };
    let mut previews = Vec::new();
    for pane in panes.iter().filter(|p| p.tab_focused) {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        match script_client::screen_of(&live.path, pane.id, PANES_TIMEOUT) {
            Ok(text) => previews.push((pane.tab, text)),
            Err(err) => tracing::info!("previewing {} tab {}: {err:#}", live.name, pane.tab),
        }
    }
    WorkspaceEntry {
        name: live.name,
        clients: live.info.clients,
        panes,
        saved: None,
        previews,
    }
}

/// Gathers the list on a thread of its own and posts it to `mailbox`.
pub fn spawn(mailbox: Mailbox<Vec<WorkspaceEntry>>) {
    crate::jobs::run("workspace-list", mailbox, gather);
}

/// The workspace before (`step` -1) or after (+1) `current` in `names`
/// (sorted), going round; `None` when there is no other.
pub fn neighbour<'a>(names: &'a [String], current: &str, step: isize) -> Option<&'a str> {
    if names.len() < 2 {
        return None;
    }
    let len = names.len() as isize;
    let at = names
        .iter()
        .position(|n| n == current)
        .map_or(if step > 0 { -1 } else { 0 }, |i| i as isize);
    let next = (at + step).rem_euclid(len);
    names
        .get(usize::try_from(next).ok()?)
        .map(String::as_str)
        .filter(|n| *n != current)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_go_round_in_name_order() {
        let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        assert_eq!(neighbour(&names, "a", 1), Some("b"));
        assert_eq!(neighbour(&names, "c", 1), Some("a"));
        assert_eq!(neighbour(&names, "a", -1), Some("c"));
        assert_eq!(neighbour(&names[..1], "a", 1), None);
    }
}
