//! A close, quit or restart that asks first (`confirm_close`): the pane's
//! program is more than an idle shell. The question is in the status bar,
//! as tmux's `confirm-before` asks; `y` does it, any other key (the prefix
//! included) leaves everything as it was.

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{Cx, DrawCx, FollowUp, Popup, Reply};
use crate::config::action::Action;
use crate::input::outcome::Outcome;

/// The question, waiting for its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confirm {
    /// What `y` does.
    pub action: Action,
    /// Shown in the status bar, e.g. `close the pane running vim? (y/n)`.
    pub question: String,
}

impl Popup for Confirm {
    fn handle_key(&mut self, cx: &mut Cx<'_>, key: &KeyEvent) -> Reply {
        // Whatever the bar said before the question is older than the answer.
        cx.ui.clear_notice();
        if let KeyCode::Char('y' | 'Y') = key.code {
            return Reply::close(Outcome::default()).then(FollowUp::Confirmed(self.action));
        }
        let kept = if self.action == Action::RestartPane {
            "nothing restarted"
        } else {
            "nothing closed"
        };
        cx.ui.notify(kept.into());
        Reply::close(Outcome::redraw())
    }

    fn draw(&self, buf: &mut Buffer, at: &DrawCx<'_>) {
        let (area, style) = (at.bar, at.theme.mode);
        buf.set_style(area, style);
        let text = format!(" {} (y/n) ", self.question);
        buf.set_stringn(area.x, area.y, &text, usize::from(area.width), style);
    }

    fn in_bar(&self) -> bool {
        true
    }
}
