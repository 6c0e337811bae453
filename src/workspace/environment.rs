//! What new panes get of the environment of the terminal that attached
//! last (tmux's `update-environment`): after a reattach over a new ssh
//! connection, a new pane's `git push` finds the new agent socket.

use super::Workspace;

impl Workspace {
    /// The variables an attaching terminal may refresh (the config's
    /// `update_environment`).
    pub fn set_update_environment(&mut self, names: Vec<String>) {
        self.update_names = names;
    }

    /// A terminal attached with `vars` (its values of the variables it was
    /// asked for; `None` where unset): panes opened from now on get those
    /// the config names. Panes already running keep theirs, as in tmux.
    pub fn update_environment(&mut self, vars: &[(String, Option<String>)]) {
        let allowed: Vec<(String, Option<String>)> = vars
            .iter()
            .filter(|(name, _)| self.update_names.iter().any(|n| n == name))
            .cloned()
            .collect();
        if !allowed.is_empty() {
            tracing::info!(
                vars = ?allowed.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
                "environment refreshed by an attaching terminal"
            );
            self.settings.env.refresh(&allowed);
        }
    }
}
