//! The one-line prompt over the status bar takes every key while it is
//! open: renaming a tab, naming a profile to save, a copy-mode search
//! (run as the pattern is typed) or a search across panes.

use ratatui::crossterm::event::KeyEvent;

use super::{Cx, Handled, Layer, search_all};
use crate::input::outcome::{Command, Outcome};
use crate::input::prompt::{PromptEvent, PromptKind};

pub struct PromptLayer;

impl Layer for PromptLayer {
    fn handle_key(&self, cx: &mut Cx<'_>, key: &KeyEvent) -> Handled {
        let Some(prompt) = cx.ui.prompt.as_mut() else {
            return Handled::Pass;
        };
        let event = prompt.handle_key(key);
        let kind = prompt.kind;
        let text = prompt.text.clone();
        let mut out = Outcome::redraw();
        match event {
            PromptEvent::Cancel => {
                cx.ui.prompt = None;
                if kind == PromptKind::Search {
                    cx.ui.copy.clear_search();
                }
            }
            PromptEvent::Submit(text) => {
                cx.ui.prompt = None;
                out = submit(cx, kind, text);
            }
            PromptEvent::Edited if kind == PromptKind::Search => cx.search_copy(&text, false),
            PromptEvent::ToggleCase if kind == PromptKind::Search => cx.search_copy(&text, true),
            _ => {}
        }
        Handled::Consumed(out)
    }
}

fn submit(cx: &mut Cx<'_>, kind: PromptKind, text: String) -> Outcome {
    match kind {
        PromptKind::RenameTab => {
            cx.ws.rename_tab(&text);
        }
        PromptKind::SaveSession => return save(cx, text.trim()),
        // The history is still loading: search when it lands.
        PromptKind::Search if !cx.ui.copy.is_active() => cx.ui.copy.search_later(text),
        PromptKind::Search => cx.search_copy(&text, false),
        PromptKind::SearchAll => return search_all::start(cx, &text),
    }
    Outcome::redraw()
}

/// Asks the loop to save the workspace as profile `name`.
fn save(cx: &mut Cx<'_>, name: &str) -> Outcome {
    if name.is_empty() {
        cx.ui.notify("not saved: a profile needs a name".into());
        return Outcome::redraw();
    }
    Outcome::redraw().with(Command::SaveProfile(name.to_string()))
}
