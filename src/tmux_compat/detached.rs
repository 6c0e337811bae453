//! A new session started detached (`tmux new-session -d`): tilework is
//! launched as usual, on a terminal of its own (a PTY of the size asked
//! for) that this process holds, and told to detach as soon as it answers
//! on its socket. From then on it runs as any detached workspace does, at
//! that size, until something attaches.

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

use crate::session::dir;
use crate::session::script::Call;
use crate::session::script_client;

/// How long a new workspace may take to start and to let its terminal go.
const START_TIMEOUT: Duration = Duration::from_secs(10);

/// Starts workspace `workspace` (session number `number`) detached.
pub fn start(workspace: &str, number: u32, launch: &Launch) -> Result<()> {
    let pty = native_pty_system()
        .openpty(PtySize {
            // The status bar takes a row of the terminal.
            rows: launch.rows.max(2).saturating_add(1),
            cols: launch.cols.max(2),
            pixel_width: 0,
            pixel_height: 0,
        })
        .context("opening a terminal for the new session")?;
    let exe = std::env::current_exe().context("finding tilework's own binary")?;
    let mut cmd = CommandBuilder::new(exe);
    cmd.args(["--session", workspace]);
    match launch.argv.as_slice() {
        [] => {}
        [line] => {
            cmd.args(["-c", line]);
        }
        argv => {
            cmd.arg("--");
            cmd.args(argv);
        }
    }
    let cwd = match &launch.cwd {
        Some(dir) => std::path::PathBuf::from(dir),
        None => std::env::current_dir().context("reading the current directory")?,
    };
    cmd.cwd(cwd);
    cmd.env(
        crate::workspace::tmux_env::SESSION_NUMBER_VAR,
        number.to_string(),
    );
    cmd.env("TERM", "xterm-256color");
    for (name, value) in &launch.env {
        cmd.env(name, value);
    }
    let mut child = pty
        .slave
        .spawn_command(cmd)
        .context("starting the new session")?;
    drop(pty.slave);
    // tilework asks its terminal what it is (answered here as a plain
    // VT220 would, so it need not wait for a silence), and draws on it:
    // both read here and dropped.
    let mut reader = pty
        .master
        .try_clone_reader()
        .context("reading the new session's terminal")?;
    let mut writer = pty
        .master
        .take_writer()
        .context("writing to the new session's terminal")?;
    crate::jobs::named("tmux-pty", move || {
        let mut buf = [0u8; 4096];
        let mut answered = false;
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            let seen = &buf[..n];
            if !answered && seen.windows(3).any(|w| w == b"\x1b[c") {
                answered = true;
                let _ = writer.write_all(b"\x1b[?62;22c");
                let _ = writer.flush();
            }
        }
    })
    .context("starting the terminal's reader")?;
    let path = dir::socket_path(&dir::runtime_dir()?, workspace);
    let deadline = Instant::now() + START_TIMEOUT;
    loop {
        let detached = script_client::call_at(
            &path,
            &Call::Action {
                name: "detach".into(),
            },
            START_TIMEOUT,
        );
        if matches!(detached, Ok(Ok(_))) {
            break;
        }
        if let Ok(Some(status)) = child.try_wait() {
            bail!("the new session ended at once ({status:?})");
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            bail!("the new session did not start within {START_TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // The launcher goes once its terminal is let go.
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Ok(())
}

/// What a new session runs, and where.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    pub cols: u16,
    pub rows: u16,
    pub cwd: Option<String>,
    pub argv: Vec<String>,
    pub env: Vec<(String, String)>,
    pub window_name: Option<String>,
}
