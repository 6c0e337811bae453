//! The help overlay takes every key while it is shown: it scrolls (`j k`,
//! arrows, `PgUp PgDn`, `g G`), filters (`/`), and `q` or `Esc` close it.
//! The prefix still works, so that `prefix ?` toggles it.

use ratatui::crossterm::event::KeyEvent;

use super::{Cx, Handled, Layer};
use crate::input::help::HelpKey;
use crate::input::outcome::Outcome;
use crate::input::ui_state::Mode;

pub struct Help;

impl Layer for Help {
    fn handle_key(&self, cx: &mut Cx<'_>, key: &KeyEvent) -> Handled {
        let Some(help) = cx.ui.help.as_mut() else {
            return Handled::Pass;
        };
        // While the filter is typed, the prefix key is a key like others.
        if !help.editing && (cx.ui.mode == Mode::Prefix || cx.keymap.is_prefix(key)) {
            return Handled::Pass;
        }
        // Help covers the whole terminal, status bar included.
        let screen_rows = cx.ws.area().height.saturating_add(1);
        if help.handle_key(key, cx.keymap, screen_rows) == HelpKey::Close {
            cx.ui.help = None;
        }
        Handled::Consumed(Outcome::redraw())
    }
}
