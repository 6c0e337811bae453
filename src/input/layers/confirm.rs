//! A close, quit or restart that asks first (`confirm_close`): `y` does it, any
//! other key (the prefix included) leaves everything as it was. The
//! question is in the status bar, as tmux's `confirm-before` asks.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{Cx, Handled, Layer, actions};
use crate::input::outcome::Outcome;

pub struct ConfirmLayer;

impl Layer for ConfirmLayer {
    fn handle_key(&self, cx: &mut Cx<'_>, key: &KeyEvent) -> Handled {
        let Some(confirm) = cx.ui.confirm.take() else {
            return Handled::Pass;
        };
        // Whatever the bar said before the question is older than the answer.
        cx.ui.clear_notice();
        Handled::Consumed(match key.code {
            KeyCode::Char('y' | 'Y') => actions::workspace_action(cx, confirm.action),
            _ => {
                let kept = if confirm.action == crate::config::action::Action::RestartPane {
                    "nothing restarted"
                } else {
                    "nothing closed"
                };
                cx.ui.notify(kept.into());
                Outcome::redraw()
            }
        })
    }
}
