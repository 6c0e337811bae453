//! The fast-forward path (`src/pane/fast_forward.rs`) drops output that would
//! scroll off unseen. This property checks the claim it rests on: whatever
//! the output, however it is cut into chunks and whatever resizes happen in
//! between, a parser fed through it shows exactly what a parser fed every
//! byte (through the fidelity layer, as every pane's parser is) shows: every cell with its attributes, the wrap flags, the cursor,
//! the modes, the current colours and REP's last character.
//!
//! The generator leans on what makes skipping happen (runs of CR LF lines
//! with colours) and on everything that could make it wrong: scroll
//! regions, the alternate screen, origin, insert, no-wrap and newline
//! modes, character sets and SI/SO, tab stops, cursor movement, wide,
//! combining and invalid characters, and sequences cut by chunk
//! boundaries.
//!
//! Two things are left out because no reference parser can match them: a
//! VS16 that widens a character in the last column (vt100 0.18.1 then
//! corrupts its grid and may panic; the pane contains that) and invalid
//! UTF-8 (vte 0.15 drops the bytes after an invalid sequence that a read
//! boundary split). Both depend on where reads end, not on skipping.
//!
//! CI runs 256 cases; a longer campaign:
//! `PROPTEST_CASES=20000 cargo test --release --test fast_forward_equivalence`

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use std::num::NonZeroU16;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm};
mod reference;

use reference::Reference;
use tilework::pane::term::fast_forward::FastForward;
use tilework::pane::term::parse_guard::ParserPanicked;

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    Config {
        cases,
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::XorShift,
        ..Config::default()
    }
}

fn token() -> BoxedStrategy<Vec<u8>> {
    let fixed: Vec<&'static [u8]> = vec![
        // Plain output.
        b"word",
        b"a longer line of text that wraps",
        "漢字".as_bytes(),
        "🙂".as_bytes(),
        "e\u{301}".as_bytes(),
        "\u{200B}".as_bytes(),
        "\u{9b}".as_bytes(),
        b"\r\n",
        b"\r\n",
        b"\r\n",
        b"\n",
        b"\r",
        b"\t",
        b"\x08",
        b"\x0b",
        b"\x0e",
        b"\x18",
        b"\x7f",
        // Colours.
        b"\x1b[31m",
        b"\x1b[0m",
        b"\x1b[m",
        b"\x1b[1;4;38;5;200m",
        b"\x1b[;7m",
        b"\x1b[48;2;1;2;3m",
        b"\x1b[38:2::1:2:3m",
        // Everything else.
        b"\x07",
        b"\x1b[H",
        b"\x1b[3;2H",
        b"\x1b[2A",
        b"\x1b[2C",
        b"\x1b[K",
        b"\x1b[2J",
        b"\x1b[3b",
        b"\x1b[L",
        b"\x1b[M",
        b"\x1b[S",
        b"\x1b[T",
        b"\x1b[2;4r",
        b"\x1b[1;3r",
        b"\x1b[2r",
        b"\x1b[r",
        b"\x1b[1;99r",
        b"\x1b[2:0;5r",
        b"\x1b[2;4;1;1;1;1;1;1;1;1;1;1;1;1r",
        b"\x1b[?2;4r",
        b"\x1b[?1049h",
        b"\x1b[?1049l",
        b"\x1b[?47h",
        b"\x1b[?47l",
        b"\x1b[?6h",
        b"\x1b[?6l",
        b"\x1b[?7l",
        b"\x1b[?7h",
        b"\x1b[4h",
        b"\x1b[4l",
        b"\x1b[20h",
        b"\x1b[20l",
        b"\x1b7",
        b"\x1b8",
        b"\x1bM",
        b"\x1bD",
        b"\x1bE",
        b"\x1bc",
        b"\x1b]0;title\x07",
        b"\x1b]2;t\x1b\\",
        b"\x1bPq#0\x1b\\",
        b"\x1b[1\x182m",
        b"\x1b[?25l",
        b"\x1b_apc\x1b\\",
        // What the fidelity layer completes: character sets and shifts, tab
        // stops, insert and no-wrap modes, replaced sequences, rows blanked
        // in a background colour, styled SGRs.
        b"\x1b(0",
        b"\x1b(B",
        b"\x1b)0",
        b"\x0f",
        b"lqqk",
        b"\x1bH",
        b"\x1b[g",
        b"\x1b[3g",
        b"\x1b[2I",
        b"\x1b[Z",
        b"\x1b[s",
        b"\x1b[u",
        b"\x1b[!p",
        b"\x1b#8",
        b"\x1b[?1047h",
        b"\x1b[?1047l",
        b"\x1b[?1048h",
        b"\x1b[?1048l",
        // Synchronized updates, opened and closed anywhere.
        b"\x1b[?2026h",
        b"\x1b[?2026l",
        b"\x1b[44m\x1b[2L",
        b"\x1b[4:3m",
        b"\x1b[21m",
        b"\x1b[58;2;1;2;3m",
    ];
    // Runs of lines: short, empty, tabbed, and long non-ASCII ones (which
    // wrap where their width cannot be known from their bytes).
    let bodies = ["line", "", "\tx\t\ty", "é漢字 wide and long enough to wrap"];
    let lines =
        (1usize..40, any::<bool>(), 0..bodies.len()).prop_map(move |(n, coloured, body)| {
            let mut out = Vec::new();
            for i in 0..n {
                if coloured {
                    out.extend_from_slice(b"\x1b[32m");
                }
                if !bodies[body].is_empty() {
                    out.extend_from_slice(format!("{} {i}", bodies[body]).as_bytes());
                }
                if coloured && i % 3 == 0 {
                    out.extend_from_slice(b"\x1b[0m");
                }
                out.extend_from_slice(b"\r\n");
            }
            out
        });
    prop_oneof![
        3 => proptest::sample::select(fixed).prop_map(<[u8]>::to_vec),
        1 => lines,
        1 => vec(0u8..0x80, 1..8),
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
        12 => vec(token(), 1..24).prop_map(|t| Op::Output(t.concat())),
        1 => (2u16..10, 2u16..24).prop_map(|(r, c)| Op::Resize(r, c)),
        2 => Just(Op::Check),
    ]
}

fn parser(rows: u16, cols: u16) -> vt100::Parser {
    vt100::Parser::new(
        NonZeroU16::new(rows).unwrap(),
        NonZeroU16::new(cols).unwrap(),
        0,
    )
}

/// Everything a user or a later byte could tell apart.
fn state(screen: &vt100::Screen) -> String {
    let (rows, _) = screen.size();
    let wraps: Vec<bool> = (0..rows.get()).map(|r| screen.row_wrapped(r)).collect();
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{}",
        screen.state_formatted(),
        screen.cursor_position(),
        wraps,
        (
            screen.fgcolor(),
            screen.bgcolor(),
            screen.bold(),
            screen.inverse()
        ),
        screen.alternate_screen(),
    )
}

/// Output the reference parser took must not make the fast path's parser
/// panic.
fn parsed(result: Result<(), ParserPanicked>) -> Result<(), TestCaseError> {
    result.map_err(|failure| TestCaseError::fail(format!("the fast path only: {failure}")))
}

fn same(
    plain: &mut Reference,
    fast: &mut vt100::Parser,
    ff: &mut FastForward,
) -> Result<(), TestCaseError> {
    parsed(ff.settle(fast))?;
    prop_assert_eq!(state(plain.screen()), state(fast.screen()));
    // Probe what the screen does not show: REP's last character, the
    // colours and pending wrap, by printing through both.
    let probe = b"\x1b[2bZ\x1b[6n";
    prop_assume!(plain.process(probe));
    parsed(ff.push(fast, probe))?;
    parsed(ff.settle(fast))?;
    prop_assert_eq!(state(plain.screen()), state(fast.screen()));
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn skipping_scrolled_off_output_shows_the_same_screen(
        rows in 2u16..10,
        cols in 2u16..24,
        ops in vec(op(), 1..24),
        cuts in vec(1usize..300, 1..16),
        saturated_early in any::<bool>(),
    ) {
        let mut plain = Reference::new(parser(rows, cols));
        let mut fast = parser(rows, cols);
        // The test's grids grow by at most 7 rows from at least 2: a
        // saturation of 20 exercises the path where line feeds are no longer
        // replayed, which vt100's real one (65,535) needs a long flood for.
        let mut ff = if saturated_early {
            FastForward::with_saturation(20)
        } else {
            FastForward::default()
        };
        let mut cut = cuts.iter().cycle();
        for op in ops {
            match op {
                Op::Output(bytes) => {
                    prop_assume!(plain.process(&bytes));
                    let mut rest = &bytes[..];
                    while !rest.is_empty() {
                        let at = *cut.next().unwrap();
                        let n = at.min(rest.len());
                        parsed(ff.push(&mut fast, &rest[..n]))?;
                        rest = &rest[n..];
                        // A frame can come at any point, even inside a
                        // character.
                        if at % 3 == 0 {
                            parsed(ff.settle(&mut fast))?;
                        }
                    }
                }
                Op::Resize(r, c) => {
                    parsed(ff.settle(&mut fast))?;
                    let before = fast.screen().size();
                    plain.set_size(NonZeroU16::new(r).unwrap(), NonZeroU16::new(c).unwrap());
                    fast.screen_mut().set_size(NonZeroU16::new(r).unwrap(), NonZeroU16::new(c).unwrap());
                    let after = fast.screen().size();
                    if after != before {
                        ff.grid_resized(before.0.get(), after.0.get());
                    }
                }
                Op::Check => same(&mut plain, &mut fast, &mut ff)?,
            }
        }
        same(&mut plain, &mut fast, &mut ff)?;
    }
}

/// The property above is only worth something if skipping happens in it.
#[test]
fn the_generator_makes_skipping_happen() {
    let mut fast = parser(4, 20);
    let mut ff = FastForward::default();
    let lines: Vec<u8> = (0..30)
        .flat_map(|i| format!("\x1b[32mline {i}\r\n").into_bytes())
        .collect();
    ff.push(&mut fast, &lines).unwrap();
    ff.settle(&mut fast).unwrap();
    assert!(ff.skipped > 0);
}
