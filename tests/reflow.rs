//! Reflow on resize (issue 11 part 2): a pane on the primary screen that
//! changes width is laid out again from its byte ring, as a terminal of the
//! new size would have shown the same output; the alternate screen is not,
//! but the primary screen under it is when the program leaves it.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::num::NonZeroU16;

use common::Tilework;
use tilework::pane::{Pane, PaneId};

/// `L001L002…L042EN`: 170 characters, each position recognisable.
fn long_line() -> String {
    let mut line: String = (1..=42).map(|i| format!("L{i:03}")).collect();
    line.push_str("EN");
    assert_eq!(line.len(), 170);
    line
}

fn reference(rows: u16, cols: u16, bytes: &[u8]) -> vt100::Parser {
    let mut parser = vt100::Parser::new(
        NonZeroU16::new(rows).unwrap(),
        NonZeroU16::new(cols).unwrap(),
        0,
    );
    parser.process(bytes);
    parser
}

fn assert_same_screen(pane: &mut Pane, reference: &vt100::Screen) {
    pane.settle();
    let screen = pane.screen();
    assert_eq!(screen.size(), reference.size());
    assert_eq!(screen.contents(), reference.contents());
    assert_eq!(screen.contents_formatted(), reference.contents_formatted());
    assert_eq!(screen.cursor_position(), reference.cursor_position());
}

#[test]
fn a_long_line_shrunk_to_60_then_grown_to_100_shows_whole_like_a_reference_parser() {
    let bytes = format!("$ cat line\r\n\x1b[1;32m{}\x1b[m\r\n$ ", long_line()).into_bytes();
    let mut pane = Pane::detached(PaneId(1), 8, 80, 1 << 20);
    pane.feed(bytes.clone());
    pane.resize(8, 60);
    assert_same_screen(&mut pane, reference(8, 60, &bytes).screen());
    pane.resize(8, 100);
    let expected = reference(8, 100, &bytes);
    assert_same_screen(&mut pane, expected.screen());
    // The line is whole again: its first row holds 100 of its characters.
    let first = pane.screen().contents_between(1, 0, 1, 100);
    assert_eq!(first, long_line()[..100]);
}

#[test]
fn output_after_a_reflow_continues_where_the_program_left_off() {
    let before = format!("{}\r\n$ ", long_line());
    let mut pane = Pane::detached(PaneId(1), 6, 80, 1 << 20);
    pane.feed(before.clone().into_bytes());
    pane.resize(6, 50);
    pane.feed(b"typed\r\nnext line\r\n$ ".to_vec());
    let all = [before.as_bytes(), b"typed\r\nnext line\r\n$ "].concat();
    assert_same_screen(&mut pane, reference(6, 50, &all).screen());
}

#[test]
fn a_reflow_keeps_the_modes_the_program_set_before_the_bytes_it_replays() {
    // Bracketed paste and a hidden cursor set, then far more output than
    // the ring keeps: the bytes that set them are gone from the ring.
    let mut pane = Pane::detached(PaneId(1), 6, 80, 4096);
    pane.feed(b"\x1b[?2004h\x1b[?25l".to_vec());
    for i in 0..500 {
        pane.feed(format!("line {i}\r\n").into_bytes());
    }
    pane.resize(6, 40);
    pane.settle();
    assert!(pane.screen().bracketed_paste());
    assert!(pane.screen().hide_cursor());
    assert!(pane.screen().contents().contains("line 499"));
}

#[test]
fn the_alternate_screen_is_resized_as_before_not_replayed() {
    let bytes = format!("\x1b[?1049h\x1b[H{}", long_line()).into_bytes();
    let mut pane = Pane::detached(PaneId(1), 6, 80, 1 << 20);
    pane.feed(bytes.clone());
    pane.resize(6, 60);
    let mut expected = reference(6, 80, &bytes);
    expected
        .screen_mut()
        .set_size(NonZeroU16::new(6).unwrap(), NonZeroU16::new(60).unwrap());
    assert_same_screen(&mut pane, expected.screen());
}

/// The row (and its text) where `needle` starts, if on screen.
fn row_with(screen: &vt100::Screen, needle: &str) -> Option<(u16, String)> {
    let (rows, cols) = screen.size();
    (0..rows.get()).find_map(|r| {
        let text = screen.contents_between(r, 0, r, cols.get());
        text.contains(needle).then_some((r, text))
    })
}

#[test]
fn a_shell_line_cut_by_a_narrow_pane_is_whole_again_when_the_pane_grows() {
    let mut tw = Tilework::start(&[], 20, 82);
    tw.wait_for("a shell prompt", |s| s.contents().contains("$ "));
    tw.type_line("printf 'L%03d' $(seq 1 42); echo EN");
    tw.wait_for("the line", |s| s.contents().contains("L042EN"));
    tw.resize(20, 62);
    tw.wait_for("the line wrapped at the narrow width", |s| {
        row_with(s, "L001").is_some_and(|(_, t)| !t.contains("L016"))
            && s.contents().contains("L042EN")
    });
    tw.resize(20, 110);
    // Laid out at the wide width, the line's first row holds at least 25
    // of its 4-character groups and the second the rest; without reflow
    // the rows kept the 15 of the narrow width.
    tw.wait_for("the line rewrapped at the wide width", |s| {
        row_with(s, "L001").is_some_and(|(r, t)| {
            t.contains("L025") && row_with(s, "L042EN").is_some_and(|(last, _)| last == r + 1)
        })
    });
}

#[test]
fn a_width_change_under_the_alternate_screen_reflows_the_primary_when_the_program_leaves() {
    // A shell line at 80 columns, then vim (the alternate screen) while
    // the window shrinks to 50 and grows to 70, then vim quits.
    let shell = format!("$ echo\r\n{}\r\n$ vim\r\n", long_line());
    let mut pane = Pane::detached(PaneId(1), 8, 80, 1 << 20);
    pane.feed(shell.clone().into_bytes());
    pane.feed(b"\x1b[?1049h\x1b[H\x1b[2Jvim at 80".to_vec());
    pane.resize(8, 50);
    pane.feed(b"\x1b[H\x1b[2Jvim at 50".to_vec());
    pane.resize(8, 70);
    let vim_exit = b"\x1b[H\x1b[2Jvim at 70\x1b[?1049l$ ";
    pane.feed(vim_exit.to_vec());
    // As a terminal of 70 columns shows the same bytes: the line wraps at
    // 70, none of it cut at 50.
    let all = [
        shell.as_bytes(),
        b"\x1b[?1049h\x1b[H\x1b[2Jvim at 80",
        b"\x1b[H\x1b[2Jvim at 50",
        vim_exit,
    ]
    .concat();
    let expected = reference(8, 70, &all);
    assert_same_screen(&mut pane, expected.screen());
    assert!(pane.screen().contents().contains("L042EN"));
}

#[test]
fn a_program_still_on_the_alternate_screen_is_not_replayed_by_later_output() {
    let bytes = format!("\x1b[?1049h\x1b[H{}", long_line()).into_bytes();
    let mut pane = Pane::detached(PaneId(1), 6, 80, 1 << 20);
    pane.feed(bytes.clone());
    pane.resize(6, 60);
    pane.feed(b"\x1b[6;1Hmore".to_vec());
    let mut expected = reference(6, 80, &bytes);
    expected
        .screen_mut()
        .set_size(NonZeroU16::new(6).unwrap(), NonZeroU16::new(60).unwrap());
    expected.process(b"\x1b[6;1Hmore");
    assert_same_screen(&mut pane, expected.screen());
}

/// Whether the newest `rows cols` line that `stty size` printed shows
/// `cols` (inside the pane's border; earlier lines may show older sizes).
fn shows_width(screen: &vt100::Screen, cols: u16) -> bool {
    let contents = screen.contents();
    let newest = contents.lines().rev().find_map(|line| {
        let words: Vec<&str> = line
            .trim_matches(|c: char| !c.is_ascii_digit())
            .split(' ')
            .collect();
        match words[..] {
            [rows, cols] if rows.parse::<u16>().is_ok() && cols.parse::<u16>().is_ok() => {
                Some(cols)
            }
            _ => None,
        }
    });
    newest == Some(cols.to_string().as_str())
}

#[test]
fn a_shell_line_is_whole_after_a_full_screen_program_quits_in_a_resized_window() {
    let mut tw = Tilework::start(&[], 20, 82);
    tw.wait_for("a shell prompt", |s| s.contents().contains("$ "));
    tw.type_line("printf 'L%03d' $(seq 1 42); echo EN");
    tw.wait_for("the line", |s| s.contents().contains("L042EN"));
    // A full-screen program (the alternate screen) that prints its size
    // until a key ends it, like vim left open while the window changes.
    tw.type_line(
        "printf '\\033[?1049h'; (while :; do stty size </dev/tty; sleep 0.05; done) & \
         read x; kill $!; printf '\\033[?1049l'",
    );
    tw.wait_for("the program at 80 columns", |s| shows_width(s, 80));
    tw.resize(20, 52);
    tw.wait_for("the program at 50 columns", |s| shows_width(s, 50));
    tw.resize(20, 82);
    tw.wait_for("the program at 80 columns again", |s| shows_width(s, 80));
    tw.send("\r");
    // Back on the shell's screen: the line laid out at 80 columns again,
    // not cut where the pane was 50 wide.
    tw.wait_for("the line whole at the wide width", |s| {
        row_with(s, "L001").is_some_and(|(r, t)| {
            t.contains("L020") && row_with(s, "L042EN").is_some_and(|(last, _)| last == r + 2)
        })
    });
}

#[test]
fn a_history_too_short_to_hold_the_screen_is_resized_not_replayed() {
    // A 16-byte scrollback holds less than the screen shows: a replay from
    // it would blank the screen, so the pane is resized as vt100 does.
    let bytes = b"first line\r\nsecond line\r\n$ ";
    let mut pane = Pane::detached(PaneId(1), 4, 20, 16);
    pane.feed(bytes.to_vec());
    pane.resize(4, 12);
    let mut expected = reference(4, 20, bytes);
    expected
        .screen_mut()
        .set_size(NonZeroU16::new(4).unwrap(), NonZeroU16::new(12).unwrap());
    assert_same_screen(&mut pane, expected.screen());
}

#[test]
fn a_reset_after_the_alternate_screen_and_a_resize_shows_what_follows_it() {
    // Found by tests/fuzz_pane.rs: a 1-byte scrollback, the alternate
    // screen, a resize, then `ESC c ok`: the replay from the ring left "".
    let mut pane = Pane::detached(PaneId(1), 4, 8, 1);
    pane.feed(b"\x1b[?47h".to_vec());
    pane.resize(2, 4);
    pane.feed(b"\x1bcok".to_vec());
    pane.settle();
    assert_eq!(pane.screen().contents_between(0, 0, 0, 4), "ok");
}

/// 54 CJK characters (108 columns), each position recognisable.
fn cjk_line() -> String {
    (0..54u32)
        .map(|i| char::from_u32(0x4e00 + i * 7).unwrap())
        .collect()
}

#[test]
fn a_line_of_wide_characters_narrowed_twice_and_widened_back_is_whole_again() {
    let bytes = format!("$ cat cjk\r\n{}\r\n$ ", cjk_line()).into_bytes();
    let mut pane = Pane::detached(PaneId(1), 8, 80, 1 << 20);
    pane.feed(bytes.clone());
    for cols in [61, 33, 80] {
        pane.resize(8, cols);
        pane.settle();
    }
    let expected = reference(8, 80, &bytes);
    assert_same_screen(&mut pane, expected.screen());
    // Whole again: its first row holds 40 of its characters (80 columns).
    let first = pane.screen().contents_between(1, 0, 1, 80);
    assert_eq!(first, cjk_line().chars().take(40).collect::<String>());
}
