//! Turning "what the user asked to run" into a [`SpawnSpec`]: which shell,
//! which environment, which directory.

use std::path::PathBuf;

use crate::pane::program::pty::SpawnSpec;

/// The agent variable a workspace may give a stable path of its own.
const AGENT_VAR: &str = "SSH_AUTH_SOCK";

/// Settings every child gets.
#[derive(Debug, Clone)]
pub struct ChildEnv {
    /// The shell for panes without a command, and for `sh -c`-style lines.
    pub shell: String,
    pub term: String,
    /// Variables the last attaching terminal brought (`update_environment`):
    /// a value, or `None` for one it had unset.
    fresh: Vec<(String, Option<String>)>,
    /// The workspace's own `SSH_AUTH_SOCK` (a link that follows the
    /// terminals' agents: `session::agent_link`), over any other.
    agent_socket: Option<PathBuf>,
    /// How other machines are reached (`[remote]`): for a profile's
    /// remote panes.
    remote: crate::config::remote_settings::Remote,
}

impl ChildEnv {
    /// `configured` (from the config file) wins, then `$SHELL`, then `/bin/sh`.
    pub fn new(configured: Option<&str>, term: &str) -> Self {
        let shell = configured
            .map(str::to_string)
            .or_else(|| std::env::var("SHELL").ok().filter(|s| !s.is_empty()))
            .unwrap_or_else(|| "/bin/sh".to_string());
        Self {
            shell,
            term: term.to_string(),
            fresh: Vec::new(),
            agent_socket: None,
            remote: crate::config::remote_settings::Remote::default(),
        }
    }

    /// `[remote]`, for the remote panes a profile opens.
    pub fn set_remote(&mut self, remote: crate::config::remote_settings::Remote) {
        self.remote = remote;
    }

    pub fn remote(&self) -> &crate::config::remote_settings::Remote {
        &self.remote
    }

    /// Every child's `SSH_AUTH_SOCK` is `path` from now on.
    pub fn set_agent_socket(&mut self, path: PathBuf) {
        self.agent_socket = Some(path);
    }

    /// New panes get `vars` as a terminal that attached had them (tmux's
    /// `update-environment`): each value over what the workspace started
    /// with, each `None` removed.
    pub fn refresh(&mut self, vars: &[(String, Option<String>)]) {
        for (name, value) in vars {
            self.fresh.retain(|(n, _)| n != name);
            self.fresh.push((name.clone(), value.clone()));
        }
    }

    fn unset(&self) -> Vec<String> {
        self.fresh
            .iter()
            .filter(|(n, v)| v.is_none() && n != "TERM" && n != "TILEWORK")
            .filter(|(n, _)| self.agent_socket.is_none() || n != AGENT_VAR)
            .map(|(n, _)| n.clone())
            .collect()
    }

    fn env(&self) -> Vec<(String, String)> {
        let mut env: Vec<(String, String)> = vec![
            ("TERM".into(), self.term.clone()),
            ("COLORTERM".into(), "truecolor".into()),
            // The parser has no DEC line-drawing charset: this makes ncurses draw
            // boxes (htop, mc, dialog) with Unicode lines instead of `lqqk`.
            ("NCURSES_NO_UTF8_ACS".into(), "1".into()),
            ("TILEWORK".into(), std::process::id().to_string()),
        ];
        // Wide characters and Unicode boxes need a UTF-8 locale.
        let has_locale = ["LC_ALL", "LC_CTYPE", "LANG"]
            .iter()
            .any(|v| std::env::var(v).is_ok_and(|s| !s.is_empty()));
        if !has_locale {
            env.push(("LANG".into(), "C.UTF-8".into()));
        }
        // What the attaching terminal brought wins (its COLORTERM says what
        // the colours finally reach), except the pane's TERM and TILEWORK,
        // which describe tilework itself.
        for (name, value) in &self.fresh {
            if name == "TERM" || name == "TILEWORK" {
                continue;
            }
            env.retain(|(n, _)| n != name);
            if let Some(value) = value {
                env.push((name.clone(), value.clone()));
            }
        }
        if let Some(path) = &self.agent_socket {
            env.retain(|(n, _)| n != AGENT_VAR);
            env.push((AGENT_VAR.into(), path.display().to_string()));
        }
        env
    }

    /// The user's shell, interactive.
    pub fn shell(&self, cwd: Option<PathBuf>) -> (SpawnSpec, String) {
        let label = self
            .shell
            .rsplit('/')
            .next()
            .unwrap_or(&self.shell)
            .to_string();
        (
            SpawnSpec {
                argv: vec![self.shell.clone()],
                cwd,
                env: self.env(),
                unset: self.unset(),
            },
            label,
        )
    }

    /// A shell command line, run with `sh -c` (like tmux and `-c`).
    pub fn command_line(&self, line: &str, cwd: Option<PathBuf>) -> (SpawnSpec, String) {
        (
            SpawnSpec {
                argv: vec!["/bin/sh".into(), "-c".into(), line.to_string()],
                cwd,
                env: self.env(),
                unset: self.unset(),
            },
            line.to_string(),
        )
    }

    /// A command that waits for Enter before it runs: restored sessions show
    /// commands ready to run instead of silently running them again.
    pub fn on_enter(&self, line: &str, cwd: Option<PathBuf>) -> (SpawnSpec, String) {
        // The command travels as $0, never spliced into the script.
        let script = r#"printf '\033[1m$ %s\033[m\n\033[2m(press Enter to run it)\033[m\n' "$0"; read -r _; exec /bin/sh -c "$0""#;
        (
            SpawnSpec {
                argv: vec![
                    "/bin/sh".into(),
                    "-c".into(),
                    script.into(),
                    line.to_string(),
                ],
                cwd,
                env: self.env(),
                unset: self.unset(),
            },
            line.to_string(),
        )
    }

    /// A program and its arguments, run directly (`tilework -- CMD ARGS`).
    pub fn argv(&self, argv: &[String], cwd: Option<PathBuf>) -> (SpawnSpec, String) {
        (
            SpawnSpec {
                argv: argv.to_vec(),
                cwd,
                env: self.env(),
                unset: self.unset(),
            },
            argv.join(" "),
        )
    }
}

/// The working directory of a running pane: what the shell reported (OSC 7),
/// else what the kernel says about the process.
pub fn current_dir(osc7: Option<&str>, pid: Option<u32>) -> Option<PathBuf> {
    if let Some(dir) = osc7.map(PathBuf::from).filter(|d| d.is_dir()) {
        return Some(dir);
    }
    crate::os::cwd_of(pid?)
}
