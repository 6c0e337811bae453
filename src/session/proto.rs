//! What a client and a workspace say over the socket: one line per message,
//! plus the terminal's descriptors (`SCM_RIGHTS`) with an attach request.
//!
//! Lines keep the protocol readable in a log and `socat`-testable; the
//! first line carries a version so a newer client refuses an older
//! workspace plainly instead of misreading it.

use std::io::{self, Read};
use std::os::fd::{BorrowedFd, OwnedFd};
use std::os::unix::net::UnixStream;

use super::conversation::{Deadline, timed_out};
pub use super::joining::{AttachMode, Joining};
use crate::config::colour::Rgb;
use crate::os;
use crate::terminal::outer_terminal::OuterTerminal as TerminalFacts;

/// Starts every request; bumped when a message changes meaning.
pub const VERSION: &str = "tilework/1";

/// The longest line either side reads: messages are short, and a peer that
/// sends an endless line must not grow our memory.
pub const MAX_LINE: usize = 4096;

/// A client's first message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Show the workspace on the terminal whose stdin, stdout and stderr
    /// come along; what it told about itself when its client asked (see
    /// `client::facts`), and how it joins (see [`Joining`]).
    Attach(TerminalFacts, Joining),
    /// Describe yourself (for `tilework ls`).
    Info,
    /// End the workspace (`tilework kill`).
    Kill,
    /// A script's call (`tilework action`, `capture`...): a body of this
    /// many bytes follows the line (see `session::script`).
    Call(usize),
    /// A newer tilework asks for the workspace (`tilework upgrade`): it
    /// reads state formats `oldest` to `newest` (see `crate::upgrade`).
    Handoff { oldest: u32, newest: u32 },
}

/// What an attached client tells the workspace later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientNote {
    /// The client's terminal changed size (it got SIGWINCH; the workspace,
    /// not in the terminal's foreground group, does not).
    Resize,
    /// The client got SIGHUP: its terminal is going away.
    Hangup,
    /// The client got SIGTERM/SIGINT (this number): its terminal goes, the
    /// workspace stays (a client is disposable, as tmux's is; the
    /// workspace's own SIGTERM ends it). `quit N` on the wire, as before.
    Signalled(i32),
}

/// Why a terminal was let go, told to its client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DetachReason {
    /// The user pressed the detach key.
    Key,
    /// Another terminal attached.
    TakenOver,
    /// The terminal hung up or could not be written to.
    TerminalLost,
    /// SIGHUP reached the client or the workspace.
    Hangup,
    /// The client got SIGTERM or SIGINT.
    Signal,
}

/// What the workspace tells its client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerNote {
    Detached(DetachReason),
    /// Let go to show another workspace (`C-b s`): the client attaches
    /// there, with the tab and pane to show (`Joining::select`).
    Switch {
        name: String,
        select: Option<(usize, Option<u32>)>,
    },
    /// The workspace ended with this status; `killed` by `tilework kill`.
    Exit {
        code: i32,
        killed: bool,
    },
    /// It could not start (or refused the request), with the reason.
    Error(String),
    Info(Info),
}

/// One workspace, as `tilework ls` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    pub pid: u32,
    pub panes: usize,
    pub attached: bool,
    /// How many terminals are attached.
    pub clients: usize,
    /// An attached terminal stopped reading (its frames are dropped).
    pub stalled: bool,
    /// Seconds since the epoch when it started.
    pub started: u64,
    /// The version of the binary it runs (`crate::release`); none from a
    /// binary that did not say.
    pub version: Option<String>,
    /// The state format it would hand over on an upgrade.
    pub state_format: Option<u32>,
}

impl Request {
    pub fn line(&self) -> String {
        let verb = match self {
            Request::Attach(facts, joining) => {
                return format!(
                    "{VERSION} attach{}{}\n",
                    facts_words(facts),
                    joining.words()
                );
            }
            Request::Info => "info",
            Request::Kill => "kill",
            Request::Call(len) => return format!("{VERSION} call {len}\n"),
            Request::Handoff { oldest, newest } => {
                return format!("{VERSION} handoff {oldest} {newest}\n");
            }
        };
        format!("{VERSION} {verb}\n")
    }

    pub fn parse(line: &str) -> Result<Self, String> {
        let Some(rest) = line.strip_prefix(VERSION).and_then(|r| r.strip_prefix(' ')) else {
            return Err(format!(
                "this workspace speaks {VERSION}; the client sent {:?} (another tilework version?)",
                line.split(' ').next().unwrap_or_default()
            ));
        };
        if let Some(words) = rest.strip_prefix("attach")
            && (words.is_empty() || words.starts_with(' '))
        {
            return Ok(Request::Attach(parse_facts(words), Joining::parse(words)));
        }
        match rest {
            "info" => Ok(Request::Info),
            "kill" => Ok(Request::Kill),
            other if other.starts_with("handoff ") => {
                let mut words = other.split(' ').skip(1).map(str::parse::<u32>);
                match (words.next(), words.next()) {
                    (Some(Ok(oldest)), Some(Ok(newest))) => Ok(Request::Handoff { oldest, newest }),
                    _ => Err(format!("a handoff request without its formats: {other:?}")),
                }
            }
            other => match other.strip_prefix("call ").map(str::parse) {
                Some(Ok(len)) => Ok(Request::Call(len)),
                _ => Err(format!("unknown request {other:?}")),
            },
        }
    }
}

const COLOUR_WORDS: [&str; 3] = ["fg", "bg", "cursor"];

/// A terminal's facts as words after `attach`: ` fg=RRRR/GGGG/BBBB`,
/// `bg=`, `cursor=` for the colours it answered, ` kitty` when it speaks
/// the kitty keyboard protocol, ` smulx` and ` setulc` when it draws
/// styled and coloured underlines.
fn facts_words(facts: &TerminalFacts) -> String {
    let mut words = String::new();
    for (name, colour) in COLOUR_WORDS.iter().zip(facts.colours) {
        if let Some(Rgb(r, g, b)) = colour {
            words.push_str(&format!(" {name}={r:04x}/{g:04x}/{b:04x}"));
        }
    }
    if facts.kitty_keyboard {
        words.push_str(" kitty");
    }
    if facts.answered {
        words.push_str(" answered");
    }
    if facts.styled_underlines {
        words.push_str(" smulx");
    }
    if facts.underline_colours {
        words.push_str(" setulc");
    }
    if facts.pictures.sixel {
        words.push_str(" sixel");
    }
    if facts.pictures.kitty {
        words.push_str(" kittygfx");
    }
    if let Some(cell) = facts.cell {
        words.push_str(&format!(" cell={}x{}", cell.width, cell.height));
    }
    words
}

/// The reverse of [`facts_words`]; words it does not know (a newer
/// client's) are skipped.
fn parse_facts(words: &str) -> TerminalFacts {
    let mut facts = TerminalFacts::default();
    for word in words.split_whitespace() {
        match word.split_once('=') {
            Some(("cell", size)) => {
                if let Some((w, h)) = size.split_once('x')
                    && let (Ok(width), Ok(height)) = (w.parse(), h.parse())
                {
                    facts.cell = crate::graphics::reach::CellPixels::claimed(
                        width,
                        height,
                        "an attach request",
                    );
                }
            }
            Some((name, colour)) => {
                if let Some(slot) = COLOUR_WORDS.iter().position(|w| *w == name) {
                    facts.colours[slot] =
                        crate::config::colour::parse_colour(&format!("rgb:{colour}"));
                }
            }
            None if word == "kitty" => facts.kitty_keyboard = true,
            None if word == "answered" => facts.answered = true,
            None if word == "smulx" => facts.styled_underlines = true,
            None if word == "setulc" => facts.underline_colours = true,
            None if word == "sixel" => facts.pictures.sixel = true,
            None if word == "kittygfx" => facts.pictures.kitty = true,
            None => {}
        }
    }
    facts
}

impl ClientNote {
    pub fn line(&self) -> String {
        match self {
            ClientNote::Resize => "resize\n".into(),
            ClientNote::Hangup => "hangup\n".into(),
            ClientNote::Signalled(sig) => format!("quit {sig}\n"),
        }
    }

    pub fn parse(line: &str) -> Option<Self> {
        match line.split_once(' ') {
            None if line == "resize" => Some(ClientNote::Resize),
            None if line == "hangup" => Some(ClientNote::Hangup),
            Some(("quit", sig)) => sig.parse().ok().map(ClientNote::Signalled),
            _ => None,
        }
    }
}

impl DetachReason {
    fn word(self) -> &'static str {
        match self {
            DetachReason::Key => "key",
            DetachReason::TakenOver => "taken-over",
            DetachReason::TerminalLost => "terminal-lost",
            DetachReason::Hangup => "hangup",
            DetachReason::Signal => "signal",
        }
    }

    fn from_word(word: &str) -> Option<Self> {
        [
            DetachReason::Key,
            DetachReason::TakenOver,
            DetachReason::TerminalLost,
            DetachReason::Hangup,
            DetachReason::Signal,
        ]
        .into_iter()
        .find(|r| r.word() == word)
    }
}

impl ServerNote {
    pub fn line(&self) -> String {
        match self {
            ServerNote::Detached(reason) => format!("detached {}\n", reason.word()),
            ServerNote::Switch { name, select } => {
                format!("switch {name}{}\n", super::joining::select_words(*select))
            }
            ServerNote::Exit { code, killed } => {
                format!("exit {code}{}\n", if *killed { " killed" } else { "" })
            }
            // One line: newlines and other controls become spaces.
            ServerNote::Error(text) => {
                let flat: String = text
                    .chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect();
                format!("error {flat}\n")
            }
            ServerNote::Info(info) => {
                let mut line = format!(
                    "info pid={} panes={} attached={} clients={} stalled={} started={}",
                    info.pid,
                    info.panes,
                    u8::from(info.attached),
                    info.clients,
                    u8::from(info.stalled),
                    info.started
                );
                if let Some(version) = &info.version {
                    line.push_str(&format!(" version={version}"));
                }
                if let Some(format) = info.state_format {
                    line.push_str(&format!(" format={format}"));
                }
                line.push('\n');
                line
            }
        }
    }

    pub fn parse(line: &str) -> Option<Self> {
        let (verb, rest) = line.split_once(' ').unwrap_or((line, ""));
        match verb {
            "detached" => DetachReason::from_word(rest).map(ServerNote::Detached),
            "switch" => {
                let (name, words) = rest.split_once(' ').unwrap_or((rest, ""));
                super::dir::check_name(name).ok()?;
                Some(ServerNote::Switch {
                    name: name.to_string(),
                    select: super::joining::parse_select(words),
                })
            }
            "exit" => {
                let (code, flag) = rest.split_once(' ').unwrap_or((rest, ""));
                Some(ServerNote::Exit {
                    code: code.parse().ok()?,
                    killed: flag == "killed",
                })
            }
            "error" => Some(ServerNote::Error(rest.to_string())),
            "info" => {
                let field = |name: &str| {
                    rest.split(' ')
                        .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
                };
                Some(ServerNote::Info(Info {
                    pid: field("pid")?.parse().ok()?,
                    panes: field("panes")?.parse().ok()?,
                    attached: field("attached")? == "1",
                    clients: field("clients").and_then(|n| n.parse().ok()).unwrap_or(0),
                    stalled: field("stalled") == Some("1"),
                    started: field("started")?.parse().ok()?,
                    version: field("version").map(str::to_string),
                    state_format: field("format").and_then(|n| n.parse().ok()),
                }))
            }
            _ => None,
        }
    }
}

/// Sends `line` with `fds` attached, in one `sendmsg`.
pub fn send_with_fds(stream: &UnixStream, line: &str, fds: &[BorrowedFd<'_>]) -> io::Result<()> {
    let sent = os::send_with_fds(stream, line.as_bytes(), fds)?;
    if sent != line.len() {
        return Err(io::Error::other("the request was cut short"));
    }
    Ok(())
}

/// How every request of every version starts: anything else is not a
/// tilework client and is let go at its first wrong byte.
const REQUEST_FAMILY: &[u8] = b"tilework/";

/// Reads a client's first line and the descriptors that came with it (at
/// most three), all before `deadline`. The client sends nothing more
/// before the workspace answers; even so, each read takes only up to the
/// newline a peek found, so nothing of what follows is taken. (It read
/// byte-wise before: a syscall pair per byte, some 660 of them on the
/// start-up's path.) A line too long, or one that cannot become a
/// request, is refused at once.
pub fn recv_request(stream: &UnixStream, deadline: Deadline) -> io::Result<(String, Vec<OwnedFd>)> {
    let mut line = Vec::new();
    let mut fds = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        deadline.arm(stream)?;
        let peeked = match rustix::net::recv(stream, &mut buf[..], rustix::net::RecvFlags::PEEK) {
            Ok((_, 0)) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok((got, _)) => got,
            // The armed timeout: the next `arm` says the deadline passed.
            Err(err) if err == rustix::io::Errno::AGAIN || err == rustix::io::Errno::INTR => {
                continue;
            }
            Err(err) => return Err(err.into()),
        };
        let ends = memchr::memchr(b'\n', &buf[..peeked]);
        let want = ends.map_or(peeked, |at| at + 1);
        let got = match os::recv_with_fds(stream, &mut buf[..want], &mut fds) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(got) => got,
            Err(err) if timed_out(&err) || err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        let done = buf[got - 1] == b'\n';
        line.extend_from_slice(&buf[..if done { got - 1 } else { got }]);
        let start = line.len().min(REQUEST_FAMILY.len());
        if line[..start] != REQUEST_FAMILY[..start] {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "not a tilework request",
            ));
        }
        if line.len() > MAX_LINE {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "request line too long",
            ));
        }
        if done {
            break;
        }
    }
    fds.truncate(os::MAX_FDS);
    Ok((String::from_utf8_lossy(&line).into_owned(), fds))
}

/// Splits what arrives on a stream into lines, none longer than [`MAX_LINE`].
#[derive(Default)]
pub struct LineReader {
    pending: Vec<u8>,
}

impl LineReader {
    /// Reads once from `stream` (blocking) and returns the complete lines;
    /// `Ok(None)` at the end of the stream.
    pub fn read_lines(&mut self, mut stream: &UnixStream) -> io::Result<Option<Vec<String>>> {
        let mut buf = [0u8; 512];
        let n = loop {
            match stream.read(&mut buf) {
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                other => break other?,
            }
        };
        if n == 0 {
            return Ok(None);
        }
        self.pending.extend_from_slice(&buf[..n]);
        let mut lines = Vec::new();
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            lines.push(String::from_utf8_lossy(&line[..end]).into_owned());
        }
        if self.pending.len() > MAX_LINE {
            return Err(io::Error::other("message line too long"));
        }
        Ok(Some(lines))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::fd::AsFd;

    #[test]
    fn an_attach_claiming_a_cell_no_terminal_has_tells_none() {
        for claim in [
            "cell=65535x65535",
            "cell=600x20",
            "cell=0x0",
            "cell=99999999999x1",
        ] {
            let Ok(Request::Attach(facts, _)) =
                Request::parse(&format!("{VERSION} attach {claim}"))
            else {
                panic!("{claim}: not an attach");
            };
            assert_eq!(facts.cell, None, "{claim}");
        }
    }

    #[test]
    fn every_message_reads_back_as_itself() {
        for req in [
            Request::Attach(TerminalFacts::default(), Joining::default()),
            Request::Attach(
                TerminalFacts {
                    colours: [Some(Rgb(0xffff, 0, 0x1234)), None, Some(Rgb(1, 2, 3))],
                    kitty_keyboard: true,
                    answered: true,
                    styled_underlines: true,
                    underline_colours: true,
                    pictures: crate::graphics::reach::Speaks {
                        sixel: true,
                        kitty: true,
                    },
                    cell: Some(crate::graphics::reach::CellPixels {
                        width: 9,
                        height: 18,
                    }),
                },
                Joining {
                    mode: AttachMode::DetachOthers,
                    env: vec![("DISPLAY".into(), Some(":1".into()))],
                    select: Some((1, None)),
                },
            ),
            Request::Info,
            Request::Kill,
            Request::Call(0),
            Request::Call(123_456),
        ] {
            let line = req.line();
            assert_eq!(Request::parse(line.trim_end()), Ok(req));
        }
        for note in [
            ClientNote::Resize,
            ClientNote::Hangup,
            ClientNote::Signalled(15),
        ] {
            assert_eq!(ClientNote::parse(note.line().trim_end()), Some(note));
        }
        for note in [
            ServerNote::Detached(DetachReason::Key),
            ServerNote::Detached(DetachReason::TakenOver),
            ServerNote::Detached(DetachReason::TerminalLost),
            ServerNote::Detached(DetachReason::Hangup),
            ServerNote::Detached(DetachReason::Signal),
            ServerNote::Exit {
                code: 143,
                killed: false,
            },
            ServerNote::Exit {
                code: 0,
                killed: true,
            },
            ServerNote::Error("no such profile".into()),
            ServerNote::Switch {
                name: "other".into(),
                select: Some((2, Some(7))),
            },
            ServerNote::Switch {
                name: "plain".into(),
                select: None,
            },
            ServerNote::Info(Info {
                pid: 42,
                panes: 3,
                attached: true,
                clients: 2,
                stalled: true,
                started: 1_700_000_000,
                version: Some("0.1.0".into()),
                state_format: Some(1),
            }),
        ] {
            assert_eq!(ServerNote::parse(note.line().trim_end()), Some(note));
        }
    }

    #[test]
    fn another_version_is_refused_by_name() {
        let err = Request::parse("tilework/9 attach").unwrap_err();
        assert!(err.contains("tilework/9"), "{err}");
    }

    #[test]
    fn an_error_stays_on_one_line() {
        let line = ServerNote::Error("a\nb\x1b[2J".into()).line();
        assert_eq!(line.matches('\n').count(), 1);
        assert!(!line.contains('\x1b'));
    }

    #[test]
    fn descriptors_travel_with_the_request() {
        let (a, b) = UnixStream::pair().unwrap();
        let file = tempfile::tempfile().unwrap();
        send_with_fds(
            &a,
            &Request::Attach(TerminalFacts::default(), Joining::default()).line(),
            &[file.as_fd(), file.as_fd()],
        )
        .unwrap();
        (&a).write_all(b"resize\n").unwrap();
        let (line, fds) = recv_request(&b, soon()).unwrap();
        assert_eq!(
            Request::parse(&line),
            Ok(Request::Attach(
                TerminalFacts::default(),
                Joining::default()
            ))
        );
        assert_eq!(fds.len(), 2);
        // What followed the request is still there, whole.
        let mut reader = LineReader::default();
        assert_eq!(
            reader.read_lines(&b).unwrap(),
            Some(vec!["resize".to_string()])
        );
        // Received descriptors are the same open file.
        let mut received = std::fs::File::from(fds.into_iter().next().unwrap());
        received.write_all(b"x").unwrap();
        assert_eq!(file.metadata().unwrap().len(), 1);
    }

    fn soon() -> Deadline {
        Deadline::after(std::time::Duration::from_secs(5))
    }

    #[test]
    fn a_line_that_is_no_request_is_refused_at_its_first_wrong_byte() {
        let (a, b) = UnixStream::pair().unwrap();
        // Nothing follows and the peer stays: only the byte can end it.
        (&a).write_all(b"GET").unwrap();
        let err = recv_request(&b, soon()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{err}");
        let (a, b) = UnixStream::pair().unwrap();
        (&a).write_all(b"tilework/1 ").unwrap();
        (&a).write_all(&[b'x'; MAX_LINE]).unwrap();
        let err = recv_request(&b, soon()).unwrap_err();
        assert!(err.to_string().contains("too long"), "{err}");
        // Another version's request reads whole: it is told why it failed.
        let (a, b) = UnixStream::pair().unwrap();
        (&a).write_all(b"tilework/9 attach\n").unwrap();
        assert_eq!(recv_request(&b, soon()).unwrap().0, "tilework/9 attach");
    }

    #[test]
    fn a_silent_peer_is_let_go_at_the_deadline() {
        let (a, b) = UnixStream::pair().unwrap();
        (&a).write_all(b"tilework/1").unwrap();
        let deadline = Deadline::after(std::time::Duration::from_millis(50));
        let err = recv_request(&b, deadline).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut, "{err}");
    }
}
