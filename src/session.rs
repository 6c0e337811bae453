//! Sessions: the workspace outlives its terminal.
//!
//! `tilework` starts the workspace as a process of its own (in its own
//! session, without a controlling terminal) and attaches the terminal it
//! runs in; `C-b d` or a lost terminal detaches, `tilework attach` brings a
//! terminal back. The workspace uses an attached terminal's descriptors
//! directly (passed over a Unix socket with `SCM_RIGHTS`), so keys and
//! frames take the same path as without sessions; the client in the
//! terminal only waits and forwards signals.
//!
//! - [`dir`]: where sockets live (private per-user directory) and names.
//! - [`claim`]: taking a name for a new workspace, and removing dead
//!   sockets, safely when several `tilework`s start at once.
//! - [`proto`]: the messages on the socket, and passing descriptors.
//! - [`conversation`]: each peer's deadline and each uid's share of the
//!   socket (a thread per conversation: no peer waits on another).
//! - [`host`]: the workspace's side (listener, links, attach, detach);
//!   [`agent_link`]: the panes' `SSH_AUTH_SOCK`, following the terminals.
//! - [`attach_process`]: the attach process, the terminal's side (`tilework`, `attach`, `ls`, `kill`).
//! - [`script`]: scripts' calls on the socket (`tilework action`,
//!   `send-keys`, `run`, `capture`, `list-panes`); [`script_host`] serves
//!   them in the workspace, [`script_client`] makes them;
//!   [`command_calls`]: what the calls about commands carry
//!   (`capture --command`, `wait`), [`script_commands`] makes them.

pub mod agent_link;
pub mod attach_process;
pub mod claim;
pub mod command_calls;
pub mod conversation;
pub mod dir;
pub mod host;
pub mod joining;
pub mod missing_workspace;
pub mod pane_link;
pub mod proto;
pub mod script;
pub mod script_client;
pub mod script_commands;
pub mod script_host;
pub mod small_wait;
pub mod tmux_call;
pub mod workspace_child;
pub mod workspace_list;
