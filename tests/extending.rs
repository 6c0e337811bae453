//! Extending tilework without forking it (issue 33, part 2), end to end:
//! reloading the config (`C-b R`, `tilework action source-config`),
//! status-bar command segments, hooks, paste buffers and `tilework pipe`.
//! Each test runs the real binary in a PTY with a config file of its own
//! and waits on what the user would see (the screen, a file a hook or a
//! pipe writes).

#![allow(clippy::unwrap_used)]

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::Tilework;

const ROWS: u16 = 24;
const COLS: u16 = 160;

/// A workspace named `name` reading `config` from a file of its own; its
/// shell at its prompt. Returns the config file's path.
fn start(name: &str, config: &str) -> (Tilework, Config) {
    let dir = common::TempDir::new("extending-config");
    let path = dir.path().join("config.toml");
    std::fs::write(&path, config).unwrap();
    let tw = Tilework::start(
        &["--session", name, "--config", path.to_str().unwrap()],
        ROWS,
        COLS,
    );
    tw.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
    (tw, Config { path, _dir: dir })
}

/// The test's config file (its directory goes with it).
struct Config {
    path: PathBuf,
    _dir: common::TempDir,
}

impl Config {
    fn write(&self, text: &str) {
        std::fs::write(&self.path, text).unwrap();
    }
}

/// `tilework ARGS` as a script outside the workspace runs it: stdout,
/// stderr, exit status.
fn cli(tw: &Tilework, args: &[&str]) -> (String, String, i32) {
    let out = Command::new(common::binary())
        .args(args)
        .env("XDG_RUNTIME_DIR", tw.runtime_dir())
        .env_remove("TILEWORK")
        .current_dir(tw.dir.path())
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn status_row(tw: &Tilework) -> String {
    tw.row_text(tw.rows - 1, 0, tw.cols)
}

/// How many shell prompts the screen shows (one per shell pane).
fn prompts(s: &vt100::Screen) -> usize {
    s.contents().matches("$ ").count()
}

#[test]
fn reload_takes_a_new_binding_and_refuses_a_broken_file_keeping_the_old_config() {
    let (mut tw, config) = start("reload", "");
    config.write(
        "[keys.prefixed]\n\"y\" = \"split-right\"\n[status]\nleft = [\"tabs\", \"text:RELOADED\"]\n",
    );
    tw.send(b"\x02R");
    tw.wait_for("the reloaded status bar", |s| {
        s.contents().contains("RELOADED")
    });
    tw.send(b"\x02y");
    tw.wait_for("a second pane from the new binding", |s| prompts(s) >= 2);

    // A broken file is refused with where it is wrong; the keys stay.
    config.write("[keys.prefixed]\n\"y\" = \"split-sideways\"\n");
    tw.send(b"\x02R");
    tw.wait_for("the error with its line and column", |s| {
        s.contents().contains("config.toml:2:7")
    });
    assert!(
        status_row(&tw).contains("config not reloaded"),
        "{}",
        status_row(&tw)
    );
    let (_, err, code) = cli(&tw, &["action", "source-config"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("config.toml:2:7") && err.contains("split-sideways"),
        "{err}"
    );
    tw.send(b"\x02y");
    tw.wait_for("a third pane: the old binding stays", |s| prompts(s) >= 3);
    assert!(
        tw.screen_text().contains("RELOADED"),
        "the old status bar stays"
    );
}
