//! Everything a user can ask the workspace to do, as plain values.
//!
//! Keys and mouse gestures map to actions through the keymap; the workspace
//! applies them. Keeping actions as data makes every behaviour testable
//! without a terminal and lets the help overlay describe bindings.

use std::fmt;
use std::str::FromStr;

/// A direction on screen, for focus moves and resizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    Left,
    Right,
    Up,
    Down,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::Left,
        Direction::Right,
        Direction::Up,
        Direction::Down,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Direction::Left => "left",
            Direction::Right => "right",
            Direction::Up => "up",
            Direction::Down => "down",
        }
    }
}

/// How many cells a single resize key press moves a border.
pub const RESIZE_STEP: u16 = 2;

/// A workspace command. Names (see [`Action::name`]) are what config files use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Split the focused pane; the new pane goes to the right.
    SplitRight,
    /// Split the focused pane; the new pane goes below.
    SplitDown,
    Focus(Direction),
    FocusNext,
    FocusPrev,
    /// Move the focused pane's border in a direction by [`RESIZE_STEP`] cells.
    Resize(Direction),
    ToggleZoom,
    ClosePane,
    NewTab,
    NextTab,
    PrevTab,
    /// Go to tab N (1-based, as shown in the status bar).
    GoToTab(u8),
    /// Enter scrollback view on the focused pane (PgUp/PgDn/arrows, `q` to leave).
    ScrollMode,
    ScrollPageUp,
    ScrollPageDown,
    ToggleHelp,
    ToggleFps,
    /// Send the prefix key itself to the focused pane (prefix pressed twice).
    SendPrefix,
    Quit,
}

impl Action {
    /// Every action with no parameter plus each parameterised variant's
    /// instances, in the order the help overlay lists them.
    pub fn all() -> Vec<Action> {
        let mut all = vec![Action::SplitRight, Action::SplitDown];
        all.extend(Direction::ALL.map(Action::Focus));
        all.extend([Action::FocusNext, Action::FocusPrev]);
        all.extend(Direction::ALL.map(Action::Resize));
        all.extend([
            Action::ToggleZoom,
            Action::ClosePane,
            Action::NewTab,
            Action::NextTab,
            Action::PrevTab,
        ]);
        all.extend((1..=9).map(Action::GoToTab));
        all.extend([
            Action::ScrollMode,
            Action::ScrollPageUp,
            Action::ScrollPageDown,
            Action::ToggleHelp,
            Action::ToggleFps,
            Action::SendPrefix,
            Action::Quit,
        ]);
        all
    }

    /// The kebab-case name used in config files, e.g. `focus-left`, `go-to-tab-3`.
    pub fn name(&self) -> String {
        match self {
            Action::SplitRight => "split-right".into(),
            Action::SplitDown => "split-down".into(),
            Action::Focus(d) => format!("focus-{}", d.name()),
            Action::FocusNext => "focus-next".into(),
            Action::FocusPrev => "focus-prev".into(),
            Action::Resize(d) => format!("resize-{}", d.name()),
            Action::ToggleZoom => "toggle-zoom".into(),
            Action::ClosePane => "close-pane".into(),
            Action::NewTab => "new-tab".into(),
            Action::NextTab => "next-tab".into(),
            Action::PrevTab => "prev-tab".into(),
            Action::GoToTab(n) => format!("go-to-tab-{n}"),
            Action::ScrollMode => "scroll-mode".into(),
            Action::ScrollPageUp => "scroll-page-up".into(),
            Action::ScrollPageDown => "scroll-page-down".into(),
            Action::ToggleHelp => "toggle-help".into(),
            Action::ToggleFps => "toggle-fps".into(),
            Action::SendPrefix => "send-prefix".into(),
            Action::Quit => "quit".into(),
        }
    }

    /// One line for the help overlay.
    pub fn description(&self) -> String {
        match self {
            Action::SplitRight => "split: new pane to the right".into(),
            Action::SplitDown => "split: new pane below".into(),
            Action::Focus(d) => format!("focus the pane {}", d.name()),
            Action::FocusNext => "focus the next pane".into(),
            Action::FocusPrev => "focus the previous pane".into(),
            Action::Resize(d) => format!("move the border {}", d.name()),
            Action::ToggleZoom => "zoom the pane / unzoom".into(),
            Action::ClosePane => "close the pane (kills its program)".into(),
            Action::NewTab => "open a new tab".into(),
            Action::NextTab => "next tab".into(),
            Action::PrevTab => "previous tab".into(),
            Action::GoToTab(n) => format!("go to tab {n}"),
            Action::ScrollMode => "scrollback: PgUp/PgDn/arrows, q leaves".into(),
            Action::ScrollPageUp => "scroll back one page".into(),
            Action::ScrollPageDown => "scroll forward one page".into(),
            Action::ToggleHelp => "show / hide this help".into(),
            Action::ToggleFps => "show / hide the fps overlay".into(),
            Action::SendPrefix => "send the prefix key to the pane".into(),
            Action::Quit => "quit tilework (kills every pane)".into(),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The name was not one of [`Action::all`]'s names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownAction(pub String);

impl fmt::Display for UnknownAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown action `{}`", self.0)
    }
}

impl std::error::Error for UnknownAction {}

impl FromStr for Action {
    type Err = UnknownAction;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Action::all()
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| UnknownAction(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_round_trips_through_its_name() {
        for action in Action::all() {
            assert_eq!(action.name().parse::<Action>(), Ok(action));
        }
    }

    #[test]
    fn unknown_names_are_refused() {
        assert_eq!(
            "split-sideways".parse::<Action>(),
            Err(UnknownAction("split-sideways".into()))
        );
    }
}
