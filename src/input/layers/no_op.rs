//! Why a bound key did nothing: `C-b !` with one pane, `C-b m` with one
//! tab, `C-b z` on a floating pane. A key that seems dead is the worst
//! answer a user can get; a short reason in the status bar says it was
//! heard and what would make it work.

use crate::config::action::Action;
use crate::config::keymap::Keymap;
use crate::workspace::Workspace;

/// Why `action` changed nothing just now, or `None` where saying nothing
/// is the answer (a focus move at the edge, a border that cannot move).
pub(super) fn why_nothing(ws: &Workspace, keymap: &Keymap, action: Action) -> Option<String> {
    let tab = ws.tabs().shown()?;
    let floating = tab.floats.contains(tab.focus);
    let tiled = tab.layout.len();
    let tabs = ws.tabs().len();
    // `(C-b E puts it in the layout)`, when the key is bound.
    let hint = |action: Action, does: &str| {
        keymap
            .hint(action)
            .map(|keys| format!(" ({keys} {does})"))
            .unwrap_or_default()
    };
    let why = match action {
        Action::ToggleZoom if floating => format!(
            "a floating pane is not zoomed{}",
            hint(Action::ToggleEmbed, "puts it in the layout")
        ),
        Action::ToggleZoom if tiled < 2 => "one pane in the tab: nothing to zoom over".into(),
        Action::BreakPane if floating => format!(
            "a floating pane has no place in the layout to leave{}",
            hint(Action::ToggleEmbed, "puts it in the layout")
        ),
        Action::BreakPane if tiled < 2 => {
            "one pane in the tab: it has the tab to itself already".into()
        }
        Action::ToggleEmbed if tab.zoomed => format!(
            "the tab is zoomed{}",
            hint(Action::ToggleZoom, "unzooms it")
        ),
        Action::ToggleEmbed if !floating && tiled < 2 => {
            "the last tiled pane stays in the layout".into()
        }
        Action::MovePaneToNextTab if tabs < 2 => format!(
            "one tab: no other tab to move the pane to{}",
            hint(Action::BreakPane, "gives it a tab of its own")
        ),
        Action::NextTab | Action::PrevTab | Action::LastTab if tabs < 2 => {
            format!("one tab{}", hint(Action::NewTab, "opens another"))
        }
        Action::LastTab if ws.tabs().last_serial().is_none() => {
            "no tab was shown before this one".into()
        }
        Action::LastPane if tiled < 2 && tab.floats.is_empty() => "one pane in the tab".into(),
        Action::LastPane => "no other pane of this tab had the focus before".into(),
        Action::GoToTab(n) if usize::from(n) > tabs => format!("no tab {n}: there are {tabs}"),
        Action::SwapNext | Action::SwapPrev | Action::RotatePanes if tiled < 2 => {
            "one pane in the tab: nothing to swap it with".into()
        }
        Action::Layout(_) | Action::NextLayout if tiled < 2 => {
            "one pane in the tab: no layout to arrange".into()
        }
        Action::TogglePin | Action::MoveFloating(_) if !floating => format!(
            "the focused pane is not floating{}",
            hint(Action::ToggleFloating, "shows the floating panes")
        ),
        Action::FocusNext | Action::FocusPrev if tiled < 2 && tab.floats.is_empty() => {
            "one pane in the tab".into()
        }
        _ => return None,
    };
    Some(why)
}
