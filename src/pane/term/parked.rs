//! A pane's parser that can be put away while nobody looks at the pane and
//! its program prints nothing: its grid (vt100 keeps 32 bytes a cell,
//! 384 KB at 200x60) gives way to the bytes that draw it again, a few
//! hundred for a shell's prompt ([`screen_snapshot`]). The grid comes back
//! on the first look, from whichever reader looks first (a frame, a
//! capture, a search, output arriving), so no reader ever sees a parked
//! screen: [`ParkableParser::get`] and [`ParkableParser::get_mut`] are
//! the only ways to the parser.
//!
//! [`screen_snapshot`]: crate::pane::term::screen_snapshot

use std::cell::OnceCell;
use std::num::NonZeroU16;

use crate::pane::term::screen_snapshot;
use crate::pane::term::terminal_queries::PaneEvents;

type Parser = vt100::Parser<PaneEvents>;

/// The parser, live or parked.
pub struct ParkableParser {
    /// The live parser; empty while parked, filled again by the first look.
    live: OnceCell<Parser>,
    /// What a parked parser is rebuilt from (kept until the next `&mut`
    /// use after a look from `&self` rebuilt it).
    parked: Option<Parked>,
    /// Nothing but output the pane's scanner follows has changed the
    /// parser since it was made fresh: the state vt100 does not write out
    /// is a fresh parser's unless the scanner saw it touched.
    fresh_hidden: bool,
}

struct Parked {
    rows: NonZeroU16,
    cols: NonZeroU16,
    /// Bytes that set a fresh parser to the parked one's state.
    redraw: Box<[u8]>,
}

impl ParkableParser {
    /// Keeps `parser`, fresh (or changed only by output the pane's scanner
    /// follows).
    pub fn new(parser: Parser) -> Self {
        Self {
            live: OnceCell::from(parser),
            parked: None,
            fresh_hidden: true,
        }
    }

    /// The parser was changed by something other than the program's
    /// output (a resize, tilework's own text): the state vt100 does not
    /// write out must be read when the grid is put away.
    pub fn hidden_state_changed(&mut self) {
        self.fresh_hidden = false;
    }

    /// The parser, rebuilt first if it was parked.
    pub fn get(&self) -> &Parser {
        self.live.get_or_init(|| self.rebuild())
    }

    /// The parser to change, rebuilt first if it was parked.
    pub fn get_mut(&mut self) -> &mut Parser {
        if self.live.get().is_none() {
            let parser = self.rebuild();
            self.live = OnceCell::from(parser);
        }
        self.parked = None;
        self.live
            .get_mut()
            .expect("the live parser was set just above")
    }

    /// The live parser, if it is not parked (nothing is rebuilt).
    pub fn live_mut(&mut self) -> Option<&mut Parser> {
        self.live.get_mut()
    }

    /// Puts `parser` in place of the one kept (a replay's, a fresh one).
    pub fn replace(&mut self, parser: Parser) {
        self.live = OnceCell::from(parser);
        self.parked = None;
        self.fresh_hidden = false;
    }

    /// Whether the grid is put away.
    pub fn is_parked(&self) -> bool {
        self.live.get().is_none()
    }

    /// Puts the grid away if its state can be written out exactly and the
    /// parser has nothing pending for the pane (answers, a title not yet
    /// taken: its callbacks start afresh on the rebuild). `output_touched`:
    /// the pane's scanner saw output that may have set the state vt100
    /// does not write out. Returns whether it did.
    pub fn park(&mut self, output_touched: bool) -> bool {
        let Some(parser) = self.live.get_mut() else {
            return true;
        };
        if format!("{:?}", parser.callbacks()) != format!("{:?}", PaneEvents::default()) {
            return false;
        }
        // A rebuilt parser's hidden state is the one put away: known
        // fresh stays known fresh.
        self.fresh_hidden &= !output_touched;
        let Some(redraw) = screen_snapshot::snapshot(parser, self.fresh_hidden) else {
            return false;
        };
        let (rows, cols) = parser.screen().size();
        self.parked = Some(Parked {
            rows,
            cols,
            redraw: redraw.into_boxed_slice(),
        });
        self.live = OnceCell::new();
        true
    }

    fn rebuild(&self) -> Parser {
        match &self.parked {
            Some(parked) => screen_snapshot::rebuild(
                parked.rows,
                parked.cols,
                PaneEvents::default(),
                &parked.redraw,
            ),
            // Not reached: `live` is only emptied with `parked` set.
            None => {
                let two = NonZeroU16::MIN.saturating_add(1);
                vt100::Parser::new_with_callbacks(two, two, 0, PaneEvents::default())
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn parser(bytes: &[u8]) -> Parser {
        let n = |v| NonZeroU16::new(v).unwrap();
        let mut p = vt100::Parser::new_with_callbacks(n(5), n(30), 0, PaneEvents::default());
        p.process(bytes);
        p
    }

    #[test]
    fn a_parked_parser_comes_back_on_a_look_and_on_a_change() {
        let mut kept = ParkableParser::new(parser(b"$ echo hi\r\nhi\r\n$ "));
        let shown = kept.get().screen().contents_formatted();
        assert!(kept.park(false));
        assert!(kept.is_parked());
        assert_eq!(kept.get().screen().contents_formatted(), shown, "a look");
        assert!(!kept.is_parked());
        assert!(kept.park(false));
        kept.get_mut().process(b"more");
        assert!(kept.get().screen().contents().ends_with("$ more"));
    }

    #[test]
    fn a_parser_with_an_answer_pending_is_not_parked() {
        let mut kept = ParkableParser::new(parser(b"\x1b[6n"));
        assert!(!kept.park(false), "the cursor report is still to be sent");
        assert!(!kept.is_parked());
        kept.get_mut().callbacks_mut().replies.clear();
        assert!(kept.park(false));
    }

    #[test]
    fn a_saved_cursor_the_output_set_comes_back_after_parking() {
        let mut kept = ParkableParser::new(parser(b"\x1b[3;4H\x1b7\x1b[H$ "));
        assert!(kept.park(true));
        kept.get_mut().process(b"\x1b8");
        assert_eq!(kept.get().screen().cursor_position(), (2, 3));
        // Known touched stays known touched, after a resize too.
        // Rows scrolled off come back as blank rows above when the grid
        // grows, and the saved cursor moves down with the rest.
        let mut resized = ParkableParser::new(parser(b"1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n7\r\n8\r\n9"));
        resized.hidden_state_changed();
        resized
            .get_mut()
            .screen_mut()
            .set_size(NonZeroU16::new(9).unwrap(), NonZeroU16::new(30).unwrap());
        assert!(resized.park(false));
        resized.get_mut().process(b"\x1b8x");
        assert_eq!(
            resized.get().screen().cursor_position(),
            (4, 1),
            "saved row moved down by 4"
        );
    }
}
