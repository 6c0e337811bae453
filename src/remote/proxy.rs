//! `tilework proxy` (hidden): the remote end of a remote pane (issue 47
//! §2), run by the local relay through ssh, its stdin and stdout the
//! channel (frames of `session::pane_link`).
//!
//! Each remote pane is a pane of a workspace on this host (default
//! [`WORKSPACE`], one tab per pane), started detached when none runs, as
//! `tmux new -d` starts one. The proxy opens the pane (or finds the one it
//! is asked to return to), sends its id, then its output from the ring
//! position asked for, and passes input and resizes on, each a script call
//! on the session socket. When its stream is cut off (the link was slower
//! than the pane), it asks again from the last position it sent: the ring
//! is the buffer. When the link drops, ssh closes stdin and the proxy ends;
//! the pane runs on.

use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::remote::versions;
use crate::session::pane_link::{self, Frame, FrameReader, PaneStreamCall};
use crate::session::script::{self, Call, Place};
use crate::session::{attach_process, dir, script_client};
use crate::tmux_compat::detached::{self, Launch};

/// The workspace remote panes live in unless told otherwise.
pub const WORKSPACE: &str = "remote-panes";

/// How long a call other than the stream may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// What the relay asks for.
#[derive(Debug, Clone)]
pub struct ProxyRequest {
    pub workspace: String,
    /// Return to this pane; else open one.
    pub pane: Option<u32>,
    /// Output from this ring position on (a reconnect).
    pub from: Option<u64>,
    /// Close the pane (its local pane was closed) instead.
    pub close: bool,
    pub cwd: Option<String>,
    pub cols: u16,
    pub rows: u16,
    /// The relay's tilework version; another one is refused.
    pub client_version: Option<String>,
    /// Empty: the user's shell.
    pub argv: Vec<String>,
}

/// Runs the proxy; its exit status is 0 once the pane ended (its status
/// travelled as a frame), 3 when the pane could not be opened or found.
pub fn proxy(request: &ProxyRequest) -> Result<i32> {
    dir::check_name(&request.workspace)?;
    let socket = dir::socket_path(&dir::runtime_dir()?, &request.workspace);
    // Our stdout is the channel: nothing else may write there. Written
    // straight to its descriptor, a frame at a time.
    let out = Arc::new(Mutex::new(Channel::stdout()?));
    let write = |frame: &Frame| -> io::Result<()> { lock(&out).write_all(&frame.encode()) };
    if let Some(refused) = versions::refusal(request.client_version.as_deref()) {
        write(&Frame::Error(refused))?;
        return Ok(versions::VERSION_MISMATCH);
    }
    if request.close {
        let pane = request.pane.context("--close needs --pane")?;
        call(&socket, &Call::PaneClose { pane })?;
        return Ok(0);
    }
    let pane = match request.pane {
        Some(pane) => pane,
        None => match open_pane(&socket, request) {
            Ok(pane) => pane,
            Err(err) => {
                write(&Frame::Error(format!("{err:#}")))?;
                return Ok(3);
            }
        },
    };
    let _ = call(
        &socket,
        &Call::PaneResize {
            pane,
            cols: request.cols,
            rows: request.rows,
        },
    );
    write(&Frame::Pane(pane))?;
    let input_socket = socket.clone();
    crate::jobs::named("proxy-input", move || {
        pass_input(&input_socket, pane);
        // The relay is gone (the link dropped, or it ended): so is
        // the proxy; the pane runs on.
        std::process::exit(0);
    })
    .context("starting the input thread")?;
    let dir_socket = socket.clone();
    let dir_out = Arc::clone(&out);
    crate::jobs::named("proxy-dir", move || follow_dir(&dir_socket, pane, &dir_out))
        .context("starting the directory thread")?;
    stream(&socket, pane, request.from, &out)
}

/// How often the pane's directory is looked at.
const DIR_EVERY: Duration = Duration::from_millis(300);

/// Sends the pane's directory (as its workspace sees it: the shell's OSC
/// 7, else the kernel's) whenever it changes: a split of the remote pane
/// opens there, whether or not the remote shell reports it.
fn follow_dir(socket: &Path, pane: u32, out: &Mutex<Channel>) {
    let mut last = None;
    loop {
        let Ok(panes) = script_client::panes_of(socket, CALL_TIMEOUT) else {
            return;
        };
        let Some(info) = panes.into_iter().find(|p| p.id == pane) else {
            return;
        };
        if info.cwd.is_some() && info.cwd != last {
            last = info.cwd.clone();
            let frame = Frame::Dir(info.cwd.unwrap_or_default()).encode();
            if lock(out).write_all(&frame).is_err() {
                return;
            }
        }
        std::thread::sleep(DIR_EVERY);
    }
}

/// Opens a pane running the request's command in a tab of the workspace,
/// starting the workspace when none runs. Returns its id.
fn open_pane(socket: &Path, request: &ProxyRequest) -> Result<u32> {
    let argv = if request.argv.is_empty() {
        vec![std::env::var("SHELL").unwrap_or_else(|_| "/bin/sh".into())]
    } else {
        request.argv.clone()
    };
    let run = Call::Run {
        place: Place::Tab,
        cwd: request.cwd.clone(),
        argv: argv.clone(),
        // The local workspace saves the remote pane's history.
        no_save: true,
    };
    if !answers(socket) {
        let launch = Launch {
            cols: request.cols,
            rows: request.rows,
            cwd: request.cwd.clone(),
            // Empty: the workspace's own shell, run directly (one word
            // would be run by `sh -c`, which may stay as the pane's
            // process and hide the shell's directory).
            argv: request.argv.clone(),
            ..Launch::default()
        };
        match detached::start(&request.workspace, 0, &launch) {
            Ok(()) => return only_pane(socket),
            // Another proxy started it meanwhile: open a tab there.
            Err(err) if answers(socket) => {
                tracing::info!("starting {}: {err:#}; it runs now", request.workspace);
            }
            Err(err) => return Err(err).context("starting the remote panes' workspace"),
        }
    }
    let text = call(socket, &run)?;
    String::from_utf8_lossy(&text)
        .trim()
        .parse()
        .context("reading the new pane's id")
}

fn answers(socket: &Path) -> bool {
    matches!(
        script_client::call_at(socket, &Call::ListPanes, CALL_TIMEOUT),
        Ok(Ok(_))
    )
}

/// The one pane of a workspace just started.
fn only_pane(socket: &Path) -> Result<u32> {
    let panes = script_client::panes_of(socket, CALL_TIMEOUT)?;
    match panes.as_slice() {
        [pane] => Ok(pane.id),
        _ => bail!("the new workspace has {} panes, not one", panes.len()),
    }
}

fn call(socket: &Path, call: &Call) -> Result<Vec<u8>> {
    match script_client::call_at(socket, call, CALL_TIMEOUT)? {
        Ok(text) => Ok(text),
        Err(message) => bail!("{message}"),
    }
}

/// Input and resize frames from stdin, each made a call, until stdin ends.
fn pass_input(socket: &Path, pane: u32) {
    let mut stdin = io::stdin().lock();
    let mut reader = FrameReader::default();
    let mut buf = vec![0u8; 64 << 10];
    loop {
        let n = match stdin.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        let Ok(frames) = reader.push(&buf[..n]) else {
            tracing::warn!("the relay sent something that is no frame");
            return;
        };
        for frame in frames {
            let made = match frame {
                Frame::Input(bytes) => call(socket, &Call::PaneInput { pane, bytes }),
                Frame::Resize { cols, rows } => {
                    call(socket, &Call::PaneResize { pane, cols, rows })
                }

                _ => continue,
            };
            if let Err(err) = made {
                tracing::warn!("passing input to pane {pane}: {err:#}");
            }
        }
    }
}

/// The pane's output as frames on `out`, from `from`, asking again after
/// each cut-off, until the pane ends. Exit status 0 once it ended.
///
/// Each piece of the stream's answer is one or more whole frames: each is
/// written on as it came, under the lock (the directory thread writes
/// between them), without being decoded and encoded again; only their
/// headers are read, for the position they reach.
fn stream(socket: &Path, pane: u32, mut from: Option<u64>, out: &Mutex<Channel>) -> Result<i32> {
    loop {
        let stream = attach_process::connect(socket).context("reaching the workspace")?;
        stream.set_write_timeout(Some(CALL_TIMEOUT))?;
        let call = Call::PaneStream(PaneStreamCall { pane, from });
        script::write_call(&stream, &call)?;
        let mut ended = false;
        let input = io::BufReader::with_capacity(READ_BUFFER, &stream);
        let answer = script::answer_pieces(input, |piece| {
            let mut at = 0;
            while at < piece.len() {
                let len = pane_link::frame_len(&piece[at..])
                    .map_err(io::Error::other)?
                    .filter(|&len| at + len <= piece.len())
                    .ok_or_else(|| io::Error::other("a piece that is not whole frames"))?;
                let frame = &piece[at..at + len];
                if let Some(end) = pane_link::position_of(frame) {
                    from = Some(end);
                }
                ended |= frame[0] == b'X';
                at += len;
            }
            lock(out).write_all(piece)
        })?;
        if ended {
            return Ok(0);
        }
        if let Err(message) = answer {
            lock(out).write_all(&Frame::Error(message).encode())?;
            return Ok(3);
        }
        // Cut off: again from what was sent.
    }
}

/// What the proxy reads of a stream at once: a whole output frame and
/// more.
const READ_BUFFER: usize = 1 << 20;

fn lock(out: &Mutex<Channel>) -> std::sync::MutexGuard<'_, Channel> {
    out.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The channel to the relay: ssh's stdin, written straight to its
/// descriptor (a frame must not wait in a buffer, and a whole frame is
/// written at once).
struct Channel(std::fs::File);

impl Channel {
    fn stdout() -> Result<Self> {
        super::unbuffered_stdout().map(Self)
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.0.write_all(bytes)
    }
}
