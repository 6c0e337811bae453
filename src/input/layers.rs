//! Modal input as a stack of layers, top first: a question before a close
//! or quit, the prompt, `C-b q`'s pane numbers, the results of
//! a search across panes, help, (the end of a mouse selection's
//! highlight), the key after the prefix with its which-key popup, a
//! repeating command's key pressed again without the prefix, copy mode,
//! and normal typing at the bottom. Each layer takes a key or passes
//! it down, like helix's compositor and gitui's popup stack; a layer that
//! is not open passes everything. The layers hold no state of their own:
//! what they open and close is in [`UiState`], which rendering reads.

mod actions;
mod choose_buffer;
mod choose_workspace;
mod confirm;
mod copy;
mod help;
mod last_output;
mod no_op;
mod normal;
mod pane_numbers;
mod prefix;
mod prompt;
mod repeat;
mod search_all;
mod selection;
#[cfg(test)]
mod tests;

use ratatui::crossterm::event::KeyEvent;

use crate::config::keymap::Keymap;
use crate::input::outcome::Outcome;
use crate::input::search_worker::SearchMailbox;
use crate::input::to_panes::PaneInput;
use crate::input::ui_state::UiState;
use crate::workspace::Workspace;

/// What a layer did with a key.
#[derive(Debug)]
pub enum Handled {
    /// The layer took the key; the layers below do not see it.
    Consumed(Outcome),
    /// Not for this layer: the next one down gets it.
    Pass,
}

/// One modal layer of input.
pub trait Layer {
    fn handle_key(&self, cx: &mut Cx<'_>, key: &KeyEvent) -> Handled;
}

/// The stack, top first. [`normal::Normal`] at the bottom takes every key
/// that reaches it.
pub const STACK: &[&dyn Layer] = &[
    &confirm::ConfirmLayer,
    &prompt::PromptLayer,
    &pane_numbers::PaneNumbers,
    &search_all::SearchAllLayer,
    &choose_workspace::ChooseWorkspace,
    &choose_buffer::ChooseBuffer,
    &help::Help,
    &selection::SelectionHighlight,
    &prefix::Prefix,
    &repeat::Repeat,
    &copy::Copy,
    &normal::Normal,
];

/// Walks the stack until a layer takes `key`.
pub fn dispatch(cx: &mut Cx<'_>, key: &KeyEvent) -> Outcome {
    let repeating = cx.ui.repeating();
    let numbers = cx.ui.pane_numbers_shown();
    let mut outcome = STACK
        .iter()
        .find_map(|layer| match layer.handle_key(cx, key) {
            Handled::Consumed(outcome) => Some(outcome),
            Handled::Pass => None,
        })
        .unwrap_or_default();
    // The status bar's `REPEAT` goes with the repeat, also when the key
    // that ended it went on to the program (which asks for no frame).
    if (repeating && !cx.ui.repeating()) || (numbers && !cx.ui.pane_numbers_shown()) {
        outcome.redraw = true;
    }
    outcome
}

/// A command line as `C-b :` does it (for scripts: `tilework action
/// rename-tab x`).
pub fn run_command_line(cx: &mut Cx<'_>, line: crate::input::command_line::CommandLine) -> Outcome {
    prompt::apply(cx, line)
}

/// An action as a bound key does it (for scripts: `tilework action`).
pub fn run_action(cx: &mut Cx<'_>, action: crate::config::action::Action) -> Outcome {
    if cx.ui.mode == crate::input::ui_state::Mode::Prefix {
        cx.ui.leave_prefix();
    }
    actions::run(cx, action)
}

/// What the layers work on.
pub struct Cx<'a> {
    pub ws: &'a mut Workspace,
    pub ui: &'a mut UiState,
    pub keymap: &'a Keymap,
    pub to_panes: &'a mut PaneInput,
    /// The profile name the save prompt offers.
    pub session_name: Option<&'a str>,
    /// The workspace's name (`tilework ls`), which `C-b $` offers.
    pub workspace_name: Option<&'a str>,
    /// Where copy-mode searches report.
    pub searches: &'a SearchMailbox,
    /// Ask before closing or quitting stops a program (`confirm_close`).
    pub confirm_close: bool,
    /// A terminal attached with `attach -r`: it looks, it does not touch.
    pub read_only: bool,
}

impl Cx<'_> {
    /// Says why a read-only terminal's input went nowhere.
    pub fn refuse_read_only(&mut self) -> Outcome {
        self.ui.notify("read-only: it does not type".into());
        Outcome::redraw()
    }

    /// A key for the programs; says so when one refuses it.
    pub fn send_key(&mut self, key: &KeyEvent) -> Outcome {
        if self.read_only {
            return self.refuse_read_only();
        }
        let delivery = self.to_panes.key(self.ws, key);
        if delivery.refused {
            self.ui
                .notify("keys refused: the program is not reading its input".into());
        }
        delivery.outcome
    }

    /// Pasted text for the programs; says so when one refuses it.
    pub fn paste(&mut self, text: &str) -> Outcome {
        if self.read_only {
            return self.refuse_read_only();
        }
        let delivery = PaneInput::paste(self.ws, text);
        if delivery.refused {
            self.ui
                .notify("paste refused: the program is not reading its input".into());
        }
        delivery.outcome
    }

    /// Starts copy-mode search for `pattern` (or switches its case) and
    /// shows its status in the search prompt.
    pub fn search_copy(&mut self, pattern: &str, toggle_case: bool) {
        if let Some(status) = self
            .ui
            .copy
            .search(self.ws, pattern, toggle_case, self.searches)
        {
            self.ui.set_search_status(status);
        }
    }
}
