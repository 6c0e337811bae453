//! The loop's side of tmux's pane and window moves (`join-pane`,
//! `break-pane`, `swap-pane`, `swap-window`) and of its marked pane: the
//! workspace does them (`workspace::pane_moves`);
//! here the front-end's ids become the workspace's.

use crate::pane::PaneId;
use crate::session::tmux_call::TmuxCall;
use crate::workspace::Workspace;
use crate::workspace::layout::Axis;
use crate::workspace::pane_moves;
use crate::workspace::tmux_ops::SplitHow;

/// Whether `call` is one of the moves [`answer`] does.
pub(super) fn is_move(call: &TmuxCall) -> bool {
    matches!(
        call,
        TmuxCall::Join { .. }
            | TmuxCall::Break { .. }
            | TmuxCall::SwapPanes { .. }
            | TmuxCall::SwapTabs { .. }
            | TmuxCall::Mark { .. }
    )
}

fn pane(ws: &Workspace, n: u32) -> Result<PaneId, String> {
    ws.panes()
        .by_script_id(n)
        .ok_or_else(|| format!("can't find pane: {n}"))
}

fn tab(ws: &Workspace, serial: u64) -> Result<usize, String> {
    ws.tabs()
        .index_of_serial(serial)
        .ok_or_else(|| format!("can't find window: @{serial}"))
}

/// Does move `call` on `ws`; what to answer.
pub(super) fn answer(ws: &mut Workspace, call: TmuxCall) -> Result<String, String> {
    match call {
        TmuxCall::Join {
            src,
            dst,
            split,
            keep_focus,
        } => {
            let (src, dst) = (pane(ws, src)?, pane(ws, dst)?);
            let axis = if split.beside {
                Axis::Horizontal
            } else {
                Axis::Vertical
            };
            // A percentage is of the target pane, as tmux's `-l N%`.
            let (rows, cols) = ws.panes().get(dst).map_or((0, 0), |p| p.term().size());
            let along = if split.beside { cols } else { rows };
            let cells = split.cells.or_else(|| {
                split
                    .percent
                    .map(|p| (u32::from(along) * u32::from(p.min(100)) / 100) as u16)
            });
            let how = SplitHow {
                axis,
                before: split.before,
                cells,
                keep_focus,
            };
            pane_moves::join(ws, src, dst, how).map(|()| String::new())
        }
        TmuxCall::Break {
            pane: n,
            name,
            keep_focus,
        } => {
            let id = pane(ws, n)?;
            let index = pane_moves::break_out(ws, id, name.as_deref(), keep_focus)?;
            let serial = ws.tabs().get(index).map_or(0, |t| t.serial);
            Ok(format!("{serial} {n}\n"))
        }
        TmuxCall::SwapPanes {
            src,
            dst,
            keep_focus,
        } => {
            let (src, dst) = (pane(ws, src)?, pane(ws, dst)?);
            pane_moves::swap(ws, src, dst, keep_focus).map(|()| String::new())
        }
        TmuxCall::SwapTabs {
            src,
            dst,
            keep_focus,
        } => {
            let (src, dst) = (tab(ws, src)?, tab(ws, dst)?);
            pane_moves::swap_tabs(ws, src, dst, keep_focus).map(|()| String::new())
        }
        TmuxCall::Mark { pane: n } => {
            let id = n.map(|n| pane(ws, n)).transpose()?;
            pane_moves::set_mark(ws, id);
            Ok(String::new())
        }
        _ => Err("not a move".into()),
    }
}
