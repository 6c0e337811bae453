//! tmux's model on tilework's: a server (`-L NAME`, `-S PATH`, or the one
//! `$TMUX` names) is a family of workspaces; a session is a workspace,
//! named `SERVER.SESSION` (the default server's sessions are named
//! `SESSION`, so `tilework ls` and `tmux ls` agree on them); windows are
//! tabs and panes are panes. tmux refuses `.` in session names, which
//! keeps the split unambiguous.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::argv::Globals;
pub use super::detached::Launch;
use crate::session::dir;
use crate::session::script::Call;
use crate::session::script_client;
use crate::session::tmux_call::{TmuxCall, TmuxState};

/// How long a workspace may take to answer one call.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// The server a command talks to.
#[derive(Debug, Clone)]
pub struct Server {
    pub name: String,
    /// tilework's socket directory.
    pub runtime: PathBuf,
    /// The workspace `$TMUX` (or `-S`) names: the current session.
    pub current: Option<String>,
    /// `$TMUX_PANE`'s number, when `$TMUX` names this server.
    pub current_pane: Option<u64>,
}

/// One session: a workspace and what it said of itself.
#[derive(Debug, Clone)]
pub struct Session {
    /// Its name for tmux.
    pub name: String,
    /// Its workspace's name.
    pub workspace: String,
    pub path: PathBuf,
    pub state: TmuxState,
}

/// The server and session a workspace's name says.
pub fn family_of(workspace: &str) -> (&str, &str) {
    workspace.rsplit_once('.').unwrap_or(("default", workspace))
}

/// A tmux session name as a workspace name can hold it.
pub fn clean_session_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

impl Server {
    /// The server `globals` (else `$TMUX`) name.
    pub fn find(globals: &Globals) -> Result<Self> {
        let runtime = dir::runtime_dir()?;
        let from_env = std::env::var("TMUX").ok().filter(|v| !v.is_empty());
        let socket = globals.socket.clone().or_else(|| {
            if globals.label.is_some() {
                return None;
            }
            from_env
                .as_deref()
                .and_then(|v| v.split(',').next())
                .map(str::to_string)
        });
        let mut server = Self {
            name: globals.label.clone().unwrap_or_else(|| "default".into()),
            runtime,
            current: None,
            current_pane: None,
        };
        if let Some(socket) = socket {
            let path = Path::new(&socket);
            let file = path
                .file_name()
                .and_then(|f| f.to_str())
                .unwrap_or("default");
            if path.parent() == Some(server.runtime.as_path()) && path.exists() {
                // A workspace's own socket (`$TMUX`): its family.
                server.name = family_of(file).0.to_string();
                server.current = Some(file.to_string());
            } else {
                server.name = clean_session_name(file);
            }
        }
        if server.current.is_some() && globals.socket.is_none() {
            server.current_pane = std::env::var("TMUX_PANE")
                .ok()
                .and_then(|p| p.strip_prefix('%').and_then(|n| n.parse().ok()));
        }
        Ok(server)
    }

    /// The path tmux would show for this server (in messages and
    /// `#{socket_path}`).
    pub fn socket_path(&self) -> String {
        match &self.current {
            Some(ws) => dir::socket_path(&self.runtime, ws).display().to_string(),
            None => format!("/tmp/tmux-{}/{}", dir::my_uid(), self.name),
        }
    }

    /// Whether workspace `name` belongs to this server.
    fn holds(&self, workspace: &str) -> bool {
        let (server, _) = family_of(workspace);
        server == self.prefix()
    }

    /// What this server's workspace names start with (before the `.`):
    /// its name, or for a name longer than 8 characters a hash of it, so
    /// that session names keep most of the 40 characters a workspace name
    /// may have (`libtmux_test3k2j9x1a` → `5c1f09a2`).
    fn prefix(&self) -> String {
        if self.name.len() <= 8 {
            return self.name.clone();
        }
        // FNV-1a: stable across runs and builds.
        let hash = self.name.bytes().fold(0x811c_9dc5_u32, |h, b| {
            (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
        });
        format!("{hash:08x}")
    }

    /// The workspace name of session `session`.
    pub fn workspace_name(&self, session: &str) -> String {
        let session = clean_session_name(session);
        if self.name == "default" {
            session
        } else {
            format!("{}.{session}", self.prefix())
        }
    }

    /// Every running session of this server, by name.
    pub fn sessions(&self) -> Result<Vec<Session>> {
        let mut sessions = Vec::new();
        for workspace in dir::socket_names(&self.runtime)? {
            if !self.holds(&workspace) {
                continue;
            }
            let path = dir::socket_path(&self.runtime, &workspace);
            let Ok(Ok(json)) = script_client::call_at(
                &path,
                &Call::Tmux {
                    call: TmuxCall::State,
                },
                CALL_TIMEOUT,
            ) else {
                continue;
            };
            let Ok(state) = serde_json::from_slice::<TmuxState>(&json) else {
                continue;
            };
            sessions.push(Session {
                name: family_of(&workspace).1.to_string(),
                workspace,
                path,
                state,
            });
        }
        sessions.sort_by_key(|s| s.state.number);
        Ok(sessions)
    }

    /// Sends `call` to `session`; its answer's text, or tmux's words for
    /// why not.
    pub fn call(&self, session: &Session, call: TmuxCall) -> Result<String, String> {
        self.call_raw(&session.path, &Call::Tmux { call })
    }

    /// Sends a script call to the workspace at `path`.
    pub fn call_raw(&self, path: &Path, call: &Call) -> Result<String, String> {
        match script_client::call_at(path, call, CALL_TIMEOUT) {
            Ok(Ok(text)) => Ok(String::from_utf8_lossy(&text).into_owned()),
            Ok(Err(message)) => Err(message),
            Err(err) => Err(format!("{err:#}")),
        }
    }

    /// The next session number (`$N`) of this server: a count kept in the
    /// socket directory, under a lock, so two `new-session`s never share
    /// one.
    fn next_number(&self) -> Result<u32> {
        use std::io::{Read, Seek, Write};
        let path = self.runtime.join(format!(".tmux-{}.sessions", self.name));
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive)
            .context("locking the session count")?;
        let mut text = String::new();
        file.read_to_string(&mut text)?;
        let number = text.trim().parse::<u32>().unwrap_or(0) + 1;
        file.set_len(0)?;
        file.rewind()?;
        write!(file, "{number}")?;
        Ok(number)
    }

    /// Starts session `name`, detached (`new-session -d`): a workspace on
    /// a terminal of its own of `cols` x `rows`, which is detached as soon
    /// as it answers. Returns it.
    pub fn start(&self, name: &str, launch: &Launch) -> Result<Session> {
        let workspace = self.workspace_name(name);
        dir::check_name(&workspace)?;
        let number = self.next_number()?;
        let path = dir::socket_path(&self.runtime, &workspace);
        super::detached::start(&workspace, number, launch)?;
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Ok(Ok(json)) = script_client::call_at(
                &path,
                &Call::Tmux {
                    call: TmuxCall::State,
                },
                CALL_TIMEOUT,
            ) && let Ok(state) = serde_json::from_slice::<TmuxState>(&json)
            {
                return Ok(Session {
                    name: name.to_string(),
                    workspace,
                    path,
                    state,
                });
            }
            if Instant::now() > deadline {
                anyhow::bail!("the new workspace {workspace} did not answer");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
