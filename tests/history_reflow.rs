//! End-to-end: the history views show output as a terminal that reflows
//! its grid does, as the live screen does since issue 30 part 1: a `\r`
//! progress bar or a zsh-style right prompt printed in a wide pane shows
//! once in `C-b PgUp`'s view, in copy mode and in `capture --history`
//! after the pane narrowed, not as a row for every redraw. (The rows are
//! checked against a model terminal in `reflow_ghosts.rs`.)

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::process::Command;

use common::{Tilework, row_has_both, rows_with};

/// The terminal's height; a pane is two columns narrower than it.
const ROWS: u16 = 20;

fn status_line(s: &vt100::Screen) -> String {
    s.contents_between(ROWS - 1, 0, ROWS - 1, s.size().1.get())
}

fn capture_history(tw: &Tilework) -> String {
    let out = Command::new(common::binary())
        .args(["capture", "--history"])
        .env("XDG_RUNTIME_DIR", tw.runtime_dir())
        .env_remove("TILEWORK")
        .current_dir(tw.dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "capture --history: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// A shell in a pane 120 columns wide that drew a progress bar for its
/// width (redrawn 21 times with `\r` and `CSI K`; `RDY` once it is done),
/// then 30 more lines, the last `END`, and was narrowed to 60 columns.
/// (The typed line spells none of what the tests look for.)
fn a_bar_printed_wide_then_narrowed() -> Tilework {
    let mut tw = Tilework::start(&[], ROWS, 122);
    tw.wait_for("a shell prompt", |s| s.contents().contains("$ "));
    common::print_wide_progress_bar(&mut tw);
    tw.resize(ROWS, 62);
    tw.wait_for("the pane at 60 columns", |s| {
        rows_with(s, "END") == 1 && s.cell(0, 61).is_some_and(|c| c.contents() == "┓")
    });
    tw
}

/// The bar once: its start on one row, its end on the next (it is wider
/// than 60 columns), `RDY` after it.
fn one_bar(s: &vt100::Screen) -> bool {
    rows_with(s, "downloading [") == 1
        && rows_with(s, "100% 1.2MB/s") == 1
        && !row_has_both(s, "downloading [", "1.2MB/s")
        && rows_with(s, "RDY") == 1
}

#[test]
fn a_progress_bar_printed_wide_shows_once_when_scrolled_back_in_a_narrower_pane() {
    let mut tw = a_bar_printed_wide_then_narrowed();
    // C-b PgUp, as far as it goes: the top of the history.
    for _ in 0..4 {
        tw.send("\x02\x1b[5~");
    }
    tw.wait_for("the bar once at the top of the scrolled view", one_bar);
}

#[test]
fn a_progress_bar_printed_wide_shows_once_in_copy_mode_in_a_narrower_pane() {
    let mut tw = a_bar_printed_wide_then_narrowed();
    tw.send("\x02[");
    tw.wait_for("copy mode", |s| status_line(s).contains("COPY"));
    tw.send("g");
    tw.wait_for("the bar once at the top of the history", one_bar);
    // Searching back for the bar finds the one there is.
    tw.send("G?downloading\r");
    tw.wait_for("the search at the bar", one_bar);
}

#[test]
fn capture_history_has_the_bar_once_as_one_line_after_narrowing() {
    let tw = a_bar_printed_wide_then_narrowed();
    let text = capture_history(&tw);
    // (Each redraw printed again at 60 columns went on the row the one
    // before wrapped onto: one line of copies.)
    assert_eq!(text.matches("downloading [").count(), 1, "{text}");
    let bars: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("downloading ["))
        .collect();
    assert!(bars[0].ends_with("] 100% 1.2MB/s"), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("downloading ["))
        .unwrap();
    assert_eq!(lines[at + 1], "RDY", "{text}");
    assert_eq!(lines[at + 2], "filler01", "{text}");
}

/// A zsh-style prompt three times in a pane 120 columns wide: `% `, a jump
/// right with `CSI n C` to draw the right prompt, back with `CSI n D`, a
/// command and its output; then narrowed to 60 columns.
fn right_prompts_printed_wide_then_narrowed() -> Tilework {
    let mut tw = Tilework::start(&[], ROWS, 122);
    tw.wait_for("a shell prompt", |s| s.contents().contains("$ "));
    tw.type_line(
        "r='[ma''in]'' 12:34:56'; for c in ls pwd id; do \
         printf '%% \\033[95C%s\\033[110D%s\\r\\nout-%s\\r\\n' \"$r\" $c $c; done; \
         echo E''ND",
    );
    tw.wait_for("three prompts", |s| {
        rows_with(s, "out-id") == 1 && rows_with(s, "END") == 1
    });
    tw.resize(ROWS, 62);
    tw.wait_for("the pane at 60 columns", |s| {
        rows_with(s, "END") == 1 && s.cell(0, 61).is_some_and(|c| c.contents() == "┓")
    });
    tw
}

/// Each prompt once: the command on its row, the right prompt on the next
/// (the line is wider than 60 columns), no piece of it anywhere else.
fn three_prompts(s: &vt100::Screen) -> bool {
    ["ls", "pwd", "id"]
        .iter()
        .all(|c| rows_with(s, &format!("% {c}")) == 1 && rows_with(s, &format!("out-{c}")) == 1)
        && rows_with(s, "[main] 12:34:56") == 3
        && rows_with(s, "in] 12:34:56") == 3
}

#[test]
fn a_right_prompt_printed_wide_shows_once_in_copy_mode_and_capture_in_a_narrower_pane() {
    let mut tw = right_prompts_printed_wide_then_narrowed();
    tw.send("\x02[");
    tw.wait_for("copy mode", |s| status_line(s).contains("COPY"));
    tw.send("g");
    tw.wait_for("each prompt once at the top of the history", three_prompts);
    let text = capture_history(&tw);
    for c in ["ls", "pwd", "id"] {
        let prompts: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with(&format!("% {c}")))
            .collect();
        assert_eq!(prompts.len(), 1, "{text}");
        assert!(prompts[0].ends_with("[main] 12:34:56"), "{text}");
    }
    assert_eq!(text.matches("in] 12:34:56").count(), 3, "{text}");
}
