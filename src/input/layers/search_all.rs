//! The results of a search across every pane of the tab: up and down pick
//! a pane, Enter opens copy mode there on the first match, any other key
//! closes the list.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{Cx, Handled, Layer};
use crate::input::outcome::{Command, Outcome};
use crate::input::prompt::PromptKind;
use crate::input::ui_state::SearchAllResults;

pub struct SearchAllLayer;

impl Layer for SearchAllLayer {
    fn handle_key(&self, cx: &mut Cx<'_>, key: &KeyEvent) -> Handled {
        let Some(results) = cx.ui.search_all.as_mut() else {
            return Handled::Pass;
        };
        let n = results.panes.len();
        match key.code {
            KeyCode::Up | KeyCode::Char('k') if n > 0 => {
                results.selected = (results.selected + n - 1) % n;
            }
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab if n > 0 => {
                results.selected = (results.selected + 1) % n;
            }
            KeyCode::Enter => {
                let target = results.panes.get(results.selected).map(|(id, ..)| *id);
                let pattern = results.pattern.clone();
                cx.ui.search_all = None;
                if let Some(id) = target {
                    cx.ws.focus_pane(id);
                    cx.ui.enter_copy(cx.ws);
                    cx.ui.open_prompt(PromptKind::Search, &pattern);
                    cx.ui.set_search_status("Enter: keep, Esc: clear".into());
                    cx.search_copy(&pattern, false);
                }
            }
            _ => cx.ui.search_all = None,
        }
        Handled::Consumed(Outcome::redraw())
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
        .filter(|id| cx.ws.pane(*id).is_some())
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
