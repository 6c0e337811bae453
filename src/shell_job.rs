//! Running a user's shell command off the loop (status-bar commands,
//! hooks): `/bin/sh -c COMMAND` in a process group of its own, its input
//! empty, one of its output streams read up to a bound, the whole run cut
//! at a deadline (the group is killed). Called on a thread of its own,
//! which it blocks until the command is done or killed; the loop never
//! calls it.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

use crossbeam_channel::bounded;

/// How long, after the group was killed, the reader may take to see the
/// end of the stream before it is left behind.
const AFTER_KILL: Duration = Duration::from_secs(1);

/// Which stream of the command is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

/// What one run gave.
#[derive(Debug)]
pub struct JobOutput {
    /// The stream read, up to the bound.
    pub output: Vec<u8>,
    /// `None`: killed at the deadline.
    pub status: Option<ExitStatus>,
}

/// Runs `command` with `env` added, reading `read` (up to `limit` bytes;
/// the rest is read and dropped, so the command never blocks on it) and
/// killing its process group after `timeout`.
pub fn run(
    command: &str,
    env: &[(String, String)],
    read: Stream,
    limit: usize,
    timeout: Duration,
) -> std::io::Result<JobOutput> {
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c").arg(command).stdin(Stdio::null());
    cmd.envs(env.iter().map(|(k, v)| (k, v)));
    match read {
        Stream::Stdout => cmd.stdout(Stdio::piped()).stderr(Stdio::null()),
        Stream::Stderr => cmd.stdout(Stdio::null()).stderr(Stdio::piped()),
    };
    cmd.process_group(0);
    let mut child = cmd.spawn()?;
    let stream: Option<Box<dyn Read + Send>> = match read {
        Stream::Stdout => child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
        Stream::Stderr => child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    };
    let group = child.id();
    let (tx, rx) = bounded(1);
    crate::jobs::named("shell-job", move || {
        let mut output = Vec::new();
        if let Some(mut stream) = stream {
            let _ = (&mut stream)
                .take(u64::try_from(limit).unwrap_or(u64::MAX))
                .read_to_end(&mut output);
            let _ = std::io::copy(&mut stream, &mut std::io::sink());
        }
        let status = child.wait().ok();
        let _ = tx.send(JobOutput { output, status });
    })?;
    match rx.recv_timeout(timeout) {
        Ok(done) => Ok(done),
        Err(_) => {
            // Not reaped yet (the reader reaps after the stream ends, and it
            // has not sent): the group is still the command's.
            if let Ok(group) = i32::try_from(group) {
                let _ = nix::sys::signal::killpg(
                    nix::unistd::Pid::from_raw(group),
                    nix::sys::signal::Signal::SIGKILL,
                );
            }
            let output = rx
                .recv_timeout(AFTER_KILL)
                .map(|done| done.output)
                .unwrap_or_default();
            Ok(JobOutput {
                output,
                status: None,
            })
        }
    }
}

/// The last line of `output` that is not blank, as the status bar may
/// show it: control characters (escape sequences) dropped, at most
/// `width` characters.
pub fn last_line(output: &[u8], width: usize) -> String {
    let text = String::from_utf8_lossy(output);
    let line = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default();
    without_escapes(line)
        .chars()
        .filter(|c| !c.is_control() && !crate::sanitize::is_bidi_control(*c))
        .take(width)
        .collect::<String>()
        .trim()
        .to_string()
}

/// `line` without its escape sequences (colours from `git` or `ls`):
/// CSI up to its final byte, OSC up to BEL or ST, else ESC, its
/// intermediates and one more.
fn without_escapes(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('[') => {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            Some(']') => {
                while let Some(c) = chars.next() {
                    if c == '\x07' || (c == '\x1b' && chars.next().is_some()) {
                        break;
                    }
                }
            }
            // `ESC ( B`: intermediates, then the final character.
            Some(' '..='/') => {
                chars.next();
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_output_and_status_come_back() {
        let done = run(
            "echo one; echo two; exit 3",
            &[],
            Stream::Stdout,
            1024,
            Duration::from_secs(30),
        )
        .unwrap();
        assert_eq!(last_line(&done.output, 80), "two");
        assert_eq!(done.status.and_then(|s| s.code()), Some(3));
    }

    #[test]
    fn the_environment_is_handed_on_and_stderr_can_be_read() {
        let env = [("TILEWORK_TEST_VALUE".to_string(), "seven".to_string())];
        let done = run(
            "echo \"$TILEWORK_TEST_VALUE\" >&2",
            &env,
            Stream::Stderr,
            1024,
            Duration::from_secs(30),
        )
        .unwrap();
        assert_eq!(last_line(&done.output, 80), "seven");
    }

    #[test]
    fn a_command_past_its_deadline_is_killed_with_its_children() {
        let done = run(
            "echo started; sleep 1000 & sleep 1000",
            &[],
            Stream::Stdout,
            1024,
            Duration::from_millis(200),
        )
        .unwrap();
        assert!(done.status.is_none(), "killed");
    }

    #[test]
    fn a_line_is_shown_without_escape_sequences() {
        assert_eq!(last_line(b"x\n\x1b[31mred\x1b[0m\n\n", 80), "red");
        assert_eq!(last_line(b"\x1b]0;title\x07main\x1b(B", 80), "main");
        assert_eq!(last_line(b"abcdef", 3), "abc");
    }
}
