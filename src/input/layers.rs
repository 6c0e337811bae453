//! Modal input under the popups: the end of a mouse selection's
//! highlight, the key after the prefix with its which-key popup, a
//! repeating command's key pressed again without the prefix, copy mode,
//! and normal typing at the bottom. A key goes first to the open popups
//! (`popups`, newest first); what none takes walks these layers, top
//! first, each taking it or passing it down. Unlike the popups, the layers
//! are always there and in a fixed order, and they hold no state of their
//! own: the mode they act on is in [`UiState`], which rendering reads.

mod actions;
mod copy;
mod last_output;
#[cfg(test)]
mod layer_tests;
mod no_op;
mod normal;
mod prefix;
mod repeat;
mod selection;
mod which_key;

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyEvent;

use crate::input::outcome::Outcome;
use crate::input::popups::{DrawCx, FollowUp, Popups};

pub use crate::input::popups::{Cx, Handled};

/// One modal layer of input.
pub trait Layer {
    fn handle_key(&self, cx: &mut Cx<'_>, key: &KeyEvent) -> Handled;

    /// What it shows over the panes while it waits for keys (the prefix:
    /// the which-key popup); most show nothing.
    fn draw(&self, _buf: &mut Buffer, _at: &DrawCx<'_>) {}
}

/// The layers, top first. [`normal::Normal`] at the bottom takes every key
/// that reaches it.
pub const STACK: &[&dyn Layer] = &[
    &selection::SelectionHighlight,
    &prefix::Prefix,
    &repeat::Repeat,
    &copy::Copy,
    &normal::Normal,
];

/// The popups, then the layers, until one takes `key`.
pub fn dispatch(cx: &mut Cx<'_>, key: &KeyEvent) -> Outcome {
    let repeating = cx.ui.repeating();
    let popups = cx.popups.len();
    let mut outcome = match Popups::route(cx, key) {
        Some((outcome, then)) => follow_up(cx, outcome, then),
        None => STACK
            .iter()
            .find_map(|layer| match layer.handle_key(cx, key) {
                Handled::Consumed(outcome) => Some(outcome),
                Handled::Pass => None,
            })
            .unwrap_or_default(),
    };
    // The status bar's `REPEAT` goes with the repeat, and a popup with its
    // key, also when the key went on to the program (which asks for no
    // frame).
    if (repeating && !cx.ui.repeating()) || popups != cx.popups.len() {
        outcome.redraw = true;
    }
    outcome
}

/// Draws what the layers show, then the popups: bottom first, as keys
/// reach them top first.
pub fn draw(buf: &mut Buffer, at: &DrawCx<'_>, popups: &Popups) {
    for layer in STACK.iter().rev() {
        layer.draw(buf, at);
    }
    popups.draw(buf, at);
}

/// What a popup left to the actions, done.
fn follow_up(cx: &mut Cx<'_>, mut outcome: Outcome, then: Option<FollowUp>) -> Outcome {
    match then {
        None => {}
        Some(FollowUp::CommandLine(line)) => outcome.merge(actions::command_line(cx, line)),
        Some(FollowUp::Confirmed(action)) => {
            outcome.merge(actions::workspace_action(cx, action));
        }
    }
    outcome
}

/// A command line as `C-b :` does it (for scripts: `tilework action
/// rename-tab x`).
pub fn run_command_line(cx: &mut Cx<'_>, line: crate::input::command_line::CommandLine) -> Outcome {
    actions::command_line(cx, line)
}

/// An action as a bound key does it (for scripts: `tilework action`).
pub fn run_action(cx: &mut Cx<'_>, action: crate::config::action::Action) -> Outcome {
    if cx.ui.mode == crate::input::ui_state::Mode::Prefix {
        cx.ui.leave_prefix();
    }
    actions::run(cx, action)
}
