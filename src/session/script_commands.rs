//! Scripts' calls about commands (issue 43): one command's output
//! (`tilework capture --command -1`), the list of a pane's commands
//! (`capture --commands`), and waits (`tilework wait`). The calls travel
//! as any script call (`script`); what they carry is here, and the
//! client's side of them.

use std::io::{self, Write};
use std::time::Duration;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::script::Call;
use super::script_client::{call, call_into};

/// How long a call may take to be answered when it does not say: as
/// `script_host` and `script_client` wait for any call.
pub const DEFAULT_ANSWER: Duration = Duration::from_secs(10);

/// The longest a wait with no `--timeout` lasts (a day): the call's
/// thread and connection are let go then.
pub const LONGEST_WAIT: Duration = Duration::from_secs(24 * 3600);

/// `capture --command N`: one command's output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandCapture {
    pub pane: Option<u32>,
    /// -1: the last command that finished, -2 the one before; 1 the
    /// oldest held.
    pub index: i64,
    pub ansi: bool,
}

/// What `tilework wait` waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "for", rename_all = "kebab-case")]
pub enum WaitFor {
    /// Output from now on matching this regex.
    Output { regex: String },
    /// The next command finished (its status is the answer).
    Prompt,
    /// The pane's program ended.
    Exit,
    /// No output for this long.
    Silence { ms: u64 },
    /// The pane's program sent a notification.
    Notification,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitCall {
    pub pane: Option<u32>,
    pub until: WaitFor,
    /// Given up (an error) after this long.
    pub timeout_ms: Option<u64>,
}

impl WaitCall {
    pub fn timeout(&self) -> Duration {
        self.timeout_ms
            .map_or(LONGEST_WAIT, Duration::from_millis)
            .min(LONGEST_WAIT)
    }
}

/// One command as `capture --commands --json` prints it: the documented
/// shape (fields are only ever added).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandInfo {
    /// What `--command` takes: -1 for the newest finished, and so on
    /// (commands still running have 0).
    pub index: i64,
    /// The command line, as the shell sent it or as it was echoed.
    pub command: String,
    /// Its exit status, when the shell told it.
    pub status: Option<i32>,
    pub failed: bool,
    pub finished: bool,
    /// Milliseconds since the epoch.
    pub started_ms: Option<u64>,
    pub finished_ms: Option<u64>,
    pub duration_ms: Option<u64>,
    /// Lines of `capture --history`'s text (from 0), as `[first, end)`:
    /// the prompt's line, and the output's.
    pub prompt_line: u64,
    pub output_lines: Option<[u64; 2]>,
}

/// How long the client and the call's thread wait for `call`'s answer.
pub fn answer_timeout(call: &Call) -> Duration {
    match call {
        Call::Wait(wait) => wait.timeout() + Duration::from_secs(5),
        _ => DEFAULT_ANSWER,
    }
}

/// `tilework capture --command N`.
pub fn capture_command(session: Option<&str>, pane: Option<u32>, index: i64, ansi: bool) -> Result<i32> {
    let call = Call::CaptureCommand(CommandCapture { pane, index, ansi });
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    call_into(session, &call, &mut out)?;
    out.flush().context("writing to stdout")?;
    Ok(0)
}

/// `tilework capture --commands [--json]`.
pub fn list_commands(session: Option<&str>, pane: Option<u32>, json: bool) -> Result<i32> {
    let text = call(session, &Call::Commands { pane })?;
    let commands: Vec<CommandInfo> =
        serde_json::from_slice(&text).context("reading the workspace's list of commands")?;
    let out = if json {
        let mut json = serde_json::to_string_pretty(&commands).context("writing JSON")?;
        json.push('\n');
        json
    } else {
        commands.iter().map(table_row).collect()
    };
    let mut stdout = io::stdout().lock();
    match stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush()) {
        Err(err) if err.kind() != io::ErrorKind::BrokenPipe => Err(err).context("writing to stdout"),
        _ => Ok(0),
    }
}

fn table_row(c: &CommandInfo) -> String {
    let status = match (c.finished, c.status) {
        (false, _) => "running".to_string(),
        (true, Some(s)) => s.to_string(),
        (true, None) => "?".to_string(),
    };
    let took = c
        .duration_ms
        .map_or(String::new(), |ms| format!("{:.1}s", ms as f64 / 1000.0));
    let line = crate::sanitize::escape_controls(&c.command).into_owned();
    format!("{:>4}  {status:>7}  {took:>7}  {line}\n", c.index)
}

/// `tilework wait`: returns the exit status to end with (a command's, for
/// `--prompt`).
pub fn wait(session: Option<&str>, wait: WaitCall) -> Result<i32> {
    let prompt = wait.until == WaitFor::Prompt;
    let text = call(session, &Call::Wait(wait))?;
    let said = String::from_utf8_lossy(&text);
    let mut stdout = io::stdout().lock();
    let _ = stdout.write_all(said.as_bytes()).and_then(|()| stdout.flush());
    if prompt {
        // The status, or empty when the shell did not tell it.
        return Ok(said.trim().parse::<i32>().unwrap_or(0));
    }
    Ok(0)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn calls_travel_as_json() {
        for call in [
            Call::Wait(WaitCall {
                pane: Some(2),
                until: WaitFor::Output {
                    regex: "done$".into(),
                },
                timeout_ms: Some(500),
            }),
            Call::Wait(WaitCall {
                pane: None,
                until: WaitFor::Prompt,
                timeout_ms: None,
            }),
            Call::CaptureCommand(CommandCapture {
                pane: None,
                index: -2,
                ansi: false,
            }),
            Call::Commands { pane: Some(1) },
        ] {
            let json = serde_json::to_vec(&call).unwrap();
            let back: Call = serde_json::from_slice(&json).unwrap();
            assert_eq!(back, call);
        }
    }
}
