//! Terminal fidelity (issue 12): the sequences vt100 lacks, completed by
//! the layer in front of it (`src/pane/fidelity.rs`), and the queries it
//! answers.
//!
//! Each test feeds a pane (`Pane::detached`: the real pipeline of the live
//! screen, fast-forward included, with no PTY) and compares its screen
//! with the screen a correct terminal (xterm, and where it applies the
//! screens vttest expects) shows, written out row by row. A `·` in an
//! expected screen is an empty cell.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::num::NonZeroU16;

use common::{TempDir, Tilework};

use tilework::pane::term::fidelity::Fidelity;
use tilework::pane::term::fidelity::answers::Rgb;
use tilework::pane::term::screen::{Attrs, Colour};
use tilework::pane::term::terminal_queries::PaneEvents;
use tilework::pane::{Pane, PaneId};

/// A pane of `rows` × `cols` after `output`, fed in one piece and then
/// again a byte at a time: the screens must agree (sequences cut anywhere
/// are followed).
fn pane_after(rows: u16, cols: u16, output: &[u8]) -> Pane {
    let mut whole = Pane::detached(PaneId(1), rows, cols, 1 << 20);
    whole.feed(output.to_vec());
    whole.settle();
    let mut bytewise = Pane::detached(PaneId(2), rows, cols, 1 << 20);
    for &b in output {
        bytewise.feed(vec![b]);
    }
    bytewise.settle();
    assert_eq!(
        shown(&whole),
        shown(&bytewise),
        "fed whole and a byte at a time"
    );
    assert_eq!(
        whole.term().screen().cursor_position(),
        bytewise.term().screen().cursor_position()
    );
    whole
}

/// The screen, one string a row, `·` for an empty cell.
fn shown(pane: &Pane) -> Vec<String> {
    let screen = pane.term().screen();
    let (rows, cols) = (screen.size().0.get(), screen.size().1.get());
    (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| {
                    let cell = screen.cell(r, c).unwrap();
                    if cell.is_wide_continuation() {
                        String::new()
                    } else if cell.has_contents() {
                        cell.contents().to_string()
                    } else {
                        "·".to_string()
                    }
                })
                .collect()
        })
        .collect()
}

fn screen_after(rows: u16, cols: u16, output: &[u8]) -> Vec<String> {
    shown(&pane_after(rows, cols, output))
}

#[test]
fn dec_special_graphics_draw_boxes_with_g0_and_with_shift_out() {
    assert_eq!(
        screen_after(3, 8, b"\x1b(0lqqk\r\nx  x\r\nmqqj\x1b(B ok"),
        ["┌──┐····", "│  │····", "└──┘ ok·"]
    );
    // G1 through SO, back to ASCII with SI; the set stays designated.
    assert_eq!(
        screen_after(2, 12, b"\x1b)0\x0elqk\x0f lqk\r\n\x0etuvwxn~a`\x0f"),
        ["┌─┐ lqk·····", "├┤┴┬│┼·▒◆···"]
    );
    // The UK set turns # into £; RIS brings ASCII back.
    assert_eq!(
        screen_after(2, 6, b"\x1b(A#1\r\n\x1bc#2"),
        ["#2····", "······"]
    );
    assert_eq!(screen_after(2, 6, b"\x1b(A#1"), ["£1····", "······"]);
}

#[test]
fn a_box_keeps_its_lines_through_a_flood_the_fast_forward_skips() {
    // Shifted out before a flood whose start is dropped unparsed: the shift
    // must survive the cut.
    let mut flood = b"\x1b)0\x0e".to_vec();
    for _ in 0..300 {
        flood.extend_from_slice(b"lqk\r\n");
    }
    flood.extend_from_slice(b"mqj");
    let mut pane = Pane::detached(PaneId(1), 4, 5, 1 << 20);
    pane.feed(flood.clone());
    pane.settle();
    assert!(
        pane.term().bytes_skipped() > 0,
        "the flood was fast-forwarded"
    );
    assert_eq!(shown(&pane), ["┌─┐··", "┌─┐··", "┌─┐··", "└─┘··"]);
    // And shifted in inside the dropped part: ASCII after it.
    let mut mixed = flood;
    mixed.extend_from_slice(b"\r\n\x0f");
    for _ in 0..300 {
        mixed.extend_from_slice(b"lqk\r\n");
    }
    let mut pane = Pane::detached(PaneId(1), 4, 5, 1 << 20);
    pane.feed(mixed);
    pane.settle();
    assert!(pane.term().bytes_skipped() > 0);
    assert_eq!(shown(&pane), ["lqk··", "lqk··", "lqk··", "·····"]);
}

#[test]
fn cursor_save_and_restore_with_csi_s_and_u() {
    assert_eq!(
        screen_after(3, 8, b"abc\x1b[s\x1b[3;4Hxyz\x1b[uD"),
        ["abcD····", "········", "···xyz··"]
    );
}

#[test]
fn index_and_next_line_move_down_and_scroll_at_the_bottom() {
    assert_eq!(
        screen_after(3, 5, b"ab\x1bDc\x1bEd"),
        ["ab···", "··c··", "d····"]
    );
    // IND on the bottom row scrolls, keeping the column.
    assert_eq!(screen_after(2, 4, b"a\r\nb\x1bDc"), ["b···", "·c··"]);
}

#[test]
fn soft_reset_restores_modes_but_keeps_the_cursor_and_screen() {
    let pane = pane_after(
        3,
        8,
        b"keep\x1b[4h\x1b[?7l\x1b(0\x1b[1;31m\x1b[2;3r\x1b[3;5H\x1b[!pq\r\nnext",
    );
    // After DECSTR: `q` is a `q` (ASCII) at the cursor, in plain attributes,
    // and the region is gone (the line feed at the bottom scrolls the whole
    // screen).
    assert_eq!(shown(&pane), ["········", "····q···", "next····"]);
    let cell = pane.term().screen().cell(1, 4).unwrap().style();
    assert!(!cell.has(Attrs::BOLD));
    assert_eq!(cell.fg, Colour::Default);
    let modes = pane.term().modes();
    assert!(!modes.insert && modes.autowrap);
}

#[test]
fn alternate_screen_1047_is_cleared_on_leaving_and_1048_saves_the_cursor() {
    assert_eq!(
        screen_after(2, 6, b"main\x1b[?1047halt\x1b[?1047l"),
        ["main··", "······"]
    );
    // Back on the alternate screen: it was cleared when left.
    assert_eq!(
        screen_after(2, 6, b"main\x1b[?1047halt\x1b[?1047l\x1b[?1047h"),
        ["······", "······"]
    );
    assert_eq!(
        screen_after(2, 6, b"ab\x1b[?1048h\x1b[2;5Hx\x1b[?1048lc"),
        ["abc···", "····x·"]
    );
}

#[test]
fn screen_alignment_fills_the_screen_with_e_and_homes_the_cursor() {
    // vttest 1: "the screen should be filled with E's".
    let pane = pane_after(3, 4, b"\x1b[2;3rold\x1b[44m\x1b#8");
    assert_eq!(shown(&pane), ["EEEE", "EEEE", "EEEE"]);
    assert_eq!(pane.term().screen().cursor_position(), (0, 0));
    // The E's have the default attributes; the current ones stay.
    assert_eq!(
        pane.term().screen().cell(2, 3).unwrap().bg(),
        Colour::Default
    );
    assert_eq!(pane.term().screen().pen().bg, Colour::Indexed(4));
}

#[test]
fn tab_stops_can_be_set_cleared_and_crossed_both_ways() {
    // vttest 1's tab test: clear all, set every third column, tab across.
    let mut out = b"\x1b[3g".to_vec();
    for col in (1..=16).step_by(3) {
        out.extend_from_slice(format!("\x1b[1;{col}H\x1bH").as_bytes());
    }
    out.extend_from_slice(b"\r\t*\t*\t*\r\n\t\t+");
    // Clear the stop at column 7 (index 6), tab from 0 twice.
    out.extend_from_slice(b"\x1b[1;7H\x1b[g\x1b[3;1H\t\t-");
    assert_eq!(
        screen_after(3, 16, &out),
        ["···*··*··*······", "······+·········", "·········-······"]
    );
    // CHT and CBT with the default stops, and a tab past the last stop.
    assert_eq!(
        screen_after(2, 20, b"\x1b[2Ia\x1b[2Zb\r\n\x1b[5I\x1b[3Dc"),
        ["········b·······a···", "················c···"]
    );
    // Clearing every stop: a tab goes to the last column.
    assert_eq!(
        screen_after(2, 10, b"\x1b[3g\tx"),
        ["·········x", "··········"]
    );
}

#[test]
fn insert_mode_pushes_the_row_right() {
    // The issue's case: XY typed before `ab` gives `XYab`.
    assert_eq!(
        screen_after(2, 8, b"ab\r\x1b[4hXY\x1b[4lZ"),
        ["XYZb····", "········"]
    );
    // Characters pushed past the last column are lost; a wide one inserts
    // two cells.
    assert_eq!(
        screen_after(2, 6, "abcdef\r\x1b[4hX字".as_bytes()),
        ["X字abc", "······"]
    );
}

#[test]
fn without_autowrap_text_stays_on_its_row_and_the_last_column_is_overwritten() {
    let pane = pane_after(2, 5, b"\x1b[?7labcdefgh");
    assert_eq!(shown(&pane), ["abcdh", "·····"]);
    // Auto-wrap back on: as in xterm, the cursor was in the last column,
    // not past it, so the next character lands there (and the one after
    // wraps).
    assert_eq!(
        screen_after(2, 5, b"\x1b[?7labcdefgh\x1b[?7hij"),
        ["abcdi", "j····"]
    );
    assert_eq!(
        screen_after(2, 5, "\x1b[?7labcd字".as_bytes()),
        ["abc字", "·····"]
    );
}

#[test]
fn colon_truecolour_styled_underlines_and_underline_colours_read_right() {
    let pane = pane_after(
        2,
        8,
        b"\x1b[38:2::10:20:30mA\x1b[0;48:2::1:2:3mB\x1b[0;4:3mC\x1b[0;21mD\x1b[0;58;2;1;2;3mE\x1b[4:0mF",
    );
    let cell = |c| pane.term().screen().cell(0, c).unwrap().style();
    assert_eq!(cell(0).fg, Colour::Rgb(10, 20, 30));
    assert_eq!(cell(1).bg, Colour::Rgb(1, 2, 3));
    assert!(cell(2).is_underlined(), "curly underline");
    assert!(cell(3).is_underlined(), "double underline");
    // `58;2;1;2;3` is an underline colour, not dim and bold.
    assert!(!cell(4).has(Attrs::DIM) && !cell(4).has(Attrs::BOLD) && !cell(4).is_underlined());
    assert!(!cell(5).is_underlined());
}

#[test]
fn inserted_and_scrolled_in_lines_take_the_background_colour() {
    let pane = pane_after(4, 3, b"aaa\r\nbbb\r\nccc\x1b[2;1H\x1b[44m\x1b[L\x1b[m");
    assert_eq!(shown(&pane), ["aaa", "···", "bbb", "ccc"]);
    let bg = |r, c| pane.term().screen().cell(r, c).unwrap().bg();
    assert_eq!(bg(1, 0), Colour::Indexed(4));
    assert_eq!(bg(1, 2), Colour::Indexed(4));
    assert_eq!(bg(2, 0), Colour::Default, "moved rows keep theirs");
    assert_eq!(pane.term().screen().cursor_position(), (1, 0));
    // SU in a region fills the rows it brings in; the cursor stays.
    let pane = pane_after(4, 3, b"\x1b[2;3r\x1b[4;2H\x1b[41m\x1b[2S");
    let bg = |r, c| pane.term().screen().cell(r, c).unwrap().bg();
    assert_eq!(
        [bg(0, 0), bg(1, 0), bg(2, 0), bg(3, 0)],
        [
            Colour::Default,
            Colour::Indexed(1),
            Colour::Indexed(1),
            Colour::Default
        ]
    );
    assert_eq!(pane.term().screen().cursor_position(), (3, 1));
}

/// xterm's background colour erase: a row LF scrolls in at the bottom of
/// the region, or RI at its top, takes the current background; an LF that
/// only moves down, and rows already there, keep theirs.
#[test]
fn rows_scrolled_in_by_lf_and_ri_take_the_background_colour() {
    let pane = pane_after(3, 3, b"a\r\nb\x1b[44m\r\nc\r\nd\x1b[m");
    assert_eq!(shown(&pane), ["b··", "c··", "d··"]);
    let bg = |pane: &Pane, r| pane.term().screen().cell(r, 2).unwrap().bg();
    assert_eq!(bg(&pane, 0), Colour::Default, "the LF that only moved down");
    assert_eq!(bg(&pane, 1), Colour::Default, "moved down, not scrolled in");
    assert_eq!(bg(&pane, 2), Colour::Indexed(4));
    // RI at the top of a region; VT and FF, which xterm reads as LF, at
    // its bottom.
    let rows_of = |pane: &Pane| -> Vec<Colour> { (0..4).map(|r| bg(pane, r)).collect() };
    let pane = pane_after(4, 3, b"\x1b[2;3r\x1b[2;1H\x1b[41m\x1bM\x1b[m");
    let red = Colour::Indexed(1);
    assert_eq!(
        rows_of(&pane),
        [Colour::Default, red, Colour::Default, Colour::Default]
    );
    assert_eq!(pane.term().screen().cursor_position(), (1, 0));
    for feed in [b"\x0b", b"\x0c"] {
        let output = [&b"\x1b[2;3r\x1b[3;1H\x1b[41m"[..], feed, b"\x1b[m"].concat();
        let pane = pane_after(4, 3, &output);
        assert_eq!(
            rows_of(&pane),
            [Colour::Default, Colour::Default, red, Colour::Default]
        );
        assert_eq!(pane.term().screen().cursor_position(), (2, 0));
    }
    // A foreground from the 256 colours is no background.
    let pane = pane_after(2, 3, b"a\r\n\x1b[38;5;44m\r\nb");
    assert_eq!(bg(&pane, 1), Colour::Default);
}

/// xterm's screens share one cursor: `?47` and `?1047` switch screens with
/// the cursor where it was (only `?1049` saves and restores it).
#[test]
fn the_alternate_screen_shares_the_cursor_with_the_main_one() {
    assert_eq!(
        screen_after(3, 6, b"main\x1b[2;3H\x1b[?47hX\x1b[3;5H\x1b[?47lY"),
        ["main··", "······", "····Y·"]
    );
    assert_eq!(
        screen_after(3, 6, b"main\x1b[2;3H\x1b[?1047hX"),
        ["······", "··X···", "······"]
    );
    assert_eq!(
        screen_after(3, 6, b"main\x1b[?1047h\x1b[3;2H\x1b[?1047lY"),
        ["main··", "······", "·Y····"]
    );
}

/// `CSI ? 66 h` is DECNKM, the keypad's application mode, as `ESC =`.
#[test]
fn keypad_application_mode_66_is_kept_and_reported() {
    assert_eq!(answers_to(b"\x1b[?66h\x1b[?66$p"), "\x1b[?66;1$y");
    assert_eq!(answers_to(b"\x1b[?66h\x1b[?66l\x1b[?66$p"), "\x1b[?66;2$y");
    let pane = pane_after(2, 4, b"\x1b[?66h");
    assert!(pane.term().screen().application_keypad());
}

/// A parser as a pane's, fed through a live layer; returns the answers.
fn answers_to(output: &[u8]) -> String {
    answers_with_colours_to([None; 3], output)
}

/// What a pane whose user's terminal has `colours` answers to `output`.
fn answers_with_colours_to(colours: [Option<Rgb>; 3], output: &[u8]) -> String {
    let mut parser = vt100::Parser::new_with_callbacks(
        NonZeroU16::new(24).unwrap(),
        NonZeroU16::new(80).unwrap(),
        0,
        PaneEvents::default(),
    );
    let mut layer = Fidelity::live();
    layer.set_terminal_colours(colours);
    layer.process(&mut parser, output).unwrap();
    String::from_utf8(std::mem::take(&mut parser.callbacks_mut().replies)).unwrap()
}

#[test]
fn decrqm_answers_the_modes_tilework_tracks_in_query_order() {
    assert_eq!(
        answers_to(b"\x1b[?2004h\x1b[?2004$p\x1b[?1049$p\x1b[c"),
        "\x1b[?2004;1$y\x1b[?1049;2$y\x1b[?1;2c"
    );
    assert_eq!(
        answers_to(b"\x1b[?1004h\x1b[?1004$p\x1b[?7l\x1b[?7$p\x1b[?25l\x1b[?25$p"),
        "\x1b[?1004;1$y\x1b[?7;2$y\x1b[?25;2$y"
    );
    assert_eq!(
        answers_to(b"\x1b[?1000h\x1b[?1006h\x1b[?1000$p\x1b[?1003$p\x1b[?1006$p"),
        "\x1b[?1000;1$y\x1b[?1003;2$y\x1b[?1006;1$y"
    );
    // ANSI modes: insert mode; an unknown mode is "not recognised".
    assert_eq!(
        answers_to(b"\x1b[4h\x1b[4$p\x1b[?9999$p"),
        "\x1b[4;1$y\x1b[?9999;0$y"
    );
}

/// Programs ask before they wrap their redraws in synchronized updates.
#[test]
fn decrqm_says_synchronized_updates_are_known_and_whether_one_is_open() {
    assert_eq!(
        answers_to(b"\x1b[?2026$p\x1b[?2026h\x1b[?2026$p\x1b[?2026l\x1b[?2026$p"),
        "\x1b[?2026;2$y\x1b[?2026;1$y\x1b[?2026;2$y"
    );
    // RIS ends it.
    assert_eq!(
        answers_to(b"\x1b[?2026h\x1bc\x1b[?2026$p"),
        "\x1b[?2026;2$y"
    );
}

/// vt100 follows origin mode without telling it: the layer follows it too,
/// per grid and with the saved cursor, as vt100 keeps it.
#[test]
fn decrqm_answers_origin_mode() {
    assert_eq!(
        answers_to(b"\x1b[?6$p\x1b[?6h\x1b[?6$p\x1b[?6l\x1b[?6$p"),
        "\x1b[?6;2$y\x1b[?6;1$y\x1b[?6;2$y"
    );
    // Saved with the cursor; the alternate grid starts without it; DECSTR
    // and RIS end it.
    assert_eq!(
        answers_to(b"\x1b[?6h\x1b7\x1b[?6l\x1b8\x1b[?6$p\x1b[?1049h\x1b[?6$p\x1b[?1049l\x1b[?6$p"),
        "\x1b[?6;1$y\x1b[?6;2$y\x1b[?6;1$y"
    );
    assert_eq!(
        answers_to(b"\x1b[?6h\x1b[!p\x1b[?6$p\x1b[?6h\x1bc\x1b[?6$p"),
        "\x1b[?6;2$y\x1b[?6;2$y"
    );
}

#[test]
fn xtversion_names_tilework() {
    assert_eq!(
        answers_to(b"\x1b[>q"),
        format!("\x1bP>|tilework {}\x1b\\", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn kitty_keyboard_flags_are_kept_per_screen_and_answered() {
    assert_eq!(answers_to(b"\x1b[?u"), "\x1b[?0u");
    assert_eq!(answers_to(b"\x1b[>1u\x1b[>11u\x1b[?u"), "\x1b[?11u");
    assert_eq!(answers_to(b"\x1b[>1u\x1b[>11u\x1b[<u\x1b[?u"), "\x1b[?1u");
    assert_eq!(answers_to(b"\x1b[=5;1u\x1b[=2;2u\x1b[?u"), "\x1b[?7u");
    // The alternate screen has its own stack.
    assert_eq!(
        answers_to(b"\x1b[>1u\x1b[?1049h\x1b[?u\x1b[>8u\x1b[?1049l\x1b[?u"),
        "\x1b[?0u\x1b[?1u"
    );
    let pane = pane_after(2, 4, b"\x1b[>3u");
    assert_eq!(pane.term().keyboard_flags(), 3);
}

#[test]
fn colour_queries_get_the_users_terminal_colours_or_no_answer() {
    assert_eq!(answers_to(b"\x1b]11;?\x07"), "");
    let colours = [
        Some(Rgb(0xffff, 0xffff, 0xffff)),
        Some(Rgb(0x1e1e, 0x1e1e, 0x2e2e)),
        None,
    ];
    assert_eq!(
        answers_with_colours_to(colours, b"\x1b]11;?\x07"),
        "\x1b]11;rgb:1e1e/1e1e/2e2e\x07"
    );
    // `OSC 10;?;?` asks for 10 and 11; ST-terminated gets ST back; the
    // unknown cursor colour gets no answer.
    assert_eq!(
        answers_with_colours_to(colours, b"\x1b]10;?;?\x1b\\\x1b]12;?\x1b\\"),
        "\x1b]10;rgb:ffff/ffff/ffff\x1b\\\x1b]11;rgb:1e1e/1e1e/2e2e\x1b\\"
    );
}

#[test]
fn focus_event_mode_is_kept_for_the_pane() {
    let mut pane = pane_after(2, 4, b"\x1b[?1004h");
    assert!(pane.term().modes().focus_events);
    pane.feed(b"\x1b[?1004l".to_vec());
    assert!(!pane.term().modes().focus_events);
}

/// End to end: a program that asks for focus events hears the user's
/// terminal lose and regain the focus, and a tab switch away and back.
#[test]
fn a_program_that_asks_hears_focus_changes_end_to_end() {
    let script = "printf '\\033[?1004h'; stty -icanon -echo; echo ready-$((6*7)); exec cat -v";
    let mut tw = Tilework::start(&["--", "sh", "-c", script], 12, 60);
    // Not "ready" alone: the border title shows the command.
    tw.wait_for_text("ready-42");
    // The user's terminal reports focus changes (tilework turned them on).
    tw.send("\x1b[O");
    tw.wait_for_text("^[[O");
    tw.send("\x1b[I");
    tw.wait_for_text("^[[O^[[I");
    // A new tab takes the focus; going back gives it back.
    tw.send("\x02c");
    tw.wait_for("the second tab", |s| {
        s.contents_between(11, 0, 11, 60).contains("2:")
    });
    tw.send("\x021");
    tw.wait_for_text("^[[O^[[I^[[O^[[I");
}

/// End to end: a program asking for the background colour gets the one the
/// config names, and XTVERSION names tilework.
#[test]
fn a_program_asking_for_colours_and_the_version_gets_answers_end_to_end() {
    let dir = TempDir::new("colours");
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "terminal_background = \"#1e1e2e\"\n").unwrap();
    let script = "stty -icanon -echo; printf '\\033]11;?\\033\\\\\\033[>q'; exec cat -v";
    let config = config.to_str().unwrap();
    let tw = Tilework::start(&["--config", config, "--", "sh", "-c", script], 12, 70);
    tw.wait_for_text("^[]11;rgb:1e1e/1e1e/2e2e^[\\");
    tw.wait_for_text(&format!("^[P>|tilework {}^[\\", env!("CARGO_PKG_VERSION")));
}

/// End to end: a program that asked for the kitty keyboard protocol gets
/// Alt-x as `CSI 120;3u`, not as Esc then x; once it pops its flags, the
/// legacy form again.
#[test]
fn a_program_that_asks_for_kitty_keys_gets_them_end_to_end() {
    let script = "printf '\\033[>1u'; stty -icanon -echo; echo ready-$((6*7)); \
                  head -c 8 | od -An -c; printf '\\033[<u'; echo popped-$((6*7)); exec cat -v";
    let mut tw = Tilework::start(&["--", "sh", "-c", script], 12, 60);
    // Not "ready" alone: the border title shows the command.
    tw.wait_for_text("ready-42");
    tw.send("\x1bx");
    tw.wait_for_text("033   [   1   2   0   ;   3   u");
    tw.wait_for_text("popped-42");
    tw.send("\x1by");
    tw.wait_for_text("^[y");
}

/// End to end: dialog without `NCURSES_NO_UTF8_ACS` (as over `ssh` or
/// under `sudo`) draws its box with DEC special graphics; the pane shows
/// the lines, not `lqqk`.
#[test]
fn dialog_draws_its_box_with_dec_graphics_end_to_end() {
    if !common::require_program("dialog") {
        return;
    }
    let script = "env -u NCURSES_NO_UTF8_ACS dialog --msgbox hello-box 6 24";
    let tw = Tilework::start(&["--", "sh", "-c", script], 14, 50);
    tw.wait_for("dialog's box drawn with lines", |s| {
        let text = s.contents();
        text.contains("hello-box") && text.contains("┌──") && text.contains("──┘")
    });
    assert!(!tw.screen_text().contains("lqqq"), "{}", tw.screen_text());
}

/// A flood with auto-wrap off or in insert mode is still fast-forwarded,
/// and shows what the layer alone shows with every byte parsed; with tab
/// stops of its own, nothing is skipped (the count of rows cannot follow
/// them) and the screen is right too.
#[test]
fn floods_under_the_layers_modes_show_what_parsing_every_byte_shows() {
    let lines: Vec<u8> = (0..400)
        .flat_map(|i| {
            format!(
                "\x1b[3{}mline {i} with text long enough to wrap\tx\r\n",
                i % 8
            )
            .into_bytes()
        })
        .collect();
    for (setup, skips) in [
        (&b"\x1b[?7l"[..], true),
        (b"\x1b[4h", true),
        (b"\x1b[3g\x1b[1;5H\x1bH\r", false),
    ] {
        let output = [setup, &lines[..]].concat();
        let (rows, cols) = (6, 20);
        let mut reference = vt100::Parser::new(
            NonZeroU16::new(rows).unwrap(),
            NonZeroU16::new(cols).unwrap(),
            0,
        );
        Fidelity::unbounded()
            .process(&mut reference, &output)
            .unwrap();
        let mut pane = Pane::detached(PaneId(1), rows, cols, 1 << 20);
        for chunk in output.chunks(512) {
            pane.feed(chunk.to_vec());
        }
        pane.settle();
        assert_eq!(pane.term().bytes_skipped() > 0, skips, "{setup:?}");
        assert_eq!(
            pane.term().screen().contents_formatted(),
            reference.screen().contents_formatted(),
            "{setup:?}"
        );
        assert_eq!(
            pane.term().screen().cursor_position(),
            reference.screen().cursor_position()
        );
    }
}
