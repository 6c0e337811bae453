//! End-to-end: floating panes over the tiled layout.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::Tilework;

/// `C-b w` opens a scratch shell floating over the pane, keys go to it,
/// its program gets the float's size; `C-b w` hides and shows it again;
/// when it exits, the tiled pane has the focus back.
#[test]
fn a_scratch_shell_floats_and_hides() {
    let mut tw = Tilework::start(&["--", "sh"], 24, 80);
    tw.wait_for_text("$ ");
    tw.type_line("echo under");
    tw.wait_for_text("under");
    tw.send("\x02w");
    // 4/5 of the 80x23 pane area, centred: a rounded box at (8, 2).
    tw.wait_for("the floating pane", |s| {
        s.contents_between(2, 8, 2, 9) == "╭"
    });
    tw.wait_for("its prompt", |s| {
        s.contents_between(3, 9, 3, 11).starts_with('$')
    });
    tw.type_line("stty size");
    tw.wait_for_text("16 62");
    tw.send("\x02w");
    tw.wait_for("it hidden", |s| !s.contents().contains('╭'));
    tw.type_line("echo tiled");
    tw.wait_for_text("tiled");
    tw.send("\x02w");
    tw.wait_for("it back", |s| s.contents_between(2, 8, 2, 9) == "╭");
    tw.wait_for_text("16 62");
    tw.type_line("exit");
    tw.wait_for("it gone", |s| !s.contents().contains('╭'));
    tw.type_line("echo back");
    tw.wait_for_text("back");
    tw.type_line("exit");
    tw.wait_exit();
}
