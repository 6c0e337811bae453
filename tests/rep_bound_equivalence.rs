//! `src/rep_bound.rs` cuts the count of REP (`CSI n b`) to about a
//! screenful. These tests check the claim it rests on: the screen comes out
//! exactly as a parser that wrote every copy shows it (every cell with its
//! attributes, the wrap flags, the cursor and a pending wrap, the modes and
//! REP's character), and on a pane's live screen vt100's hidden count of
//! scrolled-off rows too, which a grid that grows later shows.
//!
//! - `every_start_on_small_grids`: every cursor position, region, grid and
//!   character width on a few small grids, with every count around the point
//!   where the cut starts. An off-by-one in the cut's arithmetic fails it.
//! - `huge_counts_in_any_output_show_the_same_screen`: random output heavy
//!   in REP and the other counted sequences with huge counts, through the
//!   live pipeline (`FastForward`, which skips output as well), cut into
//!   random chunks, with resizes, against vt100 behind the fidelity layer
//!   alone (every REP written whole).
//! - `a_replayed_history_shows_the_same_screen`: the same through a parser
//!   with scrollback, as a history replay does.
//!
//! CI runs 96 cases per property (about 15 s in debug): enough to fail on an
//! off-by-one in where the grid is settled, in the copies kept or in the
//! copies written after the scroll. Mistakes that need a rarer start (a
//! region at the top with the cursor just below it, the scroll cut into
//! pieces the wrong size, a region forgotten at a resize) fail
//! `every_start_on_small_grids` and a campaign of 2,000 cases:
//! `PROPTEST_CASES=2000 cargo test --release --test rep_bound_equivalence`

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use std::io::Write as _;
use std::num::NonZeroU16;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm};
mod reference;

use reference::Reference;
use tilework::pane::term::fast_forward::FastForward;
use tilework::pane::term::fidelity::Fidelity;
use tilework::pane::term::parse_guard::ParserPanicked;

fn nz(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n).unwrap()
}

fn parser(rows: u16, cols: u16, scrollback: usize) -> vt100::Parser {
    vt100::Parser::new(nz(rows), nz(cols), scrollback)
}

/// Everything a user or a later byte could tell apart on the screen.
fn state(screen: &vt100::Screen) -> String {
    let (rows, _) = screen.size();
    let wraps: Vec<bool> = (0..rows.get()).map(|r| screen.row_wrapped(r)).collect();
    format!(
        "{:?}\n{:?}\n{wraps:?}\n{:?}\n{}",
        screen.state_formatted(),
        screen.cursor_position(),
        (
            screen.fgcolor(),
            screen.bgcolor(),
            screen.bold(),
            screen.inverse()
        ),
        screen.alternate_screen(),
    )
}

/// Prints through both parsers what shows a pending wrap and REP's
/// character.
const PROBE: &[u8] = b"Z\x1b[2b";

// ---------------------------------------------------------------------------
// Every start on small grids.

/// A screen full of other characters (some wide), a scroll region, a grid,
/// the cursor at `at` and REP's character printed there (the cursor is then
/// one character further on, waiting to wrap, or on the next row).
fn setup(
    rows: u16,
    cols: u16,
    region: Option<(u16, u16)>,
    alternate: bool,
    at: (u16, u16),
    c: &str,
) -> Vec<u8> {
    let mut out = Vec::new();
    if alternate {
        out.extend_from_slice(b"\x1b[?1049h");
    }
    for i in 0..rows * cols {
        out.extend_from_slice(if i % 5 == 3 { "字".as_bytes() } else { b"o" });
    }
    if let Some((top, bottom)) = region {
        write!(out, "\x1b[{};{}r", top + 1, bottom + 1).unwrap();
    }
    write!(out, "\x1b[{};{}H{c}", at.0 + 1, at.1 + 1).unwrap();
    out
}

/// `setup` then `rep`, through the reference and through a bounding `Fidelity`: the same
/// screen, then after the probe, then (live) after the grid grows. Returns
/// whether the REP was rewritten.
fn check(rows: u16, cols: u16, setup: &[u8], rep: &[u8], live: bool) -> bool {
    let scrollback = if live { 0 } else { 100 };
    let mut plain = Reference::new(parser(rows, cols, scrollback));
    plain.process(setup);
    plain.process(rep);
    let mut bounded = parser(rows, cols, scrollback);
    let mut bound = if live {
        Fidelity::live()
    } else {
        Fidelity::history()
    };
    bound.process(&mut bounded, setup).unwrap();
    bound.process(&mut bounded, rep).unwrap();
    let case = || {
        format!(
            "{rows}x{cols} live {live}: {:?} {:?}",
            String::from_utf8_lossy(setup),
            String::from_utf8_lossy(rep)
        )
    };
    assert_eq!(state(plain.screen()), state(bounded.screen()), "{}", case());
    plain.process(PROBE);
    bound.process(&mut bounded, PROBE).unwrap();
    assert_eq!(
        state(plain.screen()),
        state(bounded.screen()),
        "{} then the probe",
        case()
    );
    if live {
        // Back to the main grid, whose count a growing grid shows: it takes
        // that many blank rows back in at the top.
        plain.process(b"\x1b[?1049l");
        bound.process(&mut bounded, b"\x1b[?1049l").unwrap();
        let grown = rows + 40;
        plain.set_size(nz(grown), nz(cols));
        bounded.screen_mut().set_size(nz(grown), nz(cols));
        bound.grid_resized(rows, grown);
        assert_eq!(
            state(plain.screen()),
            state(bounded.screen()),
            "{} grown",
            case()
        );
    }
    bound.rep().rewritten > 0
}

#[test]
fn every_start_on_small_grids() {
    let mut rewritten = 0;
    for (rows, cols) in [(2, 2), (2, 3), (3, 5), (4, 4), (5, 3)] {
        let regions = [None, Some((0, 1)), Some((1, rows - 1)), Some((0, rows - 2))];
        for region in regions.into_iter().filter(|r| r.is_none_or(|(t, b)| t < b)) {
            for alternate in [false, true] {
                for c in ["x", "漢"] {
                    for row in 0..rows {
                        for col in 0..cols {
                            let setup = setup(rows, cols, region, alternate, (row, col), c);
                            // Past two screenfuls and two rows: every count
                            // around where the cut starts, whatever the start.
                            let most = 2 * (rows + 2) * cols + 2;
                            for count in (2..most).chain([999]) {
                                let rep = format!("\x1b[{count}b");
                                for live in [true, false] {
                                    rewritten +=
                                        u32::from(check(rows, cols, &setup, rep.as_bytes(), live));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    // The cut happened often enough for this to say something.
    assert!(rewritten > 10_000, "{rewritten}");
}

// ---------------------------------------------------------------------------
// Random output.

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(96);
    Config {
        cases,
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::XorShift,
        ..Config::default()
    }
}

/// Counts: small, around a screenful of these grids, and huge.
fn count() -> impl Strategy<Value = u32> {
    prop_oneof![
        2 => 0u32..4,
        3 => 4u32..400,
        2 => 400u32..3000,
        1 => Just(65_535),
        1 => Just(65_534),
        1 => Just(99_999),
    ]
}

/// The counted sequences (vt100 bounds all but REP by the screen itself),
/// REP in the forms vte reads as REP and in forms it does not.
fn counted() -> impl Strategy<Value = Vec<u8>> {
    let finals = prop_oneof![
        6 => Just('b'),
        1 => proptest::sample::select(vec!['S', 'T', 'L', 'M', '@', 'P', 'X', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'd', '`']),
    ];
    let form = prop_oneof![
        8 => Just(0),
        1 => Just(1),
        1 => Just(2),
        1 => Just(3),
        1 => Just(4),
        1 => Just(5),
    ];
    (count(), finals, form, 0u32..9).prop_map(|(n, c, form, other)| {
        match form {
            // A second parameter, a sub-parameter.
            1 => format!("\x1b[{n};{other}{c}"),
            2 => format!("\x1b[{n}:{other}{c}"),
            // Leading zeros; a line feed and a carriage return run inside.
            3 => format!("\x1b[000{n}{c}"),
            4 => format!("\x1b[{other}\n{n}\r{c}"),
            // Not REP for vt100: a private marker.
            5 => format!("\x1b[?{n}{c}"),
            _ => format!("\x1b[{n}{c}"),
        }
        .into_bytes()
    })
}

/// REP's character just before a REP, so the copies differ from the
/// rows around them.
fn char_then_counted() -> impl Strategy<Value = Vec<u8>> {
    let chars = proptest::sample::select(vec!["x", "Y", "漢", "🙂", "e\u{301}", "\u{200B}"]);
    (chars, counted()).prop_map(|(c, rep)| [c.as_bytes(), &rep].concat())
}

/// Places to start from: anywhere on the screen, and scroll regions
/// anywhere (top, bottom, inverted, past the screen).
fn position() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        (1u16..16, 1u16..34).prop_map(|(r, c)| format!("\x1b[{r};{c}H").into_bytes()),
        (0u16..14, 0u16..16).prop_map(|(t, b)| format!("\x1b[{t};{b}r").into_bytes()),
    ]
}

fn token() -> BoxedStrategy<Vec<u8>> {
    let fixed: Vec<&'static [u8]> = vec![
        // REP's character: narrow, wide, joined, zero-width, dropped.
        b"x",
        "漢".as_bytes(),
        "e\u{301}".as_bytes(),
        "\u{200B}".as_bytes(),
        "\u{9b}".as_bytes(),
        b"\x7f",
        b"\r\n",
        b"\n",
        b"\r",
        b"\t",
        b"\x08",
        b"\x1b[31m",
        b"\x1b[0m",
        b"\x1b[7m",
        // Where the copies go.
        b"\x1b[H",
        b"\x1b[99;99H",
        b"\x1b[2A",
        b"\x1b[r",
        b"\x1b[2:0;5r",
        b"\x1b[?2;4r",
        b"\x1b[?1049h",
        b"\x1b[?1049l",
        b"\x1b[?47h",
        b"\x1b[?47l",
        b"\x1b[?6h",
        b"\x1b[?6l",
        b"\x1b7",
        b"\x1b8",
        b"\x1bM",
        b"\x1bc",
        // The hidden count: cleared, or not.
        b"\x1b[3J",
        b"\x1b[?3J",
        b"\x1b[2J",
        b"\x1b[K",
        b"\x1b]0;title\x07",
        b"\x1b[1\x182b",
    ];
    // Words of any letters: rows the copies must push out are told apart.
    let words = "[a-zA-Z ]{1,12}".prop_map(String::into_bytes);
    let lines = (1usize..30).prop_map(|n| {
        (0..n)
            .flat_map(|i| format!("\x1b[32mline {i}\x1b[m\r\n").into_bytes())
            .collect::<Vec<u8>>()
    });
    prop_oneof![
        4 => proptest::sample::select(fixed).prop_map(<[u8]>::to_vec),
        3 => position(),
        3 => words,
        2 => counted(),
        4 => char_then_counted(),
        1 => lines,
    ]
    .boxed()
}

#[derive(Debug, Clone)]
enum Op {
    Output(Vec<u8>),
    Resize(u16, u16),
    Check,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        12 => vec(token(), 1..12).prop_map(|t| Op::Output(t.concat())),
        // Growing past the rows a REP scrolled shows vt100's count of them.
        2 => (2u16..12, 2u16..30).prop_map(|(r, c)| Op::Resize(r, c)),
        1 => (12u16..60, 2u16..30).prop_map(|(r, c)| Op::Resize(r, c)),
        2 => Just(Op::Check),
    ]
}

/// Output the reference parser took must not make the bounded one panic.
fn parsed(result: Result<(), ParserPanicked>) -> Result<(), TestCaseError> {
    result.map_err(|failure| TestCaseError::fail(format!("the bounded path only: {failure}")))
}

/// A parser fed the way a pane feeds its live screen or its history.
trait Fed {
    fn push(&mut self, parser: &mut vt100::Parser, bytes: &[u8]) -> Result<(), ParserPanicked>;
    fn settle(&mut self, parser: &mut vt100::Parser) -> Result<(), ParserPanicked>;
    fn grid_resized(&mut self, old_rows: u16, new_rows: u16);
}

impl Fed for FastForward {
    fn push(&mut self, parser: &mut vt100::Parser, bytes: &[u8]) -> Result<(), ParserPanicked> {
        FastForward::push(self, parser, bytes)
    }
    fn settle(&mut self, parser: &mut vt100::Parser) -> Result<(), ParserPanicked> {
        FastForward::settle(self, parser)
    }
    fn grid_resized(&mut self, old_rows: u16, new_rows: u16) {
        FastForward::grid_resized(self, old_rows, new_rows);
    }
}

impl Fed for Fidelity {
    fn push(&mut self, parser: &mut vt100::Parser, bytes: &[u8]) -> Result<(), ParserPanicked> {
        self.process(parser, bytes)
    }
    fn settle(&mut self, _: &mut vt100::Parser) -> Result<(), ParserPanicked> {
        Ok(())
    }
    fn grid_resized(&mut self, old_rows: u16, new_rows: u16) {
        Fidelity::grid_resized(self, old_rows, new_rows);
    }
}

fn same(
    plain: &mut Reference,
    fed: &mut vt100::Parser,
    feed: &mut impl Fed,
) -> Result<(), TestCaseError> {
    parsed(feed.settle(fed))?;
    prop_assert_eq!(state(plain.screen()), state(fed.screen()));
    prop_assume!(plain.process(PROBE));
    parsed(feed.push(fed, PROBE))?;
    parsed(feed.settle(fed))?;
    prop_assert_eq!(state(plain.screen()), state(fed.screen()));
    Ok(())
}

/// Runs `ops` through the reference and through `feed`, cutting the output
/// at `cuts`, and compares the screens at every check and at the end.
fn run(
    (rows, cols): (u16, u16),
    scrollback: usize,
    ops: Vec<Op>,
    cuts: &[usize],
    feed: &mut impl Fed,
) -> Result<(), TestCaseError> {
    let mut plain = Reference::new(parser(rows, cols, scrollback));
    let mut fed = parser(rows, cols, scrollback);
    let mut cut = cuts.iter().cycle();
    for op in ops {
        match op {
            Op::Output(bytes) => {
                prop_assume!(plain.process(&bytes));
                let mut rest = &bytes[..];
                while !rest.is_empty() {
                    let at = *cut.next().unwrap();
                    let n = at.min(rest.len());
                    parsed(feed.push(&mut fed, &rest[..n]))?;
                    rest = &rest[n..];
                    // A frame can come at any point, even inside a sequence.
                    if at.is_multiple_of(3) {
                        parsed(feed.settle(&mut fed))?;
                    }
                }
            }
            Op::Resize(r, c) => {
                parsed(feed.settle(&mut fed))?;
                let before = fed.screen().size();
                plain.set_size(nz(r), nz(c));
                fed.screen_mut().set_size(nz(r), nz(c));
                if fed.screen().size() != before {
                    feed.grid_resized(before.0.get(), r);
                }
            }
            Op::Check => same(&mut plain, &mut fed, feed)?,
        }
    }
    same(&mut plain, &mut fed, feed)
}

proptest! {
    #![proptest_config(config())]

    /// The live pipeline: vt100 without scrollback behind the fast-forward,
    /// whose hidden count of scrolled-off rows growing grids show.
    #[test]
    fn huge_counts_in_any_output_show_the_same_screen(
        rows in 2u16..12,
        cols in 2u16..30,
        ops in vec(op(), 1..16),
        cuts in vec(1usize..200, 1..16),
    ) {
        run((rows, cols), 0, ops, &cuts, &mut FastForward::default())?;
    }

    /// A history replay: vt100 with scrollback. Its rows of dropped copies
    /// are not kept, so a growing grid (which takes rows back from the
    /// scrollback) would tell; replays keep their size.
    #[test]
    fn a_replayed_history_shows_the_same_screen(
        rows in 2u16..12,
        cols in 2u16..30,
        ops in vec(op(), 1..16),
        cuts in vec(1usize..200, 1..16),
    ) {
        let ops = ops.into_iter().filter(|op| !matches!(op, Op::Resize(..))).collect();
        run((rows, cols), 200, ops, &cuts, &mut Fidelity::history())?;
    }
}

/// The properties are only worth something if REPs get cut in them.
#[test]
fn the_generator_makes_reps_worth_cutting() {
    let mut fed = parser(4, 20, 0);
    let mut bound = Fidelity::live();
    bound.process(&mut fed, b"x\x1b[400b").unwrap();
    assert_eq!(bound.rep().rewritten, 1);
}
