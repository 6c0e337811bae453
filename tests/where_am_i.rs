//! Where am I (issue 44 §1): the status bar, `C-b i` and the terminal's
//! title name the workspace shown, after a switch too; a read-only
//! terminal is marked from its first frame. Real binary, real PTYs.

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

/// After `C-b )` the bar, `C-b i` and the terminal's title say the
/// workspace now shown; `C-b (` comes back and they say so again.
#[test]
fn the_name_shows_after_c_b_paren() {
    let mut a = Tilework::start(&["--session", "alpha"], ROWS, COLS);
    prompt(&a);
    a.wait_for("alpha on the bar", |s| {
        status_line(s).starts_with("[alpha]")
    });
    a.wait_for_raw(b"\x1b]2;alpha:1:");
    let b = a.start_beside(&["--session", "beta"], ROWS, COLS);
    prompt(&b);
    a.send("\x02)");
    a.wait_for("beta on the bar", |s| status_line(s).starts_with("[beta]"));
    a.wait_for_raw(b"\x1b]2;beta:1:");
    a.send("\x02i");
    a.wait_for("C-b i names the workspace", |s| {
        status_line(s).contains("workspace beta · pane ")
    });
    a.send("\x02(");
    a.wait_for("alpha on the bar again", |s| {
        status_line(s).starts_with("[alpha]")
    });
}

/// A terminal attached with `-r` says READ-ONLY on its bar before any key
/// is pressed; the other terminal does not.
#[test]
fn a_read_only_terminal_is_marked_from_its_first_frame() {
    let a = Tilework::start(&["--session", "shown"], ROWS, COLS);
    prompt(&a);
    let viewer = a.start_beside(&["attach", "-r", "shown"], ROWS, COLS);
    viewer.wait_for("the read-only mark", |s| {
        status_line(s).contains("READ-ONLY")
    });
    assert!(!a.screen_text().contains("READ-ONLY"));
}

/// `set_titles = false` leaves the terminal's title alone.
#[test]
fn set_titles_false_sets_no_title() {
    let cfg = common::TempDir::new("titles");
    let config = cfg.path().join("config.toml");
    std::fs::write(&config, "[status]\nset_titles = false\n").unwrap();
    let mut a = Tilework::start(
        &["--config", config.to_str().unwrap(), "--session", "quiet"],
        ROWS,
        COLS,
    );
    prompt(&a);
    a.type_line("echo drawn-$((2+2))");
    a.wait_for_text("drawn-4");
    assert!(!a.raw_contains(b"\x1b]2;"), "a title was set");
}

/// `C-b $` onto the name of a workspace that runs says it runs (it was
/// said to be saved, with `forget` to delete it).
#[test]
fn renaming_onto_a_running_workspace_says_it_runs() {
    let mut a = Tilework::start(&["--session", "first"], ROWS, COLS);
    prompt(&a);
    let b = a.start_beside(&["--session", "second"], ROWS, COLS);
    prompt(&b);
    // Running, and saved as it runs.
    let manifest = a
        .dir
        .path()
        .join("state/tilework/saved/second/manifest.json");
    common::wait_until("second saved", || manifest.is_file());
    a.send("\x02$");
    a.wait_for("the rename prompt", |s| status_line(s).contains("first"));
    a.send("\x15second\r");
    a.wait_for("the refusal", |s| {
        status_line(s).contains("a workspace named second is already running")
    });
    assert!(!a.screen_text().contains("forget"));
}
