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
}

impl CopyKeymap {
    /// The command `ev` is bound to.
    pub fn lookup(&self, ev: &KeyEvent) -> Option<CopyAction> {
        self.bindings
            .iter()
            .find(|(key, _)| key.matches(ev))
            .map(|&(_, action)| action)
    }

    /// Binds `key` (in its place if it was bound).
    pub fn bind(&mut self, key: KeySpec, action: CopyAction) {
        match self.bindings.iter_mut().find(|(k, _)| k.same_key(&key)) {
            Some(slot) => *slot = (key, action),
            None => self.bindings.push((key, action)),
        }
    }

    pub fn unbind(&mut self, key: &KeySpec) {
        self.bindings.retain(|(k, _)| !k.same_key(key));
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
            (ctrl('b'), C::PageUp),
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
            (ch('/'), C::Search),
            (ch('?'), C::Search),
            (ch('n'), C::SearchAgain),
            (ch('N'), C::SearchReverse),
            (ch('C'), C::SearchToggleCase),
            (ch('['), C::PreviousPrompt),
            (ch(']'), C::NextPrompt),
            (ch('o'), C::SelectOutput),
        ];
        Self { bindings }
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
        let action = action_text.get_ref().parse::<CopyAction>().map_err(|e| {
            err(
                action_text.span(),
                format!("{e} (see tilework --print-config for the names)"),
            )
        })?;
        table.bind(key, action);
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
            assert!(
                table.bindings.iter().any(|(_, a)| *a == action),
                "{action} has no key"
            );
        }
        assert!("jump-sideways".parse::<CopyAction>().is_err());
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
