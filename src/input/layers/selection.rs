//! A key ends a finished mouse selection's highlight, and goes on down.

use ratatui::crossterm::event::KeyEvent;

use super::{Cx, Handled, Layer};

pub struct SelectionHighlight;

impl Layer for SelectionHighlight {
    fn handle_key(&self, cx: &mut Cx<'_>, _key: &KeyEvent) -> Handled {
        cx.ui.mouse_selection = None;
        Handled::Pass
    }
}
