//! tmux's `bind -r`: after a repeating command (`C-b C-Left`), its key or
//! another repeating one runs again without the prefix while the repeat
//! time runs (each repeat starts it again). Any other key ends the repeat
//! and goes on down as if there had been none: to a direct binding or the
//! program, never to the prefixed table.

use ratatui::crossterm::event::KeyEvent;

use super::{Cx, Handled, Layer, actions};

pub struct Repeat;

impl Layer for Repeat {
    fn handle_key(&self, cx: &mut Cx<'_>, key: &KeyEvent) -> Handled {
        if !cx.ui.repeating() {
            return Handled::Pass;
        }
        match cx.keymap.lookup_prefixed(key).filter(|a| a.repeats()) {
            Some(action) => {
                let outcome = actions::run(cx, action);
                cx.ui.start_repeat();
                Handled::Consumed(outcome)
            }
            None => {
                cx.ui.end_repeat();
                Handled::Pass
            }
        }
    }
}
