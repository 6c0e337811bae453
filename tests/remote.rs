//! Workspaces on other machines (issue 47), against a real OpenSSH server:
//! each test starts its own `sshd` on 127.0.0.1 (a host key and a user key
//! made for it, in a temp dir), and `tilework attach localhost:NAME` goes
//! through it to a workspace of the test's own. The remote tilework is the
//! built binary (`[remote] tilework`), and the remote session gets the
//! test's runtime, state and config directories (`SetEnv`, the server's
//! `AcceptEnv`), so it reaches the test's workspace and nothing else.

#![allow(clippy::unwrap_used)]

mod common;

use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{TempDir, Tilework};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

const ROWS: u16 = 24;
const COLS: u16 = 80;

/// An `sshd` of the test's own, on loopback, stopped when dropped.
struct Sshd {
    dir: TempDir,
    port: u16,
    child: Child,
    stopped: bool,
}

impl Sshd {
    /// `None` (the test skips) where there is no sshd, or where it cannot
    /// run (its privilege-separation directory cannot be made).
    fn start() -> Option<Self> {
        if !common::require_program("sshd") || !common::require_program("ssh-keygen") {
            return None;
        }
        let sshd = which::which("sshd").unwrap();
        // Debian's sshd refuses to start without it.
        if std::fs::create_dir_all("/run/sshd").is_err() && !Path::new("/run/sshd").is_dir() {
            assert!(
                std::env::var_os(common::REQUIRE_ALL).is_none(),
                "sshd cannot run here: no /run/sshd"
            );
            return None;
        }
        let dir = TempDir::new("sshd");
        for key in ["host_key", "user_key"] {
            let status = Command::new("ssh-keygen")
                .args(["-q", "-t", "ed25519", "-N", "", "-f"])
                .arg(dir.path().join(key))
                .stdin(Stdio::null())
                .status()
                .unwrap();
            assert!(status.success(), "ssh-keygen");
        }
        std::fs::copy(
            dir.path().join("user_key.pub"),
            dir.path().join("authorized_keys"),
        )
        .unwrap();
        let d = dir.path().display();
        std::fs::write(
            dir.path().join("sshd_config"),
            format!(
                "HostKey {d}/host_key\n\
                 AuthorizedKeysFile {d}/authorized_keys\n\
                 PidFile {d}/sshd.pid\n\
                 StrictModes no\n\
                 UsePAM no\n\
                 PasswordAuthentication no\n\
                 KbdInteractiveAuthentication no\n\
                 AllowAgentForwarding yes\n\
                 AcceptEnv XDG_RUNTIME_DIR XDG_STATE_HOME XDG_CONFIG_HOME SHLVL\n"
            ),
        )
        .unwrap();
        let port = free_port();
        let child = Command::new(sshd)
            .arg("-D")
            .arg("-f")
            .arg(dir.path().join("sshd_config"))
            .args(["-p", &port.to_string(), "-o", "ListenAddress=127.0.0.1"])
            .arg("-E")
            .arg(dir.path().join("sshd.log"))
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        let sshd = Self {
            dir,
            port,
            child,
            stopped: false,
        };
        common::wait_until("sshd to listen", || {
            TcpStream::connect((Ipv4Addr::LOCALHOST, port)).is_ok()
        });
        Some(sshd)
    }

    /// An ssh client config that reaches this server as `localhost`, with
    /// the test's key, known-hosts file and directories. `SHLVL=1` keeps
    /// the user's `~/.bashrc` out of it: bash reads it for an ssh command
    /// only as a top-level shell (level 1 before it counts itself).
    fn client_config(&self, home: &Path, runtime: &Path, forward_agent: bool) -> PathBuf {
        let d = self.dir.path().display();
        let user = Command::new("id").arg("-un").output().unwrap().stdout;
        let user = String::from_utf8(user).unwrap().trim().to_string();
        let path = home.join("ssh_config");
        std::fs::write(
            &path,
            format!(
                "Host localhost\n\
                 HostName 127.0.0.1\n\
                 Port {port}\n\
                 User {user}\n\
                 IdentityFile {d}/user_key\n\
                 IdentitiesOnly yes\n\
                 UserKnownHostsFile {d}/known_hosts\n\
                 StrictHostKeyChecking accept-new\n\
                 BatchMode yes\n\
                 LogLevel ERROR\n\
                 ForwardAgent {agent}\n\
                 SetEnv XDG_RUNTIME_DIR={runtime} XDG_STATE_HOME={home}/state \
                 XDG_CONFIG_HOME={home}/config SHLVL=1\n",
                port = self.port,
                agent = if forward_agent { "yes" } else { "no" },
                runtime = runtime.display(),
                home = home.display(),
            ),
        )
        .unwrap();
        path
    }
}

impl Sshd {
    /// Stops the server and every connection it serves: the link drops.
    fn stop(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        self.drop_connections();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Ends every connection the server serves (it goes on listening):
    /// a dropped link, shared connection and all. Only the server's own
    /// processes are killed: the remote commands see their terminal hang
    /// up, as over a real dropped link, and end by themselves.
    fn drop_connections(&self) {
        let mut all = common::child_pids(self.child.id());
        let mut at = 0;
        while at < all.len() {
            all.extend(common::child_pids(all[at]));
            at += 1;
        }
        for pid in all {
            let is_sshd = std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .is_ok_and(|c| c.trim() == "sshd");
            if is_sshd {
                let _ = kill(Pid::from_raw(i32::try_from(pid).unwrap()), Signal::SIGKILL);
            }
        }
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        self.stop();
    }
}

fn free_port() -> u16 {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A workspace named `name` started in terminal A and detached: what the
/// remote attach reaches; and its process.
fn detached_workspace(name: &str) -> (Tilework, u32) {
    let mut a = Tilework::start(&["--session", name], ROWS, COLS);
    a.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
    let workspace = a.workspace_pid();
    a.send("\x02d");
    assert_eq!(a.wait_exit().exit_code(), 0);
    (a, workspace)
}

/// Terminal B: `tilework attach localhost:NAME` through the test's sshd,
/// with `[remote]` pointing at its client config and the built binary.
fn attach_over_ssh(sshd: &Sshd, a: &Tilework, name: &str, agent: Option<&Path>) -> Tilework {
    let home = a.dir.path();
    let runtime = a.runtime_dir();
    let ssh_config = sshd.client_config(home, &runtime, agent.is_some());
    let config = home.join("remote.toml");
    std::fs::write(
        &config,
        format!(
            "[remote]\nssh_command = \"ssh -F {}\"\ntilework = \"{}\"\nkeepalive = 1\n",
            ssh_config.display(),
            common::binary()
        ),
    )
    .unwrap();
    let target = format!("localhost:{name}");
    let config = config.to_str().unwrap().to_string();
    let runtime = runtime.to_str().unwrap().to_string();
    let mut env = vec![("XDG_RUNTIME_DIR", runtime.as_str())];
    let agent_text = agent.map(|p| p.to_str().unwrap().to_string());
    if let Some(agent) = &agent_text {
        env.push(("SSH_AUTH_SOCK", agent));
    }
    Tilework::start_with(&["--config", &config, "attach", &target], ROWS, COLS, &env)
}

/// The ssh that B runs (its child; the shared connection's master is a
/// process of its own).
fn ssh_of(b: &Tilework) -> Pid {
    let parent = b.pid().unwrap();
    let mut found = None;
    common::wait_until("B's ssh", || {
        found = common::child_pids(parent).into_iter().find(|&p| {
            std::fs::read_to_string(format!("/proc/{p}/comm")).is_ok_and(|c| c.trim() == "ssh")
        });
        found.is_some()
    });
    Pid::from_raw(i32::try_from(found.unwrap()).unwrap())
}

/// The highest `tick-N` on screen.
fn last_tick(b: &Tilework) -> u32 {
    b.screen_text()
        .split("tick-")
        .skip(1)
        .filter_map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn attach_host_name_shows_the_remote_workspace_and_types_into_it() {
    let Some(sshd) = Sshd::start() else { return };
    let (a, workspace) = detached_workspace("far");
    let mut b = attach_over_ssh(&sshd, &a, "far", None);
    b.wait_for("the workspace's prompt", |s| s.contents().contains("$ "));
    b.type_line("echo typed-over-ssh-$((6*7))");
    b.wait_for_text("typed-over-ssh-42");
    // `ls HOST:` lists it, attached (through the same shared connection).
    let out = Command::new(common::binary())
        .args(["--config"])
        .arg(a.dir.path().join("remote.toml"))
        .args(["ls", "localhost:"])
        .env("XDG_RUNTIME_DIR", a.runtime_dir())
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(
        listed
            .lines()
            .any(|l| l.starts_with("far ") && l.contains("attached")),
        "{listed}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The attach's ssh and the shared connection's master keep control
    // sockets in the same runtime directory: the local `ls` lists only the
    // workspace.
    assert_eq!(local_ls(&a), ["far"]);
    // A detach over there ends the attach here, with its status.
    b.send("\x02d");
    assert_eq!(b.wait_exit().exit_code(), 0);
    assert!(common::alive(workspace), "the remote workspace lives on");
}

/// The workspaces the local `tilework ls` lists (in A's runtime and state
/// directories); fails on anything it says on stderr (a socket that does
/// not answer).
fn local_ls(a: &Tilework) -> Vec<String> {
    let out = Command::new(common::binary())
        .arg("ls")
        .env("XDG_RUNTIME_DIR", a.runtime_dir())
        .env("XDG_STATE_HOME", a.dir.path().join("state"))
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&out.stdout);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && said.is_empty(), "{said}\n{listed}");
    let names: Vec<String> = listed
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    // ssh's control sockets are there too, somewhere: the check bites.
    let sockets = sockets_under(&a.runtime_dir());
    assert!(
        sockets > names.len(),
        "{sockets} sockets, listed: {names:?}"
    );
    names
}

/// The sockets in `dir` and the directories under it.
fn sockets_under(dir: &Path) -> usize {
    use std::os::unix::fs::FileTypeExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|entry| match entry.file_type() {
            Ok(t) if t.is_socket() => 1,
            Ok(t) if t.is_dir() => sockets_under(&entry.path()),
            _ => 0,
        })
        .sum()
}

/// Kills or stops B's ssh while a program prints in the remote workspace:
/// B says it is reconnecting, gets through on its own, and shows the
/// program's output, which went on meanwhile.
fn survives(signal: Signal) {
    let Some(sshd) = Sshd::start() else { return };
    let (a, workspace) = detached_workspace("far");
    let mut b = attach_over_ssh(&sshd, &a, "far", None);
    b.wait_for("the workspace's prompt", |s| s.contents().contains("$ "));
    // One process group for the whole loop (`sh -c`): the ^C below stops
    // it wherever it is. Typed at the prompt, the shell gives the
    // terminal to each `sleep` and takes it back: a ^C in between goes to
    // the group of a `sleep` that just exited, nobody gets it, the loop
    // runs on and the line typed after it waits unread: the "after-42
    // never came" seen once in ~30 runs. A plain `sh` in a plain PTY
    // loses 6 of 300 such ^Cs with `sleep 0.05`, none of 300 with `sh -c`.
    b.type_line("sh -c 'i=0; while :; do i=$((i+1)); echo tick-$i; sleep 0.2; done'");
    common::wait_until("a few ticks", || last_tick(&b) >= 3);
    let ssh = ssh_of(&b);
    let before = last_tick(&b);
    kill(ssh, signal).unwrap();
    b.wait_for_text("reconnecting to localhost");
    // Back: the remote screen drawn again, and the ticks that came while
    // the link was down are there (the program never stopped).
    common::wait_until("the ticks to go on, on screen", || {
        last_tick(&b) > before + 5 && !b.screen_text().contains("reconnecting")
    });
    assert_ne!(ssh_of(&b), ssh, "a new ssh carries the attach");
    assert!(common::alive(workspace));
    // The attach's own log says why the link dropped.
    let log = std::fs::read_to_string(b.dir.path().join("state/tilework/tilework.log"))
        .unwrap_or_default();
    assert!(
        log.contains("the link to a remote workspace dropped"),
        "B's log: {log}"
    );
    let typed_at = last_tick(&b);
    b.type_line("\x03echo after-$((6*7))");
    let deadline = std::time::Instant::now() + common::TIMEOUT;
    while !b.screen_text().contains("after-42") {
        // The ticks going on or not tell a terminal that no longer shows
        // frames from keys that went missing.
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for after-42 (tick-{typed_at} on screen when typed, tick-{} \
             now); screen:\n{}\n{}",
            last_tick(&b),
            b.screen_text(),
            link_diagnostics(&a, &b)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    b.send("\x02d");
    assert_eq!(b.wait_exit().exit_code(), 0);
}

/// What a failed reconnect test prints beside the screen: both logs (the
/// remote workspace's and its attaches', and B's) and which ssh, sshd and
/// tilework processes hold which terminals.
fn link_diagnostics(a: &Tilework, b: &Tilework) -> String {
    let log = |t: &Tilework| {
        std::fs::read_to_string(t.dir.path().join("state/tilework/tilework.log"))
            .unwrap_or_default()
    };
    let mut text = format!("A's log:\n{}\nB's log:\n{}\n", log(a), log(b));
    // The remote workspace's own view, apart from B's way to it: its pane
    // showing the keys (or not) says whether they reached it, and `ls`
    // how many terminals it holds.
    for args in [&["capture"][..], &["capture", "--history"][..], &["ls"][..]] {
        let out = Command::new(common::binary())
            .args(args)
            .env("XDG_RUNTIME_DIR", a.runtime_dir())
            .env("XDG_STATE_HOME", a.dir.path().join("state"))
            .stdin(Stdio::null())
            .output();
        if let Ok(out) = out {
            // The history without its ticks: the typed line shows there if
            // it reached the pane while the loop ran on.
            let stdout = String::from_utf8_lossy(&out.stdout);
            let shown: Vec<&str> = stdout
                .lines()
                .filter(|l| args.len() == 1 || !l.starts_with("tick-"))
                .collect();
            text.push_str(&format!(
                "the workspace's `{}`:\n{}\n{}\n",
                args.join(" "),
                shown.join("\n"),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return text;
    };
    let mut seen_terminals = std::collections::BTreeSet::new();
    for pid in entries.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok()) {
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if !["ssh", "sshd", "tilework"]
            .iter()
            .any(|p| cmdline.contains(p))
        {
            continue;
        }
        let terminals: Vec<String> = std::fs::read_dir(format!("/proc/{pid}/fd"))
            .into_iter()
            .flatten()
            .filter_map(|fd| {
                let fd = fd.ok()?;
                let target = std::fs::read_link(fd.path()).ok()?;
                let target = target.to_string_lossy().into_owned();
                (target.starts_with("/dev/pts") || target.starts_with("/dev/ptmx"))
                    .then(|| format!("{}->{target}", fd.file_name().to_string_lossy()))
            })
            .collect();
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat.rsplit(") ").next().and_then(|r| r.split(' ').next());
        let wchan = std::fs::read_to_string(format!("/proc/{pid}/wchan")).unwrap_or_default();
        text.push_str(&format!(
            "{pid} [{} {wchan}] {cmdline} {terminals:?}\n",
            state.unwrap_or("?")
        ));
        for terminal in terminals {
            if let Some((_, path)) = terminal.split_once("->") {
                seen_terminals.insert(path.to_string());
            }
        }
    }
    // Where typed keys may wait unread: each terminal's mode and the
    // bytes in its input queue (a terminal nobody reads, or one still in
    // line mode, holds them).
    for path in seen_terminals {
        text.push_str(&format!("{path}: {}\n", terminal_state(&path)));
    }
    text
}

/// A terminal's line discipline (canonical, echo, signals) and how many
/// bytes wait in its input queue, read without taking them.
fn terminal_state(path: &str) -> String {
    use rustix::fs::{Mode, OFlags};
    use rustix::termios::LocalModes;
    if !path.starts_with("/dev/pts/") {
        return "(not a terminal's slave)".into();
    }
    let flags = OFlags::RDWR | OFlags::NOCTTY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let fd = match rustix::fs::open(path, flags, Mode::empty()) {
        Ok(fd) => fd,
        Err(err) => return format!("cannot open: {err}"),
    };
    let modes = rustix::termios::tcgetattr(&fd).map_or_else(
        |err| format!("modes: {err}"),
        |t| {
            let on = |flag: LocalModes, name: &str| {
                format!(
                    "{}{name}",
                    if t.local_modes.contains(flag) {
                        ""
                    } else {
                        "-"
                    }
                )
            };
            format!(
                "{} {} {}",
                on(LocalModes::ICANON, "icanon"),
                on(LocalModes::ECHO, "echo"),
                on(LocalModes::ISIG, "isig")
            )
        },
    );
    let waiting =
        rustix::io::ioctl_fionread(&fd).map_or_else(|err| format!("{err}"), |n| n.to_string());
    format!("{modes}, {waiting} byte(s) unread")
}

#[test]
fn a_killed_ssh_reconnects_and_the_remote_program_ran_on() {
    survives(Signal::SIGKILL);
}

#[test]
fn a_stopped_ssh_counts_as_a_dropped_link_and_reconnects() {
    survives(Signal::SIGSTOP);
}

#[test]
fn giving_up_while_reconnecting_leaves_the_workspace_running() {
    let Some(mut sshd) = Sshd::start() else {
        return;
    };
    let (a, workspace) = detached_workspace("far");
    let mut b = attach_over_ssh(&sshd, &a, "far", None);
    b.wait_for("the workspace's prompt", |s| s.contents().contains("$ "));
    // The server goes away: every attempt fails until the user gives up.
    sshd.stop();
    b.wait_for_text("reconnecting to localhost");
    b.send("x");
    b.wait_for_text("1 key(s) dropped");
    b.send("q");
    assert_eq!(b.wait_exit().exit_code(), 1);
    b.assert_terminal_restored();
    b.wait_for_text("gave up reconnecting to localhost");
    assert!(common::alive(workspace));
}

/// An `ssh-agent` of the test's own holding the test's user key; killed
/// when dropped.
struct Agent {
    socket: PathBuf,
    child: Child,
}

impl Agent {
    fn start(sshd: &Sshd) -> Option<Self> {
        if !common::require_program("ssh-agent") || !common::require_program("ssh-add") {
            return None;
        }
        let socket = sshd.dir.path().join("agent.sock");
        let child = Command::new("ssh-agent")
            .arg("-D")
            .arg("-a")
            .arg(&socket)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        // Owned at once: killed even if what follows fails.
        let agent = Self { socket, child };
        // The file exists before the agent listens: wait for a connection.
        common::wait_until("the agent to listen", || {
            std::os::unix::net::UnixStream::connect(&agent.socket).is_ok()
        });
        let status = Command::new("ssh-add")
            .arg("-q")
            .arg(sshd.dir.path().join("user_key"))
            .env("SSH_AUTH_SOCK", &agent.socket)
            .stdin(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "ssh-add");
        Some(agent)
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_pane_open_before_a_reattach_reaches_the_new_agent() {
    let Some(sshd) = Sshd::start() else { return };
    let Some(agent) = Agent::start(&sshd) else {
        return;
    };
    let (a, _) = detached_workspace("far");
    let mut b = attach_over_ssh(&sshd, &a, "far", Some(&agent.socket));
    b.wait_for("the workspace's prompt", |s| s.contents().contains("$ "));
    // A pane opened while this ssh connection (and its forwarded agent
    // socket) is the terminal's.
    b.send("\x02%");
    b.wait_for("two prompts", |s| s.contents().matches("$ ").count() >= 2);
    b.type_line("ssh-add -l >/dev/null 2>&1; echo first-rc-$?");
    b.wait_for_text("first-rc-0");
    // The connection drops (the server's side of it ends); the reattach
    // is a new connection, which forwards the agent at another path (the
    // old one is gone with the connection).
    sshd.drop_connections();
    b.wait_for_text("reconnecting to localhost");
    b.wait_for("the workspace again", |s| {
        !s.contents().contains("reconnecting") && s.contents().contains("first-rc-0")
    });
    b.type_line("clear; ssh-add -l >/dev/null 2>&1; echo agent-rc-$?");
    b.wait_for_text("agent-rc-0");
    b.type_line("case $SSH_AUTH_SOCK in */tilework/.agents/far) echo link-ok;; esac");
    b.wait_for_text("link-ok");
}

/// Terminal A: a local workspace `name` whose `[remote]` reaches the
/// test's sshd (its config in `remote.toml`), and that config's path.
fn local_workspace_reaching(sshd: &Sshd, name: &str) -> (Tilework, PathBuf) {
    let mut a = Tilework::start(&["--session", name], ROWS, 100);
    a.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
    let home = a.dir.path().to_path_buf();
    let ssh_config = sshd.client_config(&home, &a.runtime_dir(), false);
    let config = home.join("remote.toml");
    std::fs::write(
        &config,
        format!(
            "[remote]\nssh_command = \"ssh -F {}\"\ntilework = \"{}\"\nkeepalive = 1\n",
            ssh_config.display(),
            common::binary()
        ),
    )
    .unwrap();
    a.send("");
    (a, config)
}

/// `tilework run --host localhost` into workspace `name`: the new pane's id.
fn run_remote(a: &Tilework, config: &Path, name: &str, cwd: Option<&Path>) -> String {
    let mut cmd = Command::new(common::binary());
    cmd.arg("--config")
        .arg(config)
        .args(["--session", name, "run"]);
    if let Some(cwd) = cwd {
        cmd.arg("--cwd").arg(cwd);
    }
    let out = cmd
        .args(["--host", "localhost"])
        .env("XDG_RUNTIME_DIR", a.runtime_dir())
        .env("XDG_STATE_HOME", a.dir.path().join("state"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "run --host: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The local workspace's panes as `list-panes --json` says.
fn panes_json(a: &Tilework, name: &str) -> serde_json::Value {
    let out = Command::new(common::binary())
        .args(["--session", name, "list-panes", "--json"])
        .env("XDG_RUNTIME_DIR", a.runtime_dir())
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null)
}

/// A remote pane opens beside a local one: its border names the host, it
/// runs a shell on the remote side (the ssh session's variables are
/// there: the test sshd's port), and takes keys. A split of it opens
/// another remote pane, on the same host, in the directory its shell went
/// to.
#[test]
fn a_remote_pane_beside_a_local_one_types_and_splits_on_its_host() {
    let Some(sshd) = Sshd::start() else { return };
    let (mut a, config) = local_workspace_reaching(&sshd, "here");
    let there = a.dir.path().join("remote-here");
    std::fs::create_dir_all(&there).unwrap();
    run_remote(&a, &config, "here", None);
    a.wait_for("the remote pane's border", |s| {
        s.contents().contains("localhost")
    });
    let port = sshd.port;
    a.type_line(&format!(
        "cd {} && echo \"via:$((40+2)):${{SSH_CONNECTION##* }}\"",
        there.display()
    ));
    a.wait_for_text(&format!("via:42:{port}"));
    // The remote workspace saw the shell's directory; the relay tells the
    // local pane (OSC 7).
    let want = there.display().to_string();
    let deadline = std::time::Instant::now() + common::TIMEOUT;
    loop {
        let panes = panes_json(&a, "here");
        let there = panes.as_array().is_some_and(|panes| {
            panes
                .iter()
                .any(|p| p["cwd"] == want.as_str() && p["focused"] == true)
        });
        if there {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the remote pane's directory never came: {panes:#}\n{}",
            a.screen_text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    a.send("\x02%");
    common::wait_until("a third pane", || {
        panes_json(&a, "here")
            .as_array()
            .is_some_and(|p| p.len() == 3)
    });
    // (Short: the pane is narrow, and a wrapped line is not found.)
    a.type_line(&format!(
        "[ \"$PWD\" = {want} ] && echo \"same-$((40+3)):${{SSH_CONNECTION##* }}\""
    ));
    a.wait_for_text(&format!("same-43:{port}"));
    // Two remote panes beside the local shell.
    let panes = panes_json(&a, "here");
    let remote = |p: &serde_json::Value| p["command"][1] == "remote-pane";
    let panes = panes.as_array().unwrap();
    assert_eq!(panes.iter().filter(|p| remote(p)).count(), 2, "{panes:#?}");
    assert_eq!(panes[0]["command"][0], "/bin/sh", "{panes:#?}");
    // Their shared ssh connection's control socket is in the runtime
    // directory too: `ls` lists only the workspaces.
    assert_eq!(local_ls(&a), ["here", "remote-panes"]);
    // Two panes in the remote side's workspace; closing the split here
    // closes its remote pane there (a dropped link would not).
    assert_eq!(remote_side_panes(&a), 2);
    let closed = Command::new(common::binary())
        .args(["--session", "here", "action", "close-pane"])
        .env("XDG_RUNTIME_DIR", a.runtime_dir())
        .status()
        .unwrap();
    assert!(closed.success());
    // Its program runs over there: closing it is asked first.
    a.wait_for_text("(y/n)");
    a.send("y");
    let deadline = std::time::Instant::now() + common::TIMEOUT;
    while remote_side_panes(&a) != 1 {
        assert!(
            std::time::Instant::now() < deadline,
            "the remote pane never closed; log:\n{}\nscreen:\n{}",
            std::fs::read_to_string(a.dir.path().join("state/tilework/tilework.log"))
                .unwrap_or_default(),
            a.screen_text()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(sshd);
}

/// How many panes the remote side's workspace (`remote-panes`, in the
/// test's runtime directory: the remote host is this one) has.
fn remote_side_panes(a: &Tilework) -> usize {
    let out = Command::new(common::binary())
        .args(["--session", "remote-panes", "list-panes", "--json"])
        .env("XDG_RUNTIME_DIR", a.runtime_dir())
        .output()
        .unwrap();
    serde_json::from_slice::<serde_json::Value>(&out.stdout)
        .ok()
        .and_then(|v| v.as_array().map(Vec::len))
        .unwrap_or(0)
}

/// The ticks (`tick-N`) in `text`, in order.
fn ticks_in(text: &str) -> Vec<u32> {
    text.split("tick-")
        .skip(1)
        .filter_map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect()
}

/// Kills a remote pane's ssh while its program prints: the border says
/// the link is down, the pane reconnects on its own, and what the program
/// printed meanwhile is in the pane exactly once (its whole history holds
/// every tick, in order, none twice).
#[test]
fn a_remote_pane_reconnects_and_shows_what_came_meanwhile_once() {
    let Some(sshd) = Sshd::start() else { return };
    let (mut a, config) = local_workspace_reaching(&sshd, "here");
    let id = run_remote(&a, &config, "here", None);
    a.wait_for("the remote pane's border", |s| {
        s.contents().contains("localhost")
    });
    a.type_line("i=0; while [ $i -lt 100000 ]; do i=$((i+1)); echo tick-$i; sleep 0.1; done");
    common::wait_until("a few ticks", || last_tick(&a) >= 3);
    let relay = panes_json(&a, "here")
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"].as_u64().map(|n| n.to_string()).as_deref() == Some(id.as_str()))
        .and_then(|p| p["pid"].as_u64())
        .unwrap();
    let ssh_of_relay = || {
        common::child_pids(u32::try_from(relay).unwrap())
            .into_iter()
            .find(|&p| {
                std::fs::read_to_string(format!("/proc/{p}/comm")).is_ok_and(|c| c.trim() == "ssh")
            })
    };
    let ssh = ssh_of_relay().unwrap();
    let before = last_tick(&a);
    kill(Pid::from_raw(i32::try_from(ssh).unwrap()), Signal::SIGKILL).unwrap();
    a.wait_for_text("link down");
    common::wait_until("the ticks to go on, on screen", || {
        last_tick(&a) > before + 10 && !a.screen_text().contains("link down")
    });
    assert_ne!(ssh_of_relay(), Some(ssh), "a new ssh carries the pane");
    a.send("\x03");
    let history = Command::new(common::binary())
        .args(["--session", "here", "capture", "--history", "--pane", &id])
        .env("XDG_RUNTIME_DIR", a.runtime_dir())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&history.stdout);
    // Each tick from the first the history holds to the last, once each.
    let ticks: Vec<u32> = ticks_in(&text).into_iter().filter(|&t| t > 0).collect();
    let first = ticks[0];
    let want: Vec<u32> = (first..first + ticks.len() as u32).collect();
    assert_eq!(ticks, want, "the pane's history:\n{text}");
    assert!(ticks.len() as u32 > before + 10 - first, "{text}");
    drop(sshd);
}

/// Ends the workspaces of a runtime directory of the test's own when the
/// test ends, passed or not.
struct EndWorkspaces(PathBuf);

impl Drop for EndWorkspaces {
    fn drop(&mut self) {
        common::end_workspaces(&self.0);
    }
}

/// A profile's pane with `host = "localhost"` and a `cwd` opens as a
/// remote pane there, beside the profile's local pane; its border names
/// the host.
#[test]
fn a_profiles_pane_with_a_host_runs_there_and_its_queries_are_answered_once() {
    let Some(sshd) = Sshd::start() else { return };
    let home = TempDir::new("profile-host");
    let runtime = home.path().join("run");
    std::fs::create_dir_all(&runtime).unwrap();
    std::fs::set_permissions(
        &runtime,
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    let _end = EndWorkspaces(runtime.clone());
    let there = home.path().join("over-there");
    std::fs::create_dir_all(&there).unwrap();
    let ssh_config = sshd.client_config(home.path(), &runtime, false);
    let config = home.path().join("remote.toml");
    std::fs::write(
        &config,
        format!(
            "[remote]\nssh_command = \"ssh -F {}\"\ntilework = \"{}\"\nkeepalive = 1\n",
            ssh_config.display(),
            common::binary()
        ),
    )
    .unwrap();
    let profile = home.path().join("two.toml");
    std::fs::write(
        &profile,
        format!(
            "[[tab]]\n[tab.layout]\nsplit = \"right\"\n\
             [[tab.layout.panes]]\n\
             [[tab.layout.panes]]\nhost = \"localhost\"\ncwd = \"{}\"\nfocus = true\n",
            there.display()
        ),
    )
    .unwrap();
    let mut a = Tilework::start_with(
        &[
            "--config",
            config.to_str().unwrap(),
            "--profile",
            profile.to_str().unwrap(),
            "--session",
            "prof",
        ],
        ROWS,
        100,
        &[("XDG_RUNTIME_DIR", runtime.to_str().unwrap())],
    );
    a.wait_for("the remote pane's border", |s| {
        s.contents().contains("localhost")
    });
    let want = there.display().to_string();
    a.type_line(&format!(
        "[ \"$PWD\" = {want} ] && echo \"far-$((40+4)):${{SSH_CONNECTION##* }}\""
    ));
    a.wait_for_text(&format!("far-44:{}", sshd.port));
    // A query from the remote program is answered once, by the workspace
    // on the host: a second answer from here would reach it as keys.
    a.type_line(
        "stty -echo -icanon min 0 time 10; printf '\\033[c'; sleep 1; cat -v > da.txt; \
         stty sane; echo \"answers-$(grep -o '\\[?' da.txt | wc -l)-$((6*7))\"",
    );
    a.wait_for("the answers counted", |s| s.contents().contains("-42"));
    assert!(
        a.screen_text().contains("answers-1-42"),
        "{}\n{:?}",
        a.screen_text(),
        std::fs::read_to_string(there.join("da.txt"))
    );
    drop(sshd);
}

/// Terminal B: `tilework ARGS` (an `attach` of a remote target) through
/// the test's sshd, `cols` wide, with `[remote] tilework` = `remote` (a
/// word for the remote shell), reaching the workspaces of A's directories.
fn remote_attach_with(sshd: &Sshd, a: &Tilework, args: &[&str], remote: &str) -> Tilework {
    let home = a.dir.path();
    let runtime = a.runtime_dir();
    let ssh_config = sshd.client_config(home, &runtime, false);
    let config = home.join("remote-other.toml");
    std::fs::write(
        &config,
        format!(
            "[remote]\nssh_command = \"ssh -F {}\"\ntilework = \"{remote}\"\nkeepalive = 1\n",
            ssh_config.display(),
        ),
    )
    .unwrap();
    let mut argv = vec!["--config", config.to_str().unwrap()];
    argv.extend_from_slice(args);
    let runtime = runtime.to_str().unwrap().to_string();
    Tilework::start_with(&argv, ROWS, 200, &[("XDG_RUNTIME_DIR", runtime.as_str())])
}

/// The workspace names `tilework ls` lists in A's runtime directory.
fn listed_workspaces(a: &Tilework) -> String {
    let out = Command::new(common::binary())
        .arg("ls")
        .env("XDG_RUNTIME_DIR", a.runtime_dir())
        .env("XDG_STATE_HOME", a.dir.path().join("state"))
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The remote tilework is another version and knows it: it refuses the
/// attach, naming both versions (the remote binary is the built one,
/// made to report another version by its debug-build switch).
#[test]
fn attach_to_a_remote_tilework_of_another_version_names_both() {
    let Some(sshd) = Sshd::start() else { return };
    let (a, workspace) = detached_workspace("far");
    let remote = format!("TILEWORK_TEST_VERSION=0.0.1-other {}", common::binary());
    let mut b = remote_attach_with(&sshd, &a, &["attach", "localhost:far"], &remote);
    assert_eq!(b.wait_exit().exit_code(), 3);
    b.wait_for_text("runs tilework 0.0.1-other");
    b.wait_for_text(&format!("this is tilework {}", env!("CARGO_PKG_VERSION")));
    assert!(common::alive(workspace));
}

/// The remote tilework is older than the version check: it refuses the
/// option it does not know (a usage error, exit 2), and this side then
/// asks its version and names both. The older release is played by a
/// script answering as one does (`--version`, and clap's refusal).
#[test]
fn attach_to_an_older_remote_tilework_names_both_versions() {
    let Some(sshd) = Sshd::start() else { return };
    let (a, _) = detached_workspace("far");
    let old = a.dir.path().join("old-tilework");
    std::fs::write(
        &old,
        "#!/bin/sh\n\
         case \"$1\" in\n\
         --version) echo 'tilework 0.0.1-old' ;;\n\
         *) echo \"error: unexpected argument '$2' found\" >&2; exit 2 ;;\n\
         esac\n",
    )
    .unwrap();
    std::fs::set_permissions(&old, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let mut b = remote_attach_with(
        &sshd,
        &a,
        &["attach", "localhost:far"],
        old.to_str().unwrap(),
    );
    assert_eq!(b.wait_exit().exit_code(), 2);
    b.wait_for_text("localhost runs tilework 0.0.1-old");
    b.wait_for_text(&format!("this is tilework {}", env!("CARGO_PKG_VERSION")));
}

/// `attach HOST:NAME` of a workspace that runs nowhere there says so and
/// offers `attach -c HOST:NAME`, which creates it there and attaches.
#[test]
fn attach_c_host_name_creates_the_remote_workspace_the_refusal_offers_it() {
    let Some(sshd) = Sshd::start() else { return };
    let (a, _) = detached_workspace("far");
    let binary = common::binary();
    let mut b = remote_attach_with(&sshd, &a, &["attach", "localhost:new"], binary);
    assert_eq!(b.wait_exit().exit_code(), 2);
    b.wait_for_text("no workspace named new is running there");
    b.wait_for_text("`tilework attach -c localhost:new` creates it");
    assert!(!listed_workspaces(&a).contains("new"));

    let mut c = remote_attach_with(&sshd, &a, &["attach", "-c", "localhost:new"], binary);
    // Its shell is the remote user's (`$SHELL` of the ssh session).
    c.wait_for("the new workspace", |s| s.contents().contains("[new]"));
    c.type_line("echo made-there-$((6*7))");
    c.wait_for_text("made-there-42");
    assert!(
        listed_workspaces(&a)
            .lines()
            .any(|l| l.starts_with("new ") && l.contains("attached")),
        "{}",
        listed_workspaces(&a)
    );
    c.send("\x02d");
    assert_eq!(c.wait_exit().exit_code(), 0);
}

/// The ssh under remote pane `id`'s relay, as `list-panes` names the
/// relay's pid.
fn ssh_under_relay(a: &Tilework, id: &str) -> Option<u32> {
    let relay = panes_json(a, "here")
        .as_array()?
        .iter()
        .find(|p| p["id"].as_u64().map(|n| n.to_string()).as_deref() == Some(id))
        .and_then(|p| p["pid"].as_u64())?;
    common::child_pids(u32::try_from(relay).ok()?)
        .into_iter()
        .find(|&p| {
            std::fs::read_to_string(format!("/proc/{p}/comm")).is_ok_and(|c| c.trim() == "ssh")
        })
}

/// Stops a remote pane's ssh (SIGSTOP, as a frozen process): its pipes
/// stay open, so only a watch on the ssh itself sees it. As `attach
/// HOST:NAME` does, it counts as a dropped link after three keep-alives'
/// time: the border says the link is down, the stopped ssh is killed, and
/// a new one carries the pane: the program's later output is on screen.
/// (Here the stopped ssh is a client of the shared connection, whose
/// master does its reads and writes: the ticks need not stand still.)
#[test]
fn a_remote_panes_stopped_ssh_counts_as_a_dropped_link_and_reconnects() {
    let Some(sshd) = Sshd::start() else { return };
    let (mut a, config) = local_workspace_reaching(&sshd, "here");
    let id = run_remote(&a, &config, "here", None);
    a.wait_for("the remote pane's border", |s| {
        s.contents().contains("localhost")
    });
    a.type_line("i=0; while [ $i -lt 100000 ]; do i=$((i+1)); echo tick-$i; sleep 0.1; done");
    common::wait_until("a few ticks", || last_tick(&a) >= 3);
    let ssh = ssh_under_relay(&a, &id).unwrap();
    kill(Pid::from_raw(i32::try_from(ssh).unwrap()), Signal::SIGSTOP).unwrap();
    let before = last_tick(&a);
    a.wait_for_text("link down");
    common::wait_until("the ticks to go on, on screen", || {
        last_tick(&a) > before + 10 && !a.screen_text().contains("link down")
    });
    assert_ne!(
        ssh_under_relay(&a, &id),
        Some(ssh),
        "a new ssh carries the pane"
    );
    assert!(
        !common::alive(ssh),
        "the stopped ssh was killed, not left behind"
    );
    a.send("\x03");
    drop(sshd);
}

/// A workspace `name` started with a config whose `[remote]` reaches the
/// test's sshd (and `extra`, more of the config), in a runtime directory
/// of the test's own (the remote side's too); its workspaces end with the
/// guard.
fn workspace_configured_for(
    sshd: &Sshd,
    name: &str,
    extra: &str,
    start: impl FnOnce(&[&str], &[(&str, &str)]) -> Tilework,
) -> (Tilework, TempDir, EndWorkspaces) {
    let home = TempDir::new("remote-config");
    let runtime = home.path().join("run");
    std::fs::create_dir_all(&runtime).unwrap();
    std::fs::set_permissions(
        &runtime,
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    let end = EndWorkspaces(runtime.clone());
    let ssh_config = sshd.client_config(home.path(), &runtime, false);
    let config = home.path().join("remote.toml");
    std::fs::write(
        &config,
        format!(
            "{extra}\n[remote]\nssh_command = \"ssh -F {}\"\ntilework = \"{}\"\nkeepalive = 1\n",
            ssh_config.display(),
            common::binary()
        ),
    )
    .unwrap();
    let a = start(
        &["--config", config.to_str().unwrap(), "--session", name],
        &[("XDG_RUNTIME_DIR", runtime.to_str().unwrap())],
    );
    (a, home, end)
}

/// `run --host localhost` typed at the command prompt (`C-b :`) opens a
/// remote pane as the CLI's does, with the workspace's `[remote]`
/// settings: its shell runs on the host (the ssh session's variables are
/// there), in the directory `--cwd` named there.
#[test]
fn run_host_at_the_command_prompt_opens_a_remote_pane() {
    let Some(sshd) = Sshd::start() else { return };
    let (mut a, home, _end) = workspace_configured_for(&sshd, "prompt", "", |args, env| {
        Tilework::start_with(args, ROWS, 100, env)
    });
    a.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
    let there = home.path().join("prompted");
    std::fs::create_dir_all(&there).unwrap();
    a.send("\x02:");
    a.wait_for("the command prompt", |s| {
        s.contents().contains("command (Tab completes):")
    });
    a.send(format!("run --host localhost --cwd {}\r", there.display()));
    a.wait_for("the remote pane's border", |s| {
        s.contents().contains("localhost")
    });
    a.type_line(&format!(
        "[ \"$PWD\" = {} ] && echo \"prompted-$((40+5)):${{SSH_CONNECTION##* }}\"",
        there.display()
    ));
    a.wait_for_text(&format!("prompted-45:{}", sshd.port));
    drop(sshd);
}

/// The status bar's `host` segment names the focused pane's host: this
/// machine's name on a local pane, the remote host on a remote one.
#[test]
fn the_status_bars_host_is_the_focused_panes() {
    let Some(sshd) = Sshd::start() else { return };
    let status = "[status]\nleft = [\"text:here\"]\nright = [\"text:on\", \"host\"]\n";
    let (mut a, _home, _end) = workspace_configured_for(&sshd, "hosts", status, |args, env| {
        Tilework::start_with(args, ROWS, 100, env)
    });
    a.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
    let local = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .unwrap()
        .trim()
        .to_string();
    // The bar's last word (segments are set apart by two spaces).
    let host = |s: &vt100::Screen| {
        let bar = s.contents_between(ROWS - 1, 0, ROWS - 1, 100);
        bar.split_whitespace()
            .last()
            .unwrap_or_default()
            .to_string()
    };
    a.wait_for("this machine's name", |s| host(s) == local);
    a.send("\x02:");
    a.wait_for("the command prompt", |s| {
        s.contents().contains("command (Tab completes):")
    });
    a.send("run --host localhost\r");
    a.wait_for("the remote pane's host", |s| host(s) == "localhost");
    if local != "localhost" {
        // Back on the local pane: this machine again.
        a.send("\x02o");
        a.wait_for("this machine's name again", |s| host(s) == local);
    }
    drop(sshd);
}

/// A program in a remote pane prints a kitty picture (a 40 x 40 green RGB
/// picture, in chunks): the workspace on the host keeps it, its stream
/// sends it on in place of the reference its ring holds, and the local
/// workspace draws it on a terminal that speaks kitty graphics, where the
/// program's cursor was.
#[test]
fn a_kitty_picture_printed_in_a_remote_pane_reaches_the_local_terminal() {
    use base64::Engine as _;
    let Some(sshd) = Sshd::start() else { return };
    let (mut a, home, _end) = workspace_configured_for(&sshd, "pictures", "", |args, env| {
        let replies = common::TerminalReplies {
            kitty_graphics: true,
            ..common::TerminalReplies::default()
        };
        Tilework::start_answering(common::binary(), args, ROWS, 100, env, replies)
    });
    a.wait_for("the shell's prompt", |s| s.contents().contains("$ "));
    let data =
        base64::engine::general_purpose::STANDARD.encode(vec![[0u8, 200, 0]; 40 * 40].concat());
    let chunks: Vec<&[u8]> = data.as_bytes().chunks(4096).collect();
    let mut commands = Vec::new();
    for (n, chunk) in chunks.iter().enumerate() {
        let more = u8::from(n + 1 < chunks.len());
        let keys = if n == 0 {
            format!("a=T,f=24,s=40,v=40,i=7,q=2,m={more}")
        } else {
            format!("m={more}")
        };
        commands.extend_from_slice(format!("\x1b_G{keys};").as_bytes());
        commands.extend_from_slice(chunk);
        commands.extend_from_slice(b"\x1b\\");
    }
    let picture = home.path().join("green.kitty");
    std::fs::write(&picture, commands).unwrap();
    a.send("\x02:");
    a.wait_for("the command prompt", |s| {
        s.contents().contains("command (Tab completes):")
    });
    a.send("run --host localhost\r");
    a.wait_for("the remote pane's border", |s| {
        s.contents().contains("localhost")
    });
    a.type_line(&format!(
        "echo \"far-$((40+6)):${{SSH_CONNECTION##* }}\"; cat {}; echo pic-$((6*7))",
        picture.display()
    ));
    a.wait_for_text(&format!("far-46:{}", sshd.port));
    a.wait_for_text("pic-42");
    // The local workspace sends the picture to its terminal and places it
    // where the remote program's cursor was: the row after the echo, at
    // the pane's first column (1-based on the terminal).
    a.wait_for_raw(b"\x1b_Ga=t,");
    let (row, col) = a.with_screen(|s| {
        (0..ROWS)
            .find_map(|r| {
                let line = s.contents_between(r, 0, r, 100);
                let at = line.find("far-46:")?;
                Some((r, line[..at].chars().count() as u16))
            })
            .unwrap()
    });
    common::graphics::wait_for_drawn_at(&a, "the picture", b"\x1b_Ga=p,", 0, (row + 2, col + 1));
    drop(sshd);
}
