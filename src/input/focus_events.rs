//! Focus events for the programs that ask for them (`CSI ? 1004 h`): `CSI I`
//! when their pane gains the focus, `CSI O` when it loses it, as xterm and
//! tmux send them. vim's `FocusGained` (and with it `autoread`), and
//! editors that stop blinking their cursor or save on leaving, depend on it.
//!
//! A pane has the focus when it is its tab's focused pane, its tab is the
//! one shown and the user's terminal has the focus (tilework asks it for
//! focus events too). Rather than hook every way the focus can move (a
//! pane switch by key or click, a tab switch, a pane closing, a profile
//! opening), the loop calls [`FocusReporter::update`] once a turn and the
//! reporter compares with the pane it last reported. Zooming keeps the
//! focused pane, so it sends nothing (as in tmux).

use crate::pane::PaneId;
use crate::workspace::Workspace;

pub const FOCUS_IN: &[u8] = b"\x1b[I";
pub const FOCUS_OUT: &[u8] = b"\x1b[O";

#[derive(Debug)]
pub struct FocusReporter {
    /// Whether the user's terminal has the focus (until it says otherwise,
    /// it does: it just started tilework).
    outer: bool,
    /// The pane that has the focus as last reported.
    reported: Option<PaneId>,
}

impl Default for FocusReporter {
    fn default() -> Self {
        Self {
            outer: true,
            reported: None,
        }
    }
}

impl FocusReporter {
    /// The user's terminal gained (true) or lost the focus.
    pub fn outer_focus(&mut self, focused: bool) {
        self.outer = focused;
    }

    /// Tells the panes that asked whether they lost or gained the focus
    /// since the last call.
    pub fn update(&mut self, ws: &Workspace) {
        let focused = if self.outer {
            ws.tabs().focused_id()
        } else {
            None
        };
        if focused == self.reported {
            return;
        }
        for (id, event) in [(self.reported, FOCUS_OUT), (focused, FOCUS_IN)] {
            if let Some(pane) = id.and_then(|id| ws.panes().get(id))
                && pane.term().modes().focus_events
            {
                pane.program().send(event);
            }
        }
        self.reported = focused;
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;

    use crate::config::action::Action;
    use crate::pane::program::process::fake::FakeLauncher;

    fn workspace() -> (Workspace, FakeLauncher) {
        crate::workspace::fake_workspace::one_pane("vim")
    }

    /// Pane `id`'s program asks for focus events.
    fn asks(ws: &mut Workspace, id: PaneId) {
        ws.panes_mut()
            .get_mut(id)
            .unwrap()
            .feed(b"\x1b[?1004h".to_vec());
    }

    #[test]
    fn panes_that_asked_hear_when_they_gain_and_lose_the_focus() {
        let (mut ws, fake) = workspace();
        let mut focus = FocusReporter::default();
        let first = ws.tabs().focused_id().unwrap();
        asks(&mut ws, first);
        focus.update(&ws);
        assert_eq!(fake.input(first), FOCUS_IN);
        // A split focuses the new pane (which did not ask: it hears nothing).
        ws.apply(Action::SplitRight);
        let second = ws.tabs().focused_id().unwrap();
        focus.update(&ws);
        assert_eq!(fake.input(first), [FOCUS_IN, FOCUS_OUT].concat());
        assert!(fake.input(second).is_empty());
        asks(&mut ws, second);
        // Back to the first pane, then a new tab, then back to the first tab.
        ws.apply(Action::FocusPrev);
        focus.update(&ws);
        ws.apply(Action::NewTab);
        focus.update(&ws);
        ws.apply(Action::GoToTab(1));
        focus.update(&ws);
        assert_eq!(
            fake.input(first),
            [FOCUS_IN, FOCUS_OUT, FOCUS_IN, FOCUS_OUT, FOCUS_IN].concat()
        );
        assert_eq!(fake.input(second), FOCUS_OUT);
        // Nothing moved: nothing more is sent.
        focus.update(&ws);
        assert_eq!(fake.input(second), FOCUS_OUT);
    }

    #[test]
    fn the_users_terminal_losing_the_focus_takes_it_from_the_pane() {
        let (mut ws, fake) = workspace();
        let mut focus = FocusReporter::default();
        let id = ws.tabs().focused_id().unwrap();
        asks(&mut ws, id);
        focus.update(&ws);
        focus.outer_focus(false);
        focus.update(&ws);
        focus.outer_focus(true);
        focus.update(&ws);
        assert_eq!(fake.input(id), [FOCUS_IN, FOCUS_OUT, FOCUS_IN].concat());
        // A program that turned the mode off hears nothing.
        ws.panes_mut()
            .get_mut(id)
            .unwrap()
            .feed(b"\x1b[?1004l".to_vec());
        focus.outer_focus(false);
        focus.update(&ws);
        assert_eq!(fake.input(id), [FOCUS_IN, FOCUS_OUT, FOCUS_IN].concat());
    }
}
