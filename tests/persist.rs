//! Nothing lost across a reboot (issue 32): a workspace SIGKILLed, its
//! runtime directory emptied as a reboot empties it, comes back with
//! `tilework attach NAME`: its layout, each shell in its directory, the
//! old output above a `restored from` line. Each test runs the real binary
//! in PTYs, with the harness's private XDG_STATE_HOME and XDG_RUNTIME_DIR.

#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Tilework;
use tilework::persist::manifest::Manifest;
use tilework::persist::restore::read_history;

const ROWS: u16 = 24;
const COLS: u16 = 100;

/// The environment that reaches `tw`'s workspaces and saved ones.
fn env_of(tw: &Tilework) -> Vec<(String, String)> {
    let dir = tw.dir.path();
    vec![
        (
            "XDG_RUNTIME_DIR".into(),
            tw.runtime_dir().display().to_string(),
        ),
        (
            "XDG_STATE_HOME".into(),
            dir.join("state").display().to_string(),
        ),
        ("HOME".into(), dir.display().to_string()),
    ]
}

/// `tilework ARGS` beside `tw`: stdout, stderr, status.
fn cli(tw: &Tilework, args: &[&str]) -> (String, String, i32) {
    let out = Command::new(common::binary())
        .args(args)
        .envs(env_of(tw))
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn saved_dir(tw: &Tilework, name: &str) -> PathBuf {
    tw.dir.path().join("state/tilework/saved").join(name)
}

/// Each pane's saved history as text, in the profile's order (empty while
/// nothing is saved).
fn saved_histories(dir: &Path) -> Vec<String> {
    let Ok(manifest) = Manifest::read(dir) else {
        return Vec::new();
    };
    manifest
        .panes
        .iter()
        .map(|pane| String::from_utf8_lossy(&read_history(dir, pane)).into_owned())
        .collect()
}

/// SIGKILLs `tw`'s workspace and empties the runtime directory, as a crash
/// and a reboot would leave them.
fn crash_and_reboot(tw: &mut Tilework) {
    let pid = tw.workspace_pid();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(i32::try_from(pid).unwrap()),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    common::wait_until("the workspace to die", || !common::alive(pid));
    tw.wait_exit();
    let runtime = tw.runtime_dir().join("tilework");
    for entry in std::fs::read_dir(&runtime).unwrap().flatten() {
        std::fs::remove_file(entry.path()).unwrap();
    }
}

/// `tilework attach ARGS` in a terminal of its own, beside `tw`.
fn attach(tw: &Tilework, name: &str) -> Tilework {
    let env = env_of(tw);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    Tilework::start_with(&["attach", name], ROWS, COLS, &env)
}

fn write_two_shells_profile(tw_dir: &Path) -> PathBuf {
    for d in ["alpha", "beta"] {
        std::fs::create_dir_all(tw_dir.join(d)).unwrap();
    }
    let profile = tw_dir.join("two.toml");
    std::fs::write(
        &profile,
        format!(
            "[[tab]]\nlayout = {{ split = \"right\", panes = [{{ cwd = \"{}\", focus = true }}, {{ cwd = \"{}\" }}] }}\n",
            tw_dir.join("alpha").display(),
            tw_dir.join("beta").display()
        ),
    )
    .unwrap();
    profile
}

/// Starts `tilework --session NAME` with two shells in alpha and beta
/// under `root` (a directory that outlives the terminal).
fn start_two(root: &Path, name: &str) -> Tilework {
    let profile = write_two_shells_profile(root);
    Tilework::start(
        &["--session", name, "--profile", profile.to_str().unwrap()],
        ROWS,
        COLS,
    )
}

fn two_prompts(tw: &Tilework) {
    tw.wait_for("both shells' prompts", |s| {
        s.contents().matches("$ ").count() >= 2
    });
}

#[test]
fn a_killed_workspace_comes_back_after_a_reboot_with_its_panes_and_history() {
    let root = common::TempDir::new("persist-dirs");
    let mut a = start_two(root.path(), "keep");
    two_prompts(&a);
    a.type_line("echo first-of-all; seq -f 'row-%g' 1 3000");
    a.wait_for_text("row-3000");
    a.send("\x02o");
    a.type_line("echo beta-$((6*7))");
    a.wait_for_text("beta-42");
    let saved = saved_dir(&a, "keep");
    common::wait_until("the output to be saved", || {
        let h = saved_histories(&saved);
        h.len() == 2 && h[0].contains("row-3000\r\n") && h[1].contains("beta-42")
    });
    crash_and_reboot(&mut a);

    let (out, err, code) = cli(&a, &["ls"]);
    assert_eq!(code, 0, "{err}");
    let row = out
        .lines()
        .find(|l| l.starts_with("keep "))
        .unwrap_or_else(|| panic!("keep not listed:\n{out}"));
    assert!(row.contains("saved"), "{row}");
    assert_eq!(row.split_whitespace().nth(1), Some("2"), "{row}");

    let mut b = attach(&a, "keep");
    b.wait_for("both panes back with their last lines", |s| {
        let text = s.contents();
        text.contains("row-3000")
            && text.contains("beta-42")
            && text.matches("restored from").count() == 2
    });
    two_prompts(&b);
    // Each shell runs in its directory again.
    let (json, err, code) = cli(&a, &["list-panes", "--json", "--session", "keep"]);
    assert_eq!(code, 0, "{err}");
    let panes: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
    let cwds: Vec<&str> = panes.iter().filter_map(|p| p["cwd"].as_str()).collect();
    assert_eq!(cwds.len(), 2, "{json}");
    assert!(
        cwds[0].ends_with("/alpha") && cwds[1].ends_with("/beta"),
        "{cwds:?}"
    );
    // The first line is in copy mode, in the alpha pane.
    b.send("\x02o");
    b.send("\x02[");
    b.send("g");
    b.wait_for_text("first-of-all");
    b.send("q");
    // Back and forgotten once quit cleanly.
    let (_, err, code) = cli(&a, &["kill", "keep"]);
    assert_eq!(code, 0, "{err}");
    common::wait_until("the saved workspace to be forgotten", || !saved.exists());
}
