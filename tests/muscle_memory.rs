//! A tmux user's muscle memory (issue 44 §5): copy mode's vi defaults and
//! the copy commands, `C-b =` drawn at typing speed and gone when it
//! closes, `C-b s` as tmux's choose-tree. Real binary, real PTY.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::Tilework;

const ROWS: u16 = 24;
const COLS: u16 = 80;

fn prompt(tw: &Tilework) {
    tw.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
}

fn status_line(s: &vt100::Screen) -> String {
    s.contents_between(ROWS - 1, 0, ROWS - 1, COLS)
}

/// Prints `word`, then copies that line in copy mode with tmux's vi keys:
/// `k` up onto it, `0`, `Space` to begin, `$`, `Enter` to copy and leave.
fn copy_the_line_above(tw: &mut Tilework, word: &str) {
    tw.type_line(&format!("clear; echo {word}"));
    tw.wait_for("the word alone on its line", |s| {
        s.contents()
            .lines()
            .any(|l| l.trim_matches(|c: char| c == '┃' || c == ' ') == word)
    });
    tw.send("\x02[");
    tw.wait_for("copy mode", |s| status_line(s).contains("COPY"));
    tw.send("k0 $\r");
    tw.wait_for("the copy said", |s| {
        status_line(s).contains(&format!("copied {} characters", word.len()))
    });
}

#[test]
fn space_then_enter_in_copy_mode_copies() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    prompt(&tw);
    copy_the_line_above(&mut tw, "grab-me-42");
    assert!(
        !tw.with_screen(|s| status_line(s).contains("COPY")),
        "left copy mode"
    );
    tw.send("\x02]");
    tw.wait_for("the copy pasted at the prompt", |s| {
        s.contents().contains("$ grab-me-42")
    });
}

/// `C-b =` typed at once (no which-key popup in between) draws the
/// chooser; Esc closes it and its frame leaves nothing behind.
#[test]
fn c_b_equals_draws_the_list_at_typing_speed_and_leaves_no_trace() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    prompt(&tw);
    copy_the_line_above(&mut tw, "buffer-one");
    tw.type_line("clear");
    tw.wait_for("a clear screen", |s| !s.contents().contains("buffer-one"));
    tw.send("\x02=");
    tw.wait_for("the chooser drawn", |s| {
        let text = s.contents();
        text.contains("paste buffers") && text.contains("buffer-one")
    });
    tw.send("\x1b");
    tw.wait_for("the chooser gone", |s| {
        let text = s.contents();
        !text.contains("paste buffers") && !text.contains("buffer-one")
    });
    tw.type_line("echo after-$((4*4))");
    tw.wait_for_text("after-16");
    assert!(!tw.screen_text().contains("paste buffers"));
}
