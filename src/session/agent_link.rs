//! A workspace's own `SSH_AUTH_SOCK`: a symlink in the private runtime
//! directory (`agents/NAME`) that every pane gets, pointed at the agent of
//! the terminal that attached or typed last (wezterm's
//! `mux_enable_ssh_agent`). A reattach over a new ssh connection brings a
//! new forwarded agent socket; panes opened before it keep the same path,
//! and `git push` there reaches the new agent.

use std::path::{Path, PathBuf};

/// The variable the link stands in for.
pub const AGENT_VAR: &str = "SSH_AUTH_SOCK";

pub struct AgentLink {
    /// The symlink. Its name stays the workspace's first one: panes hold
    /// the path, whatever the workspace is renamed to.
    path: PathBuf,
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
        Self {
            path: runtime_dir.join("agents").join(name),
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

    fn link_path(base: &Path) -> PathBuf {
        base.join("agents").join("w")
    }
}
