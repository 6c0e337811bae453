//! The results of a search across every pane of the tab: up and down pick
//! a matching line, Enter opens its pane in copy mode on it (the search
//! kept, so `n`/`N` go on through the pane's matches), any other key
//! closes the list.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{Cx, Handled, Layer};
use crate::input::outcome::{Command, Outcome};
use crate::input::search_all::SearchAllResults;
use crate::pane::PaneId;

pub struct SearchAllLayer;

impl Layer for SearchAllLayer {
    fn handle_key(&self, cx: &mut Cx<'_>, key: &KeyEvent) -> Handled {
        let Some(results) = cx.ui.search_all.as_mut() else {
            return Handled::Pass;
        };
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => results.step(-1),
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => results.step(1),
            KeyCode::Enter => {
                let picked = results.picked();
                let pattern = results.pattern.clone();
                cx.ui.search_all = None;
                if let Some((pane, row_from_end)) = picked {
                    open_at_match(cx, pane, &pattern, row_from_end);
                }
            }
            _ => cx.ui.search_all = None,
        }
        Handled::Consumed(Outcome::redraw())
    }
}

/// Copy mode on `pane`, searching for `pattern`, the cursor on its
/// `row_from_end`-th newest matching row once the search lands.
fn open_at_match(cx: &mut Cx<'_>, pane: PaneId, pattern: &str, row_from_end: usize) {
    if cx.ui.copy.is_active() {
        cx.ui.leave_copy(cx.ws);
    }
    cx.ws.focus_pane(pane);
    cx.ui.enter_copy(cx.ws);
    cx.ui.copy.jump_to_match_from_end(row_from_end);
    if cx.ui.copy.is_active() {
        cx.search_copy(pattern, false);
    } else {
        // The history is still loading: search when it lands.
        cx.ui.copy.search_later(pattern.to_string());
    }
}

/// Opens the results list for `pattern` and asks the loop to search every
/// pane of the tab. A bad or oversized pattern is refused with a reason at
/// once (compiled here within the same limits the workers use).
pub fn start(cx: &mut Cx<'_>, pattern: &str) -> Outcome {
    if pattern.is_empty() {
        return Outcome::redraw();
    }
    if let Err(err) = crate::input::search_worker::compile(pattern, true) {
        cx.ui.notify(format!("bad regex: {err}"));
        return Outcome::redraw();
    }
    let panes: Vec<_> = cx
        .ws
        .tab()
        .map(|t| t.layout.panes())
        .unwrap_or_default()
        .into_iter()
        .filter(|id| cx.ws.panes().get(*id).is_some())
        .collect();
    cx.ui.search_all = Some(SearchAllResults {
        pattern: pattern.to_string(),
        pending: panes.len(),
        ..SearchAllResults::default()
    });
    Outcome::redraw().with(Command::SearchPanes {
        pattern: pattern.to_string(),
        panes,
    })
}
