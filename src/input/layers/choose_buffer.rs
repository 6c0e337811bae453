//! `C-b =`'s chooser over the paste buffers: up and down (or `k` `j`)
//! pick one, Enter pastes it, a digit pastes that buffer at once, any
//! other key closes the list.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{Cx, Handled, Layer};
use crate::input::outcome::Outcome;

pub struct ChooseBuffer;

impl Layer for ChooseBuffer {
    fn handle_key(&self, cx: &mut Cx<'_>, key: &KeyEvent) -> Handled {
        let Some(at) = cx.ui.buffers.chosen() else {
            return Handled::Pass;
        };
        let picked = match key.code {
            KeyCode::Up | KeyCode::Char('k') => {
                cx.ui.buffers.step(-1);
                return Handled::Consumed(Outcome::redraw());
            }
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                cx.ui.buffers.step(1);
                return Handled::Consumed(Outcome::redraw());
            }
            KeyCode::Enter => Some(at),
            KeyCode::Char(c) => c.to_digit(10).and_then(|d| usize::try_from(d).ok()),
            _ => None,
        };
        cx.ui.buffers.close_chooser();
        let text = picked.and_then(|i| cx.ui.buffers.get(i));
        let mut out = Outcome::redraw();
        if let Some(text) = text {
            out.merge(cx.paste(&text));
        }
        Handled::Consumed(out)
    }
}
