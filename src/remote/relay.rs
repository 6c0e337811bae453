//! `tilework remote-pane` (hidden): the program of a remote pane (issue 47
//! §2) in the local workspace. It runs `tilework proxy` on the host over
//! ssh (the shared connection and keep-alives of [`Ssh`], no terminal:
//! frames on ssh's stdin and stdout, see `session::pane_link`), and:
//! - writes the remote pane's output to its stdout, the local pane's PTY,
//!   so the local workspace parses it (copy mode, search, the status bar
//!   stay local; the program's modes pass through), its titles with the
//!   host in front ([`TitleTap`]);
//! - sends what it reads on its stdin (the PTY, raw) as input, and its
//!   size on SIGWINCH;
//! - when the link drops (ssh exits 255 or is killed), says so in the
//!   pane's title (the border shows it), waits as `attach HOST:NAME` does
//!   (1, 2, 4... 30 s), and asks the proxy for the same pane's output since
//!   the last ring position it has: what the program printed meanwhile
//!   arrives, and nothing twice. Keys typed while the link is down are
//!   dropped (as `attach HOST:NAME` drops them), and the title counts them;
//!   keys typed before the first connection are held for it;
//! - when the local pane closes (SIGHUP, SIGTERM), closes the remote one.

use std::io::{self, Read, Write};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use anyhow::{Context, Result};

use crate::config::remote_pane::RemotePane;
use crate::remote::output_batch;
use crate::remote::ssh::Ssh;
use crate::remote::stall_watch::StallWatch;
use crate::remote::target::Target;
use crate::remote::title_tap::TitleTap;
use crate::remote::versions;
use crate::session::pane_link::{Frame, FrameReader, Received};

/// The waits between attempts, as `attach HOST:NAME` waits.
const BACK_OFF_SECS: [u64; 6] = [1, 2, 4, 8, 15, 30];

/// The host a remote pane's argv names, as ssh takes it.
fn target(pane: &RemotePane) -> Result<Target> {
    let text = if pane.host.starts_with("ssh://") {
        pane.host.clone()
    } else {
        format!("{}:", pane.host)
    };
    Target::parse(&text)?.with_context(|| format!("{:?} is no host ssh takes", pane.host))
}

/// Keys typed before the pane's first connection, held for it (at most
/// this many bytes): nothing has run yet that could have moved on.
const MAX_HELD: usize = 64 << 10;

/// What the relay shares between its threads.
struct Link {
    state: Mutex<LinkState>,
    /// How to reach the host to close the remote pane.
    ssh: Ssh,
    target: Target,
}

#[derive(Default)]
struct LinkState {
    /// The running ssh's stdin.
    to_proxy: Option<ChildStdin>,
    /// The proxy answered on this run (its pane is there).
    up: bool,
    /// Some run got through.
    ever_up: bool,
    /// Keys typed before the first connection.
    held: Vec<u8>,
    /// Keys typed while the link was down.
    dropped: usize,
    /// The remote pane's id.
    pane: Option<u32>,
    /// The local pane closed: the relay is ending.
    closing: bool,
}

impl Link {
    fn lock(&self) -> std::sync::MutexGuard<'_, LinkState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sends `frame` while the link is up; false otherwise.
    fn send(&self, frame: &Frame) -> bool {
        let mut state = self.lock();
        state.up && send_to(&mut state, frame)
    }

    /// Keys from the local PTY: sent, held before the first connection,
    /// or dropped and counted while the link is down.
    fn keys(&self, bytes: &[u8]) {
        let mut state = self.lock();
        if state.up && send_to(&mut state, &Frame::Input(bytes.to_vec())) {
            return;
        }
        if !state.ever_up && state.held.len() + bytes.len() <= MAX_HELD {
            state.held.extend_from_slice(bytes);
        } else {
            state.dropped += bytes.len();
        }
    }

    /// A new run of ssh, not through yet.
    fn started(&self, stdin: Option<ChildStdin>) {
        let mut state = self.lock();
        state.to_proxy = stdin;
        state.up = false;
    }

    /// The proxy answered: the keys held, and the pane's size now.
    fn through(&self, pane: u32) {
        let mut state = self.lock();
        state.pane = Some(pane);
        state.up = true;
        state.ever_up = true;
        state.dropped = 0;
        let held = std::mem::take(&mut state.held);
        if !held.is_empty() {
            send_to(&mut state, &Frame::Input(held));
        }
        let (cols, rows) = size();
        send_to(&mut state, &Frame::Resize { cols, rows });
    }

    fn ended(&self) {
        let mut state = self.lock();
        state.to_proxy = None;
        state.up = false;
    }

    /// The local pane closed (its PTY hung up, or SIGHUP/SIGTERM came):
    /// the remote pane is closed too, and the relay ends. Whichever thread
    /// sees it first does it; the other waits for the exit.
    fn local_pane_closed(&self) -> ! {
        let pane = {
            let mut state = self.lock();
            if state.closing {
                drop(state);
                loop {
                    std::thread::park();
                }
            }
            state.closing = true;
            state.pane
        };
        if let Some(pane) = pane {
            std::thread::sleep(HANGUP_SETTLES);
            close_remote(&self.ssh, &self.target, pane);
        }
        std::process::exit(0);
    }

    fn dropped(&self) -> usize {
        self.lock().dropped
    }
}

fn send_to(state: &mut LinkState, frame: &Frame) -> bool {
    state
        .to_proxy
        .as_mut()
        .is_some_and(|stdin| stdin.write_all(&frame.encode()).is_ok())
}

/// How one run of ssh went.
enum Ended {
    /// The remote program ended with this status.
    Exited(i32),
    /// The proxy refused (no such pane, no tilework there): the message.
    Refused(String, i32),
    /// The link dropped; whether it got through first.
    Dropped { connected: bool, why: String },
}

/// Runs the remote pane until its program ends; the exit status is the
/// program's.
pub fn run(pane: &RemotePane) -> Result<i32> {
    let target = target(pane)?;
    let ssh = Ssh::new(
        &pane.settings,
        &crate::session::dir::runtime_dir()?,
        &target,
    );
    let _raw = RawStdin::enter();
    let link = Arc::new(Link {
        state: Mutex::default(),
        ssh: ssh.clone(),
        target: target.clone(),
    });
    start_input(&link)?;
    start_resizes(&link)?;
    match relay(pane, &ssh, &target, &link) {
        Ok(code) => Ok(code),
        Err(err) => {
            // Most likely the local pane went (its PTY can no longer be
            // written): close as its hangup does, or wait while another
            // thread does; never end the process under a close under way.
            tracing::info!("the relay stops: {err:#}");
            let _ = writeln!(io::stdout(), "\r\ntilework: {err:#}\r");
            link.local_pane_closed()
        }
    }
}

/// The relay's main loop: runs of ssh until the remote program ends.
fn relay(pane: &RemotePane, ssh: &Ssh, target: &Target, link: &Link) -> Result<i32> {
    let mut title = TitleTap::new(target.host());
    let mut out = io::stdout().lock();
    out.write_all(&title.current())?;
    out.flush()?;
    let mut state = Resume {
        pane: None,
        at: None,
    };
    let mut failed = 0usize;
    loop {
        let argv = ssh.proxy_argv(target, &proxy_args(pane, &state));
        match one_run(&argv, link, &mut title, &mut state)? {
            Ended::Exited(code) => return Ok(code),
            Ended::Refused(message, code) => {
                // An older tilework there refuses this version's flags.
                let message = (code == versions::USAGE_OR_ERROR && state.pane.is_none())
                    .then(|| versions::remote_differs(ssh, target))
                    .flatten()
                    .unwrap_or(message);
                let _ = writeln!(out, "\r\ntilework: {message}\r");
                return Ok(code);
            }
            Ended::Dropped { connected, why } if state.pane.is_none() && !connected => {
                // Never got through: ssh said why (auth, unknown host).
                let _ = writeln!(out, "\r\ntilework: no link to {}: {why}\r", target.host());
                return Ok(255);
            }
            Ended::Dropped { connected, why } => {
                failed = if connected { 0 } else { failed + 1 };
                tracing::info!(host = %target.host(), %why, failed, "a remote pane's link dropped");
                let wait = BACK_OFF_SECS[failed.min(BACK_OFF_SECS.len() - 1)];
                for left in (1..=wait).rev() {
                    let dropped = link.dropped();
                    let mut state = format!("link down, reconnecting in {left} s");
                    if dropped > 0 {
                        state.push_str(&format!(", {dropped} keys dropped"));
                    }
                    out.write_all(&title.said(&state))?;
                    out.flush()?;
                    std::thread::sleep(Duration::from_secs(1));
                }
                out.write_all(&title.said("link down, reconnecting"))?;
                out.flush()?;
            }
        }
    }
}

/// Where a reconnect returns to.
struct Resume {
    pane: Option<u32>,
    at: Option<u64>,
}

fn proxy_args(pane: &RemotePane, state: &Resume) -> Vec<String> {
    let (cols, rows) = size();
    let mut args = vec![
        "--cols".into(),
        cols.to_string(),
        "--rows".into(),
        rows.to_string(),
    ];
    if let Some(id) = state.pane {
        args.extend(["--pane".into(), id.to_string()]);
        if let Some(at) = state.at {
            args.extend(["--from".into(), at.to_string()]);
        }
    } else if let Some(cwd) = &pane.cwd {
        args.extend(["--cwd".into(), cwd.clone()]);
    }
    args.push("--".into());
    args.extend(pane.command.iter().cloned());
    args
}

/// One run of ssh carrying the proxy, until it ends.
fn one_run(
    argv: &[String],
    link: &Link,
    title: &mut TitleTap,
    state: &mut Resume,
) -> Result<Ended> {
    let (program, args) = argv.split_first().context("an empty ssh command")?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("running {program}"))?;
    let mut from_proxy = child.stdout.take().context("ssh's stdout")?;
    output_batch::widen_pipe(&from_proxy);
    let mut errors = child.stderr.take().context("ssh's stderr")?;
    let said = crate::jobs::named("relay-ssh-errors", move || {
        let mut text = Vec::new();
        let _ = (&mut errors).take(8 << 10).read_to_end(&mut text);
        String::from_utf8_lossy(&text).trim().to_string()
    })
    .context("starting the ssh error reader")?;
    link.started(child.stdin.take());
    let watch = StallWatch::start(child.id(), link.ssh.dead_after());
    let mut reader = FrameReader::default();
    let mut buf = vec![0u8; 1 << 20];
    let mut shown = Vec::with_capacity(output_batch::BATCH_BYTES);
    // The local pane's PTY, written straight to its descriptor, in
    // batches (see `output_batch`).
    let mut out = PaneOutput::stdout()?;
    let mut connected = false;
    let mut ending = None;
    while ending.is_none() {
        let n = match from_proxy.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let read = reader.each(&buf[..n], |frame| {
            if ending.is_some() {
                return;
            }
            match frame {
                Received::Output { end, bytes } => {
                    state.at = Some(end);
                    if title.passes_unchanged(bytes) {
                        shown.extend_from_slice(bytes);
                    } else {
                        title.pass(bytes, &mut shown);
                    }
                }
                Received::Other(Frame::Pane(id)) => {
                    connected = true;
                    state.pane = Some(id);
                    link.through(id);
                    shown.extend_from_slice(&title.current());
                }
                Received::Other(Frame::Gap(at)) => state.at = Some(at),
                Received::Other(Frame::Dir(dir)) => {
                    shown.extend_from_slice(&osc7(title.host(), &dir));
                }
                Received::Other(Frame::Exit(code)) => ending = Some(Ended::Exited(code)),
                Received::Other(Frame::Error(message)) => {
                    ending = Some(Ended::Refused(message, 3));
                }
                Received::Other(_) => {}
            }
        });
        if let Err(err) = read {
            ending = Some(Ended::Refused(
                format!("the remote tilework does not speak this version's frames ({err})"),
                2,
            ));
        }
        if output_batch::write_now(&shown, &from_proxy) {
            out.write(&mut shown)?;
        }
    }
    // What came before an exit or error frame.
    out.write(&mut shown)?;
    link.ended();
    let stalled = watch.finish();
    if ending.is_some() {
        let _ = child.kill();
    }
    let status = child.wait().context("waiting for ssh")?;
    let said = said.join().unwrap_or_default();
    if let Some(ending) = ending {
        return Ok(ending);
    }
    use std::os::unix::process::ExitStatusExt;
    Ok(match (status.code(), status.signal()) {
        (Some(127), _) if !connected => Ended::Refused(
            "the host has no tilework where ssh looks (exit 127): install it there, or set \
             `[remote] tilework` to its path"
                .into(),
            127,
        ),
        (Some(255), _) | (None, _) => Ended::Dropped {
            connected,
            why: if let Some(stalled) = stalled {
                stalled
            } else if said.is_empty() {
                format!("ssh ended ({status})")
            } else {
                said
            },
        },
        (Some(code), _) if !connected => Ended::Refused(
            if said.is_empty() {
                format!("the remote proxy ended with {code}")
            } else {
                said
            },
            code,
        ),
        // The proxy ended without the pane's end (its workspace was
        // killed): the link as good as dropped, and the pane gone.
        (Some(code), _) => {
            Ended::Refused(format!("the remote pane's workspace went ({code})"), code)
        }
    })
}

/// The local pane's PTY (the relay's stdout), written straight to its
/// descriptor: no line buffer between the remote output and the pane.
struct PaneOutput(std::fs::File);

impl PaneOutput {
    fn stdout() -> Result<Self> {
        super::unbuffered_stdout().map(Self)
    }

    /// Writes what `pending` holds and empties it.
    fn write(&mut self, pending: &mut Vec<u8>) -> io::Result<()> {
        if !pending.is_empty() {
            self.0.write_all(pending)?;
            pending.clear();
        }
        Ok(())
    }
}

/// `OSC 7` for `dir` on `host`, percent-encoded as shells write it.
fn osc7(host: &str, dir: &str) -> Vec<u8> {
    let mut url = format!("\x1b]7;file://{host}");
    for b in dir.bytes() {
        if b.is_ascii_graphic() && b != b'%' {
            url.push(char::from(b));
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url.push('\x07');
    url.into_bytes()
}

/// The local pane's size (cols, rows).
fn size() -> (u16, u16) {
    rustix::termios::tcgetwinsize(io::stdin())
        .map(|w| (w.ws_col.max(2), w.ws_row.max(2)))
        .unwrap_or((80, 24))
}

/// Keys from the local PTY, as input frames while the link is up;
/// dropped and counted while it is down.
fn start_input(link: &Arc<Link>) -> Result<()> {
    let link = Arc::clone(link);
    crate::jobs::named("relay-input", move || {
        let mut stdin = io::stdin().lock();
        let mut buf = vec![0u8; 64 << 10];
        loop {
            let n = match stdin.read(&mut buf) {
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Ok(0) | Err(_) => link.local_pane_closed(),
                Ok(n) => n,
            };
            link.keys(&buf[..n]);
        }
    })
    .context("starting the relay's input thread")?;
    Ok(())
}

/// The local pane's size, sent on each SIGWINCH; and its end: the local
/// pane closed (SIGHUP, SIGTERM) closes the remote one, whose program
/// would otherwise run on there with nobody to see it.
fn start_resizes(link: &Arc<Link>) -> Result<()> {
    use signal_hook::consts::{SIGHUP, SIGTERM, SIGWINCH};
    let mut signals = signal_hook::iterator::Signals::new([SIGWINCH, SIGHUP, SIGTERM])
        .context("listening for signals")?;
    let link = Arc::clone(link);
    crate::jobs::named("relay-resize", move || {
        for signal in signals.forever() {
            if signal != SIGWINCH {
                link.local_pane_closed();
            }
            let (cols, rows) = size();
            link.send(&Frame::Resize { cols, rows });
        }
    })
    .context("starting the relay's resize thread")?;
    Ok(())
}

/// The local pane's end hangs up on its session twice (its group at once,
/// every process of the session after a scan of `/proc`), then kills what
/// is left after `children::GRACE` (300 ms): the close starts after the
/// hangups, so they miss it, and is out of the session before the kill.
const HANGUP_SETTLES: Duration = Duration::from_millis(100);

/// How long the relay waits for the close before it ends: the close runs
/// on after it, but must have left the relay's session by then (the
/// kernel hangs up on the session's group when its leader ends).
const CLOSE_WAIT: Duration = Duration::from_millis(150);

/// Closes the remote pane with a run of ssh of its own (the one carrying
/// the stream got the same hangup), in a session of its own (`setsid`,
/// util-linux): the local pane's whole session is killed a moment after
/// its hangup, and a slow link must not cut the close short. A link that
/// is down closes nothing; the pane runs on there.
fn close_remote(ssh: &Ssh, target: &Target, pane: u32) {
    use std::os::unix::process::CommandExt;
    let args = [
        "--pane".to_string(),
        pane.to_string(),
        "--close".to_string(),
    ];
    let argv = ssh.proxy_argv(target, &args);
    // A process group of its own at once: the hangup on the local pane's
    // group (and the kernel's, when the relay ends) misses it; `setsid`
    // takes it out of the session before the session is killed.
    let spawned = Command::new("setsid")
        .args(&argv)
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(err) => {
            tracing::warn!("closing remote pane {pane}: {err}");
            return;
        }
    };
    tracing::info!(pane, "the local pane closed: closing the remote one");
    let deadline = std::time::Instant::now() + CLOSE_WAIT;
    while std::time::Instant::now() < deadline {
        if let Ok(Some(status)) = child.try_wait() {
            tracing::info!(pane, %status, "the remote pane's close ended");
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The local PTY in raw mode while the relay runs: every key goes to the
/// remote program as it is (C-c included), nothing echoed here.
struct RawStdin(Option<rustix::termios::Termios>);

impl RawStdin {
    fn enter() -> Self {
        use rustix::termios::{OptionalActions, tcgetattr, tcsetattr};
        let Ok(saved) = tcgetattr(io::stdin()) else {
            return Self(None);
        };
        let mut raw = saved.clone();
        raw.make_raw();
        let _ = tcsetattr(io::stdin(), OptionalActions::Now, &raw);
        Self(Some(saved))
    }
}

impl Drop for RawStdin {
    fn drop(&mut self) {
        if let Some(saved) = &self.0 {
            let _ = rustix::termios::tcsetattr(
                io::stdin(),
                rustix::termios::OptionalActions::Now,
                saved,
            );
        }
    }
}
