//! Issue 29 §1: programs that wrap each redraw in a synchronized update
//! (`CSI ? 2026 h` … `CSI ? 2026 l`: agent TUIs, neovim, helix) are never
//! shown half redrawn, and a program that leaves one open holds up nobody.
//!
//! A program in a pane redraws its whole screen many times, each frame in
//! several writes a few milliseconds apart inside an update, every row
//! carrying the frame's number. The terminal records its screen at the end
//! of each frame tilework writes: no frame may show two frame numbers.
//! Before tilework followed the mode, two thirds of them did.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::collections::BTreeSet;

use common::{TempDir, Tilework};

/// Redraws the pane `frames` times, each frame in 4 writes 3 ms apart
/// inside a synchronized update; every row says `<NNNN>`, the frame's
/// number, over and over. Then clears the screen and says it is done.
const REDRAWS: &str = r#"
import os, sys, time

def write_all(data):
    while data:
        data = data[os.write(1, data):]

for n in range(int(sys.argv[1])):
    rows, cols = os.get_terminal_size(1)
    token = "<%04d>" % n
    body = "".join(
        "\x1b[%d;1H%s\x1b[K" % (row + 1, token * ((cols - 1) // len(token)))
        for row in range(rows)
    )
    frame = ("\x1b[?2026h" + body + "\x1b[?2026l").encode()
    piece = len(frame) // 4 + 1
    for i in range(4):
        write_all(frame[i * piece:(i + 1) * piece])
        time.sleep(0.003)
write_all(b"\x1b[H\x1b[2Jredraws-%d-done" % (6 * 7))
"#;

/// The frame numbers a screen shows (`<` and four digits).
fn frame_numbers(screen: &str) -> BTreeSet<u32> {
    let bytes = screen.as_bytes();
    bytes
        .windows(5)
        .filter(|w| w[0] == b'<' && w[1..].iter().all(u8::is_ascii_digit))
        .filter_map(|w| std::str::from_utf8(&w[1..]).ok()?.parse().ok())
        .collect()
}

#[test]
fn a_program_redrawing_in_synchronized_updates_is_never_shown_half_drawn() {
    if !common::require_program("python3") {
        return;
    }
    let dir = TempDir::new("sync");
    let script = dir.path().join("redraws.py");
    std::fs::write(&script, REDRAWS).unwrap();
    let (sleep, sleep_pattern) = common::unique_sleep();
    let _cleanup = common::Cleanup(vec![sleep_pattern]);
    let command = format!("python3 '{}' 300; exec {sleep}", script.display());
    let tw = Tilework::start(&["-c", &command], 44, 124);
    tw.record_frames();
    tw.wait_for_text("redraws-42-done");
    let frames = tw.recorded_frames();
    let shown: Vec<BTreeSet<u32>> = frames.iter().map(|s| frame_numbers(s)).collect();
    let torn: Vec<&BTreeSet<u32>> = shown.iter().filter(|n| n.len() > 1).collect();
    let distinct: BTreeSet<u32> = shown.iter().flatten().copied().collect();
    eprintln!(
        "{} frames drawn, {} of the program's frames shown, {} torn",
        frames.len(),
        distinct.len(),
        torn.len()
    );
    assert!(
        torn.is_empty(),
        "{} of {} frames mixed two of the program's frames, first: {:?}",
        torn.len(),
        frames.len(),
        torn.first()
    );
    // The program's frames were drawn as they came, not only the last.
    assert!(distinct.len() >= 5, "only frames {distinct:?} were shown");
}

#[test]
fn an_update_left_open_holds_up_no_other_pane_and_shows_after_its_time() {
    let (sleep, sleep_pattern) = common::unique_sleep();
    let _cleanup = common::Cleanup(vec![sleep_pattern]);
    // Opens an update, writes into it, and never ends it.
    let held = format!("printf '\\033[?2026hheld-%s' $((6*7)); exec {sleep}");
    // The shell has the focus; the held update is in the other pane.
    let mut tw = Tilework::start(&["-c", "exec sh", "-c", &held], 24, 80);
    tw.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
    for word in ["one", "two", "three"] {
        tw.type_line(&format!("echo typed-{word}-$((6*7))"));
        tw.wait_for_text(&format!("typed-{word}-42"));
    }
    // Its time out, the held pane shows what the program wrote.
    tw.wait_for_text("held-42");
}
