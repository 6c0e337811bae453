//! End-to-end: a terminal resized while copy mode is open shows the
//! history as copy mode opened after the resize would, its lines rewrapped
//! at the new width, not the old rows cut to it (issue 30 part 1's last
//! limits), and copy mode keeps its place: the same line at the top, the
//! search still stepping through its matches.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::Tilework;

const ROWS: u16 = 20;

fn status_line(s: &vt100::Screen) -> String {
    s.contents_between(ROWS - 1, 0, ROWS - 1, s.size().1.get())
}

/// The screen's rows, top first.
fn rows(s: &vt100::Screen) -> Vec<String> {
    s.rows(0, s.size().1.get()).collect()
}

/// The number in `rowNN` on a row, if it shows one.
fn label(row: &str) -> Option<u32> {
    let at = row.find("row")?;
    row.get(at + 3..at + 5)?.parse().ok()
}

/// Lines of 102 columns, `row10 000…000 end10` to `row89 … end89`,
/// printed in a pane 120 columns wide; copy mode open and scrolled back
/// 40 rows. Returns the number of the line at the top of the view.
fn copy_mode_scrolled_back_over_wide_lines() -> (Tilework, u32) {
    let mut tw = Tilework::start(&[], ROWS, 122);
    tw.wait_for("a shell prompt", |s| s.contents().contains("$ "));
    tw.type_line("x=$(printf '%090d' 0); for i in $(seq 10 89); do echo r''ow$i $x e''nd$i; done");
    tw.wait_for("the lines", |s| {
        rows(s)
            .iter()
            .any(|r| r.contains("row89") && r.contains("end89"))
    });
    tw.send("\x02[");
    tw.wait_for("copy mode", |s| status_line(s).contains("COPY"));
    tw.send("40k");
    let mut top = 0;
    tw.wait_for("the view scrolled back", |s| {
        let first = rows(s).iter().find_map(|r| label(r));
        top = first.unwrap_or(99);
        first.is_some_and(|n| n < 60)
    });
    (tw, top)
}

/// From the row of line `top` on, each line is on two rows: its label on
/// one, its end on the next (102 columns at 60).
fn rewrapped_from(s: &vt100::Screen, top: u32) -> bool {
    let rows = rows(s);
    let Some(first) = rows.iter().position(|r| label(r).is_some()) else {
        return false;
    };
    let mut pairs = 0;
    let mut at = first;
    while let Some(n) = rows.get(at).and_then(|r| label(r)) {
        match rows.get(at + 1) {
            Some(next) if next.contains(&format!("end{n}")) => pairs += 1,
            // The view's last row: the line's end is below it.
            Some(next) if next.contains('┗') => break,
            _ => return false,
        }
        at += 2;
    }
    label(&rows[first]) == Some(top) && pairs >= 5
}

#[test]
fn copy_mode_open_across_a_resize_shows_the_lines_rewrapped_from_the_same_line() {
    let (mut tw, top) = copy_mode_scrolled_back_over_wide_lines();
    tw.resize(ROWS, 62);
    tw.wait_for(
        &format!("the view at 60 columns, rewrapped, row{top} still at the top"),
        |s| s.cell(0, 61).is_some_and(|c| c.contents() == "┓") && rewrapped_from(s, top),
    );
    // Still copy mode, and moving in it moves through the rewrapped rows.
    assert!(tw.with_screen(|s| status_line(s).contains("COPY")));
    tw.send("q");
    tw.wait_for("the live screen", |s| !status_line(s).contains("COPY"));
}

#[test]
fn a_search_open_across_a_resize_steps_on_through_the_rewrapped_history() {
    let (mut tw, _) = copy_mode_scrolled_back_over_wide_lines();
    tw.send("?row3\r");
    tw.wait_for("the search on row39", |s| {
        rows(s).iter().any(|r| label(r) == Some(39))
    });
    tw.resize(ROWS, 62);
    tw.wait_for("the view at 60 columns", |s| {
        s.cell(0, 61).is_some_and(|c| c.contents() == "┓")
    });
    // `n` goes on to the older matches, line by line, each shown whole.
    tw.send("nnn");
    tw.wait_for("row36 and its end on the next row", |s| {
        let rows = rows(s);
        rows.iter().enumerate().any(|(i, r)| {
            label(r) == Some(36) && rows.get(i + 1).is_some_and(|n| n.contains("end36"))
        }) && status_line(s).contains("COPY")
    });
}
