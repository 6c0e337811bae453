//! Issue 10, case 2: a program printing `x ESC [ 65535 b` (REP, "repeat the
//! last character 65,535 times") 20,000 times, 175 KiB of output, kept
//! tilework busy for 25 s and every other pane's echo waiting seconds, as
//! vt100 writes each copy. `src/pane/rep_bound.rs` cuts each REP to about a
//! screenful of copies with the same screen.
//!
//! Here the flood runs in the real binary beside a shell: it finishes (the
//! marker after it shows up well within the harness's timeout, where the
//! debug build took minutes before), the shell answers during and after it,
//! and the flooding pane shows what a parser that wrote every copy shows.
//! How long it takes is measured by `scripts/bench-rep.sh`, not asserted.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::{TempDir, Tilework};

const ROWS: u16 = 24;
const COLS: u16 = 80;
const REPEATS: usize = 20_000;
const FLOOD: &[u8] = b"x\x1b[65535b";

/// A pane's box on screen by its border's corners (plain border: the pane
/// without focus): rows and columns of the border itself.
fn unfocused_box(s: &vt100::Screen) -> Option<(u16, u16, u16, u16)> {
    let at = |r: u16, c: u16| {
        s.cell(r, c)
            .map(|c| c.contents().to_string())
            .unwrap_or_default()
    };
    for top in 0..ROWS {
        for left in 0..COLS {
            if at(top, left) == "┌" {
                let right = (left + 1..COLS).find(|&c| at(top, c) == "┐")?;
                let bottom = (top + 1..ROWS).find(|&r| at(r, left) == "└")?;
                return Some((top, left, bottom, right));
            }
        }
    }
    None
}

/// The flood writes `x` after `x` from the top left, 65,536 a repeat, so
/// once they fill the screen, the screen depends only on how many there
/// are modulo the width. Parsing all 1.3 billion in a debug build takes
/// minutes: the reference parses the fewest repeats with the same count
/// modulo the width that still fill the screen.
fn same_screen_repeats(rows: u16, cols: u16) -> usize {
    let per_repeat = 65_536;
    let cols = usize::from(cols);
    let fill = usize::from(rows) * cols;
    (1..=REPEATS)
        .find(|r| {
            r * per_repeat >= fill && (r * per_repeat) % cols == (REPEATS * per_repeat) % cols
        })
        .unwrap()
}

#[test]
fn a_rep_flood_finishes_the_screen_matches_and_the_other_pane_answers() {
    let dir = TempDir::new("rep");
    let file = dir.path().join("rep.bin");
    std::fs::write(&file, FLOOD.repeat(REPEATS)).unwrap();
    let (sleep, sleep_pattern) = common::unique_sleep();
    let _cleanup = common::Cleanup(vec![sleep_pattern]);
    let flood = format!(
        "stty -echo; cat '{}'; printf '\\nrep-done-%s\\n' $((6*7)); exec {sleep}",
        file.display()
    );
    // The shell has the focus; the flood runs in the other pane.
    let mut tw = Tilework::start(&["-c", "exec sh", "-c", &flood], ROWS, COLS);
    tw.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
    tw.type_line("echo during-$((6*7))");
    tw.wait_for_text("during-42");
    let started = std::time::Instant::now();
    tw.wait_for_text("rep-done-42");
    // For the record, not asserted. Before REP was bounded, a debug build
    // did not even draw the shell's prompt within the harness's 30 s.
    eprintln!("the flood's marker after {:?}", started.elapsed());
    tw.type_line("echo after-$((6*7))");
    tw.wait_for_text("after-42");

    // The flooding pane as a parser that writes every copy shows it.
    let (top, left, bottom, right) = tw.with_screen(unfocused_box).unwrap();
    let (rows, cols) = (bottom - top - 1, right - left - 1);
    let mut reference = vt100::Parser::new(
        std::num::NonZeroU16::new(rows).unwrap(),
        std::num::NonZeroU16::new(cols).unwrap(),
        0,
    );
    reference.process(&FLOOD.repeat(same_screen_repeats(rows, cols)));
    reference.process(b"\r\nrep-done-42\r\n");
    let expected: Vec<String> = reference
        .screen()
        .rows(0, cols)
        .map(|row| row.trim_end().to_string())
        .collect();
    let shown: Vec<String> = (0..rows)
        .map(|r| {
            tw.with_screen(|s| s.contents_between(top + 1 + r, left + 1, top + 1 + r, right))
                .trim_end()
                .to_string()
        })
        .collect();
    assert_eq!(shown, expected);

    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
    tw.assert_terminal_restored();
}

/// Before the loop fed output against a time slice, a 64 KiB read of this
/// flood was parsed in one go (half a second in a release build, seconds in
/// a debug one) and a key typed into the other pane waited for all of it.
/// Compared within the run, not against a clock: twenty round trips through
/// `cat` in the focused pane all finish while a flood of three such reads
/// is still being parsed. Before, each round trip waited for one read, so
/// the flood ended first.
#[test]
fn keys_typed_beside_a_rep_flood_echo_long_before_it_ends() {
    const PASSES: usize = 3;
    const REPEATS_PER_PASS: usize = 5_000;
    let dir = TempDir::new("rep-keys");
    let file = dir.path().join("rep.bin");
    std::fs::write(&file, FLOOD.repeat(REPEATS_PER_PASS)).unwrap();
    let (sleep, sleep_pattern) = common::unique_sleep();
    let _cleanup = common::Cleanup(vec![sleep_pattern]);
    let flood = format!(
        "stty -echo; printf 'flood-ready\\n'; read go; i=0; while [ $i -lt {PASSES} ]; do cat '{}'; i=$((i+1)); done; printf '\\nrep-done-%s\\n' $((6*7)); exec {sleep}",
        file.display()
    );
    // `cat` has the focus; the flood waits in the other pane for a line.
    let mut tw = Tilework::start(&["-c", "exec cat", "-c", &flood], ROWS, COLS);
    tw.wait_for_text("flood-ready");
    tw.send("\x02o\r\x02o");
    tw.wait_for("the flood under way", |s| {
        s.contents().contains("xxxxxxxxxx")
    });
    for i in 0..20 {
        let token = format!("key{i:02}q");
        tw.send(format!("{token}\r"));
        tw.wait_for(&token, |s| s.contents().contains(&token));
        assert!(
            !tw.screen_text().contains("rep-done-42"),
            "the flood ended before round trip {i} of 20"
        );
    }
    tw.wait_for_text("rep-done-42");
    tw.send("\x02Q");
    assert_eq!(tw.wait_exit().exit_code(), 0);
}
