//! Grapheme clusters vt100 would split or size wrongly, written into it as
//! one cell of the cluster's width: an emoji with VS16 (U+FE0F, wide) or
//! VS15 (U+FE0E, narrow), a ZWJ sequence, an emoji with a skin tone. The
//! width is `unicode-width`'s for the whole cluster, which is what the
//! terminals that draw clusters whole and programs using Unicode's rules
//! (Python's `wcwidth.wcswidth`, Rust's `unicode-width`) give it.
//!
//! Text goes to vt100 in bulk up to the first joiner (ZWJ, VS15, VS16, a
//! skin tone) and no further, so the character printed just before it (the
//! cluster's base) is known and in the grid. The joiners and what they
//! join are then written as a stand-in character of the cluster's width and
//! a mark naming the cluster (`pane::term::cluster_marks`), over the base's
//! cell. vt100 itself never sees a VS16, so it never widens a cell on its
//! own: a cluster that becomes wide in the last column wraps to the next
//! row as any wide character does, leaving a blank, instead of vt100's
//! widening there (which breaks its grid and panics).

use std::borrow::Cow;
use std::io::Write as _;

use unicode_width::{UnicodeWidthChar as _, UnicodeWidthStr as _};

use super::answers::Answers;
use super::follower::Last;
use crate::pane::term::cluster_marks;
use crate::pane::term::parse_guard::{self, ParserPanicked};

const ESC: u8 = 0x1b;
const ZWJ: &[u8] = "\u{200D}".as_bytes();
const VS16: char = '\u{FE0F}';

/// The length of the joiner `bytes` starts with: ZWJ, VS15, VS16 or an
/// emoji skin tone (U+1F3FB..U+1F3FF).
#[inline]
fn joiner_len(bytes: &[u8]) -> Option<usize> {
    match bytes {
        [0xE2, 0x80, 0x8D, ..] | [0xEF, 0xB8, 0x8E | 0x8F, ..] => Some(3),
        [0xF0, 0x9F, 0x8F, 0xBB..=0xBF, ..] => Some(4),
        _ => None,
    }
}

/// How many bytes at the end of `bytes` start a character without ending
/// it (a joiner, or a character a ZWJ may join).
#[inline]
pub(super) fn partial_char(bytes: &[u8]) -> usize {
    for back in 1..=bytes.len().min(3) {
        let len = match bytes[bytes.len() - back] {
            0x80..=0xbf => continue,
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => return 0,
        };
        return if back < len { back } else { 0 };
    }
    0
}

/// Where the first joiner in `bytes` starts.
#[inline]
pub(super) fn find(bytes: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = memchr::memchr3(0xE2, 0xEF, 0xF0, &bytes[from..]) {
        let at = from + i;
        if joiner_len(&bytes[at..]).is_some() {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Where text up to a joiner at `at` is cut: at the last ESC before it, so
/// that the piece with the base in it holds no sequence after a printed
/// character (see [`Clusters::after_text`]).
pub(super) fn cut_before(bytes: &[u8], at: usize) -> usize {
    match memchr::memrchr(ESC, &bytes[..at]) {
        Some(esc) if esc > 0 => esc,
        _ => at,
    }
}

/// The character `bytes` starts with, if it is whole and may be joined
/// after a ZWJ (printable, with a width).
fn joinable_char(bytes: &[u8]) -> Option<char> {
    let len = match bytes.first()? {
        0x20..=0x7e => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return None,
    };
    let c = std::str::from_utf8(bytes.get(..len)?)
        .ok()?
        .chars()
        .next()?;
    (c != '\u{FFFD}' && c.width().is_some_and(|w| w > 0)).then_some(c)
}

/// How many bytes at the start of `bytes` continue a cluster: joiners, and
/// after a ZWJ one character.
fn continuation(bytes: &[u8], mut after_zwj: bool) -> usize {
    let mut i = 0;
    loop {
        let rest = &bytes[i..];
        if let Some(len) = joiner_len(rest) {
            after_zwj = rest.starts_with(ZWJ);
            i += len;
        } else if let Some(c) = joinable_char(rest).filter(|_| after_zwj) {
            after_zwj = false;
            i += c.len_utf8();
        } else {
            return i;
        }
    }
}

/// The cluster being written: its text, and its cell.
#[derive(Debug)]
struct Current {
    text: String,
    row: u16,
    col: u16,
    width: u16,
}

/// What the fidelity layer keeps between pieces of text about the cluster
/// the next joiner belongs to.
#[derive(Debug, Default)]
pub(super) struct Clusters {
    /// The character printed last, with nothing read since (vte in ground).
    base: Option<char>,
    current: Option<Current>,
    /// The start of a character that ended the last bytes given.
    held: Vec<u8>,
}

impl Clusters {
    /// After a piece of output went to vt100 in bulk: `last` is what the
    /// follower did last in it (`Last::Nothing` before it).
    #[inline]
    pub(super) fn after_text(&mut self, last: Last, piece: &[u8]) {
        self.forget();
        if let Last::Print(c) = last {
            let mut buf = [0; 4];
            let encoded = c.encode_utf8(&mut buf).as_bytes();
            // The piece may hold only the end of it (the rest came before).
            let tail = encoded.len().min(piece.len());
            // A character printed last, and no ESC after it: only one the
            // piece starts with, which the print came after.
            if piece[piece.len() - tail..] == encoded[encoded.len() - tail..]
                && matches!(memchr::memrchr(ESC, piece), None | Some(0))
            {
                self.base = Some(c);
            }
        }
    }

    /// Nothing known any more (text went another way, the grid changed).
    pub(super) fn forget(&mut self) {
        self.base = None;
        self.current = None;
    }

    /// Whether `bytes` start by going on with a cluster.
    #[inline]
    pub(super) fn continues(&self, bytes: &[u8]) -> bool {
        joiner_len(bytes).is_some()
            || self
                .current
                .as_ref()
                .is_some_and(|c| c.text.as_bytes().ends_with(ZWJ) && joinable_char(bytes).is_some())
    }

    /// How many bytes of `bytes` (which [`Self::continues`]) the cluster
    /// takes.
    pub(super) fn taken(&self, bytes: &[u8]) -> usize {
        let after_zwj = self
            .current
            .as_ref()
            .is_some_and(|c| c.text.as_bytes().ends_with(ZWJ));
        continuation(bytes, after_zwj)
    }

    /// Character `c` was printed on its own (text a character at a time).
    pub(super) fn printed(&mut self, c: char) {
        self.current = None;
        self.base = Some(c);
    }

    /// Whether character `c`, printed a character at a time, goes on with
    /// a cluster.
    pub(super) fn joins(&self, c: char) -> bool {
        let mut buf = [0; 4];
        self.continues(c.encode_utf8(&mut buf).as_bytes())
    }

    /// Writes into `out` what vt100 gets for `taken` (the cluster's next
    /// joiners and characters), given the screen as it is and the modes
    /// (`insert`, `autowrap`) the text prints in. Returns whether it was
    /// joined.
    pub(super) fn write(
        &mut self,
        screen: &vt100::Screen,
        taken: &str,
        (insert, autowrap): (bool, bool),
        out: &mut Vec<u8>,
    ) -> bool {
        let cols = screen.size().1.get();
        let Some((mut text, row, col)) = self.cell(screen) else {
            self.unjoined(taken, out);
            return false;
        };
        text.push_str(taken);
        let width = u16::try_from(text.width().clamp(1, 2)).unwrap_or(1);
        // Without auto-wrap, a cluster made wide in the last column stays
        // what it was.
        let fits = width <= cols && (autowrap || width == 1 || col + 2 <= cols);
        let Some(id) = cluster_marks::intern(&text).filter(|_| fits) else {
            self.unjoined(taken, out);
            return false;
        };
        let was_wide = screen.cell(row, col).is_some_and(vt100::Cell::is_wide);
        if insert && width == 2 && !was_wide {
            // Room for the wider cell, the text after it moved right.
            out.extend_from_slice(b"\x1b[@");
        }
        // Writing to a Vec cannot fail. VPA is absolute in vt100 whatever
        // the origin mode.
        let _ = write!(out, "\x1b[{}d\x1b[{}G", row + 1, col + 1);
        if width == 2 && col + 2 > cols {
            // A wide cluster in the last column goes on to the next row,
            // as a wide character does: the last cell keeps a blank, and
            // the stand-in then wraps.
            out.push(b' ');
        }
        let first = text.chars().next().unwrap_or(' ');
        let stand_in = match (first.width(), width) {
            (Some(w), _) if w == usize::from(width) => first,
            (_, 2) => '\u{3000}',
            _ => ' ',
        };
        let mut buf = [0; 4];
        out.extend_from_slice(stand_in.encode_utf8(&mut buf).as_bytes());
        cluster_marks::push_mark(out, id);
        if width == 1 && was_wide {
            // vt100 left a blank with contents where the right half was:
            // erased, or in insert mode taken out (the text after it moves
            // back left).
            out.extend_from_slice(if insert { b"\x1b[P" } else { b"\x1b[X" });
        }
        self.current = Some(Current {
            text,
            row,
            col,
            width,
        });
        true
    }

    /// After vt100 read what [`Self::write`] wrote: where the cluster's
    /// cell is (a cluster wrapped from the last column moved).
    pub(super) fn placed(&mut self, screen: &vt100::Screen) {
        if let Some(current) = &mut self.current {
            let (row, col) = screen.cursor_position();
            current.row = row;
            current.col = col.saturating_sub(current.width);
        }
    }

    /// The cluster so far and its cell, if the cursor is still right after
    /// it: the one being written, or the base character just printed.
    fn cell(&mut self, screen: &vt100::Screen) -> Option<(String, u16, u16)> {
        let (row, col) = screen.cursor_position();
        if let Some(current) = self.current.take() {
            return (row == current.row && col == current.col + current.width).then_some((
                current.text,
                current.row,
                current.col,
            ));
        }
        let base = self.base.take()?;
        let width = u16::try_from(base.width()?).ok().filter(|&w| w > 0)?;
        let at = col.checked_sub(width)?;
        let cell = screen.cell(row, at)?;
        cell.contents()
            .starts_with(base)
            .then(|| (base.to_string(), row, at))
    }

    /// Joiners with nothing known to join: as they are, but never a VS16,
    /// with which vt100 would widen a cell by itself.
    fn unjoined(&mut self, taken: &str, out: &mut Vec<u8>) {
        self.current = None;
        for c in taken.chars().filter(|&c| c != VS16) {
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
}

/// Who wrote the bytes fed: only a program's are kept from naming marks.
#[derive(Clone, Copy)]
enum Source {
    Program,
    Tilework,
}

impl super::Fidelity {
    /// `parser.process(bytes)` through [`parse_guard::process`], with what
    /// vt100 lacks completed: a program's output.
    pub fn process<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        bytes: &[u8],
    ) -> Result<(), ParserPanicked> {
        self.process_from(parser, bytes, Source::Program)
    }

    /// As [`Self::process`], for bytes tilework wrote itself (a notice, the
    /// screen an upgrade hands over): its own marks in them stay.
    pub fn process_own<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        bytes: &[u8],
    ) -> Result<(), ParserPanicked> {
        self.process_from(parser, bytes, Source::Tilework)
    }

    fn process_from<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        bytes: &[u8],
        source: Source,
    ) -> Result<(), ParserPanicked> {
        // A character cut off at the end waits for the rest of it, so
        // that a joiner and what it joins are seen whole.
        let held = if self.clusters.held.is_empty() {
            Cow::Borrowed(bytes)
        } else {
            let mut held = std::mem::take(&mut self.clusters.held);
            held.extend_from_slice(bytes);
            Cow::Owned(held)
        };
        let (bytes, rest) = held.split_at(held.len() - partial_char(&held));
        self.clusters.held.extend_from_slice(rest);
        // Before anything reads them: a program's own marker code points
        // would name what another pane printed.
        let bytes = match source {
            Source::Program => super::forged_marks::without_forged_marks(bytes),
            Source::Tilework => Cow::Borrowed(bytes),
        };
        self.process_whole(parser, &bytes)
    }

    /// The joiners of a grapheme cluster and what they join, written as one
    /// cell. Returns the bytes read.
    pub(super) fn process_cluster<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        bytes: &[u8],
    ) -> Result<usize, ParserPanicked> {
        let taken = self.clusters.taken(bytes);
        if taken == 0 {
            self.clusters.forget();
            return self.process_bulk(parser, bytes);
        }
        // `continues` holds: at least one whole character, valid UTF-8.
        let text = std::str::from_utf8(&bytes[..taken]).unwrap_or_default();
        // The follower reads it as text too (REP's character); printing
        // stops nothing but U+FFFD, which a cluster never takes.
        let _ = self
            .vte
            .advance_until_terminated(&mut self.follower, &bytes[..taken]);
        self.out.clear();
        let modes = (false, true);
        self.clusters
            .write(parser.screen(), text, modes, &mut self.out);
        parse_guard::process(parser, &self.out)?;
        self.clusters.placed(parser.screen());
        Ok(taken)
    }

    /// Character `c` (its `bytes`) printed a character at a time: joined to
    /// the cluster before it, or printed as the modes say.
    pub(super) fn print_joined<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        c: char,
        bytes: &[u8],
    ) -> Result<(), ParserPanicked> {
        if !self.clusters.joins(c) {
            self.print_char(parser, c, bytes)?;
            self.clusters.printed(c);
            return Ok(());
        }
        let modes = (self.follower.modes.insert, self.follower.modes.autowrap);
        self.out.clear();
        let mut buf = [0; 4];
        let text = c.encode_utf8(&mut buf);
        if self
            .clusters
            .write(parser.screen(), text, modes, &mut self.out)
        {
            super::pen::mark(&mut self.out, self.follower.pen.marker_id());
        }
        parse_guard::process(parser, &self.out)?;
        self.clusters.placed(parser.screen());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;

    #[test]
    fn joiners_are_found_and_nothing_else() {
        assert_eq!(find("ab\u{2764}\u{FE0F}".as_bytes()), Some(5));
        assert_eq!(find("\u{2500}\u{2502} \u{1F600}".as_bytes()), None);
        assert_eq!(find("x\u{1F44D}\u{1F3FD}".as_bytes()), Some(5));
        assert_eq!(find("\u{231A}\u{FE0E}".as_bytes()), Some(3));
        assert_eq!(find("a\u{200D}".as_bytes()), Some(1));
    }

    #[test]
    fn a_zwj_takes_the_character_after_it() {
        let family = "\u{200D}\u{1F469}\u{200D}\u{1F467}x";
        assert_eq!(continuation(family.as_bytes(), false), family.len() - 1);
        assert_eq!(continuation("\u{FE0F}\u{1F469}".as_bytes(), false), 3);
        assert_eq!(continuation("\u{1F469}".as_bytes(), true), 4);
        assert_eq!(continuation("\x1b[m".as_bytes(), true), 0);
    }

    fn screen_after(
        cols: u16,
        chunks: &[&[u8]],
    ) -> vt100::Parser<crate::pane::term::terminal_queries::PaneEvents> {
        let mut parser = vt100::Parser::new_with_callbacks(
            std::num::NonZeroU16::new(4).unwrap(),
            std::num::NonZeroU16::new(cols).unwrap(),
            0,
            crate::pane::term::terminal_queries::PaneEvents::default(),
        );
        let mut fidelity = super::super::Fidelity::live();
        for chunk in chunks {
            fidelity.process(&mut parser, chunk).unwrap();
        }
        parser
    }

    /// Each cell's text (wide continuations left out) and the cursor.
    fn cells(
        parser: &vt100::Parser<crate::pane::term::terminal_queries::PaneEvents>,
        row: u16,
    ) -> (Vec<String>, (u16, u16)) {
        let screen = crate::pane::term::screen::ScreenView::new(parser.screen());
        let cols = screen.size().1.get();
        let cells = (0..cols)
            .filter_map(|c| screen.cell(row, c))
            .filter(|c| !c.is_wide_continuation())
            .map(|c| c.contents().into_owned())
            .collect();
        (cells, screen.cursor_position())
    }

    const FAMILY: &str = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}";

    #[test]
    fn clusters_take_one_cell_of_their_width() {
        for (printed, cluster, width) in [
            (FAMILY, FAMILY, 2),
            ("\u{2764}\u{FE0F}", "\u{2764}\u{FE0F}", 2),
            ("\u{231A}\u{FE0E}", "\u{231A}\u{FE0E}", 1),
            ("\u{1F44D}\u{1F3FD}", "\u{1F44D}\u{1F3FD}", 2),
            (
                "\u{2764}\u{FE0F}\u{200D}\u{1F525}",
                "\u{2764}\u{FE0F}\u{200D}\u{1F525}",
                2,
            ),
        ] {
            let text = format!("a{printed}b");
            // Whole, and cut before every byte.
            for cut in 0..text.len() {
                let bytes = text.as_bytes();
                let parser = screen_after(10, &[&bytes[..cut], &bytes[cut..]]);
                let (cells, cursor) = cells(&parser, 0);
                assert_eq!(cells[..3], ["a", cluster, "b"], "{printed:?} cut at {cut}");
                assert_eq!(cursor, (0, 2 + width), "{printed:?} cut at {cut}");
                // Copy mode, search and `capture` read the cluster back.
                let screen = crate::pane::term::screen::ScreenView::new(parser.screen());
                assert_eq!(screen.contents(), text);
            }
        }
    }

    #[test]
    fn a_vs16_in_the_last_column_wraps_the_widened_character() {
        // The heart in the last column of the last row: vt100 alone panics.
        let parser = screen_after(5, &["\x1b[4;1Habcd\u{2764}\u{FE0F}\x1b[Ax".as_bytes()]);
        let (row, _) = cells(&parser, 3);
        assert_eq!(row[0], "\u{2764}\u{FE0F}");
        let (above, _) = cells(&parser, 2);
        assert_eq!(above, ["a", "b", "x", "d", " "]);
        assert!(parser.screen().row_wrapped(2));
    }

    #[test]
    fn clusters_printed_a_character_at_a_time_are_joined_too() {
        // Struck through (a style vt100 lacks): text goes a character at
        // a time, each cell marked.
        let parser = screen_after(
            10,
            &[format!("\x1b[9ma{FAMILY}b\u{231A}\u{FE0E}c").as_bytes()],
        );
        let (shown, cursor) = cells(&parser, 0);
        assert_eq!(shown[..5], ["a", FAMILY, "b", "\u{231A}\u{FE0E}", "c"]);
        assert_eq!(cursor, (0, 6));
        let screen = crate::pane::term::screen::ScreenView::new(parser.screen());
        let struck = |col| {
            screen
                .cell(0, col)
                .unwrap()
                .style()
                .has(crate::pane::term::cell_style::Attrs::STRIKETHROUGH)
        };
        assert!(struck(1) && struck(4));
        // Insert mode: the widened heart pushes the text after it right,
        // the narrowed watch pulls it back.
        let parser = screen_after(
            10,
            &["xy\x1b[1G\x1b[4h\u{2764}\u{FE0F}\u{231A}\u{FE0E}".as_bytes()],
        );
        let (shown, cursor) = cells(&parser, 0);
        assert_eq!(
            shown[..4],
            ["\u{2764}\u{FE0F}", "\u{231A}\u{FE0E}", "x", "y"]
        );
        assert_eq!(cursor, (0, 3));
    }
}
