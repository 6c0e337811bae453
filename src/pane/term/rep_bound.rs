//! Bounds the work of REP (`CSI n b`, "repeat the last character") by the
//! size of the screen, without changing what the screen shows.
//!
//! vt100 0.18.1 writes REP's character `n` times, one cell at a time, and
//! `n` goes up to 65,535: `x ESC [ 65535 b` is 10 bytes of output and about
//! 2.5 ms of parsing (65,535 cell writes and, at 80 columns, 819 scrolls).
//! A program printing it 20,000 times kept the render loop, and with it
//! every pane, busy for 25 s. vt100 already bounds the other counted
//! sequences by the screen: SU, SD, IL, DL, ICH, DCH, ECH and the cursor
//! movements each take under 10 µs at a count of 65,535, so REP is the only
//! one rewritten here.
//!
//! # Why fewer copies show the same screen
//!
//! Let `w` be the character's width and `k = cols / w` the copies a row
//! holds. The copies fill the rest of the cursor's row, then wrap row by row
//! down to the last row they can reach: the bottom of the scroll region, or
//! of the screen when the cursor is below the region. From then on each wrap
//! either scrolls the region up a row or, below the region, starts the last
//! row over. Every row the copies will ever touch has been written whole by
//! them after at most `2 × rows − 1 − cursor row` wraps (the walk down, then
//! one scroll per row of the region to push out what was there before).
//! From that point, the grid is *settled*: `k` more copies wrap once and
//! leave every cell, wrap flag and the cursor as they were. So the screen
//! depends only on the count modulo `k` past that point, and the count is cut
//! to `settled + (n − settled) mod k`: at most about two screenfuls of cell
//! writes, a screenful and a row with the cursor on the bottom row. The
//! copies written last are written the same way, so the cursor, the pending
//! wrap at the end of a row and the wrap flags come out the same.
//!
//! # What the screen does not show
//!
//! vt100 counts the rows scrolled off the top of the main grid (with no
//! scrollback too), and a grid that grows later takes that many blank rows
//! back in at the top (`fast_forward` keeps the same count exact). On a
//! pane's live screen ([`RepBound::live`]) the dropped copies' scrolls are
//! therefore replayed as SU (scroll up) once the grid is settled, when the
//! copies would count them: on the main grid, with the cursor in a region
//! that starts at the top. SU scrolls the same region and counts the same
//! rows; the copies after it write the region whole again. A row reset
//! costs far less than `k` cell writes, and the replay stops once this
//! module knows the count is past anything a growing grid could take back.
//!
//! A replayed history ([`RepBound::history`]) keeps scrolled rows as
//! scrollback, and replaying them would be all the work again: there a REP
//! leaves at most `2 × rows` rows in the history, where xterm (which wraps
//! REP) would keep `n / k`. tmux keeps none: it stops REP at the end of the
//! line.
//!
//! # How
//!
//! The terminal-fidelity layer ([`crate::pane::term::fidelity`]) follows every
//! byte given to the vt100 parser with a second vte parser (vt100's own,
//! so every byte is read the same way) and stops after a REP worth
//! bounding. The bytes before the REP's final `b` go to vt100 as they are;
//! its vte then holds the REP's parameters, waiting for the final byte.
//! Instead it gets `ESC [ m b` with the smaller count: the `ESC` drops the
//! pending sequence without a trace (any control inside it has run, as it
//! would have) and starts the new one. This module keeps what that needs
//! and vt100 does not expose: REP's character (the last printed one), the
//! main grid's scroll region and the count of scrolled-off rows. The
//! property test in `tests/rep_bound_equivalence.rs` compares this path
//! with plain parsing.
//!
//! The pane's [`EscapeScanner`](crate::pane::term::escape_scanner::EscapeScanner)
//! cannot stand in for the follower: it reads the program's output as it
//! arrives, while the follower must read what the parser gets, which the
//! fast-forward cuts and adds to (replayed line feeds and colours), and a
//! history replay has no scanner at all. And REP's count and character
//! must be read as vte reads them (parameter overflow, sub-parameters,
//! UTF-8 decoding, character widths), which only vte does exactly.

use std::io::Write as _;

use unicode_width::UnicodeWidthChar as _;

/// Once vt100's count of scrolled-off rows is this far above the grid's
/// height, no growth can tell its exact value (vt100 reads it as a `u16`).
const SATURATION: u64 = u16::MAX as u64;

/// A grid's scroll region as vt100 keeps it: `None` is the whole screen.
pub type Region = Option<(u16, u16)>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rows {
    /// The parser keeps no scrollback: the scrolls of dropped copies are
    /// replayed so vt100's count of scrolled-off rows stays exact.
    Counted,
    /// The parser keeps scrollback: the rows of dropped copies are dropped.
    Dropped,
    /// Never bounded: every copy is written (the reference in tests).
    Unbounded,
}

/// What bounding REP needs to know of the bytes the parser got.
#[derive(Debug)]
pub struct RepBound {
    rows: Rows,
    /// The width of REP's character; `None` before any (REP does nothing).
    width: Option<u16>,
    /// REP's character as vt100 holds it (after the character sets).
    last: Option<char>,
    /// The main grid's scroll region (only scrolls there are counted).
    region: Region,
    /// A lower bound of vt100's count of rows scrolled off the main grid:
    /// the rows this module scrolled for it since the count last reset.
    scrolled_at_least: u64,
    /// REPs rewritten, for tests and the log.
    pub rewritten: u64,
}

impl RepBound {
    /// For a parser without scrollback (a pane's live screen): the screen and
    /// vt100's hidden count of scrolled-off rows stay exact.
    pub fn live() -> Self {
        Self::new(Rows::Counted)
    }

    /// For a parser with scrollback (a replayed history): the screen stays
    /// exact; a REP adds at most `2 × rows` rows to the history.
    pub fn history() -> Self {
        Self::new(Rows::Dropped)
    }

    /// Never bounds a REP.
    pub fn unbounded() -> Self {
        Self::new(Rows::Unbounded)
    }

    fn new(rows: Rows) -> Self {
        Self {
            rows,
            width: None,
            last: None,
            region: None,
            scrolled_at_least: 0,
            rewritten: 0,
        }
    }

    /// Starts over for a fresh parser, or after RIS (vt100 starts a new
    /// screen).
    pub fn reset(&mut self) {
        *self = Self {
            rewritten: self.rewritten,
            ..Self::new(self.rows)
        };
    }

    /// After the parser's grid changed size: vt100 (like xterm) then resets
    /// the scroll region of both grids, and a taller grid takes back up to
    /// the growth from the count of scrolled-off rows.
    pub fn grid_resized(&mut self, old_rows: u16, new_rows: u16) {
        self.region = None;
        let grown = u64::from(new_rows.saturating_sub(old_rows));
        self.scrolled_at_least = self.scrolled_at_least.saturating_sub(grown);
    }

    /// vt100's `print` and `text`: REP repeats the last character that took
    /// at least one cell, on a screen `cols` wide.
    #[inline]
    pub fn printed(&mut self, c: char, cols: u16) {
        if c == '\u{fffd}' || ('\u{80}'..'\u{a0}').contains(&c) {
            return;
        }
        if let Some(width @ 1..) = c.width() {
            let width = u16::try_from(width.min(2)).unwrap_or(2);
            // vt100 drops a character wider than the screen.
            if width <= cols {
                self.width = Some(width);
                self.last = Some(c);
            }
        }
    }

    /// [`Self::printed`] for a character known to take one column.
    #[inline]
    pub fn printed_narrow(&mut self, c: char, cols: u16) {
        if cols >= 1 {
            self.width = Some(1);
            self.last = Some(c);
        }
    }

    /// What a character the layer printed became in vt100 (a character
    /// set's translation of the one the follower read).
    pub fn printed_as(&mut self, c: char) {
        if self.last.is_some() {
            self.last = Some(c);
        }
    }

    /// The character REP repeats, if any.
    pub fn last_char(&self) -> Option<char> {
        self.last
    }

    /// Whether a REP of `count` on a `rows` × `cols` grid is worth stopping
    /// for.
    #[inline]
    pub fn worth_bounding(&self, count: u16, rows: u16, cols: u16) -> bool {
        match self.width {
            Some(width) if self.rows != Rows::Unbounded => {
                u32::from(count) >= worth_bounding(rows, cols, width)
            }
            _ => false,
        }
    }

    /// ED 3 (and DECSED 3) clear vt100's count.
    pub fn count_cleared(&mut self) {
        self.scrolled_at_least = 0;
    }

    /// DECSTBM set `region` on the main grid.
    pub fn main_region_set(&mut self, region: Region) {
        self.region = region;
    }

    /// Writes the bounded form of a REP of `count` into `out`; false when
    /// there is nothing to gain.
    pub fn bounded(&mut self, screen: &vt100::Screen, count: u16, out: &mut Vec<u8>) -> bool {
        out.clear();
        // Writing to a Vec cannot fail.
        self.write_bounded(screen, count, out, |out, n| {
            let _ = write!(out, "\x1b[{n}b");
        })
    }

    /// Writes a REP of `count` as its copies, each REP's character followed
    /// by `marker` (vt100's REP repeats the character alone, and the pen's
    /// extras live in the marker), bounded as [`Self::bounded`] bounds it.
    /// Nothing when there is no character to repeat.
    pub fn marked(&mut self, screen: &vt100::Screen, count: u16, marker: &[u8], out: &mut Vec<u8>) {
        out.clear();
        let Some(c) = self.last else {
            return;
        };
        let mut copy = [0; 16];
        let len = c.encode_utf8(&mut copy).len();
        copy[len..len + marker.len()].copy_from_slice(marker);
        let copy = &copy[..len + marker.len()];
        let write_copies = |out: &mut Vec<u8>, n: u32| {
            for _ in 0..n {
                out.extend_from_slice(copy);
            }
        };
        if !self.worth_bounding(count, screen.size().0.get(), screen.size().1.get())
            || !self.write_bounded(screen, count, out, write_copies)
        {
            write_copies(out, u32::from(count));
        }
    }

    /// Writes the bounded form of a REP of `count` into `out`, its copies
    /// by `copies`; false (and nothing written) when there is nothing to
    /// gain.
    fn write_bounded(
        &mut self,
        screen: &vt100::Screen,
        count: u16,
        out: &mut Vec<u8>,
        copies: impl Fn(&mut Vec<u8>, u32),
    ) -> bool {
        let Some(width) = self.width else {
            return false;
        };
        let (rows, cols) = (screen.size().0.get(), screen.size().1.get());
        let (row, col) = screen.cursor_position();
        let (top, bottom) = self.region.unwrap_or((0, rows - 1));
        // The copies past the settled point scroll a region vt100 counts.
        let counted = self.rows == Rows::Counted
            && !screen.alternate_screen()
            && top == 0
            && row <= bottom
            && self.scrolled_at_least < SATURATION.saturating_sub(u64::from(rows));
        let start = Start {
            count,
            width,
            rows,
            cols,
            row,
            col,
        };
        let Some(plan) = plan(start, counted.then_some(bottom + 1)) else {
            return false;
        };
        copies(out, plan.lead);
        let height = u32::from(bottom) + 1;
        let mut left = plan.scroll;
        while left > 0 {
            let n = left.min(height);
            // Writing to a Vec cannot fail.
            let _ = write!(out, "\x1b[{n}S");
            left -= n;
        }
        if plan.tail > 0 {
            copies(out, plan.tail);
        }
        self.scrolled_at_least += u64::from(plan.scroll);
        self.rewritten += 1;
        true
    }
}

/// The first value of parameter `i` as vt100 reads it: 0 is the default.
pub fn param(params: &vte::Params, i: usize, default: u16) -> u16 {
    match params.iter().nth(i).and_then(|p| p.first()) {
        None | Some(0) => default,
        Some(&n) => n,
    }
}

/// The region DECSTBM sets on a grid of `rows` (vt100's `decstbm` and
/// `set_scroll_region`).
pub fn region(params: &vte::Params, rows: u16) -> Region {
    let top = param(params, 0, 1) - 1;
    let bottom = (param(params, 1, rows) - 1).min(rows - 1);
    (top < bottom && (top, bottom) != (0, rows - 1)).then_some((top, bottom))
}

/// The smallest count [`plan`] can shorten, from any cursor position.
fn worth_bounding(rows: u16, cols: u16, width: u16) -> u32 {
    (u32::from(rows) + 1) * u32::from((cols / width).max(1))
}

/// Where a REP starts: its count, its character's width, the grid and the
/// cursor.
#[derive(Debug, Clone, Copy)]
struct Start {
    count: u16,
    width: u16,
    rows: u16,
    cols: u16,
    row: u16,
    col: u16,
}

/// The same REP with fewer cell writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Plan {
    /// Copies written first; the grid is settled after them.
    lead: u32,
    /// Rows to scroll the region up by, in place of dropped copies.
    scroll: u32,
    /// Copies written after the scroll (0: none).
    tail: u32,
}

/// How to write `start.count` copies with fewer cell writes and the same
/// screen. With `counted_region` (the height of a region whose scrolls
/// vt100 counts), the dropped copies' scrolls are kept; `None` when there is
/// nothing to gain.
fn plan(start: Start, counted_region: Option<u16>) -> Option<Plan> {
    let Start {
        count,
        width,
        rows,
        cols,
        row,
        col,
    } = start;
    if width == 0 || width > cols || row >= rows {
        return None;
    }
    let per_row = u32::from(cols / width);
    // Copies before the first wrap (none when the cursor waits to wrap).
    let first_row = u32::from(cols.saturating_sub(col) / width);
    let wraps = 2 * u32::from(rows) - 1 - u32::from(row);
    let settled = first_row + wraps * per_row;
    let count = u32::from(count);
    if count < settled + per_row {
        return None;
    }
    let rows_after = (count - settled) / per_row;
    let rest = (count - settled) % per_row;
    match counted_region {
        None => Some(Plan {
            lead: settled + rest,
            scroll: 0,
            tail: 0,
        }),
        // After the scroll, one row of copies per row of the region writes
        // the region whole again.
        Some(height) => {
            let height = u32::from(height);
            (rows_after > height).then(|| Plan {
                lead: settled,
                scroll: rows_after - height,
                tail: height * per_row + rest,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;
    use crate::pane::term::fidelity::Fidelity;

    fn nz(n: u16) -> std::num::NonZeroU16 {
        std::num::NonZeroU16::new(n).unwrap()
    }

    fn parser(rows: u16, cols: u16, scrollback: usize) -> vt100::Parser {
        vt100::Parser::new(nz(rows), nz(cols), scrollback)
    }

    fn state(screen: &vt100::Screen) -> String {
        let (rows, _) = screen.size();
        let wraps: Vec<bool> = (0..rows.get()).map(|r| screen.row_wrapped(r)).collect();
        format!("{:?}\n{wraps:?}", screen.state_formatted())
    }

    /// vt100's count of rows scrolled off the main grid, as far as any
    /// growth can tell: a grid that grows takes that many rows back in at
    /// the top.
    fn hidden_count(screen: &vt100::Screen) -> u64 {
        let mut grown = screen.clone();
        let before = grown.cursor_position().0;
        grown.set_size(nz(u16::MAX), screen.size().1);
        u64::from(grown.cursor_position().0 - before)
    }

    /// `input` through plain vt100 and through a live `Fidelity`: the same
    /// screens, and the same once the grid has grown by `grow` rows. Checks
    /// that the count `RepBound` keeps is a lower bound of vt100's.
    fn same_as_plain(rows: u16, cols: u16, input: &[&[u8]], grow: u16) -> Fidelity {
        let mut plain = parser(rows, cols, 0);
        let mut bounded = parser(rows, cols, 0);
        let mut bound = Fidelity::live();
        for bytes in input {
            plain.process(bytes);
            bound.process(&mut bounded, bytes).unwrap();
            assert_eq!(state(plain.screen()), state(bounded.screen()));
            let most = SATURATION - u64::from(rows);
            assert!(bound.rep().scrolled_at_least.min(most) <= hidden_count(plain.screen()));
        }
        plain.set_size(nz(rows + grow), nz(cols));
        bounded.set_size(nz(rows + grow), nz(cols));
        bound.grid_resized(rows, rows + grow);
        assert_eq!(state(plain.screen()), state(bounded.screen()), "grown");
        bound
    }

    #[test]
    fn the_count_of_scrolled_off_rows_is_kept_until_it_is_past_any_growth() {
        // At 3 columns a REP of 65,535 scrolls about 21,840 rows: the fourth
        // takes the count past any growth, and the fifth scrolls none for it.
        let rep: &[u8] = b"x\x1b[65535b";
        let bound = same_as_plain(4, 3, &[rep; 4], 40);
        let saturated = bound.rep().scrolled_at_least;
        assert!(saturated >= SATURATION - 4, "{saturated}");
        let bound = same_as_plain(4, 3, &[rep; 5], 40);
        assert_eq!(bound.rep().scrolled_at_least, saturated);
        assert_eq!(bound.rep().rewritten, 5);
        // ED 3 and DECSED 3 clear the count: it must be kept again.
        for cleared in [&b"\x1b[3J"[..], b"\x1b[?3J"] {
            let bound = same_as_plain(4, 3, &[rep, rep, rep, rep, cleared, rep], 40);
            assert!(bound.rep().scrolled_at_least < saturated);
        }
        // A full reset too.
        same_as_plain(4, 3, &[rep, rep, rep, rep, b"\x1bcy\x1b[65535b"], 40);
    }

    #[test]
    fn a_region_set_before_a_resize_no_longer_counts() {
        // Rows 1-3 of 6 scroll; then the resize resets the region and the
        // REP from the bottom row scrolls the whole screen, counted.
        let mut plain = parser(6, 10, 0);
        let mut bounded = parser(6, 10, 0);
        let mut bound = Fidelity::live();
        for p in [&mut plain, &mut bounded] {
            p.set_size(nz(6), nz(10));
        }
        let region = b"\x1b[1;3r";
        plain.process(region);
        bound.process(&mut bounded, region).unwrap();
        for p in [&mut plain, &mut bounded] {
            p.set_size(nz(7), nz(10));
        }
        bound.grid_resized(6, 7);
        let rep = b"\x1b[7;1Hx\x1b[9999b";
        plain.process(rep);
        bound.process(&mut bounded, rep).unwrap();
        for p in [&mut plain, &mut bounded] {
            p.set_size(nz(57), nz(10));
        }
        assert_eq!(state(plain.screen()), state(bounded.screen()));
        assert_eq!(bound.rep().rewritten, 1);
    }

    #[test]
    fn a_history_keeps_at_most_two_screenfuls_of_a_rep() {
        let mut history = parser(24, 80, 100_000);
        let mut bound = Fidelity::history();
        bound.process(&mut history, b"x\x1b[65535b").unwrap();
        assert!(history.screen().scrollback_len() <= 2 * 24);
        let mut plain = parser(24, 80, 100_000);
        plain.process(b"x\x1b[65535b");
        assert_eq!(plain.screen().scrollback_len(), 65536 / 80 - 23);
        assert_eq!(state(plain.screen()), state(history.screen()));
    }

    #[test]
    fn the_count_is_cut_to_the_settled_point_plus_the_rest_of_a_row() {
        let start = Start {
            count: 65535,
            width: 1,
            rows: 24,
            cols: 80,
            row: 23,
            col: 1,
        };
        // 79 copies fill the row, 24 more rows settle the grid, and
        // 65,535 − 79 − 24 × 80 = 63,536 = 794 rows and 16 copies.
        let settled = 79 + 24 * 80;
        assert_eq!(
            plan(start, None),
            Some(Plan {
                lead: settled + 16,
                scroll: 0,
                tail: 0
            })
        );
        // Keeping vt100's count: 794 rows, 24 of them written again.
        assert_eq!(
            plan(start, Some(24)),
            Some(Plan {
                lead: settled,
                scroll: 770,
                tail: 24 * 80 + 16
            })
        );
        // A wide character: 40 a row.
        let wide = Start { width: 2, ..start };
        assert_eq!(
            plan(wide, None).map(|p| p.lead),
            Some(39 + 24 * 40 + (65535 - 39 - 24 * 40) % 40)
        );
        // Too few copies to gain anything.
        assert_eq!(
            plan(
                Start {
                    count: 80 * 25,
                    ..start
                },
                None
            ),
            None
        );
    }

    #[test]
    fn the_issues_flood_parses_a_screenful_per_repeat() {
        let mut parser = parser(24, 80, 0);
        let mut bound = Fidelity::live();
        let flood = b"x\x1b[65535b".repeat(20);
        bound.process(&mut parser, &flood).unwrap();
        assert_eq!(bound.rep().rewritten, 20);
        let mut plain = self::parser(24, 80, 0);
        plain.process(&flood);
        assert_eq!(state(plain.screen()), state(parser.screen()));
    }

    #[test]
    fn reps_split_across_calls_and_sequences_cut_anywhere_are_followed() {
        let input = "ab\x1b[31m漢\x1b[6\n5535b\x1b]0;t\x07x\x1b[2;4r\x1b[9999b\x1bc\x1b[9999b\x1b[?1049hy\x1b[9999b".as_bytes();
        for cut in 1..input.len() {
            let mut plain = parser(6, 10, 0);
            plain.process(input);
            let mut bounded = parser(6, 10, 0);
            let mut bound = Fidelity::live();
            for piece in input.chunks(cut) {
                bound.process(&mut bounded, piece).unwrap();
            }
            assert_eq!(state(plain.screen()), state(bounded.screen()), "cut {cut}");
            assert_eq!(bound.rep().rewritten, 3, "cut {cut}");
        }
    }
}
