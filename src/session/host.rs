//! The workspace's side of a session: the socket's listener thread, one
//! link thread per attached terminal, and what the loop does on attach,
//! detach and exit.
//!
//! Keys and frames never pass through here: each attached terminal's own
//! descriptors come with its attach request and are handed to the loop,
//! which reads and draws each terminal itself (`crate::client`). The
//! socket carries only the attach request (with the descriptors), the
//! client's signals, and why the terminal was let go. Several terminals
//! may be attached at once; each is known by its link number.

use std::io::{self, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};
use crossbeam_channel::{Sender, bounded};
use rustix::event::{PollFd, PollFlags};

use super::agent_link::AgentLink;
use super::conversation::{Deadline, MAX_PEERS_PER_UID, PeerSlot, Peers, REQUEST_DEADLINE};
use super::proto::{
    self, AttachMode, ClientNote, DetachReason, Info, Joining, LineReader, Request, ServerNote,
};
use super::script_host::ScriptCall;
use crate::mailbox::Mailbox;
use crate::terminal::guard::TerminalModes;
use crate::terminal::outer_terminal::OuterTerminal as TerminalFacts;

/// What a newer tilework takes over (an upgrade).
pub mod handover;
/// The listener thread, which an upgrade stops before the socket is given.
pub mod listener;

pub use crate::config::OnHangup;

/// A client that brought its terminal.
pub struct Arrival {
    pub stream: UnixStream,
    /// The client's stdin, stdout and stderr.
    pub fds: [OwnedFd; 3],
    /// What the terminal told its client about itself.
    pub facts: TerminalFacts,
    /// How it joins, and the environment it brings.
    pub joining: Joining,
}

/// A terminal the host took: the loop makes a client of it.
pub struct Joined {
    /// Its link: news about it, and its detach, name it.
    pub link: u64,
    /// Its keys come from here.
    pub input: OwnedFd,
    /// Its frames go here.
    pub output: OwnedFd,
    /// Its stderr (frames go here with `--writer stderr`).
    pub errors: OwnedFd,
    /// In workspace mode while this lives.
    pub modes: TerminalModes,
    pub facts: TerminalFacts,
    pub read_only: bool,
    /// The values the attaching shell had of `update_environment`.
    pub env: Vec<(String, Option<String>)>,
    /// Attached with `attach -d`: the loop lets the other terminals go.
    pub detach_others: bool,
    /// The tab (from 1) and pane to show it (`C-b s` chose them from
    /// another workspace).
    pub select: Option<(usize, Option<u32>)>,
}

/// What the session's threads tell the loop.
pub enum SessionEvent {
    Attach(Arrival),
    /// News about attachment number `link` (stale ones are ignored).
    Link {
        link: u64,
        news: LinkNews,
    },
    /// `tilework ls` asks; the loop answers with [`Host::info`].
    Info(Sender<Info>),
    /// `tilework kill`: the stream hears the exit.
    Kill(UnixStream),
    /// A script's call (`tilework action`, `capture`...).
    Script(ScriptCall),
    /// A newer tilework asks for the workspace (`tilework upgrade`).
    Handoff(HandoffAsked),
}

/// A newer tilework's request for the workspace.
pub struct HandoffAsked {
    pub stream: UnixStream,
    /// The state formats it reads, oldest and newest.
    pub formats: (u32, u32),
}

/// Script calls reach the loop as session events (`script_host` posts its
/// own message type and knows nothing of this one).
fn script_mailbox(events: &Mailbox<SessionEvent>) -> Mailbox<ScriptCall> {
    let events = events.clone();
    Mailbox::new(move |call| events.post(SessionEvent::Script(call)))
}

pub enum LinkNews {
    /// The client's connection ended (it exited or was killed).
    ClientGone,
    /// The terminal hung up.
    TerminalHungUp,
    /// The client forwarded a signal.
    Client(ClientNote),
}

/// What the loop should do about some news.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Nothing,
    /// Let this link's terminal go.
    Detach(u64, DetachReason),
    /// Let every terminal go (SIGHUP sent to the workspace itself).
    DetachAll(DetachReason),
    /// This link's terminal changed size (or changed and changed back):
    /// read its size now and draw it whole, even at the size it had.
    Resize(u64),
    /// End the workspace with this status.
    Quit(i32),
}

/// An attached terminal's client.
struct Attached {
    link: u64,
    stream: UnixStream,
    /// Its terminal's descriptors and attach request, for a newer
    /// tilework to take it over (see `handover`).
    handed: handover::Handed,
}

/// A new workspace's session before its loop runs: the socket, and the
/// launcher's terminal.
pub struct SessionStart {
    pub name: String,
    pub path: PathBuf,
    pub listener: UnixListener,
    /// The launcher, with its terminal.
    pub first: Arrival,
    pub on_hangup: OnHangup,
}

impl SessionStart {
    /// Starts the session's threads (events go to `mailbox`) and takes the
    /// launcher's terminal. `listen`: accept clients at once (a workspace
    /// taken over starts only once the old process let go, see
    /// [`Host::listen`]).
    pub fn begin(
        self,
        mouse: bool,
        mailbox: Mailbox<SessionEvent>,
        listen: bool,
    ) -> Result<(Host, Joined)> {
        let mut host = Host::start(
            self.name,
            self.path,
            self.listener,
            mouse,
            self.on_hangup,
            mailbox,
        )?;
        if listen {
            host.listen()?;
        }
        let first = host.attach(self.first)?;
        Ok((host, first))
    }
}

/// The session as the loop owns it.
pub struct Host {
    /// The listening socket and its thread (a newer tilework takes the
    /// socket over).
    listening: listener::Listening,
    name: String,
    path: PathBuf,
    mouse: bool,
    on_hangup: OnHangup,
    started: SystemTime,
    attached: Vec<Attached>,
    next_gen: u64,
    mailbox: Mailbox<SessionEvent>,
    /// `tilework kill` clients waiting for the end.
    killers: Vec<UnixStream>,
    /// The panes' `SSH_AUTH_SOCK`, pointed at the terminals' agents.
    agent: AgentLink,
}

impl Host {
    /// The session on `listener` (whose socket file is `path`), not yet
    /// accepting clients ([`Self::listen`]).
    fn start(
        name: String,
        path: PathBuf,
        listener: UnixListener,
        mouse: bool,
        on_hangup: OnHangup,
        mailbox: Mailbox<SessionEvent>,
    ) -> Result<Self> {
        let runtime_dir = path.parent().unwrap_or(Path::new("/"));
        let agent = AgentLink::new(runtime_dir, &name);
        let listening = {
            let peers = Peers::new(MAX_PEERS_PER_UID);
            let me = super::dir::my_uid();
            let mailbox = mailbox.clone();
            listener::Listening::new(listener, move |stream, busy, gate| {
                serve_peer(stream, busy, gate, me, &peers, &mailbox);
            })?
        };
        let host = Self {
            listening,
            agent,
            name,
            path,
            mouse,
            on_hangup,
            started: SystemTime::now(),
            attached: Vec::new(),
            next_gen: 1,
            mailbox,
            killers: Vec::new(),
        };
        Ok(host)
    }

    /// Accepts clients on the socket (again, after an upgrade that failed).
    pub fn listen(&self) -> Result<()> {
        self.listening.start()
    }

    /// Whether clients wait in the socket's backlog, not accepted: an
    /// upgrade stopped the listener.
    pub fn listening_stopped(&self) -> bool {
        self.listening.stopped()
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The socket was renamed (`C-b $`): the workspace goes by `name`,
    /// its socket file is `path` (removed at the end).
    pub fn renamed(&mut self, name: String, path: PathBuf) {
        tracing::info!(from = %self.name, to = %name, "workspace renamed");
        self.name = name;
        self.path = path;
    }

    pub fn is_attached(&self) -> bool {
        !self.attached.is_empty()
    }

    /// How many terminals are attached.
    pub fn clients(&self) -> usize {
        self.attached.len()
    }

    /// Takes `arrival`'s terminal: puts it in workspace mode and starts
    /// watching its link. With `attach -d`, the caller lets the terminals
    /// attached before go (each told why). The caller makes a client of it
    /// and draws everything on it.
    pub fn attach(&mut self, arrival: Arrival) -> Result<Joined> {
        let [input, output, errors] = arrival.fds;
        // Checked first: a client without a terminal takes nothing over.
        if !rustix::termios::isatty(&input) || !rustix::termios::isatty(&output) {
            let _ = tell(
                &arrival.stream,
                &ServerNote::Error("stdin and stdout must be a terminal to attach".into()),
            );
            bail!("a client attached without a terminal");
        }
        let modes = match TerminalModes::enter(input.as_fd(), output.as_fd(), self.mouse) {
            Ok(modes) => modes,
            Err(err) => {
                let _ = tell(
                    &arrival.stream,
                    &ServerNote::Error(format!("setting up the terminal: {err}")),
                );
                return Err(err).context("setting up the terminal");
            }
        };
        let handed =
            handover::Handed::of(arrival.facts, &arrival.joining, [&input, &output, &errors])?;
        let link = self.link(arrival.stream, &input, handed)?;
        self.agent.attached(link, &arrival.joining.env);
        Ok(Joined {
            link,
            input,
            output,
            errors,
            modes,
            facts: arrival.facts,
            read_only: arrival.joining.mode == AttachMode::ReadOnly,
            env: arrival.joining.env,
            detach_others: arrival.joining.mode == AttachMode::DetachOthers,
            select: arrival.joining.select,
        })
    }

    /// The path every pane's `SSH_AUTH_SOCK` is (see [`AgentLink`]).
    pub fn agent_socket(&self) -> &Path {
        self.agent.path()
    }

    /// Terminal `link` typed after another did: the panes' agent is its.
    pub fn typed(&mut self, link: u64) {
        self.agent.typed(link);
    }

    /// The links of the attached terminals, oldest first.
    pub fn links(&self) -> Vec<u64> {
        self.attached.iter().map(|a| a.link).collect()
    }

    /// Starts the link thread of a terminal read on `tty`.
    fn link(&mut self, stream: UnixStream, tty: &OwnedFd, handed: handover::Handed) -> Result<u64> {
        let link = self.next_gen;
        self.next_gen += 1;
        let tty = tty.try_clone().context("watching the terminal")?;
        let watched = stream.try_clone().context("watching the client")?;
        let mailbox = self.mailbox.clone();
        crate::jobs::named("session-link", move || {
            watch_link(link, &watched, tty, &mailbox)
        })
        .context("starting the session link")?;
        self.attached.push(Attached {
            link,
            stream,
            handed,
        });
        tracing::info!(session = %self.name, link, clients = self.attached.len(), "terminal attached");
        Ok(link)
    }

    /// Lets link `link`'s terminal go, if attached: its client is told
    /// `reason` (and so can exit). The caller drops the terminal's client,
    /// which puts the terminal back as it was.
    pub fn detach(&mut self, link: u64, reason: DetachReason) {
        let Some(at) = self.attached.iter().position(|a| a.link == link) else {
            return;
        };
        let attached = self.attached.remove(at);
        self.agent.left(link);
        let _ = tell(&attached.stream, &ServerNote::Detached(reason));
        // The link thread sees the end and exits, closing its copy.
        let _ = attached.stream.shutdown(std::net::Shutdown::Both);
        tracing::info!(session = %self.name, link, ?reason, "terminal detached");
    }

    /// Lets link `link`'s terminal go to show workspace `name` (its tab and
    /// pane `select`): its client attaches there. The caller drops the
    /// terminal's client.
    pub fn switch(&mut self, link: u64, name: &str, select: Option<(usize, Option<u32>)>) {
        let Some(at) = self.attached.iter().position(|a| a.link == link) else {
            return;
        };
        let attached = self.attached.remove(at);
        self.agent.left(link);
        let note = ServerNote::Switch {
            name: name.to_string(),
            select,
        };
        let _ = tell(&attached.stream, &note);
        let _ = attached.stream.shutdown(std::net::Shutdown::Both);
        tracing::info!(session = %self.name, link, to = name, "terminal switched workspace");
    }

    /// What to do about news from link `link`.
    pub fn judge(&self, link: u64, news: &LinkNews) -> Verdict {
        if !self.attached.iter().any(|a| a.link == link) {
            return Verdict::Nothing;
        }
        let hangup = |reason| match self.on_hangup {
            OnHangup::Detach => Verdict::Detach(link, reason),
            OnHangup::Quit => Verdict::Quit(128 + libc_sig(nix::sys::signal::Signal::SIGHUP)),
        };
        match news {
            // Nobody is left to tell; the terminal goes back to its shell.
            LinkNews::ClientGone => Verdict::Detach(link, DetachReason::TerminalLost),
            LinkNews::TerminalHungUp => hangup(DetachReason::TerminalLost),
            LinkNews::Client(ClientNote::Hangup) => hangup(DetachReason::Hangup),
            // A client is disposable (tmux's is): SIGTERM or SIGINT to it
            // (`kill`, `timeout`, a terminal emulator ending its child)
            // lets its terminal go; only the workspace's own ends it.
            LinkNews::Client(ClientNote::Signalled(_)) => {
                Verdict::Detach(link, DetachReason::Signal)
            }
            LinkNews::Client(ClientNote::Resize) => Verdict::Resize(link),
        }
    }

    /// SIGHUP sent to the workspace itself.
    pub fn judge_sighup(&self) -> Verdict {
        match self.on_hangup {
            OnHangup::Detach => Verdict::DetachAll(DetachReason::Hangup),
            OnHangup::Quit => Verdict::Quit(128 + libc_sig(nix::sys::signal::Signal::SIGHUP)),
        }
    }

    /// A write to link `link`'s terminal failed: the terminal is gone.
    pub fn judge_write_error(&self, link: u64) -> Verdict {
        match self.on_hangup {
            OnHangup::Detach => Verdict::Detach(link, DetachReason::TerminalLost),
            OnHangup::Quit => Verdict::Quit(128 + libc_sig(nix::sys::signal::Signal::SIGHUP)),
        }
    }

    /// What `tilework ls` shows; `stalled`: an attached terminal stopped
    /// reading.
    pub fn info(&self, panes: usize, stalled: bool) -> Info {
        Info {
            pid: std::process::id(),
            panes,
            attached: self.is_attached(),
            clients: self.attached.len(),
            stalled: stalled && self.is_attached(),
            started: self
                .started
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            version: Some(crate::release::version()),
            state_format: Some(crate::release::state_format()),
        }
    }

    pub fn add_killer(&mut self, stream: UnixStream) {
        self.killers.push(stream);
    }

    pub fn killed(&self) -> bool {
        !self.killers.is_empty()
    }

    /// The workspace is over (children ended, terminal restored): removes
    /// the socket and tells the attached client and any `kill` how it
    /// ended. Last thing before the process exits.
    pub fn finish(mut self, result: &Result<i32>) {
        let _ = std::fs::remove_file(&self.path);
        self.agent.remove();
        let note = match result {
            Ok(code) => ServerNote::Exit {
                code: *code,
                killed: self.killed(),
            },
            Err(err) => ServerNote::Error(format!("{err:#}")),
        };
        let mut streams = std::mem::take(&mut self.killers);
        streams.extend(self.attached.drain(..).map(|a| a.stream));
        for stream in &streams {
            let _ = tell(stream, &note);
        }
        tracing::info!(session = %self.name, "workspace ended");
        // Left open until the process exits and the kernel closes them:
        // the end of the stream tells a client the process is gone, not
        // just about to go.
        std::mem::forget(streams);
    }
}

fn libc_sig(sig: nix::sys::signal::Signal) -> i32 {
    sig as i32
}

/// Writes one message, never blocking long: a client that stopped reading
/// must not stall the workspace.
pub fn tell(mut stream: &UnixStream, note: &ServerNote) -> io::Result<()> {
    stream.set_write_timeout(Some(Duration::from_secs(1)))?;
    stream.write_all(note.line().as_bytes())
}

/// Reads the terminal the launcher sends on `first` (its own connection,
/// made before the workspace started: see `client::launch`), with what the
/// terminal told about itself.
pub fn take_first(first: UnixStream) -> Result<Arrival> {
    let _slot = admit(&first, super::dir::my_uid(), &Peers::new(1))?;
    match receive(first, Deadline::after(REQUEST_DEADLINE))? {
        Incoming::Attach(arrival) => Ok(arrival),
        _ => bail!("the first client did not attach"),
    }
}

/// What a connection asked for.
enum Incoming {
    Attach(Arrival),
    Info(UnixStream),
    Kill(UnixStream),
    /// A script's call: its body of this many bytes follows.
    Call(UnixStream, usize),
    Handoff(HandoffAsked),
}

/// Checks who the peer is and gives it a place, or refuses it at once
/// (telling it why). Another user is refused (the directory keeps them
/// out already; this holds even if it did not), and so is a uid that
/// holds [`MAX_PEERS_PER_UID`] conversations already.
fn admit(stream: &UnixStream, me: u32, peers: &Arc<Peers>) -> Result<PeerSlot> {
    let peer = crate::os::peer_uid(stream).context("reading the client's credentials")?;
    if !peer_allowed(peer, me) {
        let _ = tell(
            stream,
            &ServerNote::Error(format!(
                "refused: this workspace belongs to uid {me}, not to uid {peer}"
            )),
        );
        bail!("refused a client of uid {peer}");
    }
    let Some(slot) = peers.enter(peer) else {
        let _ = tell(
            stream,
            &ServerNote::Error(format!(
                "busy: {} connections to this workspace are open; try again",
                peers.limit()
            )),
        );
        bail!(
            "refused a client: uid {peer} holds {} connections",
            peers.limit()
        );
    };
    Ok(slot)
}

/// Reads the peer's request, all of it before `deadline`; one that is
/// malformed or too long is refused at once.
fn receive(stream: UnixStream, deadline: Deadline) -> Result<Incoming> {
    let (line, fds) = match proto::recv_request(&stream, deadline) {
        Ok(got) => got,
        Err(err) => {
            let _ = tell(
                &stream,
                &ServerNote::Error(format!("reading the request: {err}")),
            );
            return Err(err).context("reading the request");
        }
    };
    stream
        .set_read_timeout(None)
        .context("clearing a timeout")?;
    let request = match Request::parse(&line) {
        Ok(r) => r,
        Err(msg) => {
            let _ = tell(&stream, &ServerNote::Error(msg.clone()));
            bail!("{msg}");
        }
    };
    Ok(match request {
        Request::Attach(facts, joining) => match <[OwnedFd; 3]>::try_from(fds) {
            Ok(fds) => Incoming::Attach(Arrival {
                stream,
                fds,
                facts,
                joining,
            }),
            Err(_) => {
                let _ = tell(
                    &stream,
                    &ServerNote::Error("attach needs stdin, stdout and stderr".into()),
                );
                bail!("an attach request without its three descriptors");
            }
        },
        Request::Info => Incoming::Info(stream),
        Request::Kill => Incoming::Kill(stream),
        Request::Call(len) => Incoming::Call(stream, len),
        Request::Handoff { oldest, newest } => Incoming::Handoff(HandoffAsked {
            stream,
            formats: (oldest, newest),
        }),
    })
}

/// How long an upgrade waits for the conversations the old process
/// accepted to be answered before it hands the socket over.
const QUIET_DEADLINE: Duration = Duration::from_secs(2);

/// Only the workspace's own user may talk to it.
pub fn peer_allowed(peer_uid: u32, my_uid: u32) -> bool {
    peer_uid == my_uid
}

/// A connection the listener accepted: admitted, it gets a thread of its
/// own for its conversation, so none waits on another (a peer that sends
/// nothing holds only its own thread, until its deadline).
fn serve_peer(
    stream: UnixStream,
    busy: listener::Busy,
    gate: &Arc<listener::Gate>,
    me: u32,
    peers: &Arc<Peers>,
    mailbox: &Mailbox<SessionEvent>,
) {
    let slot = match admit(&stream, me, peers) {
        Ok(slot) => slot,
        Err(err) => {
            tracing::warn!("session client: {err:#}");
            return;
        }
    };
    let mailbox = mailbox.clone();
    let gate = Arc::clone(gate);
    // (A thread that cannot start is said in the log; the peer's
    // connection closes.)
    let _ = crate::jobs::named("session-peer", move || {
        if !converse(stream, &mailbox, busy, &gate) {
            // The loop is gone: the workspace is ending, new clients are
            // refused by the closed socket.
            gate.stop();
        }
        drop(slot);
    });
}

/// One peer's conversation, on its own thread: its request read before
/// the deadline, then answered or handed to the loop. False once the loop
/// is gone. `busy` is held until the peer is answered.
fn converse(
    stream: UnixStream,
    mailbox: &Mailbox<SessionEvent>,
    busy: listener::Busy,
    gate: &listener::Gate,
) -> bool {
    let deadline = Deadline::after(REQUEST_DEADLINE);
    match receive(stream, deadline) {
        Ok(Incoming::Attach(arrival)) => mailbox.post(SessionEvent::Attach(arrival)),
        Ok(Incoming::Kill(stream)) => {
            // `tilework kill` ends the workspace even if its loop cannot.
            crate::diag::exit_watchdog::arm(0);
            mailbox.post(SessionEvent::Kill(stream))
        }
        Ok(Incoming::Info(stream)) => answer_info(&stream, mailbox),
        Ok(Incoming::Handoff(asked)) => {
            // Nobody the old process accepted may be left unanswered when
            // it exits: it stops accepting (new clients wait in the
            // backlog for the new process) and answers those it has.
            drop(busy);
            gate.stop();
            gate.wait_quiet(std::time::Instant::now() + QUIET_DEADLINE);
            mailbox.post(SessionEvent::Handoff(asked))
        }
        Ok(Incoming::Call(stream, len)) => {
            super::script_host::serve(&stream, len, deadline, &script_mailbox(mailbox), busy)
        }
        Err(err) => {
            tracing::warn!("session client: {err:#}");
            true
        }
    }
}

fn answer_info(stream: &UnixStream, mailbox: &Mailbox<SessionEvent>) -> bool {
    let (tx, rx) = bounded(1);
    if !mailbox.post(SessionEvent::Info(tx)) {
        return false;
    }
    // The loop answers within a turn; one that does not within two
    // seconds is left out of `ls` rather than holding the listener.
    if let Ok(info) = rx.recv_timeout(Duration::from_secs(2)) {
        let _ = tell(stream, &ServerNote::Info(info));
    }
    true
}

/// One attached terminal's link: waits on the client's connection (its
/// forwarded signals, its end) and on the terminal hanging up, reporting
/// to the loop. Asleep in poll(2) otherwise.
fn watch_link(link: u64, stream: &UnixStream, tty: OwnedFd, mailbox: &Mailbox<SessionEvent>) {
    let mut tty = Some(tty);
    let mut reader = LineReader::default();
    let report = |news| mailbox.post(SessionEvent::Link { link, news });
    loop {
        let (client_ready, hung_up) = {
            let mut fds = vec![PollFd::new(stream, PollFlags::IN)];
            if let Some(t) = &tty {
                // No events asked: poll reports only a hangup or an error.
                fds.push(PollFd::from_borrowed_fd(t.as_fd(), PollFlags::empty()));
            }
            match rustix::event::poll(&mut fds, None) {
                Ok(_) => {}
                Err(rustix::io::Errno::INTR) => continue,
                Err(err) => {
                    tracing::warn!("session link: {err}");
                    report(LinkNews::ClientGone);
                    return;
                }
            }
            let hung = fds
                .get(1)
                .is_some_and(|f| f.revents().intersects(PollFlags::HUP | PollFlags::ERR));
            (!fds[0].revents().is_empty(), hung)
        };
        if hung_up {
            tty = None;
            if !report(LinkNews::TerminalHungUp) {
                return;
            }
        }
        if client_ready {
            match reader.read_lines(stream) {
                Ok(Some(lines)) => {
                    // The workspace is not in the terminal's foreground
                    // group and gets no SIGWINCH: a resize reaches it only
                    // this way, as news the loop must act on (it reads the
                    // size when it does, so resizes read together are one).
                    let mut resized = false;
                    for line in lines {
                        match ClientNote::parse(&line) {
                            Some(ClientNote::Resize) if resized => {}
                            Some(note) => {
                                resized |= note == ClientNote::Resize;
                                if !report(LinkNews::Client(note)) {
                                    return;
                                }
                            }
                            None => tracing::warn!("session client sent {line:?}"),
                        }
                    }
                }
                Ok(None) | Err(_) => {
                    report(LinkNews::ClientGone);
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn only_the_same_uid_is_allowed() {
        assert!(peer_allowed(1000, 1000));
        assert!(!peer_allowed(0, 1000));
        assert!(!peer_allowed(1001, 1000));
    }

    #[test]
    fn a_peer_of_another_uid_is_refused_with_a_reason() {
        // A real connection and real SO_PEERCRED, judged by a workspace
        // that belongs to the next uid: refused, told why, no request read.
        let (client, server) = UnixStream::pair().unwrap();
        let me = crate::os::peer_uid(&server).unwrap();
        let err = admit(&server, me + 1, &Peers::new(1))
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains(&format!("uid {me}")), "{err}");
        let mut reader = LineReader::default();
        let lines = reader.read_lines(&client).unwrap().unwrap();
        assert_eq!(lines.len(), 1);
        match ServerNote::parse(&lines[0]) {
            Some(ServerNote::Error(text)) => assert!(text.contains("refused"), "{text}"),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn the_same_uid_gets_its_request_read() {
        let (client, server) = UnixStream::pair().unwrap();
        let me = crate::os::peer_uid(&server).unwrap();
        (&client)
            .write_all(Request::Info.line().as_bytes())
            .unwrap();
        let _slot = admit(&server, me, &Peers::new(1)).unwrap();
        let request = receive(server, Deadline::after(REQUEST_DEADLINE));
        assert!(matches!(request, Ok(Incoming::Info(_))));
    }

    #[test]
    fn a_uid_over_its_connections_is_refused_at_once_with_a_reason() {
        let peers = Peers::new(1);
        let (_first, held) = UnixStream::pair().unwrap();
        let me = crate::os::peer_uid(&held).unwrap();
        let _slot = admit(&held, me, &peers).unwrap();
        let (client, server) = UnixStream::pair().unwrap();
        assert!(admit(&server, me, &peers).is_err());
        let mut reader = LineReader::default();
        let lines = reader.read_lines(&client).unwrap().unwrap();
        match ServerNote::parse(&lines[0]) {
            Some(ServerNote::Error(text)) => assert!(text.starts_with("busy"), "{text}"),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }
}
