//! End-to-end: themes, borders and the status bar from the config.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use common::{TempDir, Tilework};

/// Starts tilework with `config` as its config file, writing one stats line
/// per frame to the returned path.
fn start(config: &str, dir: &TempDir, rows: u16, cols: u16) -> (Tilework, std::path::PathBuf) {
    let config_path = dir.path().join("config.toml");
    std::fs::write(&config_path, config).unwrap();
    let stats = dir.path().join("frames.jsonl");
    let tw = Tilework::start(
        &[
            "--config",
            config_path.to_str().unwrap(),
            "--stats",
            stats.to_str().unwrap(),
            "--",
            "sh",
        ],
        rows,
        cols,
    );
    (tw, stats)
}

fn frames(stats: &std::path::Path) -> usize {
    std::fs::read_to_string(stats)
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

fn status_row(tw: &Tilework) -> String {
    tw.row_text(tw.rows - 1, 0, tw.cols)
}

/// The clock's text at the status bar's right end (`HH:MM:SS`).
fn clock_text(tw: &Tilework) -> String {
    let row = status_row(tw);
    row.trim_end()
        .rsplit(' ')
        .next()
        .unwrap_or_default()
        .to_string()
}

/// A seconds clock on an idle workspace: one frame per tick of the clock,
/// nothing in between (the idle guarantee with a clock segment: wake-ups
/// follow the clock's text, never the frame rate).
#[test]
fn an_idle_workspace_draws_once_per_clock_tick() {
    let dir = TempDir::new("clock");
    let config = "[status]\nright = [\"clock\"]\nclock = \"%H:%M:%S\"\n";
    let (mut tw, stats) = start(config, &dir, 24, 80);
    tw.wait_for("the clock", |s| {
        let row = s.contents_between(23, 0, 23, 80);
        row.trim_end().ends_with(|c: char| c.is_ascii_digit())
    });
    tw.wait_for_text("$ ");
    // Past start-up: count from the second tick on. Start-up draws frames
    // of its own until then (the tab named after the directory 300 ms after
    // the shell's output); under load one of them landed after the first
    // tick and was counted (1 run in 4).
    for _ in 0..2 {
        let before = clock_text(&tw);
        tw.wait_for("the next tick", |s| {
            !s.contents_between(23, 0, 23, 80)
                .trim_end()
                .ends_with(&before)
        });
    }
    common::wait_until("that frame's stats line", || frames(&stats) > 0);
    let frames_then = frames(&stats);
    let mut seen = BTreeSet::new();
    seen.insert(clock_text(&tw));
    // Three more ticks.
    while seen.len() < 4 {
        let last = clock_text(&tw);
        tw.wait_for("a tick", |s| {
            !s.contents_between(23, 0, 23, 80)
                .trim_end()
                .ends_with(&last)
        });
        seen.insert(clock_text(&tw));
    }
    // The last tick's stats line is written just after its frame.
    common::wait_until("the last tick's stats line", || {
        frames(&stats) >= frames_then + 3
    });
    let drawn = frames(&stats) - frames_then;
    assert!(
        drawn <= 3 + 1,
        "{drawn} frames for 3 clock ticks on an idle workspace"
    );
    tw.send("exit\r");
    tw.wait_exit();
}

/// With a minute clock (the usual `%H:%M`), an idle workspace draws
/// nothing between minutes.
#[test]
fn a_minute_clock_leaves_an_idle_workspace_idle() {
    let dir = TempDir::new("clock-min");
    let config = "[status]\nleft = [\"tabs\"]\nright = [\"clock\"]\n";
    let (mut tw, stats) = start(config, &dir, 24, 80);
    tw.wait_for("the clock", |s| {
        let row = s.contents_between(23, 0, 23, 80);
        row.trim_end().ends_with(|c: char| c.is_ascii_digit())
    });
    tw.wait_for_text("$ ");
    common::wait_until("a frame's stats line", || frames(&stats) > 0);
    // Let start-up's frames (names looked up a moment after output) pass.
    let mut before = frames(&stats);
    let settle_until = Instant::now() + Duration::from_secs(10);
    loop {
        std::thread::sleep(Duration::from_millis(500));
        let now = frames(&stats);
        if now == before || Instant::now() > settle_until {
            break;
        }
        before = now;
    }
    let minute_then = clock_text(&tw);
    std::thread::sleep(Duration::from_millis(1500));
    let drawn = frames(&stats) - before;
    // A minute may turn during the wait: then exactly one frame.
    let allowed = usize::from(clock_text(&tw) != minute_then);
    assert!(
        drawn <= allowed,
        "{drawn} frames while idle with a minute clock"
    );
    tw.send("exit\r");
    tw.wait_exit();
}

/// tmux-like dividers: a lone pane gets the whole terminal but the status
/// bar (two more columns and rows than with boxes), and so does its PTY.
#[test]
fn dividers_give_the_program_the_whole_width() {
    let dir = TempDir::new("dividers");
    let config = "[theme]\nname = \"high-contrast\"\nborders = \"dividers\"\n";
    let (mut tw, _) = start(config, &dir, 24, 80);
    tw.wait_for("the prompt", |s| s.contents().starts_with('$'));
    tw.type_line("stty size");
    tw.wait_for_text("23 80");
    // The prompt starts at the terminal's first column: no box.
    assert!(
        tw.row_text(0, 0, 2).starts_with('$'),
        "{}",
        tw.screen_text()
    );
    // A split: one line between the panes, both PTYs follow.
    tw.send("\x02%");
    tw.wait_for("a divider and the new prompt", |s| {
        s.contents_between(0, 40, 0, 42) == "│$"
    });
    tw.type_line("stty size");
    tw.wait_for_text("23 39");
    tw.send("exit\r");
    tw.wait_for("one pane again", |s| !s.contents().contains('│'));
    tw.send("exit\r");
    tw.wait_exit();
}
