//! The attaching client waits small.
//!
//! `tilework` and `tilework attach` read the command line, the config and
//! the saved workspaces, claim a name and start the workspace process: the
//! pages of code this touches stay resident for as long as the client then
//! waits (4.8 MB, most of it the binary's own pages). So before it asks
//! the terminal and hands it over, the client runs its own binary again
//! (`execve`, the same file even if a newer one was installed since): the
//! fresh image touches only what asking, handing over and waiting need,
//! and keeps what the shell and the workspace know of the client: its pid,
//! its terminal, the workspace process as its child.
//!
//! What the fresh image needs comes on its stdin, a socket pair: one
//! message with the words (the workspace's name, its process, the attach
//! request) and two descriptors, the session stream and the terminal's own
//! stdin, which goes back on fd 0 at once. No descriptor number crosses the
//! exec, so none is taken on trust (and no `unsafe`). If the exec fails,
//! the client waits where it is.

use std::io::{self, IsTerminal};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

use super::proto::{self, Joining, Request};
use crate::terminal::outer_terminal::OuterTerminal as TerminalFacts;

/// The hidden first argument of the fresh image (`main` looks for it
/// before parsing anything else).
pub const FLAG: &str = "--wait-attached";

/// Set (to anything), the client waits where it is, without running its
/// binary again: for measuring a workspace under valgrind, which cannot
/// run `/proc/self/exe` (scripts/flood-instructions.py). Nothing else
/// sets it, and it never makes the client run another file. The workspace
/// process is started without it, so no pane inherits it.
pub const IN_PLACE_VAR: &str = "TILEWORK_WAIT_IN_PLACE";

/// The longest message the fresh image reads: the name, the pid and an
/// attach request, which is at most [`proto::MAX_LINE`].
const MAX_MESSAGE: usize = proto::MAX_LINE + 256;

/// Runs this binary again to attach the terminal to the workspace on
/// `stream` and wait (`child`: the workspace process this client started).
/// Returns only if that could not be done; stdin is as it was then.
pub fn restart(
    stream: &UnixStream,
    name: &str,
    child: Option<u32>,
    joining: &Joining,
) -> io::Error {
    if std::env::var_os(IN_PLACE_VAR).is_some() {
        return io::Error::other(format!("{IN_PLACE_VAR} is set"));
    }
    let terminal = match io::stdin().as_fd().try_clone_to_owned() {
        Ok(fd) => fd,
        Err(err) => return err,
    };
    let (ours, theirs) = match UnixStream::pair() {
        Ok(pair) => pair,
        Err(err) => return err,
    };
    let request = Request::Attach(TerminalFacts::default(), joining.clone()).line();
    let words = format!(
        "{name}\n{}\n{request}",
        child.map_or("-".to_string(), |pid| pid.to_string())
    );
    if let Err(err) = proto::send_with_fds(&ours, &words, &[stream.as_fd(), terminal.as_fd()]) {
        return err;
    }
    // `ours` closes with the exec (close-on-exec): the fresh image reads
    // the message, then the end of the stream.
    let err = Command::new(crate::os::own_binary())
        .arg0("tilework")
        .arg(FLAG)
        .stdin(Stdio::from(OwnedFd::from(theirs)))
        .exec();
    // The exec failed after fd 0 may have become the pair's end.
    if let Err(put_back) = rustix::stdio::dup2_stdin(&terminal) {
        return io::Error::other(format!("{err}; then putting stdin back: {put_back}"));
    }
    err
}

/// What the fresh image was handed: it attaches with these.
pub struct Handed {
    pub stream: UnixStream,
    pub name: String,
    /// The workspace process, when the client started it.
    pub child: Option<u32>,
    pub joining: Joining,
}

/// The fresh image's start: takes what [`restart`] sent, with the
/// terminal back on stdin.
pub fn take() -> Result<Handed> {
    // Named as the binary, not as the `exe` it was run through.
    let _ = nix::sys::prctl::set_name(c"tilework");
    let carrier = UnixStream::from(
        io::stdin()
            .as_fd()
            .try_clone_to_owned()
            .context("taking the attach message")?,
    );
    let mut bytes = Vec::new();
    let mut fds = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        let got = crate::os::recv_with_fds(&carrier, &mut buf, &mut fds)
            .context("reading the attach message")?;
        if got == 0 {
            break;
        }
        bytes.extend_from_slice(&buf[..got]);
        if bytes.len() > MAX_MESSAGE {
            bail!("the attach message is too long");
        }
    }
    let [stream, terminal] = <[OwnedFd; 2]>::try_from(fds)
        .map_err(|fds| anyhow::anyhow!("the attach message came with {} descriptors", fds.len()))?;
    rustix::stdio::dup2_stdin(&terminal).context("putting the terminal back on stdin")?;
    drop((terminal, carrier));
    if !io::stdin().is_terminal() {
        bail!("stdin is no terminal after starting afresh");
    }
    let (name, child, joining) = parse(&String::from_utf8_lossy(&bytes))?;
    Ok(Handed {
        stream: UnixStream::from(stream),
        name,
        child,
        joining,
    })
}

/// The name, the workspace process and the joining words of a message.
fn parse(message: &str) -> Result<(String, Option<u32>, Joining)> {
    let mut lines = message.lines();
    let (Some(name), Some(child), Some(request)) = (lines.next(), lines.next(), lines.next())
    else {
        bail!("the attach message is cut short");
    };
    let child = match child {
        "-" => None,
        pid => Some(pid.parse().context("the workspace's pid")?),
    };
    match Request::parse(request) {
        Ok(Request::Attach(_, joining)) => Ok((name.to_string(), child, joining)),
        _ => bail!("the attach message holds no attach request"),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;
    use crate::session::proto::AttachMode;

    #[test]
    fn the_message_brings_the_name_the_process_and_the_joining_words() {
        let joining = Joining {
            mode: AttachMode::ReadOnly,
            env: vec![
                ("DISPLAY".into(), Some(":1 x%".into())),
                ("SSH_AUTH_SOCK".into(), None),
            ],
            select: Some((2, Some(7))),
        };
        let request = Request::Attach(TerminalFacts::default(), joining.clone()).line();
        let (name, child, back) = parse(&format!("work\n4242\n{request}")).unwrap();
        assert_eq!((name.as_str(), child, back), ("work", Some(4242), joining));
        let (_, child, _) = parse(&format!("w\n-\n{request}")).unwrap();
        assert_eq!(child, None);
        assert!(parse("w\n-\n").is_err());
        assert!(parse("w\n-\ntilework/1 info\n").is_err());
    }
}
