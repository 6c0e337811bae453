//! Copy mode's vi motions over a pane's history: words (`w b e`, `W B E`),
//! line ends (`0 ^ $`), finding a character on the row (`f F t T ; ,`), the
//! view's rows (`H M L`), paragraphs (`{ }`), the matching bracket (`%`),
//! and scrolling the view (`C-e C-y`, `C-u C-d`, `C-b C-f`, PgUp/PgDn).
//!
//! Text is read row by row from the history. A row's trailing blanks are
//! not text (the cursor's `$` is the last character, like vim); a row that
//! ends without wrapping ends in a newline, so words never run from one
//! line into the next, while a wrapped row runs on into the next one.

use std::collections::HashMap;

use super::{CopyMode, Point, RowText};
use crate::pane::history::window::Window;

/// A cursor motion; a count repeats it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Motion {
    Left,
    Right,
    Up,
    Down,
    /// `w` (`big`: `W`, blank-separated words) or `b` / `B`.
    WordStart {
        forward: bool,
        big: bool,
    },
    /// `e` / `E`.
    WordEnd {
        big: bool,
    },
    /// `0`: the start of the line (of its first row when it wraps).
    LineStart,
    /// `^`: the first non-blank character of the line.
    FirstNonBlank,
    /// `$`: the last character of the line (of its last row when it
    /// wraps); with a count, of the line count-1 below.
    LineEnd,
    /// `g`: the oldest row held.
    HistoryTop,
    /// `G`: the last row of the screen.
    HistoryBottom,
    /// `H`, `M`, `L`: the top, middle or bottom row of the view (`3H`: the
    /// third from the top).
    ViewTop,
    ViewMiddle,
    ViewBottom,
    /// `}` / `{`: the next / previous blank row after some text.
    Paragraph {
        forward: bool,
    },
    /// `f F t T` and a character.
    Find(Find),
    /// `;` (the last find again) or `,` (`reverse`: the other way).
    RepeatFind {
        reverse: bool,
    },
    /// `%`: the bracket matching the one at or after the cursor on its row.
    MatchingBracket,
}

/// A find on the cursor's row: `f` (forward), `F`, `t` (`till`: stop one
/// before), `T`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Find {
    pub ch: char,
    pub forward: bool,
    pub till: bool,
}

/// How far a scroll moves the view (negative: back into history).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scroll {
    /// `C-e` / `C-y`: the view moves, the cursor stays on its row unless
    /// it would leave the view.
    Lines(isize),
    /// `C-d` / `C-u`: half a view; the cursor moves along.
    HalfPages(isize),
    /// `C-f` / `C-b`, PgDn / PgUp: a view less one row of context; the
    /// cursor moves along.
    Pages(isize),
}

/// Highest count taken (`99999j` is the same as going to the end anyway).
pub const MAX_COUNT: usize = 99_999;

impl CopyMode {
    /// Moves the cursor by `motion`, `count` times, and keeps it in view.
    pub fn motion(&mut self, history: &mut Window, motion: Motion, count: usize) {
        let count = count.clamp(1, MAX_COUNT);
        let signed = isize::try_from(count).unwrap_or(isize::MAX);
        let cols = i32::try_from(count).unwrap_or(i32::MAX);
        match motion {
            Motion::Left => self.move_by(history, 0, -cols),
            Motion::Right => self.move_by(history, 0, cols),
            Motion::Up => self.move_by(history, -signed, 0),
            Motion::Down => self.move_by(history, signed, 0),
            Motion::HistoryTop => self.move_to(history, Point { row: 0, col: 0 }),
            Motion::HistoryBottom => self.move_to(
                history,
                Point {
                    row: usize::MAX,
                    col: 0,
                },
            ),
            Motion::ViewTop | Motion::ViewMiddle | Motion::ViewBottom => {
                let row = view_row(history, motion, count);
                let col = Text::new(history).first_non_blank(row);
                self.move_to(history, Point { row, col });
            }
            _ => {
                let target = Text::new(history).go(motion, self.cursor, count, &mut self.last_find);
                self.move_to(history, target);
            }
        }
    }

    /// Scrolls the view; the cursor moves along by as many rows (`Lines`:
    /// only as far as it must to stay in view).
    pub fn scroll(&mut self, history: &mut Window, scroll: Scroll) {
        let (rows, cursor_follows) = scroll_rows(history, scroll);
        self.scroll_by(history, rows, cursor_follows);
    }

    /// Scrolls the view `rows` (negative: back), the cursor moving along
    /// or (not `cursor_follows`) only as far as it must to stay in view.
    pub fn scroll_by(&mut self, history: &mut Window, rows: isize, cursor_follows: bool) {
        let view_rows = history.view_rows();
        let top = history
            .top_row()
            .saturating_add_signed(rows)
            .min(history.len());
        history.set_offset(history.len() - top);
        let max_row = history.total_rows().saturating_sub(1);
        if cursor_follows {
            self.cursor.row = self.cursor.row.saturating_add_signed(rows).min(max_row);
        }
        let bottom = (top + view_rows).saturating_sub(1).min(max_row);
        self.cursor.row = self.cursor.row.clamp(top, bottom.max(top));
    }
}

/// How many rows `scroll` moves the view (negative: back), and whether
/// the cursor moves along.
pub fn scroll_rows(history: &Window, scroll: Scroll) -> (isize, bool) {
    let view_rows = history.view_rows();
    let page = isize::try_from(view_rows.saturating_sub(1).max(1)).unwrap_or(1);
    match scroll {
        Scroll::Lines(n) => (n, false),
        Scroll::HalfPages(n) => (n.saturating_mul((page + 1) / 2), true),
        Scroll::Pages(n) => (n.saturating_mul(page), true),
    }
}

/// The absolute row `H`, `M` or `L` goes to.
fn view_row(history: &Window, motion: Motion, count: usize) -> usize {
    let top = history.top_row();
    let rows = usize::from(history.screen().size().0.get());
    let last = top + rows.saturating_sub(1);
    let from_edge = count.saturating_sub(1).min(rows.saturating_sub(1));
    match motion {
        Motion::ViewTop => top + from_edge,
        Motion::ViewBottom => last - from_edge,
        _ => top + rows.saturating_sub(1) / 2,
    }
}

/// One row as copy mode's motions see it.
#[derive(Debug)]
struct Line {
    /// The characters, trailing blanks dropped unless the row wraps.
    chars: Vec<char>,
    /// The screen column of each character (wide ones take two).
    cols: Vec<u16>,
    wrapped: bool,
}

impl Line {
    fn new(row: &RowText) -> Self {
        let mut chars = Vec::new();
        let mut cols = Vec::new();
        for (offset, ch) in row.text.char_indices() {
            let col = row.col_at(offset, u16::MAX);
            // A combining character shares its base's cell.
            if cols.last() == Some(&col) {
                continue;
            }
            chars.push(ch);
            cols.push(col);
        }
        if !row.wrapped {
            let kept = chars
                .iter()
                .rposition(|c| !c.is_whitespace())
                .map_or(0, |i| i + 1);
            chars.truncate(kept);
            cols.truncate(kept);
        }
        Self {
            chars,
            cols,
            wrapped: row.wrapped,
        }
    }

    /// The last position on the row: its newline, or the last character
    /// of a row that wraps on.
    fn last_index(&self) -> usize {
        if self.wrapped && !self.chars.is_empty() {
            self.chars.len() - 1
        } else {
            self.chars.len()
        }
    }

    fn is_blank(&self) -> bool {
        self.chars.is_empty() && !self.wrapped
    }

    /// The character at `index`, the newline past the end.
    fn char_at(&self, index: usize) -> char {
        self.chars.get(index).copied().unwrap_or('\n')
    }

    /// Index of the character at or before screen column `col` (the
    /// newline when `col` is past the text).
    fn index_of(&self, col: u16) -> usize {
        match self.cols.last() {
            Some(&last) if col > last => self.last_index(),
            _ => self.cols.iter().rposition(|&c| c <= col).unwrap_or(0),
        }
    }

    /// Screen column of `index` (the newline sits just after the text).
    fn col_of(&self, index: usize, width: u16) -> u16 {
        match self.cols.get(index) {
            Some(&col) => col,
            None => self
                .cols
                .last()
                .map_or(0, |&c| c.saturating_add(1))
                .min(width.saturating_sub(1)),
        }
    }
}

/// A position in the text: a row and an index into its [`Line`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pos {
    row: usize,
    index: usize,
}

/// What a word is made of: vim's classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Blank,
    Punctuation,
    Word,
}

fn class(c: char, big: bool) -> Class {
    if c.is_whitespace() {
        Class::Blank
    } else if big || c.is_alphanumeric() || c == '_' {
        Class::Word
    } else {
        Class::Punctuation
    }
}

/// The history's rows as [`Line`]s, read as the motions need them.
struct Text<'h> {
    history: &'h mut Window,
    lines: HashMap<usize, Line>,
    total_rows: usize,
    width: u16,
}

impl<'h> Text<'h> {
    fn new(history: &'h mut Window) -> Self {
        let total_rows = history.total_rows();
        let width = history.screen().size().1.get();
        Self {
            history,
            lines: HashMap::new(),
            total_rows,
            width,
        }
    }

    fn line(&mut self, row: usize) -> &Line {
        let history = &mut *self.history;
        self.lines
            .entry(row)
            .or_insert_with(|| Line::new(&history.with_row(row, RowText::from_screen)))
    }

    fn pos_of(&mut self, p: Point) -> Pos {
        let index = self.line(p.row).index_of(p.col);
        Pos { row: p.row, index }
    }

    fn point_of(&mut self, p: Pos) -> Point {
        let width = self.width;
        let col = self.line(p.row).col_of(p.index, width);
        Point { row: p.row, col }
    }

    fn char_at(&mut self, p: Pos) -> char {
        self.line(p.row).char_at(p.index)
    }

    fn class_at(&mut self, p: Pos, big: bool) -> Class {
        class(self.char_at(p), big)
    }

    /// A blank row: a word of its own to `w` and `b`, like vim's empty
    /// lines.
    fn is_blank_row(&mut self, p: Pos) -> bool {
        self.line(p.row).is_blank()
    }

    fn next(&mut self, p: Pos) -> Option<Pos> {
        if p.index < self.line(p.row).last_index() {
            Some(Pos {
                index: p.index + 1,
                ..p
            })
        } else if p.row + 1 < self.total_rows {
            Some(Pos {
                row: p.row + 1,
                index: 0,
            })
        } else {
            None
        }
    }

    fn prev(&mut self, p: Pos) -> Option<Pos> {
        if p.index > 0 {
            Some(Pos {
                index: p.index - 1,
                ..p
            })
        } else if p.row > 0 {
            let index = self.line(p.row - 1).last_index();
            Some(Pos {
                row: p.row - 1,
                index,
            })
        } else {
            None
        }
    }

    /// Where `motion` goes from `at` once; `None` when it cannot move.
    fn apply(&mut self, motion: Motion, at: Point, last_find: &mut Option<Find>) -> Option<Point> {
        let from = self.pos_of(at);
        let to = match motion {
            Motion::WordStart { forward: true, big } => self.word_forward(from, big),
            Motion::WordStart {
                forward: false,
                big,
            } => self.word_back(from, big),
            Motion::WordEnd { big } => self.word_end(from, big),
            Motion::Paragraph { forward } => return self.paragraph(at.row, forward),
            Motion::Find(find) => {
                *last_find = Some(find);
                self.find(from, find, false)
            }
            Motion::RepeatFind { reverse } => {
                let mut find = (*last_find)?;
                find.forward ^= reverse;
                self.find(from, find, true)
            }
            Motion::MatchingBracket => self.matching_bracket(from),
            _ => return None,
        }?;
        Some(self.point_of(to))
    }

    /// Where `motion` goes from `at`, `count` times. A count changes what
    /// the line motions do (`3$`: the end of the line two below); the others
    /// repeat and stop where they cannot go further.
    fn go(
        &mut self,
        motion: Motion,
        at: Point,
        count: usize,
        last_find: &mut Option<Find>,
    ) -> Point {
        match motion {
            Motion::LineStart => self.line_start(at.row),
            Motion::FirstNonBlank => {
                let start = self.line_start(at.row);
                let col = self.first_non_blank(start.row);
                Point { col, ..start }
            }
            Motion::LineEnd => {
                let row = at.row.saturating_add(count - 1).min(self.total_rows - 1);
                self.line_end(row)
            }
            _ => {
                let mut p = at;
                for _ in 0..count {
                    match self.apply(motion, p, last_find) {
                        Some(next) if next != p => p = next,
                        _ => break,
                    }
                }
                p
            }
        }
    }

    /// `w`: the start of the next word, or a blank row.
    fn word_forward(&mut self, from: Pos, big: bool) -> Option<Pos> {
        let start = self.class_at(from, big);
        let mut p = from;
        if start != Class::Blank {
            loop {
                p = self.next(p)?;
                if self.class_at(p, big) != start {
                    break;
                }
            }
        }
        while self.class_at(p, big) == Class::Blank {
            if p != from && self.is_blank_row(p) {
                return Some(p);
            }
            p = self.next(p)?;
        }
        Some(p)
    }

    /// `b`: the start of this word or the one before, or a blank row.
    fn word_back(&mut self, from: Pos, big: bool) -> Option<Pos> {
        let mut p = self.prev(from)?;
        while self.class_at(p, big) == Class::Blank {
            if self.is_blank_row(p) {
                return Some(p);
            }
            p = self.prev(p)?;
        }
        let class = self.class_at(p, big);
        while let Some(before) = self.prev(p) {
            if self.class_at(before, big) != class {
                break;
            }
            p = before;
        }
        Some(p)
    }

    /// `e`: the end of this word or the next.
    fn word_end(&mut self, from: Pos, big: bool) -> Option<Pos> {
        let mut p = self.next(from)?;
        while self.class_at(p, big) == Class::Blank {
            p = self.next(p)?;
        }
        let class = self.class_at(p, big);
        while let Some(after) = self.next(p) {
            if self.class_at(after, big) != class {
                break;
            }
            p = after;
        }
        Some(p)
    }

    /// The first row of the line `row` belongs to (rows before it wrap on).
    fn line_start(&mut self, row: usize) -> Point {
        let mut row = row;
        while row > 0 && self.line(row - 1).wrapped {
            row -= 1;
        }
        Point { row, col: 0 }
    }

    /// The last character of the line `row` belongs to.
    fn line_end(&mut self, row: usize) -> Point {
        let mut row = row;
        while row + 1 < self.total_rows && self.line(row).wrapped {
            row += 1;
        }
        let line = self.line(row);
        let col = line.cols.last().copied().unwrap_or(0);
        Point { row, col }
    }

    fn first_non_blank(&mut self, row: usize) -> u16 {
        let line = self.line(row);
        line.chars
            .iter()
            .position(|c| !c.is_whitespace())
            .and_then(|i| line.cols.get(i).copied())
            .unwrap_or(0)
    }

    /// `}` / `{`: the next / previous blank row with text between it and
    /// the cursor (vim's `findpar`); the last / first row when there is
    /// none.
    fn paragraph(&mut self, from: usize, forward: bool) -> Option<Point> {
        let last = self.total_rows - 1;
        let mut row = from;
        let mut passed_text = false;
        loop {
            let blank = self.line(row).is_blank();
            passed_text |= !blank;
            if row != from && passed_text && blank {
                break;
            }
            let next = if forward {
                row.checked_add(1).filter(|&r| r <= last)
            } else {
                row.checked_sub(1)
            };
            match next {
                Some(r) => row = r,
                None if row == from => return None,
                None => break,
            }
        }
        Some(Point { row, col: 0 })
    }

    /// `f F t T` on the row. Repeating a till (`;` after `t`) looks past
    /// the character it stopped before, or it would never move.
    fn find(&mut self, from: Pos, find: Find, repeat: bool) -> Option<Pos> {
        let skip = usize::from(find.till && repeat);
        let line = self.line(from.row);
        let index = if find.forward {
            let start = from.index + 1 + skip;
            let found = line
                .chars
                .get(start..)?
                .iter()
                .position(|&c| c == find.ch)?
                + start;
            if find.till { found - 1 } else { found }
        } else {
            let end = from.index.checked_sub(skip)?.min(line.chars.len());
            let found = line.chars.get(..end)?.iter().rposition(|&c| c == find.ch)?;
            if find.till { found + 1 } else { found }
        };
        Some(Pos {
            row: from.row,
            index,
        })
    }

    /// `%`: from the first bracket at or after the cursor on its row to
    /// the one that balances it, across rows.
    fn matching_bracket(&mut self, from: Pos) -> Option<Pos> {
        const PAIRS: [(char, char); 3] = [('(', ')'), ('[', ']'), ('{', '}')];
        let line = self.line(from.row);
        let (offset, open, close, forward) = line
            .chars
            .get(from.index..)?
            .iter()
            .enumerate()
            .find_map(|(i, &c)| {
                PAIRS.iter().find_map(|&(open, close)| {
                    (c == open)
                        .then_some((i, open, close, true))
                        .or((c == close).then_some((i, open, close, false)))
                })
            })?;
        let mut p = Pos {
            index: from.index + offset,
            ..from
        };
        let mut depth = 0usize;
        loop {
            let c = self.char_at(p);
            if c == open || c == close {
                if (c == open) == forward {
                    depth += 1;
                } else {
                    depth -= 1;
                    if depth == 0 {
                        return Some(p);
                    }
                }
            }
            p = if forward { self.next(p) } else { self.prev(p) }?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pane::PaneId;

    use crate::input::copy_mode::tests::history;

    /// Copy mode over `text` (in a 6x20 pane) with the cursor at (row, col).
    fn at(text: &str, row: usize, col: u16) -> (CopyMode, Window) {
        let h = history(text, 6, 20);
        let mut cm = CopyMode::new(PaneId(1), &h);
        cm.cursor = Point { row, col };
        (cm, h)
    }

    /// Where each motion in turn leaves the cursor.
    fn walk(text: &str, from: (usize, u16), motions: &[(Motion, usize)]) -> Vec<(usize, u16)> {
        let (mut cm, mut h) = at(text, from.0, from.1);
        motions
            .iter()
            .map(|&(m, count)| {
                cm.motion(&mut h, m, count);
                (cm.cursor.row, cm.cursor.col)
            })
            .collect()
    }

    const W: Motion = Motion::WordStart {
        forward: true,
        big: false,
    };
    const BIG_W: Motion = Motion::WordStart {
        forward: true,
        big: true,
    };
    const B: Motion = Motion::WordStart {
        forward: false,
        big: false,
    };
    const BIG_B: Motion = Motion::WordStart {
        forward: false,
        big: true,
    };
    const E: Motion = Motion::WordEnd { big: false };
    const BIG_E: Motion = Motion::WordEnd { big: true };

    #[test]
    fn w_b_e_stop_at_words_and_punctuation_big_ones_only_at_blanks() {
        let text = "foo.bar baz  qux\nnext line\n";
        assert_eq!(
            walk(text, (0, 0), &[(W, 1), (W, 1), (W, 1), (W, 1), (W, 1)]),
            [(0, 3), (0, 4), (0, 8), (0, 13), (1, 0)]
        );
        assert_eq!(
            walk(text, (0, 0), &[(BIG_W, 1), (BIG_W, 1)]),
            [(0, 8), (0, 13)]
        );
        assert_eq!(
            walk(text, (0, 0), &[(E, 1), (E, 1), (E, 1), (BIG_E, 1)]),
            [(0, 2), (0, 3), (0, 6), (0, 10)]
        );
        assert_eq!(walk(text, (0, 0), &[(BIG_E, 1)]), [(0, 6)]);
        assert_eq!(
            walk(text, (1, 0), &[(B, 1), (B, 1), (B, 1), (BIG_B, 1)]),
            [(0, 13), (0, 8), (0, 4), (0, 0)]
        );
    }

    #[test]
    fn a_count_repeats_a_word_motion_and_a_blank_row_is_a_stop() {
        assert_eq!(walk("a b c d e\n", (0, 0), &[(W, 3)]), [(0, 6)]);
        assert_eq!(
            walk("a\n\nb\n", (0, 0), &[(W, 1), (W, 1)]),
            [(1, 0), (2, 0)]
        );
        assert_eq!(
            walk("a\n\nb\n", (2, 0), &[(B, 1), (B, 1)]),
            [(1, 0), (0, 0)]
        );
        // From past the end of the text (where a shell's cursor waits).
        assert_eq!(walk("$ ls -l\n", (0, 15), &[(B, 1)]), [(0, 6)]);
    }

    #[test]
    fn dollar_stops_on_the_last_character_and_zero_caret_on_the_first() {
        let text = "hello world   \n   indented\n";
        assert_eq!(walk(text, (0, 2), &[(Motion::LineEnd, 1)]), [(0, 10)]);
        assert_eq!(
            walk(text, (0, 2), &[(Motion::LineEnd, 2)]),
            [(1, 10)],
            "2$: the next line"
        );
        assert_eq!(
            walk(
                text,
                (1, 9),
                &[(Motion::FirstNonBlank, 1), (Motion::LineStart, 1)]
            ),
            [(1, 3), (1, 0)]
        );
        assert_eq!(
            walk("\n", (0, 5), &[(Motion::LineEnd, 1)]),
            [(0, 0)],
            "an empty row"
        );
    }

    #[test]
    fn line_motions_follow_a_wrapped_line() {
        // 20 columns: the line wraps once.
        let text = "0123456789abcdefghijKLM\n";
        assert_eq!(walk(text, (0, 2), &[(Motion::LineEnd, 1)]), [(1, 2)]);
        assert_eq!(walk(text, (1, 1), &[(Motion::LineStart, 1)]), [(0, 0)]);
        assert_eq!(
            walk(text, (0, 19), &[(W, 1)]),
            [(2, 0)],
            "the word goes on past the wrap"
        );
    }

    #[test]
    fn f_t_and_their_repeats_stay_on_the_row() {
        let find = |ch, forward, till| Motion::Find(Find { ch, forward, till });
        let text = "abc,def,ghi,jkl\nx,y\n";
        let again = Motion::RepeatFind { reverse: false };
        let back = Motion::RepeatFind { reverse: true };
        assert_eq!(
            walk(
                text,
                (0, 0),
                &[(find(',', true, false), 1), (again, 1), (back, 1)]
            ),
            [(0, 3), (0, 7), (0, 3)]
        );
        assert_eq!(
            walk(text, (0, 0), &[(find(',', true, false), 3)]),
            [(0, 11)]
        );
        assert_eq!(
            walk(text, (0, 0), &[(find(',', true, true), 1), (again, 1)]),
            [(0, 2), (0, 6)],
            "; after t moves on to the next one"
        );
        assert_eq!(
            walk(
                text,
                (0, 14),
                &[(find(',', false, false), 1), (find(',', false, true), 1)]
            ),
            [(0, 11), (0, 8)]
        );
        assert_eq!(
            walk(text, (0, 12), &[(find('x', true, false), 1)]),
            [(0, 12)],
            "not on this row: no move"
        );
    }

    #[test]
    fn h_m_l_go_to_the_view_rows() {
        let text: String = (1..=50).map(|i| format!("  line {i}\n")).collect();
        let mut h = history(&text, 6, 20);
        let top = h.top_row();
        let mut cm = CopyMode::new(PaneId(1), &h);
        let mut go = |m, count| {
            cm.motion(&mut h, m, count);
            (cm.cursor.row - top, cm.cursor.col)
        };
        assert_eq!(go(Motion::ViewTop, 1), (0, 2), "the first non-blank");
        assert_eq!(go(Motion::ViewBottom, 1), (5, 0));
        assert_eq!(go(Motion::ViewMiddle, 1), (2, 2));
        assert_eq!(go(Motion::ViewTop, 3), (2, 2));
        assert_eq!(go(Motion::ViewBottom, 2), (4, 2));
        assert_eq!(h.top_row(), top, "the view did not move");
    }

    #[test]
    fn braces_go_to_blank_rows_between_paragraphs() {
        let text = "a\nb\n\nc\nd\n\ne";
        let down = Motion::Paragraph { forward: true };
        let up = Motion::Paragraph { forward: false };
        assert_eq!(
            walk(text, (0, 0), &[(down, 1), (down, 1)]),
            [(2, 0), (5, 0)]
        );
        assert_eq!(
            walk(text, (6, 0), &[(up, 1), (up, 1), (up, 1)]),
            [(5, 0), (2, 0), (0, 0)]
        );
        assert_eq!(walk(text, (0, 0), &[(down, 2)]), [(5, 0)]);
    }

    #[test]
    fn percent_goes_to_the_matching_bracket() {
        let text = "f(a[b]c) x\n{\n  y\n}\n";
        let pct = (Motion::MatchingBracket, 1);
        assert_eq!(walk(text, (0, 0), &[pct, pct]), [(0, 7), (0, 1)]);
        assert_eq!(walk(text, (0, 3), &[pct]), [(0, 5)]);
        assert_eq!(
            walk(text, (1, 0), &[pct, pct]),
            [(3, 0), (1, 0)],
            "across rows"
        );
        assert_eq!(walk(text, (0, 9), &[pct]), [(0, 9)], "no bracket: no move");
    }

    fn scrolled(n: usize) -> (CopyMode, Window) {
        let h = history(
            &(1..=n).map(|i| format!("line {i}\n")).collect::<String>(),
            6,
            20,
        );
        let cm = CopyMode::new(PaneId(1), &h);
        (cm, h)
    }

    #[test]
    fn page_up_scrolls_the_view_at_once_and_the_cursor_keeps_its_screen_row() {
        let (mut cm, mut h) = scrolled(50);
        let screen_row = cm.cursor.row - h.top_row();
        cm.scroll(&mut h, Scroll::Pages(-1));
        assert_eq!(h.offset(), 5, "the first PgUp scrolls a view less one row");
        assert_eq!(cm.cursor.row - h.top_row(), screen_row);
        cm.scroll(&mut h, Scroll::HalfPages(-1));
        assert_eq!(h.offset(), 8);
        cm.scroll(&mut h, Scroll::HalfPages(1));
        assert_eq!(h.offset(), 5);
        assert_eq!(cm.cursor.row - h.top_row(), screen_row);
        cm.scroll(&mut h, Scroll::Pages(-100));
        assert_eq!(
            (h.top_row(), cm.cursor.row),
            (0, 0),
            "at the top the cursor goes on up"
        );
    }

    #[test]
    fn a_line_scroll_leaves_the_cursor_unless_it_would_leave_the_view() {
        let (mut cm, mut h) = scrolled(50);
        cm.scroll(&mut h, Scroll::Lines(-10));
        assert_eq!(cm.cursor.row, h.top_row() + 5, "kept on the bottom row");
        cm.motion(&mut h, Motion::ViewTop, 1);
        let row = cm.cursor.row;
        cm.scroll(&mut h, Scroll::Lines(-2));
        assert_eq!((h.offset(), cm.cursor.row), (12, row));
        cm.scroll(&mut h, Scroll::Lines(3));
        assert_eq!(
            (h.offset(), cm.cursor.row),
            (9, row + 1),
            "pulled along at the top"
        );
    }

    #[test]
    fn entering_a_view_scrolled_back_starts_on_it() {
        let mut h = scrolled(50).1;
        h.set_offset(20);
        let cm = CopyMode::new(PaneId(1), &h);
        assert_eq!(cm.cursor.row, h.top_row() + 5);
    }
}
