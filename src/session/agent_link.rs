//! A workspace's own `SSH_AUTH_SOCK`: a symlink in the private runtime
//! directory (`.agents/NAME`) that every pane gets, pointed at the agent of
//! the terminal that attached or typed last (wezterm's
//! `mux_enable_ssh_agent`). A reattach over a new ssh connection brings a
//! new forwarded agent socket; panes opened before it keep the same path,
//! and `git push` there reaches the new agent.
//!
//! The links' directory sits beside the workspaces' sockets, so its name
//! starts with `.`, which no workspace's may. Older tileworks kept them in
//! `agents/`, the name of a workspace one could start: panes an upgrade
//! carries over from one hold that path in their environment, so a link
//! of this workspace's found there is pointed too, for as long as the
//! workspace lives, and the directory is removed once empty.

use std::path::{Path, PathBuf};

/// The variable the link stands in for.
pub const AGENT_VAR: &str = "SSH_AUTH_SOCK";

/// The links' directory in the runtime directory: not a workspace's name.
const LINK_DIR: &str = ".agents";

/// Where older tileworks kept the links.
const OLD_LINK_DIR: &str = "agents";

pub struct AgentLink {
    /// The symlink. Its name stays the workspace's first one: panes hold
    /// the path, whatever the workspace is renamed to.
    path: PathBuf,
    /// This workspace's link in [`OLD_LINK_DIR`], found at start: panes an
    /// upgrade carried over from an older tilework use it.
    old_path: Option<PathBuf>,
    /// Each attached terminal's agent socket (terminals without one are
    /// not listed).
    agents: Vec<(u64, String)>,
    /// Where the symlink points now.
    current: Option<String>,
}

impl AgentLink {
    /// The link of workspace `name` whose socket is in `runtime_dir`; made
    /// once a terminal brings an agent.
    pub fn new(runtime_dir: &Path, name: &str) -> Self {
        let old_path = runtime_dir.join(OLD_LINK_DIR).join(name);
        let old_path = std::fs::symlink_metadata(&old_path)
            .is_ok_and(|m| m.file_type().is_symlink())
            .then_some(old_path);
        Self {
            path: runtime_dir.join(LINK_DIR).join(name),
            old_path,
            agents: Vec::new(),
            current: None,
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Terminal `link` attached with `env` (its `update_environment`
    /// values): its agent, if it has one, is the panes' from now on.
    pub fn attached(&mut self, link: u64, env: &[(String, Option<String>)]) {
        let agent = env
            .iter()
            .find(|(name, _)| name == AGENT_VAR)
            .and_then(|(_, value)| value.clone())
            .filter(|value| Path::new(value).is_absolute());
        let Some(agent) = agent else {
            return;
        };
        self.agents.retain(|(l, _)| *l != link);
        self.agents.push((link, agent.clone()));
        self.point_at(&agent);
    }

    /// Terminal `link` typed (and the one before was another): its agent,
    /// if it has one, is the panes'.
    pub fn typed(&mut self, link: u64) {
        if let Some((_, agent)) = self.agents.iter().find(|(l, _)| *l == link) {
            let agent = agent.clone();
            self.point_at(&agent);
        }
    }

    /// Terminal `link` went away: its agent goes with it (the link stays
    /// where it points until another terminal brings one).
    pub fn left(&mut self, link: u64) {
        self.agents.retain(|(l, _)| *l != link);
    }

    /// The workspace ends.
    pub fn remove(&self) {
        if self.current.is_some() {
            let _ = std::fs::remove_file(&self.path);
        }
        if let Some(old) = &self.old_path {
            let _ = std::fs::remove_file(old);
            if let Some(dir) = old.parent() {
                remove_old_dir_if_empty(dir);
            }
        }
    }

    /// Points the symlink at `agent`: a new link renamed over the old one,
    /// so a pane's ssh never finds none. A failure is logged (the panes'
    /// agent is then the one before).
    fn point_at(&mut self, agent: &str) {
        if self.current.as_deref() == Some(agent) {
            return;
        }
        match replace_link(&self.path, agent) {
            Ok(()) => {
                tracing::info!(link = %self.path.display(), "the panes' agent socket follows a terminal");
                self.current = Some(agent.to_string());
            }
            Err(err) => tracing::warn!("pointing the panes' agent socket: {err:#}"),
        }
        if let Some(old) = &self.old_path
            && let Err(err) = replace_link(old, agent)
        {
            tracing::warn!("pointing the older tilework's agent socket: {err:#}");
        }
    }
}

/// Removes an older tilework's link directory in `runtime_dir` when
/// nothing is left in it: it holds the name `agents`, which a workspace
/// may have. Called under the socket directory's lock before that name is
/// taken.
pub fn remove_old_link_dir(runtime_dir: &Path, name: &str) {
    if name == OLD_LINK_DIR {
        remove_old_dir_if_empty(&runtime_dir.join(OLD_LINK_DIR));
    }
}

fn remove_old_dir_if_empty(dir: &Path) {
    // Only a real directory (rmdir refuses one with links still in it).
    if std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) && std::fs::remove_dir(dir).is_ok()
    {
        tracing::info!("removed an older tilework's empty {}", dir.display());
    }
}

fn replace_link(path: &Path, agent: &str) -> anyhow::Result<()> {
    use anyhow::Context;
    let dir = path.parent().context("the agent link has no directory")?;
    // Private like the runtime directory it is in.
    super::dir::ensure_private_dir(dir)?;
    let name = path.file_name().context("the agent link has no name")?;
    let temporary = dir.join(format!(".{}.new", name.to_string_lossy()));
    let _ = std::fs::remove_file(&temporary);
    std::os::unix::fs::symlink(agent, &temporary)
        .with_context(|| format!("making {}", temporary.display()))?;
    std::fs::rename(&temporary, path).with_context(|| format!("renaming to {}", path.display()))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn agent_env(path: &str) -> Vec<(String, Option<String>)> {
        vec![(AGENT_VAR.to_string(), Some(path.to_string()))]
    }

    #[test]
    fn the_link_follows_the_terminal_that_attached_or_typed_last() {
        let base = std::env::temp_dir().join(format!("tilework-agent-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let mut link = AgentLink::new(&base, "w");
        let target = || std::fs::read_link(link_path(&base)).unwrap();
        // A terminal without an agent makes no link.
        link.attached(1, &[(AGENT_VAR.to_string(), None)]);
        assert!(std::fs::symlink_metadata(link_path(&base)).is_err());
        link.attached(2, &agent_env("/tmp/ssh-a/agent.1"));
        assert_eq!(target(), Path::new("/tmp/ssh-a/agent.1"));
        link.attached(3, &agent_env("/tmp/ssh-b/agent.2"));
        assert_eq!(target(), Path::new("/tmp/ssh-b/agent.2"));
        link.typed(2);
        assert_eq!(target(), Path::new("/tmp/ssh-a/agent.1"));
        // One without an agent typing leaves it where it is.
        link.typed(1);
        assert_eq!(target(), Path::new("/tmp/ssh-a/agent.1"));
        link.left(2);
        link.typed(2);
        assert_eq!(target(), Path::new("/tmp/ssh-a/agent.1"));
        link.typed(3);
        assert_eq!(target(), Path::new("/tmp/ssh-b/agent.2"));
        link.remove();
        assert!(std::fs::symlink_metadata(link_path(&base)).is_err());
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn an_older_tileworks_link_is_pointed_too_and_its_directory_removed_once_empty() {
        let base = std::env::temp_dir().join(format!("tilework-agent-old-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let old_dir = base.join("agents");
        // Private, as the older tilework made it.
        std::fs::create_dir_all(&base).unwrap();
        crate::os::ensure_private_dir(&old_dir).unwrap();
        std::os::unix::fs::symlink("/tmp/ssh-old/agent.0", old_dir.join("w")).unwrap();
        std::os::unix::fs::symlink("/tmp/ssh-old/agent.0", old_dir.join("other")).unwrap();
        let mut link = AgentLink::new(&base, "w");
        // A workspace without one there leaves the older ones alone.
        let mut fresh = AgentLink::new(&base, "fresh");
        fresh.attached(1, &agent_env("/tmp/ssh-c/agent.3"));
        assert!(std::fs::symlink_metadata(old_dir.join("fresh")).is_err());
        link.attached(2, &agent_env("/tmp/ssh-a/agent.1"));
        for path in [link_path(&base), old_dir.join("w")] {
            assert_eq!(
                std::fs::read_link(&path).unwrap(),
                Path::new("/tmp/ssh-a/agent.1")
            );
        }
        // Another older workspace's link is still there: the directory stays.
        link.remove();
        assert!(std::fs::symlink_metadata(old_dir.join("w")).is_err());
        remove_old_link_dir(&base, "agents");
        assert!(old_dir.is_dir());
        std::fs::remove_file(old_dir.join("other")).unwrap();
        remove_old_link_dir(&base, "not-agents");
        assert!(old_dir.is_dir());
        remove_old_link_dir(&base, "agents");
        assert!(!old_dir.exists());
        std::fs::remove_dir_all(&base).unwrap();
    }

    fn link_path(base: &Path) -> PathBuf {
        base.join(".agents").join("w")
    }
}
