//! Nothing lost across a reboot: each workspace of a session is saved as
//! it changes, and comes back after a crash, a kill or a reboot with
//! `tilework attach NAME`.
//!
//! - [`dirs`]: where (a private directory per workspace under
//!   `$XDG_STATE_HOME/tilework/saved/`), files private and never reached
//!   through a link, forgetting.
//! - [`block_file`]: a pane's history as checksummed records of the ring's
//!   sealed blocks.
//! - [`manifest`]: the layout (a profile's text) and which files hold each
//!   pane's history, replaced whole.
//! - [`tap`]: the loop's side, which hands blocks and debounced snapshots
//!   over without waiting; [`saver`]: the thread that writes them.
//! - [`restore`]: reading it all back into a new workspace; [`relaunch`]:
//!   the job a shell ran, typed at its prompt again.
//! - [`erase`]: output a program erased (ED 3) or the user had forgotten
//!   kept off the disk.
//! - [`size_file`]: the sizes each pane's history was printed at, so that
//!   it is replayed at those sizes when it comes back.
//! - [`marks_file`]: each pane's commands (OSC 133 marks), so they come
//!   back with the history.

pub mod block_file;
pub mod dirs;
pub mod erase;
pub mod handed;
pub mod manifest;
pub mod marks_file;
pub mod relaunch;
pub mod restore;
pub mod saver;
pub mod size_file;
pub mod tap;
pub mod waiting;

pub use restore::{Restored, is_saved, load};
pub use tap::Tap;
