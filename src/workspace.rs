//! The workspace: tabs of layout trees over a set of panes, which pane has
//! focus, and the profiles it opens from and saves to.
//!
//! - `state`: the [`Workspace`] and its [`Tab`]s.
//! - [`layout`]: one tab's split tree and the rectangles it computes.
//! - [`floating`]: panes over the layout, in z-order.
//! - [`history_editor`]: a pane's history in `$EDITOR` (`C-b e`).
//! - [`pane_frame`]: boxes or dividers, and the content area they leave.
//! - [`place`]: a pane's directory and git branch, for the status bar.
//! - [`session`]: saving the workspace as a profile.
//! - [`naming`] and [`foreground`]: what a pane runs, for tab and border
//!   names and for asking before a busy pane is closed.
//!
//! Programs start through a [`Launcher`](crate::pane::process::Launcher);
//! `tests` drives the workspace headless with a fake one.

pub mod floating;
pub mod foreground;
pub mod history_editor;
pub mod layout;
pub mod naming;
pub mod pane_frame;
pub mod place;
pub mod session;
mod state;
#[cfg(test)]
mod tests;

pub use state::{
    ForegroundProbe, NAME_CHECK_DELAY, PaneLaunch, RESTART_DELAY, Tab, Workspace,
    WorkspaceSettings, content_rect,
};
