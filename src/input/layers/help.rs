//! The help overlay: any key closes it. The prefix still works, so that
//! `prefix ?` toggles it.

use ratatui::crossterm::event::KeyEvent;

use super::{Cx, Handled, Layer};
use crate::input::outcome::Outcome;
use crate::input::ui_state::Mode;

pub struct Help;

impl Layer for Help {
    fn handle_key(&self, cx: &mut Cx<'_>, key: &KeyEvent) -> Handled {
        if !cx.ui.show_help || cx.ui.mode == Mode::Prefix || cx.keymap.is_prefix(key) {
            return Handled::Pass;
        }
        cx.ui.show_help = false;
        Handled::Consumed(Outcome::redraw())
    }
}
