//! A parser's whole state as bytes that set it again on a fresh parser of
//! the same size, checked to do so exactly before anyone relies on them.
//!
//! vt100 writes a screen's cells, cursor, pen and input modes out itself
//! (`contents_formatted`, `input_mode_formatted`). What it leaves out is
//! read from its `Debug` text, with the rows skipped: each grid's saved
//! cursor (DECSC, which `CSI ? 1049 h` sets and quitting vim or less goes
//! back to) and scroll region. The primary screen under an alternate one
//! is written too. [`snapshot`] then replays the bytes into a fresh parser
//! and compares every cell, wrap flag, cursor, pen and mode; what the bytes
//! do not write (origin mode, the saved pen) must be at its default. Else
//! there is no snapshot. (The unit tests compare the whole state.)
//!
//! Not carried (and not compared): the character vt100's own REP would
//! repeat (the fidelity layer repeats characters itself), and the
//! alternate grid's cursor while the primary screen shows (entering the
//! alternate screen clears it; programs place their cursor).

use std::fmt::Write as _;
use std::num::NonZeroU16;

/// A snapshot of `parser`'s state, or `None` when replaying it into a
/// fresh parser would not give the same state (a state this module does
/// not write: origin mode, a saved pen other than the default...).
///
/// `fresh_hidden` says the caller knows the state vt100 leaves out of its
/// formatted output is a fresh parser's (see
/// `EscapeScanner::hidden_state_touched`): it is then not read from the
/// `Debug` text, which costs more than the rest together (the text of
/// every cell, ~10 ms for 200x60 on a 2-core VM).
///
/// `parser` is changed on the way and set back exactly (the primary
/// screen under an alternate one is looked at with `CSI ? 47 l`, then
/// `CSI ? 47 h`, which only flip which grid shows).
pub fn snapshot<C: vt100::Callbacks>(
    parser: &mut vt100::Parser<C>,
    fresh_hidden: bool,
) -> Option<Vec<u8>> {
    let before = (!fresh_hidden).then(|| skeleton(parser.screen()));
    let hidden = match &before {
        Some(before) => Hidden::read(before)?,
        None => Hidden::fresh(parser.screen().size().0),
    };
    let alternate = parser.screen().alternate_screen();
    let mut bytes = Vec::new();
    if alternate {
        parser.process(b"\x1b[?47l");
        draw_grid(parser.screen(), &hidden.primary, &mut bytes);
        parser.process(b"\x1b[?47h");
        bytes.extend_from_slice(b"\x1b[?47h");
        draw_grid(parser.screen(), &hidden.alternate, &mut bytes);
    } else {
        draw_grid(parser.screen(), &hidden.primary, &mut bytes);
    }
    bytes.extend_from_slice(parser.screen().input_mode_formatted().as_bytes());
    bytes.extend_from_slice(cursor_style(parser.screen().cursor_style()));
    let (rows, cols) = parser.screen().size();
    let mut rebuilt = vt100::Parser::new(rows, cols, 0);
    rebuilt.process(&bytes);
    same_state(parser, &mut rebuilt, before.as_deref()).then_some(bytes)
}

/// A fresh parser of `rows` x `cols` with `callbacks`, set to the state
/// `bytes` (from [`snapshot`]) describe.
pub fn rebuild<C: vt100::Callbacks>(
    rows: NonZeroU16,
    cols: NonZeroU16,
    callbacks: C,
    bytes: &[u8],
) -> vt100::Parser<C> {
    let mut parser = vt100::Parser::new_with_callbacks(rows, cols, 0, callbacks);
    parser.process(bytes);
    parser
}

/// What of one grid vt100's formatted contents leave out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct GridHidden {
    saved_row: u16,
    saved_col: u16,
    scroll_top: u16,
    scroll_bottom: u16,
}

/// The hidden parts of both grids.
struct Hidden {
    primary: GridHidden,
    alternate: GridHidden,
}

impl Hidden {
    /// A fresh parser's, on a screen of `rows`.
    fn fresh(rows: NonZeroU16) -> Self {
        let grid = GridHidden {
            saved_row: 0,
            saved_col: 0,
            scroll_top: 0,
            scroll_bottom: rows.get() - 1,
        };
        Self {
            primary: grid,
            alternate: grid,
        }
    }

    /// Read from a screen's skeleton; `None` if a part is not where vt100
    /// 0.18 puts it.
    fn read(skeleton: &str) -> Option<Self> {
        let at = skeleton.find("alternate_grid:")?;
        let (primary, alternate) = skeleton.split_at(at);
        Some(Self {
            primary: grid_hidden(primary)?,
            alternate: grid_hidden(alternate)?,
        })
    }
}

fn grid_hidden(text: &str) -> Option<GridHidden> {
    let number = |name: &str| -> Option<u16> {
        let from = text.find(name)? + name.len();
        let digits: String = text[from..]
            .chars()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    };
    let saved = text.find("saved_pos:")?;
    let saved_text = &text[saved..];
    let in_saved = |name: &str| -> Option<u16> {
        let from = saved_text.find(name)? + name.len();
        saved_text[from..]
            .trim_start()
            .split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse()
            .ok()
    };
    Some(GridHidden {
        saved_row: in_saved("row:")?,
        saved_col: in_saved("col:")?,
        scroll_top: number("scroll_top:")?,
        scroll_bottom: number("scroll_bottom:")?,
    })
}

/// Draws the grid that shows: its saved cursor, its cells, cursor and pen,
/// then its scroll region (which vt100 sets with the cursor at home, so
/// the cursor and pen are set again after it).
fn draw_grid(screen: &vt100::Screen, hidden: &GridHidden, out: &mut Vec<u8>) {
    let mut text = String::new();
    if (hidden.saved_row, hidden.saved_col) != (0, 0) {
        // DECSC saves the pen too: the default one, as the check requires.
        let _ = write!(
            text,
            "\x1b[m\x1b[{};{}H\x1b7",
            hidden.saved_row + 1,
            hidden.saved_col + 1
        );
    }
    text.push_str(&screen.contents_formatted());
    let rows = screen.size().0.get();
    if (hidden.scroll_top, hidden.scroll_bottom) != (0, rows - 1) {
        let _ = write!(
            text,
            "\x1b[{};{}r",
            hidden.scroll_top + 1,
            hidden.scroll_bottom + 1
        );
        text.push_str(&screen.cursor_state_formatted());
        text.push_str(&screen.attributes_formatted());
    }
    out.extend_from_slice(text.as_bytes());
}

fn cursor_style(style: vt100::CursorStyle) -> &'static [u8] {
    use vt100::CursorStyle as S;
    match style {
        S::Default => b"",
        S::BlinkBlock => b"\x1b[1 q",
        S::SteadyBlock => b"\x1b[2 q",
        S::BlinkUnderline => b"\x1b[3 q",
        S::SteadyUnderline => b"\x1b[4 q",
        S::BlinkVerticalBar => b"\x1b[5 q",
        S::SteadyVerticalBar => b"\x1b[6 q",
    }
}

/// Whether `rebuilt` is in `original`'s state: the same cells and wrap
/// flags on each grid in use, cursor, pen and modes. The parts only the
/// skeleton shows are written from `before` (saved cursors, scroll
/// regions) or must be the defaults the bytes leave (origin mode, the
/// saved pen): formatting the rebuilt parser's skeleton too would double
/// the cost, which is mostly the `Debug` text of the cells. No `before`:
/// the caller knows those parts are a fresh parser's.
fn same_state<C: vt100::Callbacks, D: vt100::Callbacks>(
    original: &mut vt100::Parser<C>,
    rebuilt: &mut vt100::Parser<D>,
    before: Option<&str>,
) -> bool {
    let alternate = original.screen().alternate_screen();
    if !before.is_none_or(|before| defaults_where_unwritten(before, alternate))
        || !same_looks(original.screen(), rebuilt.screen())
        || !same_cells(original.screen(), rebuilt.screen())
    {
        return false;
    }
    if !alternate {
        return true;
    }
    original.process(b"\x1b[?47l");
    rebuilt.process(b"\x1b[?47l");
    let primary_same = same_cells(original.screen(), rebuilt.screen())
        && original.screen().cursor_position() == rebuilt.screen().cursor_position();
    original.process(b"\x1b[?47h");
    rebuilt.process(b"\x1b[?47h");
    primary_same
}

/// Whether the state the snapshot does not write is at the defaults a
/// fresh parser has: origin mode off and saved off on each grid in use,
/// and the saved pen the default one.
fn defaults_where_unwritten(skeleton: &str, alternate: bool) -> bool {
    let in_use = match skeleton.find("alternate_grid:") {
        Some(at) if !alternate => &skeleton[..at],
        _ => skeleton,
    };
    let fresh = skeleton_of_fresh();
    let pen = |text: &str| -> Option<String> {
        let from = text.find("saved_attrs:")?;
        let rest = &text[from..];
        let to = rest.find('}')?;
        Some(rest[..=to].to_owned())
    };
    !in_use.contains("origin_mode: true") && pen(skeleton).is_some() && pen(skeleton) == pen(&fresh)
}

fn skeleton_of_fresh() -> String {
    let two = NonZeroU16::MIN.saturating_add(1);
    skeleton(vt100::Parser::new(two, two, 0).screen())
}

/// Cursor, pen, modes and which screen shows.
fn same_looks(a: &vt100::Screen, b: &vt100::Screen) -> bool {
    a.alternate_screen() == b.alternate_screen()
        && a.cursor_position() == b.cursor_position()
        && a.hide_cursor() == b.hide_cursor()
        && a.cursor_style() == b.cursor_style()
        && a.attributes_formatted() == b.attributes_formatted()
        && a.input_mode_formatted() == b.input_mode_formatted()
}

#[cfg(test)]
/// `text` without the number after each `name`.
fn without_number(text: &str, name: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(name) {
        let after = &rest[at + name.len()..];
        out.push_str(&rest[..at + name.len()]);
        rest = after.trim_start_matches(|c: char| c == ' ' || c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

fn same_cells(a: &vt100::Screen, b: &vt100::Screen) -> bool {
    let (rows, cols) = a.size();
    if b.size() != (rows, cols) {
        return false;
    }
    (0..rows.get()).all(|row| {
        a.row_wrapped(row) == b.row_wrapped(row)
            && (0..cols.get()).all(|col| a.cell(row, col) == b.cell(row, col))
    })
}

/// The screen's `Debug` text without its rows of cells: what is left is
/// small (sizes, cursors, scroll regions, pens, modes) and is all the state
/// the cells do not hold.
fn skeleton(screen: &vt100::Screen) -> String {
    let mut out = Skeleton::default();
    let _ = write!(out, "{screen:?}");
    out.kept
}

/// A `fmt::Write` that keeps everything but what is inside `rows: [...]`.
#[derive(Default)]
struct Skeleton {
    kept: String,
    /// Bracket depth inside a skipped list of rows (0: keeping).
    skipping: usize,
}

impl std::fmt::Write for Skeleton {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if self.skipping == 0 && !s.contains('[') {
            self.kept.push_str(s);
            return Ok(());
        }
        for c in s.chars() {
            if self.skipping > 0 {
                match c {
                    '[' => self.skipping += 1,
                    ']' => {
                        self.skipping -= 1;
                        if self.skipping == 0 {
                            self.kept.push(']');
                        }
                    }
                    _ => {}
                }
                continue;
            }
            self.kept.push(c);
            if c == '[' && self.kept.ends_with("rows: [") {
                self.skipping = 1;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::pane::term::emulator::PaneParser;
    use crate::pane::term::fast_forward::FastForward;
    use crate::pane::term::terminal_queries::PaneEvents;
    use proptest::prelude::*;

    fn parser(rows: u16, cols: u16) -> vt100::Parser {
        vt100::Parser::new(
            NonZeroU16::new(rows).unwrap(),
            NonZeroU16::new(cols).unwrap(),
            0,
        )
    }

    /// A skeleton without what the snapshot does not carry: REP's
    /// character, the count of rows ever scrolled off and, on the primary
    /// screen, the unseen alternate grid.
    fn comparable(skeleton: &str, alternate: bool) -> String {
        let mut kept = skeleton;
        if let Some(at) = kept.find("last_char:") {
            kept = &kept[..at];
        }
        let kept = without_number(kept, "unbounded_len:");
        if alternate {
            return kept;
        }
        match (kept.find("alternate_grid:"), kept.find("attrs:")) {
            (Some(from), Some(to)) if from < to => [&kept[..from], &kept[to..]].concat(),
            _ => kept,
        }
    }

    /// Snapshots `bytes` printed on a 6x20 screen and checks the rebuilt
    /// parser against the original, then that both go on alike.
    /// Returns the rebuilt screen's text before that.
    fn round_trip(bytes: &[u8]) -> String {
        let mut original = parser(6, 20);
        original.process(bytes);
        let before = original.screen().contents_formatted();
        let snap = snapshot(&mut original, false).expect("a snapshot");
        assert_eq!(original.screen().contents_formatted(), before, "set back");
        let (rows, cols) = original.screen().size();
        let mut rebuilt = rebuild(rows, cols, (), &snap);
        let before = skeleton(original.screen());
        assert!(same_state(&mut original, &mut rebuilt, Some(&before)));
        // The whole state, skeleton included, is the same.
        let alternate = original.screen().alternate_screen();
        assert_eq!(
            comparable(&before, alternate),
            comparable(&skeleton(rebuilt.screen()), alternate)
        );
        let text = rebuilt.screen().contents();
        let after = b"\x1b[?1049lnext\r\nline\x1b[31m red\x1b8X\x1b[5;1Hlow\r\n\r\n\r\n";
        original.process(after);
        rebuilt.process(after);
        assert!(same_cells(original.screen(), rebuilt.screen()));
        assert_eq!(
            original.screen().cursor_position(),
            rebuilt.screen().cursor_position()
        );
        text
    }

    #[test]
    fn a_prompt_with_colours_wraps_and_a_cursor_comes_back_the_same() {
        round_trip(b"$ ls\r\n\x1b[1;34mdir\x1b[m  \x1b[4:3mfile\x1b[m\r\n$ 0123456789012345678901234 \x1b[7m");
    }

    #[test]
    fn a_cursor_waiting_to_wrap_at_the_last_column_stays_waiting() {
        assert!(round_trip(b"01234567890123456789").starts_with("0123"));
    }

    #[test]
    fn wide_and_combining_characters_and_markers_come_back() {
        round_trip("日本語 e\u{301} \u{e0c01}x\r\n\x1b[38;2;1;2;3mtrue".as_bytes());
    }

    #[test]
    fn the_alternate_screen_and_the_shell_under_it_come_back() {
        let text = round_trip(
            b"$ vim\r\n\x1b[?1049h\x1b[H\x1b[2J~\r\n~\x1b[3;5H\x1b[?1h\x1b=\x1b[?2004h\x1b[?1000h\x1b[?1006h\x1b[5 q\x1b[?25l",
        );
        assert!(text.starts_with('~'), "{text}");
    }

    #[test]
    fn a_scroll_region_and_a_saved_cursor_come_back() {
        round_trip(b"top\x1b[2;4r\x1b[3;2Hmid\x1b7\x1b[6;1Hbottom");
    }

    #[test]
    fn a_state_it_cannot_write_is_refused() {
        let mut original = parser(6, 20);
        original.process(b"\x1b[2;5r\x1b[?6hinside");
        assert!(
            snapshot(&mut original, false).is_none(),
            "origin mode is not written"
        );
        let mut pen = parser(6, 20);
        pen.process(b"\x1b[31m\x1b7\x1b[m");
        assert!(
            snapshot(&mut pen, false).is_none(),
            "a saved pen other than the default"
        );
    }

    #[test]
    fn the_skeleton_leaves_out_the_rows_only() {
        let mut p = parser(3, 4);
        p.process(b"ab[c]");
        let text = skeleton(p.screen());
        assert!(text.contains("rows: []"), "{text}");
        assert!(text.contains("scroll_bottom: 2"), "{text}");
        assert!(text.contains("saved_attrs"), "{text}");
        assert!(text.len() < 2_000, "{}", text.len());
    }

    /// Output through a pane's intake (scanner, fidelity layer, parser):
    /// the parser, and whether the scanner saw the hidden state touched.
    fn through_a_pane(input: &[u8]) -> (PaneParser, bool) {
        let mut parser = vt100::Parser::new_with_callbacks(
            NonZeroU16::new(6).unwrap(),
            NonZeroU16::new(20).unwrap(),
            0,
            PaneEvents::default(),
        );
        let mut intake = FastForward::default();
        intake.push(&mut parser, input).unwrap();
        intake.settle(&mut parser).unwrap();
        (parser, intake.hidden_state_touched())
    }

    #[test]
    fn a_fresh_hidden_state_is_not_read_and_gives_the_same_snapshot() {
        let (mut p, touched) =
            through_a_pane(b"\x1b]0;t\x07\x1b[?2004h\x1b[1;32muser\x1b[m:~$ \x1b[K");
        assert!(!touched);
        let known = snapshot(&mut p, true).unwrap();
        assert_eq!(Some(known), snapshot(&mut p, false));
    }

    const PIECES: &[&[u8]] = &[
        b"text ",
        b"\r\n",
        b"\x1b[31m",
        b"\x1b[m",
        b"\x1b[K",
        b"\x1b[2J",
        b"\x1b[H",
        b"\x1b[3;4H",
        b"\x1b]0;title\x07",
        b"\x1b[?2004h",
        b"\x1b[?25l",
        b"\x1b[?1h",
        b"\x1b=",
        b"\x1b>",
        b"\x1b(0q\x1b(B",
        b"\x1b8",
        b"\x1bM",
        b"\x1b[s",
        b"\x1b[u",
        b"\x1b7",
        b"\x1b[2;4r",
        b"\x1b[r",
        b"\x1b[?6h",
        b"\x1b[?6l",
        b"\x1b[?1049h",
        b"\x1b[?1049l",
        b"\x1b[?1047h",
        b"\x1b[?47h",
        b"\x1b[?1048h",
        b"\x1b[!p",
        b"\x1b#8",
        b"\x1bc",
        b"\x1b[5b",
        b"\x1b[2@",
        b"\x1b[4h",
        b"\x1b[?7l",
        b"\x1b[3g",
        b"\t",
        b"\x1bH",
        b"\x1b[?2026h",
        b"\x1b[?2026l",
        b"\x1b[6n",
        b"\x1b[>4;1m",
        b"\x1bD",
        b"\x1bE",
        b"\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13h",
        b"\x1b[?6;25h",
        b"\x1b[?6:2h",
    ];

    proptest! {
        /// The scanner's rule, checked against vt100 itself: output it
        /// does not see touching the hidden state leaves that state a
        /// fresh parser's, through the fidelity layer's rewrites too.
        #[test]
        fn output_the_scanner_passes_leaves_a_fresh_hidden_state(
            picks in proptest::collection::vec((0..PIECES.len(), any::<u8>(), any::<bool>()), 0..40),
        ) {
            let mut input = Vec::new();
            for (piece, byte, raw) in picks {
                if raw {
                    input.push(byte);
                } else {
                    input.extend_from_slice(PIECES[piece]);
                }
            }
            let (p, touched) = through_a_pane(&input);
            if !touched {
                let before = skeleton(p.screen());
                let hidden = Hidden::read(&before).unwrap();
                let fresh = Hidden::fresh(p.screen().size().0);
                prop_assert_eq!(hidden.primary, fresh.primary, "{:?}", input);
                prop_assert_eq!(hidden.alternate, fresh.alternate, "{:?}", input);
                prop_assert!(defaults_where_unwritten(&before, p.screen().alternate_screen()));
            }
        }
    }
}
