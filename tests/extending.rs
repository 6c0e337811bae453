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

/// The screen's last row: the status bar.
fn last_row(s: &vt100::Screen) -> String {
    s.contents().lines().last().unwrap_or_default().to_string()
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

/// Copies the line `word` printed by `echo` (the row above the prompt):
/// copy mode, up a row, select it, yank.
fn echo_and_copy(tw: &mut Tilework, word: &str) {
    tw.type_line(&format!("echo {word}"));
    tw.wait_for("the echo and a new prompt", |s| {
        let rows: Vec<String> = s
            .contents()
            .lines()
            .map(|l| l.trim_matches(['│', '┃', ' ']).to_string())
            .collect();
        rows.iter()
            .position(|r| r == word)
            .is_some_and(|at| rows.get(at + 1).is_some_and(|r| r.starts_with('$')))
    });
    tw.send(b"\x02[");
    tw.wait_for("copy mode", |s| s.contents().contains("COPY"));
    tw.send(b"k0v$y");
    tw.wait_for("the copy's notice", |s| {
        s.contents()
            .contains(&format!("copied {} characters", word.len()))
    });
}

#[test]
fn paste_buffers_keep_the_last_copies_and_c_b_equals_pastes_an_older_one() {
    let (mut tw, _config) = start("buffers", "");
    echo_and_copy(&mut tw, "firstcopy");
    echo_and_copy(&mut tw, "secondcopy");
    let (out, err, code) = cli(&tw, &["buffers"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out, "0  10 chars: secondcopy\n1  9 chars: firstcopy\n",
        "newest first"
    );
    let (out, _, _) = cli(&tw, &["buffers", "--print", "1"]);
    assert_eq!(out, "firstcopy");
    tw.send(b"\x02=");
    tw.wait_for("the chooser", |s| s.contents().contains("paste buffers"));
    tw.send(b"1");
    tw.wait_for("the older copy typed at the prompt", |s| {
        s.contents().contains("$ firstcopy")
    });
}

/// A `cmd:` segment shows its command's last line, follows what it
/// prints, and runs at most once per interval however idle the
/// workspace is.
#[test]
fn a_status_command_segment_shows_its_last_line_once_per_interval() {
    let files = common::TempDir::new("status-command");
    let shown = files.path().join("shown.txt");
    let runs = files.path().join("runs.txt");
    std::fs::write(&shown, "ignored\n\x1b[32malpha\x1b[0m\n").unwrap();
    let config = format!(
        "[status]\nright = [\"cmd:cat {}; date +%s.%N >> {}\"]\ncommand_interval = 1\n",
        shown.display(),
        runs.display()
    );
    let (tw, _config) = start("status-command", &config);
    tw.wait_for("the command's last line", |s| last_row(s).contains("alpha"));
    std::fs::write(&shown, "beta\n").unwrap();
    tw.wait_for("its new line", |s| last_row(s).contains("beta"));
    let mut starts: Vec<f64> = Vec::new();
    common::wait_until("three runs", || {
        starts = std::fs::read_to_string(&runs)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect();
        starts.len() >= 3
    });
    for pair in starts.windows(2) {
        assert!(
            pair[1] - pair[0] >= 0.99,
            "runs closer than the interval: {starts:?}"
        );
    }
}

/// `[hooks]`: a pane whose program ends runs `pane-exited` with its
/// facts in the environment; a new tab runs `tab-created`.
#[test]
fn hooks_run_with_the_facts_in_their_environment() {
    let files = common::TempDir::new("hooks");
    let dump = |name: &str| {
        let file = files.path().join(name);
        format!(
            "env | grep ^TILEWORK_ | sort > {0}.tmp && mv {0}.tmp {0}",
            file.display()
        )
    };
    let config = format!(
        "[hooks]\npane-exited = \"{}\"\ntab-created = \"{}\"\ntimeout = 5\n",
        dump("exited"),
        dump("tab")
    );
    let (mut tw, _config) = start("hooks", &config);
    let (out, err, code) = cli(&tw, &["run", "--", "sh", "-c", "exit 7"]);
    assert_eq!(code, 0, "{err}");
    let id = out.trim().to_string();
    let read = |name: &str| std::fs::read_to_string(files.path().join(name)).unwrap_or_default();
    common::wait_until("the pane-exited hook's file", || !read("exited").is_empty());
    let exited = read("exited");
    for line in [
        "TILEWORK_HOOK=pane-exited".to_string(),
        "TILEWORK_EXIT_CODE=7".into(),
        format!("TILEWORK_PANE={id}"),
        "TILEWORK_PANE_COMMAND=sh -c exit 7".into(),
        "TILEWORK_TAB=1".into(),
    ] {
        assert!(
            exited.lines().any(|l| l == line),
            "{line} missing: {exited}"
        );
    }
    tw.send(b"\x02c");
    common::wait_until("the tab-created hook's file", || !read("tab").is_empty());
    let tab = read("tab");
    assert!(tab.contains("TILEWORK_HOOK=tab-created"), "{tab}");
    assert!(tab.contains("TILEWORK_TAB=2"), "{tab}");
}

/// `tilework pipe --pane N CMD`: what the pane prints from then on
/// reaches CMD's stdin; without a command the pipe stops.
#[test]
fn pipe_sends_a_panes_output_to_a_command() {
    let files = common::TempDir::new("pipe");
    let log = files.path().join("pane.log");
    let (mut tw, _config) = start("pipe", "");
    let (out, err, code) = cli(&tw, &["list-panes", "--json"]);
    assert_eq!(code, 0, "{err}");
    let panes: Vec<tilework::session::script::PaneInfo> = serde_json::from_str(&out).unwrap();
    let id = panes[0].id.to_string();
    let cat = format!("cat > {}", log.display());
    let (_, err, code) = cli(&tw, &["pipe", "--pane", &id, "--", &cat]);
    assert_eq!(code, 0, "{err}");
    tw.type_line("echo piped-$((6*7))");
    common::wait_until("the pane's output in the file", || {
        std::fs::read_to_string(&log).is_ok_and(|t| t.contains("piped-42"))
    });
    let (out, err, code) = cli(&tw, &["pipe", "--pane", &id]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("pane {id}: not piped\n"));
    let (_, err, code) = cli(&tw, &["pipe", "--pane", "999", "--", "cat"]);
    assert_ne!(code, 0);
    assert!(err.contains("no pane 999"), "{err}");
}

/// The `bell` hook runs when a pane rings; `activity` when a pane of a
/// hidden tab prints.
#[test]
fn bell_and_activity_hooks_run() {
    let files = common::TempDir::new("bell-hooks");
    let dump = |name: &str| {
        let file = files.path().join(name);
        format!(
            "env | grep ^TILEWORK_ | sort > {0}.tmp && mv {0}.tmp {0}",
            file.display()
        )
    };
    let config = format!(
        "[hooks]\nbell = \"{}\"\nactivity = \"{}\"\n",
        dump("bell"),
        dump("activity")
    );
    let (mut tw, _config) = start("bell-hooks", &config);
    let read = |name: &str| std::fs::read_to_string(files.path().join(name)).unwrap_or_default();
    tw.type_line("printf 'ring\\a\\n'");
    common::wait_until("the bell hook's file", || !read("bell").is_empty());
    assert!(
        read("bell").contains("TILEWORK_HOOK=bell"),
        "{}",
        read("bell")
    );
    // A pane in tab 1 prints while tab 2 is shown.
    let (out, _, _) = cli(&tw, &["list-panes", "--json"]);
    let panes: Vec<tilework::session::script::PaneInfo> = serde_json::from_str(&out).unwrap();
    let first = panes[0].id.to_string();
    tw.send(b"\x02c");
    tw.wait_for("tab 2", |s| last_row(s).contains("2:"));
    let (_, err, code) = cli(&tw, &["send-keys", "--pane", &first, "echo later", "Enter"]);
    assert_eq!(code, 0, "{err}");
    common::wait_until("the activity hook's file", || !read("activity").is_empty());
    let activity = read("activity");
    assert!(activity.contains("TILEWORK_HOOK=activity"), "{activity}");
    assert!(activity.contains("TILEWORK_TAB=1"), "{activity}");
}

/// `[hooks] notification` runs when a program asks for attention, with its
/// text; `silence` once a pane that printed has been quiet `silence_after`
/// seconds (and not again until it prints).
#[test]
fn notification_and_silence_hooks_run() {
    let files = common::TempDir::new("attention-hooks");
    let dump = |name: &str| {
        let file = files.path().join(name);
        format!(
            "env | grep ^TILEWORK_ | sort > {0}.tmp && mv {0}.tmp {0}",
            file.display()
        )
    };
    let config = format!(
        "[hooks]\nnotification = \"{}\"\nsilence = \"{}\"\nsilence_after = 1\n",
        dump("notification"),
        dump("silence")
    );
    let (mut tw, _config) = start("attention-hooks", &config);
    let read = |name: &str| std::fs::read_to_string(files.path().join(name)).unwrap_or_default();
    tw.type_line("printf '\\033]9;build done\\033\\\\'; echo printed");
    common::wait_until("the notification hook's file", || {
        !read("notification").is_empty()
    });
    let notification = read("notification");
    assert!(
        notification.contains("TILEWORK_HOOK=notification"),
        "{notification}"
    );
    assert!(
        notification.contains("TILEWORK_NOTIFICATION=") && notification.contains("build done"),
        "{notification}"
    );
    assert!(notification.contains("TILEWORK_PANE="), "{notification}");
    // Quiet for a second after that output: the silence hook runs.
    common::wait_until("the silence hook's file", || !read("silence").is_empty());
    assert!(
        read("silence").contains("TILEWORK_HOOK=silence"),
        "{}",
        read("silence")
    );
}

/// The first pane's id, as `list-panes` prints it.
fn first_pane(tw: &Tilework) -> String {
    let (out, err, code) = cli(tw, &["list-panes", "--json"]);
    assert_eq!(code, 0, "{err}");
    let panes: Vec<tilework::session::script::PaneInfo> = serde_json::from_str(&out).unwrap();
    panes[0].id.to_string()
}

/// Pipes pane `id` to `command`.
fn pipe(tw: &Tilework, id: &str, command: &str) {
    let (_, err, code) = cli(tw, &["pipe", "--pane", id, "--", command]);
    assert_eq!(code, 0, "{err}");
}

/// A pipe command whose leader reads its input and a job it started in
/// the background that never does (`sleep N & cat`), and the patterns
/// that find each.
fn reader_with_a_job() -> (String, [String; 2]) {
    let (sleep, sleep_pattern) = common::unique_sleep();
    let command = format!("{sleep} & cat");
    let leader = format!("^/bin/sh -c {} & cat$", regex::escape(&sleep));
    (command, [sleep_pattern, leader])
}

/// A replaced pipe's command ends, with its process group: the leader
/// (`sh`) and the job it left in the background (issue 40).
#[test]
fn a_replaced_pipes_command_and_its_process_group_are_gone() {
    let (tw, _config) = start("pipe-replaced", "");
    let id = first_pane(&tw);
    let (command, patterns) = reader_with_a_job();
    pipe(&tw, &id, &command);
    for pattern in &patterns {
        common::wait_until(&format!("{pattern} running"), || {
            !common::pids_matching(pattern, &[]).is_empty()
        });
    }
    pipe(&tw, &id, "cat > /dev/null");
    for pattern in &patterns {
        common::wait_until(&format!("{pattern} gone"), || {
            common::pids_matching(pattern, &[]).is_empty()
        });
    }
}

/// `tilework kill` leaves no pipe command behind: not one that never
/// reads its input, nor a job a pipe command left in the background.
#[test]
fn no_pipe_command_outlives_tilework_kill() {
    let (mut tw, _config) = start("pipe-killed", "");
    let id = first_pane(&tw);
    let (command, patterns) = reader_with_a_job();
    pipe(&tw, &id, &command);
    // A second pane whose pipe never reads.
    let (out, err, code) = cli(&tw, &["run", "--split", "right", "--", "sh"]);
    assert_eq!(code, 0, "{err}");
    let (idle, idle_pattern) = common::unique_sleep();
    pipe(&tw, out.trim(), &format!("exec {idle}"));
    let mut all = patterns.to_vec();
    all.push(idle_pattern);
    for pattern in &all {
        common::wait_until(&format!("{pattern} running"), || {
            !common::pids_matching(pattern, &[]).is_empty()
        });
    }
    let (_, err, code) = cli(&tw, &["kill", "pipe-killed"]);
    assert_eq!(code, 0, "{err}");
    tw.wait_exit();
    for pattern in &all {
        common::wait_until(&format!("{pattern} gone"), || {
            common::pids_matching(pattern, &[]).is_empty()
        });
    }
}

/// Pipes replaced twenty times, each by a command that never reads: the
/// workspace does not keep a thread per pipe (one writer serves every
/// pipe; none waits on a command), and the commands are gone.
#[test]
fn twenty_replaced_pipes_leave_no_thread_or_process_each() {
    let (tw, _config) = start("pipe-threads", "");
    let id = first_pane(&tw);
    let pid = tw.workspace_pid();
    let (first, first_pattern) = common::unique_sleep();
    pipe(&tw, &id, &format!("exec {first}"));
    common::wait_until("the first pipe's command running", || {
        !common::pids_matching(&first_pattern, &[]).is_empty()
    });
    let base = common::thread_count(pid).unwrap();
    let mut replaced = vec![first_pattern];
    for _ in 0..20 {
        let (sleep, pattern) = common::unique_sleep();
        pipe(&tw, &id, &format!("exec {sleep}"));
        replaced.push(pattern);
    }
    let last = replaced.pop().unwrap();
    common::wait_until("the last pipe's command running", || {
        !common::pids_matching(&last, &[]).is_empty()
    });
    for pattern in &replaced {
        common::wait_until(&format!("{pattern} gone"), || {
            common::pids_matching(pattern, &[]).is_empty()
        });
    }
    // Other threads come and go (a script's connection, the pane name
    // lookup): half the pipes' count is the margin, none is per pipe.
    common::wait_until("the workspace's threads not one per pipe", || {
        common::thread_count(pid).unwrap() < base + 10
    });
}

/// A pipe command that does not keep up loses output rather than slowing
/// the pane: the pane's flood ends on screen, and the status bar says so.
#[test]
fn a_pipe_command_that_does_not_read_drops_output_and_says_so() {
    let (mut tw, _config) = start("pipe-slow", "");
    let id = first_pane(&tw);
    let (idle, _) = common::unique_sleep();
    pipe(&tw, &id, &format!("exec {idle}"));
    tw.type_line("seq 1 1500000; echo flood-$((50*3))");
    // However long the 11 MB take on a loaded machine, as long as the
    // pane's program writes (it blocks when tilework stops reading).
    let pid = tw.workspace_pid();
    let written = || common::progress::written_by_descendants(pid);
    tw.wait_for_while_progressing("the status bar's notice", common::TIMEOUT, written, |s| {
        s.contents().contains("is too slow, output dropped")
    });
    tw.wait_for_while_progressing("the flood's end", common::TIMEOUT, written, |s| {
        s.contents().contains("flood-150")
    });
}

/// A pane that closes ends its pipe's command and process group, while
/// the workspace goes on.
#[test]
fn a_closed_panes_pipe_command_is_gone() {
    let (mut tw, _config) = start("pipe-closed", "");
    let (out, err, code) = cli(&tw, &["run", "--split", "right", "--", "sh"]);
    assert_eq!(code, 0, "{err}");
    let id = out.trim().to_string();
    let (command, patterns) = reader_with_a_job();
    pipe(&tw, &id, &command);
    for pattern in &patterns {
        common::wait_until(&format!("{pattern} running"), || {
            !common::pids_matching(pattern, &[]).is_empty()
        });
    }
    let (_, err, code) = cli(&tw, &["send-keys", "--pane", &id, "exit", "Enter"]);
    assert_eq!(code, 0, "{err}");
    for pattern in &patterns {
        common::wait_until(&format!("{pattern} gone"), || {
            common::pids_matching(pattern, &[]).is_empty()
        });
    }
    tw.type_line("echo still-$((8*8))");
    tw.wait_for_text("still-64");
}
