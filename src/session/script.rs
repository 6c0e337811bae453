//! Scripts driving a running workspace (`tilework action`, `send-keys`,
//! `run`, `capture`, `list-panes`): what travels on the socket.
//!
//! A call is the request line `tilework/1 call LEN` followed by a JSON body
//! of LEN bytes (a [`Call`]); the answer is `ok LEN` followed by LEN bytes
//! of text, or `error MESSAGE`. Lengths, not lines, because a key list can
//! hold any text. A pane's history can be hundreds of megabytes: it is
//! answered `ok pieces`, then each piece as `LEN` on a line and its bytes,
//! ending with a piece of length 0, written as it is made.

use std::io::{self, BufRead, Read, Write};

use serde::{Deserialize, Serialize};

use super::proto::MAX_LINE;
use crate::config::keymap::KeySpec;

/// The largest call body a workspace reads: keys and command lines are
/// small; a peer must not make it hold more.
pub const MAX_CALL_BODY: usize = 1 << 20;

/// What a script asks of the workspace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
pub enum Call {
    /// Do what the keymap's action of this name does (`Action::name`).
    Action { name: String },
    /// Type these keys into pane `pane` (the focused one if `None`).
    SendKeys {
        pane: Option<u32>,
        keys: Vec<KeyArg>,
    },
    /// Open a pane running `argv` in directory `cwd`.
    Run {
        place: Place,
        cwd: Option<String>,
        argv: Vec<String>,
        /// Its history is never written to disk (`--no-save`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        no_save: bool,
    },
    /// The pane's screen, or its whole history, as text.
    Capture {
        pane: Option<u32>,
        history: bool,
        ansi: bool,
    },
    /// Every pane, as JSON ([`PaneInfo`]s).
    ListPanes,
    /// The paste buffers, one line each; or buffer `print` as it is.
    Buffers { print: Option<usize> },
    /// Pane `pane`'s output from now on to `command`'s stdin (`None`:
    /// stop).
    Pipe {
        pane: Option<u32>,
        command: Option<String>,
    },
    /// What the `tmux` front-end asks (`crate::tmux_compat`).
    Tmux { call: super::tmux_call::TmuxCall },
    /// One command's output (`capture --command`, issue 43).
    CaptureCommand(super::command_calls::CommandCapture),
    /// The pane's commands, as JSON (`capture --commands`).
    Commands { pane: Option<u32> },
    /// Answered once its condition holds (`tilework wait`).
    Wait(super::command_calls::WaitCall),
    /// Events as they happen (`tilework subscribe`).
    Subscribe(super::command_calls::SubscribeCall),
    /// A remote pane's output, as frames (`tilework proxy`, issue 47).
    PaneStream(super::pane_link::PaneStreamCall),
    /// Bytes for a pane's PTY, as they are (a remote pane's keys).
    PaneInput { pane: u32, bytes: Vec<u8> },
    /// A pane's PTY and screen at this size (a remote pane's).
    PaneResize { pane: u32, cols: u16, rows: u16 },
    /// Close a pane and end its program (a remote pane closed locally).
    PaneClose { pane: u32 },
}

/// How long the client and the call's thread wait for `call`'s answer.
pub fn answer_timeout(call: &Call) -> std::time::Duration {
    match call {
        Call::Wait(wait) => wait.timeout() + std::time::Duration::from_secs(5),
        Call::Subscribe(_) | Call::PaneStream(_) => super::command_calls::LONGEST_WAIT,
        _ => super::command_calls::DEFAULT_ANSWER,
    }
}

/// One argument of `send-keys`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyArg {
    /// A key as the keymap writes it (`C-c`, `Enter`, `F5`).
    Key(String),
    /// Text typed as it is.
    Text(String),
}

/// What each argument means: a key when it is one the keymap can name
/// (unless `literal`), else text.
pub fn parse_args(args: &[String], literal: bool) -> Vec<KeyArg> {
    args.iter()
        .map(|arg| {
            if !literal && let Ok(spec) = arg.parse::<KeySpec>() {
                // Written canonically, so the workspace reads the same key.
                KeyArg::Key(spec.to_string())
            } else {
                KeyArg::Text(arg.clone())
            }
        })
        .collect()
}

/// Where `tilework run` opens its pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Place {
    /// Split the focused pane, the new one to the right.
    Right,
    /// Split the focused pane, the new one below.
    Down,
    /// Floating over the tab.
    Float,
    /// A tab of its own.
    Tab,
}

/// One pane as `tilework list-panes --json` prints it: the documented,
/// stable shape (fields are only ever added).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaneInfo {
    /// What `--pane N` takes.
    pub id: u32,
    /// The tab's number as the status bar shows it (from 1).
    pub tab: usize,
    /// The tab's name as the status bar shows it.
    pub tab_name: String,
    /// What the pane's border shows.
    pub title: String,
    /// The program and its arguments, as started.
    pub command: Vec<String>,
    /// Its directory, if known.
    pub cwd: Option<String>,
    /// The pane's screen, in cells.
    pub rows: u16,
    pub cols: u16,
    /// The pane keys go to: the focused pane of the shown tab.
    pub focused: bool,
    /// The focused pane of its tab (each tab has one).
    pub tab_focused: bool,
    pub floating: bool,
    /// Zoomed over its tab's other panes.
    pub zoomed: bool,
    /// The program's process id (none once it ended).
    pub pid: Option<u32>,
    /// Its exit status, once it ended (a pane kept open).
    pub exit_code: Option<i32>,
}

/// What the loop answers a call with.
pub enum Reply {
    Text(Vec<u8>),
    /// Text that takes long to make and can be long (a history
    /// replayed): made by the call's own thread, not the loop, and handed
    /// to the client a piece at a time as it is made.
    Pieces(TextJob),
    Error(String),
}

impl Reply {
    pub fn error(message: impl Into<String>) -> Self {
        Reply::Error(message.into())
    }
}

/// Makes text a piece at a time, handing each to its sink; stops at the
/// sink's first error.
pub type TextJob =
    Box<dyn FnOnce(&mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> + Send>;

/// What follows `ok` when the text comes in pieces.
const PIECES: &str = "pieces";

/// The workspace's answer, as the client reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Ok(Vec<u8>),
    Error(String),
}

/// Writes `call` as a request: the line, then its body.
pub fn write_call(mut out: impl Write, call: &Call) -> io::Result<()> {
    let body = serde_json::to_vec(call).map_err(io::Error::other)?;
    let line = super::proto::Request::Call(body.len()).line();
    out.write_all(line.as_bytes())?;
    out.write_all(&body)?;
    out.flush()
}

/// Reads a call's body of `len` bytes (after its request line).
pub fn read_call(mut input: impl Read, len: usize) -> io::Result<Call> {
    if len > MAX_CALL_BODY {
        return Err(io::Error::other(format!(
            "a call of {len} bytes is over the limit of {MAX_CALL_BODY}"
        )));
    }
    let mut body = vec![0; len];
    input.read_exact(&mut body)?;
    serde_json::from_slice(&body).map_err(|err| io::Error::other(format!("a bad call: {err}")))
}

/// Writes a successful answer carrying `text`.
pub fn write_ok(mut out: impl Write, text: &[u8]) -> io::Result<()> {
    out.write_all(format!("ok {}\n", text.len()).as_bytes())?;
    out.write_all(text)?;
    out.flush()
}

/// Writes a successful answer whose text `make` hands over a piece at a
/// time: each is written as it comes, so neither side holds it all.
pub fn write_pieces(mut out: impl Write, make: TextJob) -> io::Result<()> {
    out.write_all(format!("ok {PIECES}\n").as_bytes())?;
    make(&mut |piece| {
        if piece.is_empty() {
            return Ok(());
        }
        out.write_all(format!("{}\n", piece.len()).as_bytes())?;
        out.write_all(piece)
    })?;
    out.write_all(b"0\n")?;
    out.flush()
}

/// Writes a refusal, on one line (controls become spaces).
pub fn write_error(mut out: impl Write, message: &str) -> io::Result<()> {
    let flat: String = message
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    out.write_all(format!("error {flat}\n").as_bytes())?;
    out.flush()
}

/// Reads the workspace's answer: its line, then the text an `ok` carries.
pub fn read_answer(input: impl Read) -> io::Result<Answer> {
    let mut text = Vec::new();
    Ok(match copy_answer(input, &mut text)? {
        Ok(()) => Answer::Ok(text),
        Err(message) => Answer::Error(message),
    })
}

/// Reads the workspace's answer and copies the text an `ok` carries to
/// `out` as it arrives (a history in pieces never sits in memory whole);
/// a refusal is `Ok(Err(message))`.
pub fn copy_answer(input: impl Read, mut out: impl Write) -> io::Result<Result<(), String>> {
    let mut input = io::BufReader::new(input);
    let line = read_line(&mut input)?.ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the workspace closed the connection without answering",
        )
    })?;
    if let Some(message) = line.strip_prefix("error ") {
        return Ok(Err(message.to_string()));
    }
    let unknown = || io::Error::other(format!("an answer tilework does not know: {line:?}"));
    let len = line.strip_prefix("ok ").ok_or_else(unknown)?;
    if len != PIECES {
        copy_exactly(&mut input, len.parse().map_err(|_| unknown())?, &mut out)?;
        return Ok(Ok(()));
    }
    loop {
        let cut = || io::Error::new(io::ErrorKind::UnexpectedEof, "the answer was cut short");
        let piece = read_line(&mut input)?.ok_or_else(cut)?;
        let len: u64 = piece
            .parse()
            .map_err(|_| io::Error::other(format!("a piece tilework does not know: {piece:?}")))?;
        if len == 0 {
            return Ok(Ok(()));
        }
        copy_exactly(&mut input, len, &mut out)?;
    }
}

/// Reads the workspace's answer as [`copy_answer`] does, handing `piece`
/// each piece whole (an `ok N` answer is one), read into one buffer that
/// is reused: a reader whose pieces each mean something (a remote pane's
/// frames) passes them on without putting them together again.
pub fn answer_pieces(
    input: impl BufRead,
    mut piece: impl FnMut(&[u8]) -> io::Result<()>,
) -> io::Result<Result<(), String>> {
    let mut input = input;
    let cut = || io::Error::new(io::ErrorKind::UnexpectedEof, "the answer was cut short");
    let line = read_line(&mut input)?.ok_or_else(cut)?;
    if let Some(message) = line.strip_prefix("error ") {
        return Ok(Err(message.to_string()));
    }
    let unknown = || io::Error::other(format!("an answer tilework does not know: {line:?}"));
    let len = line.strip_prefix("ok ").ok_or_else(unknown)?;
    let mut buf = Vec::new();
    let mut one = |input: &mut dyn BufRead, len: u64| -> io::Result<()> {
        buf.clear();
        input.take(len).read_to_end(&mut buf)?;
        if buf.len() as u64 != len {
            return Err(cut());
        }
        piece(&buf)
    };
    if len != PIECES {
        one(&mut input, len.parse().map_err(|_| unknown())?)?;
        return Ok(Ok(()));
    }
    loop {
        let line = read_line(&mut input)?.ok_or_else(cut)?;
        let len: u64 = line
            .parse()
            .map_err(|_| io::Error::other(format!("a piece tilework does not know: {line:?}")))?;
        if len == 0 {
            return Ok(Ok(()));
        }
        one(&mut input, len)?;
    }
}

/// One line (without its newline), `None` at the end of the stream.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut line = Vec::new();
    input
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut line)?;
    if line.is_empty() {
        return Ok(None);
    }
    if line.last() != Some(&b'\n') {
        return Err(if line.len() > MAX_LINE {
            io::Error::other("the workspace's answer is not a line")
        } else {
            io::Error::new(io::ErrorKind::UnexpectedEof, "the answer was cut short")
        });
    }
    line.pop();
    Ok(Some(String::from_utf8_lossy(&line).into_owned()))
}

/// Copies `len` bytes of `input` to `out`; fewer is an error.
fn copy_exactly(input: &mut impl BufRead, len: u64, out: &mut impl Write) -> io::Result<()> {
    let copied = io::copy(&mut input.take(len), out)?;
    if copied != len {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!("the answer was cut short ({copied} of {len} bytes)"),
        ));
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::session::proto::Request;

    fn calls() -> Vec<Call> {
        vec![
            Call::Action {
                name: "new-tab".into(),
            },
            Call::SendKeys {
                pane: Some(3),
                keys: vec![
                    KeyArg::Text("echo \"hi\"\nthere ünïcode".into()),
                    KeyArg::Key("C-c".into()),
                ],
            },
            Call::Run {
                place: Place::Float,
                cwd: Some("/tmp/a b".into()),
                argv: vec!["sh".into(), "-c".into(), "echo $1".into()],
                no_save: true,
            },
            Call::Capture {
                pane: None,
                history: true,
                ansi: false,
            },
            Call::ListPanes,
            Call::Buffers { print: Some(2) },
            Call::Pipe {
                pane: Some(1),
                command: Some("cat > log".into()),
            },
        ]
    }

    #[test]
    fn every_call_reads_back_as_itself_after_its_request_line() {
        for call in calls() {
            let mut wire = Vec::new();
            write_call(&mut wire, &call).unwrap();
            let end = wire.iter().position(|&b| b == b'\n').unwrap();
            let line = std::str::from_utf8(&wire[..end]).unwrap();
            let Ok(Request::Call(len)) = Request::parse(line) else {
                panic!("{line:?} is not a call");
            };
            let body = &wire[end + 1..];
            assert_eq!(body.len(), len);
            assert_eq!(read_call(body, len).unwrap(), call);
        }
    }

    #[test]
    fn the_body_is_plain_json_with_an_op() {
        let mut wire = Vec::new();
        write_call(&mut wire, &Call::ListPanes).unwrap();
        assert_eq!(wire, b"tilework/1 call 19\n{\"op\":\"list-panes\"}");
    }

    #[test]
    fn an_oversized_or_broken_body_is_refused() {
        let err = read_call(&b""[..], MAX_CALL_BODY + 1).unwrap_err();
        assert!(err.to_string().contains("over the limit"), "{err}");
        let err = read_call(&b"{\"op\":\"fly\"}"[..], 12).unwrap_err();
        assert!(err.to_string().contains("bad call"), "{err}");
        // Fewer bytes than announced: the peer went away.
        let err = read_call(&b"{}"[..], 10).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
    }

    #[test]
    fn answers_carry_any_bytes_or_a_one_line_error() {
        let text = b"line 1\nline 2\n\x1b[31mred\x1b[0m\n".repeat(1000);
        let mut wire = Vec::new();
        write_ok(&mut wire, &text).unwrap();
        assert_eq!(read_answer(&wire[..]).unwrap(), Answer::Ok(text));

        let mut wire = Vec::new();
        write_error(&mut wire, "no pane 7\n(see list-panes)").unwrap();
        assert_eq!(wire.iter().filter(|&&b| b == b'\n').count(), 1);
        assert_eq!(
            read_answer(&wire[..]).unwrap(),
            Answer::Error("no pane 7 (see list-panes)".into())
        );
    }

    #[test]
    fn text_in_pieces_reads_back_whole() {
        let pieces: Vec<Vec<u8>> = vec![b"line 1\n".to_vec(), vec![], b"\x1b[31mred".repeat(9000)];
        let expected = pieces.concat();
        let mut wire = Vec::new();
        write_pieces(
            &mut wire,
            Box::new(move |sink| pieces.iter().try_for_each(|p| sink(p))),
        )
        .unwrap();
        assert!(wire.starts_with(b"ok pieces\n"));
        assert_eq!(read_answer(&wire[..]).unwrap(), Answer::Ok(expected));
        // Cut anywhere short of its end, it is an error.
        for cut in [wire.len() - 2, wire.len() / 2, 12] {
            let err = read_answer(&wire[..cut]).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof, "{cut}: {err}");
        }
    }

    #[test]
    fn a_cut_answer_is_an_error_not_short_text() {
        let err = read_answer(&b"ok 10\nabc"[..]).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        let err = read_answer(&b""[..]).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        let err = read_answer(&b"maybe 3\nabc"[..]).unwrap_err();
        assert!(err.to_string().contains("does not know"), "{err}");
    }

    #[test]
    fn pane_info_has_its_documented_field_names() {
        let info = PaneInfo {
            id: 2,
            tab: 1,
            tab_name: "sh".into(),
            title: "~".into(),
            command: vec!["/bin/sh".into()],
            cwd: Some("/home".into()),
            rows: 22,
            cols: 39,
            focused: true,
            tab_focused: true,
            floating: false,
            zoomed: false,
            pid: Some(42),
            exit_code: None,
        };
        let json = serde_json::to_value(&info).unwrap();
        let mut keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "cols",
                "command",
                "cwd",
                "exit_code",
                "floating",
                "focused",
                "id",
                "pid",
                "rows",
                "tab",
                "tab_focused",
                "tab_name",
                "title",
                "zoomed"
            ]
        );
        assert_eq!(serde_json::from_value::<PaneInfo>(json).unwrap(), info);
    }
}
