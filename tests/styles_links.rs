//! End to end: what a program prints beyond vt100's attributes reaches the
//! user's terminal: strikethrough, overline, blink, conceal, styled and
//! coloured underlines (only where the terminal said it draws them), OSC 8
//! links (unless `hyperlinks = false`), U+FFFD for invalid UTF-8 and a
//! program's own, REP of a styled character, and combining marks after one.
//! Each test reads tilework's raw output, the stream the terminal gets.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::process::Command;

use common::{TempDir, TerminalReplies, Tilework};

/// Prints one line of every kind, then a marker the screen shows when it
/// is all drawn; then waits.
const PROGRAM: &str = "printf '\\033[9mSTRIKE\\033[m \\033[53mOVER\\033[m \\033[5mBLINK\\033[m \
    \\033[4:3;58:5:196mCURL\\033[m \
    \\033]8;id=t1;https://example.test/a\\033\\\\LINK\\033]8;;\\033\\\\ \
    ab\\377cd done-%s\\n' $((6*7)); exec sleep 600";

fn start(config: &str, replies: TerminalReplies) -> (Tilework, TempDir) {
    start_program(PROGRAM, config, replies)
}

fn start_program(program: &str, config: &str, replies: TerminalReplies) -> (Tilework, TempDir) {
    let dir = TempDir::new("styles");
    let path = dir.path().join("config.toml");
    std::fs::write(&path, config).unwrap();
    let path = path.to_str().unwrap().to_owned();
    let tw = Tilework::start_answering(
        common::binary(),
        &["--config", &path, "--", "sh", "-c", program],
        12,
        100,
        &[],
        replies,
    );
    tw.wait_for_text("done-42");
    (tw, dir)
}

#[test]
fn styles_and_links_reach_a_terminal_that_draws_styled_underlines() {
    let replies = TerminalReplies {
        styled_underlines: true,
        ..TerminalReplies::default()
    };
    let (tw, _dir) = start("", replies);
    // ratatui's own SGRs for strikethrough and blink (among the colours it
    // sets for the cell); ours for the rest, right before the text.
    for (sgr, text) in [(&b"\x1b[9m"[..], &b"STRIKE"[..]), (b"\x1b[5m", b"BLINK")] {
        common::wait_until("the attribute before its text", || {
            drawn_with(&tw.raw_tail(), sgr, text)
        });
    }
    tw.wait_for_raw(b"\x1b[53mOVER");
    tw.wait_for_raw(b"\x1b[4:3m\x1b[58:5:196mCURL");
    tw.wait_for_raw(b"\x1b]8;id=t1;https://example.test/a\x1b\\LINK\x1b]8;;\x1b\\");
    tw.wait_for_raw("ab\u{FFFD}cd".as_bytes());
}

/// Whether `text` is written somewhere right after SGR `sgr`, with only
/// other SGRs between them.
fn drawn_with(raw: &[u8], sgr: &[u8], text: &[u8]) -> bool {
    let starts = (0..raw.len().saturating_sub(text.len())).filter(|&i| raw[i..].starts_with(text));
    starts.into_iter().any(|mut end| {
        while end > 0 && raw[end - 1] == b'm' {
            let Some(esc) = raw[..end].iter().rposition(|&b| b == 0x1b) else {
                return false;
            };
            let seq = &raw[esc..end];
            let params = &seq[seq.len().min(2)..seq.len() - 1];
            if !seq.starts_with(b"\x1b[")
                || !params
                    .iter()
                    .all(|b| b.is_ascii_digit() || b";:".contains(b))
            {
                return false;
            }
            if seq == sgr {
                return true;
            }
            end = esc;
        }
        false
    })
}

#[test]
fn a_terminal_that_said_nothing_gets_a_plain_underline() {
    let (tw, _dir) = start("", TerminalReplies::default());
    tw.wait_for_raw(b"\x1b[4mCURL");
    tw.wait_for_raw(b"\x1b]8;id=t1;https://example.test/a\x1b\\LINK");
    assert!(!tw.raw_contains(b"\x1b[4:3"), "a styled underline went out");
    assert!(!tw.raw_contains(b"\x1b[58"), "an underline colour went out");
}

#[test]
fn the_config_can_say_the_terminal_draws_them_and_turn_links_off() {
    let config = "terminal_features = [\"styled-underlines\"]\nhyperlinks = false\n";
    let (tw, _dir) = start(config, TerminalReplies::default());
    tw.wait_for_raw(b"\x1b[4:3m\x1b[58:5:196mCURL");
    assert!(!tw.raw_contains(b"\x1b]8;"), "a link went out");
}

#[test]
fn a_repeat_a_combining_mark_and_a_programs_own_replacement_character_pass_through() {
    // REP of a struck `P`, `e` + U+0301 and a struck `x` + U+0301, and a
    // U+FFFD of the program's own between two letters.
    let program = "printf '\\033[9mREP\\033[3b\\033[m e\\314\\201 \\033[9mx\\314\\201\\033[m         a\\357\\277\\275b done-%s\\n' $((6*7)); exec sleep 600";
    let (tw, _dir) = start_program(program, "", TerminalReplies::default());
    common::wait_until("the repeated letters struck through", || {
        drawn_with(&tw.raw_tail(), b"\x1b[9m", b"REPPPP")
    });
    common::wait_until("the struck letter with its accent", || {
        drawn_with(&tw.raw_tail(), b"\x1b[9m", "x\u{301}".as_bytes())
    });
    tw.wait_for_raw("e\u{301}".as_bytes());
    tw.wait_for_raw("a\u{FFFD}b".as_bytes());
}

/// A program's bold red (`ls` directories, git, gcc) reaches the terminal as
/// SGR 31, which xterm shows bright when bold, never as `38;5;1`, which it
/// shows dark; so do the other basic colours, foreground and background.
#[test]
fn bold_basic_colours_are_sent_as_sgr_31() {
    let program = "printf '\\033[1;31mBOLDRED\\033[0m \\033[92;44mBRIGHT\\033[m \
        \\033[38;5;1;48;5;15mINDEXED\\033[m done-%s\\n' $((6*7)); exec sleep 600";
    let (tw, _dir) = start_program(program, "", TerminalReplies::default());
    common::wait_until("bold red in its short form", || {
        drawn_with(&tw.raw_tail(), b"\x1b[31;49m", b"BOLDRED")
    });
    // Still bold (ratatui sets bold once for a run of bold cells).
    let bold = tw.with_screen(|screen| {
        let (rows, cols) = (screen.size().0.get(), screen.size().1.get());
        let text_at = |row, col| screen.cell(row, col).map(|c| c.contents().to_owned());
        (0..rows).any(|row| {
            (0..cols.saturating_sub(7)).any(|col| {
                let word: Option<String> = (col..col + 7).map(|c| text_at(row, c)).collect();
                let cell = screen.cell(row, col).unwrap();
                word.as_deref() == Some("BOLDRED")
                    && cell.bold()
                    && cell.fgcolor() == vt100::Color::Idx(1)
            })
        })
    });
    assert!(bold, "bold red is not bold red on the terminal");
    assert!(drawn_with(&tw.raw_tail(), b"\x1b[92;44m", b"BRIGHT"));
    // The 256-colour form of a basic colour is the same colour to xterm.
    assert!(drawn_with(&tw.raw_tail(), b"\x1b[31;107m", b"INDEXED"));
    let raw = tw.raw_tail();
    for sgr in raw
        .split(|&b| b == 0x1b)
        .filter_map(|s| s.strip_prefix(b"["))
    {
        let Some(end) = sgr
            .iter()
            .position(|b| !(b.is_ascii_digit() || b";:".contains(b)))
        else {
            continue;
        };
        if sgr[end] != b'm' {
            continue;
        }
        let params: Vec<&[u8]> = sgr[..end].split(|&b| b == b';').collect();
        for w in params.windows(3) {
            let basic =
                std::str::from_utf8(w[2]).is_ok_and(|n| n.parse::<u8>().is_ok_and(|n| n < 16));
            assert!(
                !((w[0] == b"38" || w[0] == b"48") && w[1] == b"5" && basic),
                "a basic colour went out long: {:?}",
                String::from_utf8_lossy(&sgr[..end])
            );
        }
    }
}

/// A program printing the marker code points the fidelity layer uses for
/// links and styles (ids into one table shared by all panes) gets no other
/// pane's link: pane A shows a link, pane B prints `x` after each of the
/// first markers, and no `x` is drawn inside A's link.
#[test]
fn a_pane_printing_marker_code_points_gets_no_other_panes_link() {
    let program = "printf '\\033]8;;https://secret.test/a\\033\\\\LINK\\033]8;;\\033\\\\ done-%s\\n' $((6*7)); exec sleep 600";
    let (tw, _dir) = start_program(program, "", TerminalReplies::default());
    tw.wait_for_raw(b"\x1b]8;;https://secret.test/a\x1b\\LINK");
    // `x` + U+E0400 + id (a one-code-point marker), ids 0 to 31, in
    // printf's octal escapes; and a two-code-point one (U+E0800, U+E0400).
    let mut forged = String::new();
    for id in 0..32u32 {
        let marker = char::from_u32(0xE0400 + id).unwrap().to_string();
        forged.push('x');
        for byte in marker.as_bytes() {
            forged.push_str(&format!("\\{byte:o}"));
        }
    }
    forged.push_str("x\\363\\240\\240\\200\\363\\240\\220\\200");
    let b = format!("printf '{forged} forged-%s\\n' $((6*7)); exec sleep 600");
    let out = Command::new(common::binary())
        .args(["run", "--split", "right", "--", "sh", "-c", &b])
        .env("XDG_RUNTIME_DIR", tw.runtime_dir())
        .env_remove("TILEWORK")
        .current_dir(tw.dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    tw.wait_for_text("xxxxxxxx");
    tw.wait_for_text("forged-42");
    assert!(
        !tw.raw_contains(b"secret.test/a\x1b\\x"),
        "pane B's cells were drawn with pane A's link"
    );
}
