//! The workspace: tabs of layout trees over a set of panes, which pane has
//! focus, and the profiles it opens from and saves to.
//!
//! - `workspace_core`: the [`Workspace`] itself: it keeps the tabs and
//!   the focus, carries out each action, and hands out what has an owner:
//!   [`Tabs`], [`Panes`], [`Tiling`], [`Attention`], [`Ending`].
//! - [`Tabs`] (`tabs`): the list of tabs, which is shown and which was
//!   before (`last-tab`), a terminal's [`view::View`] of them; `tab`: a
//!   [`Tab`] (its split tree, floating panes and focus); `tab_list`: a
//!   change to the shown tab's geometry, closing a tab with its panes.
//! - [`Tiling`] (`tiling`): where the panes go and how they are framed;
//!   [`pane_frame`]: boxes or dividers, and the content area they leave.
//! - [`Panes`]: the pane table, `max_panes`, and what was learnt of each
//!   pane; its [`Spawner`] (`spawner`): what new panes start with
//!   (launcher, settings, environment, colours, `$TMUX` from
//!   [`tmux_env`]).
//! - `pane_launch`: what a pane runs ([`PaneLaunch`]); `launch`: how new
//!   panes join; `profile_open`: a profile's tabs planned and started.
//! - `member`: what the workspace keeps beside each pane; `pane_life`: a
//!   pane's program ends, restarts, or the pane closes; [`Ending`]
//!   (`ending`): when the workspace ends, with which status.
//! - [`grip`]: what the mouse holds on a border or floating pane.
//! - [`naming`] and [`foreground`]: what a pane runs, for tab and border
//!   names and for asking before a busy pane is closed; [`Names`]: when
//!   and how the workspace looks; `pane_names`: the looks and the names
//!   they found; [`name_lookup`]: the look itself, on a thread of its own.
//! - [`layout`]: one tab's split tree and the rectangles it computes.
//! - [`floating`]: panes over the layout, in z-order.
//! - [`history_editor`]: a pane's history in `$EDITOR` (`C-b e`).
//! - `pane_limit`: how many panes may be open.
//! - [`cwd`]: a pane's directory and git branch, for the status bar;
//!   [`Attention`]: programs' notifications waiting to be seen (kept in
//!   `notices`) and the workspace's own notices.
//! - [`profile_save`]: saving the workspace as a profile (a session is
//!   detach and attach, in [`crate::session`]).
//!
//! Programs start through a [`Launcher`](crate::pane::program::process::Launcher);
//! `tests` drives the workspace headless with a fake one.

mod attention;
pub mod cwd;
mod ending;
#[cfg(test)]
pub mod fake_workspace;
pub mod floating;
pub mod foreground;
pub mod grip;
pub mod history_editor;
mod launch;
pub mod layout;
mod member;
pub mod name_lookup;
mod names;
pub mod naming;
mod notices;
pub mod pane_frame;
mod pane_launch;
mod pane_life;
mod pane_limit;
pub mod pane_mark;
pub mod pane_moves;
mod pane_names;
mod panes;
mod profile_open;
pub mod profile_save;
mod remote_launch;
mod spawner;
pub mod stable_ids;
mod tab;
mod tab_list;
mod tabs;
mod tiling;
pub mod tmux_env;
pub mod tmux_ops;
pub mod view;
mod wanted_ids;
mod workspace_core;
#[cfg(test)]
mod workspace_tests;

pub use attention::Attention;
pub use ending::Ending;
pub use foreground::ForegroundProbe;
pub use names::NAME_CHECK_DELAY;
pub use names::Names;
pub use pane_frame::content_rect;
pub use pane_launch::PaneLaunch;
pub use pane_life::{MAX_FAILURES, MAX_RESTART_DELAY, RESTART_DELAY, restart_delay};
pub use panes::Panes;
pub use spawner::{Spawner, WorkspaceSettings};
pub use tab::Tab;
pub use tabs::Tabs;
pub use tiling::Tiling;
pub use workspace_core::Workspace;
