//! The key after the prefix is a command; the which-key popup lists them
//! when the key is slow to come (`which_key`).
//! An unbound one does nothing but say so in the status bar, and `Esc`
//! takes the prefix back quietly; either way the prefix is over. A
//! repeating command (a resize) starts the repeat time, in which its key
//! works without the prefix (`layers::repeat`).

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::widgets::Widget;

use super::which_key::WhichKey;
use super::{Cx, Handled, Layer, actions, copy};
use crate::config::action::Action;
use crate::config::keymap::Keymap;
use crate::input::outcome::Outcome;
use crate::input::popups::DrawCx;
use crate::input::ui_state::Mode;

pub struct Prefix;

impl Layer for Prefix {
    fn handle_key(&self, cx: &mut Cx<'_>, key: &KeyEvent) -> Handled {
        if cx.ui.mode != Mode::Prefix {
            return Handled::Pass;
        }
        cx.ui.leave_prefix();
        Handled::Consumed(match cx.keymap.lookup_prefixed(key) {
            Some(action) => {
                let outcome = actions::run(cx, action);
                if action.repeats() {
                    cx.ui.start_repeat();
                }
                outcome
            }
            None if key.code == KeyCode::Esc => Outcome::redraw(),
            None => {
                cx.ui.notify(unbound_prefix_hint(cx.keymap, key));
                Outcome::redraw()
            }
        })
    }

    fn draw(&self, buf: &mut Buffer, at: &DrawCx<'_>) {
        if at.ui.which_key_shown() {
            WhichKey {
                keymap: at.keymap,
                frame: at.theme.popup,
            }
            .render(at.panes, buf);
        }
    }
}

/// `C-b t: not bound · C-b ? lists the keys`.
pub(super) fn unbound_prefix_hint(keymap: &Keymap, key: &KeyEvent) -> String {
    let help = match keymap.hint(Action::ToggleHelp) {
        Some(keys) => format!("{keys} lists the keys"),
        None => "tilework --print-config lists the keys".into(),
    };
    format!(
        "{} {}: not bound · {help}",
        keymap.prefix,
        copy::key_text(key)
    )
}
