//! Many `tilework`s started at once in one runtime directory (issue 30):
//! each launcher must get a workspace of its own under a name of its own,
//! show it, and leave nothing behind when it quits. Every launcher runs in
//! its own PTY, as terminals opened together by a script or a window
//! manager's session restore would.

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeSet;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::process::Command;

use common::Tilework;

const LAUNCHERS: usize = 8;
const ROUNDS: usize = 20;
const ROWS: u16 = 12;
const COLS: u16 = 60;

/// The workspaces `tilework ls` lists in `runtime`: (name, pid, state).
/// Not the saved workspaces of the user running the tests (listed with
/// `-` for a pid): `ls` looks for them in a state directory of its own.
fn listed(runtime: &Path) -> Vec<(String, u32, String)> {
    let out = Command::new(common::binary())
        .arg("ls")
        .env("XDG_RUNTIME_DIR", runtime)
        .env("XDG_STATE_HOME", runtime.join("state"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .skip(1)
        .map(|line| {
            let cols: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(cols.len(), 7, "an ls row: {line:?}");
            (
                cols[0].to_string(),
                cols[6].parse().unwrap(),
                cols[2].into(),
            )
        })
        .collect()
}

/// The sockets left in `runtime`'s socket directory.
fn sockets(runtime: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(runtime.join("tilework")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_socket()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

/// The pid the pane's `$TILEWORK` names (its workspace's), once echoed.
fn workspace_pid_shown(tw: &Tilework) -> u32 {
    let pattern = regex::Regex::new(r"ws-(\d+)-end").unwrap();
    let mut pid = None;
    tw.wait_for("the pane's workspace pid", |s| {
        pid = pattern
            .captures(&s.contents())
            .and_then(|c| c[1].parse().ok());
        pid.is_some()
    });
    pid.unwrap()
}

/// Ends whatever the test's runtime directory still runs, even when an
/// assertion failed (declared first: dropped last).
struct Runtime(common::TempDir);

impl Drop for Runtime {
    fn drop(&mut self) {
        common::end_workspaces(self.0.path());
    }
}

#[test]
fn launches_at_the_same_moment_each_get_a_workspace_of_their_own() {
    let rt = Runtime(common::TempDir::new("launches"));
    let runtime = rt.0.path().to_str().unwrap().to_string();
    for round in 0..ROUNDS {
        // All started before any is waited on: the launches overlap.
        let mut terminals: Vec<Tilework> = (0..LAUNCHERS)
            .map(|_| {
                Tilework::start_with(&[], ROWS, COLS, &[("XDG_RUNTIME_DIR", runtime.as_str())])
            })
            .collect();
        for tw in &terminals {
            tw.wait_for(&format!("a prompt in round {round}"), |s| {
                s.contents().contains("$ ")
            });
        }
        let mut shown = BTreeSet::new();
        for tw in &mut terminals {
            tw.type_line("echo ws-$TILEWORK-end");
        }
        for tw in &terminals {
            shown.insert(workspace_pid_shown(tw));
        }
        assert_eq!(
            shown.len(),
            LAUNCHERS,
            "round {round}: terminals share a workspace: {shown:?}"
        );
        let ls = listed(rt.0.path());
        let names: BTreeSet<String> = ls.iter().map(|(name, _, _)| name.clone()).collect();
        let expected: BTreeSet<String> = (0..LAUNCHERS).map(|i| i.to_string()).collect();
        assert_eq!(names, expected, "round {round}: the names taken: {ls:?}");
        let listed_pids: BTreeSet<u32> = ls.iter().map(|&(_, pid, _)| pid).collect();
        assert_eq!(listed_pids, shown, "round {round}: {ls:?}");
        assert!(
            ls.iter().all(|(_, _, state)| state == "attached"),
            "round {round}: {ls:?}"
        );
        for tw in &mut terminals {
            tw.type_line("exit");
        }
        for tw in &mut terminals {
            let status = tw.wait_exit();
            let screen = tw.screen_text();
            assert_eq!(status.exit_code(), 0, "round {round}: {status:?}\n{screen}");
            assert!(!screen.contains("tilework"), "round {round}:\n{screen}");
            tw.assert_terminal_restored();
        }
        assert_eq!(
            sockets(rt.0.path()),
            Vec::<String>::new(),
            "round {round}: sockets left behind"
        );
    }
}
