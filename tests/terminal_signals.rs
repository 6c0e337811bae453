//! Signals between programs and the user's terminal (issue 46), end to
//! end: in-band resize reports (mode 2048), light/dark theme reports
//! (mode 2031), clipboard reads (OSC 52 `?`), progress (OSC 9;4), kitty
//! notifications both ways (OSC 99).

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::{TerminalReplies, Tilework};

const ROWS: u16 = 24;
const COLS: u16 = 80;

/// A program that turns on in-band resize reports (`CSI ? 2048 h`), then
/// shows every byte it is sent (`cat -v`, the terminal raw).
const REPORTER: &str =
    "stty raw -echo; printf '\\033[?2048h'; echo reporting-$((6*7)); exec cat -v";

/// neovim's way to hear of a resize: `CSI 48 ; rows ; cols ; height ;
/// width t` on every resize of its pane, here a border dragged.
#[test]
fn a_border_drag_sends_the_in_band_resize_report() {
    let mut tw = Tilework::start(&["-c", "exec cat", "-c", REPORTER], ROWS, COLS);
    tw.wait_for_text("reporting-42");
    // The border between the panes is at columns 39/40; drag it to 20.
    tw.send("\x1b[<0;41;5M\x1b[<32;30;5M\x1b[<32;21;5M\x1b[<0;21;5m");
    // The right pane is then 57 columns wide (see `workspace.rs`'s drag
    // test) and as tall as before.
    let report = format!("^[[48;{};57;", ROWS - 3);
    tw.wait_for("the report of the new size", |s| {
        s.contents().contains(&report)
    });
    let shown = tw.screen_text();
    let at = shown.find(&report).unwrap();
    let rest = &shown[at + report.len()..];
    let fields: Vec<&str> = rest.split('t').next().unwrap().split(';').collect();
    assert_eq!(fields.len(), 2, "{rest:?}");
    // Pixels: the cells times a cell's size, whatever the terminal said.
    let height: u32 = fields[0].parse().unwrap();
    let width: u32 = fields[1].parse().unwrap();
    assert!(height.is_multiple_of(u32::from(ROWS - 3)) && width.is_multiple_of(57));
    assert!(height > 0 && width > 0);
}

/// A program that subscribes to theme reports (`CSI ? 2031 h`), asks the
/// theme (`CSI ? 996 n`), then shows every byte it is sent.
const THEME_WATCHER: &str = "stty raw -echo; printf '\\033[?2031h\\033[?996n'; \
    echo watching-$((6*7)); exec cat -v";

/// The user's terminal switches from dark to light while attached (as
/// ghostty, kitty and contour report it): tilework subscribed it, and the
/// pane whose program subscribed hears the change.
#[test]
fn a_theme_change_while_attached_reaches_a_subscribed_program() {
    let replies = TerminalReplies {
        background: Some("rgb:1e1e/1e1e/2e2e"),
        ..TerminalReplies::default()
    };
    let mut tw = Tilework::start_answering(
        common::binary(),
        &["-c", THEME_WATCHER],
        ROWS,
        COLS,
        &[],
        replies,
    );
    tw.wait_for_text("watching-42");
    assert!(
        tw.raw_contains(b"\x1b[?2031h"),
        "the terminal was not subscribed"
    );
    // Asked before any report came: judged by the background (dark).
    tw.wait_for("the theme answered from the background", |s| {
        s.contents().contains("^[[?997;1n")
    });
    tw.send("\x1b[?997;2n");
    tw.wait_for("the change to light told", |s| {
        s.contents().contains("^[[?997;1n^[[?997;2n")
    });
}

/// A program that asks to read the clipboard (`OSC 52 ; c ; ?`), as
/// neovim's OSC 52 paste does, then shows every byte it is sent.
const CLIPBOARD_READER: &str = "stty raw -echo; printf '\\033]52;c;?\\033\\\\'; \
    echo reading-$((6*7)); exec cat -v";

/// tilework started with `config` as its config file, running `command`.
fn start_configured(config: &str, command: &str) -> (Tilework, common::TempDir) {
    let dir = common::TempDir::new("signals-config");
    let path = dir.path().join("config.toml");
    std::fs::write(&path, config).unwrap();
    let tw = Tilework::start(
        &["--config", path.to_str().unwrap(), "-c", command],
        ROWS,
        COLS,
    );
    (tw, dir)
}

fn status_line(s: &vt100::Screen) -> String {
    s.contents_between(ROWS - 1, 0, ROWS - 1, COLS)
}

/// With `clipboard_read = "ask"`, the status bar asks; `n` refuses: the
/// program gets the empty answer at once, and the terminal is never
/// asked.
#[test]
fn a_clipboard_read_asked_and_denied_gets_the_empty_answer() {
    let (mut tw, _dir) = start_configured("clipboard_read = \"ask\"\n", CLIPBOARD_READER);
    tw.wait_for_text("reading-42");
    tw.wait_for("the question", |s| {
        status_line(s).contains("pane 1 wants to read the clipboard: y/n")
    });
    tw.send("n");
    tw.wait_for("the empty answer", |s| {
        s.contents().contains("^[]52;c;^[\\")
    });
    assert!(!tw.raw_contains(b"\x1b]52;c;?"), "the terminal was asked");
    tw.wait_for("the question gone", |s| {
        !status_line(s).contains("wants to read")
    });
}

/// `y` allows the read: it goes to the terminal, and the terminal's
/// answer to the program that asked.
#[test]
fn a_clipboard_read_asked_and_allowed_gets_the_terminals_answer() {
    let (mut tw, _dir) = start_configured("clipboard_read = \"ask\"\n", CLIPBOARD_READER);
    tw.wait_for_text("reading-42");
    tw.wait_for("the question", |s| {
        status_line(s).contains("wants to read the clipboard: y/n")
    });
    assert!(
        !tw.raw_contains(b"\x1b]52;c;?"),
        "asked before the user said yes"
    );
    tw.send("y");
    tw.wait_for_raw(b"\x1b]52;c;?\x1b\\");
    // The terminal answers, as kitty or foot do: the clipboard holds
    // "hello".
    tw.send("\x1b]52;c;aGVsbG8=\x1b\\");
    tw.wait_for("the clipboard passed on", |s| {
        s.contents().contains("^[]52;c;aGVsbG8=^[\\")
    });
}

/// With `clipboard_read = "allow"` the read goes to the terminal without
/// a question (tmux 3.7's `get-clipboard`).
#[test]
fn an_allowed_clipboard_read_is_forwarded_without_a_question() {
    let (mut tw, _dir) = start_configured("clipboard_read = \"allow\"\n", CLIPBOARD_READER);
    tw.wait_for_text("reading-42");
    tw.wait_for_raw(b"\x1b]52;c;?\x1b\\");
    tw.send("\x1b]52;c;d29ybGQ=\x1b\\");
    tw.wait_for("the clipboard passed on", |s| {
        s.contents().contains("^[]52;c;d29ybGQ=^[\\")
    });
}

/// A program that tells its progress (`OSC 9 ; 4 ; 1 ; 42`, as cargo and
/// uv do) and, on a line typed to it, that it failed (`9;4;2`).
const PROGRESSING: &str = "printf '\\033]9;4;1;42\\033\\\\'; echo building-$((6*7)); \
    read line; printf '\\033]9;4;2\\033\\\\'; echo failed-$((6*7)); exec cat";

/// The pane's progress shows on its tab and its border, and goes on to a
/// terminal that draws it (ghostty, by its `TERM_PROGRAM`); it is not a
/// notification.
#[test]
fn progress_shows_on_the_tab_and_is_forwarded() {
    let mut tw = Tilework::start_with(
        &["-c", PROGRESSING],
        ROWS,
        COLS,
        &[("TERM_PROGRAM", "ghostty")],
    );
    tw.wait_for_text("building-42");
    tw.wait_for("42% on the tab", |s| {
        status_line(s).contains(" 1:") && status_line(s).contains("42%")
    });
    tw.wait_for("42% on the border", |s| {
        s.contents_between(0, 0, 0, COLS).contains("42%")
    });
    tw.wait_for_raw(b"\x1b]9;4;1;42\x1b\\");
    tw.type_line("go");
    tw.wait_for_text("failed-42");
    tw.wait_for("the error on the tab", |s| status_line(s).contains("!err"));
    tw.wait_for_raw(b"\x1b]9;4;2\x1b\\");
    // Not taken for a notification (ConEmu's `9;4` is not one).
    assert!(!tw.raw_contains(b"\x1b]9;4;1;42\x07"));
    assert!(!tw.raw_contains(b"\x1b]777;notify"));
}

/// A terminal not known to draw `OSC 9 ; 4` is not sent it (elsewhere it
/// pops up as a notification); the tab still shows it.
#[test]
fn progress_is_not_sent_to_a_terminal_that_does_not_draw_it() {
    let mut tw = Tilework::start_with(
        &["-c", PROGRESSING],
        ROWS,
        COLS,
        &[("TERM_PROGRAM", "xterm")],
    );
    tw.wait_for_text("building-42");
    tw.wait_for("42% on the tab", |s| status_line(s).contains("42%"));
    tw.type_line("go");
    tw.wait_for("the error on the tab", |s| status_line(s).contains("!err"));
    assert!(!tw.raw_contains(b"\x1b]9;4"));
}

/// A program that sends a kitty notification asking to hear of a click
/// (`a=report`), then shows every byte it is sent.
const NOTIFIER: &str = "stty raw -echo; printf '\\033]99;i=job1:a=report;Build done\\033\\\\'; \
    echo notified-$((6*7)); exec cat -v";

/// The user's terminal reports a click on the notification (kitty's
/// activation report) while another tab is shown: the notifying pane's
/// tab shows, and its program hears of the click under its own id.
#[test]
fn a_click_on_a_notification_shows_its_pane_and_tells_its_program() {
    let mut tw = Tilework::start(&["-c", NOTIFIER], ROWS, COLS);
    tw.wait_for_text("notified-42");
    // Passed on under a namespaced id, asking for a click's report.
    tw.wait_for_raw(b"\x1b]99;i=tw.");
    let raw = tw.raw_tail();
    let text = String::from_utf8_lossy(&raw);
    let at = text.find("\x1b]99;i=tw.").unwrap() + "\x1b]99;i=".len();
    let id: String = text[at..].chars().take_while(|&c| c != ':').collect();
    assert!(id.ends_with(".job1"), "{id}");
    assert!(text[at..].starts_with(&format!("{id}:a=focus,report;Build done")));
    // Another tab, where the notifying pane is not shown.
    tw.send("\x02c");
    tw.wait_for("the second tab", |s| {
        status_line(s).contains(" 2:") && !s.contents().contains("notified-42")
    });
    tw.send(format!("\x1b]99;i={id};\x1b\\"));
    tw.wait_for("the notifying pane shown, told of the click", |s| {
        s.contents().contains("notified-42") && s.contents().contains("^[]99;i=job1;^[\\")
    });
}

/// The status bar's background, as the terminal shows it.
fn bar_background(tw: &Tilework) -> vt100::Color {
    tw.with_screen(|s| s.cell(ROWS - 1, COLS - 1).map(vt100::Cell::bgcolor))
        .unwrap()
}

/// `[theme] name = "auto"`: tilework's own colours are the dark theme's on
/// a dark terminal, and the light theme's once the terminal says it
/// turned light (mode 2031), and back.
#[test]
fn an_auto_theme_follows_the_terminal_from_dark_to_light() {
    let dir = common::TempDir::new("signals-theme");
    let path = dir.path().join("config.toml");
    std::fs::write(&path, "[theme]\nname = \"auto\"\n").unwrap();
    let replies = TerminalReplies {
        background: Some("rgb:1e1e/1e1e/2e2e"),
        ..TerminalReplies::default()
    };
    let mut tw = Tilework::start_answering(
        common::binary(),
        &[
            "--config",
            path.to_str().unwrap(),
            "-c",
            "echo started-$((6*7)); exec cat",
        ],
        ROWS,
        COLS,
        &[],
        replies,
    );
    tw.wait_for_text("started-42");
    // The default (dark) theme's status bar: colour 236.
    tw.wait_for("the dark bar", |s| {
        s.cell(ROWS - 1, COLS - 1).map(vt100::Cell::bgcolor) == Some(vt100::Color::Idx(236))
    });
    tw.send("\x1b[?997;2n");
    tw.wait_for("the light bar", |s| {
        s.cell(ROWS - 1, COLS - 1).map(vt100::Cell::bgcolor) == Some(vt100::Color::Idx(254))
    });
    tw.send("\x1b[?997;1n");
    tw.wait_for("the dark bar again", |s| {
        s.cell(ROWS - 1, COLS - 1).map(vt100::Cell::bgcolor) == Some(vt100::Color::Idx(236))
    });
    assert_eq!(bar_background(&tw), vt100::Color::Idx(236));
}

/// On a terminal whose background is light, an `auto` theme starts light.
#[test]
fn an_auto_theme_starts_light_on_a_light_terminal() {
    let dir = common::TempDir::new("signals-theme");
    let path = dir.path().join("config.toml");
    std::fs::write(&path, "[theme]\nname = \"auto\"\n").unwrap();
    let replies = TerminalReplies {
        background: Some("rgb:fdfd/f6f6/e3e3"),
        ..TerminalReplies::default()
    };
    let tw = Tilework::start_answering(
        common::binary(),
        &[
            "--config",
            path.to_str().unwrap(),
            "-c",
            "echo started-$((6*7)); exec cat",
        ],
        ROWS,
        COLS,
        &[],
        replies,
    );
    tw.wait_for_text("started-42");
    tw.wait_for("the light bar", |s| {
        s.cell(ROWS - 1, COLS - 1).map(vt100::Cell::bgcolor) == Some(vt100::Color::Idx(254))
    });
}
