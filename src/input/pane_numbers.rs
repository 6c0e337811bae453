//! The panes of the shown tab by number, as `C-b q` shows them over the
//! panes and the status bar counts them (`pane 2/3`): the tiled panes in
//! reading order, then the floating ones on screen in the order `C-b o`
//! visits them.

use crate::pane::PaneId;
use crate::workspace::Workspace;

/// Pane 1 is the first; digits 1-9 focus the first nine, 0 the tenth.
pub fn numbered(ws: &Workspace) -> Vec<PaneId> {
    let Some(tab) = ws.tab() else {
        return Vec::new();
    };
    let mut order = tab.layout.panes();
    let mut floats: Vec<PaneId> = tab.floats.visible().map(|f| f.id).collect();
    floats.sort();
    order.extend(floats);
    order
}

/// The pane a digit names: `1` the first, `0` the tenth.
pub fn pane_for_digit(ws: &Workspace, digit: char) -> Option<PaneId> {
    let n = digit.to_digit(10)?;
    let index = if n == 0 { 9 } else { n as usize - 1 };
    numbered(ws).get(index).copied()
}

/// The number shown over pane `id` (1-based), if it has one.
pub fn number_of(ws: &Workspace, id: PaneId) -> Option<usize> {
    numbered(ws).iter().position(|&p| p == id).map(|i| i + 1)
}
