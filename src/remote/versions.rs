//! The tilework on the other side must be this version (issue 47 §1's
//! errors): a remote pane's frames and the remote command lines tilework
//! writes (`attach -c`, `proxy --pane N --from P`) are this version's, and
//! a mix would fail in ways nobody could read.
//!
//! How it is found out, at no cost when both are the same:
//! - every remote command tilework runs carries this version
//!   (`--client-version V`, `ssh::CLIENT_VERSION_FLAG`); a remote tilework that knows the flag compares
//!   and, when it differs, refuses with a message naming both
//!   ([`refusal`], exit [`VERSION_MISMATCH`]);
//! - an older tilework there does not know the flag: it refuses it as a
//!   usage error (exit 2). Only then does this side ask it `tilework
//!   --version` ([`remote_version`]) over the same connection, and name
//!   both ([`remote_differs`]).

use std::process::{Command, Stdio};

use crate::remote::ssh::Ssh;
use crate::remote::target::Target;

/// A remote tilework's status when it refuses another version.
pub const VERSION_MISMATCH: i32 = 3;

/// The status a tilework ends with on an error, a refused option
/// included: the one after which the remote version is asked.
pub const USAGE_OR_ERROR: i32 = 2;

/// This tilework's version.
pub fn here() -> String {
    crate::release::version()
}

/// What the user is told when the two differ.
pub fn mismatch(host: &str, there: &str, here: &str) -> String {
    format!(
        "{host} runs tilework {there}, and this is tilework {here}: the two must be the same \
         version (install {here} there, or set `[remote] tilework` to a {here} binary)"
    )
}

/// On the remote side: the refusal when the tilework that ran this command
/// (`client`) is another version than this one; `None` when they match
/// (or no version was given: a user's own `ssh host tilework attach`).
pub fn refusal(client: Option<&str>) -> Option<String> {
    let client = client?;
    let there = here();
    (client != there).then(|| mismatch("the host", &there, client))
}

/// Asks the tilework on `target` its version (`tilework --version`, over
/// the shared connection when there is one). `None` when it cannot be read.
pub fn remote_version(ssh: &Ssh, target: &Target) -> Option<String> {
    let argv = ssh.version_argv(target);
    let (program, args) = argv.split_first()?;
    let out = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    parse_version(&String::from_utf8_lossy(&out.stdout))
}

/// `tilework 0.1.0` → `0.1.0`.
fn parse_version(text: &str) -> Option<String> {
    let line = text.lines().next()?.trim();
    let version = line.strip_prefix("tilework ")?.trim();
    (!version.is_empty() && version.chars().all(|c| c.is_ascii_graphic()))
        .then(|| version.to_string())
}

/// After a remote tilework ended with [`USAGE_OR_ERROR`] (it may not know
/// the flags this version gives it): the message naming both versions,
/// when the host's differs.
pub fn remote_differs(ssh: &Ssh, target: &Target) -> Option<String> {
    let there = remote_version(ssh, target)?;
    let here = here();
    (there != here).then(|| mismatch(target.host(), &there, &here))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_is_read_from_what_tilework_version_prints() {
        assert_eq!(parse_version("tilework 0.1.0\n"), Some("0.1.0".into()));
        assert_eq!(parse_version("bash: tilework: not found"), None);
        assert_eq!(parse_version("tilework \n"), None);
    }

    #[test]
    fn the_same_version_or_none_given_is_not_refused() {
        assert_eq!(refusal(None), None);
        assert_eq!(refusal(Some(&here())), None);
        let refused = refusal(Some("0.0.1-other")).unwrap_or_default();
        assert!(refused.contains("0.0.1-other"), "{refused}");
        assert!(refused.contains(&here()), "{refused}");
    }
}
