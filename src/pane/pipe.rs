//! A pane's output sent on to a command (`tilework pipe`, tmux's
//! `pipe-pane`): `sh -c CMD` in a process group of its own reads, on its
//! stdin, everything the pane prints from then on. A thread of its own
//! writes to it from a queue of [`QUEUE_CHUNKS`] chunks; when the command
//! reads slower than the pane prints, chunks are dropped (and counted)
//! rather than the pane slowed: the loop never waits on it.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

use crossbeam_channel::{Sender, TrySendError, bounded};

/// Chunks of output (each at most a PTY read) waiting for the command.
pub const QUEUE_CHUNKS: usize = 256;

/// One pane's pipe. Dropped, the command's stdin closes once the queue is
/// written.
pub struct PanePipe {
    pub command: String,
    tx: Sender<Vec<u8>>,
    /// Bytes dropped since the command last kept up.
    dropped: u64,
}

/// What [`PanePipe::send`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum Sent {
    Queued,
    /// The first chunk dropped since the command kept up: worth a notice.
    StartedDropping,
    Dropped,
    /// The command is gone (it ended, or stopped reading for good).
    Closed,
}

impl PanePipe {
    /// Starts `command` with its stdin on the pipe.
    pub fn start(command: &str) -> std::io::Result<Self> {
        let mut child = Command::new("/bin/sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()?;
        let mut stdin = child
            .stdin
            .take()
            .ok_or_else(|| std::io::Error::other("the command has no stdin"))?;
        let (tx, rx) = bounded::<Vec<u8>>(QUEUE_CHUNKS);
        let name = command.to_string();
        std::thread::Builder::new()
            .name("pane-pipe".into())
            .spawn(move || {
                for chunk in rx {
                    if let Err(err) = stdin.write_all(&chunk) {
                        tracing::warn!(command = %name, "pane pipe closed: {err}");
                        break;
                    }
                }
                drop(stdin);
                let _ = child.wait();
            })?;
        Ok(Self {
            command: command.to_string(),
            tx,
            dropped: 0,
        })
    }

    /// Queues `chunk` for the command, or drops it if the command is
    /// behind; never waits.
    pub fn send(&mut self, chunk: &[u8]) -> Sent {
        match self.tx.try_send(chunk.to_vec()) {
            Ok(()) => {
                if self.dropped > 0 {
                    tracing::warn!(
                        command = %self.command,
                        bytes = self.dropped,
                        "pane pipe kept up again after dropping output"
                    );
                    self.dropped = 0;
                }
                Sent::Queued
            }
            Err(TrySendError::Full(chunk)) => {
                let first = self.dropped == 0;
                self.dropped += u64::try_from(chunk.len()).unwrap_or(u64::MAX);
                if first {
                    Sent::StartedDropping
                } else {
                    Sent::Dropped
                }
            }
            Err(TrySendError::Disconnected(_)) => Sent::Closed,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn output_reaches_the_command_and_a_command_that_does_not_read_drops_it() {
        let dir = std::env::temp_dir().join(format!("tilework-pipe-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("out");
        let mut pipe = PanePipe::start(&format!("cat > {}", file.display())).unwrap();
        assert_eq!(pipe.send(b"hello "), Sent::Queued);
        assert_eq!(pipe.send(b"pipe"), Sent::Queued);
        drop(pipe);
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::fs::read_to_string(&file).unwrap_or_default() != "hello pipe" {
            assert!(Instant::now() < deadline, "the command got the output");
            std::thread::sleep(Duration::from_millis(10));
        }
        // `sleep` never reads: the queue fills and output is dropped, the
        // sender never waits.
        let mut stuck = PanePipe::start("exec sleep 5").unwrap();
        let chunk = vec![b'x'; 64 * 1024];
        let sent: Vec<Sent> = (0..QUEUE_CHUNKS + 64).map(|_| stuck.send(&chunk)).collect();
        assert!(
            sent.contains(&Sent::StartedDropping),
            "{:?}",
            &sent[sent.len() - 3..]
        );
        assert_eq!(sent.last(), Some(&Sent::Dropped));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
