//! Which process gets which signal, and what follows (issue 44,
//! `docs/signals.md`): a client (the `tilework` in a terminal) is
//! disposable, the workspace process is not. Each test runs the real binary
//! in real PTYs, in directories of its own.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::process::Command;

use common::Tilework;
use nix::sys::signal::Signal;

const ROWS: u16 = 24;
const COLS: u16 = 80;

fn prompt(tw: &Tilework) {
    tw.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
}

fn signal_pid(pid: u32, sig: Signal) {
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(i32::try_from(pid).unwrap()), sig).unwrap();
}

/// `tilework ls` as `tw`'s terminal would run it.
fn ls(tw: &Tilework) -> String {
    let out = Command::new(common::binary())
        .arg("ls")
        .env("XDG_RUNTIME_DIR", tw.runtime_dir())
        .env("XDG_STATE_HOME", tw.dir.path().join("state"))
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The row `ls` shows for workspace `name`.
fn ls_row(tw: &Tilework, name: &str) -> Option<String> {
    ls(tw)
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .map(str::to_string)
}

/// SIGTERM to a second terminal's client detaches that terminal alone;
/// then SIGTERM to the first's (the one that started the workspace) does
/// the same, and the second, attached again, still types into the shell
/// that ran all along.
#[test]
fn sigterm_to_either_client_detaches_that_terminal_alone() {
    let mut a = Tilework::start(&["--session", "pair"], ROWS, COLS);
    prompt(&a);
    let workspace = a.workspace_pid();
    a.type_line("echo shell-pid-$$");
    a.wait_for_text("shell-pid-");
    let mut b = a.start_beside(&["attach", "pair"], ROWS, COLS);
    prompt(&b);
    b.signal(Signal::SIGTERM);
    assert_eq!(b.wait_exit().exit_code(), 128 + 15);
    b.assert_terminal_restored();
    b.wait_for_text("[detached from workspace pair: SIGTERM; `tilework attach pair`");
    a.type_line("echo a-still-$((20+2))");
    a.wait_for_text("a-still-22");

    let mut c = a.start_beside(&["attach", "pair"], ROWS, COLS);
    c.wait_for_text("a-still-22");
    a.signal(Signal::SIGTERM);
    assert_eq!(a.wait_exit().exit_code(), 128 + 15);
    a.assert_terminal_restored();
    assert!(common::alive(workspace));
    c.type_line("echo c-types-$((3*3))");
    c.wait_for_text("c-types-9");
    let row = ls_row(&a, "pair").unwrap();
    assert!(row.contains("attached"), "{row}");
}

/// SIGINT to a client (`kill -INT`; `^C` is a key in raw mode and goes to
/// the program) detaches it as SIGTERM does.
#[test]
fn sigint_to_a_client_detaches_it() {
    let mut a = Tilework::start(&["--session", "inty"], ROWS, COLS);
    prompt(&a);
    let workspace = a.workspace_pid();
    a.signal(Signal::SIGINT);
    assert_eq!(a.wait_exit().exit_code(), 128 + 2);
    a.assert_terminal_restored();
    a.wait_for_text("[detached from workspace inty: SIGINT;");
    assert!(common::alive(workspace));
    let row = ls_row(&a, "inty").unwrap();
    assert!(row.contains("detached"), "{row}");
}

/// SIGTERM to the workspace's own process (a shutdown) ends it: every
/// terminal is told and let go, and it was saved on the way, so `attach`
/// brings back its output.
#[test]
fn sigterm_to_the_workspace_ends_it_with_a_last_save() {
    let mut a = Tilework::start(&["--session", "shut"], ROWS, COLS);
    prompt(&a);
    let workspace = a.workspace_pid();
    a.type_line("echo before-shutdown-$((40+2))");
    a.wait_for_text("before-shutdown-42");
    let mut b = a.start_beside(&["attach", "shut"], ROWS, COLS);
    b.wait_for_text("before-shutdown-42");
    signal_pid(workspace, Signal::SIGTERM);
    assert_eq!(a.wait_exit().exit_code(), 128 + 15);
    assert_eq!(b.wait_exit().exit_code(), 128 + 15);
    a.assert_terminal_restored();
    b.assert_terminal_restored();
    common::wait_until("the workspace to be gone", || !common::alive(workspace));
    let row = ls_row(&a, "shut").unwrap();
    assert!(row.contains("saved"), "{row}");
    let again = a.start_beside(&["attach", "shut"], ROWS, COLS);
    again.wait_for_text("before-shutdown-42");
}

/// A workspace killed with SIGKILL cannot say anything: its client says
/// that it was saved and how to bring it back.
#[test]
fn a_workspace_killed_outright_is_said_saved_with_how_to_bring_it_back() {
    let mut a = Tilework::start(&["--session", "sv"], ROWS, COLS);
    prompt(&a);
    let workspace = a.workspace_pid();
    a.type_line("echo saved-line-$((5+5))");
    a.wait_for_text("saved-line-10");
    let manifest = a.dir.path().join("state/tilework/saved/sv/manifest.json");
    common::wait_until("the workspace saved", || manifest.is_file());
    signal_pid(workspace, Signal::SIGKILL);
    a.wait_exit();
    a.wait_for_text("[workspace sv ended unexpectedly; it was saved: `tilework attach sv` brings");
    let again = a.start_beside(&["attach", "sv"], ROWS, COLS);
    again.wait_for_text("saved-line-10");
}

/// `attach -c NAME` (tmux's `new -A`): creates NAME when it neither runs
/// nor is saved, and attaches when it runs.
#[test]
fn attach_c_creates_then_attaches() {
    let mut a = Tilework::start(&["attach", "-c", "fresh"], ROWS, COLS);
    prompt(&a);
    a.type_line("echo made-$((6*7))");
    a.wait_for_text("made-42");
    let row = ls_row(&a, "fresh").unwrap();
    assert!(row.contains("attached"), "{row}");
    let mut b = a.start_beside(&["attach", "-c", "fresh"], ROWS, COLS);
    b.wait_for_text("made-42");
    b.type_line("echo joined-$((7*7))");
    a.wait_for_text("joined-49");
    let row = ls_row(&a, "fresh").unwrap();
    assert_eq!(row.split_whitespace().nth(3), Some("2"), "{row}");
    // Without `-c`, an unknown name is refused and the way is named.
    let mut c = a.start_beside(&["attach", "nosuch"], ROWS, COLS);
    assert_ne!(c.wait_exit().exit_code(), 0);
    c.wait_for_text("attach -c nosuch");
}
