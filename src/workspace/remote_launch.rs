//! A split (`C-b "`, `C-b %`) or new tab from a remote pane (issue 47 §2)
//! opens another remote pane: on the same host, in the remote pane's
//! directory (what its shell reported by OSC 7, or what the remote
//! workspace saw, sent along as OSC 7 by the relay), running the remote
//! user's shell.

use std::path::Path;

use crate::config::remote_pane::RemotePane;
use crate::pane::Pane;
use crate::pane::program::pty::SpawnSpec;
use crate::pane::program::spawn::ChildEnv;

/// What opens beside `pane` when it is a remote pane; `None` for a local
/// one.
pub(super) fn shell_beside(pane: &Pane) -> Option<(SpawnSpec, String)> {
    let mut remote = RemotePane::from_argv(&pane.spec.argv)?;
    remote.cwd = pane.term().told().cwd().map(str::to_string).or(remote.cwd);
    remote.command.clear();
    let mut spec = pane.spec.clone();
    spec.argv = remote.argv(&spec.argv[0]);
    Some((spec, remote.label()))
}

/// A profile's pane with `host = "..."`: a remote pane there, running
/// `command` (a shell line, run by `sh -c` there) or the remote user's
/// shell, in `cwd` there. The local relay runs in the local home.
pub(super) fn profile_pane(
    host: &str,
    command: Option<&str>,
    cwd: Option<&Path>,
    env: &ChildEnv,
) -> (SpawnSpec, String) {
    let remote = RemotePane {
        host: host.to_string(),
        settings: env.remote().clone(),
        cwd: cwd.map(|d| d.to_string_lossy().into_owned()),
        command: command
            .map(|line| vec!["/bin/sh".into(), "-c".into(), line.to_string()])
            .unwrap_or_default(),
    };
    let exe = std::env::current_exe()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "tilework".into());
    let (spec, _) = env.argv(&remote.argv(&exe), None);
    (spec, remote.label())
}

/// What a saved profile says of a remote pane: its host, its command
/// there (a shell line; none for the shell), and its directory there.
pub(super) fn saved(pane: &Pane) -> Option<(String, Option<String>, Option<String>)> {
    let remote = RemotePane::from_argv(&pane.spec.argv)?;
    let command = match remote.command.as_slice() {
        [] => None,
        [sh, c, line] if sh == "/bin/sh" && c == "-c" => Some(line.clone()),
        words => Some(words.join(" ")),
    };
    let cwd = pane.term().told().cwd().map(str::to_string).or(remote.cwd);
    Some((remote.host, command, cwd))
}
