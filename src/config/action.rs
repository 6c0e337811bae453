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

/// Layout presets, like tmux's `select-layout`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Preset {
    /// All panes side by side, equal widths.
    EvenHorizontal,
    /// All panes stacked, equal heights.
    EvenVertical,
    /// The focused pane large on the left, the others stacked on the right.
    MainVertical,
    /// A grid as square as the pane count allows.
    Tiled,
}

impl Preset {
    pub const ALL: [Preset; 4] = [
        Preset::EvenHorizontal,
        Preset::EvenVertical,
        Preset::MainVertical,
        Preset::Tiled,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Preset::EvenHorizontal => "even-horizontal",
            Preset::EvenVertical => "even-vertical",
            Preset::MainVertical => "main-vertical",
            Preset::Tiled => "tiled",
        }
    }

    pub fn next(self) -> Preset {
        let i = Preset::ALL.iter().position(|&p| p == self).unwrap_or(0);
        Preset::ALL[(i + 1) % Preset::ALL.len()]
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
    /// vim-tmux-navigator's move: the key (`C-h`, `C-j`, `C-k`, `C-l`) to
    /// the pane when vim, neovim or fzf is in front there, else focus the
    /// pane in that direction.
    Navigate(Direction),
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
    CloseTab,
    /// Ask for a new name for the current tab.
    RenameTab,
    /// Move the focused pane into a new tab of its own (tmux break-pane).
    BreakPane,
    /// Move the focused pane into the next tab, splitting its focused pane.
    MovePaneToNextTab,
    /// Mark the focused pane, or unmark it when marked (tmux's `C-b m`):
    /// the pane tmux's `{marked}` and `join-pane` take.
    MarkPane,
    /// Unmark the marked pane (tmux's `C-b M`).
    ClearPaneMark,
    /// Exchange the focused pane with the next / previous one in the tab.
    SwapNext,
    SwapPrev,
    /// Move every pane one place along the tab's reading order.
    RotatePanes,
    /// Apply a layout preset to the current tab.
    Layout(Preset),
    /// Cycle through the presets, like tmux's `Space`.
    NextLayout,
    /// Paste tilework's copy buffer into the focused pane.
    PasteBuffer,
    /// Copy mode with a search prompt.
    SearchBackward,
    /// Search every pane of the tab and list the matches.
    SearchAllPanes,
    /// Type into every pane of the tab at once (toggle).
    ToggleBroadcast,
    /// Save the workspace as a profile (asks for a name).
    SaveProfile,
    /// Start the focused pane's command again.
    RestartPane,
    /// Enter scrollback view on the focused pane (PgUp/PgDn/arrows, `q` to leave).
    ScrollMode,
    ScrollPageUp,
    ScrollPageDown,
    ToggleHelp,
    ToggleFps,
    /// Send the prefix key itself to the focused pane (prefix pressed twice).
    SendPrefix,
    /// Let the terminal go; the workspace keeps running (`tilework attach`).
    Detach,
    Quit,
    /// Shows or hides the tab's floating panes (a scratch shell if none).
    ToggleFloating,
    /// Opens one more floating pane.
    NewFloating,
    /// Floating pane into the tiled layout, or tiled pane out of it.
    ToggleEmbed,
    MoveFloating(Direction),
    /// Pins the focused floating pane: it stays on screen while the
    /// floating panes are hidden (or unpins it).
    TogglePin,
    /// Opens the focused pane's whole history in `$VISUAL`/`$EDITOR`, in a
    /// floating pane.
    EditScrollback,
    /// Lists the running workspaces with their tabs and panes; Enter shows
    /// the chosen one on this terminal (tmux's `choose-tree`).
    ChooseWorkspace,
    /// Shows the previous / next running workspace (by name) on this
    /// terminal (tmux's `switch-client -p` / `-n`).
    PrevWorkspace,
    NextWorkspace,
    // tmux's muscle memory (`C-b l ; q i ' . < > : $`).
    /// Show the tab focused before this one (tmux's last-window).
    LastTab,
    /// Focus the pane of the tab focused before this one (last-pane).
    LastPane,
    /// Show each pane's number over it; a digit focuses that pane.
    DisplayPanes,
    /// Say the focused pane's id, command, pid, size and directory.
    PaneInfo,
    /// Ask for a tab's number (or name) and show it.
    SelectTab,
    /// Ask for the place to move the tab to.
    MoveTab,
    MoveTabLeft,
    MoveTabRight,
    /// Ask for a command, as `tilework action` and the CLI take them.
    CommandPrompt,
    /// Ask for a new name for the workspace (`tilework ls`, `attach`).
    RenameWorkspace,
    /// Reads the config file again (tmux's `source-file`); keys, theme,
    /// status bar and hooks change at once.
    SourceConfig,
    /// Lists the last copies kept (paste buffers) to paste one.
    ChooseBuffer,
    /// Forgets the focused pane's history, in memory and on disk (tmux's
    /// `clear-history`): for a secret printed by mistake.
    ClearHistory,
    /// Copies the output of the focused pane's last finished command (its
    /// shell marks its commands, issue 43), as copy mode copies.
    CopyLastOutput,
    /// Opens that output in `$VISUAL`/`$EDITOR`, in a floating pane.
    EditLastOutput,
}

impl Action {
    /// Whether a read-only terminal (`attach -r`) may do it: it changes
    /// nothing the other terminals see.
    pub fn only_looks(self) -> bool {
        matches!(
            self,
            Action::ToggleHelp
                | Action::ToggleFps
                | Action::ScrollMode
                | Action::ScrollPageUp
                | Action::ScrollPageDown
                | Action::SearchBackward
                | Action::Detach
                | Action::ChooseWorkspace
                | Action::PrevWorkspace
                | Action::NextWorkspace
        )
    }

    /// Whether the action repeats, like tmux's `bind -r`: pressed after
    /// the prefix, it can be pressed again (or another repeating action)
    /// without the prefix while the repeat time runs, so a border moves a
    /// few steps with `C-b C-Left C-Left C-Left`.
    ///
    /// Only the geometry nudges repeat: one step is too small to be the
    /// whole intent, and a stray repeat only moves a border. Focus moves do
    /// not, although tmux repeats its arrows: after `C-b Up` the next `Up`
    /// is usually meant for the program just focused (shell history, an
    /// editor), and tmux users often unbind that for this reason; the
    /// direct `M-arrows` move the focus several panes without a prefix.
    pub fn repeats(&self) -> bool {
        matches!(self, Action::Resize(_) | Action::MoveFloating(_))
    }

    /// Every action with no parameter plus each parameterised variant's
    /// instances, in the order the help overlay lists them.
    pub fn all() -> Vec<Action> {
        let mut all = vec![Action::SplitRight, Action::SplitDown];
        all.extend(Direction::ALL.map(Action::Focus));
        all.extend(Direction::ALL.map(Action::Navigate));
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
            Action::CloseTab,
            Action::RenameTab,
            Action::BreakPane,
            Action::MovePaneToNextTab,
            Action::MarkPane,
            Action::ClearPaneMark,
            Action::SwapNext,
            Action::SwapPrev,
            Action::RotatePanes,
        ]);
        all.extend(Preset::ALL.map(Action::Layout));
        all.extend([
            Action::NextLayout,
            Action::PasteBuffer,
            Action::ChooseBuffer,
            Action::SearchBackward,
            Action::SearchAllPanes,
            Action::ToggleBroadcast,
            Action::SaveProfile,
            Action::RestartPane,
        ]);
        all.extend([
            Action::ScrollMode,
            Action::ScrollPageUp,
            Action::ScrollPageDown,
            Action::ClearHistory,
            Action::ToggleHelp,
            Action::ToggleFps,
            Action::SendPrefix,
            Action::SourceConfig,
            Action::Detach,
            Action::ChooseWorkspace,
            Action::PrevWorkspace,
            Action::NextWorkspace,
            Action::Quit,
        ]);
        all.extend([
            Action::ToggleFloating,
            Action::NewFloating,
            Action::ToggleEmbed,
        ]);
        all.extend(Direction::ALL.map(Action::MoveFloating));
        all.extend([Action::TogglePin, Action::EditScrollback]);
        all.extend([Action::CopyLastOutput, Action::EditLastOutput]);
        all.extend([
            Action::LastTab,
            Action::LastPane,
            Action::DisplayPanes,
            Action::PaneInfo,
            Action::SelectTab,
            Action::MoveTab,
            Action::MoveTabLeft,
            Action::MoveTabRight,
            Action::CommandPrompt,
            Action::RenameWorkspace,
        ]);
        all
    }

    /// The kebab-case name used in config files, e.g. `focus-left`, `go-to-tab-3`.
    pub fn name(&self) -> String {
        match self {
            Action::SplitRight => "split-right".into(),
            Action::SplitDown => "split-down".into(),
            Action::Focus(d) => format!("focus-{}", d.name()),
            Action::Navigate(d) => format!("navigate-{}", d.name()),
            Action::FocusNext => "focus-next".into(),
            Action::FocusPrev => "focus-prev".into(),
            Action::Resize(d) => format!("resize-{}", d.name()),
            Action::ToggleZoom => "toggle-zoom".into(),
            Action::ClosePane => "close-pane".into(),
            Action::NewTab => "new-tab".into(),
            Action::NextTab => "next-tab".into(),
            Action::PrevTab => "prev-tab".into(),
            Action::GoToTab(n) => format!("go-to-tab-{n}"),
            Action::CloseTab => "close-tab".into(),
            Action::RenameTab => "rename-tab".into(),
            Action::BreakPane => "break-pane".into(),
            Action::MovePaneToNextTab => "move-pane-to-next-tab".into(),
            Action::MarkPane => "mark-pane".into(),
            Action::ClearPaneMark => "clear-pane-mark".into(),
            Action::SwapNext => "swap-next".into(),
            Action::SwapPrev => "swap-prev".into(),
            Action::RotatePanes => "rotate-panes".into(),
            Action::Layout(p) => format!("layout-{}", p.name()),
            Action::NextLayout => "next-layout".into(),
            Action::PasteBuffer => "paste-buffer".into(),
            Action::SearchBackward => "search".into(),
            Action::SearchAllPanes => "search-all-panes".into(),
            Action::ToggleBroadcast => "toggle-broadcast".into(),
            Action::SaveProfile => "save-session".into(),
            Action::RestartPane => "restart-pane".into(),
            Action::ScrollMode => "copy-mode".into(),
            Action::ScrollPageUp => "scroll-page-up".into(),
            Action::ScrollPageDown => "scroll-page-down".into(),
            Action::ToggleHelp => "toggle-help".into(),
            Action::ToggleFps => "toggle-fps".into(),
            Action::SendPrefix => "send-prefix".into(),
            Action::Detach => "detach".into(),
            Action::ChooseWorkspace => "choose-workspace".into(),
            Action::PrevWorkspace => "previous-workspace".into(),
            Action::NextWorkspace => "next-workspace".into(),
            Action::Quit => "quit".into(),
            Action::ToggleFloating => "toggle-floating".into(),
            Action::NewFloating => "new-floating".into(),
            Action::ToggleEmbed => "toggle-embed".into(),
            Action::MoveFloating(d) => format!("move-floating-{}", d.name()),
            Action::TogglePin => "toggle-pin".into(),
            Action::EditScrollback => "edit-scrollback".into(),
            Action::LastTab => "last-tab".into(),
            Action::LastPane => "last-pane".into(),
            Action::DisplayPanes => "display-panes".into(),
            Action::PaneInfo => "pane-info".into(),
            Action::SelectTab => "select-tab".into(),
            Action::MoveTab => "move-tab".into(),
            Action::MoveTabLeft => "move-tab-left".into(),
            Action::MoveTabRight => "move-tab-right".into(),
            Action::CommandPrompt => "command-prompt".into(),
            Action::RenameWorkspace => "rename-workspace".into(),
            Action::SourceConfig => "source-config".into(),
            Action::ChooseBuffer => "choose-buffer".into(),
            Action::ClearHistory => "clear-history".into(),
            Action::CopyLastOutput => "copy-last-output".into(),
            Action::EditLastOutput => "edit-last-output".into(),
        }
    }

    /// One line for the help overlay.
    pub fn description(&self) -> String {
        match self {
            Action::SplitRight => "split: new pane to the right".into(),
            Action::SplitDown => "split: new pane below".into(),
            Action::Focus(d) => format!("focus the pane {}", d.name()),
            Action::Navigate(d) => {
                format!("the key to vim in front, else focus the pane {}", d.name())
            }
            Action::FocusNext => "focus the next pane".into(),
            Action::FocusPrev => "focus the previous pane".into(),
            Action::Resize(d) => format!("move the border {}", d.name()),
            Action::ToggleZoom => "zoom the pane / unzoom".into(),
            Action::ClosePane => "close the pane (kills its program)".into(),
            Action::NewTab => "open a new tab".into(),
            Action::NextTab => "next tab".into(),
            Action::PrevTab => "previous tab".into(),
            Action::GoToTab(n) => format!("go to tab {n}"),
            Action::CloseTab => "close the tab and its panes".into(),
            Action::RenameTab => "rename the tab".into(),
            Action::BreakPane => "move the pane to a new tab".into(),
            Action::MovePaneToNextTab => "move the pane to the next tab".into(),
            Action::MarkPane => "mark or unmark the pane (tmux's marked pane)".into(),
            Action::ClearPaneMark => "unmark the marked pane".into(),
            Action::SwapNext => "swap the pane with the next one".into(),
            Action::SwapPrev => "swap the pane with the previous one".into(),
            Action::RotatePanes => "rotate the panes of the tab".into(),
            Action::Layout(p) => format!("layout: {}", p.name()),
            Action::NextLayout => "cycle layout presets".into(),
            Action::PasteBuffer => "paste the copy buffer".into(),
            Action::SearchBackward => "search the pane's history (regex)".into(),
            Action::SearchAllPanes => "search every pane of the tab".into(),
            Action::ToggleBroadcast => "type into every pane of the tab".into(),
            Action::SaveProfile => "save the workspace as a profile".into(),
            Action::RestartPane => "restart the pane's command".into(),
            Action::ScrollMode => {
                "copy mode: scroll, select (v V C-v), copy (y), search (/ ?), q leaves".into()
            }
            Action::ScrollPageUp => "scroll back one page".into(),
            Action::ScrollPageDown => "scroll forward one page".into(),
            Action::ToggleHelp => "show / hide this help".into(),
            Action::ToggleFps => "show / hide the fps overlay".into(),
            Action::SendPrefix => "send the prefix key to the pane".into(),
            Action::Detach => "detach: tilework keeps running (tilework attach)".into(),
            Action::ChooseWorkspace => {
                "choose a running workspace, tab or pane to show on this terminal".into()
            }
            Action::PrevWorkspace => "show the previous workspace on this terminal".into(),
            Action::NextWorkspace => "show the next workspace on this terminal".into(),
            Action::Quit => "quit tilework (kills every pane)".into(),
            Action::ToggleFloating => {
                "show / hide the floating panes (a scratch shell the first time)".into()
            }
            Action::NewFloating => "open another floating pane".into(),
            Action::ToggleEmbed => "floating pane into the layout / out of it".into(),
            Action::MoveFloating(d) => format!("move the floating pane {}", d.name()),
            Action::TogglePin => "pin the floating pane (stays when hidden) / unpin".into(),
            Action::EditScrollback => "open the pane's history in $EDITOR".into(),
            Action::LastTab => "the tab shown before this one".into(),
            Action::LastPane => "the pane focused before this one".into(),
            Action::DisplayPanes => "show pane numbers; a digit focuses one".into(),
            Action::PaneInfo => {
                "the workspace's name; the pane's id, command, pid, size, directory".into()
            }
            Action::SelectTab => "go to a tab by number or name (asks)".into(),
            Action::MoveTab => "move the tab to a place (asks)".into(),
            Action::MoveTabLeft => "move the tab one place left".into(),
            Action::MoveTabRight => "move the tab one place right".into(),
            Action::CommandPrompt => "command prompt: tilework's commands, Tab completes".into(),
            Action::RenameWorkspace => "rename the workspace (tilework ls, attach)".into(),
            Action::SourceConfig => "reload the config file".into(),
            Action::ChooseBuffer => "choose a paste buffer to paste".into(),
            Action::ClearHistory => "forget the pane's history, on disk too".into(),
            Action::CopyLastOutput => "copy the last command's output".into(),
            Action::EditLastOutput => "open the last command's output in $EDITOR".into(),
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
