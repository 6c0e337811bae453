//! `C-b s`'s chooser over the running workspaces: up and down (or `k`
//! `j`) pick a row, Enter shows it on this terminal, Esc or `q` closes the
//! list.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{Cx, Handled, Layer};
use crate::input::outcome::{Command, Outcome};

pub struct ChooseWorkspace;

impl Layer for ChooseWorkspace {
    fn handle_key(&self, cx: &mut Cx<'_>, key: &KeyEvent) -> Handled {
        let Some(chooser) = cx.ui.workspaces.as_mut() else {
            return Handled::Pass;
        };
        let step = match key.code {
            KeyCode::Up | KeyCode::Char('k') => -1,
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => 1,
            KeyCode::PageUp => -10,
            KeyCode::PageDown => 10,
            KeyCode::Enter => {
                let target = chooser.target().cloned();
                cx.ui.workspaces = None;
                let mut out = Outcome::redraw();
                if let Some(target) = target {
                    out.commands.push(Command::SwitchWorkspace(target));
                }
                return Handled::Consumed(out);
            }
            KeyCode::Esc | KeyCode::Char('q') => {
                cx.ui.workspaces = None;
                return Handled::Consumed(Outcome::redraw());
            }
            // Other keys do nothing while the list is open.
            _ => return Handled::Consumed(Outcome::default()),
        };
        chooser.step(step);
        Handled::Consumed(Outcome::redraw())
    }
}
