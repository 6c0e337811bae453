//! Pictures in panes (issue 34), end to end: real picture programs
//! (`img2sixel` from libsixel, `chafa`) in a pane, and an outer terminal
//! that says it speaks sixel (DA1 `4`, cells of 10 x 20 pixels). The
//! picture must reach the outer stream at the right cell, move when the
//! pane scrolls, be gone after `clear`, and never go to a terminal that
//! did not say it speaks sixel.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::{TerminalReplies, Tilework, require_program};

const ROWS: u16 = 24;
const COLS: u16 = 80;

/// How tilework starts each sixel it draws (its encoder's header).
const SIXEL_START: &[u8] = b"\x1bP0;1;0q";

fn sixel_terminal() -> Tilework {
    let replies = TerminalReplies {
        sixel: true,
        ..TerminalReplies::default()
    };
    let env = [("PATH", std::env::var("PATH").unwrap_or_default())];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let tw = Tilework::start_answering(common::binary(), &[], ROWS, COLS, &env, replies);
    tw.wait_for_text("$ ");
    tw
}

/// A 40 x 40 red picture (4 x 2 cells of 10 x 20) as a PPM file in the
/// test's directory, where the pane's shell starts.
fn red_picture(tw: &Tilework) {
    let mut ppm = b"P6\n40 40\n255\n".to_vec();
    for _ in 0..40 * 40 {
        ppm.extend_from_slice(&[255, 0, 0]);
    }
    std::fs::write(tw.dir.path().join("red.ppm"), ppm).unwrap();
}

/// Where each sixel tilework drew starts (1-based row, column: the cursor
/// move right before it), in the order drawn, from raw output `raw`.
fn sixels_drawn(raw: &[u8]) -> Vec<(u16, u16)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(off) = raw[at..]
        .windows(SIXEL_START.len())
        .position(|w| w == SIXEL_START)
    {
        let start = at + off;
        let before = &raw[..start];
        if let Some(csi) = before.iter().rposition(|&b| b == b'[')
            && before.last() == Some(&b'H')
        {
            let text = String::from_utf8_lossy(&before[csi + 1..start - 1]).into_owned();
            if let Some((row, col)) = text.split_once(';')
                && let (Ok(row), Ok(col)) = (row.parse(), col.parse())
            {
                out.push((row, col));
            }
        }
        at = start + SIXEL_START.len();
    }
    out
}

/// The screen position (0-based row, column) where `text` shows.
fn find_text(tw: &Tilework, text: &str) -> (u16, u16) {
    tw.with_screen(|s| {
        for row in 0..ROWS {
            let line = s.contents_between(row, 0, row, COLS);
            if let Some(col) = line.find(text) {
                return (row, line[..col].chars().count() as u16);
            }
        }
        panic!("{text:?} is not on the screen:\n{}", s.contents());
    })
}

/// Waits until a sixel was drawn at (1-based) `at` after raw offset `from`.
fn wait_for_sixel_at(tw: &Tilework, from: usize, at: (u16, u16)) {
    common::wait_until(&format!("a sixel drawn at {at:?}"), || {
        let raw = tw.raw_tail();
        sixels_drawn(&raw[from.min(raw.len())..]).contains(&at)
    });
}

/// Types `command; echo <mark>` and waits for the mark's output and the
/// prompt after it (the mark is written so the typed line does not hold
/// it). Returns the screen row the mark's output is on.
fn run(tw: &mut Tilework, command: &str, n: u32) -> u16 {
    tw.type_line(&format!("{command}; echo M$(({n}+0))K"));
    let mark = format!("M{n}K");
    let mut row = 0;
    tw.wait_for(&format!("{mark} and a prompt after it"), |s| {
        (0..ROWS.saturating_sub(1)).any(|r| {
            let line = s.contents_between(r, 0, r, COLS);
            let next = s.contents_between(r + 1, 0, r + 1, COLS);
            let found = line.contains(&mark) && next.contains("$ ");
            if found {
                row = r;
            }
            found
        })
    });
    row
}

#[test]
fn img2sixel_reaches_the_terminal_at_the_cursor_moves_with_scrolling_and_goes_with_clear() {
    if !require_program("img2sixel") {
        return;
    }
    let mut tw = sixel_terminal();
    red_picture(&tw);
    // The prompt at the bottom first, so that output scrolls the pane.
    run(&mut tw, "seq 1 40", 1);
    // The picture starts where the cursor was (the row after the
    // command, the pane's first column) and takes two rows; the cursor
    // is left on its last row, where the mark prints.
    let mark_row = run(&mut tw, "img2sixel red.ppm", 2);
    let col = find_text(&tw, "M2K").1;
    let top = mark_row - 1;
    wait_for_sixel_at(&tw, 0, (top + 1, col + 1));

    // Two more rows of output (the mark and a prompt) scroll the pane by
    // two: the picture follows.
    let before = tw.raw_tail().len();
    run(&mut tw, "true", 3);
    wait_for_sixel_at(&tw, before, (top + 1 - 2, col + 1));

    // `clear` erases it: no sixel is drawn after it, whatever follows.
    run(&mut tw, "clear", 4);
    let from = tw.raw_tail().len();
    run(&mut tw, "true", 5);
    assert!(
        sixels_drawn(&tw.raw_tail()[from..]).is_empty(),
        "a sixel was drawn after clear"
    );
}

#[test]
fn chafa_sixels_reach_the_terminal() {
    if !require_program("chafa") {
        return;
    }
    let mut tw = sixel_terminal();
    red_picture(&tw);
    run(&mut tw, "chafa -f sixel -s 4x2 red.ppm", 1);
    let (cmd_row, col) = find_text(&tw, "$ chafa");
    wait_for_sixel_at(&tw, 0, (cmd_row + 2, col + 1));
}

#[test]
fn a_terminal_that_does_not_speak_sixel_gets_none() {
    if !require_program("img2sixel") {
        return;
    }
    let env = [("PATH", std::env::var("PATH").unwrap_or_default())];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut tw = Tilework::start_answering(
        common::binary(),
        &[],
        ROWS,
        COLS,
        &env,
        TerminalReplies::default(),
    );
    tw.wait_for_text("$ ");
    red_picture(&tw);
    run(&mut tw, "img2sixel red.ppm", 1);
    run(&mut tw, "true", 2);
    assert!(sixels_drawn(&tw.raw_tail()).is_empty());
    // No DCS but tilework's own XTGETTCAP question.
    let raw = tw.raw_tail();
    let dcs = raw.windows(2).filter(|w| *w == b"\x1bP").count();
    let asked = raw.windows(4).filter(|w| *w == b"\x1bP+q").count();
    assert_eq!(dcs, asked, "a DCS went to a terminal without sixel");
}
