//! End-to-end: resize keys repeat without the prefix, as tmux's `bind -r`.
//! The real binary in a PTY; the focused pane runs `cat -v`, so a key that
//! reached the program shows on screen (`^[[1;5D` for `C-Left`), and pane
//! widths come from `tilework list-panes`, as a script reads them.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::process::Command;

use common::Tilework;
use tilework::session::script::PaneInfo;

const ROWS: u16 = 12;
const COLS: u16 = 80;
/// What a terminal sends for `C-Left`.
const C_LEFT: &str = "\x1b[1;5D";
/// `C-Left` as `cat -v` (or the tty's echo) shows it.
const C_LEFT_SHOWN: &str = "^[[1;5D";
/// Cells one resize key moves a border.
const STEP: u16 = tilework::config::action::RESIZE_STEP;

/// The panes' widths, left to right, from `tilework list-panes --json`.
fn widths(tw: &Tilework) -> Vec<u16> {
    let out = Command::new(common::binary())
        .args(["list-panes", "--json"])
        .env("XDG_RUNTIME_DIR", tw.runtime_dir())
        .env_remove("TILEWORK")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let panes: Vec<PaneInfo> = serde_json::from_slice(&out.stdout).unwrap();
    panes.iter().map(|p| p.cols).collect()
}

fn wait_for_widths(tw: &Tilework, expected: &[u16]) {
    let mut last = Vec::new();
    common::wait_until(&format!("widths {expected:?}"), || {
        last = widths(tw);
        last == expected
    });
}

/// The screen column where `cat -v`'s pane shows its command line: the
/// right pane's first column, which follows the border.
fn cat_column(s: &vt100::Screen) -> Option<usize> {
    s.contents().lines().find_map(|line| {
        let chars: Vec<char> = line.chars().collect();
        chars
            .windows(8)
            .position(|w| w.iter().collect::<String>() == "$ cat -v")
    })
}

#[test]
fn c_b_c_left_c_left_c_left_moves_the_border_three_times_and_types_nothing() {
    let mut tw = Tilework::start(&[], ROWS, COLS);
    tw.wait_for("a shell prompt", |s| s.contents().contains("$ "));
    tw.send("\x02%");
    // Both prompts: typed before the new shell's prompt, the command line
    // would show without it. The focused pane's border is heavy.
    tw.wait_for("a prompt in each pane", |s| {
        let c = s.contents();
        c.contains("│$ ") && c.contains("┃$ ")
    });
    tw.type_line("cat -v");
    tw.wait_for_text("$ cat -v");
    let start = widths(&tw);
    assert_eq!(start.len(), 2, "{start:?}");
    let (left, right) = (start[0], start[1]);

    // As fast as a user presses them: one prefix, three C-Left.
    tw.send(format!("\x02{C_LEFT}{C_LEFT}{C_LEFT}"));
    wait_for_widths(&tw, &[left - 3 * STEP, right + 3 * STEP]);
    // A key that does not repeat ends the repeat and is typed: once it
    // shows, anything sent before it would have shown too.
    tw.type_line("mark-1");
    tw.wait_for("cat's copy of the marker line", |s| {
        // The tty's echo of the typed line, then cat's copy of it.
        s.contents()
            .lines()
            .filter(|l| l.contains("mark-1"))
            .count()
            == 2
    });
    assert!(
        !tw.screen_text().contains(C_LEFT_SHOWN),
        "a C-Left reached the program:\n{}",
        tw.screen_text()
    );
    // Ended: the next C-Left is the program's.
    tw.send(C_LEFT);
    tw.type_line("");
    tw.wait_for_text(C_LEFT_SHOWN);
    assert_eq!(widths(&tw), [left - 3 * STEP, right + 3 * STEP]);

    // After the repeat time, a C-Left is the program's too. The frame that
    // moves the border shows `REPEAT`, so a screen with the moved border
    // and no `REPEAT` is one drawn after the repeat ended.
    let moved_column = tw.with_screen(cat_column).unwrap() - usize::from(STEP);
    tw.send(format!("\x02{C_LEFT}"));
    wait_for_widths(&tw, &[left - 4 * STEP, right + 4 * STEP]);
    tw.wait_for("the moved border, the repeat over", |s| {
        cat_column(s) == Some(moved_column) && !s.contents().contains("REPEAT")
    });
    tw.send(format!("{C_LEFT}after\r"));
    tw.wait_for("the late C-Left in cat's output", |s| {
        s.contents()
            .lines()
            .any(|l| l.contains(&format!("{C_LEFT_SHOWN}after")))
    });
    assert_eq!(widths(&tw), [left - 4 * STEP, right + 4 * STEP]);
}
