//! Each terminal its own view (issue 44 §4): with `client_views = "own"`,
//! two terminals on one workspace show different tabs and each types into
//! its own; the status bar marks the tab the other terminal shows. Real
//! binary, real PTYs.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::Tilework;

const ROWS: u16 = 24;
const COLS: u16 = 80;

fn prompt(tw: &Tilework) {
    tw.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
}

fn status_line(s: &vt100::Screen) -> String {
    s.contents_between(ROWS - 1, 0, ROWS - 1, COLS)
}

/// A workspace named `name` started with `config` as its config file.
fn start_with_config(name: &str, config: &str) -> (Tilework, common::TempDir) {
    let cfg = common::TempDir::new("views");
    let path = cfg.path().join("config.toml");
    std::fs::write(&path, config).unwrap();
    let tw = Tilework::start(
        &["--config", path.to_str().unwrap(), "--session", name],
        ROWS,
        COLS,
    );
    prompt(&tw);
    (tw, cfg)
}

#[test]
fn two_terminals_with_own_views_show_different_tabs_and_each_types_into_its_own() {
    let (mut a, _cfg) = start_with_config("views", "client_views = \"own\"\n");
    let mut b = a.start_beside(&["attach", "views"], ROWS, COLS);
    prompt(&b);
    a.send("\x02c");
    a.wait_for("A on a second tab", |s| status_line(s).contains(" 2:"));
    a.wait_for("the second tab's prompt", |s| s.contents().contains("$ "));
    a.type_line("echo typed-in-a-$((6*7))");
    a.wait_for_text("typed-in-a-42");
    b.type_line("echo typed-in-b-$((5*5))");
    b.wait_for_text("typed-in-b-25");
    // Each shows its own tab: B's typing is not on A's screen, nor A's on
    // B's.
    assert!(
        !a.screen_text().contains("typed-in-b-25"),
        "{}",
        a.screen_text()
    );
    assert!(
        !b.screen_text().contains("typed-in-a-42"),
        "{}",
        b.screen_text()
    );
    // Each bar marks the tab the other shows.
    a.wait_for("A's bar marks tab 1", |s| {
        status_line(s).contains("1:") && status_line(s).contains("◆")
    });
    b.wait_for("B's bar marks tab 2", |s| {
        let bar = status_line(s);
        bar.find(" 2:").is_some_and(|at| bar[at..].contains('◆'))
    });
    // A goes back to tab 1: it sees what B typed there.
    a.send("\x021");
    a.wait_for_text("typed-in-b-25");
    assert!(!b.screen_text().contains("typed-in-a-42"));
}

/// Shared views (the default): `C-b n` in one terminal moves both.
#[test]
fn shared_views_move_together() {
    let (mut a, _cfg) = start_with_config("together", "");
    let b = a.start_beside(&["attach", "together"], ROWS, COLS);
    prompt(&b);
    a.send("\x02c");
    a.wait_for("A on a second tab", |s| status_line(s).contains(" 2:"));
    a.type_line("echo both-see-$((8*8))");
    b.wait_for_text("both-see-64");
}

/// With views of their own, a tab shown by one terminal alone is sized for
/// that terminal: two terminals of different sizes on different tabs each
/// see their own size in `stty size`, whoever typed last.
#[test]
fn a_tab_shown_by_one_terminal_alone_is_sized_for_it() {
    let (mut a, _cfg) = start_with_config("sizes", "client_views = \"own\"\n");
    let mut b = a.start_beside(&["attach", "sizes"], 30, 100);
    prompt(&b);
    a.send("\x02c");
    a.wait_for("A on a second tab", |s| status_line(s).contains(" 2:"));
    a.wait_for("the second tab's prompt", |s| s.contents().contains("$ "));
    // Inside the borders, above the bar: A 21x78, B 27x98.
    a.type_line("stty size; echo a-done");
    a.wait_for_text("21 78");
    b.type_line("stty size; echo b-done");
    b.wait_for_text("27 98");
    // B typed last; A's tab keeps A's size.
    a.type_line("clear; stty size");
    a.wait_for("A's size again", |s| {
        let text = s.contents();
        text.contains("21 78") && !text.contains("27 98")
    });
}
