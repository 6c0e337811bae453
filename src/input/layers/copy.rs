//! Copy mode's keys (see `copy_session`); the prefix still works there.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{Cx, Handled, Layer, actions};
use crate::config::keymap::KeySpec;
use crate::input::copy_session::CopyKey;
use crate::input::outcome::{Command, Outcome};
use crate::input::popups::prompt::PromptKind;
use crate::input::ui_state::Mode;

pub struct Copy;

impl Layer for Copy {
    fn handle_key(&self, cx: &mut Cx<'_>, key: &KeyEvent) -> Handled {
        if cx.ui.mode != Mode::Copy {
            return Handled::Pass;
        }
        if cx.keymap.is_prefix(key) {
            cx.ui.enter_prefix();
            return Handled::Consumed(Outcome::redraw());
        }
        let mut out = Outcome::redraw();
        match cx.ui.copy.key(cx.ws, key, &cx.keymap.copy) {
            CopyKey::Moved | CopyKey::Queued => {}
            CopyKey::Leave => {
                // What copy mode said (the search's count, a key it does not
                // use) is about a view that is gone.
                cx.ui.clear_notice();
                cx.ui.leave_copy(cx.ws);
            }
            CopyKey::Yank(text, how) => {
                let text = if how.append {
                    cx.ui.appended(&text)
                } else {
                    cx.ui.copied(&text);
                    text
                };
                if !how.stay {
                    cx.ui.leave_copy(cx.ws);
                }
                let pipe = cx.keymap.copy.pipe_command(key).map(str::to_string);
                out = out.with(Command::Clipboard(text.clone()));
                if let (true, Some(command)) = (how.pipe, pipe) {
                    out = out.with(Command::PipeCopy { text, command });
                }
            }
            CopyKey::NothingSelected => cx
                .ui
                .notify("nothing selected: v, Space, V or C-v starts a selection".into()),
            CopyKey::OpenSearch => actions::open_prompt(cx, PromptKind::Search, ""),
            CopyKey::CaseToggled(label) => cx.ui.notify_search(format!("search {label}")),
            CopyKey::Stepped(status) => cx.show_search_status(status),
            CopyKey::Unbound => match cx.keymap.lookup_direct(key) {
                // Keys bound without the prefix (`M-o`...) work here too.
                Some(action) => out = actions::run(cx, action),
                // Never typed into the program: in copy mode a vim hand's
                // `i` or `x` would land in the shell.
                None => cx.ui.notify(unbound_hint(key)),
            },
        }
        Handled::Consumed(out)
    }
}

/// The status bar's answer to a key copy mode does not use.
fn unbound_hint(key: &KeyEvent) -> String {
    format!("{}: not a copy-mode key · q or Esc leaves", key_text(key))
}

/// A key as the keymap writes it, for the status bar: `E`, not `S-E`.
pub(super) fn key_text(key: &KeyEvent) -> KeySpec {
    let mut modifiers = key.modifiers;
    if matches!(key.code, KeyCode::Char(_)) {
        modifiers.remove(KeyModifiers::SHIFT);
    }
    KeySpec {
        code: key.code,
        modifiers,
    }
}
