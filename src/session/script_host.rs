//! The workspace's side of a script's call, on its conversation's own
//! thread (see `host`): reads the call, hands it to the loop, and writes
//! the answer. The loop only posts a reply to a channel: a client that is
//! slow to send, or never reads what it asked for, holds its own thread
//! and nothing else (no frame waits for it).

use std::os::unix::net::UnixStream;
use std::time::Duration;

use crossbeam_channel::{Sender, bounded};

use super::conversation::{Deadline, ReadBy};
use super::host::listener::Busy;
use super::script::{self, Call, Reply};
use crate::mailbox::Mailbox;

/// How long the loop may take to answer: it answers within a turn, so
/// only a workspace that is stuck (or ending) takes this long.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// A client that reads nothing for this long is given up on.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// A call for the loop: it answers on `reply` (never blocking: the
/// channel holds the one answer).
pub struct ScriptCall {
    pub call: Call,
    pub reply: Sender<Reply>,
}

/// Serves a connection whose request line announced a call of `len`
/// bytes; the body must be in before `deadline` too. False once the loop
/// is gone. `busy` is held until the call is answered, or, for a call that
/// may wait long (`wait`, `subscribe`), until the loop has it: an upgrade
/// waits for it (see `host::listener`).
pub fn serve(
    stream: &UnixStream,
    len: usize,
    deadline: Deadline,
    mailbox: &Mailbox<ScriptCall>,
    busy: Busy,
) -> bool {
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let call = match script::read_call(ReadBy { stream, deadline }, len) {
        Ok(call) => call,
        Err(err) => {
            tracing::warn!("script call: {err}");
            refuse(stream, &format!("reading the call: {err}"));
            return true;
        }
    };
    tracing::debug!(?call, "script call");
    let answer_timeout = script::answer_timeout(&call).max(ANSWER_TIMEOUT);
    let waits_long = matches!(call, Call::Wait(_) | Call::Subscribe(_));
    let (tx, rx) = bounded(1);
    if !mailbox.post(ScriptCall { call, reply: tx }) {
        refuse(stream, "the workspace is ending");
        return false;
    }
    if waits_long {
        drop(busy);
    }
    let reply = rx
        .recv_timeout(answer_timeout)
        .unwrap_or_else(|_| Reply::error("the workspace did not answer"));
    let written = match reply {
        Reply::Text(text) => script::write_ok(stream, &text),
        Reply::Pieces(make) => script::write_pieces(stream, make),
        Reply::Error(message) => script::write_error(stream, &message),
    };
    if let Err(err) = written {
        tracing::info!("a script's client did not take its answer: {err}");
    }
    true
}

fn refuse(stream: &UnixStream, message: &str) {
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let _ = script::write_error(stream, message);
}
