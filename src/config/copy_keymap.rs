//! Copy mode's key table (`[keys.copy]`, tmux's `bind -T copy-mode-vi`):
//! which key does which copy-mode command. The defaults are vi's; a
//! config rebinds or unbinds (`"none"`) any of them. Digits before a key
//! are its count and are not in the table; the prefix key works in copy
//! mode as everywhere.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use toml::Spanned;

use crate::config::file_error::FileError;
use crate::config::key_spec::{KeySpec, UNBIND};

/// One copy-mode command, by the name `[keys.copy]` uses (tmux's where
/// tmux has one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CopyAction {
    CursorUp,
    CursorDown,
    CursorLeft,
    CursorRight,
    ScrollUp,
    ScrollDown,
    HalfPageUp,
    HalfPageDown,
    PageUp,
    PageDown,
    NextWord,
    NextSpace,
    PreviousWord,
    PreviousSpace,
    NextWordEnd,
    NextSpaceEnd,
    StartOfLine,
    BackToIndentation,
    EndOfLine,
    HistoryTop,
    HistoryBottom,
    TopLine,
    MiddleLine,
    BottomLine,
    NextParagraph,
    PreviousParagraph,
    /// `f`: the next key is the character to move onto.
    JumpForward,
    JumpBackward,
    /// `t`: up to the character.
    JumpToForward,
    JumpToBackward,
    JumpAgain,
    JumpReverse,
    NextMatchingBracket,
    BeginSelection,
    SelectLine,
    RectangleToggle,
    CopySelectionAndCancel,
    /// Copy and stay in copy mode, the selection cleared (tmux's).
    CopySelection,
    /// Copy and pipe the text to a command (the one after the name in
    /// `[keys.copy]`, else `copy_command`); stay, or leave.
    CopyPipe,
    CopyPipeAndCancel,
    /// Add the selection to the end of the newest copy; stay, or leave.
    AppendSelection,
    AppendSelectionAndCancel,
    Search,
    SearchAgain,
    SearchReverse,
    SearchToggleCase,
    Cancel,
    ClearSelection,
    /// Commands as units (OSC 133 marks, issue 43).
    PreviousPrompt,
    NextPrompt,
    SelectOutput,
}

use CopyAction as C;

/// Every command with its name and what it does, in the order
/// `--print-config` lists them.
const COMMANDS: &[(CopyAction, &str, &str)] = &[
    (C::CursorUp, "cursor-up", "up a line"),
    (C::CursorDown, "cursor-down", "down a line"),
    (C::CursorLeft, "cursor-left", "left a character"),
    (C::CursorRight, "cursor-right", "right a character"),
    (C::ScrollUp, "scroll-up", "scroll up a line"),
    (C::ScrollDown, "scroll-down", "scroll down a line"),
    (C::HalfPageUp, "halfpage-up", "up half a page"),
    (C::HalfPageDown, "halfpage-down", "down half a page"),
    (C::PageUp, "page-up", "up a page"),
    (C::PageDown, "page-down", "down a page"),
    (C::NextWord, "next-word", "next word"),
    (C::NextSpace, "next-space", "next WORD"),
    (C::PreviousWord, "previous-word", "previous word"),
    (C::PreviousSpace, "previous-space", "previous WORD"),
    (C::NextWordEnd, "next-word-end", "end of the word"),
    (C::NextSpaceEnd, "next-space-end", "end of the WORD"),
    (C::StartOfLine, "start-of-line", "start of the line"),
    (
        C::BackToIndentation,
        "back-to-indentation",
        "first non-blank",
    ),
    (C::EndOfLine, "end-of-line", "end of the line"),
    (C::HistoryTop, "history-top", "oldest line"),
    (C::HistoryBottom, "history-bottom", "newest line"),
    (C::TopLine, "top-line", "top of the view"),
    (C::MiddleLine, "middle-line", "middle of the view"),
    (C::BottomLine, "bottom-line", "bottom of the view"),
    (C::NextParagraph, "next-paragraph", "next paragraph"),
    (
        C::PreviousParagraph,
        "previous-paragraph",
        "previous paragraph",
    ),
    (
        C::JumpForward,
        "jump-forward",
        "onto the next character typed",
    ),
    (
        C::JumpBackward,
        "jump-backward",
        "back onto the character typed",
    ),
    (
        C::JumpToForward,
        "jump-to-forward",
        "up to the next character typed",
    ),
    (
        C::JumpToBackward,
        "jump-to-backward",
        "back up to the character typed",
    ),
    (C::JumpAgain, "jump-again", "repeat the jump"),
    (C::JumpReverse, "jump-reverse", "repeat the jump backwards"),
    (
        C::NextMatchingBracket,
        "next-matching-bracket",
        "matching bracket",
    ),
    (C::BeginSelection, "begin-selection", "select characters"),
    (C::SelectLine, "select-line", "select lines"),
    (C::RectangleToggle, "rectangle-toggle", "select a block"),
    (
        C::CopySelectionAndCancel,
        "copy-selection-and-cancel",
        "copy the selection and leave",
    ),
    (
        C::CopySelection,
        "copy-selection",
        "copy the selection and stay",
    ),
    (
        C::CopyPipe,
        "copy-pipe",
        "copy, and pipe to the command after the name (else copy_command); stay",
    ),
    (
        C::CopyPipeAndCancel,
        "copy-pipe-and-cancel",
        "copy, and pipe to the command after the name (else copy_command); leave",
    ),
    (
        C::AppendSelection,
        "append-selection",
        "add the selection to the newest copy and stay",
    ),
    (
        C::AppendSelectionAndCancel,
        "append-selection-and-cancel",
        "add the selection to the newest copy and leave",
    ),
    (C::Search, "search", "search (regex)"),
    (C::SearchAgain, "search-again", "next match, older"),
    (C::SearchReverse, "search-reverse", "next match, newer"),
    (
        C::SearchToggleCase,
        "search-toggle-case",
        "search case on / off",
    ),
    (C::Cancel, "cancel", "leave copy mode"),
    (
        C::ClearSelection,
        "clear-selection",
        "clear the selection, or leave",
    ),
    (
        C::PreviousPrompt,
        "previous-prompt",
        "previous command's prompt",
    ),
    (C::NextPrompt, "next-prompt", "next command's prompt"),
    (
        C::SelectOutput,
        "select-output",
        "select the command's output",
    ),
];

impl CopyAction {
    /// Every command, in the order they are listed.
    pub fn all() -> impl Iterator<Item = CopyAction> {
        COMMANDS.iter().map(|&(action, _, _)| action)
    }

    fn entry(self) -> &'static (CopyAction, &'static str, &'static str) {
        match COMMANDS.iter().find(|(action, _, _)| *action == self) {
            Some(entry) => entry,
            None => unreachable!("every copy command is in COMMANDS"),
        }
    }

    /// The name `[keys.copy]` uses.
    pub fn name(self) -> &'static str {
        self.entry().1
    }

    pub fn description(self) -> &'static str {
        self.entry().2
    }
}

impl fmt::Display for CopyAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for CopyAction {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        COMMANDS
            .iter()
            .find(|(_, name, _)| *name == s)
            .map(|&(action, _, _)| action)
            .ok_or_else(|| format!("unknown copy-mode command `{s}`"))
    }
}

/// The table: keys in the order they are listed and looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyKeymap {
    pub bindings: Vec<(KeySpec, CopyAction)>,
    /// The command a `copy-pipe` key pipes to, when its binding names one
    /// (`"y" = "copy-pipe-and-cancel xclip -selection clipboard"`).
    pipes: Vec<(KeySpec, String)>,
}

impl CopyKeymap {
    /// The command `ev` is bound to.
    pub fn lookup(&self, ev: &KeyEvent) -> Option<CopyAction> {
        self.bindings
            .iter()
            .find(|(key, _)| key.matches(ev))
            .map(|&(_, action)| action)
    }

    /// The command `ev`'s `copy-pipe` binding names, if any.
    pub fn pipe_command(&self, ev: &KeyEvent) -> Option<&str> {
        self.pipes
            .iter()
            .find(|(key, _)| key.matches(ev))
            .map(|(_, command)| command.as_str())
    }

    /// Binds `key` (in its place if it was bound).
    pub fn bind(&mut self, key: KeySpec, action: CopyAction) {
        self.pipes.retain(|(k, _)| !k.same_key(&key));
        match self.bindings.iter_mut().find(|(k, _)| k.same_key(&key)) {
            Some(slot) => *slot = (key, action),
            None => self.bindings.push((key, action)),
        }
    }

    pub fn unbind(&mut self, key: &KeySpec) {
        self.bindings.retain(|(k, _)| !k.same_key(key));
        self.pipes.retain(|(k, _)| !k.same_key(key));
    }
}

impl Default for CopyKeymap {
    /// vi's keys, as tmux's `copy-mode-vi` table has them.
    fn default() -> Self {
        use KeyCode::Char;
        let plain = |code| KeySpec::new(code, KeyModifiers::NONE);
        let ch = |c| plain(Char(c));
        let ctrl = |c| KeySpec::new(Char(c), KeyModifiers::CONTROL);
        let bindings = vec![
            (ch('q'), C::Cancel),
            (plain(KeyCode::Esc), C::ClearSelection),
            (plain(KeyCode::Up), C::CursorUp),
            (ch('k'), C::CursorUp),
            (plain(KeyCode::Down), C::CursorDown),
            (ch('j'), C::CursorDown),
            (plain(KeyCode::Left), C::CursorLeft),
            (ch('h'), C::CursorLeft),
            (plain(KeyCode::Right), C::CursorRight),
            (ch('l'), C::CursorRight),
            (ctrl('e'), C::ScrollDown),
            (ctrl('y'), C::ScrollUp),
            (ctrl('d'), C::HalfPageDown),
            (ctrl('u'), C::HalfPageUp),
            (ctrl('f'), C::PageDown),
            // Not `C-b` (tmux's page-up): it is the prefix here too.
            (plain(KeyCode::PageUp), C::PageUp),
            (plain(KeyCode::PageDown), C::PageDown),
            (ch('w'), C::NextWord),
            (ch('W'), C::NextSpace),
            (ch('b'), C::PreviousWord),
            (ch('B'), C::PreviousSpace),
            (ch('e'), C::NextWordEnd),
            (ch('E'), C::NextSpaceEnd),
            (ch('0'), C::StartOfLine),
            (plain(KeyCode::Home), C::StartOfLine),
            (ch('^'), C::BackToIndentation),
            (ch('$'), C::EndOfLine),
            (plain(KeyCode::End), C::EndOfLine),
            (ch('g'), C::HistoryTop),
            (ch('G'), C::HistoryBottom),
            (ch('H'), C::TopLine),
            (ch('M'), C::MiddleLine),
            (ch('L'), C::BottomLine),
            (ch('}'), C::NextParagraph),
            (ch('{'), C::PreviousParagraph),
            (ch('f'), C::JumpForward),
            (ch('F'), C::JumpBackward),
            (ch('t'), C::JumpToForward),
            (ch('T'), C::JumpToBackward),
            (ch(';'), C::JumpAgain),
            (ch(','), C::JumpReverse),
            (ch('%'), C::NextMatchingBracket),
            (ch('v'), C::BeginSelection),
            (ch('V'), C::SelectLine),
            (ctrl('v'), C::RectangleToggle),
            (ch('y'), C::CopySelectionAndCancel),
            (plain(KeyCode::Enter), C::CopySelectionAndCancel),
            // tmux's copy-mode-vi defaults a tmux hand reaches for.
            (plain(KeyCode::Char(' ')), C::BeginSelection),
            (ctrl('c'), C::Cancel),
            (ch('A'), C::AppendSelectionAndCancel),
            (ch('/'), C::Search),
            (ch('?'), C::Search),
            (ch('n'), C::SearchAgain),
            (ch('N'), C::SearchReverse),
            (ch('C'), C::SearchToggleCase),
            (ch('['), C::PreviousPrompt),
            (ch(']'), C::NextPrompt),
            (ch('o'), C::SelectOutput),
        ];
        Self {
            bindings,
            pipes: Vec::new(),
        }
    }
}

/// Reads `[keys.copy]` over `table`, in file order so the first mistake is
/// the one reported; two spellings of one key are refused, as in the
/// other tables.
pub(crate) fn parse_into(
    table: &mut CopyKeymap,
    entries: &BTreeMap<Spanned<String>, Spanned<String>>,
    err: &impl Fn(Range<usize>, String) -> FileError,
) -> Result<(), FileError> {
    let mut sorted: Vec<_> = entries.iter().collect();
    sorted.sort_by_key(|(k, _)| k.span().start);
    let mut seen: Vec<(KeySpec, &str)> = Vec::new();
    for (key_text, action_text) in sorted {
        let key = key_text
            .get_ref()
            .parse::<KeySpec>()
            .map_err(|e| err(key_text.span(), e.to_string()))?;
        if let Some((_, earlier)) = seen.iter().find(|(k, _)| k.same_key(&key)) {
            return Err(err(
                key_text.span(),
                format!(
                    "`{}` is the same key as `{earlier}`, bound above",
                    key_text.get_ref()
                ),
            ));
        }
        seen.push((key, key_text.get_ref()));
        if action_text.get_ref() == UNBIND {
            table.unbind(&key);
            continue;
        }
        // `copy-pipe CMD`, `copy-pipe-and-cancel CMD`: the rest is the
        // command, run by `sh -c`.
        let (name, pipe) = match action_text.get_ref().split_once(' ') {
            Some((name, rest)) if name.starts_with("copy-pipe") && !rest.trim().is_empty() => {
                (name, Some(rest.trim()))
            }
            _ => (action_text.get_ref().as_str(), None),
        };
        if pipe.is_some_and(|c| c.chars().any(char::is_control)) {
            return Err(err(
                action_text.span(),
                "a copy-pipe command cannot hold control characters".into(),
            ));
        }
        let action = name.parse::<CopyAction>().map_err(|e| {
            err(
                action_text.span(),
                format!("{e} (see tilework --print-config for the names)"),
            )
        })?;
        table.bind(key, action);
        if let Some(command) = pipe {
            table.pipes.push((key, command.to_string()));
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn every_command_round_trips_through_its_name_and_has_a_default_key() {
        let table = CopyKeymap::default();
        for action in CopyAction::all() {
            assert_eq!(action.name().parse::<CopyAction>(), Ok(action));
            // As in tmux's vi table: these are for users to bind.
            if matches!(
                action,
                C::CopySelection | C::CopyPipe | C::CopyPipeAndCancel | C::AppendSelection
            ) {
                continue;
            }
            assert!(
                table.bindings.iter().any(|(_, a)| *a == action),
                "{action} has no key"
            );
        }
        assert!("jump-sideways".parse::<CopyAction>().is_err());
    }

    /// tmux's vi defaults, and `C-b` (the prefix) left out of the table.
    #[test]
    fn space_selects_c_c_cancels_and_c_b_is_not_page_up() {
        let table = CopyKeymap::default();
        let key = |code, mods| KeyEvent::new(code, mods);
        let space = key(KeyCode::Char(' '), KeyModifiers::NONE);
        assert_eq!(table.lookup(&space), Some(C::BeginSelection));
        let cc = key(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(table.lookup(&cc), Some(C::Cancel));
        let enter = key(KeyCode::Enter, KeyModifiers::NONE);
        assert_eq!(table.lookup(&enter), Some(C::CopySelectionAndCancel));
        let cb = key(KeyCode::Char('b'), KeyModifiers::CONTROL);
        assert_eq!(table.lookup(&cb), None);
        let listed = crate::config::default_toml();
        assert!(!listed.contains("\"C-b\" = \"page-up\""), "{listed}");
        assert!(
            listed.contains("\"Space\" = \"begin-selection\""),
            "{listed}"
        );
    }

    #[test]
    fn a_copy_pipe_binding_keeps_its_command() {
        let parse = |text: &str| crate::config::parse(text, std::path::Path::new("c.toml"));
        let config =
            parse("[keys.copy]\n\"y\" = \"copy-pipe-and-cancel xclip -sel clip\"\n").unwrap();
        let y = KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE);
        assert_eq!(config.keymap.copy.lookup(&y), Some(C::CopyPipeAndCancel));
        assert_eq!(config.keymap.copy.pipe_command(&y), Some("xclip -sel clip"));
        let config = parse("[keys.copy]\n\"y\" = \"copy-pipe\"\n").unwrap();
        assert_eq!(config.keymap.copy.pipe_command(&y), None);
        assert!(parse("[keys.copy]\n\"y\" = \"copy-selection xclip\"\n").is_err());
    }

    #[test]
    fn no_key_is_bound_twice() {
        let table = CopyKeymap::default();
        for (i, (key, _)) in table.bindings.iter().enumerate() {
            assert!(
                !table.bindings[i + 1..].iter().any(|(k, _)| k.same_key(key)),
                "{key} twice"
            );
        }
    }

    #[test]
    fn a_wrong_copy_binding_is_refused_where_it_is_written() {
        let parse = |text: &str| crate::config::parse(text, std::path::Path::new("c.toml"));
        let err = parse("[keys.copy]\n\"x\" = \"jump-sideways\"\n").unwrap_err();
        assert!(
            err.to_string().starts_with(
                "c.toml:2:7: keys.copy.\"x\": unknown copy-mode command `jump-sideways`"
            ),
            "{err}"
        );
        let err =
            parse("[keys.copy]\n\"C-b\" = \"cancel\"\n\"Ctrl-b\" = \"cancel\"\n").unwrap_err();
        assert!(err.to_string().contains("same key"), "{err}");
        let config = parse("[keys.copy]\n\"q\" = \"none\"\n").unwrap();
        let q = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE);
        assert_eq!(config.keymap.copy.lookup(&q), None);
    }
}
