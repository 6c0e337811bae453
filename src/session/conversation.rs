//! The rules every peer on the session socket lives by: its whole request
//! must arrive before one deadline ([`Deadline`], not a timeout per read:
//! a byte every few seconds does not stretch it), and a uid holds at most
//! [`MAX_PEERS_PER_UID`] conversations at once ([`Peers`]). Each
//! conversation has a thread of its own (see `host`), so a peer that sends
//! nothing, or drips, holds its own thread until its deadline and keeps
//! nobody else waiting.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::os::unix::net::UnixStream;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long a peer has to send its whole request (the line, and a call's
/// body): real clients send it at once.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(5);

/// Conversations one uid may hold open at once; one more is refused at
/// once. Room for scripts that call in parallel, not for a thread per
/// connection anyone cares to open.
pub const MAX_PEERS_PER_UID: usize = 32;

/// When a peer's request must be in.
#[derive(Debug, Clone, Copy)]
pub struct Deadline(Instant);

impl Deadline {
    pub fn after(limit: Duration) -> Self {
        Self(Instant::now() + limit)
    }

    /// Makes the next read on `stream` wait no longer than what is left;
    /// an error once nothing is.
    pub fn arm(self, stream: &UnixStream) -> io::Result<()> {
        let left = self.0.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(too_late());
        }
        stream.set_read_timeout(Some(left))
    }
}

fn too_late() -> io::Error {
    io::Error::new(
        io::ErrorKind::TimedOut,
        format!(
            "the request was not in within {} s",
            REQUEST_DEADLINE.as_secs()
        ),
    )
}

/// Whether `err` is a read that ran into its armed timeout.
pub fn timed_out(err: &io::Error) -> bool {
    matches!(
        err.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

/// Reads from a stream, each read armed with what is left of `deadline`.
pub struct ReadBy<'a> {
    pub stream: &'a UnixStream,
    pub deadline: Deadline,
}

impl Read for ReadBy<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.deadline.arm(self.stream)?;
        (&mut &*self.stream)
            .read(buf)
            .map_err(|err| if timed_out(&err) { too_late() } else { err })
    }
}

/// How many conversations each uid holds.
pub struct Peers {
    limit: usize,
    open: Mutex<BTreeMap<u32, usize>>,
}

/// One conversation's place; given back when dropped.
pub struct PeerSlot {
    peers: Arc<Peers>,
    uid: u32,
}

impl Peers {
    pub fn new(limit: usize) -> Arc<Self> {
        Arc::new(Self {
            limit,
            open: Mutex::new(BTreeMap::new()),
        })
    }

    /// A place for one more conversation of `uid`, if it has one left.
    pub fn enter(self: &Arc<Self>, uid: u32) -> Option<PeerSlot> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let held = open.entry(uid).or_default();
        if *held >= self.limit {
            return None;
        }
        *held += 1;
        Some(PeerSlot {
            peers: Arc::clone(self),
            uid,
        })
    }

    pub fn limit(&self) -> usize {
        self.limit
    }
}

impl Drop for PeerSlot {
    fn drop(&mut self) {
        let mut open = self
            .peers
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(held) = open.get_mut(&self.uid) {
            *held -= 1;
            if *held == 0 {
                open.remove(&self.uid);
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_uid_holds_at_most_the_limit_and_gets_places_back() {
        let peers = Peers::new(2);
        let a = peers.enter(1000).unwrap();
        let _b = peers.enter(1000).unwrap();
        assert!(peers.enter(1000).is_none());
        // Another uid counts on its own.
        assert!(peers.enter(0).is_some());
        drop(a);
        assert!(peers.enter(1000).is_some());
    }

    #[test]
    fn a_dripping_peer_does_not_stretch_the_deadline() {
        let (client, server) = UnixStream::pair().unwrap();
        let dripper = std::thread::spawn(move || {
            // A byte far more often than the deadline: a timeout per read
            // would never fire.
            for _ in 0..100 {
                if (&client).write_all(b"x").is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        let mut reader = ReadBy {
            stream: &server,
            deadline: Deadline::after(Duration::from_millis(200)),
        };
        let mut sink = Vec::new();
        let err = reader.read_to_end(&mut sink).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut, "{err}");
        // It gave up while the peer was still dripping.
        assert!(sink.len() < 100, "read all {} bytes", sink.len());
        drop(server);
        dripper.join().unwrap();
    }

    #[test]
    fn a_passed_deadline_refuses_to_arm() {
        let (_client, server) = UnixStream::pair().unwrap();
        let deadline = Deadline::after(Duration::ZERO);
        let err = deadline.arm(&server).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
    }
}
