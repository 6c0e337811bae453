//! Copy mode's keys, vi-style: what a key means, with the count typed
//! before it (`5j`) and the character after `f F t T`. Pure, so the whole
//! table is tested without a pane.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::input::copy_mode::{Find, MAX_COUNT, Motion, Scroll, SelectKind};

/// What a key asks copy mode to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyCommand {
    Move(Motion, usize),
    Scroll(Scroll),
    Select(SelectKind),
    /// `y` or Enter.
    Yank,
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

    /// What `key` means, given the keys before it.
    pub fn command(&mut self, key: &KeyEvent) -> CopyCommand {
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
        if let Some(ch @ ('f' | 'F' | 't' | 'T')) = plain_char(key) {
            self.find = Some((ch.is_ascii_lowercase(), ch.eq_ignore_ascii_case(&'t')));
            return CopyCommand::Pending;
        }
        let count = self.count.take().unwrap_or(1);
        let times = isize::try_from(count).unwrap_or(1);
        match command_for(key) {
            CopyCommand::Move(motion, _) => CopyCommand::Move(motion, count),
            CopyCommand::Scroll(scroll) => CopyCommand::Scroll(match scroll {
                Scroll::Lines(n) => Scroll::Lines(n * times),
                Scroll::HalfPages(n) => Scroll::HalfPages(n * times),
                Scroll::Pages(n) => Scroll::Pages(n * times),
            }),
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

/// The table: one key, no count.
fn command_for(key: &KeyEvent) -> CopyCommand {
    use CopyCommand::{Move, Scroll as S};
    let mods = key.modifiers - KeyModifiers::SHIFT;
    let m = |motion| Move(motion, 1);
    if mods == KeyModifiers::CONTROL {
        return match key.code {
            KeyCode::Char('e') => S(Scroll::Lines(1)),
            KeyCode::Char('y') => S(Scroll::Lines(-1)),
            KeyCode::Char('d') => S(Scroll::HalfPages(1)),
            KeyCode::Char('u') => S(Scroll::HalfPages(-1)),
            KeyCode::Char('f') => S(Scroll::Pages(1)),
            KeyCode::Char('b') => S(Scroll::Pages(-1)),
            KeyCode::Char('v') => CopyCommand::Select(SelectKind::Block),
            _ => CopyCommand::Unbound,
        };
    }
    if !mods.is_empty() {
        return CopyCommand::Unbound;
    }
    match key.code {
        KeyCode::Char('q') => CopyCommand::Leave,
        KeyCode::Esc => CopyCommand::Escape,
        KeyCode::Up | KeyCode::Char('k') => m(Motion::Up),
        KeyCode::Down | KeyCode::Char('j') => m(Motion::Down),
        KeyCode::Left | KeyCode::Char('h') => m(Motion::Left),
        KeyCode::Right | KeyCode::Char('l') => m(Motion::Right),
        KeyCode::PageUp => S(Scroll::Pages(-1)),
        KeyCode::PageDown => S(Scroll::Pages(1)),
        KeyCode::Char('w') => m(Motion::WordStart {
            forward: true,
            big: false,
        }),
        KeyCode::Char('W') => m(Motion::WordStart {
            forward: true,
            big: true,
        }),
        KeyCode::Char('b') => m(Motion::WordStart {
            forward: false,
            big: false,
        }),
        KeyCode::Char('B') => m(Motion::WordStart {
            forward: false,
            big: true,
        }),
        KeyCode::Char('e') => m(Motion::WordEnd { big: false }),
        KeyCode::Char('E') => m(Motion::WordEnd { big: true }),
        KeyCode::Char('0') | KeyCode::Home => m(Motion::LineStart),
        KeyCode::Char('^') => m(Motion::FirstNonBlank),
        KeyCode::Char('$') | KeyCode::End => m(Motion::LineEnd),
        KeyCode::Char('g') => m(Motion::HistoryTop),
        KeyCode::Char('G') => m(Motion::HistoryBottom),
        KeyCode::Char('H') => m(Motion::ViewTop),
        KeyCode::Char('M') => m(Motion::ViewMiddle),
        KeyCode::Char('L') => m(Motion::ViewBottom),
        KeyCode::Char('}') => m(Motion::Paragraph { forward: true }),
        KeyCode::Char('{') => m(Motion::Paragraph { forward: false }),
        KeyCode::Char(';') => m(Motion::RepeatFind { reverse: false }),
        KeyCode::Char(',') => m(Motion::RepeatFind { reverse: true }),
        KeyCode::Char('%') => m(Motion::MatchingBracket),
        KeyCode::Char('v') => CopyCommand::Select(SelectKind::Char),
        KeyCode::Char('V') => CopyCommand::Select(SelectKind::Line),
        KeyCode::Char('y') | KeyCode::Enter => CopyCommand::Yank,
        KeyCode::Char('/' | '?') => CopyCommand::Search,
        KeyCode::Char('n') => CopyCommand::NextMatch { back: true },
        KeyCode::Char('N') => CopyCommand::NextMatch { back: false },
        KeyCode::Char('C') => CopyCommand::ToggleCase,
        _ => CopyCommand::Unbound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(keys: &mut CopyKeys, code: KeyCode, mods: KeyModifiers) -> CopyCommand {
        keys.command(&KeyEvent::new(code, mods))
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
            (KeyCode::Char('c'), KeyModifiers::CONTROL),
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
