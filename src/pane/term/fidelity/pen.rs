//! The part of the program's pen vt100 does not keep: underline style and
//! colour, strikethrough, overline, blink, conceal (from SGR) and the
//! hyperlink (from OSC 8). While it holds any of them, each printed
//! character is followed by its marker ([`crate::pane::term::cell_marks`]).

use crate::graphics::kitty::placeholder::PLACEHOLDER;
use crate::pane::term::cell_marks::{self, Extra, LinkId};
use crate::pane::term::screen::{Attrs, Colour, UnderlineStyle};

#[derive(Debug, Default, Clone, Copy)]
pub struct Pen {
    attrs: Attrs,
    /// Every style, `Single` too (vt100 keeps that one, but `4` after
    /// `4:3` must end the curl).
    underline: UnderlineStyle,
    underline_colour: Colour,
    link: Option<LinkId>,
    /// What DECSC saved (xterm keeps the SGR attributes with the cursor;
    /// alacritty the link too, as part of the same pen).
    saved: Option<(Attrs, UnderlineStyle, Colour, Option<LinkId>)>,
    /// The marker id of the pen as it is, once asked: `Some(None)` when
    /// there is nothing to mark (or the table is full).
    id: Option<Option<u32>>,
    /// Whether [`Self::extra`] holds anything (asked per byte of text).
    active: bool,
}

impl Pen {
    /// What a printed character gets beyond vt100's attributes.
    fn extra(&self) -> Extra {
        let styled = !matches!(
            self.underline,
            UnderlineStyle::None | UnderlineStyle::Single
        );
        Extra {
            attrs: self.attrs,
            underline: if styled {
                self.underline
            } else {
                UnderlineStyle::None
            },
            // Shown only under an underline: not worth a marker otherwise.
            underline_colour: if self.underline == UnderlineStyle::None {
                Colour::Default
            } else {
                self.underline_colour
            },
            link: self.link,
        }
    }

    /// Whether printed characters need a look: they get a marker, or an
    /// underline colour without an underline waits for a kitty placeholder
    /// ([`Self::placeholder_marker_id`]).
    #[inline]
    pub fn active(&self) -> bool {
        self.active
    }

    fn changed(&mut self) {
        self.id = None;
        // `!self.extra().is_empty()`, without building it (this runs for
        // every SGR that touches the pen).
        self.active = !self.attrs.is_empty()
            || self.link.is_some()
            || match self.underline {
                UnderlineStyle::None | UnderlineStyle::Single => {
                    self.underline_colour != Colour::Default
                }
                _ => true,
            };
    }

    /// The marker id printed characters get now, if any.
    pub fn marker_id(&mut self) -> Option<u32> {
        if let Some(id) = self.id {
            return id;
        }
        let extra = self.extra();
        let id = if extra.is_empty() {
            None
        } else {
            cell_marks::intern(extra)
        };
        self.id = Some(id);
        id
    }

    /// The marker id character `c` printed now gets (see
    /// [`Self::placeholder_marker_id`] for kitty's placeholder).
    pub fn marker_id_for(&mut self, c: Option<char>) -> Option<u32> {
        if c == Some(PLACEHOLDER) {
            self.placeholder_marker_id()
        } else {
            self.marker_id()
        }
    }

    /// The marker id a kitty placeholder (U+10EEEE) printed now gets: its
    /// underline colour names the placement, underlined or not (kitty's
    /// rules), so it is kept where other text keeps it only under an
    /// underline.
    pub fn placeholder_marker_id(&mut self) -> Option<u32> {
        if self.underline != UnderlineStyle::None || self.underline_colour == Colour::Default {
            return self.marker_id();
        }
        cell_marks::intern(Extra {
            underline_colour: self.underline_colour,
            ..self.extra()
        })
    }

    pub fn set_link(&mut self, link: Option<LinkId>) {
        self.link = link;
        self.changed();
    }

    /// SGR 0 (and RIS, DECSTR): every attribute off; the link stays.
    pub fn reset_attributes(&mut self) {
        self.attrs = Attrs::empty();
        self.underline = UnderlineStyle::None;
        self.underline_colour = Colour::Default;
        self.changed();
    }

    /// RIS: everything off.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// DECSC.
    pub fn save(&mut self) {
        self.saved = Some((self.attrs, self.underline, self.underline_colour, self.link));
    }

    /// DECRC: what DECSC saved, or the defaults.
    pub fn restore(&mut self) {
        (self.attrs, self.underline, self.underline_colour, self.link) =
            self.saved.unwrap_or_default();
        self.changed();
    }

    /// Reads an SGR as vt100 walks it (`38`, `48` and `58` followed by
    /// `;`-separated arguments take them along). Returns whether vt100 may
    /// misread it, as [`sgr::needs_rewrite`] first asks (a parameter with
    /// sub-parameters, `21` or `58`), told in the same walk: this runs for
    /// every SGR.
    ///
    /// [`sgr::needs_rewrite`]: crate::pane::term::fidelity::sgr::needs_rewrite
    pub fn sgr(&mut self, params: &vte::Params) -> bool {
        let mut iter = params.iter();
        let before = (self.attrs, self.underline, self.underline_colour);
        let mut suspicious = false;
        while let Some(param) = iter.next() {
            suspicious |= param.len() > 1 || matches!(param, [21 | 58]);
            match param {
                // What vt100 keeps alone, nearly every SGR: colours, bold,
                // dim, italic, inverse and their resets.
                [1..=3 | 7 | 22 | 23 | 27 | 30..=37 | 39..=47 | 49 | 90..=97 | 100..=107] => {}
                [] | [0] => {
                    self.attrs = Attrs::empty();
                    self.underline = UnderlineStyle::None;
                    self.underline_colour = Colour::Default;
                }
                [n @ (38 | 48 | 58)] => {
                    let mut next = || {
                        let p = iter.next()?;
                        suspicious |= p.len() > 1 || matches!(p, [21 | 58]);
                        p.first().copied()
                    };
                    let colour = match next() {
                        Some(5) => next().map(|i| Colour::Indexed(u8::try_from(i).unwrap_or(0))),
                        Some(2) => match (next(), next(), next()) {
                            (Some(r), Some(g), Some(b)) => Some(rgb(r, g, b)),
                            _ => None,
                        },
                        _ => None,
                    };
                    if let (58, Some(colour)) = (*n, colour) {
                        self.underline_colour = colour;
                    }
                }
                [58, 5, i, ..] => self.underline_colour = Colour::Indexed(clamp(*i)),
                [58, 2, r, g, b] => self.underline_colour = rgb(*r, *g, *b),
                [58, 2, _, r, g, b, ..] => self.underline_colour = rgb(*r, *g, *b),
                [59] => self.underline_colour = Colour::Default,
                [4] => self.underline = UnderlineStyle::Single,
                [4, style, ..] => {
                    self.underline = match style {
                        0 => UnderlineStyle::None,
                        2 => UnderlineStyle::Double,
                        3 => UnderlineStyle::Curly,
                        4 => UnderlineStyle::Dotted,
                        5 => UnderlineStyle::Dashed,
                        _ => UnderlineStyle::Single,
                    }
                }
                [21] => self.underline = UnderlineStyle::Double,
                [24] => self.underline = UnderlineStyle::None,
                [5 | 6] => self.attrs.set(Attrs::BLINK, true),
                [25] => self.attrs.set(Attrs::BLINK, false),
                [8] => self.attrs.set(Attrs::CONCEAL, true),
                [28] => self.attrs.set(Attrs::CONCEAL, false),
                [9] => self.attrs.set(Attrs::STRIKETHROUGH, true),
                [29] => self.attrs.set(Attrs::STRIKETHROUGH, false),
                [53] => self.attrs.set(Attrs::OVERLINE, true),
                [55] => self.attrs.set(Attrs::OVERLINE, false),
                _ => {}
            }
        }
        if before != (self.attrs, self.underline, self.underline_colour) {
            self.changed();
        }
        suspicious
    }
}

/// Appends the marker a printed character gets, if any.
#[inline]
pub fn mark(out: &mut Vec<u8>, id: Option<u32>) {
    if let Some(id) = id {
        cell_marks::push_marker(out, id);
    }
}

fn clamp(n: u16) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

fn rgb(r: u16, g: u16, b: u16) -> Colour {
    Colour::Rgb(clamp(r), clamp(g), clamp(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pane::term::fidelity::Fidelity;
    use crate::pane::term::screen::{CellStyle, CellView, ScreenView};
    use crate::pane::term::terminal_queries::PaneEvents;

    fn pen_after(body: &str) -> Pen {
        struct Grab(Pen);
        impl vte::Perform for Grab {
            fn csi_dispatch(&mut self, params: &vte::Params, _: &[u8], _: bool, _: char) {
                let _ = self.0.sgr(params);
            }
        }
        let mut grab = Grab(Pen::default());
        vte::Parser::new().advance(&mut grab, format!("\x1b[{body}m").as_bytes());
        grab.0
    }

    #[test]
    fn sgr_sets_and_clears_what_vt100_drops() {
        let pen = pen_after("9;53;5;8;4:3;58:2::1:2:3");
        let e = pen.extra();
        assert!(
            e.attrs
                .contains(Attrs::STRIKETHROUGH | Attrs::OVERLINE | Attrs::BLINK | Attrs::CONCEAL)
        );
        assert_eq!(e.underline, UnderlineStyle::Curly);
        assert_eq!(e.underline_colour, Colour::Rgb(1, 2, 3));
        assert!(!pen_after("9;29;53;55;5;25;8;28;4:3;24").active());
        assert!(!pen_after("9;0").active());
        assert_eq!(
            pen_after("4;58;5;196").extra().underline_colour,
            Colour::Indexed(196)
        );
        // A plain underline is vt100's; its colour is not.
        assert!(!pen_after("4").active());
        assert!(pen_after("4;58;2;9;9;9").active());
        // Alone, the colour draws nothing: no marker, but a placeholder
        // keeps it (it names the placement).
        let mut alone = pen_after("58;2;9;9;9");
        assert_eq!(alone.marker_id(), None);
        let id = alone.placeholder_marker_id().expect("a marker");
        assert_eq!(cell_marks::extra(id).underline_colour, Colour::Rgb(9, 9, 9));
        assert_eq!(cell_marks::extra(id).underline, UnderlineStyle::None);
        assert_eq!(
            pen_after("9").placeholder_marker_id(),
            pen_after("9").marker_id()
        );
    }

    /// A screen fed through the fidelity layer.
    fn screen_after(rows: u16, cols: u16, bytes: &[u8]) -> vt100::Parser<PaneEvents> {
        let nz = |n| std::num::NonZeroU16::new(n).expect("a size");
        let mut parser =
            vt100::Parser::new_with_callbacks(nz(rows), nz(cols), 0, PaneEvents::default());
        Fidelity::live()
            .process(&mut parser, bytes)
            .expect("vt100 parses");
        parser
    }

    fn style_at(p: &vt100::Parser<PaneEvents>, row: u16, col: u16) -> CellStyle {
        ScreenView::new(p.screen())
            .cell(row, col)
            .map(CellView::style)
            .unwrap_or_default()
    }

    #[test]
    fn printed_text_keeps_every_style_through_scrolling_and_insertion() {
        let p = screen_after(
            3,
            10,
            "\x1b[2;1H\x1b[9mab\x1b[29;53;4:3;58:5:196m\u{6f22}c\x1b[m d\r\n\n\x1b[1;3H\x1b[2@"
                .as_bytes(),
        );
        let s = ScreenView::new(p.screen());
        // The first row scrolled up once; two blanks were inserted at col 2.
        assert_eq!(s.row_texts().next().as_deref(), Some("ab  \u{6f22}c d"));
        assert!(style_at(&p, 0, 0).has(Attrs::STRIKETHROUGH));
        let wide = style_at(&p, 0, 4);
        assert!(wide.has(Attrs::OVERLINE) && !wide.has(Attrs::STRIKETHROUGH));
        assert_eq!(wide.underline, UnderlineStyle::Curly);
        assert_eq!(wide.underline_colour, Colour::Indexed(196));
        assert_eq!(style_at(&p, 0, 6).underline, UnderlineStyle::Curly);
        assert_eq!(style_at(&p, 0, 8), CellStyle::default());
        assert_eq!(
            s.cell(0, 4).map(CellView::contents),
            Some("\u{6f22}".into())
        );
        assert!(
            !s.contents()
                .chars()
                .any(crate::pane::term::cell_marks::is_marker)
        );
    }

    #[test]
    fn a_link_covers_the_text_printed_while_it_is_open() {
        let p = screen_after(
            2,
            12,
            b"go \x1b]8;id=7;https://x.test/a;b\x1b\\here\x1b]8;;\x1b\\ now",
        );
        let s = ScreenView::new(p.screen());
        let link = |col| s.cell(0, col).and_then(CellView::link);
        assert_eq!(link(2), None);
        let here = link(3).expect("linked");
        assert_eq!(
            (&*here.uri, here.id.as_deref()),
            ("https://x.test/a;b", Some("7"))
        );
        assert_eq!(link(6), Some(here));
        assert_eq!(link(7), None);
        assert_eq!(s.contents(), "go here now");
    }

    #[test]
    fn rep_repeats_a_styled_character_with_its_extras() {
        let p = screen_after(3, 10, b"\x1b[9;4:3mx\x1b[3b\x1b[m y\x1b[b");
        let s = ScreenView::new(p.screen());
        assert_eq!(s.row_texts().next().as_deref(), Some("xxxx yy"));
        for col in 0..4 {
            let style = style_at(&p, 0, col);
            assert!(style.has(Attrs::STRIKETHROUGH), "{col}");
            assert_eq!(style.underline, UnderlineStyle::Curly);
        }
        assert_eq!(style_at(&p, 0, 6), CellStyle::default());
        // Under a link, and translated by DEC special graphics.
        let p = screen_after(2, 12, b"\x1b]8;;https://x.test\x1b\\\x1b(0q\x1b[2b\x1b(B");
        let s = ScreenView::new(p.screen());
        assert_eq!(
            s.row_texts().next().as_deref(),
            Some("\u{2500}\u{2500}\u{2500}")
        );
        assert!(s.cell(0, 2).and_then(CellView::link).is_some());
    }

    #[test]
    fn a_long_styled_rep_is_bounded_and_shows_what_every_copy_would() {
        let input = b"ab\r\n\x1b[9;53mz\x1b[1000b\x1b[mend";
        let nz = |n| std::num::NonZeroU16::new(n).expect("a size");
        let mut whole = vt100::Parser::new(nz(4), nz(9), 0);
        Fidelity::unbounded()
            .process(&mut whole, input)
            .expect("parses");
        let bounded = screen_after(4, 9, input);
        let (a, b) = (
            ScreenView::new(whole.screen()),
            ScreenView::new(bounded.screen()),
        );
        assert_eq!(a.contents(), b.contents());
        assert_eq!(
            whole.screen().cursor_position(),
            bounded.screen().cursor_position()
        );
        for row in 0..4 {
            for col in 0..9 {
                let style = |s: &ScreenView<'_>| s.cell(row, col).map(CellView::style);
                assert_eq!(style(&a), style(&b), "{row},{col}");
            }
        }
        assert!(style_at(&bounded, 0, 0).has(Attrs::STRIKETHROUGH | Attrs::OVERLINE));
    }

    #[test]
    fn a_combining_mark_after_a_styled_character_shows_with_it() {
        let p = screen_after(
            2,
            10,
            "\x1b[9me\u{301}x\x1b[29m\u{302} \x1b[4:3m\u{6f22}\u{301}".as_bytes(),
        );
        let s = ScreenView::new(p.screen());
        assert_eq!(
            s.cell(0, 0).map(CellView::contents),
            Some("e\u{301}".into())
        );
        assert_eq!(
            s.cell(0, 1).map(CellView::contents),
            Some("x\u{302}".into())
        );
        assert!(style_at(&p, 0, 0).has(Attrs::STRIKETHROUGH));
        assert!(style_at(&p, 0, 1).has(Attrs::STRIKETHROUGH));
        assert_eq!(
            s.cell(0, 3).map(CellView::contents),
            Some("\u{6f22}\u{301}".into())
        );
        assert_eq!(style_at(&p, 0, 3).underline, UnderlineStyle::Curly);
        assert_eq!(
            s.row_texts().next().as_deref(),
            Some("e\u{301}x\u{302} \u{6f22}\u{301}")
        );
    }

    #[test]
    fn colour_arguments_are_not_read_as_attributes() {
        assert!(!pen_after("38;5;9").active());
        assert!(!pen_after("48;2;9;53;5").active());
        assert!(!pen_after("38:5:9").active());
    }
}
