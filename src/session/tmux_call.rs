//! What `tmux` run against a workspace (`crate::tmux_compat`) asks of it
//! beyond tilework's own script calls: a snapshot of its tabs and panes
//! with what tmux's formats read, and the few changes tmux's commands make
//! that tilework's actions cannot say (a split of a given pane that keeps
//! the focus, a respawn with a new command, a title).
//!
//! Travels inside [`super::script::Call::Tmux`]. Panes are named by the id
//! scripts know them by (`list-panes`), tabs by their serial (`@N`).

use serde::{Deserialize, Serialize};

/// One request of the `tmux` front-end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "tmux", rename_all = "kebab-case")]
pub enum TmuxCall {
    /// The workspace as [`TmuxState`] (JSON).
    State,
    /// Opens a pane: splitting `pane` (`None`: the focused one), or in a
    /// new tab (`split: None`). Answers `TAB PANE` (serial, script id).
    Open {
        split: Option<Split>,
        pane: Option<u32>,
        /// The focus stays where it was (`-d`).
        keep_focus: bool,
        command: Command,
        /// The new tab's name.
        name: Option<String>,
    },
    /// Runs `command` in place of pane `pane`'s program, which is ended
    /// first; the pane keeps its id.
    Respawn {
        pane: u32,
        command: Command,
    },
    /// Focuses pane `pane` (showing its tab).
    Focus {
        pane: u32,
    },
    /// Shows tab `tab`.
    SelectTab {
        tab: u64,
    },
    /// Does keymap action `action` on pane `pane` (focused for it); with
    /// `keep_focus`, the focus goes back where it was afterwards.
    Act {
        pane: u32,
        action: String,
        keep_focus: bool,
    },
    SetTitle {
        pane: u32,
        title: String,
    },
    RenameTab {
        tab: u64,
        name: String,
    },
    /// Ends pane `pane` (its tab goes with its last pane).
    KillPane {
        pane: u32,
    },
    KillTab {
        tab: u64,
    },
    /// Shows `text` in the status bar of the attached terminals
    /// (`display-message` without `-p`).
    Notify {
        text: String,
    },
    /// Lays the tabs out at this size (tmux's `resize-window`): only while
    /// no terminal is attached, whose size the layout takes otherwise.
    ResizeWindow {
        cols: Option<u16>,
        rows: Option<u16>,
    },
    /// Renames the workspace (tmux's `rename-session`): done on a thread
    /// of its own, as `C-b $` does; its socket moves soon after.
    RenameSession {
        name: String,
    },
    /// Moves pane `pane`'s borders so it has this many cells.
    Resize {
        pane: u32,
        cols: Option<u16>,
        rows: Option<u16>,
    },
    /// Moves pane `src` out of its tab to split pane `dst` as `split`
    /// says (`join-pane`, `move-pane`), in any tab.
    Join {
        src: u32,
        dst: u32,
        split: Split,
        keep_focus: bool,
    },
    /// Gives pane `pane` a tab of its own, named `name` (`break-pane`).
    /// Answers `TAB PANE` as [`TmuxCall::Open`] does.
    Break {
        pane: u32,
        name: Option<String>,
        keep_focus: bool,
    },
    /// Panes `src` and `dst` change places (`swap-pane`), in any tabs.
    SwapPanes {
        src: u32,
        dst: u32,
        keep_focus: bool,
    },
    /// Tabs `src` and `dst` change places (`swap-window`).
    SwapTabs {
        src: u64,
        dst: u64,
        keep_focus: bool,
    },
    /// Copy mode on pane `pane` (focused for it): `command: None` enters
    /// it; else one of tmux's copy-mode commands with its arguments
    /// (`send-keys -X`). Answers the text it copied, if it copied.
    CopyMode {
        pane: u32,
        command: Option<String>,
        args: Vec<String>,
    },
    /// Marks pane `pane` (`None`: unmarks the marked one): the mark
    /// `C-b m` sets.
    Mark {
        pane: Option<u32>,
    },
}

/// The error [`TmuxCall::CopyMode`] answers while copy mode waits for the
/// pane's history: the caller asks again.
pub const COPY_LOADING: &str = "copy mode is loading";

/// How a pane is split for [`TmuxCall::Open`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Split {
    /// Side by side (tmux's `-h`), else one above the other.
    pub beside: bool,
    /// The new pane goes left of or above the old one (`-b`).
    pub before: bool,
    /// The new pane's size in cells along the split (`-l`).
    pub cells: Option<u16>,
    /// Or in percent of the split pane (`-p`, `-l N%`).
    pub percent: Option<u8>,
}

/// What a new or respawned pane runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Command {
    /// Empty: the user's shell. One word: a shell command line (`sh -c`),
    /// as tmux runs it; more: the program and its arguments.
    pub argv: Vec<String>,
    pub cwd: Option<String>,
    /// Variables set for it (`-e`, `set-environment`).
    pub env: Vec<(String, String)>,
}

/// The workspace as tmux's formats see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TmuxState {
    /// The workspace's name.
    pub name: String,
    /// The workspace process.
    pub pid: u32,
    /// Its session number for tmux (`$N`; see `workspace::tmux_env`).
    pub number: u32,
    /// When it started, in seconds since the epoch.
    pub created: u64,
    /// Terminals attached.
    pub clients: usize,
    /// The size panes are laid out in.
    pub cols: u16,
    pub rows: u16,
    /// The shown tab's index in `tabs`.
    pub active: usize,
    /// The tab shown before it (tmux's last window), by serial.
    pub last_tab: Option<u64>,
    pub tabs: Vec<TmuxTab>,
    /// The marked pane (`C-b m`, `select-pane -m`), by script id.
    #[serde(default)]
    pub marked: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TmuxTab {
    /// Its serial: `@N`.
    pub serial: u64,
    pub name: String,
    pub zoomed: bool,
    /// Its tiled panes in layout order, then its floating ones.
    pub panes: Vec<TmuxPane>,
    /// The focused pane of the tab, by script id.
    pub focus: u32,
    /// The pane focused before it (`{last}`).
    pub last_focus: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TmuxPane {
    pub id: u32,
    /// Its place on the screen, cells, borders left out.
    pub left: u16,
    pub top: u16,
    pub cols: u16,
    pub rows: u16,
    pub floating: bool,
    pub pid: Option<u32>,
    pub exit_code: Option<i32>,
    pub cwd: Option<String>,
    pub title: String,
    pub command: Vec<String>,
    /// Scrolled back or in copy mode.
    pub in_mode: bool,
    /// Lines of history above the screen.
    pub history: usize,
    pub cursor_x: u16,
    pub cursor_y: u16,
    pub alternate: bool,
    /// The terminal modes tmux's `*_flag` variables report.
    pub modes: PaneModes,
}

/// A pane's terminal modes, as tmux's format variables name them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaneModes {
    pub cursor_hidden: bool,
    pub keypad_cursor: bool,
    pub keypad: bool,
    pub bracketed_paste: bool,
    /// 0 none, 1 presses (X10), 2 standard, 3 button motion, 4 any motion.
    pub mouse: u8,
    pub mouse_sgr: bool,
    pub mouse_utf8: bool,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn calls_read_back_as_themselves() {
        let calls = [
            TmuxCall::State,
            TmuxCall::Open {
                split: Some(Split {
                    beside: true,
                    before: false,
                    cells: Some(10),
                    percent: None,
                }),
                pane: Some(4),
                keep_focus: true,
                command: Command {
                    argv: vec!["cat".into()],
                    cwd: Some("/tmp".into()),
                    env: vec![("A".into(), "b".into())],
                },
                name: None,
            },
            TmuxCall::Act {
                pane: 2,
                action: "toggle-zoom".into(),
                keep_focus: false,
            },
        ];
        for call in calls {
            let json = serde_json::to_string(&call).unwrap();
            assert_eq!(serde_json::from_str::<TmuxCall>(&json).unwrap(), call);
        }
    }
}
