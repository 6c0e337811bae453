//! The bottom layer: the prefix, direct bindings, and everything else typed
//! goes to the programs.

use ratatui::crossterm::event::KeyEvent;

use super::{Cx, Handled, Layer, actions};
use crate::input::outcome::Outcome;

pub struct Normal;

impl Layer for Normal {
    fn handle_key(&self, cx: &mut Cx<'_>, key: &KeyEvent) -> Handled {
        if cx.keymap.is_prefix(key) {
            cx.ui.enter_prefix();
            return Handled::Consumed(Outcome::redraw());
        }
        Handled::Consumed(match cx.keymap.lookup_direct(key) {
            Some(action) => actions::run(cx, action),
            None => cx.send_key(key),
        })
    }
}
