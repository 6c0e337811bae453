//! End to end: a program's notification (OSC 9, OSC 777 notify, kitty's
//! OSC 99) shows in the status bar, sanitized, until its pane is focused,
//! marks a hidden tab, and is passed on to the user's terminal unless the
//! config says `notifications = "status"`.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::{TempDir, Tilework};

const ROWS: u16 = 16;
const COLS: u16 = 100;

fn status_line(s: &vt100::Screen) -> String {
    s.contents_between(ROWS - 1, 0, ROWS - 1, COLS)
}

fn raw_contains(tw: &Tilework, needle: &[u8]) -> bool {
    tw.raw_tail().windows(needle.len()).any(|w| w == needle)
}

/// A pane that says `name-42`, waits for file `go` in `dir`, then prints
/// `sequence` (printf's format) and `sent-42`.
fn notifier(dir: &TempDir, name: &str, sequence: &str) -> String {
    let go = dir.path().join("go");
    format!(
        "echo {name}-$((6*7)); while [ ! -e '{}' ]; do sleep 0.05; done; \
         printf '{sequence}'; echo sent-$((6*7)); exec cat",
        go.display()
    )
}

/// Two panes side by side, the left one focused (by a click), the right
/// one's program sends `sequence` once told to.
fn two_panes_notifying(config: Option<&str>, sequence: &str) -> (Tilework, TempDir) {
    let dir = TempDir::new("notify");
    let right = notifier(&dir, "right", sequence);
    let config_path = dir.path().join("config.toml");
    std::fs::write(&config_path, config.unwrap_or("")).unwrap();
    let config_path = config_path.to_str().unwrap().to_string();
    let args = [
        "--config",
        &config_path,
        "-c",
        "echo left-$((6*7)); exec cat",
        "-c",
        &right,
    ];
    let mut tw = Tilework::start(&args, ROWS, COLS);
    tw.wait_for_text("left-42");
    tw.wait_for_text("right-42");
    // Focus the left pane, where neither program's name shows.
    tw.click(3, 3);
    tw.wait_for("the left pane focused", |s| {
        status_line(s).contains("pane 1/2")
    });
    std::fs::write(dir.path().join("go"), "").unwrap();
    tw.wait_for_text("sent-42");
    (tw, dir)
}

#[test]
fn a_notification_shows_in_the_status_bar_until_its_pane_is_focused_and_is_forwarded() {
    // The body carries an escape sequence and a bidi override: neither
    // reaches the bar or the user's terminal.
    let (mut tw, _dir) = two_panes_notifying(
        None,
        "\\033]777;notify;agent;waiting \\342\\200\\256for you\\033[2J\\033\\\\",
    );
    tw.wait_for("the notification in the status bar", |s| {
        status_line(s).contains("agent: waiting for you")
    });
    assert!(
        raw_contains(&tw, b"\x1b]777;notify;agent;waiting for you\x1b\\"),
        "forwarded, sanitized"
    );
    assert!(!raw_contains(&tw, "\u{202e}".as_bytes()));
    // Focusing the pane that asked for attention clears it.
    tw.click(COLS - 5, 3);
    tw.wait_for("the notification gone", |s| {
        status_line(s).contains("pane 2/2") && !status_line(s).contains("waiting for you")
    });
}

#[test]
fn kitty_and_osc_9_notifications_show_and_status_mode_keeps_them_home() {
    let (tw, _dir) = two_panes_notifying(
        Some("notifications = \"status\"\n"),
        "\\033]99;i=1:d=0;Build\\033\\\\\\033]99;i=1:p=body;finished\\033\\\\",
    );
    tw.wait_for("the kitty notification in the status bar", |s| {
        status_line(s).contains("Build: finished")
    });
    assert!(!raw_contains(&tw, b"\x1b]99;"), "not forwarded");

    let (tw, _dir) = two_panes_notifying(None, "\\033]9;tests passed\\007");
    tw.wait_for("the OSC 9 notification in the status bar", |s| {
        status_line(s).contains("tests passed")
    });
    assert!(raw_contains(&tw, b"\x1b]9;tests passed\x1b\\"));
}

#[test]
fn a_notification_in_a_hidden_tab_marks_the_tab() {
    let dir = TempDir::new("notify-tab");
    let mut tw = Tilework::start(&[], ROWS, COLS);
    tw.wait_for("a shell prompt", |s| s.contents().contains("$ "));
    tw.send("\x02c");
    tw.wait_for("a second tab with its prompt", |s| {
        status_line(s).contains("2:") && s.contents().contains("$ ")
    });
    let go = dir.path().join("go");
    tw.type_line(&format!(
        "while [ ! -e '{}' ]; do sleep 0.05; done; printf '\\033]9;look here\\007'",
        go.display()
    ));
    // The loop's line is on tab 2's screen once it ran there; tab 1 shows
    // none of it. (Waiting on the switch itself: a notification sent
    // while its pane is still shown is seen at once, not marked.)
    tw.wait_for("the loop waiting in tab 2", |s| {
        s.contents().contains("while [")
    });
    tw.send("\x021");
    tw.wait_for("the first tab shown", |s| !s.contents().contains("while ["));
    std::fs::write(&go, "").unwrap();
    tw.wait_for("tab 2 marked and the text shown", |s| {
        let bar = status_line(s);
        bar.contains("look here")
            && bar
                .split(" 2:")
                .nth(1)
                .is_some_and(|tab| tab.split("  ").next().is_some_and(|t| t.contains(" !")))
    });
    tw.send("\x022");
    tw.wait_for("mark and text gone", |s| {
        let bar = status_line(s);
        !bar.contains('!') && !bar.contains("look here")
    });
}

/// Three notifications sent at once (one `printf`): each is forwarded to
/// the user's terminal, and the status bar shows all three, newest last.
#[test]
fn three_notifications_in_a_burst_are_all_shown_and_forwarded() {
    let (tw, _dir) = two_panes_notifying(
        None,
        "\\033]9;first\\007\\033]777;notify;build;second\\033\\\\\\033]9;third\\007",
    );
    tw.wait_for("all three in the status bar", |s| {
        status_line(s).contains("first · build: second · third")
    });
    for forwarded in [
        &b"\x1b]9;first\x1b\\"[..],
        b"\x1b]777;notify;build;second\x1b\\",
        b"\x1b]9;third\x1b\\",
    ] {
        tw.wait_for_raw(forwarded);
    }
}
