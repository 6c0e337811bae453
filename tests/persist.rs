//! Nothing lost across a reboot (issue 32): a workspace SIGKILLed, its
//! runtime directory emptied as a reboot empties it, comes back with
//! `tilework attach NAME`: its layout, each shell in its directory, the
//! old output above a `restored from` line. Each test runs the real binary
//! in PTYs; its config and saved workspaces are in a directory of its own
//! (XDG_CONFIG_HOME, XDG_STATE_HOME), its sockets in the harness's private
//! XDG_RUNTIME_DIR.

#![allow(clippy::unwrap_used)]

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{TempDir, Tilework, crash_and_reboot, rows_with};
use tilework::persist::manifest::Manifest;
use tilework::persist::restore::read_history;

const ROWS: u16 = 24;
const COLS: u16 = 100;

/// Where a test keeps its config, its saved workspaces and its panes'
/// directories: outlives the terminals, as the user's home does.
struct Home(TempDir);

impl Home {
    fn new(config: &str) -> Self {
        let home = TempDir::new("persist");
        let dir = home.path().join("config/tilework");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.toml"), config).unwrap();
        for d in ["alpha", "beta"] {
            std::fs::create_dir_all(home.path().join(d)).unwrap();
        }
        Self(home)
    }

    fn path(&self) -> &Path {
        self.0.path()
    }

    /// The environment of `tw`'s workspaces (its runtime directory) with
    /// this home's config and state.
    fn env(&self, tw: Option<&Tilework>) -> Vec<(String, String)> {
        let mut env = vec![
            (
                "XDG_CONFIG_HOME".to_string(),
                self.path().join("config").display().to_string(),
            ),
            (
                "XDG_STATE_HOME".to_string(),
                self.path().join("state").display().to_string(),
            ),
        ];
        if let Some(tw) = tw {
            env.push((
                "XDG_RUNTIME_DIR".to_string(),
                tw.runtime_dir().display().to_string(),
            ));
        }
        env
    }

    /// `tilework ARGS` in `dir` in a terminal of its own.
    fn start(&self, args: &[&str], beside: Option<&Tilework>) -> Tilework {
        let env = self.env(beside);
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        Tilework::start_with(args, ROWS, COLS, &env)
    }

    /// `tilework --session NAME` with two shells side by side, in `alpha`
    /// and `beta`.
    fn start_two(&self, name: &str) -> Tilework {
        let profile = self.path().join("two.toml");
        std::fs::write(
            &profile,
            format!(
                "[[tab]]\nlayout = {{ split = \"right\", panes = [{{ cwd = \"{}\", focus = true }}, {{ cwd = \"{}\" }}] }}\n",
                self.path().join("alpha").display(),
                self.path().join("beta").display()
            ),
        )
        .unwrap();
        let tw = self.start(
            &["--session", name, "--profile", profile.to_str().unwrap()],
            None,
        );
        tw.wait_for("both shells' prompts", |s| {
            s.contents().matches("$ ").count() >= 2
        });
        tw
    }

    /// `tilework ARGS` beside `tw`: stdout, stderr, status.
    fn cli(&self, tw: &Tilework, args: &[&str]) -> (String, String, i32) {
        let out = Command::new(common::binary())
            .args(args)
            .envs(self.env(Some(tw)))
            .output()
            .unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.code().unwrap_or(-1),
        )
    }

    fn ok(&self, tw: &Tilework, args: &[&str]) -> String {
        let (out, err, code) = self.cli(tw, args);
        assert_eq!(code, 0, "tilework {args:?}: {err}");
        out
    }

    fn saved_root(&self) -> PathBuf {
        self.path().join("state/tilework/saved")
    }

    fn saved(&self, name: &str) -> PathBuf {
        self.saved_root().join(name)
    }

    /// `tilework ls`'s row for `name`, if listed.
    fn ls_row(&self, tw: &Tilework, name: &str) -> Option<String> {
        let out = self.ok(tw, &["ls"]);
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .map(str::to_string)
    }
}

/// Each pane's saved history, in the profile's order (empty while nothing
/// is saved).
fn saved_histories(dir: &Path) -> Vec<Vec<u8>> {
    let Ok(manifest) = Manifest::read(dir) else {
        return Vec::new();
    };
    manifest
        .panes
        .iter()
        .map(|pane| read_history(dir, pane))
        .collect()
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    memchr::memmem::find(haystack, needle.as_bytes()).is_some()
}

#[test]
fn a_killed_workspace_comes_back_after_a_reboot_with_its_panes_and_history() {
    let home = Home::new("");
    let mut a = home.start_two("keep");
    a.type_line("echo first-of-all; seq -f 'row-%g' 1 3000");
    a.wait_for_text("row-3000");
    a.send("\x02o");
    // A directory changed since the start is the one saved.
    a.type_line("mkdir deeper && cd deeper && echo beta-$((6*7))");
    a.wait_for_text("beta-42");
    let saved = home.saved("keep");
    common::wait_until("the output and the new directory to be saved", || {
        let h = saved_histories(&saved);
        h.len() == 2
            && contains(&h[0], "row-3000\r\n")
            && contains(&h[1], "beta-42")
            && Manifest::read(&saved).is_ok_and(|m| m.layout.contains("beta/deeper"))
    });
    crash_and_reboot(&mut a);

    let row = home.ls_row(&a, "keep").expect("keep listed");
    assert!(row.contains("saved"), "{row}");
    assert_eq!(row.split_whitespace().nth(1), Some("2"), "{row}");
    let long = home.ok(&a, &["ls", "-l"]);
    let row = long.lines().find(|l| l.starts_with("keep ")).unwrap();
    assert!(row.trim_end().ends_with('M'), "no disk use: {long}");

    let mut b = home.start(&["attach", "keep"], Some(&a));
    b.wait_for("both panes back with their last lines", |s| {
        let text = s.contents();
        text.contains("row-3000")
            && text.contains("beta-42")
            && text.matches("restored from").count() == 2
    });
    b.wait_for("both shells' prompts", |s| {
        s.contents().matches("$ ").count() >= 4
    });
    // Each shell runs in its directory again.
    let json = home.ok(&a, &["list-panes", "--json", "--session", "keep"]);
    let panes: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
    let cwds: Vec<&str> = panes.iter().filter_map(|p| p["cwd"].as_str()).collect();
    assert_eq!(cwds.len(), 2, "{json}");
    assert!(
        cwds[0].ends_with("/alpha") && cwds[1].ends_with("/beta/deeper"),
        "{cwds:?}"
    );
    // The first line is in copy mode, in the alpha pane.
    b.send("\x02o");
    b.send("\x02[");
    b.send("g");
    b.wait_for_text("first-of-all");
    b.send("q");
    // A clean end forgets it.
    home.ok(&a, &["kill", "keep"]);
    common::wait_until("the saved workspace to be forgotten", || !saved.exists());
    assert!(home.ls_row(&a, "keep").is_none());
}

#[test]
fn a_progress_bar_saved_at_one_width_comes_back_once_at_another() {
    let home = Home::new("");
    let env = home.env(None);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    // One pane 120 columns wide draws a `\r` progress bar for its width.
    let mut a = Tilework::start_with(&["--session", "bar"], ROWS, 122, &env);
    a.wait_for("a shell prompt", |s| s.contents().contains("$ "));
    common::print_wide_progress_bar(&mut a);
    let saved = home.saved("bar");
    common::wait_until("the output and its sizes to be saved", || {
        let sizes = std::fs::read_dir(&saved).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|e| e.path().extension().is_some_and(|x| x == "sizes"))
        });
        sizes
            && saved_histories(&saved)
                .first()
                .is_some_and(|h| contains(h, "END"))
    });
    crash_and_reboot(&mut a);

    // Back in a terminal 60 columns wide: the bar once in copy mode.
    let env = home.env(Some(&a));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut b = Tilework::start_with(&["attach", "bar"], ROWS, 62, &env);
    b.wait_for("the history back", |s| {
        s.contents().contains("restored from") && rows_with(s, "END") == 1
    });
    b.send("\x02[");
    b.send("g");
    b.wait_for("the bar once at the top of the history", |s| {
        rows_with(s, "downloading [") == 1
            && rows_with(s, "100% 1.2MB/s") == 1
            && rows_with(s, "RDY") == 1
    });
    b.send("q");
}

/// The flood's output, as the pane got it: line `n` (from 1) is
/// `flood-NNNNNNN\r\n`, 15 bytes.
fn flood_bytes(from: u64, len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 15);
    let mut line = from / 15;
    let skip = usize::try_from(from % 15).unwrap();
    while out.len() < len + skip {
        out.extend_from_slice(format!("flood-{:07}\r\n", line + 1).as_bytes());
        line += 1;
    }
    out.drain(..skip);
    out.truncate(len);
    out
}

#[test]
fn a_kill_in_the_middle_of_a_flood_restores_everything_sealed_as_it_was() {
    let home = Home::new("scrollback = \"256MiB\"\n");
    let mut a = home.start(
        &["--session", "flood", "-c", "seq -f flood-%07g 1 9999999"],
        None,
    );
    a.wait_for_text("flood-");
    let saved = home.saved("flood");
    let mut before = 0;
    common::wait_until("a few blocks of the flood to be saved", || {
        before = saved_histories(&saved).first().map_or(0, Vec::len);
        before >= 4 << 16
    });
    crash_and_reboot(&mut a);

    // What was saved is the flood's output from its start, byte for
    // byte, at least as far as it was when the kill was decided.
    let history = saved_histories(&saved).remove(0);
    assert!(history.len() >= before, "{} < {before}", history.len());
    assert!(
        history == flood_bytes(0, history.len()),
        "the saved history differs from the output"
    );

    // And the pane shows it again: its history as a parser shows it, the
    // last line (maybe cut) just above the marker.
    let b = home.start(&["attach", "flood"], Some(&a));
    b.wait_for_text("restored from");
    let text = home.ok(&a, &["capture", "--history", "--session", "flood"]);
    let lines: Vec<&str> = text.lines().collect();
    let marker = lines
        .iter()
        .position(|l| l.contains("restored from"))
        .unwrap_or_else(|| panic!("no marker in the history"));
    let expected = String::from_utf8(history).unwrap();
    // A kill between a line's `\r` and its `\n` leaves the `\r` last: it
    // prints nothing (the cursor goes back), so the line reads the same.
    let expected: Vec<&str> = expected
        .lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    // The marker starts on a line of its own: after a cut line, a blank one.
    let shown: Vec<&str> = lines[..marker]
        .iter()
        .copied()
        .filter(|l| !l.is_empty())
        .collect();
    let first_difference = shown
        .iter()
        .zip(&expected)
        .position(|(a, b)| a != b)
        .map(|i| (i, shown[i], expected[i]));
    assert_eq!(
        shown.len(),
        expected.len(),
        "first difference: {first_difference:?}"
    );
    assert!(
        first_difference.is_none(),
        "the restored history differs from the reference: {first_difference:?}"
    );
    drop(b);
}

#[test]
fn a_cut_or_damaged_file_restores_the_rest() {
    let home = Home::new("");
    let mut a = home.start(&["--session", "hurt"], None);
    a.wait_for_text("$ ");
    a.type_line("seq -f 'row-%06g' 1 30000; echo done-$((6*7))");
    a.wait_for_text("done-42");
    let saved = home.saved("hurt");
    common::wait_until("the output to be saved", || {
        saved_histories(&saved)
            .first()
            .is_some_and(|h| contains(h, "done-42\r\n"))
    });
    crash_and_reboot(&mut a);
    let mut segments: Vec<PathBuf> = std::fs::read_dir(&saved)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "blk"))
        .collect();
    segments.sort();
    let segment = segments.last().unwrap();
    let mut bytes = std::fs::read(segment).unwrap();
    // The second block damaged, the last one cut in half.
    let records: Vec<usize> = memchr::memmem::find_iter(&bytes, b"TWB1").collect();
    assert!(records.len() >= 4, "{} records", records.len());
    bytes[records[1] + 40] ^= 0x55;
    let last = records[records.len() - 1];
    bytes.truncate(last + (bytes.len() - last) / 2);
    std::fs::write(segment, &bytes).unwrap();

    let b = home.start(&["attach", "hurt"], Some(&a));
    b.wait_for_text("restored from");
    let text = home.ok(&a, &["capture", "--history", "--session", "hurt"]);
    assert!(text.contains("row-000001\n"), "the first block is lost");
    assert!(text.contains("could not be read"), "no note of the loss");
    assert!(text.contains("done-42"), "the tail is lost");
    let row = home.ls_row(&a, "hurt").unwrap();
    assert!(row.contains("attached"), "{row}");
    drop(b);
}

#[test]
fn forget_deletes_a_saved_workspace() {
    let home = Home::new("");
    let mut a = home.start(&["--session", "old"], None);
    a.wait_for_text("$ ");
    common::wait_until("the workspace to be saved", || {
        home.saved("old").join("manifest.json").exists()
    });
    crash_and_reboot(&mut a);
    assert!(home.ls_row(&a, "old").is_some_and(|r| r.contains("saved")));
    // Its name is taken until it is forgotten.
    let (_, err, code) = home.cli(&a, &["forget", "nothing"]);
    assert_ne!(code, 0);
    assert!(err.contains("no workspace named nothing is saved"), "{err}");
    home.ok(&a, &["forget", "old"]);
    assert!(!home.saved("old").exists());
    assert!(home.ls_row(&a, "old").is_none());
}

#[test]
fn quitting_forgets_the_workspace_unless_keep_on_quit() {
    let home = Home::new("");
    let mut a = home.start(&["--session", "gone"], None);
    a.wait_for_text("$ ");
    common::wait_until("the workspace to be saved", || {
        home.saved("gone").join("manifest.json").exists()
    });
    a.send("\x02Q");
    a.wait_exit();
    assert!(!home.saved("gone").exists(), "C-b Q kept it");

    let home = Home::new("keep_on_quit = true\n");
    let mut a = home.start_two("kept");
    a.type_line("echo kept-$((6*7))");
    a.wait_for_text("kept-42");
    a.send("\x02Q");
    a.wait_exit();
    let h = saved_histories(&home.saved("kept"));
    assert!(h.len() == 2 && contains(&h[0], "kept-42"), "not kept");
    let b = home.start(&["attach", "kept"], Some(&a));
    b.wait_for_text("kept-42");
    b.wait_for_text("restored from");
}

#[test]
fn without_persist_history_the_layout_comes_back_without_output() {
    let home = Home::new("persist_history = false\n");
    let mut a = home.start_two("bare");
    a.type_line("echo secret-$((6*7))");
    a.wait_for_text("secret-42");
    common::wait_until("the layout to be saved", || {
        Manifest::read(&home.saved("bare")).is_ok_and(|m| m.panes.len() == 2)
    });
    crash_and_reboot(&mut a);
    let files: Vec<String> = std::fs::read_dir(home.saved("bare"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files, ["manifest.json"], "output written to disk");
    let b = home.start(&["attach", "bare"], Some(&a));
    b.wait_for("both shells, without their output", |s| {
        s.contents().matches("restored from").count() == 2
    });
    assert!(!b.screen_text().contains("secret-42"));
    let json = home.ok(&a, &["list-panes", "--json", "--session", "bare"]);
    assert!(
        json.contains("/alpha\"") && json.contains("/beta\""),
        "{json}"
    );
}

/// The files under `dir` (all the way down) that hold `needle`, as they
/// are or once their records are decompressed.
fn files_holding(dir: &Path, needle: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_holding(&path, needle));
            continue;
        }
        let bytes = std::fs::read(&path).unwrap_or_default();
        let (blocks, _) = tilework::persist::block_file::decode_all(&bytes);
        let plain: Vec<u8> = blocks.into_iter().flat_map(|b| b.plain).collect();
        if contains(&bytes, needle) || contains(&plain, needle) {
            found.push(path);
        }
    }
    found
}

#[test]
fn what_clear_erased_is_gone_from_disk_and_from_the_restored_history() {
    let home = Home::new("");
    let mut a = home.start(&["--session", "wiped"], None);
    a.wait_for_text("$ ");
    // Enough output that some of it is sealed in blocks before the clear.
    a.type_line("seq -f 'row-%g' 1 20000; echo secret-$((6*7))");
    a.wait_for_text("secret-42");
    let state = home.path().join("state");
    common::wait_until("the secret to be saved", || {
        !files_holding(&state, "secret-42").is_empty()
    });
    // bash's and dash's `clear` send ED 3 (`CSI 3 J`) after clearing.
    a.type_line("clear; echo after-$((6*8))");
    a.wait_for_text("after-48");
    common::wait_until("the secret and what came before to leave the disk", || {
        files_holding(&state, "secret-42").is_empty()
            && files_holding(&state, "row-20000").is_empty()
            && saved_histories(&home.saved("wiped"))
                .first()
                .is_some_and(|h| contains(h, "after-48\r\n"))
    });
    // The live history shows nothing before the clear either.
    let live = home.ok(&a, &["capture", "--history", "--session", "wiped"]);
    assert!(
        !live.contains("secret-42") && live.contains("after-48"),
        "{live}"
    );
    crash_and_reboot(&mut a);

    let b = home.start(&["attach", "wiped"], Some(&a));
    b.wait_for_text("restored from");
    b.wait_for_text("after-48");
    assert!(!b.screen_text().contains("secret-42"));
    let restored = home.ok(&a, &["capture", "--history", "--session", "wiped"]);
    assert!(
        !restored.contains("secret-42") && !restored.contains("row-1\n"),
        "{restored}"
    );
    assert!(restored.contains("after-48"), "{restored}");
    assert_eq!(files_holding(&state, "secret-42"), Vec::<PathBuf>::new());
}

#[test]
fn a_pane_with_save_false_never_reaches_the_disk_and_comes_back_empty() {
    let home = Home::new("");
    let profile = home.path().join("kept-out.toml");
    std::fs::write(
        &profile,
        format!(
            "[[tab]]\nlayout = {{ split = \"right\", panes = [{{ cwd = \"{}\", focus = true }}, {{ cwd = \"{}\", save = false }}] }}\n",
            home.path().join("alpha").display(),
            home.path().join("beta").display()
        ),
    )
    .unwrap();
    let mut a = home.start(
        &["--session", "out", "--profile", profile.to_str().unwrap()],
        None,
    );
    a.wait_for("both shells' prompts", |s| {
        s.contents().matches("$ ").count() >= 2
    });
    a.type_line("echo kept-$((6*7))");
    a.send("\x02o");
    a.type_line("echo private-$((6*7))");
    a.wait_for_text("kept-42");
    a.wait_for_text("private-42");
    let state = home.path().join("state");
    common::wait_until("the first pane's output to be saved", || {
        saved_histories(&home.saved("out"))
            .first()
            .is_some_and(|h| contains(h, "kept-42\r\n"))
    });
    // Saved again after the second pane's output: still only its layout.
    a.type_line("echo more-$((6*8))");
    a.wait_for_text("more-48");
    common::wait_until("the layout to say so", || {
        Manifest::read(&home.saved("out")).is_ok_and(|m| {
            m.layout.contains("save = false") && m.panes.len() == 2 && m.panes[1].files.is_none()
        })
    });
    assert_eq!(files_holding(&state, "private-42"), Vec::<PathBuf>::new());
    assert_eq!(files_holding(&state, "more-48"), Vec::<PathBuf>::new());
    crash_and_reboot(&mut a);

    let b = home.start(&["attach", "out"], Some(&a));
    b.wait_for("both panes back, the first with its output", |s| {
        let text = s.contents();
        text.contains("kept-42") && text.matches("restored from").count() == 2
    });
    assert!(!b.screen_text().contains("private-42"));
    // In its directory, and still kept out of saving.
    let json = home.ok(&a, &["list-panes", "--json", "--session", "out"]);
    assert!(json.contains("/beta\""), "{json}");
    common::wait_until("the restored layout to be saved", || {
        Manifest::read(&home.saved("out")).is_ok_and(|m| m.layout.contains("save = false"))
    });
}

#[test]
fn a_pane_run_with_no_save_never_reaches_the_disk() {
    let home = Home::new("");
    let mut a = home.start(&["--session", "nosave"], None);
    a.wait_for_text("$ ");
    a.type_line("echo kept-$((6*7))");
    a.wait_for_text("kept-42");
    let id = home.ok(&a, &["run", "--no-save", "--", "sh"]);
    let id = id.trim();
    a.wait_for("the new pane's prompt", |s| {
        s.contents().matches("$ ").count() >= 3
    });
    home.ok(
        &a,
        &["send-keys", "--pane", id, "echo private-$((6*7))", "Enter"],
    );
    a.wait_for_text("private-42");
    let state = home.path().join("state");
    common::wait_until(
        "both panes in the manifest, the new one without files",
        || {
            Manifest::read(&home.saved("nosave")).is_ok_and(|m| {
                m.panes.len() == 2 && m.panes[0].files.is_some() && m.panes[1].files.is_none()
            }) && saved_histories(&home.saved("nosave"))
                .first()
                .is_some_and(|h| contains(h, "kept-42\r\n"))
        },
    );
    assert_eq!(files_holding(&state, "private-42"), Vec::<PathBuf>::new());
    crash_and_reboot(&mut a);

    let b = home.start(&["attach", "nosave"], Some(&a));
    b.wait_for("the first pane back with its output", |s| {
        s.contents().contains("kept-42")
    });
    b.wait_for_text("press Enter to run it");
    assert!(!b.screen_text().contains("private-42"));
}

#[test]
fn clear_history_forgets_a_pane_s_history_in_memory_and_on_disk() {
    let home = Home::new("");
    let mut a = home.start(&["--session", "forgot"], None);
    a.wait_for_text("$ ");
    a.type_line("echo secret-$((6*7)); seq -f 'row-%g' 1 20000");
    a.wait_for_text("row-20000");
    let state = home.path().join("state");
    common::wait_until("the secret to be saved", || {
        !files_holding(&state, "secret-42").is_empty()
    });
    // tmux's name, from a script or the command prompt.
    home.ok(&a, &["action", "clear-history"]);
    a.type_line("echo after-$((6*8))");
    a.wait_for_text("after-48");
    common::wait_until("the history to leave the disk", || {
        files_holding(&state, "secret-42").is_empty()
            && files_holding(&state, "row-19000").is_empty()
    });
    let live = home.ok(&a, &["capture", "--history", "--session", "forgot"]);
    assert!(
        !live.contains("secret-42") && !live.contains("row-100\n"),
        "{live}"
    );
    assert!(live.contains("after-48"), "{live}");
    // The command prompt knows it too.
    a.send("\x02:clear-history\r");
    a.type_line("echo last-$((6*9))");
    a.wait_for_text("last-54");
    common::wait_until("the last history to be saved alone", || {
        saved_histories(&home.saved("forgot"))
            .first()
            .is_some_and(|h| contains(h, "last-54\r\n") && !contains(h, "after-48\r\n"))
    });
    crash_and_reboot(&mut a);

    let b = home.start(&["attach", "forgot"], Some(&a));
    b.wait_for_text("restored from");
    b.wait_for_text("last-54");
    let restored = home.ok(&a, &["capture", "--history", "--session", "forgot"]);
    assert!(
        !restored.contains("secret-42") && !restored.contains("row-1"),
        "{restored}"
    );
    assert_eq!(files_holding(&state, "secret-42"), Vec::<PathBuf>::new());
}

#[test]
fn listed_commands_restart_at_once_and_others_wait_for_enter() {
    let home = Home::new("restore_commands = [\"tail\"]\n");
    let log = home.path().join("log");
    std::fs::write(&log, "from-the-log\n").unwrap();
    let tail = format!("tail -f {}", log.display());
    let mut a = home.start(
        &[
            "--session",
            "cmds",
            "-c",
            &tail,
            "-c",
            "echo once-$((6*7)); sleep 1000",
        ],
        None,
    );
    a.wait_for_text("once-42");
    a.wait_for_text("from-the-log");
    common::wait_until("the workspace to be saved", || {
        Manifest::read(&home.saved("cmds")).is_ok_and(|m| m.panes.len() == 2)
    });
    crash_and_reboot(&mut a);
    std::fs::write(&log, "from-the-log\nwritten-since\n").unwrap();
    let mut b = home.start(&["attach", "cmds"], Some(&a));
    // tail runs again at once and reads the log as it is now.
    b.wait_for_text("written-since");
    // The other waits: its command shown, run only after Enter.
    let json = home.ok(&a, &["list-panes", "--json", "--session", "cmds"]);
    assert!(!json.contains("once-84"), "{json}");
    b.send("\x02o");
    b.send("\r");
    b.wait_for("the other command run after Enter", |s| {
        s.contents().matches("once-42").count() >= 2
    });
}

/// `tilework ARGS` with `home`'s config and state, its shell `shell`.
/// bash reads `$HOME/.bashrc` (after the system's, which sets a prompt of
/// its own): home is the test's, whose `.bashrc` says `$ `.
fn start_with_shell(
    home: &Home,
    shell: &str,
    args: &[&str],
    beside: Option<&Tilework>,
) -> Tilework {
    std::fs::write(home.path().join(".bashrc"), "PS1='$ '\n").unwrap();
    let mut env = home.env(beside);
    env.push(("SHELL".to_string(), shell.to_string()));
    env.push(("HOME".to_string(), home.path().display().to_string()));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    Tilework::start_with(args, ROWS, COLS, &env)
}

/// A profile of one shell pane in `dir`.
fn one_pane_in(home: &Home, dir: &Path) -> PathBuf {
    let profile = home.path().join("one.toml");
    std::fs::write(
        &profile,
        format!("[[tab]]\nlayout = {{ cwd = \"{}\" }}\n", dir.display()),
    )
    .unwrap();
    profile
}

/// Waits until the saved manifest says pane `index`'s shell runs a job
/// whose first program is `program`.
fn wait_for_saved_job(home: &Home, name: &str, index: usize, program: &str) {
    common::wait_until(&format!("{program} to be saved as the pane's job"), || {
        Manifest::read(&home.saved(name)).is_ok_and(|m| {
            m.panes
                .get(index)
                .and_then(|p| p.job.as_ref())
                .is_some_and(|job| {
                    job.programs
                        .first()
                        .and_then(|p| p.first())
                        .map(String::as_str)
                        == Some(program)
                })
        })
    });
}

#[test]
fn vim_started_from_bash_is_back_in_vim_on_its_file_after_a_kill() {
    if !common::require_program("vim") || !common::require_program("bash") {
        return;
    }
    let home = Home::new("");
    let alpha = home.path().join("alpha");
    std::fs::write(alpha.join("notes.txt"), "a line of the notes, 42\n").unwrap();
    let profile = one_pane_in(&home, &alpha);
    let args = [
        "--session",
        "editing",
        "--profile",
        profile.to_str().unwrap(),
    ];
    let mut a = start_with_shell(&home, "/bin/bash", &args, None);
    a.wait_for_text("$ ");
    a.type_line("vim notes.txt");
    a.wait_for_text("a line of the notes, 42");
    wait_for_saved_job(&home, "editing", 0, "vim");
    crash_and_reboot(&mut a);

    let mut b = start_with_shell(&home, "/bin/bash", &["attach", "editing"], Some(&a));
    // vim again on the file, from the shell's prompt: leaving it is the
    // shell again.
    b.wait_for("vim back on notes.txt", |s| {
        let text = s.contents();
        text.contains("a line of the notes, 42")
            && text.contains("\"notes.txt\"")
            && !text.contains("restored from")
    });
    b.send("\x1b:q\r");
    b.wait_for("the shell under it, with its history", |s| {
        let text = s.contents();
        text.contains("restored from") && text.contains("$ vim notes.txt")
    });
}

#[test]
fn a_compound_command_waits_for_enter_on_restore() {
    let home = Home::new("");
    let log = home.path().join("log");
    let mark = home.path().join("MARK");
    std::fs::write(&log, "from-the-log\n").unwrap();
    // `tail` is in `restore_commands`, but the line runs more than tail.
    let line = format!(
        "tail -n 1 {}; touch {}; sleep 1000",
        log.display(),
        mark.display()
    );
    let mut a = home.start(&["--session", "compound", "-c", &line], None);
    a.wait_for_text("from-the-log");
    common::wait_until("the first run to touch MARK", || mark.exists());
    common::wait_until("the workspace to be saved", || {
        Manifest::read(&home.saved("compound")).is_ok_and(|m| m.layout.contains("touch"))
    });
    crash_and_reboot(&mut a);
    std::fs::remove_file(&mark).unwrap();

    let mut b = home.start(&["attach", "compound"], Some(&a));
    b.wait_for_text("press Enter to run it");
    assert!(!mark.exists(), "the compound line ran at once on restore");
    b.send("\r");
    common::wait_until("MARK touched once Enter is pressed", || mark.exists());
}

#[test]
fn a_job_not_in_restore_commands_is_typed_at_the_prompt_and_waits_for_enter() {
    let home = Home::new("");
    let alpha = home.path().join("alpha");
    let profile = one_pane_in(&home, &alpha);
    let (sleep, pattern) = common::unique_sleep();
    let mut a = home.start(
        &["--session", "typed", "--profile", profile.to_str().unwrap()],
        None,
    );
    a.wait_for_text("$ ");
    a.type_line(&sleep);
    common::wait_until("the sleep to run", || {
        !common::pids_matching(&pattern, &[]).is_empty()
    });
    wait_for_saved_job(&home, "typed", 0, "sleep");
    crash_and_reboot(&mut a);
    common::wait_until("the old sleep to end with its terminal", || {
        common::pids_matching(&pattern, &[]).is_empty()
    });

    let mut b = home.start(&["attach", "typed"], Some(&a));
    b.wait_for("the job typed at the new prompt", |s| {
        let text = s.contents();
        let after = text.split("restored from").nth(1).unwrap_or("");
        after.contains(&format!("$ {sleep}"))
    });
    // No Enter came with it: the cursor is still on its line.
    b.with_screen(|s| {
        let text = s.contents();
        let lines: Vec<&str> = text.lines().collect();
        let row = lines
            .iter()
            .rposition(|l| l.contains(&format!("$ {sleep}")));
        assert_eq!(row, Some(usize::from(s.cursor_position().0)), "{text}");
    });
    assert!(
        common::pids_matching(&pattern, &[]).is_empty(),
        "started without Enter"
    );
    b.send("\r");
    common::wait_until("the job to run once Enter is pressed", || {
        !common::pids_matching(&pattern, &[]).is_empty()
    });
}

#[test]
fn a_pipeline_is_typed_whole_and_waits_even_when_its_first_program_is_listed() {
    let home = Home::new("");
    let alpha = home.path().join("alpha");
    std::fs::write(alpha.join("log"), "from-the-log\n").unwrap();
    let profile = one_pane_in(&home, &alpha);
    let mut a = home.start(
        &["--session", "piped", "--profile", profile.to_str().unwrap()],
        None,
    );
    a.wait_for_text("$ ");
    a.type_line("tail -f log | cat -n");
    a.wait_for_text("from-the-log");
    common::wait_until("the pipeline to be saved as the pane's job", || {
        Manifest::read(&home.saved("piped")).is_ok_and(|m| {
            m.panes[0]
                .job
                .as_ref()
                .is_some_and(|job| job.programs.len() == 2)
        })
    });
    crash_and_reboot(&mut a);

    let b = home.start(&["attach", "piped"], Some(&a));
    b.wait_for("the whole pipeline typed at the new prompt", |s| {
        let text = s.contents();
        let after = text.split("restored from").nth(1).unwrap_or("");
        after.contains("$ tail -f log | cat -n")
    });
    // Not run: no Enter came with it (the cursor is still on its line,
    // where the text and an Enter typed together would have moved it off),
    // and no output of it.
    b.with_screen(|s| {
        let text = s.contents();
        let lines: Vec<&str> = text.lines().collect();
        let row = lines
            .iter()
            .rposition(|l| l.contains("$ tail -f log | cat -n"));
        assert_eq!(row, Some(usize::from(s.cursor_position().0)), "{text}");
        let after = text.split("restored from").nth(1).unwrap_or("");
        assert!(!after.contains("from-the-log"), "{text}");
    });
}

#[test]
fn saved_files_are_private_and_a_planted_link_is_refused() {
    let home = Home::new("");
    let a = home.start(&["--session", "priv"], None);
    a.wait_for_text("$ ");
    let dir = home.saved("priv");
    common::wait_until("the workspace to be saved", || {
        dir.join("manifest.json").exists()
    });
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&home.saved_root()), 0o700);
    assert_eq!(mode(&dir), 0o700);
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        assert_eq!(mode(&entry.path()), 0o600, "{}", entry.path().display());
    }
    // A link where a workspace's directory goes: nothing is written
    // through it (the workspace runs, unsaved).
    let elsewhere = home.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::set_permissions(&elsewhere, std::fs::Permissions::from_mode(0o700)).unwrap();
    std::os::unix::fs::symlink(&elsewhere, home.saved("linked")).unwrap();
    let b = home.start(&["--session", "linked"], None);
    b.wait_for_text("$ ");
    assert!(std::fs::read_dir(&elsewhere).unwrap().next().is_none());
}

#[test]
fn a_failing_disk_stops_saving_with_a_notice_and_the_workspace_carries_on() {
    let home = Home::new("");
    let mut a = home.start(&["--session", "full"], None);
    a.wait_for_text("$ ");
    let dir = home.saved("full");
    common::wait_until("the workspace to be saved", || {
        dir.join("manifest.json").exists()
    });
    // The directory gone and a file in its place: every write fails, as
    // on a full or broken disk.
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::write(&dir, b"").unwrap();
    a.type_line("echo after-$((6*7))");
    a.wait_for_text("no longer saved");
    a.type_line("echo still-$((6*7))");
    a.wait_for_text("still-42");
}

#[test]
fn attach_without_a_name_brings_back_the_only_saved_workspace() {
    let home = Home::new("");
    let mut a = home.start(&["--session", "lone"], None);
    a.wait_for_text("$ ");
    a.type_line("echo lone-$((6*7))");
    a.wait_for_text("lone-42");
    let saved = home.saved("lone");
    common::wait_until("the output to be saved", || {
        saved_histories(&saved)
            .first()
            .is_some_and(|h| contains(h, "lone-42\r\n"))
    });
    crash_and_reboot(&mut a);
    let b = home.start(&["attach"], Some(&a));
    b.wait_for_text("restored from");
    b.wait_for_text("lone-42");
    let row = home.ls_row(&a, "lone").expect("lone listed");
    assert!(row.contains("attached"), "{row}");
    drop(b);

    // Two saved and none running: it names them rather than pick one.
    let home = Home::new("");
    let mut crashed = Vec::new();
    for name in ["one", "two"] {
        let mut tw = home.start(&["--session", name], None);
        tw.wait_for_text("$ ");
        common::wait_until("the workspace to be saved", || {
            home.saved(name).join("manifest.json").exists()
        });
        crash_and_reboot(&mut tw);
        crashed.push(tw);
    }
    let mut c = home.start(&["attach"], Some(&crashed[0]));
    c.wait_for_text("2 are saved (one, two)");
    assert_ne!(c.wait_exit().exit_code(), 0);
}

#[test]
fn a_renamed_workspace_comes_back_under_its_new_name_after_a_crash() {
    let home = Home::new("");
    let mut a = home.start(&["--session", "before"], None);
    a.wait_for_text("$ ");
    a.type_line("echo named-$((6*7))");
    a.wait_for_text("named-42");
    common::wait_until("the output to be saved", || {
        saved_histories(&home.saved("before"))
            .first()
            .is_some_and(|h| contains(h, "named-42\r\n"))
    });
    // A saved workspace's name is refused.
    let taken = home.saved("taken");
    std::fs::create_dir_all(&taken).unwrap();
    std::fs::write(taken.join("manifest.json"), "{}").unwrap();
    a.send("\x02$");
    a.wait_for_text("before");
    a.send("\x15taken\r");
    a.wait_for_text("not renamed: a workspace named taken is saved");
    // The prompt offers the current name; C-u clears it.
    a.send("\x02$");
    a.send("\x15after\r");
    a.wait_for_text("workspace renamed to after");
    a.type_line("echo moved-$((6*8))");
    a.wait_for_text("moved-48");
    common::wait_until("the saved directory to follow, and go on saving", || {
        !home.saved("before").exists()
            && saved_histories(&home.saved("after"))
                .first()
                .is_some_and(|h| contains(h, "named-42\r\n") && contains(h, "moved-48\r\n"))
    });
    crash_and_reboot(&mut a);
    let row = home.ls_row(&a, "after").expect("after listed");
    assert!(row.contains("saved"), "{row}");
    assert!(home.ls_row(&a, "before").is_none());
    let b = home.start(&["attach", "after"], Some(&a));
    b.wait_for_text("restored from");
    b.wait_for_text("moved-48");
    let row = home.ls_row(&a, "after").expect("after listed");
    assert!(row.contains("attached"), "{row}");
    drop(b);
}

/// The flood's line `i`: its number, then hex words that LZ4 cannot
/// shrink (so a block stays ~64 KiB in memory), all computable again here.
fn hashed_line(i: u64) -> String {
    let word = |k: u64| (i * k) % (1 << 32);
    format!(
        "flood-{i:07} {:08x} {:08x} {:08x} {:08x}",
        word(2_654_435_761),
        word(2_246_822_519),
        word(3_266_489_917),
        word(668_265_263)
    )
}

#[test]
fn a_saver_starved_of_cpu_keeps_memory_bounded_and_the_history_in_order() {
    // The ring keeps 1 MiB; the saver sleeps 5 s before each batch (a
    // debug-build test switch), as on a machine too busy to run it, while
    // 25 MB flood by.
    const LINES: u64 = 500_000;
    let home = Home::new("scrollback = \"1MiB\"\n");
    let mut env = home.env(None);
    env.push(("TILEWORK_TEST_SLOW_SAVER_MS".into(), "5000".into()));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut a = Tilework::start_with(&["--session", "starved"], ROWS, COLS, &env);
    a.wait_for_text("$ ");
    let workspace = a.workspace_pid();
    let peak_before = common::proc_status_kib(workspace, "VmHWM").unwrap();
    a.type_line(&format!(
        "awk 'BEGIN {{ for (i = 1; i <= {LINES}; i++) {{ printf \"flood-%07d\", i; \
         split(\"2654435761 2246822519 3266489917 668265263\", k, \" \"); \
         for (j = 1; j <= 4; j++) printf \" %08x\", (i * k[j]) % 4294967296; print \"\" }} }}'; \
         echo end-$((6*7))"
    ));
    // However long the 25 MB take on a loaded machine, as long as the
    // pane's program writes (it blocks when tilework stops reading)...
    a.wait_for_while_progressing(
        "the flood's end",
        common::TIMEOUT,
        || common::progress::written_by_descendants(workspace),
        |s| s.contents().contains("end-42"),
    );
    let grown_kib = common::proc_status_kib(workspace, "VmHWM").unwrap() - peak_before;
    let saved = home.saved("starved");
    // ...and the saver saves (or works at it, between its sleeps).
    common::progress::wait_until_while_progressing(
        "the flood's end to be saved",
        common::TIMEOUT,
        || {
            let sizes: Vec<usize> = saved_histories(&saved).iter().map(Vec::len).collect();
            (
                sizes,
                common::progress::threads_cpu(Some(workspace), "saver"),
            )
        },
        || {
            saved_histories(&saved)
                .first()
                .is_some_and(|h| contains(h, "end-42\r\n"))
        },
    );
    crash_and_reboot(&mut a);

    // Counted in messages only, the blocks the ring let go piled up for
    // the saver: the workspace grew by ~13 MB here. Bounded by bytes, by
    // ~4 MB (the ring, the blocks waiting, the parser's).
    let ring_kib = 1024;
    assert!(
        grown_kib < 8 * ring_kib,
        "the workspace grew by {grown_kib} KiB during the flood, the ring being {ring_kib} KiB"
    );

    // What was saved: runs of the flood's lines, each whole and in
    // order, a note where blocks were not saved, then the end.
    let history = String::from_utf8(saved_histories(&saved).remove(0)).unwrap();
    let note = "[tilework: some of this pane's history could not be read]";
    let mut last_seen = 0;
    for (n, run) in history.split(note).enumerate() {
        let lines: Vec<&str> = (run.split("\r\n"))
            .filter(|l| l.starts_with("flood-") && l.len() >= 13)
            .collect();
        for (k, line) in lines.iter().enumerate() {
            let i: u64 = line[6..13].parse().unwrap();
            // A run's first and last line may be cut where blocks end.
            let whole = k > 0 && k + 1 < lines.len();
            if whole {
                assert_eq!(*line, hashed_line(i), "run {n}, line {k}");
            } else {
                assert!(hashed_line(i).starts_with(line) || hashed_line(i).ends_with(line));
            }
            assert!(i > last_seen, "line {i} after {last_seen} (run {n})");
            last_seen = i;
        }
    }
    assert_eq!(last_seen, LINES, "the flood's last lines were not saved");

    // And the restored pane shows it.
    let b = home.start(&["attach", "starved"], Some(&a));
    b.wait_for_text("restored from");
    drop(b);
}
