//! A history's rows as text, and the matches of a pattern on them: what
//! copy mode draws and moves by, and what its search thread and the
//! search across panes read (`ring_search`, `search_worker`). Pure over a
//! `History`, below all three so none leads back to another.

use regex::Regex;

use crate::pane::history::anchors::RowAnchor;
use crate::pane::history::window::Window;
use crate::pane::term::screen::ScreenView;

/// A match on the rows of the window shown: from (`row`, `start`) to
/// (`end_row`, `end`), the end exclusive. It spans rows where the program's
/// line was wrapped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    pub row: usize,
    pub start: u16,
    pub end_row: usize,
    /// Exclusive.
    pub end: u16,
}

impl Match {
    /// The columns of row `row` this match covers, if any.
    pub fn cols_on(&self, row: usize, width: u16) -> Option<(u16, u16)> {
        if row < self.row || row > self.end_row {
            return None;
        }
        let from = if row == self.row { self.start } else { 0 };
        let to = if row == self.end_row { self.end } else { width };
        Some((from, to))
    }
}

/// One row as text, with the column of every byte so regex byte offsets map
/// back to cells (wide characters take two).
#[derive(Debug, Clone, Default)]
pub struct RowText {
    pub text: String,
    byte_cols: Vec<u16>,
    /// Every byte is one column (plain ASCII): `byte_cols` is left empty.
    one_byte_a_col: bool,
    /// The row continues on the next one (the program's line was wrapped).
    pub wrapped: bool,
}

impl RowText {
    pub fn from_screen(screen: ScreenView<'_>, row: u16) -> Self {
        let cols = screen.size().1.get();
        let mut out = RowText {
            wrapped: screen.row_wrapped(row),
            ..RowText::default()
        };
        for col in 0..cols {
            let Some(cell) = screen.cell(row, col) else {
                break;
            };
            if cell.is_wide_continuation() {
                continue;
            }
            let contents = cell.contents();
            let s = if cell.has_contents() { &contents } else { " " };
            out.text.push_str(s);
            out.byte_cols.extend(std::iter::repeat_n(col, s.len()));
        }
        out
    }

    /// The row from its text as the screen gives it (blanks between characters
    /// as spaces, none at the end), when it is plain ASCII: the common
    /// case, without reading the screen cell by cell.
    pub fn from_ascii(mut text: String, cols: u16, wrapped: bool) -> Option<Self> {
        if !text.is_ascii() || text.len() > usize::from(cols) {
            return None;
        }
        let pad = usize::from(cols) - text.len();
        text.extend(std::iter::repeat_n(' ', pad));
        Some(Self {
            text,
            byte_cols: Vec::new(),
            one_byte_a_col: true,
            wrapped,
        })
    }

    /// Column of the byte at `offset` (the end of the row when past it).
    pub fn col_at(&self, offset: usize, cols: u16) -> u16 {
        if self.one_byte_a_col {
            return u16::try_from(offset).map_or(cols, |col| col.min(cols));
        }
        self.byte_cols.get(offset).copied().unwrap_or(cols)
    }
}

/// A match anywhere in a pane's history: from column `start_col` of the row
/// `start` names to column `end_col` (exclusive) of the row `end` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct GlobalMatch {
    pub start: RowAnchor,
    pub start_col: u16,
    pub end: RowAnchor,
    pub end_col: u16,
}

impl GlobalMatch {
    /// The match `m` found on the rows of `history`.
    pub fn of(history: &Window, m: &Match) -> Self {
        Self {
            start: history.anchor_of(m.row),
            start_col: m.start,
            end: history.anchor_of(m.end_row),
            end_col: m.end,
        }
    }
}

/// Every row of a history window as text, for searching it.
pub fn snapshot(history: &mut Window) -> Vec<RowText> {
    let total = history.total_rows();
    let view = history.screen().size().0.get();
    let mut out = Vec::with_capacity(total);
    // A view's worth of rows for each scroll of the parser.
    while out.len() < total {
        let before = out.len();
        history.with_row(before, |screen, first| {
            let cols = screen.size().1.get();
            let texts = screen.row_texts().skip(usize::from(first));
            for (r, text) in (first..view).zip(texts) {
                if out.len() == total {
                    break;
                }
                let wrapped = screen.row_wrapped(r);
                out.push(
                    RowText::from_ascii(text, cols, wrapped)
                        .unwrap_or_else(|| RowText::from_screen(screen, r)),
                );
            }
        });
        if out.len() == before {
            break;
        }
    }
    out
}

/// Every match of `regex` in `rows`.
pub fn find_all(rows: &[RowText], regex: &Regex, cols: u16) -> Vec<Match> {
    find_all_while(rows, regex, cols, || true).unwrap_or_default()
}

/// Every match of `regex` in `rows`, or `None` as soon as `keep_going`
/// says no (it is asked before each line: a search nobody wants any more
/// stops within one line). Rows the program's line wrapped over are
/// searched as one line, so a match may span them; the blanks after a
/// line's last character are not searched, so `$` matches where its text
/// ends.
pub fn find_all_while(
    rows: &[RowText],
    regex: &Regex,
    cols: u16,
    keep_going: impl Fn() -> bool,
) -> Option<Vec<Match>> {
    let mut out = Vec::new();
    let mut first = 0;
    let mut joined = String::new();
    // Byte offset in `joined` where each row of the line begins.
    let mut starts: Vec<usize> = Vec::new();
    while first < rows.len() {
        if !keep_going() {
            return None;
        }
        let mut last = first;
        while last + 1 < rows.len() && rows[last].wrapped {
            last += 1;
        }
        let line = &rows[first..=last];
        let text: &str = if line.len() == 1 {
            &line[0].text
        } else {
            joined.clear();
            starts.clear();
            for row in line {
                starts.push(joined.len());
                joined.push_str(&row.text);
            }
            &joined
        };
        // Rows keep their blank cells as spaces, so that byte offsets map
        // to columns; but the blanks after a line's last character are not
        // its text: `$` must match where the text ends, as in tmux (which
        // trims them) and grep. Only the end is cut, so every offset before
        // it, and the column it maps to, stays the same. A line still
        // going on past these rows keeps its blanks: they are inside it.
        let text = if rows[last].wrapped {
            text
        } else {
            text.trim_end_matches(' ')
        };
        // Row (of `rows`) and column of the byte at `offset` of the line.
        let place = |offset: usize| -> (usize, u16) {
            if line.len() == 1 {
                return (first, line[0].col_at(offset, cols));
            }
            let i = starts.partition_point(|&s| s <= offset).saturating_sub(1);
            (first + i, line[i].col_at(offset - starts[i], cols))
        };
        for m in regex.find_iter(text) {
            if m.as_str().trim().is_empty() {
                continue;
            }
            let (row, start) = place(m.start());
            let (end_row, end) = if m.end() == 0 {
                (row, start)
            } else {
                let (r, c) = place(m.end() - 1);
                (r, c.saturating_add(1))
            };
            out.push(Match {
                row,
                start,
                end_row,
                end,
            });
        }
        first = last + 1;
    }
    Some(out)
}
