//! Upgrades without losing a program (issue 48): `tilework upgrade` moves a
//! running workspace into the binary that was invoked. The old process
//! hands over the listening socket, each pane's PTY master and each
//! attached terminal's descriptors (`SCM_RIGHTS`), and the panes' history,
//! sizes, commands and live screens from memory; the programs keep
//! running on the same PTYs; then the old process exits.
//!
//! - [`state`]: what passes besides descriptors, in the crash-restore
//!   code's formats, with the state format the reader checks first.
//! - [`wire`]: the conversation on the socket, and its deadlines (a
//!   handoff that fails half-way leaves the workspace in the old process).
//! - [`take`]: the new process's side, and the launcher that takes the
//!   programs over.
//! - [`request`]: `tilework upgrade [NAME|--all]`.
//! - [`reaper`]: what the old process becomes while programs it started
//!   run, so that their exit statuses reach the workspace.
//!
//! The old process's side runs on its loop (`app::event_loop::upgrade_handoff`).

pub mod reaper;
pub mod request;
pub mod state;
pub mod take;
pub mod wire;
