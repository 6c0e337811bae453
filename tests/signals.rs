//! Signals between programs and the user's terminal (issue 46), end to
//! end: in-band resize reports (mode 2048).

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::Tilework;

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
