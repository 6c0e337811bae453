//! The client's side of scripts' calls about commands (issue 43):
//! `tilework capture --command N`, `capture --commands [--json]` and
//! `tilework wait`; what the calls carry is `command_calls`.

use std::io::{self, Write};

use anyhow::{Context, Result};

use super::command_calls::{CommandCapture, CommandInfo, SubscribeCall, WaitCall, WaitFor};
use super::script::Call;
use super::script_client::{call, call_into};

/// `tilework capture --command N`.
pub fn capture_command(
    session: Option<&str>,
    pane: Option<u32>,
    index: i64,
    ansi: bool,
) -> Result<i32> {
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
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(err) if err.kind() != io::ErrorKind::BrokenPipe => {
            Err(err).context("writing to stdout")
        }
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

/// `tilework subscribe`: events as NDJSON lines on stdout until the
/// workspace ends or cuts this subscriber off (an `overflow` event).
pub fn subscribe(session: Option<&str>, call: SubscribeCall) -> Result<i32> {
    let mut out = io::LineWriter::new(io::stdout().lock());
    match call_into(session, &Call::Subscribe(call), &mut out) {
        Ok(()) => Ok(0),
        Err(err)
            if err
                .downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe) =>
        {
            Ok(0)
        }
        Err(err) => Err(err),
    }
}

/// `tilework wait`: returns the exit status to end with (a command's, for
/// `--prompt`).
pub fn wait(session: Option<&str>, wait: WaitCall) -> Result<i32> {
    let prompt = wait.until == WaitFor::Prompt;
    let text = call(session, &Call::Wait(wait))?;
    let said = String::from_utf8_lossy(&text);
    let mut stdout = io::stdout().lock();
    let _ = stdout
        .write_all(said.as_bytes())
        .and_then(|()| stdout.flush());
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
