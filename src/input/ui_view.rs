//! What rendering reads of one terminal's input state.

use crate::config::appearance::Appearance;
use crate::config::keymap::Keymap;
use crate::input::popups::Popups;
use crate::input::status_facts::StatusFacts;
use crate::input::ui_state::UiState;

/// What rendering needs from input: the UI state, the popups, and the
/// keymap (for the hints, the which-key popup and help), and the look the
/// router was given (theme, borders, status segments) with the status
/// bar's clock and host.
#[derive(Clone, Copy)]
pub struct UiView<'a> {
    pub state: &'a UiState,
    pub popups: &'a Popups,
    pub keymap: &'a Keymap,
    pub look: &'a Appearance,
    pub facts: &'a StatusFacts,
}

impl UiView<'_> {
    /// Something covers the panes and the cursor would blink on top of it
    /// (help, which-key, the search results, a chooser).
    pub fn popup_shown(&self) -> bool {
        self.state.which_key_shown() || self.popups.hide_cursor()
    }
}
