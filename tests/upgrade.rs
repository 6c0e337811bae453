//! Upgrades without losing a program (issue 48). Two builds of tilework are
//! played by one debug binary: `TILEWORK_TEST_VERSION` and
//! `TILEWORK_TEST_STATE_FORMAT` (read by debug builds only, see
//! `tilework::release`) make the workspace started here report an older
//! version (and, for the refusal, a state format this binary does not
//! read); `tilework upgrade` then runs as the binary itself.

#![allow(clippy::unwrap_used)]

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::{Tilework, alive, require_program, wait_until};

const ROWS: u16 = 30;
const COLS: u16 = 150;

/// The version the "old" workspace says it runs.
const OLD: &str = "0.0.1";

/// A counter printing a numbered line every 100 ms.
const COUNTER: &str = "i=0; while :; do i=$((i+1)); echo line-$i; sleep 0.1; done";

/// The workspace `w`: the counter (focused), vim, a shell; started by an
/// "older" binary (`env`).
fn start(env: &[(&str, &str)]) -> Tilework {
    let tw = Tilework::start_with(
        &[
            "--session",
            "w",
            "-c",
            COUNTER,
            "-c",
            "vim -u NONE -n",
            "-c",
            "sh",
        ],
        ROWS,
        COLS,
        env,
    );
    tw.wait_for_text("line-3");
    tw
}

/// `tilework ARGS` beside `tw`'s workspace, with `env`; stdout, stderr,
/// status.
fn cli(tw: &Tilework, args: &[&str], env: &[(&str, &str)]) -> (String, String, i32) {
    let out = cli_command(tw, args, env).output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn cli_command(tw: &Tilework, args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(common::binary());
    cmd.args(args)
        .env("XDG_RUNTIME_DIR", tw.runtime_dir())
        .env("XDG_STATE_HOME", tw.dir.path().join("state"))
        .env("XDG_CONFIG_HOME", tw.dir.path().join("config"))
        .env("SHELL", "/bin/sh")
        .env_remove("TILEWORK_TEST_VERSION")
        .env_remove("TILEWORK_TEST_STATE_FORMAT");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

/// The workspace `w`'s process, as `tilework ls -l` shows it.
fn workspace_pid(tw: &Tilework) -> u32 {
    let (out, _, _) = cli(tw, &["ls", "-l"], &[]);
    let row = out
        .lines()
        .find(|l| l.starts_with("w "))
        .unwrap_or_else(|| panic!("{out}"));
    row.split_whitespace()
        .nth(6)
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("{row}"))
}

/// The version `tilework ls` shows for `w`.
fn listed_version(tw: &Tilework) -> String {
    let (out, _, _) = cli(tw, &["ls"], &[]);
    let row = out
        .lines()
        .find(|l| l.starts_with("w "))
        .unwrap_or_else(|| panic!("{out}"));
    row.split_whitespace().nth(5).unwrap().to_string()
}

/// The counter's history as `capture --history` gives it: the numbers of
/// its lines, in order.
fn counted(tw: &Tilework) -> Vec<u64> {
    let (out, err, code) = cli(
        tw,
        &["--session", "w", "capture", "--pane", "1", "--history"],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    out.lines()
        .filter_map(|l| l.trim().strip_prefix("line-")?.parse().ok())
        .collect()
}

/// Every line from 1 to the last, once each, in order.
fn assert_unbroken(lines: &[u64]) {
    for (i, &n) in lines.iter().enumerate() {
        assert_eq!(
            n,
            i as u64 + 1,
            "a line lost or repeated near line-{n}: {lines:?}"
        );
    }
}

/// Waits until the counter printed past `n`; returns its lines.
fn counted_past(tw: &Tilework, n: u64) -> Vec<u64> {
    let mut lines = Vec::new();
    wait_until(&format!("the counter past line-{n}"), || {
        lines = counted(tw);
        lines.last().is_some_and(|&last| last > n)
    });
    lines
}

/// Whether the old workspace process has let the workspace go: it exited,
/// or it became the reaper of the programs it started.
fn let_go(old: u32) -> bool {
    !alive(old) || is_reaper(old)
}

fn is_reaper(pid: u32) -> bool {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .is_ok_and(|c| c.split(|&b| b == 0).any(|arg| arg == b"--reap-programs"))
}

/// The panes' programs (the workspace's children).
fn programs(workspace: u32) -> Vec<u32> {
    let mut pids = common::child_pids(workspace);
    pids.sort_unstable();
    pids
}

fn vim_typed(tw: &Tilework, text: &str) {
    let (_, err, code) = cli(
        tw,
        &[
            "--session",
            "w",
            "send-keys",
            "--pane",
            "2",
            "-l",
            &format!("i{text}\x1b"),
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
}

/// Vim's buffer written to a file: what it holds, unsaved until now.
fn vim_buffer(tw: &Tilework) -> String {
    let file: PathBuf = tw.dir.path().join("buffer.txt");
    let (_, err, code) = cli(
        tw,
        &[
            "--session",
            "w",
            "send-keys",
            "--pane",
            "2",
            "-l",
            &format!(":w {}\r", file.display()),
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    wait_until("vim to write its buffer", || file.exists());
    let mut text = String::new();
    wait_until("the buffer written whole", || {
        text = std::fs::read_to_string(&file).unwrap_or_default();
        text.ends_with('\n')
    });
    text
}

#[test]
fn an_upgrade_keeps_every_program_its_history_and_the_terminal() {
    if !require_program("vim") {
        return;
    }
    let mut tw = start(&[("TILEWORK_TEST_VERSION", OLD)]);
    vim_typed(&tw, "kept-unsaved-42");
    tw.wait_for_text("kept-unsaved-42");
    // A second terminal, attached too (by the old binary: nothing asked).
    let runtime = tw.runtime_dir();
    let second = Tilework::start_with(
        &["attach", "w"],
        ROWS,
        COLS,
        &[
            ("XDG_RUNTIME_DIR", runtime.to_str().unwrap()),
            ("TILEWORK_TEST_VERSION", OLD),
        ],
    );
    second.wait_for_text("kept-unsaved-42");
    let old = workspace_pid(&tw);
    assert_eq!(
        listed_version(&tw),
        format!("{OLD}*"),
        "an older binary is marked"
    );
    let before = programs(old);
    assert_eq!(before.len(), 3, "three programs: {before:?}");
    let seen = counted(&tw).last().copied().unwrap();

    let (out, err, code) = cli(&tw, &["upgrade", "w"], &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("moved from tilework 0.0.1"), "{out}");
    wait_until("the old process to let go", || let_go(old));
    let new = workspace_pid(&tw);
    assert_ne!(new, old);
    assert!(
        !listed_version(&tw).ends_with('*'),
        "the workspace runs this binary"
    );
    for pid in &before {
        assert!(alive(*pid), "program {pid} did not survive the upgrade");
    }

    // One notice on each terminal says why the prefix or copy mode is gone.
    tw.wait_for_text("upgraded from tilework 0.0.1");
    second.wait_for_text("upgraded from tilework 0.0.1");
    // Vim's screen came across: the new process shows the change.
    let (screen, _, _) = cli(&tw, &["--session", "w", "capture", "--pane", "2"], &[]);
    assert!(screen.contains("kept-unsaved-42"), "{screen}");
    // The counter goes on, nothing lost or repeated across the handoff.
    let lines = counted_past(&tw, seen + 15);
    assert_unbroken(&lines);
    // The same terminal shows it, never re-attached.
    let last = lines.last().unwrap();
    tw.wait_for_text(&format!("line-{}", last + 2));
    second.wait_for_text(&format!("line-{}", last + 2));
    assert!(tw.try_exit().is_none(), "the terminal's client exited");
    // Vim still holds the change it never saved.
    assert!(vim_buffer(&tw).contains("kept-unsaved-42"));
    // Copy mode reaches the history printed before the upgrade.
    tw.send("\x02[");
    tw.wait_for("copy mode", |s| s.contents().contains("COPY"));
    tw.send("g");
    tw.wait_for("the first line of the history", |s| {
        (0..ROWS).any(|r| s.contents_between(r, 1, r, 20).trim() == "line-1")
    });
    tw.send("q");
    // Keys reach the programs: the shell answers.
    let (_, err, code) = cli(
        &tw,
        &[
            "--session",
            "w",
            "send-keys",
            "--pane",
            "3",
            "echo shell-$((6*7))",
            "Enter",
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    tw.wait_for_text("shell-42");
}

#[test]
fn an_upgrade_refused_for_its_state_format_changes_nothing() {
    let tw = start(&[
        ("TILEWORK_TEST_VERSION", OLD),
        ("TILEWORK_TEST_STATE_FORMAT", "0"),
    ]);
    let old = workspace_pid(&tw);
    let before = programs(old);
    let (out, err, code) = cli(&tw, &["upgrade", "w"], &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("format 0") && err.contains("nothing was changed"),
        "{err}"
    );
    assert_eq!(workspace_pid(&tw), old);
    assert_eq!(programs(old), before);
    let seen = counted(&tw).last().copied().unwrap();
    assert_unbroken(&counted_past(&tw, seen + 5));
}

#[test]
fn a_new_process_killed_half_way_leaves_the_workspace_in_the_old_one() {
    let tw = start(&[("TILEWORK_TEST_VERSION", OLD)]);
    let old = workspace_pid(&tw);
    let before = programs(old);
    let flag = tw.dir.path().join("stalled");
    let upgrade = cli_command(
        &tw,
        &["upgrade", "w"],
        &[("TILEWORK_TEST_HANDOFF_STALL", flag.to_str().unwrap())],
    )
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped())
    .spawn()
    .unwrap();
    // The new process has the state and the descriptors: kill it there.
    wait_until("the new process to have the state", || {
        std::fs::read_to_string(&flag).is_ok_and(|p| !p.is_empty())
    });
    let new: i32 = std::fs::read_to_string(&flag)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(new),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    let out = upgrade.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("keeps running on tilework 0.0.1"), "{err}");

    assert!(alive(old));
    assert_eq!(workspace_pid(&tw), old);
    assert_eq!(listed_version(&tw), format!("{OLD}*"));
    assert_eq!(programs(old), before);
    let seen = counted(&tw).last().copied().unwrap();
    let lines = counted_past(&tw, seen + 10);
    assert_unbroken(&lines);
    tw.wait_for_text(&format!("line-{}", lines.last().unwrap() + 1));
}

#[test]
fn a_detached_workspace_is_upgraded_with_all_and_attached_after() {
    if !require_program("vim") {
        return;
    }
    let mut tw = start(&[("TILEWORK_TEST_VERSION", OLD)]);
    vim_typed(&tw, "kept-unsaved");
    tw.wait_for_text("kept-unsaved");
    let old = workspace_pid(&tw);
    let before = programs(old);
    tw.send("\x02d");
    tw.wait_exit();
    let seen = counted(&tw).last().copied().unwrap();

    let (out, err, code) = cli(&tw, &["upgrade", "--all"], &[]);
    assert_eq!(code, 0, "{out}{err}");
    wait_until("the old process to let go", || let_go(old));
    assert_ne!(workspace_pid(&tw), old);
    for pid in &before {
        assert!(alive(*pid), "program {pid} did not survive the upgrade");
    }
    let (ls, _, _) = cli(&tw, &["ls"], &[]);
    assert!(
        ls.lines()
            .any(|l| l.starts_with("w ") && l.contains("detached")),
        "{ls}"
    );
    let lines = counted_past(&tw, seen + 10);
    assert_unbroken(&lines);

    let runtime = tw.runtime_dir();
    let b = Tilework::start_with(
        &["attach", "w"],
        ROWS,
        COLS,
        &[("XDG_RUNTIME_DIR", runtime.to_str().unwrap())],
    );
    b.wait_for_text(&format!("line-{}", lines.last().unwrap() + 2));
    b.wait_for_text("kept-unsaved");
}

#[test]
fn attach_offers_to_upgrade_an_older_workspace() {
    let mut tw = start(&[("TILEWORK_TEST_VERSION", OLD)]);
    let old = workspace_pid(&tw);
    tw.send("\x02d");
    tw.wait_exit();
    let runtime = tw.runtime_dir();
    let mut b = Tilework::start_with(
        &["attach", "w"],
        ROWS,
        COLS,
        &[("XDG_RUNTIME_DIR", runtime.to_str().unwrap())],
    );
    b.wait_for_text("upgrade it first");
    b.send("y\r");
    wait_until("the old process to let go", || let_go(old));
    let seen = counted(&tw).last().copied().unwrap();
    b.wait_for_text(&format!("line-{}", seen + 2));
    assert!(!listed_version(&tw).ends_with('*'));
    b.send("\x02d");
    b.wait_exit();
}

/// Where `tw`'s workspaces are, for clients run from other threads.
#[derive(Clone)]
struct Beside {
    runtime: PathBuf,
    home: PathBuf,
}

impl Beside {
    fn of(tw: &Tilework) -> Self {
        Self {
            runtime: tw.runtime_dir(),
            home: tw.dir.path().to_path_buf(),
        }
    }

    /// `tilework ARGS` (this binary's version); stdout, stderr, status.
    fn cli(&self, args: &[&str]) -> (String, String, i32) {
        let out = Command::new(common::binary())
            .args(args)
            .env("XDG_RUNTIME_DIR", &self.runtime)
            .env("XDG_STATE_HOME", self.home.join("state"))
            .env("XDG_CONFIG_HOME", self.home.join("config"))
            .env("SHELL", "/bin/sh")
            .env_remove("TILEWORK_TEST_VERSION")
            .env_remove("TILEWORK_TEST_STATE_FORMAT")
            .output()
            .unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.code().unwrap_or(-1),
        )
    }

    /// `tilework attach w` in a terminal of its own: the workspace draws
    /// on it, and `C-b d` lets it go with a word. Err: what went wrong.
    fn attach_and_detach(&self) -> Result<(), String> {
        // Says it runs the old version: this binary would offer to
        // upgrade the old workspace first.
        let mut client = Tilework::start_with(
            &["attach", "w"],
            ROWS,
            COLS,
            &[
                ("XDG_RUNTIME_DIR", self.runtime.to_str().unwrap()),
                ("TILEWORK_TEST_VERSION", OLD),
            ],
        );
        let deadline = std::time::Instant::now() + common::TIMEOUT;
        while !client.with_screen(|s| s.contents().contains("line-")) {
            if let Some(status) = client.try_exit() {
                return Err(format!(
                    "the client exited ({status:?}) before the workspace drew on it:\n{}",
                    client.screen_text()
                ));
            }
            if std::time::Instant::now() > deadline {
                return Err(format!("nothing drawn:\n{}", client.screen_text()));
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        client.send("\x02d");
        let status = client.wait_exit();
        let screen = client.screen_text();
        if !status.success() || !screen.contains("[detached from workspace w") {
            return Err(format!("detaching: {status:?}:\n{screen}"));
        }
        Ok(())
    }
}

#[test]
fn clients_connecting_during_upgrades_are_all_answered() {
    let tw = start(&[("TILEWORK_TEST_VERSION", OLD)]);
    let beside = Beside::of(&tw);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let ls_runs = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let running =
        |stop: &std::sync::atomic::AtomicBool| !stop.load(std::sync::atomic::Ordering::SeqCst);
    // `tilework ls` in a loop: each must list the workspace, with no word
    // on stderr (a connection reset says "does not answer").
    let ls = {
        let (beside, stop, runs) = (beside.clone(), stop.clone(), ls_runs.clone());
        std::thread::spawn(move || {
            let mut failed = Vec::new();
            while running(&stop) {
                let (out, err, code) = beside.cli(&["ls"]);
                if code != 0 || !err.is_empty() || !out.lines().any(|l| l.starts_with("w ")) {
                    failed.push(format!("status {code}: {out}{err}"));
                }
                runs.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
            failed
        })
    };
    // `tilework attach w` in a loop, each one drawn on and detached.
    let attach = {
        let (beside, stop) = (beside.clone(), stop.clone());
        std::thread::spawn(move || {
            let (mut runs, mut failed) = (0, Vec::new());
            while running(&stop) {
                if let Err(why) = beside.attach_and_detach() {
                    failed.push(why);
                }
                runs += 1;
            }
            (runs, failed)
        })
    };
    let mut workspace = workspace_pid(&tw);
    for round in 0..10 {
        // Clients are connecting when the upgrade starts.
        let seen = ls_runs.load(std::sync::atomic::Ordering::SeqCst);
        wait_until("ls to run", || {
            ls_runs.load(std::sync::atomic::Ordering::SeqCst) > seen + 1
        });
        let args: &[&str] = if round == 0 {
            &["upgrade", "w"]
        } else {
            &["upgrade", "w", "--force"]
        };
        let (out, err, code) = beside.cli(args);
        assert_eq!(code, 0, "round {round}: {out}{err}");
        let now = workspace_pid(&tw);
        assert_ne!(now, workspace, "round {round}: not moved");
        workspace = now;
    }
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let ls_failed = ls.join().unwrap();
    let (attaches, attach_failed) = attach.join().unwrap();
    let listed = ls_runs.load(std::sync::atomic::Ordering::SeqCst);
    assert!(
        ls_failed.is_empty(),
        "{} of {listed} ls got no answer:\n{}",
        ls_failed.len(),
        ls_failed.join("\n")
    );
    assert!(
        attach_failed.is_empty(),
        "{} of {attaches} attaches got no answer:\n{}",
        attach_failed.len(),
        attach_failed.join("\n---\n")
    );
    eprintln!("{listed} ls and {attaches} attaches across 10 upgrades");
    assert!(
        attaches > 0 && listed > 6,
        "{attaches} attaches, {listed} ls"
    );
    // The workspace went on through all of it.
    let seen = counted(&tw).last().copied().unwrap();
    assert_unbroken(&counted_past(&tw, seen + 3));
}

/// Tools built for tmux find the workspace from a pane opened after an
/// upgrade as from one opened before it (`$TMUX`, `$TMUX_PANE`, `tmux` on
/// `PATH`).
#[test]
fn a_pane_opened_after_an_upgrade_is_told_tmux() {
    let mut tw = Tilework::start_with(
        &["--session", "w"],
        ROWS,
        COLS,
        &[("TILEWORK_TEST_VERSION", OLD)],
    );
    tw.wait_for_text("$");
    let (out, err, code) = cli(&tw, &["upgrade", "w"], &[]);
    assert_eq!(code, 0, "{out}{err}");
    tw.wait_for_text("upgraded from tilework");
    tw.send("\x02c");
    tw.wait_for("the new tab", |s| {
        !s.contents().contains("upgraded from tilework")
    });
    tw.type_line(
        r#"test -n "$TMUX" && test -n "$TMUX_PANE" && tmux display -p 'told-#{session_name}'"#,
    );
    tw.wait_for_text("told-w");
}

#[test]
fn after_upgrades_tilework_exits_with_the_last_programs_status() {
    // The user's shell (a command pane would stay, showing the status).
    let mut tw = Tilework::start_with(
        &["--session", "w"],
        ROWS,
        COLS,
        &[("TILEWORK_TEST_VERSION", OLD)],
    );
    tw.wait_for_text("$");
    tw.type_line("echo ready-$((40+2))");
    tw.wait_for_text("ready-42");
    let old = workspace_pid(&tw);
    let shell = programs(old);
    assert_eq!(shell.len(), 1, "{shell:?}");
    // Twice: the second new process hands over a program it did not
    // start either.
    for args in [&["upgrade", "w"][..], &["upgrade", "w", "--force"]] {
        let (out, err, code) = cli(&tw, args, &[]);
        assert_eq!(code, 0, "{out}{err}");
    }
    tw.wait_for_text("upgraded from tilework");
    // The first process stays the shell's parent, and does nothing else.
    wait_until("the old process to become the reaper", || is_reaper(old));
    assert_eq!(programs(old), shell);
    // It holds none of the workspace's descriptors (a terminal, a PTY).
    assert_eq!(common::fd_count(old), Some(3), "the reaper's descriptors");
    tw.type_line("exit 3");
    let status = tw.wait_exit();
    assert_eq!(status.exit_code(), 3, "{}", tw.screen_text());
    wait_until("the reaper to exit with its last child", || !alive(old));
}

#[test]
fn a_paste_a_program_has_not_read_comes_across_whole() {
    const PIECE: usize = 64 * 1024;
    let files = common::TempDir::new("paste");
    let (go, got) = (files.path().join("go"), files.path().join("got"));
    // Distinct numbers, no newline: a lost or repeated piece shows.
    let paste: String = (0..4 * PIECE / 8).map(|i| format!("{i:07} ")).collect();
    // Reads nothing until told, then all of it, raw.
    let program = format!(
        "stty raw -echo; echo raw-now; while [ ! -e {go} ]; do sleep 0.05; done; \
         head -c {} > {got}; echo got-all; sleep 600",
        paste.len(),
        go = go.display(),
        got = got.display(),
    );
    let tw = Tilework::start_with(
        &["--session", "w", "-c", &program],
        ROWS,
        COLS,
        &[("TILEWORK_TEST_VERSION", OLD)],
    );
    tw.wait_for_text("raw-now");
    // Each returns once the workspace has it; the PTY takes a few KiB,
    // the rest waits in the workspace for the program to read.
    for piece in paste.as_bytes().chunks(PIECE) {
        let piece = std::str::from_utf8(piece).unwrap();
        let (_, err, code) = cli(
            &tw,
            &["--session", "w", "send-keys", "--pane", "1", "-l", piece],
            &[],
        );
        assert_eq!(code, 0, "{err}");
    }
    let (out, err, code) = cli(&tw, &["upgrade", "w"], &[]);
    assert_eq!(code, 0, "{out}{err}");
    tw.wait_for_text("upgraded from tilework 0.0.1");
    std::fs::write(&go, "").unwrap();
    tw.wait_for_text("got-all");
    let read = std::fs::read_to_string(&got).unwrap();
    assert_eq!(read.len(), paste.len());
    assert!(
        read == paste,
        "the program read other bytes than were pasted"
    );
}

/// How tilework starts each sixel it draws (its encoder's header).
const SIXEL_START: &[u8] = b"\x1bP0;1;0q";

/// Each sixel tilework drew in `raw`: the column (1-based) of the cursor
/// move before it, and whether its first colour is red (else blue).
fn sixels_by_column(raw: &[u8]) -> Vec<(u16, bool)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(off) = raw[at..]
        .windows(SIXEL_START.len())
        .position(|w| w == SIXEL_START)
    {
        let here = at + off;
        at = here + SIXEL_START.len();
        let before = &raw[..here];
        let Some(csi) = before.iter().rposition(|&b| b == b'[') else {
            continue;
        };
        let moved = String::from_utf8_lossy(&before[csi + 1..here.saturating_sub(1)]).into_owned();
        let Some(col) = moved.split_once(';').and_then(|(_, c)| c.parse().ok()) else {
            continue;
        };
        let body = &raw[at..];
        let end = body
            .windows(2)
            .position(|w| w == b"\x1b\\")
            .unwrap_or(body.len());
        let text = String::from_utf8_lossy(&body[..end]);
        let red = text.contains(";2;100;0;0");
        assert!(
            red || text.contains(";2;0;0;100"),
            "a sixel of neither colour: {text}"
        );
        out.push((col, red));
    }
    out
}

/// A picture of 20 x 24 pixels (2 x 2 cells of 10 x 20), red or blue.
fn sixel_picture(red: bool) -> String {
    let colour = if red { "100;0;0" } else { "0;0;100" };
    format!("\x1bPq\"1;1;20;24#0;2;{colour}#0!20~-!20~-!20~-!20~\x1b\\")
}

#[test]
fn sixel_pictures_are_drawn_again_in_their_own_panes_after_an_upgrade() {
    let files = common::TempDir::new("pictures");
    let path = |name: &str| files.path().join(name).display().to_string();
    std::fs::write(path("red.six"), sixel_picture(true)).unwrap();
    std::fs::write(path("blue.six"), sixel_picture(false)).unwrap();
    // The right pane shows its red picture first, then the left its blue
    // one: the old process numbered them in that order, and a new one
    // that read the panes' output again, left pane first, would number
    // them the other way.
    let left = format!(
        "while [ ! -e {go} ]; do sleep 0.05; done; cat {blue}; echo shown-blue; sleep 600",
        go = path("go"),
        blue = path("blue.six")
    );
    let right = format!("cat {}; echo shown-red; sleep 600", path("red.six"));
    let replies = common::TerminalReplies {
        sixel: true,
        ..common::TerminalReplies::default()
    };
    let tw = Tilework::start_answering(
        common::binary(),
        &["--session", "w", "-c", &left, "-c", &right],
        ROWS,
        COLS,
        &[("TILEWORK_TEST_VERSION", OLD)],
        replies,
    );
    tw.wait_for_text("shown-red");
    std::fs::write(path("go"), "").unwrap();
    tw.wait_for_text("shown-blue");
    let half = COLS / 2;
    let each_in_its_pane = |drawn: &[(u16, bool)]| {
        drawn.iter().any(|&(col, red)| !red && col < half)
            && drawn.iter().any(|&(col, red)| red && col > half)
    };
    wait_until("both pictures drawn", || {
        each_in_its_pane(&sixels_by_column(&tw.raw_tail()))
    });
    let from = tw.raw_tail().len();

    let (out, err, code) = cli(&tw, &["upgrade", "w"], &[]);
    assert_eq!(code, 0, "{out}{err}");
    tw.wait_for_text("upgraded from tilework 0.0.1");
    // The new process's first frame draws each in its own pane again.
    wait_until("both pictures drawn again", || {
        let raw = tw.raw_tail();
        let drawn = sixels_by_column(&raw[from.min(raw.len())..]);
        assert!(
            !drawn.iter().any(|&(col, red)| red == (col < half)),
            "a picture drawn in the other pane: {drawn:?}"
        );
        each_in_its_pane(&drawn)
    });
}

#[test]
fn a_kitty_picture_sent_before_an_upgrade_is_placed_by_its_id_after() {
    let files = common::TempDir::new("kitty-names");
    let path = |name: &str| files.path().join(name).display().to_string();
    // The program sends picture 7 (one black pixel) and reads the answer,
    // then, once told, places it by its id and reads that answer.
    let script = format!(
        "stty -echo -icanon min 0 time 10; \
         printf '\\033_Ga=t,f=24,s=1,v=1,i=7;AAAA\\033\\\\'; sleep 0.5; cat -v > {before}; \
         echo sent-$((6*7)); \
         while [ ! -e {go} ]; do sleep 0.05; done; \
         printf '\\033_Ga=p,i=7\\033\\\\'; sleep 0.5; cat -v > {after}; \
         echo placed-$((6*7)); sleep 600",
        before = path("before"),
        after = path("after"),
        go = path("go"),
    );
    let replies = common::TerminalReplies {
        kitty_graphics: true,
        ..common::TerminalReplies::default()
    };
    let tw = Tilework::start_answering(
        common::binary(),
        &["--session", "w", "-c", &script],
        ROWS,
        COLS,
        &[("TILEWORK_TEST_VERSION", OLD)],
        replies,
    );
    tw.wait_for_text("sent-42");
    let before = std::fs::read_to_string(path("before")).unwrap();
    assert!(before.contains("i=7;OK"), "{before:?}");

    let (out, err, code) = cli(&tw, &["upgrade", "w"], &[]);
    assert_eq!(code, 0, "{out}{err}");
    tw.wait_for_text("upgraded from tilework 0.0.1");
    std::fs::write(path("go"), "").unwrap();
    tw.wait_for_text("placed-42");
    let after = std::fs::read_to_string(path("after")).unwrap();
    assert!(after.contains("i=7;OK"), "{after:?}");
}

/// Whether `raw` has `needle`.
fn holds(raw: &[u8], needle: &[u8]) -> bool {
    raw.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn links_and_styles_on_screen_keep_their_look_after_an_upgrade() {
    let files = common::TempDir::new("marks");
    let go = files.path().join("go").display().to_string();
    // The right pane prints its link and styles first, then the left its
    // own: the old process numbered them in that order (the cells' marks
    // name them by number), and a new one that read the panes' output
    // again, left pane first, would number them the other way.
    let left = format!(
        "while [ ! -e {go} ]; do sleep 0.05; done; \
         printf '\\033]8;;https://left.test/l\\033\\\\LEFTLINK\\033]8;;\\033\\\\ \
         \\033[4:4;58:5:46mLDOT\\033[m \\033[53mLOVER\\033[m\\n'; \
         echo shown-left; sleep 600"
    );
    let right = "printf '\\033]8;id=r1;https://right.test/r\\033\\\\RIGHTLINK\\033]8;;\\033\\\\ \
         \\033[4:3;58:5:196mRCURL\\033[m \\033[5mRBLINK\\033[m\\n'; \
         echo shown-right; sleep 600";
    let replies = common::TerminalReplies {
        styled_underlines: true,
        ..common::TerminalReplies::default()
    };
    let tw = Tilework::start_answering(
        common::binary(),
        &["--session", "w", "-c", &left, "-c", right],
        ROWS,
        COLS,
        &[("TILEWORK_TEST_VERSION", OLD)],
        replies,
    );
    tw.wait_for_text("shown-right");
    std::fs::write(&go, "").unwrap();
    tw.wait_for_text("shown-left");
    // What the terminal is sent for each, before and after the upgrade.
    let looks: [&[u8]; 6] = [
        b"\x1b]8;id=r1;https://right.test/r\x1b\\RIGHTLINK\x1b]8;;\x1b\\",
        b"\x1b[4:3m\x1b[58:5:196mRCURL",
        b"\x1b[5mRBLINK",
        b"\x1b]8;;https://left.test/l\x1b\\LEFTLINK\x1b]8;;\x1b\\",
        b"\x1b[4:4m\x1b[58:5:46mLDOT",
        b"\x1b[53mLOVER",
    ];
    wait_until("every look drawn", || {
        let raw = tw.raw_tail();
        looks.iter().all(|look| holds(&raw, look))
    });
    let from = tw.raw_tail().len();

    let (out, err, code) = cli(&tw, &["upgrade", "w"], &[]);
    assert_eq!(code, 0, "{out}{err}");
    tw.wait_for_text("upgraded from tilework 0.0.1");
    // The new process draws the same screens with the same links and
    // styles (the new process's first frame draws every cell).
    let deadline = std::time::Instant::now() + common::TIMEOUT;
    loop {
        let raw = tw.raw_tail();
        let after = &raw[from.min(raw.len())..];
        let missing: Vec<String> = looks
            .iter()
            .filter(|look| !holds(after, look))
            .map(|look| String::from_utf8_lossy(look).escape_debug().to_string())
            .collect();
        if missing.is_empty() {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "not drawn after the upgrade: {missing:?}\nscreen:\n{}\nsent:\n{}",
            tw.screen_text(),
            String::from_utf8_lossy(after).escape_debug()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn a_screen_of_long_distinct_links_is_upgraded_still() {
    // Every cell its own link of 2,000 bytes: 8 MB of links, more than the
    // state's header may hold. The upgrade goes through; links past what
    // the header takes are left out, their text stays.
    let program = "awk 'BEGIN { p = sprintf(\"%2000s\", \"\"); gsub(/ /, \"a\", p); \
        for (i = 0; i < 4000; i++) printf \"\\033]8;;https://x.test/%s%d\\033\\\\x\\033]8;;\\033\\\\\", p, i; \
        print \"\"; print \"links-done\" }'; exec sleep 600";
    let tw = Tilework::start_with(
        &["--session", "w", "-c", program],
        ROWS,
        COLS,
        &[("TILEWORK_TEST_VERSION", OLD)],
    );
    tw.wait_for_text("links-done");
    let (out, err, code) = cli(&tw, &["upgrade", "w"], &[]);
    assert_eq!(code, 0, "{out}{err}");
    tw.wait_for_text("upgraded from tilework 0.0.1");
    tw.wait_for("the screen drawn again", |s| {
        s.contents().contains("links-done") && s.contents().contains(&"x".repeat(100))
    });
}
