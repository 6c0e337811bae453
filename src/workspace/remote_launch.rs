//! A split (`C-b "`, `C-b %`) or new tab from a remote pane (issue 47 §2)
//! opens another remote pane: on the same host, in the remote pane's
//! directory (what its shell reported by OSC 7, or what the remote
//! workspace saw, sent along as OSC 7 by the relay), running the remote
//! user's shell.

use crate::config::remote_pane::RemotePane;
use crate::pane::Pane;
use crate::workspace::PaneLaunch;

/// What opens beside `pane` when it is a remote pane; `None` for a local
/// one.
pub(super) fn shell_beside(pane: &Pane) -> Option<PaneLaunch> {
    let mut remote = RemotePane::from_argv(&pane.spec.argv)?;
    remote.cwd = pane.term().cwd().map(str::to_string).or(remote.cwd);
    remote.command.clear();
    let mut spec = pane.spec.clone();
    spec.argv = remote.argv(&spec.argv[0]);
    Some(PaneLaunch::new(spec, remote.label()))
}
