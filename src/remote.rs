//! Workspaces on other machines, reached over OpenSSH: tilework has no
//! network layer of its own; ssh does the auth, keys, agents, jump hosts
//! and connection sharing.
//!
//! - [`target`]: `HOST:NAME` and `ssh://[user@]host[:port]/NAME`.
//! - [`ssh`]: the ssh command lines (`[remote] ssh_command`, shared
//!   connection, keep-alives).
//! - [`link`]: one run of ssh, watched: detached, exited, or dropped.
//! - [`attach`]: `tilework attach HOST:NAME`, reconnecting when the link
//!   drops; [`waiting_screen`] is what the terminal shows meanwhile.
//! - [`relay`]: a remote pane's program; [`stall_watch`] counts its
//!   stopped ssh as a dropped link; [`output_batch`] writes its output
//!   into the local PTY in fewer, larger pieces.

pub mod attach;
pub mod link;
pub mod output_batch;
pub mod proxy;
pub mod relay;
pub mod remote_attach;
pub mod ssh;
pub mod stall_watch;
pub mod target;
pub mod title_tap;
pub mod versions;
pub mod waiting_screen;

use anyhow::{Context, Result};

use crate::config::remote_settings::Remote;
use ssh::Ssh;
use target::Target;

/// `tilework attach` of a remote target.
pub fn attach_remote(settings: &Remote, target: &Target, flags: &[&str]) -> Result<i32> {
    let ssh = ssh_to(settings, target)?;
    attach::attach(&ssh, target, flags)
}

/// `tilework ls HOST:`: the remote `tilework ls`, its output and status as
/// they are.
pub fn ls(settings: &Remote, target: &Target, long: bool) -> Result<i32> {
    let ssh = ssh_to(settings, target)?;
    let argv = ssh.ls_argv(target, long);
    let (program, args) = argv.split_first().context("an empty ssh command")?;
    let status = std::process::Command::new(program)
        .args(args)
        .status()
        .with_context(|| format!("running {program}"))?;
    Ok(status.code().unwrap_or(255))
}

/// The ssh to `target`, sharing connections in tilework's runtime
/// directory.
fn ssh_to(settings: &Remote, target: &Target) -> Result<Ssh> {
    let dir = crate::session::dir::runtime_dir()?;
    Ok(Ssh::new(settings, &dir, target))
}

/// This process's stdout as a file of its own, written straight to the
/// descriptor: the relay and the proxy write whole frames and output at
/// once, with no line buffer between them and the other end.
fn unbuffered_stdout() -> Result<std::fs::File> {
    use std::os::fd::AsFd;
    let fd = std::io::stdout()
        .as_fd()
        .try_clone_to_owned()
        .context("taking stdout")?;
    Ok(std::fs::File::from(fd))
}
