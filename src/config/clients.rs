//! Settings about several terminals attached to one workspace: whose size
//! the layout follows (`window_size`), and which variables an attaching
//! terminal brings for new panes (`update_environment`).

/// Whose size the layout takes when several terminals of different sizes
/// are attached (tmux's `window-size`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WindowSize {
    /// The terminal that last typed (or attached).
    #[default]
    Latest,
    /// The smallest columns and the smallest rows: every terminal shows
    /// all of it.
    Smallest,
    /// The largest: smaller terminals show part of it.
    Largest,
}

impl WindowSize {
    pub const NAMES: [&'static str; 3] = ["latest", "smallest", "largest"];

    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "latest" => Some(Self::Latest),
            "smallest" => Some(Self::Smallest),
            "largest" => Some(Self::Largest),
            _ => None,
        }
    }

    /// The layout's size for terminals of `sizes` (columns, rows), the
    /// latest's first-class: `latest` is the size of the one that last
    /// typed. `None` without terminals.
    pub fn pick(self, latest: Option<(u16, u16)>, sizes: &[(u16, u16)]) -> Option<(u16, u16)> {
        let cols = sizes.iter().map(|s| s.0);
        let rows = sizes.iter().map(|s| s.1);
        match self {
            WindowSize::Latest => latest.or_else(|| sizes.last().copied()),
            WindowSize::Smallest => Some((cols.min()?, rows.min()?)),
            WindowSize::Largest => Some((cols.max()?, rows.max()?)),
        }
    }
}

/// Whether the attached terminals share one view of the workspace (the
/// tab shown, the focused pane), as tmux's clients of one session do, or
/// each has its own, as zellij's multiplayer clients do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClientViews {
    #[default]
    Shared,
    Own,
}

impl ClientViews {
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "shared" => Some(Self::Shared),
            "own" => Some(Self::Own),
            _ => None,
        }
    }
}

/// What tmux's `update-environment` names by default, and what terminals
/// and desktops set that a new pane should see fresh.
pub const DEFAULT_UPDATE_ENVIRONMENT: [&str; 13] = [
    "DISPLAY",
    "KRB5CCNAME",
    "SSH_ASKPASS",
    "SSH_AUTH_SOCK",
    "SSH_AGENT_PID",
    "SSH_CONNECTION",
    "WINDOWID",
    "XAUTHORITY",
    "WAYLAND_DISPLAY",
    "COLORTERM",
    "TERM_PROGRAM",
    "TERM_PROGRAM_VERSION",
    "SSH_TTY",
];

pub fn default_update_environment() -> Vec<String> {
    DEFAULT_UPDATE_ENVIRONMENT
        .iter()
        .map(|s| s.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_policy_picks_its_size() {
        let sizes = [(80, 24), (120, 30), (100, 50)];
        assert_eq!(
            WindowSize::Latest.pick(Some((120, 30)), &sizes),
            Some((120, 30))
        );
        assert_eq!(WindowSize::Latest.pick(None, &sizes), Some((100, 50)));
        assert_eq!(WindowSize::Smallest.pick(None, &sizes), Some((80, 24)));
        assert_eq!(WindowSize::Largest.pick(None, &sizes), Some((120, 50)));
        assert_eq!(WindowSize::Smallest.pick(None, &[]), None);
        for name in WindowSize::NAMES {
            assert!(WindowSize::parse(name).is_some());
        }
    }
}
