//! Programs' progress (`OSC 9 ; 4`) as the workspace shows it: each pane's
//! on its border (`pane_badge`), and the worst of a tab's panes on its
//! label in the status bar, so a failing build in a hidden tab shows.

use crate::pane::term::program_signals::Progress;
use crate::workspace::{Tab, Workspace};

/// The worst progress of `tab`'s panes, floating ones too: an error over
/// a pause over one going on.
pub fn worst_of_tab(ws: &Workspace, tab: &Tab) -> Progress {
    let floating = tab.floats.iter().map(|f| f.id);
    tab.layout
        .panes()
        .into_iter()
        .chain(floating)
        .filter_map(|id| ws.panes().get(id))
        .map(|p| p.term().told().progress())
        .max_by_key(|p| p.severity())
        .unwrap_or_default()
}

/// What tab `tab`'s label says of its progress, if anything. Quick when
/// no program told any (the usual case).
pub fn tab_mark(ws: &Workspace, tab: &Tab) -> Option<String> {
    if !ws
        .panes()
        .iter()
        .any(|p| p.term().told().progress() != Progress::None)
    {
        return None;
    }
    worst_of_tab(ws, tab).label()
}
