//! The process in the user's terminal: `tilework` itself (which starts a
//! workspace and attaches to it), `tilework attach`, `ls` and `kill`.
//!
//! An attached client hands its stdin, stdout and stderr to the workspace
//! and then only waits: for the workspace to say it let the terminal go (or
//! ended), and for signals to forward (a resize, a hangup, SIGTERM). The
//! shell gets its prompt back when the client exits, that is when the
//! workspace detached or ended.

use std::io::{self, IsTerminal, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};

use rustix::termios::OptionalActions;

use super::claim::{self, Claim};
use super::dir;
use super::missing_workspace::MissingWorkspace;
use super::workspace_child;

use super::proto::{
    self, ClientNote, DetachReason, Info, Joining, LineReader, Request, ServerNote,
};
use crate::sanitize::escape_controls;
use crate::terminal::outer_terminal::{self, OuterTerminal as TerminalFacts};

/// The hidden flag that makes `tilework` the workspace process of a new
/// session (the launcher passes it; users never do).
pub const SERVE_FLAG: &str = "--serve-session";

/// A workspace that answered.
#[derive(Debug, Clone)]
pub struct Live {
    pub name: String,
    pub path: PathBuf,
    pub info: Info,
}

/// Connects to the workspace at `path` and checks it runs as this user.
pub fn connect(path: &Path) -> io::Result<UnixStream> {
    let stream = UnixStream::connect(path)?;
    let peer = crate::os::peer_uid(&stream)?;
    if peer != dir::my_uid() {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("{} is run by uid {peer}, not by you", path.display()),
        ));
    }
    Ok(stream)
}

/// Whether connecting says nobody listens: the workspace is gone and its
/// socket was left behind (a crash, a SIGKILL).
pub(super) fn is_stale(err: &io::Error) -> bool {
    matches!(
        err.kind(),
        io::ErrorKind::ConnectionRefused | io::ErrorKind::NotFound
    )
}

/// Asks one workspace about itself.
pub(crate) fn query(path: &Path) -> io::Result<Info> {
    let stream = connect(path)?;
    stream.set_read_timeout(Some(Duration::from_secs(3)))?;
    (&stream).write_all(Request::Info.line().as_bytes())?;
    let mut reader = LineReader::default();
    while let Some(lines) = reader.read_lines(&stream)? {
        for line in lines {
            match ServerNote::parse(&line) {
                Some(ServerNote::Info(info)) => return Ok(info),
                Some(ServerNote::Error(text)) => return Err(io::Error::other(text)),
                _ => {}
            }
        }
    }
    Err(io::Error::other("the workspace did not answer"))
}

/// The running workspaces, sorted by name. Sockets nobody listens on are
/// removed on the way.
pub fn live_sessions(dir: &Path) -> Result<Vec<Live>> {
    let mut live = Vec::new();
    for name in dir::socket_names(dir)? {
        let path = dir::socket_path(dir, &name);
        match query(&path) {
            Ok(info) => live.push(Live { name, path, info }),
            Err(err) if is_stale(&err) => {
                if let Err(err) = claim::remove_if_dead(&path) {
                    say(&format!("tilework: {err:#}"));
                }
            }
            Err(err) => {
                let _ = writeln!(
                    io::stderr(),
                    "tilework: workspace {name} does not answer: {err}"
                );
            }
        }
    }
    Ok(live)
}

/// The one running workspace; an error naming them all when there are
/// several (`how_to_pick` says how to choose) or none.
pub fn the_only(live: Vec<Live>, how_to_pick: &str) -> Result<Live> {
    match <[Live; 1]>::try_from(live) {
        Ok([one]) => Ok(one),
        Err(live) if live.is_empty() => {
            bail!("no workspace is running (start one with `tilework`)")
        }
        Err(several) => {
            let names: Vec<&str> = several.iter().map(|s| s.name.as_str()).collect();
            bail!(
                "{} workspaces are running ({}): say which{how_to_pick}",
                names.len(),
                names.join(", ")
            )
        }
    }
}

/// The workspace `tilework attach` takes without a name: the only one
/// running, else the only one no terminal shows (the one just detached,
/// as tmux would take the most recent; the others are on screen somewhere,
/// and attaching would take them from that terminal).
fn pick_to_attach(mut live: Vec<Live>) -> Result<Live> {
    let detached: Vec<usize> = (0..live.len())
        .filter(|&i| !live[i].info.attached)
        .collect();
    if let [one] = detached[..]
        && live.len() > 1
    {
        return Ok(live.swap_remove(one));
    }
    the_only(live, ", `tilework attach NAME`")
}

/// `tilework ls`; `long`: with the disk space saved workspaces take.
pub fn ls(long: bool) -> Result<i32> {
    let dir = dir::runtime_dir()?;
    let live = live_sessions(&dir)?;
    let (saved, damaged) = crate::persist::manifest::scan_saved(long);
    for sentence in &damaged {
        let _ = writeln!(io::stderr(), "tilework: {}", escape_controls(sentence));
    }
    if live.is_empty() && saved.is_empty() {
        let _ = writeln!(io::stderr(), "no workspace is running");
        return Ok(0);
    }
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // With `-l`, the space each workspace's saved state takes on disk.
    let disk = |name: &str| -> String {
        if !long {
            return String::new();
        }
        let bytes = saved.iter().find(|s| s.name == name).and_then(|s| s.disk);
        format!(
            "  {:>9}",
            bytes.map_or("-".into(), |b| format!("{:.1}M", b as f64 / 1048576.0))
        )
    };
    let pid_width = if long { 8 } else { 0 };
    let mut out = String::new();
    // Each workspace's binary; `*` marks one older than this binary.
    let mut older = false;
    let mut version = |info: &Info| -> String {
        let Some(v) = info.version.as_deref() else {
            return "?".into();
        };
        let mark = crate::release::is_older(v);
        older |= mark;
        format!("{v}{}", if mark { "*" } else { "" })
    };
    out.push_str(&format!(
        "{:<16} {:>5}  {:<9} {:>9} {:>6}  {:<9} {:<pid_width$}{}\n",
        "NAME",
        "PANES",
        "STATE",
        "TERMINALS",
        "AGE",
        "VERSION",
        "PID",
        if long { "       DISK" } else { "" }
    ));
    for s in &live {
        out.push_str(&format!(
            "{:<16} {:>5}  {:<9} {:>9} {:>6}  {:<9} {:<pid_width$}{}\n",
            s.name,
            s.info.panes,
            match (s.info.attached, s.info.stalled) {
                (true, false) => "attached",
                // Its terminal stopped reading (a frozen ssh): frames wait.
                (true, true) => "stalled",
                (false, _) => "detached",
            },
            s.info.clients,
            age(now.saturating_sub(s.info.started)),
            version(&s.info),
            s.info.pid,
            disk(&s.name)
        ));
    }
    // Saved and not running: after a crash, a kill or a reboot.
    for s in (saved.iter()).filter(|s| !live.iter().any(|l| l.name == s.name)) {
        out.push_str(&format!(
            "{:<16} {:>5}  {:<9} {:>9} {:>6}  {:<9} {:<pid_width$}{}\n",
            s.name,
            s.panes,
            "saved",
            0,
            age(now.saturating_sub(s.saved_at)),
            "-",
            "-",
            disk(&s.name)
        ));
    }
    if older {
        out.push_str(&format!(
            "* an older tilework than this one ({}): `tilework upgrade NAME` moves it here\n",
            crate::release::version()
        ));
    }
    print!("{out}");
    Ok(0)
}

/// `42s`, `5m`, `3h`, `2d`.
pub fn age(secs: u64) -> String {
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m", secs / 60),
        3600..86400 => format!("{}h", secs / 3600),
        _ => format!("{}d", secs / 86400),
    }
}

/// `tilework kill NAME`: ends the workspace as `C-b Q` would (without
/// asking) and waits until it is gone.
pub fn kill(name: &str) -> Result<i32> {
    dir::check_name(name)?;
    let dir = dir::runtime_dir()?;
    let path = dir::socket_path(&dir, name);
    let stream = match connect(&path) {
        Ok(s) => s,
        Err(err) if is_stale(&err) => {
            let _ = claim::remove_if_dead(&path);
            bail!("no workspace named {name} is running (tilework ls lists them)");
        }
        Err(err) => return Err(err).with_context(|| format!("reaching workspace {name}")),
    };
    (&stream)
        .write_all(Request::Kill.line().as_bytes())
        .with_context(|| format!("asking workspace {name} to end"))?;
    // The stream ends when the process does: that is "no process left".
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = LineReader::default();
    loop {
        match reader.read_lines(&stream) {
            Ok(Some(lines)) => {
                for line in lines {
                    if let Some(ServerNote::Error(text)) = ServerNote::parse(&line) {
                        bail!("workspace {name}: {text}");
                    }
                }
            }
            Ok(None) => return Ok(0),
            Err(err) => {
                return Err(err).with_context(|| format!("waiting for workspace {name} to end"));
            }
        }
    }
}

/// `tilework attach [NAME]`; `create`: `attach -c`, which starts workspace
/// NAME with these arguments when none of that name runs or is saved.
pub fn attach(
    name: Option<&str>,
    joining: Joining,
    create: Option<Vec<std::ffi::OsString>>,
) -> Result<i32> {
    require_terminals()?;
    let dir = dir::runtime_dir()?;
    let target = match name {
        Some(name) => {
            dir::check_name(name)?;
            let path = dir::socket_path(&dir, name);
            match query(&path) {
                Ok(info) => Live {
                    name: name.to_string(),
                    path,
                    info,
                },
                Err(err) if is_stale(&err) => {
                    let _ = claim::remove_if_dead(&path);
                    if crate::persist::is_saved(name) {
                        return launch_restored(claim::claim_named(&dir, name)?, name, joining);
                    }
                    if let Some(args) = create {
                        let mut serve: Vec<std::ffi::OsString> =
                            vec!["--session".into(), name.into()];
                        serve.extend(args);
                        let claim = claim::claim_named(&dir, name)?;
                        return launch_with(claim, ServeArgs::These(serve), joining);
                    }
                    return Err(MissingWorkspace {
                        name: name.to_string(),
                    }
                    .into());
                }
                Err(err) => {
                    return Err(err).with_context(|| format!("reaching workspace {name}"));
                }
            }
        }
        None => {
            let live = live_sessions(&dir)?;
            // None running: a lone saved one comes back (after a reboot).
            if live.is_empty()
                && let Some(name) = crate::persist::manifest::the_only_saved()?
            {
                return launch_restored(claim::claim_named(&dir, &name)?, &name, joining);
            }
            pick_to_attach(live)?
        }
    };
    // Panes get TILEWORK=<the workspace's pid>: a terminal inside the
    // workspace would be drawn into itself, forever.
    if std::env::var("TILEWORK").is_ok_and(|pid| pid == target.info.pid.to_string()) {
        bail!(
            "this terminal is a pane of workspace {}: it cannot show itself",
            target.name
        );
    }
    let stream =
        connect(&target.path).with_context(|| format!("reaching workspace {}", target.name))?;
    run_attached(stream, &target.name, None, &joining)
}

/// Brings saved workspace `name` back on `claim` (its name): a new
/// workspace that opens what was saved (see `persist`), attached to this
/// terminal.
pub fn launch_restored(claim: Claim, name: &str, joining: Joining) -> Result<i32> {
    // A damaged save is said here, on the terminal, not by a workspace
    // that ends at once.
    crate::persist::restore::check(name)?;
    let args = ["--session", name, "--restore"].map(std::ffi::OsString::from);
    launch_with(claim, ServeArgs::These(args.to_vec()), joining)
}

/// The terminal must be on stdin and stdout: that is what is handed over.
pub fn require_terminals() -> Result<()> {
    for (name, is_tty) in [
        ("stdin", io::stdin().is_terminal()),
        ("stdout", io::stdout().is_terminal()),
    ] {
        if !is_tty {
            bail!(
                "{name} is not a terminal: tilework draws its workspace on the terminal it \
                 runs in, so run it in a terminal without redirecting {name}"
            );
        }
    }
    Ok(())
}

/// Starts a new workspace on the socket `claim` took (see
/// `session::claim`) and attaches this terminal to it. `name_given`: the
/// user chose the name (`--session`), so it is among tilework's arguments.
pub fn launch(claim: Claim, name_given: bool, joining: Joining) -> Result<i32> {
    launch_with(claim, ServeArgs::Ours { name_given }, joining)
}

/// What the workspace process is told besides [`SERVE_FLAG`].
enum ServeArgs {
    /// This process's own arguments (`name_given`: `--session NAME` is
    /// among them).
    Ours {
        name_given: bool,
    },
    These(Vec<std::ffi::OsString>),
}

fn launch_with(claim: Claim, args: ServeArgs, joining: Joining) -> Result<i32> {
    let Claim {
        name,
        path,
        listener,
    } = claim;
    // The launcher's own connection, apart from the socket: whoever else
    // connects to a starting workspace (`ls`, another launcher checking the
    // name), this one is the terminal it takes first.
    let (ours, theirs) = UnixStream::pair().context("making the first connection")?;
    match spawn_workspace(&name, args, listener, theirs) {
        Ok(child) => run_attached(ours, &name, Some(child), &joining),
        Err(err) => {
            // The listener closed with the command: nothing listens on
            // the socket now, and nobody else would remove it but `ls`.
            // (A workspace that fails to start removes its own.)
            if let Err(err) = claim::remove_if_dead(&path) {
                tracing::warn!("removing {}: {err:#}", path.display());
            }
            Err(err)
        }
    }
}

/// Starts the workspace process: tilework again, with `listener` as its
/// stdin and its end of the first connection as its stdout (handed over
/// without `unsafe`).
fn spawn_workspace(
    name: &str,
    args: ServeArgs,
    listener: UnixListener,
    first: UnixStream,
) -> Result<Child> {
    let exe = std::env::current_exe().context("finding tilework's own binary")?;
    let mut cmd = Command::new(exe);
    cmd.arg(SERVE_FLAG);
    match args {
        ServeArgs::Ours { name_given } => {
            if !name_given {
                cmd.args(["--session", name]);
            }
            // In front: anything after `--` is the pane's command.
            cmd.args(std::env::args_os().skip(1));
        }
        ServeArgs::These(args) => {
            cmd.args(args);
        }
    }
    cmd.stdin(Stdio::from(OwnedFd::from(listener)))
        .stdout(Stdio::from(OwnedFd::from(first)))
        .stderr(Stdio::null())
        .env_remove(super::small_wait::IN_PLACE_VAR); // the client's own switch
    cmd.spawn().context("starting the workspace process")
}

/// Hands this process's terminal to the workspace on `stream` and waits
/// until it is let go. `child`: the workspace process when we started it
/// (its status is ours if it dies without a word). Returns the exit status.
/// Done by this binary run afresh (`small_wait`), unless that fails.
pub fn run_attached(
    stream: UnixStream,
    name: &str,
    child: Option<Child>,
    joining: &Joining,
) -> Result<i32> {
    // Reaped by its pid from here on: a `Child` does not cross an exec.
    let child = child.map(|c| c.id());
    let err = super::small_wait::restart(&stream, name, child, joining);
    tracing::warn!("waiting for the workspace without starting afresh: {err}");
    attach_and_wait(stream, name, child, joining)
}

/// The client run afresh by [`run_attached`] (`small_wait`) attaches and
/// waits.
pub fn resume_attached() -> Result<i32> {
    let handed = super::small_wait::take()?;
    attach_and_wait(handed.stream, &handed.name, handed.child, &handed.joining)
}

/// [`run_attached`] in this process. `child`: the workspace process's pid.
fn attach_and_wait(
    mut stream: UnixStream,
    name: &str,
    mut child: Option<u32>,
    joining: &Joining,
) -> Result<i32> {
    let stdin = io::stdin();
    let saved = rustix::termios::tcgetattr(&stdin).ok();
    let fallback = Fallback { saved };
    let facts = ask_the_terminal(fallback.saved.as_ref());
    let mut name = name.to_string();
    let mut joining = joining.clone();
    let outcome = loop {
        let signals = forward_signals(&stream, fallback.clone())?;
        proto::send_with_fds(
            &stream,
            &Request::Attach(facts, joining.clone()).line(),
            &[stdin.as_fd(), io::stdout().as_fd(), io::stderr().as_fd()],
        )
        .with_context(|| format!("handing the terminal to workspace {name}"))?;
        let outcome = wait_for_word(&stream);
        signals.close();
        let Word::Switch { to, select } = outcome else {
            break outcome;
        };
        // `C-b s` chose another workspace: the same terminal goes there
        // (the one left put it back as it was meanwhile).
        let runtime = dir::runtime_dir()?;
        let path = dir::socket_path(&runtime, &to);
        if crate::persist::is_saved(&to) && connect(&path).is_err() {
            // A saved workspace (after a crash or a reboot): it comes back
            // on this terminal.
            joining.select = None;
            joining.mode = super::joining::AttachMode::Join;
            let claim = claim::claim_named(&runtime, &to)?;
            workspace_child::reap_when_gone(child.take());
            return launch_restored(claim, &to, joining);
        }
        match connect(&path) {
            Ok(next) => {
                stream = next;
                name = to;
                joining.select = select;
                joining.mode = super::joining::AttachMode::Join;
                // Its status is no longer this terminal's to report.
                workspace_child::reap_when_gone(child.take());
            }
            Err(err) => {
                fallback.restore_screen();
                fallback.restore_mode();
                say(&format!(
                    "[left workspace {name} for {to}, which cannot be reached: {err}]"
                ));
                return Ok(1);
            }
        }
    };
    let name = name.as_str();
    match outcome {
        Word::Detached(reason) => {
            // The workspace wrote the same, but never waits for a terminal
            // that is not reading (a frozen ssh taken over): this process
            // can wait, so the terminal is surely back when it reads again.
            fallback.restore_screen();
            fallback.restore_mode();
            let why = match reason {
                DetachReason::Key => String::new(),
                DetachReason::TakenOver => ": another terminal attached with `attach -d`".into(),
                DetachReason::TerminalLost => ": the terminal was lost".into(),
                DetachReason::Hangup => ": hangup".into(),
                DetachReason::Signal => format!(": {}", signal_name(quit_signal())),
            };
            say(&format!(
                "[detached from workspace {name}{why}; `tilework attach {name}` returns to it]"
            ));
            // Killed by a signal, as whoever sent it expects to see (a
            // `timeout`'s 124 needs it; a shell prints nothing for 143).
            Ok(match reason {
                DetachReason::Signal => 128 + quit_signal(),
                _ => 0,
            })
        }
        Word::Exit { code, killed } => {
            if killed {
                say(&format!("[workspace {name} was ended by `tilework kill`]"));
            }
            wait_gone(&stream, child);
            Ok(code)
        }
        Word::Error(text) => {
            wait_gone(&stream, child);
            bail!("{text}")
        }
        // The loop above followed every switch.
        Word::Switch { to, .. } => bail!("an unexpected switch to {to}"),
        Word::Silence => {
            // It died without restoring the terminal, or after a panic
            // that did (its message is on the screen).
            let status = child
                .and_then(|pid| workspace_child::reap(pid, rustix::process::WaitOptions::empty()));
            let killed_by_signal = status.is_some_and(|s| s.exit_status().is_none());
            if status.is_none() || killed_by_signal {
                fallback.restore_screen();
            }
            fallback.restore_mode();
            say(&crash_message(name, crate::persist::is_saved(name)));
            Ok(status
                .map(|s| {
                    s.exit_status()
                        .unwrap_or_else(|| 128 + s.terminating_signal().unwrap_or(0))
                })
                .unwrap_or(1))
        }
    }
}

/// Asks this process's terminal what the workspace should know of it (its
/// colours, kitty keys; see `client::facts`), in raw mode so the answers
/// are neither echoed nor held for a newline, then puts its line
/// discipline back: the workspace saves and restores the terminal's own.
/// Waiting here keeps the wait off the workspace's loop.
fn ask_the_terminal(saved: Option<&rustix::termios::Termios>) -> TerminalFacts {
    let Some(saved) = saved else {
        return TerminalFacts::default();
    };
    let stdin = io::stdin();
    let mut raw = saved.clone();
    raw.make_raw();
    if let Err(err) = rustix::termios::tcsetattr(&stdin, OptionalActions::Now, &raw) {
        tracing::warn!("raw mode to ask the terminal: {err}");
        return TerminalFacts::default();
    }
    let facts = outer_terminal::ask(outer_terminal::ASK_TIMEOUT);
    // Not TCSAFLUSH: a late answer is left for the workspace, which knows
    // one when it sees it; keys typed meanwhile stay typed.
    if let Err(err) = rustix::termios::tcsetattr(&stdin, OptionalActions::Now, saved) {
        tracing::warn!("restoring the terminal after asking it: {err}");
    }
    facts
}

/// How the workspace let go of the terminal.
enum Word {
    Detached(DetachReason),
    /// Show workspace `to` instead.
    Switch {
        to: String,
        select: Option<(usize, Option<u32>)>,
    },
    Exit {
        code: i32,
        killed: bool,
    },
    Error(String),
    /// The connection ended without a word.
    Silence,
}

fn wait_for_word(stream: &UnixStream) -> Word {
    let mut reader = LineReader::default();
    loop {
        match reader.read_lines(stream) {
            Ok(Some(lines)) => {
                for line in lines {
                    match ServerNote::parse(&line) {
                        Some(ServerNote::Detached(reason)) => return Word::Detached(reason),
                        Some(ServerNote::Switch { name, select }) => {
                            return Word::Switch { to: name, select };
                        }
                        Some(ServerNote::Exit { code, killed }) => {
                            return Word::Exit { code, killed };
                        }
                        Some(ServerNote::Error(text)) => return Word::Error(text),
                        _ => tracing::warn!("unexpected message from the workspace: {line:?}"),
                    }
                }
            }
            Ok(None) | Err(_) => return Word::Silence,
        }
    }
}

/// After the last word, waits (briefly) for the workspace process to be
/// gone, so that when this exits, nothing of the workspace is left.
fn wait_gone(stream: &UnixStream, child: Option<u32>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut reader = LineReader::default();
    while let Ok(Some(_)) = reader.read_lines(stream) {}
    if let Some(pid) = child {
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            match workspace_child::reap_now(pid) {
                Some(true) | None => return,
                Some(false) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
    }
}

/// One line for the user, on stderr (the terminal is back to normal). A
/// terminal that is gone is not an error worth more.
fn say(text: &str) {
    let _ = writeln!(io::stderr(), "{}", escape_controls(text));
}

/// What the client can put back itself if the workspace dies without doing
/// it: the line discipline it saw before attaching, and the modes.
#[derive(Clone)]
struct Fallback {
    saved: Option<rustix::termios::Termios>,
}

impl Fallback {
    fn restore_mode(&self) {
        if let Some(saved) = &self.saved {
            let _ = rustix::termios::tcsetattr(
                io::stdin(),
                rustix::termios::OptionalActions::Now,
                saved,
            );
        }
    }

    fn restore_screen(&self) {
        let _ = io::stdout().write_all(crate::terminal::guard::LEAVE_SEQUENCE);
        let _ = io::stdout().flush();
    }

    /// The workspace does not answer: puts the terminal back and exits as
    /// killed by `sig`.
    fn give_up(&self, sig: i32) -> ! {
        self.restore_screen();
        self.restore_mode();
        std::process::exit(128 + sig);
    }

    /// [`Self::give_up`] after `wait`, unless the process has exited by
    /// then (the workspace let the terminal go).
    fn give_up_after(&self, wait: Duration, sig: i32) {
        let fallback = self.clone();
        // (One that cannot start is said in the log.)
        let _ = crate::jobs::named("detach-deadline", move || {
            std::thread::sleep(wait);
            tracing::warn!("the workspace did not let the terminal go after a signal");
            fallback.give_up(sig);
        });
    }
}

/// What the user reads when workspace `name` died without a word (a
/// SIGKILL, an OOM kill, a crash); `saved`: its state is on disk.
fn crash_message(name: &str, saved: bool) -> String {
    if saved {
        format!(
            "[workspace {name} ended unexpectedly; it was saved: `tilework attach {name}` \
             brings it back (its log may say why)]"
        )
    } else {
        format!("[workspace {name} ended unexpectedly; its log may say why]")
    }
}

/// The SIGTERM or SIGINT this client got (0: none): it detached because
/// of it, and exits as killed by it. Process-wide: a signal handler writes it.
static QUIT_SIGNAL: AtomicI32 = AtomicI32::new(0);

fn quit_signal() -> i32 {
    match QUIT_SIGNAL.load(Ordering::Relaxed) {
        0 => signal_hook::consts::SIGTERM,
        sig => sig,
    }
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        signal_hook::consts::SIGINT => "SIGINT",
        _ => "SIGTERM",
    }
}

/// How long a client that got SIGTERM waits for its workspace to let the
/// terminal go before it puts the terminal back itself and exits: a stuck
/// workspace must not keep `kill` or `timeout` waiting.
const DETACH_DEADLINE: Duration = Duration::from_secs(3);

/// The signal thread of an attached client.
struct Forwarder {
    handle: signal_hook::iterator::Handle,
}

impl Forwarder {
    fn close(self) {
        self.handle.close();
    }
}

/// SIGWINCH, SIGHUP, SIGTERM and SIGINT reach the client (it is the
/// terminal's foreground process); each becomes a note to the workspace.
/// SIGTERM and SIGINT detach this terminal only (see `docs/signals.md`).
/// A second one, or no word within [`DETACH_DEADLINE`], means the
/// workspace does not answer: the client puts the terminal back and exits.
fn forward_signals(stream: &UnixStream, fallback: Fallback) -> Result<Forwarder> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGWINCH};
    let mut signals = signal_hook::iterator::Signals::new([SIGWINCH, SIGHUP, SIGTERM, SIGINT])
        .context("installing signal handlers")?;
    let handle = signals.handle();
    let notes = stream.try_clone().context("cloning the session stream")?;
    crate::jobs::named("signals", move || {
        let mut quits = 0;
        for sig in signals.forever() {
            let note = match sig {
                SIGWINCH => ClientNote::Resize,
                SIGHUP => ClientNote::Hangup,
                _ => {
                    quits += 1;
                    if quits > 1 {
                        fallback.give_up(sig);
                    }
                    QUIT_SIGNAL.store(sig, Ordering::Relaxed);
                    fallback.give_up_after(DETACH_DEADLINE, sig);
                    ClientNote::Signalled(sig)
                }
            };
            let _ = (&notes).write_all(note.line().as_bytes());
        }
    })
    .context("starting the signal thread")?;
    Ok(Forwarder { handle })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;

    fn live(name: &str, attached: bool) -> Live {
        Live {
            name: name.into(),
            path: PathBuf::from(name),
            info: Info {
                pid: 1,
                panes: 1,
                attached,
                clients: usize::from(attached),
                stalled: false,
                started: 0,
                version: None,
                state_format: None,
            },
        }
    }

    #[test]
    fn attach_without_a_name_takes_the_only_detached_workspace() {
        let picked = pick_to_attach(vec![live("0", true), live("1", false)]).unwrap();
        assert_eq!(picked.name, "1");
        assert_eq!(pick_to_attach(vec![live("0", true)]).unwrap().name, "0");
        let both_detached = pick_to_attach(vec![live("0", false), live("1", false)]);
        assert!(
            both_detached
                .unwrap_err()
                .to_string()
                .contains("2 workspaces are running (0, 1)")
        );
        let both_shown = pick_to_attach(vec![live("0", true), live("1", true)]);
        assert!(both_shown.is_err());
        assert!(pick_to_attach(Vec::new()).is_err());
    }

    #[test]
    fn ages_read_at_a_glance() {
        assert_eq!(age(5), "5s");
        assert_eq!(age(125), "2m");
        assert_eq!(age(7200), "2h");
        assert_eq!(age(3 * 86400), "3d");
    }
}
