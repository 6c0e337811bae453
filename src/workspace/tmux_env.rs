//! What a pane is told so that tools built for tmux find this workspace:
//! `$TMUX` (`SOCKET,PID,SESSION` as tmux writes it), `$TMUX_PANE` (`%N`)
//! and, first on `$PATH`, a directory holding a `tmux` that is tilework
//! (see `crate::tmux_compat`). Set once the workspace knows its socket
//! (`tmux_compat = true`); until then, and with it off, panes get none.
//!
//! The identity is the workspace's, kept by its
//! [`Spawner`](crate::workspace::Spawner) with the rest of what new panes
//! start with; renamed at most by `C-b $`.

use std::path::PathBuf;

use crate::pane::program::pty::SpawnSpec;

/// Pane and window ids of session `$N` are `N * ID_BASE + n`: unique in a
/// tmux server of several workspaces, and a plain workspace's (`$0`) are
/// the ids `tilework list-panes` shows.
pub const ID_BASE: u64 = 10_000;

/// The variable a workspace started by `tmux new-session` finds its
/// session number in.
pub const SESSION_NUMBER_VAR: &str = "TILEWORK_TMUX_SESSION";

/// What this workspace tells its panes.
#[derive(Debug, Clone)]
pub struct TmuxIdentity {
    /// The workspace's socket: `tmux` in a pane reaches it there.
    pub socket: PathBuf,
    /// The directory holding the `tmux` link, put first on `PATH`.
    pub bin_dir: Option<PathBuf>,
}

/// The workspace's session number (`$N`), kept by its
/// [`Spawner`](crate::workspace::Spawner): given by `tmux new-session`,
/// else the saved one of a restored workspace, else 0.
#[derive(Debug, Clone, Copy)]
pub struct SessionNumber {
    number: u32,
    given: bool,
}

impl SessionNumber {
    /// The number `tmux new-session` gave, if it started this process;
    /// else 0 until a restore adopts the saved one.
    pub fn from_env() -> Self {
        let given = std::env::var(SESSION_NUMBER_VAR)
            .ok()
            .and_then(|n| n.parse().ok());
        Self {
            number: given.unwrap_or(0),
            given: given.is_some(),
        }
    }

    pub fn get(self) -> u32 {
        self.number
    }

    /// A restored workspace keeps the session number it was saved with
    /// (unless `tmux new-session` gave one): called before its panes start.
    pub fn adopt(&mut self, saved: u32) {
        if !self.given {
            self.number = saved;
        }
    }
}

/// The `%N` (or `@N`) number of pane (or tab) `n` of session `session`.
pub fn tmux_id(session: u32, n: u64) -> u64 {
    u64::from(session) * ID_BASE + n
}

/// Gives pane `script_id`'s program the variables, unless it has them
/// (a respawn set them already, for the id it keeps).
pub fn add_pane_vars(identity: Option<(&TmuxIdentity, u32)>, spec: &mut SpawnSpec, script_id: u32) {
    if spec.env.iter().any(|(name, _)| name == "TMUX_PANE") {
        return;
    }
    set_pane_vars(identity, spec, script_id);
}

/// Gives pane `script_id`'s program the variables of `identity` and
/// session number, in place of any (none without an identity).
pub fn set_pane_vars(identity: Option<(&TmuxIdentity, u32)>, spec: &mut SpawnSpec, script_id: u32) {
    let Some((identity, session)) = identity else {
        return;
    };
    let tmux = format!(
        "{},{},{session}",
        identity.socket.display(),
        std::process::id()
    );
    let pane = format!("%{}", tmux_id(session, u64::from(script_id)));
    spec.env
        .retain(|(name, _)| name != "TMUX" && name != "TMUX_PANE");
    spec.env.push(("TMUX".into(), tmux));
    spec.env.push(("TMUX_PANE".into(), pane));
    spec.unset
        .retain(|name| name != "TMUX" && name != "TMUX_PANE");
    if let Some(dir) = &identity.bin_dir {
        let dir = dir.to_string_lossy().into_owned();
        let path = spec
            .env
            .iter()
            .find(|(name, _)| name == "PATH")
            .map(|(_, value)| value.clone())
            .or_else(|| std::env::var("PATH").ok())
            .unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into());
        if path.split(':').next() != Some(dir.as_str()) {
            spec.env.retain(|(name, _)| name != "PATH");
            spec.env.push(("PATH".into(), format!("{dir}:{path}")));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> SpawnSpec {
        SpawnSpec {
            argv: vec!["sh".into()],
            cwd: None,
            env: vec![("PATH".into(), "/usr/bin:/bin".into())],
            unset: vec!["TMUX".into()],
        }
    }

    fn var<'a>(spec: &'a SpawnSpec, name: &str) -> Option<&'a str> {
        spec.env
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    #[test]
    fn without_an_identity_a_pane_is_told_nothing() {
        let mut s = spec();
        add_pane_vars(None, &mut s, 3);
        assert_eq!(var(&s, "TMUX"), None);
        assert_eq!(var(&s, "PATH"), Some("/usr/bin:/bin"));
    }

    #[test]
    fn a_pane_finds_the_socket_its_id_and_the_tmux_link_first_on_path() {
        let identity = TmuxIdentity {
            socket: PathBuf::from("/run/tw/main"),
            bin_dir: Some(PathBuf::from("/run/tw/.tmux-bin")),
        };
        let mut s = spec();
        add_pane_vars(Some((&identity, 2)), &mut s, 3);
        let tmux = var(&s, "TMUX").unwrap_or_default();
        assert!(
            tmux.starts_with("/run/tw/main,") && tmux.ends_with(",2"),
            "{tmux}"
        );
        let pane = format!("%{}", tmux_id(2, 3));
        assert_eq!(var(&s, "TMUX_PANE"), Some(pane.as_str()));
        assert_eq!(var(&s, "PATH"), Some("/run/tw/.tmux-bin:/usr/bin:/bin"));
        assert!(s.unset.is_empty(), "TMUX is set, not unset");
        // A respawn's spec keeps the id it was given; a rename's new
        // socket replaces the old one.
        add_pane_vars(Some((&identity, 2)), &mut s, 4);
        assert_eq!(var(&s, "TMUX_PANE"), Some(pane.as_str()));
        let moved = TmuxIdentity {
            socket: PathBuf::from("/run/tw/renamed"),
            ..identity
        };
        set_pane_vars(Some((&moved, 2)), &mut s, 3);
        assert!(
            var(&s, "TMUX")
                .unwrap_or_default()
                .starts_with("/run/tw/renamed,")
        );
        assert_eq!(s.env.iter().filter(|(n, _)| n == "TMUX").count(), 1);
        assert_eq!(var(&s, "PATH"), Some("/run/tw/.tmux-bin:/usr/bin:/bin"));
    }
}
