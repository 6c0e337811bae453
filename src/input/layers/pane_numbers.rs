//! While `C-b q`'s numbers are over the panes, a digit focuses that pane
//! (tmux's display-panes). Any other key takes the numbers away and goes
//! on down the stack as if they had not been there.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{Cx, Handled, Layer};
use crate::input::outcome::Outcome;
use crate::input::pane_numbers::pane_for_digit;

pub struct PaneNumbers;

impl Layer for PaneNumbers {
    fn handle_key(&self, cx: &mut Cx<'_>, key: &KeyEvent) -> Handled {
        if cx.ui.pane_numbers_until.take().is_none() {
            return Handled::Pass;
        }
        let digit = match key.code {
            KeyCode::Char(c) if c.is_ascii_digit() && key.modifiers == KeyModifiers::NONE => c,
            _ => return Handled::Pass,
        };
        match pane_for_digit(cx.ws, digit) {
            Some(id) => {
                cx.ws.focus_pane(id);
                cx.ui.leave_copy_if_unfocused(cx.ws);
            }
            None => cx.ui.notify(format!("no pane {digit} in this tab")),
        }
        Handled::Consumed(Outcome::redraw())
    }
}
