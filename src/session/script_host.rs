//! The workspace's side of a script's call: each connection gets a thread
//! of its own that reads the call, hands it to the loop, and writes the
//! answer. The loop only posts a reply to a channel: a client that is slow
//! to send, or never reads what it asked for, holds its own thread and
//! nothing else (no frame waits for it).

use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crossbeam_channel::{Sender, bounded};

use super::script::{self, Call, Reply};
use crate::mailbox::Mailbox;

/// How long a client may take to send its call's body.
const READ_TIMEOUT: Duration = Duration::from_secs(5);

/// How long the loop may take to answer: it answers within a turn, so
/// only a workspace that is stuck (or ending) takes this long.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// A client that reads nothing for this long is given up on.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// Calls served at once; more are refused rather than each given a thread.
const MAX_CALLS_IN_FLIGHT: usize = 32;

static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);

/// A call for the loop: it answers on `reply` (never blocking: the
/// channel holds the one answer).
pub struct ScriptCall {
    pub call: Call,
    pub reply: Sender<Reply>,
}

/// Serves a connection whose request line announced a call of `len` bytes.
pub fn start(stream: UnixStream, len: usize, mailbox: &Mailbox<ScriptCall>) {
    if IN_FLIGHT.fetch_add(1, Ordering::SeqCst) >= MAX_CALLS_IN_FLIGHT {
        IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
        refuse(&stream, "the workspace is busy with other calls; try again");
        return;
    }
    let mailbox = mailbox.clone();
    let spawned = std::thread::Builder::new()
        .name("script-call".into())
        .spawn(move || {
            serve(&stream, len, &mailbox);
            IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
        });
    if let Err(err) = spawned {
        IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
        tracing::warn!("starting a thread for a script call: {err}");
    }
}

fn serve(stream: &UnixStream, len: usize, mailbox: &Mailbox<ScriptCall>) {
    let _ = stream.set_read_timeout(Some(READ_TIMEOUT));
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let call = match script::read_call(stream, len) {
        Ok(call) => call,
        Err(err) => {
            tracing::warn!("script call: {err}");
            refuse(stream, &format!("reading the call: {err}"));
            return;
        }
    };
    tracing::debug!(?call, "script call");
    let (tx, rx) = bounded(1);
    if !mailbox.post(ScriptCall { call, reply: tx }) {
        refuse(stream, "the workspace is ending");
        return;
    }
    let reply = rx
        .recv_timeout(ANSWER_TIMEOUT)
        .unwrap_or_else(|_| Reply::error("the workspace did not answer"));
    let written = match reply {
        Reply::Text(text) => script::write_ok(stream, &text),
        Reply::Later(make) => script::write_ok(stream, &make()),
        Reply::Error(message) => script::write_error(stream, &message),
    };
    if let Err(err) = written {
        tracing::info!("a script's client did not take its answer: {err}");
    }
}

fn refuse(stream: &UnixStream, message: &str) {
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let _ = script::write_error(stream, message);
}
