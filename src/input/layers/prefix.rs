//! The key after the prefix is a command (the which-key popup lists them);
//! an unbound one is swallowed, like tmux. A repeating command (a resize)
//! starts the repeat time, in which its key works without the prefix
//! (`layers::repeat`).

use ratatui::crossterm::event::KeyEvent;

use super::{Cx, Handled, Layer, actions};
use crate::input::outcome::Outcome;
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
            None => Outcome::redraw(),
        })
    }
}
