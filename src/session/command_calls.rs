//! What scripts' calls about commands carry (issue 43): one command's
//! output (`tilework capture --command -1`), the list of a pane's commands
//! (`capture --commands`), and waits (`tilework wait`). They travel as any
//! script call (`script::Call`); the client's side is `script_commands`,
//! the loop's `app::event_loop::command_answers`.

use std::time::Duration;

use serde::{Deserialize, Serialize};

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

/// `tilework subscribe`: events as NDJSON lines until the client leaves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubscribeCall {
    /// Only this pane's events (and the workspace's own).
    pub pane: Option<u32>,
    /// Only these events (empty: all).
    pub events: Vec<String>,
    /// Output with its escape sequences, not as plain text.
    pub escapes: bool,
}
