//! `[remote]`: how `tilework attach HOST:NAME` reaches another machine
//! (the work itself is in `crate::remote`).

use serde::Deserialize;
use toml::Spanned;

/// `ssh_command`'s default: the `ssh` on `$PATH`, with the user's own
/// `~/.ssh/config`.
pub const DEFAULT_SSH_COMMAND: &str = "ssh";
/// `tilework`'s default: found on the remote `$PATH`.
pub const DEFAULT_REMOTE_TILEWORK: &str = "tilework";
/// `keepalive`'s default and bounds, in seconds.
pub const DEFAULT_KEEPALIVE_SECS: u64 = 5;
pub const MAX_KEEPALIVE_SECS: u64 = 3600;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remote {
    /// How ssh is run, as git's `core.sshCommand`: a shell command line,
    /// the ssh arguments appended (`ssh -F ~/.ssh/work_config`).
    pub ssh_command: String,
    /// The remote tilework, as a word for the remote shell (`~` and `$HOME`
    /// expand there): for a host whose non-interactive `$PATH` lacks it.
    pub tilework: String,
    /// Seconds between keep-alives (ssh's `ServerAliveInterval`): the link
    /// counts as down after three go unanswered.
    pub keepalive_secs: u64,
}

impl Default for Remote {
    fn default() -> Self {
        Self {
            ssh_command: DEFAULT_SSH_COMMAND.to_string(),
            tilework: DEFAULT_REMOTE_TILEWORK.to_string(),
            keepalive_secs: DEFAULT_KEEPALIVE_SECS,
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(
    deny_unknown_fields,
    expecting = "a table with `ssh_command`, `tilework` and `keepalive`"
)]
pub(crate) struct RawRemote {
    ssh_command: Option<Spanned<String>>,
    tilework: Option<Spanned<String>>,
    keepalive: Option<Spanned<i64>>,
}

pub(crate) fn parse(raw: RawRemote) -> Result<Remote, (std::ops::Range<usize>, String)> {
    let mut remote = Remote::default();
    let not_blank = |value: Spanned<String>, key: &str| {
        if value.get_ref().trim().is_empty() {
            Err((value.span(), format!("[remote] {key} cannot be empty")))
        } else if value.get_ref().chars().any(char::is_control) {
            Err((
                value.span(),
                format!("[remote] {key} cannot hold control characters"),
            ))
        } else {
            Ok(value.into_inner())
        }
    };
    if let Some(command) = raw.ssh_command {
        remote.ssh_command = not_blank(command, "ssh_command")?;
    }
    if let Some(path) = raw.tilework {
        remote.tilework = not_blank(path, "tilework")?;
    }
    if let Some(secs) = raw.keepalive {
        remote.keepalive_secs = u64::try_from(*secs.get_ref())
            .ok()
            .filter(|s| (1..=MAX_KEEPALIVE_SECS).contains(s))
            .ok_or_else(|| {
                (
                    secs.span(),
                    format!("[remote] keepalive is 1 to {MAX_KEEPALIVE_SECS} seconds"),
                )
            })?;
    }
    Ok(remote)
}

pub fn default_toml() -> String {
    format!(
        "[remote]\n\
         # `tilework attach HOST:NAME` runs `tilework attach NAME` on HOST through ssh\n\
         # (one shared connection per host, keep-alives, reconnecting when the link\n\
         # drops). How ssh is run: a shell command line, as git's core.sshCommand.\n\
         # ssh_command = \"{DEFAULT_SSH_COMMAND}\"\n\
         # The tilework on the other machine, as a word for its shell.\n\
         # tilework = \"{DEFAULT_REMOTE_TILEWORK}\"\n\
         # Seconds between keep-alives; the link is down after three go unanswered.\n\
         # keepalive = {DEFAULT_KEEPALIVE_SECS}\n"
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    fn parse_text(text: &str) -> Result<crate::config::Config, String> {
        crate::config::parse(text, std::path::Path::new("c.toml")).map_err(|e| e.to_string())
    }

    #[test]
    fn remote_settings_are_read_and_blanks_refused() {
        let config =
            parse_text("[remote]\nssh_command = \"ssh -F ~/.ssh/work\"\ntilework = \"~/bin/tw\"\n")
                .unwrap();
        assert_eq!(config.remote.ssh_command, "ssh -F ~/.ssh/work");
        assert_eq!(config.remote.tilework, "~/bin/tw");
        let err = parse_text("[remote]\nssh_command = \"  \"\n").unwrap_err();
        assert!(err.contains("ssh_command cannot be empty"), "{err}");
        let err = parse_text("[remote]\nkeepalive = 0\n").unwrap_err();
        assert!(err.contains("keepalive is 1 to"), "{err}");
        assert_eq!(
            parse_text("[remote]\nkeepalive = 2\n")
                .unwrap()
                .remote
                .keepalive_secs,
            2
        );
        let err = parse_text("[remote]\nhost = \"x\"\n").unwrap_err();
        assert!(err.contains("host"), "{err}");
    }
}
