//! End-to-end: the `--fps` overlay shows its numbers and idles at zero.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::time::{Duration, Instant};

use common::Tilework;

#[test]
fn the_overlay_shows_and_reads_zero_fps_when_idle() {
    let stats = common::TempDir::new("stats");
    let stats_file = stats.path().join("frames.jsonl");
    let stats_arg = stats_file.to_string_lossy().into_owned();
    let mut tw = Tilework::start(&["--fps", "--stats", &stats_arg, "--", "sh"], 30, 100);
    tw.wait_for_text("--fps");
    tw.wait_for_text("bufwriter-raw");
    tw.type_line("echo typed");
    tw.wait_for_text("typed");
    // Activity stops: one settle frame shows 0 fps, then nothing is drawn.
    tw.wait_for("0 fps", |s| s.contents().contains("   0 fps"));
    // The overlay counts the frames before the one showing it; that frame's
    // stats line is written just after its bytes, so wait for it.
    let screen = tw.screen_text();
    let counted: usize = screen
        .split("frames ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no frame count on the overlay:\n{screen}"));
    let frames_then = counted + 1;
    let stats_lines = || {
        std::fs::read_to_string(&stats_file)
            .unwrap()
            .lines()
            .count()
    };
    common::wait_until("the stats line of the frame on screen", || {
        stats_lines() >= frames_then
    });
    let screen_then = tw.screen_text();
    let until = Instant::now() + Duration::from_secs(1);
    while Instant::now() < until {
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(
            tw.screen_text(),
            screen_then,
            "the overlay kept redrawing while idle"
        );
    }
    let frames_now = stats_lines();
    assert_eq!(
        frames_now, frames_then,
        "frames were drawn while nothing changed"
    );
    // Every stats line is a JSON object with one write per frame.
    let text = std::fs::read_to_string(&stats_file).unwrap();
    for line in text.lines() {
        assert!(
            line.starts_with("{\"t\":") && line.ends_with("]}"),
            "{line}"
        );
        assert!(
            line.contains("\"writes\":1,"),
            "frame with more than one write: {line}"
        );
    }
    tw.send("exit\r");
    tw.wait_exit();
}
