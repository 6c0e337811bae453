//! What a newer tilework takes over from this workspace (an upgrade, see
//! `crate::upgrade`): the listening socket, and each attached terminal:
//! its client's connection, its three descriptors and the attach request
//! it came with. The new process makes arrivals of them again, so its
//! terminals are attached as any other.

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::net::UnixStream;

use anyhow::{Context, Result, bail};

use super::{Arrival, Host};
use crate::session::proto::{AttachMode, Request};

/// An attached terminal's part of a handover, kept while it is attached.
pub struct Handed {
    fds: [OwnedFd; 3],
    /// Its attach request, as a line (what it told about its terminal, how
    /// it joined).
    request: String,
}

impl Handed {
    pub(super) fn of(
        facts: crate::terminal::outer_terminal::OuterTerminal,
        joining: &crate::session::proto::Joining,
        fds: [&OwnedFd; 3],
    ) -> Result<Self> {
        let dup = |fd: &OwnedFd| fd.try_clone().context("keeping a terminal's descriptor");
        Ok(Self {
            fds: [dup(fds[0])?, dup(fds[1])?, dup(fds[2])?],
            request: Request::Attach(facts, joining.clone()).line(),
        })
    }
}

/// One attached terminal, as handed over.
pub struct HandedTerminal<'a> {
    /// Its client's connection.
    pub stream: BorrowedFd<'a>,
    /// Its stdin, stdout and stderr.
    pub fds: [BorrowedFd<'a>; 3],
    pub request: &'a str,
}

impl Host {
    /// The listening socket.
    pub fn listener_fd(&self) -> BorrowedFd<'_> {
        self.listening.fd()
    }

    /// The attached terminals, oldest first.
    pub fn handed_terminals(&self) -> Vec<HandedTerminal<'_>> {
        (self.attached.iter())
            .map(|a| HandedTerminal {
                stream: a.stream.as_fd(),
                fds: [
                    a.handed.fds[0].as_fd(),
                    a.handed.fds[1].as_fd(),
                    a.handed.fds[2].as_fd(),
                ],
                request: &a.handed.request,
            })
            .collect()
    }
}

/// A terminal handed over by an older tilework, as an arrival: it joins
/// (an `attach -d` done once is not done again), read-only if it was.
pub fn arrival(stream: UnixStream, fds: [OwnedFd; 3], request: &str) -> Result<Arrival> {
    let Ok(Request::Attach(facts, mut joining)) = Request::parse(request.trim_end()) else {
        bail!("a handed-over terminal's request does not read: {request:?}");
    };
    if joining.mode == AttachMode::DetachOthers {
        joining.mode = AttachMode::Join;
    }
    joining.select = None;
    Ok(Arrival {
        stream,
        fds,
        facts,
        joining,
    })
}
