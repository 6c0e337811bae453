//! U+FFFD, which vt100 drops: printed where vt100 dropped it, a
//! program's own in the middle of its text too.

use crate::pane::term::fidelity::answers::Answers;
use crate::pane::term::fidelity::{ESC, Fidelity};
use crate::pane::term::parse_guard::{self, ParserPanicked};

impl Fidelity {
    /// Gives vt100 `through`, which ends a step of vte's that printed
    /// U+FFFD, and prints each U+FFFD vt100 dropped where it was.
    pub(super) fn replacements<C: vt100::Callbacks + Answers>(
        &mut self,
        parser: &mut vt100::Parser<C>,
        through: &[u8],
    ) -> Result<(), ParserPanicked> {
        const FFFD: &[u8] = "\u{FFFD}".as_bytes();
        let seen = std::mem::take(&mut self.follower.replacements);
        // All are the program's own, in the run of text that ends the step,
        // but a last one with nothing after it may be vte's: for invalid
        // UTF-8 at the end, printed after the rest; for a character cut off
        // by an ESC, not printed at all (vte is inside a sequence then).
        let (mut own, scan, tail) = if !seen.last || through.ends_with(FFFD) {
            (seen.count, through, None)
        } else if let Some(before_esc) = through.strip_suffix(&[ESC]) {
            let own = if before_esc.ends_with(FFFD) {
                seen.count
            } else {
                seen.count.saturating_sub(1)
            };
            (own, before_esc, None)
        } else {
            (seen.count.saturating_sub(1), through, Some(()))
        };
        // The program's own are the last ones in the bytes: vte printed
        // all the text after them.
        let mut ends: Vec<usize> = Vec::new();
        for at in memchr::memmem::rfind_iter(scan, FFFD) {
            if own == 0 {
                break;
            }
            own -= 1;
            ends.push(at + FFFD.len());
        }
        let mut start = 0;
        for &end in ends.iter().rev() {
            parse_guard::process(parser, &through[start..end])?;
            self.print_char(parser, '\u{FFFD}', &[])?;
            start = end;
        }
        parse_guard::process(parser, &through[start..])?;
        if tail.is_some() {
            self.print_char(parser, '\u{FFFD}', &[])?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use crate::pane::term::fidelity::Fidelity;
    use crate::pane::term::screen::{Attrs, CellView, ScreenView};

    fn shown(bytes: &[u8]) -> (String, vt100::Parser) {
        let nz = |n| std::num::NonZeroU16::new(n).unwrap();
        let mut parser = vt100::Parser::new(nz(4), nz(30), 0);
        Fidelity::live().process(&mut parser, bytes).unwrap();
        let text = ScreenView::new(parser.screen()).contents();
        (text, parser)
    }

    #[test]
    fn a_programs_own_replacement_character_shows_inside_its_text() {
        for (bytes, expected) in [
            (&b"a\xef\xbf\xbdb"[..], "a\u{FFFD}b"),
            (
                b"\xef\xbf\xbd\xef\xbf\xbdx\xef\xbf\xbd",
                "\u{FFFD}\u{FFFD}x\u{FFFD}",
            ),
            (b"a\xef\xbf\xbd\x1b[1mb", "a\u{FFFD}b"),
            (b"a\xef\xbf\xbdb\r\nc", "a\u{FFFD}b\nc"),
            // With invalid UTF-8 after it in the same run of text.
            (b"a\xef\xbf\xbdb\xffc", "a\u{FFFD}b\u{FFFD}c"),
            // One in a title is no text.
            (b"\x1b]0;t\xef\xbf\xbdt\x07ok\xef\xbf\xbd!", "ok\u{FFFD}!"),
            // Insert mode reads text a character at a time.
            (b"\x1b[4hxy\rq\xef\xbf\xbdr", "q\u{FFFD}rxy"),
        ] {
            assert_eq!(shown(bytes).0, expected, "{bytes:?}");
        }
    }

    #[test]
    fn a_styled_replacement_character_keeps_its_style() {
        let (text, parser) = shown("\x1b[9ma\u{FFFD}b\x1b[m".as_bytes());
        assert_eq!(text, "a\u{FFFD}b");
        let screen = ScreenView::new(parser.screen());
        let cell = screen.cell(0, 1).unwrap();
        assert_eq!(CellView::contents(cell), "\u{FFFD}");
        assert!(cell.style().has(Attrs::STRIKETHROUGH));
    }
}
