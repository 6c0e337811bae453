//! `tilework attach HOST:NAME`: the remote `tilework attach NAME` over
//! `ssh -t`, run again with back-off whenever the link drops, until it
//! detaches, its workspace ends, or the user gives up.
//!
//! The remote programs never notice a drop: they run in the remote
//! workspace, which sees a terminal that went away and, on reconnect, a
//! terminal that attached (and is drawn whole at once, at its size).

use std::time::Duration;

use anyhow::Result;

use crate::remote::link::{self, Ending};
use crate::remote::ssh::Ssh;
use crate::remote::target::Target;
use crate::remote::versions;
use crate::remote::waiting_screen::{self, Choice, TerminalState, Waiting};

/// The waits between attempts: the first soon (a blip), then longer, up to
/// the last, repeated.
const BACK_OFF_SECS: [u64; 6] = [1, 2, 4, 8, 15, 30];

/// The remote shell's status for a command it cannot find.
const NOT_FOUND: i32 = 127;

/// Attaches to `target` through `ssh`, passing `flags` (`-d`, `-r`) on.
/// The exit status is the remote attach's.
pub fn attach(ssh: &Ssh, target: &Target, flags: &[&str]) -> Result<i32> {
    let argv = ssh.attach_argv(target, flags, &display(target));
    let terminal = TerminalState::remember();
    let host = target.host();
    let mut ever_connected = false;
    let mut failed = 0u32;
    let control = ssh.attach_control_path();
    let _left = RemovedAtEnd(control.clone());
    loop {
        // A socket left by an ssh that was killed would pass for this
        // run's connection.
        if let Some(path) = &control {
            let _ = std::fs::remove_file(path);
        }
        let run = link::run(&argv, ssh.dead_after(), control.as_deref())?;
        ever_connected |= run.connected;
        let why = match run.ending {
            Ending::Exited(NOT_FOUND) => {
                terminal.restore();
                anyhow::bail!(
                    "{host} has no tilework where ssh looks (exit {NOT_FOUND}): install it \
                     there, or set `[remote] tilework` to its path"
                );
            }
            Ending::Exited(code) => {
                terminal.restore();
                // An older tilework there refuses this version's flags:
                // say which versions meet.
                if code == versions::USAGE_OR_ERROR
                    && let Some(message) = versions::remote_differs(ssh, target)
                {
                    anyhow::bail!("{message}");
                }
                return Ok(code);
            }
            // ssh said why (refused, auth failed, no such host) on the
            // terminal; nothing to reconnect to.
            Ending::Dropped(_) if !ever_connected => {
                terminal.restore();
                return Ok(255);
            }
            Ending::Dropped(why) => why,
        };
        if run.connected {
            failed = 0;
        } else {
            failed += 1;
        }
        tracing::info!(%host, %why, failed, "the link to a remote workspace dropped");
        let back_off = BACK_OFF_SECS[(failed as usize).min(BACK_OFF_SECS.len() - 1)];
        let waiting = Waiting {
            host,
            why: &why,
            failed,
        };
        match waiting_screen::wait(&terminal, &waiting, Duration::from_secs(back_off))? {
            Choice::TryNow => waiting_screen::connecting(&terminal, host),
            Choice::GiveUp => {
                terminal.leave_screen();
                eprintln!(
                    "tilework: gave up reconnecting to {}; the workspace runs on there \
                     (`tilework attach {}` returns to it)",
                    crate::sanitize::escape_controls(host),
                    crate::sanitize::escape_controls(&display(target))
                );
                return Ok(1);
            }
        }
    }
}

/// The attach's own control socket, removed when the attach ends (ssh
/// removes it itself unless it was killed).
struct RemovedAtEnd(Option<std::path::PathBuf>);

impl Drop for RemovedAtEnd {
    fn drop(&mut self) {
        if let Some(path) = &self.0 {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// The target as the user would type it again.
fn display(target: &Target) -> String {
    let host = match target.port {
        Some(port) => {
            return format!(
                "ssh://{}:{port}/{}",
                target.destination,
                target.name.as_deref().unwrap_or("")
            );
        }
        None => &target.destination,
    };
    format!("{host}:{}", target.name.as_deref().unwrap_or(""))
}
