//! [`Names`]: when and how the workspace looks at what its panes run,
//! for their names (see `pane_names` for what each look finds).

use std::time::{Duration, Instant};

use crate::pane::Pane;
use crate::workspace::foreground::{self, Foreground, ForegroundProbe};
use crate::workspace::name_lookup::NameLookup;

/// After output or keys, how long before the workspace looks at what the
/// panes run (for names): a program started by a key has begun by then,
/// and a flood costs at most one look per this long.
pub const NAME_CHECK_DELAY: Duration = Duration::from_millis(300);

/// The programs vim-tmux-navigator's keys belong to when in front.
const NAVIGATORS: &[&str] = &[
    "vim", "nvim", "vi", "view", "vimdiff", "nvimdiff", "gvim", "fzf",
];

/// When and how the workspace looks at what its panes run.
pub struct Names {
    /// How a pane's foreground program is found in place (tests give one
    /// of their own: their fake programs have no process).
    pub(super) probe: ForegroundProbe,
    /// Looks at what the panes run off the loop (`None`: in place, with
    /// `probe`).
    pub(super) lookup: Option<NameLookup>,
    /// When to look again.
    pub(super) due: Option<Instant>,
}

impl Names {
    pub(super) fn new() -> Self {
        Self {
            probe: Box::new(|pane: &Pane| pane.program().pid().and_then(foreground::of_process)),
            lookup: None,
            due: None,
        }
    }

    /// Learns panes' foreground programs from `probe` instead of the
    /// kernel (tests, whose fake programs have no process).
    #[cfg(test)]
    pub fn set_foreground_probe(&mut self, probe: ForegroundProbe) {
        self.probe = probe;
    }

    /// What runs in `pane`'s foreground now, asked in place.
    pub(super) fn foreground(&self, pane: &Pane) -> Option<Foreground> {
        (self.probe)(pane)
    }

    /// Output or keys: what the panes run may change; look again a
    /// moment later ([`NAME_CHECK_DELAY`]).
    pub fn may_change(&mut self, now: Instant) {
        self.due.get_or_insert(now + NAME_CHECK_DELAY);
    }

    /// When the loop is to call
    /// [`Panes::check_names`](crate::workspace::Panes::check_names).
    pub fn next_check(&self) -> Option<Instant> {
        self.due
    }

    /// Whether `pane`'s foreground program takes vim-tmux-navigator's keys
    /// itself (`navigate-*`): vim, neovim, fzf. Asked of the kernel when
    /// the key comes (`/proc`, as `C-b x` asks).
    pub fn runs_navigator(&self, pane: &Pane) -> bool {
        self.foreground(pane)
            .is_some_and(|fg| NAVIGATORS.contains(&fg.program.as_str()))
    }

    /// Looks at what the panes run on a thread of `lookup`'s from now on,
    /// never on the loop (see `name_lookup`).
    pub fn look_up_with(&mut self, lookup: NameLookup) {
        self.lookup = Some(lookup);
    }
}
