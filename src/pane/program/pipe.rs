//! A pane's output sent on to a command (`tilework pipe`, tmux's
//! `pipe-pane`): `sh -c CMD` in a process group of its own reads, on its
//! stdin, everything the pane prints from then on.
//!
//! Each pipe has a queue of [`QUEUE_CHUNKS`] chunks; one thread for all
//! pipes (`writer`) writes them to the commands through non-blocking
//! descriptors. When a command reads slower than its pane prints, chunks
//! are dropped (and counted) rather than the pane slowed: the loop never
//! waits on a command.
//!
//! A pipe replaced, stopped, or whose pane closed is ended by the writer:
//! what is queued is written (for a moment at most), the command's stdin
//! closes, and its process group is hung up on once its leader exits (or
//! after a grace period) and killed after another. Every exit path of the
//! workspace kills the groups still there (`children::kill_all`).

use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

use crossbeam_channel::{Sender, TrySendError, bounded};

use crate::pane::PaneId;

mod writer;

use writer::{Flow, Writer};

/// Chunks of output (each at most a PTY read) waiting for the command.
pub const QUEUE_CHUNKS: usize = 256;

/// What [`PanePipes::send`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum Sent {
    Queued,
    /// The first chunk dropped since the command kept up: worth a notice.
    StartedDropping,
    Dropped,
    /// The command is gone (it ended, or stopped reading for good); the
    /// pipe is forgotten.
    Closed,
}

/// One pane's pipe, as the loop holds it.
struct PanePipe {
    pane: PaneId,
    /// The writer's name for it.
    key: u64,
    command: String,
    tx: Sender<Vec<u8>>,
    /// Bytes dropped since the command last kept up.
    dropped: u64,
}

/// The panes' pipes and the one thread that writes to them.
#[derive(Default)]
pub struct PanePipes {
    pipes: Vec<PanePipe>,
    /// Started with the first pipe.
    writer: Option<Writer>,
    next_key: u64,
}

impl PanePipes {
    pub fn is_empty(&self) -> bool {
        self.pipes.is_empty()
    }

    /// Pipes pane `pane`'s output to `command` from now on, ending the
    /// pipe it had.
    pub fn start(&mut self, pane: PaneId, command: &str) -> io::Result<()> {
        if self.writer.is_none() {
            self.writer = Some(Writer::start()?);
        }
        let mut child = Command::new("/bin/sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()?;
        let pgid = i32::try_from(child.id()).map_err(io::Error::other)?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| io::Error::other("the command has no stdin"))
            .and_then(|stdin| {
                // The writer never waits on one command.
                let flags = rustix::fs::fcntl_getfl(&stdin)?;
                rustix::fs::fcntl_setfl(&stdin, flags | rustix::fs::OFlags::NONBLOCK)?;
                Ok(stdin)
            });
        let stdin = match stdin {
            Ok(stdin) => stdin,
            Err(err) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(err);
            }
        };
        crate::pane::program::children::register_group(pgid);
        let (tx, rx) = bounded::<Vec<u8>>(QUEUE_CHUNKS);
        self.next_key += 1;
        let key = self.next_key;
        let flow = Flow::new(key, command, stdin, rx, child, pgid);
        self.stop(pane);
        if let Some(writer) = &self.writer {
            writer.add(flow);
        }
        self.pipes.push(PanePipe {
            pane,
            key,
            command: command.to_string(),
            tx,
            dropped: 0,
        });
        Ok(())
    }

    /// Ends pane `pane`'s pipe; whether it had one.
    pub fn stop(&mut self, pane: PaneId) -> bool {
        let Some(at) = self.pipes.iter().position(|p| p.pane == pane) else {
            return false;
        };
        let pipe = self.pipes.remove(at);
        if let Some(writer) = &self.writer {
            writer.end(pipe.key);
        }
        true
    }

    /// Ends the pipes of panes that are gone.
    pub fn keep_only(&mut self, exists: impl Fn(PaneId) -> bool) {
        let gone: Vec<PaneId> = self
            .pipes
            .iter()
            .map(|p| p.pane)
            .filter(|&p| !exists(p))
            .collect();
        for pane in gone {
            self.stop(pane);
        }
    }

    /// The command pane `pane`'s output goes to.
    pub fn command(&self, pane: PaneId) -> Option<&str> {
        self.pipes
            .iter()
            .find(|p| p.pane == pane)
            .map(|p| p.command.as_str())
    }

    /// Queues `chunk` of pane `pane`'s output for its command, or drops it
    /// if the command is behind; never waits. `None`: the pane is not
    /// piped.
    pub fn send(&mut self, pane: PaneId, chunk: &[u8]) -> Option<Sent> {
        let at = self.pipes.iter().position(|p| p.pane == pane)?;
        let pipe = &mut self.pipes[at];
        let sent = match pipe.tx.try_send(chunk.to_vec()) {
            Ok(()) => {
                if pipe.dropped > 0 {
                    tracing::warn!(
                        command = %pipe.command,
                        bytes = pipe.dropped,
                        "pane pipe kept up again after dropping output"
                    );
                    pipe.dropped = 0;
                }
                if let Some(writer) = &self.writer {
                    writer.wake();
                }
                Sent::Queued
            }
            Err(TrySendError::Full(chunk)) => {
                let first = pipe.dropped == 0;
                pipe.dropped += u64::try_from(chunk.len()).unwrap_or(u64::MAX);
                if first {
                    Sent::StartedDropping
                } else {
                    Sent::Dropped
                }
            }
            Err(TrySendError::Disconnected(_)) => {
                self.stop(pane);
                Sent::Closed
            }
        };
        Some(sent)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn wait_until(what: &str, mut cond: impl FnMut() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !cond() {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    #[test]
    fn output_reaches_the_command_and_a_command_that_does_not_read_drops_it() {
        let dir = std::env::temp_dir().join(format!("tilework-pipe-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("out");
        let mut pipes = PanePipes::default();
        let pane = PaneId(1);
        pipes
            .start(pane, &format!("cat > {}", file.display()))
            .unwrap();
        assert_eq!(pipes.send(pane, b"hello "), Some(Sent::Queued));
        assert_eq!(pipes.send(pane, b"pipe"), Some(Sent::Queued));
        // Stopped: what was queued still reaches it.
        assert!(pipes.stop(pane));
        assert_eq!(pipes.send(pane, b"never"), None);
        wait_until("the command got the output", || {
            std::fs::read_to_string(&file).unwrap_or_default() == "hello pipe"
        });
        // `sleep` never reads: the queue fills and output is dropped, the
        // sender never waits.
        pipes.start(pane, "exec sleep 5").unwrap();
        let chunk = vec![b'x'; 64 * 1024];
        let sent: Vec<Option<Sent>> = (0..QUEUE_CHUNKS + 64)
            .map(|_| pipes.send(pane, &chunk))
            .collect();
        assert!(
            sent.contains(&Some(Sent::StartedDropping)),
            "{:?}",
            &sent[sent.len() - 3..]
        );
        assert_eq!(sent.last(), Some(&Some(Sent::Dropped)));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_command_that_ends_closes_its_pipe() {
        let mut pipes = PanePipes::default();
        let pane = PaneId(2);
        pipes.start(pane, "exit 0").unwrap();
        wait_until("the pipe closed", || {
            pipes.send(pane, b"x") == Some(Sent::Closed)
        });
        assert!(pipes.is_empty());
    }
}
