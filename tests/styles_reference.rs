//! Every cell's text, strikethrough, conceal, underline style and colour
//! and hyperlink, as tilework's screen view reads them (vt100 behind the
//! fidelity layer, the cells' markers decoded), against alacritty's
//! terminal model on the same random output: these attributes set and
//! reset, links opened and closed, text, line feeds at the bottom
//! (scrolling), cursor moves, REP, insert and delete of lines and characters,
//! erasing, the alternate screen, and resizes (of the width). Wide
//! characters are in the fixed case only: vt100 and alacritty erase half
//! of one differently.
//!
//! Blink and overline are not compared: alacritty does not keep them (the
//! unit tests in `pane::term::fidelity::pen` do). Differences between vt100 and
//! alacritty that have nothing to do with these attributes are kept out
//! of the output: text never reaches the last column (alacritty reflows
//! wrapped lines on a resize, vt100 cuts them), a screen never gets
//! narrower (alacritty reflows the main screen's lines, even while the
//! alternate one shows), and the number of rows stays (vt100 and alacritty keep
//! different rows when it changes after scrolling), and the alternate screen is not
//! entered twice (vt100 clears it again).

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use std::num::NonZeroU16;

use alacritty_terminal::event::VoidListener;
use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::index::{Column, Line};
use alacritty_terminal::term::cell::Flags;
use alacritty_terminal::term::test::TermSize;
use alacritty_terminal::term::{Config, Term};
use alacritty_terminal::vte::ansi::{Color, Processor};
use proptest::prelude::*;
use tilework::pane::term::fidelity::Fidelity;
use tilework::pane::term::screen::{Attrs, CellView, Colour, ScreenView, UnderlineStyle};

#[derive(Debug, Clone)]
enum Op {
    Text(String),
    Sgr(String),
    Link(Option<(Option<u8>, u8)>),
    LineFeed,
    CarriageReturn,
    MoveTo(u16, u16),
    /// `CSI n` with this final byte: IL, DL, ICH, DCH, ECH, EL.
    Edit(u16, char),
    Alternate(bool),
    /// To this many columns.
    Resize(u16),
    /// REP (`CSI n b`): the last printed character again, in the pen now.
    Repeat(u16),
}

fn op() -> impl Strategy<Value = Op> {
    let sgr = prop_oneof![
        Just("0"),
        Just("9"),
        Just("29"),
        Just("8"),
        Just("28"),
        Just("4"),
        Just("24"),
        Just("4:0"),
        Just("4:1"),
        Just("4:2"),
        Just("4:3"),
        Just("4:4"),
        Just("4:5"),
        Just("1"),
        Just("22"),
        Just("31"),
        Just("59"),
        Just("58:5:196"),
        Just("58:2::10:20:30"),
        Just("58;5;33"),
        Just("38;5;9"),
    ];
    prop_oneof![
        4 => "[a-z]{1,8}".prop_map(Op::Text),
        4 => sgr.prop_map(|s| Op::Sgr(s.to_owned())),
        2 => proptest::option::of((proptest::option::of(0..3u8), 0..4u8)).prop_map(Op::Link),
        2 => Just(Op::LineFeed),
        2 => Just(Op::CarriageReturn),
        2 => (0..12u16, 0..30u16).prop_map(|(r, c)| Op::MoveTo(r, c)),
        2 => (1..4u16, prop_oneof![Just('L'), Just('M'), Just('@'), Just('P'), Just('X'), Just('K')])
            .prop_map(|(n, c)| Op::Edit(n, c)),
        1 => any::<bool>().prop_map(Op::Alternate),
        1 => (8..30u16).prop_map(Op::Resize),
        2 => (1..6u16).prop_map(Op::Repeat),
    ]
}

struct Tilework {
    parser: vt100::Parser,
    layer: Fidelity,
}

struct Both {
    ours: Tilework,
    reference: Term<VoidListener>,
    processor: Processor,
    alternate: bool,
}

impl Both {
    fn new(rows: u16, cols: u16) -> Self {
        let nz = |n| NonZeroU16::new(n).unwrap();
        let config = Config {
            scrolling_history: 0,
            ..Config::default()
        };
        Self {
            ours: Tilework {
                parser: vt100::Parser::new(nz(rows), nz(cols), 0),
                layer: Fidelity::live(),
            },
            reference: Term::new(
                config,
                &TermSize::new(usize::from(cols), usize::from(rows)),
                VoidListener,
            ),
            processor: Processor::new(),
            alternate: false,
        }
    }

    fn feed(&mut self, bytes: &[u8]) {
        self.ours
            .layer
            .process(&mut self.ours.parser, bytes)
            .unwrap();
        self.processor.advance(&mut self.reference, bytes);
    }

    fn size(&self) -> (u16, u16) {
        let (rows, cols) = self.ours.parser.screen().size();
        (rows.get(), cols.get())
    }

    fn apply(&mut self, op: &Op) {
        let (rows, cols) = self.size();
        match op {
            Op::Text(text) => {
                // Never into the last column (see the module doc).
                let (_, col) = self.ours.parser.screen().cursor_position();
                let room = usize::from(cols.saturating_sub(col + 1));
                let width = if text == "漢" { 2 } else { 1 };
                let fit: String = text.chars().take(room / width).collect();
                self.feed(fit.as_bytes());
            }
            Op::Sgr(body) => self.feed(format!("\x1b[{body}m").as_bytes()),
            Op::Link(None) => self.feed(b"\x1b]8;;\x1b\\"),
            Op::Link(Some((id, uri))) => {
                let params = id.map(|id| format!("id=l{id}")).unwrap_or_default();
                self.feed(format!("\x1b]8;{params};https://x.test/{uri}\x1b\\").as_bytes());
            }
            Op::Repeat(n) => {
                // Never into the last column, as text.
                let (_, col) = self.ours.parser.screen().cursor_position();
                let n = (*n).min(cols.saturating_sub(col + 1));
                if n > 0 {
                    self.feed(format!("\x1b[{n}b").as_bytes());
                }
            }
            Op::LineFeed => self.feed(b"\n"),
            Op::CarriageReturn => self.feed(b"\r"),
            Op::MoveTo(r, c) => {
                self.feed(format!("\x1b[{};{}H", r % rows + 1, c % (cols - 1) + 1).as_bytes());
            }
            Op::Edit(n, 'K') => self.feed(format!("\x1b[{}K", n % 3).as_bytes()),
            // A count past the row's end: alacritty blanks a cell before
            // the cursor, vt100 does not.
            Op::Edit(n, c @ ('@' | 'P' | 'X')) => {
                let (_, col) = self.ours.parser.screen().cursor_position();
                let n = (*n).min(cols - col - 1);
                if n > 0 {
                    self.feed(format!("\x1b[{n}{c}").as_bytes());
                }
            }
            Op::Edit(n, c) => self.feed(format!("\x1b[{n}{c}").as_bytes()),
            // Entering it again, vt100 clears it and alacritty does not.
            Op::Alternate(on) if *on == self.alternate => {}
            Op::Alternate(on) => {
                self.alternate = *on;
                // Then home: vt100 homes the cursor entering, alacritty not.
                self.feed(if *on {
                    b"\x1b[?1049h\x1b[H"
                } else {
                    b"\x1b[?1049l"
                });
            }
            Op::Resize(c) => {
                // Columns only grow (see the module doc).
                let c = cols.max(*c);
                let r = rows;
                if (r, c) == (rows, cols) {
                    return;
                }
                let nz = |n| NonZeroU16::new(n).unwrap();
                self.ours.parser.screen_mut().set_size(nz(r), nz(c));
                self.ours.layer.grid_resized(rows, r);
                self.reference
                    .resize(TermSize::new(usize::from(c), usize::from(r)));
            }
        }
    }

    /// Every difference between the two screens, as text.
    fn differences(&self) -> Vec<String> {
        let screen = ScreenView::new(self.ours.parser.screen());
        let grid = self.reference.grid();
        let (rows, cols) = self.size();
        assert_eq!(grid.screen_lines(), usize::from(rows));
        assert_eq!(grid.columns(), usize::from(cols));
        let mut out = Vec::new();
        for row in 0..rows {
            for col in 0..cols {
                let ours = screen.cell(row, col).unwrap();
                let theirs = &grid[Line(i32::from(row))][Column(usize::from(col))];
                if ours.is_wide_continuation() {
                    continue;
                }
                let ours_seen = seen(ours);
                let theirs_seen = reference_seen(theirs);
                if ours_seen != theirs_seen {
                    out.push(format!(
                        "({row},{col}): ours {ours_seen:?}, alacritty {theirs_seen:?}"
                    ));
                }
            }
        }
        out
    }
}

/// What is compared of a cell: its text, and for a cell with text its
/// strikethrough, conceal, underline style, underline colour (under an
/// underline) and link (uri, and the id when the program gave one).
type Seen = (
    String,
    Option<(bool, bool, u8, Option<Colour>, Option<(String, String)>)>,
);

fn seen(cell: CellView<'_>) -> Seen {
    let text = match &*cell.contents() {
        "" => " ".to_owned(),
        t => t.to_owned(),
    };
    if text == " " {
        return (text, None);
    }
    let style = cell.style();
    let underline = match style.underline {
        UnderlineStyle::None => 0,
        UnderlineStyle::Single => 1,
        UnderlineStyle::Double => 2,
        UnderlineStyle::Curly => 3,
        UnderlineStyle::Dotted => 4,
        UnderlineStyle::Dashed => 5,
    };
    let colour = (underline != 0 && style.underline_colour != Colour::Default)
        .then_some(style.underline_colour);
    let link = cell.link().map(|l| {
        (
            l.uri.to_string(),
            l.id.as_deref().unwrap_or("(none)").to_owned(),
        )
    });
    (
        text,
        Some((
            style.has(Attrs::STRIKETHROUGH),
            style.has(Attrs::CONCEAL),
            underline,
            colour,
            link,
        )),
    )
}

fn reference_seen(cell: &alacritty_terminal::term::cell::Cell) -> Seen {
    let mut text: String = cell.c.to_string();
    if let Some(marks) = cell.zerowidth() {
        text.extend(marks);
    }
    if text == " " || text == "\t" {
        return (" ".to_owned(), None);
    }
    let f = cell.flags;
    let underline = if f.contains(Flags::DOUBLE_UNDERLINE) {
        2
    } else if f.contains(Flags::UNDERCURL) {
        3
    } else if f.contains(Flags::DOTTED_UNDERLINE) {
        4
    } else if f.contains(Flags::DASHED_UNDERLINE) {
        5
    } else {
        u8::from(f.contains(Flags::UNDERLINE))
    };
    let colour = match cell.underline_color() {
        _ if underline == 0 => None,
        None => None,
        Some(Color::Indexed(i)) => Some(Colour::Indexed(i)),
        Some(Color::Spec(rgb)) => Some(Colour::Rgb(rgb.r, rgb.g, rgb.b)),
        Some(Color::Named(n)) => Some(Colour::Indexed(n as u8)),
    };
    let link = cell.hyperlink().map(|l| {
        let id = if l.id().ends_with("_alacritty") {
            "(none)"
        } else {
            l.id()
        };
        (l.uri().to_owned(), id.to_owned())
    });
    (
        text,
        Some((
            f.contains(Flags::STRIKEOUT),
            f.contains(Flags::HIDDEN),
            underline,
            colour,
            link,
        )),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn styles_and_links_match_alacritty(ops in proptest::collection::vec(op(), 1..120)) {
        let mut both = Both::new(6, 16);
        for op in &ops {
            both.apply(op);
        }
        let differences = both.differences();
        prop_assert!(differences.is_empty(), "{}", differences.join("\n"));
    }
}

/// The cases the random walk found worth keeping, and the simple ones.
#[test]
fn a_styled_line_scrolls_and_is_edited_as_in_alacritty() {
    let mut both = Both::new(4, 20);
    both.feed(
        "\x1b[9;4:3;58:5:196mab\x1b]8;id=z;https://x.test/\x1b\\c\u{6f22}d\x1b[m\x1b]8;;\x1b\\ef"
            .as_bytes(),
    );
    both.feed(b"\r\n\n\n\n\x1b[1;2H\x1b[2@\x1b[1P\x1b[?1049hzz\x1b[?1049l");
    let differences = both.differences();
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
