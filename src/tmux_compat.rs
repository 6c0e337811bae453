//! `tmux` on tilework: the binary run as `tmux` (a symlink) or as
//! `tilework tmux ARGS` speaks tmux's command line, so the tools built for
//! tmux (libtmux, tmuxp, agent teams, vim-slime, vim-tmux-navigator) drive
//! tilework's workspaces. See `server` for how tmux's servers, sessions,
//! windows and panes map onto workspaces, tabs and panes.
//!
//! - [`argv`]: the command line; [`format`]: `#{…}`; [`target`]: `-t`.
//! - [`server`]: finding and starting workspaces; [`detached`]: a new
//!   session on a terminal of its own; [`store`]: what a tmux server keeps
//!   that workspaces do not (named buffers, options, wait-for channels).
//! - [`vars`]: the variables formats read; [`commands`]: the commands.

pub mod argv;
pub mod commands;
pub mod detached;
pub mod format;
pub mod option_table;
pub mod server;
pub mod store;
pub mod tmux_target;
pub mod vars;

use std::io::Write;

/// Runs `tmux ARGS` (`args` without the program's name); returns the exit
/// status.
pub fn main(args: &[String]) -> i32 {
    let (globals, rest) = match argv::globals(args) {
        Ok(parsed) => parsed,
        Err(err) => {
            eprintln!("{err}");
            eprintln!(
                "usage: tmux [-2CDlNuVv] [-c shell-command] [-f file] [-L socket-name] [-S socket-path] [-T features] [command [flags]]"
            );
            return 1;
        }
    };
    if globals.version {
        println!("tmux {}", vars::VERSION);
        return 0;
    }
    if globals.control {
        eprintln!("tmux: control mode (-C) is not supported by tilework");
        return 1;
    }
    let server = match server::Server::find(&globals) {
        Ok(server) => server,
        Err(err) => {
            eprintln!("{err:#}");
            return 1;
        }
    };
    let mut ctx = commands::Ctx::new(server);
    let mut commands = argv::split_commands(&rest);
    if commands.is_empty() {
        // `tmux` alone: a new session, as tmux starts one.
        commands.push(vec!["new-session".into()]);
    }
    let mut status = 0;
    for command in &commands {
        if let Err(err) = commands::run(&mut ctx, command) {
            eprintln!("{err}");
            status = 1;
            break;
        }
        if ctx.exit.is_some() {
            break;
        }
    }
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(&ctx.out);
    let _ = out.flush();
    ctx.exit.unwrap_or(status)
}

/// What this workspace's panes are told of where it is, for tools built
/// for tmux: `$TMUX` names `socket`, and `PATH` starts with a private
/// directory whose `tmux` is this very binary (made, or made again, here).
pub fn announce(
    runtime: &std::path::Path,
    socket: std::path::PathBuf,
) -> crate::workspace::tmux_env::TmuxIdentity {
    let bin_dir = match link_dir(runtime) {
        Ok(dir) => Some(dir),
        Err(err) => {
            tracing::warn!("panes will have no tmux on PATH: {err:#}");
            None
        }
    };
    crate::workspace::tmux_env::TmuxIdentity { socket, bin_dir }
}

/// `RUNTIME/.tmux-bin/tmux` → this binary; the directory is returned.
fn link_dir(runtime: &std::path::Path) -> anyhow::Result<std::path::PathBuf> {
    use anyhow::Context;
    let dir = runtime.join(".tmux-bin");
    std::fs::create_dir_all(&dir).with_context(|| format!("making {}", dir.display()))?;
    let exe = std::env::current_exe().context("finding tilework's own binary")?;
    let link = dir.join("tmux");
    if std::fs::read_link(&link).is_ok_and(|to| to == exe) {
        return Ok(dir);
    }
    // Made aside and renamed over: a pane starting meanwhile finds the old
    // link or the new one, never none.
    let tmp = dir.join(format!(".tmux.{}", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    std::os::unix::fs::symlink(&exe, &tmp).with_context(|| format!("linking {}", tmp.display()))?;
    std::fs::rename(&tmp, &link).with_context(|| format!("placing {}", link.display()))?;
    Ok(dir)
}
