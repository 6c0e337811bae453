//! The title tilework gives the terminal it is drawn on (tmux's
//! `set-titles`), from `[status] set_titles_string`: `#S` the workspace's
//! name, `#I` the tab's number, `#W` its name, `#T` the focused pane's
//! title, `#H` this machine's name, `##` a `#`. Made of text programs
//! control (titles, directories), so it is sanitized before it is sent.

use crate::sanitize::sanitize_title;
use crate::workspace::Workspace;

/// Longest title sent: terminals cut long ones anyway, and a program's
/// title must not make every frame large.
const MAX_TITLE_CHARS: usize = 200;

/// What the terminal showing `ws` (its tab `tab`, from 0) is titled;
/// `session`: the workspace's name.
pub fn expand(
    format: &str,
    ws: &Workspace,
    tab: usize,
    session: Option<&str>,
    host: &str,
) -> String {
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '#' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('S') => out.push_str(session.unwrap_or("tilework")),
            Some('I') => out.push_str(&(tab + 1).to_string()),
            Some('W') => out.push_str(&ws.tabs().name(tab, ws.panes())),
            Some('T') => {
                if let Some(id) = ws.tabs().focused_id() {
                    out.push_str(ws.panes().title(id));
                }
            }
            Some('H') => out.push_str(host),
            Some('#') => out.push('#'),
            Some(other) => {
                out.push('#');
                out.push(other);
            }
            None => out.push('#'),
        }
    }
    let clean = sanitize_title(out.as_bytes());
    clean.chars().take(MAX_TITLE_CHARS).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::mailbox::Mailbox;
    use crate::workspace::WorkspaceSettings;
    use ratatui::layout::Rect;

    #[test]
    fn a_title_names_the_workspace_and_the_tab_and_passes_no_control() {
        let settings = WorkspaceSettings {
            scrollback_bytes: 1 << 20,
            ..crate::workspace::fake_workspace::settings()
        };
        let ws = Workspace::new(settings, Rect::new(0, 0, 80, 24), Mailbox::discarding());
        let title = expand("#S:#I ## #Q\x1b]0;x\x07#", &ws, 0, Some("work"), "box");
        assert_eq!(title, "work:1 # #Q]0;x#");
        assert_eq!(expand("#S/#H", &ws, 0, None, "box"), "tilework/box");
    }
}
