//! Detach and attach (issue 13): the workspace outlives its terminal. Each
//! test runs the real binary in real PTYs: terminal A starts a workspace,
//! terminal B attaches to it; `ls` and `kill` run as plain commands.

#![allow(clippy::unwrap_used)]

mod common;

use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::Command;

use common::Tilework;

const ROWS: u16 = 24;
const COLS: u16 = 80;

/// `tilework ARGS` with the test's runtime dir; its stdout, stderr and status.
fn run_cli(runtime: &Path, args: &[&str]) -> (String, String, i32) {
    let out = Command::new(common::binary())
        .args(args)
        .env("XDG_RUNTIME_DIR", runtime)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// Terminal B: `tilework attach ARGS` in a PTY of its own, reaching A's
/// workspaces.
fn attach_from(a: &Tilework, args: &[&str], rows: u16, cols: u16) -> Tilework {
    let runtime = a.runtime_dir();
    let runtime = runtime.to_str().unwrap();
    let mut argv = vec!["attach"];
    argv.extend_from_slice(args);
    Tilework::start_with(&argv, rows, cols, &[("XDG_RUNTIME_DIR", runtime)])
}

fn prompt(tw: &Tilework) {
    tw.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
}

#[test]
fn detach_restores_the_terminal_and_attach_shows_what_ran_meanwhile() {
    let mut a = Tilework::start(&["--session", "work"], ROWS, COLS);
    prompt(&a);
    let workspace = a.workspace_pid();
    let marker = a.dir.path().join("marker");
    // Output that comes while nobody is attached.
    a.type_line(&format!(
        "sleep 1; echo while-detached-$((6*7)); touch {}",
        marker.display()
    ));
    a.send("\x02d");
    let status = a.wait_exit();
    assert_eq!(status.exit_code(), 0, "{status:?}");
    a.assert_terminal_restored();
    a.wait_for_text("[detached from workspace work");
    assert!(
        common::alive(workspace),
        "the workspace died with its terminal"
    );

    let (out, _, code) = run_cli(&a.runtime_dir(), &["ls"]);
    assert_eq!(code, 0);
    let row = out
        .lines()
        .find(|l| l.starts_with("work "))
        .unwrap_or_else(|| panic!("work not listed:\n{out}"));
    assert!(row.contains("detached"), "{row}");
    assert!(
        row.split_whitespace().nth(1) == Some("1"),
        "one pane: {row}"
    );

    common::wait_until("the pane's output while detached", || marker.exists());
    let mut b = attach_from(&a, &["work"], 30, 100);
    b.wait_for_text("while-detached-42");
    // The workspace took B's size: the status bar is on B's last row.
    b.wait_for("the status bar on row 30", |s| {
        !s.contents_between(29, 0, 29, 100).trim().is_empty()
    });
    b.type_line("echo typed-in-b-$((2*3))");
    b.wait_for_text("typed-in-b-6");
    let (out, _, _) = run_cli(&a.runtime_dir(), &["ls"]);
    assert!(
        out.lines()
            .any(|l| l.starts_with("work ") && l.contains("attached")),
        "{out}"
    );
    b.send("\x02Q");
    assert_eq!(b.wait_exit().exit_code(), 0);
    b.assert_terminal_restored();
    common::wait_until("the workspace to end", || !common::alive(workspace));
}

#[test]
fn the_socket_directory_and_socket_are_private() {
    let a = Tilework::start(&["--session", "priv"], ROWS, COLS);
    prompt(&a);
    let dir = a.runtime_dir().join("tilework");
    let meta = std::fs::symlink_metadata(&dir).unwrap();
    assert!(meta.is_dir());
    assert_eq!(meta.permissions().mode() & 0o777, 0o700, "directory mode");
    assert_eq!(meta.uid(), rustix::process::getuid().as_raw());
    let sock = std::fs::symlink_metadata(dir.join("priv")).unwrap();
    assert!(sock.file_type().is_socket());
    assert_eq!(sock.permissions().mode() & 0o777, 0o600, "socket mode");
}
