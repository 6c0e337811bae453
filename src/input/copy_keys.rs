//! Copy mode's keys: what a key means in the table (`[keys.copy]`, vi's
//! keys by default: `config::copy_keymap`), with the count typed before
//! it (`5j`) and the character after a jump (`f F t T`). Pure, so the
//! whole table is tested without a pane.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::config::copy_keymap::{CopyAction, CopyKeymap};
use crate::input::copy_mode::{Find, MAX_COUNT, Motion, Scroll, SelectKind};

/// What a key asks copy mode to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyCommand {
    Move(Motion, usize),
    Scroll(Scroll),
    Select(SelectKind),
    /// `y` or Enter (and the other copy commands: how).
    Yank(Yank),
    /// `/` or `?`.
    Search,
    /// `n` (`back`: towards older output) or `N`.
    NextMatch {
        back: bool,
    },
    /// `C`: the search's case sensitivity.
    ToggleCase,
    /// `q`.
    Leave,
    /// Esc: clears the selection, or leaves.
    Escape,
    /// A count or `f` waits for the next key.
    Pending,
    /// A key copy mode does not use: it does nothing (it is never typed
    /// into the program).
    Unbound,
    /// To the prompt of a command before or after the cursor's (OSC 133),
    /// `count` times.
    Prompt {
        forward: bool,
        count: usize,
    },
    /// Selects the output of the command the cursor is in.
    SelectOutput,
}

/// How a copy command copies: whether copy mode ends after it, whether
/// the text is added to the newest copy, whether it goes to a command too.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Yank {
    pub stay: bool,
    pub append: bool,
    pub pipe: bool,
}

/// The keys typed so far that wait for more.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CopyKeys {
    count: Option<usize>,
    /// `f F t T` was pressed: the next character is what to find.
    find: Option<(bool, bool)>,
}

impl CopyKeys {
    /// Whether a count or a find waits for its key (Esc cancels it).
    pub fn is_pending(&self) -> bool {
        self.count.is_some() || self.find.is_some()
    }

    /// What `key` means in `table`, given the keys before it.
    pub fn command(&mut self, key: &KeyEvent, table: &CopyKeymap) -> CopyCommand {
        if let Some((forward, till)) = self.find.take() {
            let count = self.count.take().unwrap_or(1);
            return match plain_char(key) {
                Some(ch) => CopyCommand::Move(Motion::Find(Find { ch, forward, till }), count),
                // Esc or a key that is not a character gives the find up.
                None => CopyCommand::Pending,
            };
        }
        if let Some(digit) = plain_char(key).and_then(|c| c.to_digit(10)) {
            // `0` is a digit only inside a count; on its own it is a motion.
            if digit > 0 || self.count.is_some() {
                let count = self.count.unwrap_or(0) * 10 + digit as usize;
                self.count = Some(count.min(MAX_COUNT));
                return CopyCommand::Pending;
            }
        }
        if key.code == KeyCode::Esc && self.count.take().is_some() {
            return CopyCommand::Pending;
        }
        let Some(action) = table.lookup(key) else {
            self.count = None;
            return CopyCommand::Unbound;
        };
        if let Some(find) = find_of(action) {
            self.find = Some(find);
            return CopyCommand::Pending;
        }
        let count = self.count.take().unwrap_or(1);
        let times = isize::try_from(count).unwrap_or(1);
        match command_for(action) {
            CopyCommand::Move(motion, _) => CopyCommand::Move(motion, count),
            CopyCommand::Scroll(scroll) => CopyCommand::Scroll(match scroll {
                Scroll::Lines(n) => Scroll::Lines(n * times),
                Scroll::HalfPages(n) => Scroll::HalfPages(n * times),
                Scroll::Pages(n) => Scroll::Pages(n * times),
            }),
            CopyCommand::Prompt { forward, .. } => CopyCommand::Prompt { forward, count },
            other => other,
        }
    }
}

/// A character typed without Ctrl or Alt (Shift is part of it).
fn plain_char(key: &KeyEvent) -> Option<char> {
    match key.code {
        KeyCode::Char(c)
            if !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
        {
            Some(c)
        }
        _ => None,
    }
}

/// `f F t T`: (forward, till), the character to come with the next key.
fn find_of(action: CopyAction) -> Option<(bool, bool)> {
    match action {
        CopyAction::JumpForward => Some((true, false)),
        CopyAction::JumpBackward => Some((false, false)),
        CopyAction::JumpToForward => Some((true, true)),
        CopyAction::JumpToBackward => Some((false, true)),
        _ => None,
    }
}

/// What a bound command does, for one key with no count.
fn command_for(action: CopyAction) -> CopyCommand {
    use CopyAction as A;
    use CopyCommand::{Move, Scroll as S};
    let m = |motion| Move(motion, 1);
    let word = |forward, big| m(Motion::WordStart { forward, big });
    match action {
        A::Cancel => CopyCommand::Leave,
        A::ClearSelection => CopyCommand::Escape,
        A::CursorUp => m(Motion::Up),
        A::CursorDown => m(Motion::Down),
        A::CursorLeft => m(Motion::Left),
        A::CursorRight => m(Motion::Right),
        A::ScrollDown => S(Scroll::Lines(1)),
        A::ScrollUp => S(Scroll::Lines(-1)),
        A::HalfPageDown => S(Scroll::HalfPages(1)),
        A::HalfPageUp => S(Scroll::HalfPages(-1)),
        A::PageDown => S(Scroll::Pages(1)),
        A::PageUp => S(Scroll::Pages(-1)),
        A::NextWord => word(true, false),
        A::NextSpace => word(true, true),
        A::PreviousWord => word(false, false),
        A::PreviousSpace => word(false, true),
        A::NextWordEnd => m(Motion::WordEnd { big: false }),
        A::NextSpaceEnd => m(Motion::WordEnd { big: true }),
        A::StartOfLine => m(Motion::LineStart),
        A::BackToIndentation => m(Motion::FirstNonBlank),
        A::EndOfLine => m(Motion::LineEnd),
        A::HistoryTop => m(Motion::HistoryTop),
        A::HistoryBottom => m(Motion::HistoryBottom),
        A::TopLine => m(Motion::ViewTop),
        A::MiddleLine => m(Motion::ViewMiddle),
        A::BottomLine => m(Motion::ViewBottom),
        A::NextParagraph => m(Motion::Paragraph { forward: true }),
        A::PreviousParagraph => m(Motion::Paragraph { forward: false }),
        A::JumpAgain => m(Motion::RepeatFind { reverse: false }),
        A::JumpReverse => m(Motion::RepeatFind { reverse: true }),
        A::NextMatchingBracket => m(Motion::MatchingBracket),
        A::BeginSelection => CopyCommand::Select(SelectKind::Char),
        A::SelectLine => CopyCommand::Select(SelectKind::Line),
        A::RectangleToggle => CopyCommand::Select(SelectKind::Block),
        A::CopySelectionAndCancel => CopyCommand::Yank(Yank::default()),
        A::CopySelection => CopyCommand::Yank(Yank {
            stay: true,
            ..Yank::default()
        }),
        A::CopyPipe => CopyCommand::Yank(Yank {
            stay: true,
            pipe: true,
            ..Yank::default()
        }),
        A::CopyPipeAndCancel => CopyCommand::Yank(Yank {
            pipe: true,
            ..Yank::default()
        }),
        A::AppendSelection => CopyCommand::Yank(Yank {
            stay: true,
            append: true,
            ..Yank::default()
        }),
        A::AppendSelectionAndCancel => CopyCommand::Yank(Yank {
            append: true,
            ..Yank::default()
        }),
        A::Search => CopyCommand::Search,
        A::SearchAgain => CopyCommand::NextMatch { back: true },
        A::SearchReverse => CopyCommand::NextMatch { back: false },
        A::SearchToggleCase => CopyCommand::ToggleCase,
        A::PreviousPrompt => CopyCommand::Prompt {
            forward: false,
            count: 1,
        },
        A::NextPrompt => CopyCommand::Prompt {
            forward: true,
            count: 1,
        },
        A::SelectOutput => CopyCommand::SelectOutput,
        // Taken before (they wait for their character).
        A::JumpForward | A::JumpBackward | A::JumpToForward | A::JumpToBackward => {
            CopyCommand::Pending
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(keys: &mut CopyKeys, code: KeyCode, mods: KeyModifiers) -> CopyCommand {
        keys.command(&KeyEvent::new(code, mods), &CopyKeymap::default())
    }

    fn typed(text: &str) -> Vec<CopyCommand> {
        let mut keys = CopyKeys::default();
        text.chars()
            .map(|c| press(&mut keys, KeyCode::Char(c), KeyModifiers::NONE))
            .collect()
    }

    #[test]
    fn a_count_repeats_the_motion_and_zero_alone_is_the_line_start() {
        let down = |n| CopyCommand::Move(Motion::Down, n);
        assert_eq!(typed("5j"), [CopyCommand::Pending, down(5)]);
        assert_eq!(typed("10j")[2], down(10));
        assert_eq!(typed("0")[0], CopyCommand::Move(Motion::LineStart, 1));
        assert_eq!(typed("j")[0], down(1));
    }

    #[test]
    fn a_count_scales_scrolling() {
        let mut keys = CopyKeys::default();
        press(&mut keys, KeyCode::Char('3'), KeyModifiers::NONE);
        assert_eq!(
            press(&mut keys, KeyCode::Char('e'), KeyModifiers::CONTROL),
            CopyCommand::Scroll(Scroll::Lines(3))
        );
        assert_eq!(
            press(&mut keys, KeyCode::PageUp, KeyModifiers::NONE),
            CopyCommand::Scroll(Scroll::Pages(-1)),
            "the count was used up"
        );
    }

    #[test]
    fn f_takes_the_next_character_even_a_digit_or_a_bound_key() {
        let find =
            |ch, forward, till| CopyCommand::Move(Motion::Find(Find { ch, forward, till }), 1);
        assert_eq!(typed("fq")[1], find('q', true, false));
        assert_eq!(typed("T3")[1], find('3', false, true));
        assert_eq!(
            typed("2t,")[2],
            CopyCommand::Move(
                Motion::Find(Find {
                    ch: ',',
                    forward: true,
                    till: true
                }),
                2
            )
        );
    }

    #[test]
    fn esc_gives_up_a_count_or_a_find_before_it_leaves() {
        let mut keys = CopyKeys::default();
        press(&mut keys, KeyCode::Char('4'), KeyModifiers::NONE);
        assert!(keys.is_pending());
        assert_eq!(
            press(&mut keys, KeyCode::Esc, KeyModifiers::NONE),
            CopyCommand::Pending
        );
        assert!(!keys.is_pending());
        press(&mut keys, KeyCode::Char('f'), KeyModifiers::NONE);
        assert_eq!(
            press(&mut keys, KeyCode::Esc, KeyModifiers::NONE),
            CopyCommand::Pending
        );
        assert_eq!(
            press(&mut keys, KeyCode::Esc, KeyModifiers::NONE),
            CopyCommand::Escape
        );
    }

    #[test]
    fn keys_copy_mode_does_not_use_are_unbound() {
        let mut keys = CopyKeys::default();
        for (code, mods) in [
            (KeyCode::Char('x'), KeyModifiers::NONE),
            (KeyCode::Char('i'), KeyModifiers::NONE),
            // Not `C-c`: it cancels, as in tmux's copy-mode-vi.
            (KeyCode::Char('x'), KeyModifiers::CONTROL),
            (KeyCode::Char('w'), KeyModifiers::ALT),
            (KeyCode::F(1), KeyModifiers::NONE),
            (KeyCode::Tab, KeyModifiers::NONE),
        ] {
            assert_eq!(
                press(&mut keys, code, mods),
                CopyCommand::Unbound,
                "{code:?} {mods:?}"
            );
        }
    }
}
