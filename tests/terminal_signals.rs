//! Signals between programs and the user's terminal (issue 46), end to
//! end: in-band resize reports (mode 2048), light/dark theme reports
//! (mode 2031).

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::{TerminalReplies, Tilework};

const ROWS: u16 = 24;
const COLS: u16 = 80;

/// A program that turns on in-band resize reports (`CSI ? 2048 h`), then
/// shows every byte it is sent (`cat -v`, the terminal raw).
const REPORTER: &str =
    "stty raw -echo; printf '\\033[?2048h'; echo reporting-$((6*7)); exec cat -v";

/// neovim's way to hear of a resize: `CSI 48 ; rows ; cols ; height ;
/// width t` on every resize of its pane, here a border dragged.
#[test]
fn a_border_drag_sends_the_in_band_resize_report() {
    let mut tw = Tilework::start(&["-c", "exec cat", "-c", REPORTER], ROWS, COLS);
    tw.wait_for_text("reporting-42");
    // The border between the panes is at columns 39/40; drag it to 20.
    tw.send("\x1b[<0;41;5M\x1b[<32;30;5M\x1b[<32;21;5M\x1b[<0;21;5m");
    // The right pane is then 57 columns wide (see `workspace.rs`'s drag
    // test) and as tall as before.
    let report = format!("^[[48;{};57;", ROWS - 3);
    tw.wait_for("the report of the new size", |s| {
        s.contents().contains(&report)
    });
    let shown = tw.screen_text();
    let at = shown.find(&report).unwrap();
    let rest = &shown[at + report.len()..];
    let fields: Vec<&str> = rest.split('t').next().unwrap().split(';').collect();
    assert_eq!(fields.len(), 2, "{rest:?}");
    // Pixels: the cells times a cell's size, whatever the terminal said.
    let height: u32 = fields[0].parse().unwrap();
    let width: u32 = fields[1].parse().unwrap();
    assert!(height.is_multiple_of(u32::from(ROWS - 3)) && width.is_multiple_of(57));
    assert!(height > 0 && width > 0);
}

/// A program that subscribes to theme reports (`CSI ? 2031 h`), asks the
/// theme (`CSI ? 996 n`), then shows every byte it is sent.
const THEME_WATCHER: &str = "stty raw -echo; printf '\\033[?2031h\\033[?996n'; \
    echo watching-$((6*7)); exec cat -v";

/// The user's terminal switches from dark to light while attached (as
/// ghostty, kitty and contour report it): tilework subscribed it, and the
/// pane whose program subscribed hears the change.
#[test]
fn a_theme_change_while_attached_reaches_a_subscribed_program() {
    let replies = TerminalReplies {
        background: Some("rgb:1e1e/1e1e/2e2e"),
        ..TerminalReplies::default()
    };
    let mut tw = Tilework::start_answering(
        common::binary(),
        &["-c", THEME_WATCHER],
        ROWS,
        COLS,
        &[],
        replies,
    );
    tw.wait_for_text("watching-42");
    assert!(
        tw.raw_contains(b"\x1b[?2031h"),
        "the terminal was not subscribed"
    );
    // Asked before any report came: judged by the background (dark).
    tw.wait_for("the theme answered from the background", |s| {
        s.contents().contains("^[[?997;1n")
    });
    tw.send("\x1b[?997;2n");
    tw.wait_for("the change to light told", |s| {
        s.contents().contains("^[[?997;1n^[[?997;2n")
    });
}
