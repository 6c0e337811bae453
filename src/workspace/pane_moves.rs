//! tmux's pane and window moves between any two places (`join-pane`,
//! `move-pane`, `break-pane`, `swap-pane`, `swap-window`), which tilework's
//! own keys do only for the focused pane and its neighbours (`C-b !`,
//! `C-b N`, `C-b {`/`}`). Free functions over the workspace, so that it
//! keeps no more methods than it has.

use crate::pane::PaneId;
use crate::workspace::Workspace;
use crate::workspace::layout::Layout;
use crate::workspace::tab::Tab;
use crate::workspace::tmux_ops::SplitHow;

/// The marked pane (`C-b m`, see `pane_mark`), if it is still open.
pub fn marked(ws: &Workspace) -> Option<PaneId> {
    ws.mark.script_id().and_then(|n| ws.panes().by_script_id(n))
}

/// Marks pane `id` (`None`: no pane), as `select-pane -m` does.
pub fn set_mark(ws: &mut Workspace, id: Option<PaneId>) -> bool {
    let script_id = id.map(|id| ws.panes().script_id(id));
    ws.mark.set(script_id)
}

/// Why a move was refused, in tmux's words where tmux has some.
pub type Refusal = String;

/// Where the tiled pane `id` is: its tab's index.
fn tiled_tab(ws: &Workspace, id: PaneId) -> Result<usize, Refusal> {
    let index = ws.tabs.index_of(id).ok_or("can't find pane")?;
    if !ws.tabs.list[index].layout.contains(id) {
        return Err("can't move a floating pane".into());
    }
    Ok(index)
}

/// Takes tiled pane `id` out of its tab; a tab left empty goes. Returns
/// the index `keep` (another tab's) has afterwards.
fn take_out(ws: &mut Workspace, id: PaneId, keep: usize) -> Result<usize, Refusal> {
    let from = tiled_tab(ws, id)?;
    if ws.tabs.list[from].layout.len() == 1 && ws.tabs.list[from].floats.is_empty() {
        let shown = ws.tabs.list[ws.tabs.active].serial;
        ws.tabs.list.remove(from);
        ws.tabs.active = ws.tabs.iter().position(|t| t.serial == shown).unwrap_or(0);
        return Ok(if keep > from { keep - 1 } else { keep });
    }
    let tab = &mut ws.tabs.list[from];
    if !tab.take_tiled(id) {
        return Err("can't move the last tiled pane of a window with floating panes".into());
    }
    tab.last_focus = tab.last_focus.filter(|&p| p != id);
    ws.relayout_tab(from);
    Ok(keep)
}

/// tmux's `join-pane -s src -t dst`: pane `src` leaves its tab and splits
/// pane `dst` as `how` says, in whatever tab `dst` is (the same one too).
/// Without `keep_focus` the moved pane is focused and its new tab shown.
pub fn join(ws: &mut Workspace, src: PaneId, dst: PaneId, how: SplitHow) -> Result<(), Refusal> {
    if src == dst {
        return Err("source and target panes must be different".into());
    }
    tiled_tab(ws, src)?;
    let to = tiled_tab(ws, dst)?;
    let to = take_out(ws, src, to)?;
    let tab = &mut ws.tabs.list[to];
    if !tab.layout.split(dst, how.axis, src) {
        return Err("create pane failed".into());
    }
    if how.before {
        tab.layout.swap(dst, src);
    }
    tab.zoomed = false;
    ws.relayout_tab(to);
    if let Some(cells) = how.cells {
        ws.size_pane(src, how.axis, cells);
    }
    if !how.keep_focus {
        ws.tabs.select(to);
        ws.focus_pane(src);
    }
    Ok(())
}

/// tmux's `break-pane`: pane `id` gets a tab of its own, named `name` (or
/// after its program), at the end; shown unless `keep_focus`. Returns the
/// new tab's index.
pub fn break_out(
    ws: &mut Workspace,
    id: PaneId,
    name: Option<&str>,
    keep_focus: bool,
) -> Result<usize, Refusal> {
    let from = tiled_tab(ws, id)?;
    if ws.tabs.list[from].layout.len() == 1 {
        return Err("can't break with only one pane".into());
    }
    take_out(ws, id, 0)?;
    let shown = ws.tabs.active;
    let name = name.map(|n| crate::sanitize::sanitize_title(n.as_bytes()));
    ws.tabs.push(Tab::new(name, Layout::new(id), id));
    let index = ws.tabs.len() - 1;
    ws.relayout_tab(index);
    if keep_focus {
        ws.tabs.active = shown;
    }
    Ok(index)
}

/// tmux's `swap-pane -s a -t b`: the two tiled panes change places, in
/// one tab or across two; the tab shown stays. Without `keep_focus`, each
/// tab focuses the pane that came into it (`b` where `a` was); with it,
/// the focused pane stays focused, or, when it left its tab, the pane
/// that took its place is.
pub fn swap(ws: &mut Workspace, a: PaneId, b: PaneId, keep_focus: bool) -> Result<(), Refusal> {
    if a == b {
        return Ok(());
    }
    let (ta, tb) = (tiled_tab(ws, a)?, tiled_tab(ws, b)?);
    if ta == tb {
        let tab = &mut ws.tabs.list[ta];
        tab.layout.swap(a, b);
        if !keep_focus {
            tab.focus = b;
        }
    } else {
        for (index, (old, new)) in [(ta, (a, b)), (tb, (b, a))] {
            let tab = &mut ws.tabs.list[index];
            tab.layout.replace(old, new);
            if tab.focus == old || !keep_focus {
                tab.focus = new;
            }
            tab.last_focus = tab.last_focus.filter(|&p| p != old);
            tab.zoomed = false;
        }
    }
    ws.relayout_tab(ta);
    ws.relayout_tab(tb);
    Ok(())
}

/// tmux's `swap-window -s a -t b`: tabs `a` and `b` change places. Without
/// `keep_focus`, tab `a` is shown at its new place; with it, the tab shown
/// stays shown, wherever it went.
pub fn swap_tabs(ws: &mut Workspace, a: usize, b: usize, keep_focus: bool) -> Result<(), Refusal> {
    if a >= ws.tabs.len() || b >= ws.tabs.len() {
        return Err("can't find window".into());
    }
    ws.tabs.list.swap(a, b);
    if !keep_focus {
        ws.tabs.select(b);
    } else if ws.tabs.active == a {
        ws.tabs.active = b;
    } else if ws.tabs.active == b {
        ws.tabs.active = a;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::workspace::layout::Axis;
    use crate::workspace::workspace_tests::Harness;

    fn how(keep_focus: bool) -> SplitHow {
        SplitHow {
            axis: Axis::Horizontal,
            before: false,
            cells: None,
            keep_focus,
        }
    }

    #[test]
    fn a_pane_joins_a_tab_two_away_and_its_lone_tab_goes() {
        let mut h = Harness::with_program(false, "sh");
        let first = h.ws.tabs.focused_id().unwrap();
        h.ws.apply(crate::config::action::Action::NewTab);
        h.ws.apply(crate::config::action::Action::NewTab);
        let third = h.ws.tabs.focused_id().unwrap();
        join(&mut h.ws, third, first, how(false)).unwrap();
        assert_eq!(h.ws.tabs().len(), 2);
        assert_eq!(h.ws.tabs().active(), 0);
        assert_eq!(h.ws.tabs()[0].layout.panes(), vec![first, third]);
        assert_eq!(h.ws.tabs.focused_id(), Some(third));
        assert!(join(&mut h.ws, third, third, how(true)).is_err());
    }

    #[test]
    fn panes_of_two_tabs_swap_places_and_a_lone_pane_does_not_break() {
        let mut h = Harness::with_program(false, "sh");
        let first = h.ws.tabs.focused_id().unwrap();
        h.ws.apply(crate::config::action::Action::SplitRight);
        let second = h.ws.tabs.focused_id().unwrap();
        h.ws.apply(crate::config::action::Action::NewTab);
        let other = h.ws.tabs.focused_id().unwrap();
        swap(&mut h.ws, first, other, true).unwrap();
        assert_eq!(h.ws.tabs()[0].layout.panes(), vec![other, second]);
        assert_eq!(h.ws.tabs()[1].layout.panes(), vec![first]);
        assert!(break_out(&mut h.ws, first, None, false).is_err());
        let index = break_out(&mut h.ws, second, Some("alone"), true).unwrap();
        assert_eq!(index, 2);
        assert_eq!(h.ws.tabs().name(2, h.ws.panes()), "alone");
        assert_eq!(h.ws.tabs().active(), 1);
        swap_tabs(&mut h.ws, 0, 2, false).unwrap();
        assert_eq!(h.ws.tabs()[0].layout.panes(), vec![second]);
        assert_eq!(h.ws.tabs().active(), 2);
    }
}
