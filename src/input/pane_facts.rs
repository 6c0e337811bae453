//! `C-b i`: the workspace's name and the focused pane's facts in one
//! status-bar line (tmux's `display-message` of pane facts): its id (as `tilework list-panes` and
//! `--pane` take it), number, command, pid or how it ended, size and
//! directory. Read from what the workspace already knows: the directory
//! is the one last looked up off the loop, so nothing here reads a file.

use crate::input::popups::pane_numbers::number_of;
use crate::sanitize::sanitize_title;
use crate::workspace::Workspace;

/// Longest command shown; the bar is one line.
const COMMAND_WIDTH: usize = 40;

/// `workspace`: its name, as `tilework ls` shows it (none outside a
/// session).
pub fn describe(ws: &Workspace, workspace: Option<&str>) -> String {
    let mut parts: Vec<String> = workspace
        .map(|name| format!("workspace {name}"))
        .into_iter()
        .collect();
    let Some((id, pane)) = ws
        .tabs()
        .focused_id()
        .and_then(|id| Some((id, ws.panes().get(id)?)))
    else {
        parts.push("no pane is focused".into());
        return parts.join(" · ");
    };
    parts.push(format!("pane {}", ws.panes().script_id(id)));
    if let Some(n) = number_of(ws, id) {
        parts.push(format!("#{n}"));
    }
    if ws.tabs().is_floating(id) {
        parts.push("floating".into());
    }
    let command = sanitize_title(pane.spec.argv.join(" ").as_bytes());
    parts.push(shorten(&command, COMMAND_WIDTH));
    match (pane.program().exit(), pane.program().pid()) {
        (Some(exit), _) if exit.signal => {
            parts.push(format!("ended by signal {}", exit.code - 128))
        }
        (Some(exit), _) => parts.push(format!("exited {}", exit.code)),
        (None, Some(pid)) => parts.push(format!("pid {pid}")),
        (None, None) => {}
    }
    let (rows, cols) = pane.term().size();
    parts.push(format!("{cols}x{rows}"));
    let dir = ws.panes().place(id).map(|p| p.dir.clone()).or_else(|| {
        pane.term()
            .told()
            .cwd()
            .map(|d| sanitize_title(d.as_bytes()))
    });
    if let Some(dir) = dir {
        parts.push(dir);
    }
    parts.join(" · ")
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max - 1).collect();
    out.push('…');
    out
}
