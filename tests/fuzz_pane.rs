//! Property-based fuzzing of the pane pipeline (issue 5): arbitrary and
//! escape-heavy bytes → `Pane::detached` (the real vt100 parser with query
//! callbacks, the byte ring and the history replay) at random sizes, with
//! resizes and scrolling between chunks, rendered by `PaneWidget` into
//! buffers of random sizes and positions.
//!
//! Properties: nothing panics; rendering writes only inside the area it was
//! given; the history stays within its byte budget; and afterwards `ESC c`
//! plus text shows that text, so the pane is never left unusable. A third
//! property pushes OSC strings of more than 2 MiB, cut into chunks
//! anywhere, and checks that the text after them is still drawn.
//!
//! cargo-fuzz needs a nightly toolchain, which this project does not use;
//! proptest runs on stable and shrinks a failure to a small input.
//!
//! CI runs a short campaign (64 cases per property, 16 for the long-OSC
//! one: a few seconds in debug).
//! A longer campaign, e.g. before a release:
//!
//! ```sh
//! PROPTEST_CASES=100000 cargo test --release --test fuzz_pane
//! ```
//!
//! Failures are not persisted to a regressions file (the repository keeps
//! none); proptest prints the shrunk input, which goes into a unit test.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::time::Duration;

use crossbeam_channel::{Receiver, bounded};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm};
use ratatui::buffer::{Buffer, Cell};
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::widgets::Widget;
use tilework::app::loop_event::LOOP_EVENT_CAPACITY;
use tilework::pane::PaneId;
use tilework::pane::event::{PaneEvent, PaneMailbox};
use tilework::pane::{Pane, ScrollView};
use tilework::render::pane_view::PaneWidget;

/// Cases per property: 64 in CI, or `PROPTEST_CASES` for a long campaign.
fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    Config {
        cases,
        failure_persistence: None,
        // ChaCha (the default) dominates the run time of a debug build;
        // the generator's quality does not matter for finding crashes.
        rng_algorithm: RngAlgorithm::XorShift,
        ..Config::default()
    }
}

/// Bytes that steer the parser into its escape states: ESC, introducers,
/// parameters, separators, terminators, C1 controls and UTF-8 fragments.
fn escape_heavy_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        4 => Just(0x1b),
        2 => Just(b'['),
        1 => Just(b']'),
        1 => Just(b'P'),
        1 => Just(b'\\'),
        3 => b'0'..=b'9',
        2 => Just(b';'),
        1 => Just(b'?'),
        1 => Just(0x07),
        2 => 0x80u8..=0x9f,
        1 => 0xc0u8..=0xff,
        1 => 0x80u8..=0xbf,
        2 => 0x40u8..=0x7e,
        1 => 0x20u8..=0x2f,
        1 => 0x00u8..=0x1f,
        2 => any::<u8>(),
    ]
}

fn number() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => 0u64..10,
        1 => 0u64..300,
        1 => Just(65_535),
        1 => Just(65_536),
        1 => Just(99_999),
        1 => Just(u64::from(u32::MAX) + 1),
        1 => any::<u64>(),
    ]
}

/// Whole sequences and text: the parser sees well-formed input often
/// enough to reach deep states (scroll regions, the alternate screen,
/// wide characters at the edge) and then gets cut off mid-sequence.
fn token() -> BoxedStrategy<Vec<u8>> {
    let params = vec(number(), 0..6)
        .prop_map(|ps| ps.iter().map(u64::to_string).collect::<Vec<_>>().join(";"));
    let csi = (
        prop_oneof![Just(""), Just("?"), Just(">"), Just("="), Just("<")],
        params,
        prop_oneof![Just(""), Just(" "), Just("$"), Just("\""), Just("!")],
        0x40u8..=0x7e,
    )
        .prop_map(|(private, params, inter, fin)| {
            let mut out = format!("\x1b[{private}{params}{inter}").into_bytes();
            out.push(fin);
            out
        });
    let osc = (
        prop_oneof![
            Just("0".to_string()),
            Just("1".to_string()),
            Just("2".to_string()),
            Just("7".to_string()),
            Just("8".to_string()),
            Just("52".to_string()),
            Just("52;c".to_string()),
            Just("133".to_string()),
            any::<u16>().prop_map(|n| n.to_string()),
        ],
        vec(any::<u8>(), 0..96),
        prop_oneof![
            Just(b"\x07".to_vec()),
            Just(b"\x1b\\".to_vec()),
            Just(vec![0x9c]),
            Just(Vec::new()),
        ],
    )
        .prop_map(|(num, payload, end)| {
            let mut out = format!("\x1b]{num};").into_bytes();
            out.extend(payload);
            out.extend(end);
            out
        });
    let string_seq = (
        prop_oneof![Just(b'P'), Just(b'X'), Just(b'^'), Just(b'_')],
        vec(any::<u8>(), 0..96),
        any::<bool>(),
    )
        .prop_map(|(kind, payload, terminated)| {
            let mut out = vec![0x1b, kind];
            out.extend(payload);
            if terminated {
                out.extend_from_slice(b"\x1b\\");
            }
            out
        });
    let esc = (0x20u8..=0x7e).prop_map(|b| vec![0x1b, b]);
    let text = "[ -~]{0,60}".prop_map(String::into_bytes);
    let unicode =
        vec(any::<char>(), 0..24).prop_map(|cs| cs.into_iter().collect::<String>().into_bytes());
    let known = prop_oneof![
        Just("日本語"),
        Just("🚀👍🏽"),
        Just("e\u{301}\u{302}\u{303}"),
        Just("\u{200d}\u{fe0f}"),
        Just("\u{202e}rtl\u{202c}"),
        Just("\r\n"),
        Just("\n"),
        Just("\r"),
        Just("\x08"),
        Just("\t"),
        Just("\x0b\x0c"),
        Just("\x1b[?1049h"),
        Just("\x1b[?1049l"),
        Just("\x1b[?47h"),
        Just("\x1b[2;5r"),
        Just("\x1b[r"),
        Just("\x1b7"),
        Just("\x1b8"),
        Just("\x1b[6n"),
        Just("\x1b[?6n"),
        Just("\x1b[c"),
        Just("\x1b[>c"),
        Just("\x1b[5n"),
        Just("\x1b[18t"),
        Just("\x1bM"),
        Just("\x1bD"),
        Just("\x1bE"),
        Just("\x1b#8"),
        Just("\x1b[?6h"),
        Just("\x1b[4h"),
        Just("\x1b[?7l"),
        Just("\x1b[?25l"),
        Just("\x1b[?2004h"),
        Just("\x1b[?2026h"),
        Just("\x1b[?2026l"),
        Just("\x1b[?1000h\x1b[?1006h"),
        Just("\x1b[3 q"),
        Just("\x1b(0"),
        Just("\x1b)B"),
        Just("\x1b[99999;99999H"),
        Just("\x1b[99999@"),
        Just("\x1b[99999L"),
        Just("\x1b[99999S"),
    ]
    .prop_map(|s: &str| s.as_bytes().to_vec());
    prop_oneof![
        4 => csi,
        2 => osc,
        1 => string_seq,
        2 => esc,
        3 => text,
        2 => unicode,
        4 => known,
    ]
    .boxed()
}

/// One chunk of program output, in one of three flavours.
fn chunk() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        1 => vec(any::<u8>(), 0..1024),
        2 => vec(escape_heavy_byte(), 0..1024),
        3 => vec(token(), 0..48).prop_map(|ts| ts.concat()),
    ]
}

/// Pane dimensions, including the degenerate ones (the pane clamps to 2x2).
fn dim() -> impl Strategy<Value = u16> {
    prop_oneof![
        2 => 0u16..=3,
        3 => 4u16..=100,
        1 => 100u16..=250,
    ]
}

/// A rendering target: the area given to the widget and the buffer's own
/// area, each anywhere, so the area may be larger than the buffer, partly
/// outside it, or empty.
#[derive(Debug, Clone)]
struct Target {
    area: Rect,
    buffer: Rect,
}

fn target() -> impl Strategy<Value = Target> {
    (
        0u16..20,
        0u16..20,
        dim(),
        dim(),
        0u16..10,
        0u16..10,
        dim(),
        dim(),
    )
        .prop_map(|(ax, ay, aw, ah, bx, by, bw, bh)| Target {
            area: Rect::new(ax, ay, aw, ah),
            buffer: Rect::new(bx, by, bw.max(1), bh.max(1)),
        })
}

#[derive(Debug, Clone)]
enum Op {
    Feed(Vec<u8>),
    Resize(u16, u16),
    /// Positive: back in time.
    Scroll(isize),
    ScrollToBottom,
    Render(Target),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => chunk().prop_map(Op::Feed),
        2 => (dim(), dim()).prop_map(|(r, c)| Op::Resize(r, c)),
        2 => prop_oneof![-50isize..50, Just(isize::MAX / 2), Just(isize::MIN / 2)].prop_map(Op::Scroll),
        1 => Just(Op::ScrollToBottom),
        3 => target().prop_map(Op::Render),
    ]
}

/// A symbol and colour no pane ever draws: any cell still holding it after
/// a render was not written.
const SENTINEL: &str = "¤";
const SENTINEL_COLOR: Color = Color::Rgb(1, 2, 3);

fn sentinel_buffer(area: Rect) -> Buffer {
    let mut cell = Cell::new(SENTINEL);
    cell.set_style(Style::default().fg(SENTINEL_COLOR).bg(SENTINEL_COLOR));
    Buffer::filled(area, cell)
}

/// Renders the pane's screen into `target` and checks that every cell
/// outside the area (clipped to the buffer) is untouched.
fn render_checked(pane: &Pane, target: &Target) -> Result<(), TestCaseError> {
    let mut buf = sentinel_buffer(target.buffer);
    PaneWidget::new(pane.screen()).render(target.area, &mut buf);
    let inside = target.area.intersection(buf.area);
    for y in buf.area.top()..buf.area.bottom() {
        for x in buf.area.left()..buf.area.right() {
            let p = ratatui::layout::Position { x, y };
            if inside.contains(p) && !inside.is_empty() {
                continue;
            }
            let cell = &buf[(x, y)];
            prop_assert!(
                cell.symbol() == SENTINEL && cell.fg == SENTINEL_COLOR && cell.bg == SENTINEL_COLOR,
                "render into {:?} wrote cell ({x},{y}) of buffer {:?}: {:?}",
                target.area,
                buf.area,
                cell
            );
        }
    }
    Ok(())
}

/// Waits for a replay the pane started, as the render loop would.
fn settle(pane: &mut Pane, rx: &Receiver<PaneEvent>) -> Result<(), TestCaseError> {
    while matches!(pane.history().view(), ScrollView::Loading { .. }) {
        // However long the replay takes on a loaded machine, as long as
        // its thread works.
        match common::progress::recv_from_threads(rx, "history-replay", Duration::from_secs(60)) {
            Ok(PaneEvent::HistoryReady(id, history)) => {
                prop_assert_eq!(id, pane.id);
                pane.history_mut().history_ready(history);
            }
            Ok(PaneEvent::Exited(..)) => prop_assert!(false, "the pane exited"),
            Ok(PaneEvent::HistoryFile(..)) => prop_assert!(false, "an unasked history file"),
            Err(err) => prop_assert!(false, "no history replay arrived: {}", err),
        }
    }
    Ok(())
}

fn run_ops(
    rows: u16,
    cols: u16,
    budget: usize,
    ops: &[Op],
    tx: &PaneMailbox,
    rx: &Receiver<PaneEvent>,
) -> Result<(), TestCaseError> {
    let mut pane = Pane::detached(PaneId(7), rows, cols, budget);
    for op in ops {
        match op {
            Op::Feed(bytes) => pane.feed(bytes.clone()),
            Op::Resize(r, c) => pane.resize(*r, *c),
            Op::Scroll(delta) => {
                pane.history_mut().scroll(*delta, tx);
                settle(&mut pane, rx)?;
            }
            Op::ScrollToBottom => pane.history_mut().scroll_to_bottom(),
            Op::Render(target) => {
                // The render loop parses held-back output before drawing.
                pane.settle();
                render_checked(&pane, target)?;
            }
        }
        prop_assert!(
            pane.history().bytes() <= budget.max(1),
            "history of {} bytes over a {budget}-byte budget",
            pane.history().bytes()
        );
        let (r, c) = pane.term().size();
        prop_assert!(r >= 2 && c >= 2, "pane size {r}x{c} below the 2x2 minimum");
    }
    // Whatever came before, a reset and text show that text.
    pane.history_mut().scroll_to_bottom();
    pane.feed(b"\x1bcok".to_vec());
    pane.settle();
    let first = pane
        .screen()
        .contents_between(0, 0, 0, pane.term().size().1);
    prop_assert!(
        first.starts_with("ok"),
        "after a reset the first row is {first:?}"
    );
    let (rows, cols) = pane.term().size();
    let area = Rect::new(0, 0, cols, rows);
    let mut buf = Buffer::empty(area);
    PaneWidget::new(pane.screen()).render(area, &mut buf);
    prop_assert_eq!(buf[(0, 0)].symbol(), "o");
    prop_assert_eq!(buf[(1, 0)].symbol(), "k");
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    /// The whole pipeline, every kind of operation interleaved.
    #[test]
    fn any_output_sizes_scrolling_and_rendering_leave_a_working_pane(
        rows in dim(),
        cols in dim(),
        budget in prop_oneof![1usize..64, 64usize..65_536, Just(8 << 20)],
        ops in vec(op(), 1..24),
    ) {
        let (tx, rx) = bounded(LOOP_EVENT_CAPACITY);
        run_ops(rows, cols, budget, &ops, &tx.into(), &rx)?;
    }

    /// Only bytes, larger volumes, then a look at the history: finds
    /// parser states that the interleaved property rarely reaches.
    #[test]
    fn long_escape_heavy_output_then_history_leaves_a_working_pane(
        rows in dim(),
        cols in dim(),
        chunks in vec(chunk(), 1..32),
        back in 1isize..500,
        target in target(),
    ) {
        let (tx, rx) = bounded(LOOP_EVENT_CAPACITY);
        let mut ops: Vec<Op> = chunks.into_iter().map(Op::Feed).collect();
        ops.push(Op::Scroll(back));
        ops.push(Op::Render(target.clone()));
        ops.push(Op::Resize(cols, rows));
        ops.push(Op::Render(target));
        run_ops(rows, cols, 16 * 1024, &ops, &tx.into(), &rx)?;
    }

}

/// Few cases: each pushes more than 2 MiB through the parser.
fn long_config() -> Config {
    let base = config();
    Config {
        cases: (base.cases / 4).max(8),
        ..base
    }
}

proptest! {
    #![proptest_config(long_config())]

    /// An OSC string longer than any limit tilework may put on it (2 MiB and
    /// more), cut into chunks at arbitrary points: whatever is dropped, the
    /// string still ends where the program ended it, and the text after it
    /// is drawn where it belongs.
    #[test]
    fn over_long_osc_strings_split_anywhere_do_not_swallow_what_follows(
        number in prop_oneof![Just("0"), Just("2"), Just("52;c"), Just("7"), Just("1337")],
        extra in 0usize..70_000,
        filler in prop_oneof![Just(b'a'), Just(b'='), Just(b';'), Just(0xc3u8), Just(b']')],
        end in prop_oneof![Just(&b"\x07"[..]), Just(&b"\x1b\\"[..])],
        cuts in vec(1usize..3_000_000, 0..12),
        near_end in vec(0usize..8, 0..4),
    ) {
        let mut bytes = format!("\x1b]{number};").into_bytes();
        bytes.resize(bytes.len() + (2 << 20) + extra, filler);
        // Cuts around the terminator too: a chunk may end inside ESC + backslash.
        let end_at = bytes.len();
        bytes.extend_from_slice(end);
        bytes.extend_from_slice(b"after-osc");
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % bytes.len()).collect();
        cuts.extend(near_end.into_iter().map(|d| end_at - 3 + d));
        cuts.push(0);
        cuts.push(bytes.len());
        cuts.sort_unstable();
        cuts.dedup();
        let mut pane = Pane::detached(PaneId(9), 24, 80, 1 << 20);
        for w in cuts.windows(2) {
            pane.feed(bytes[w[0]..w[1]].to_vec());
            pane.settle();
        }
        let first = pane.screen().contents_between(0, 0, 0, 80);
        prop_assert!(first.starts_with("after-osc"), "first row {first:?}");
        prop_assert!(pane.title().chars().count() <= 256);
    }
}
