//! The kitty graphics protocol (`ESC _ G <keys> ; <payload> ESC \`), both
//! ways: reading what programs in panes send, and writing to a user's
//! terminal that speaks it.
//!
//! - [`command`]: one command's control keys, typed, with kitty's defaults.
//! - [`transfer`]: a transmission's chunks gathered and base64-decoded,
//!   bounded.
//! - [`medium`]: data read from a file, a temporary file or shared memory,
//!   safely (regular files only, never waiting on a FIFO); off the loop.
//! - [`decode`]: the data made a [`RgbaImage`](crate::graphics::image::RgbaImage)
//!   (RGB, RGBA, PNG; zlib), sizes checked before allocating.
//! - [`reply`]: what the program hears back (`OK` or an error), as `i`,
//!   `I` and `q` ask.
//! - [`intake`]: one pane's side of the protocol: the pictures it named, a
//!   transmission in chunks, and each command carried out on
//!   [`intake::Pictures`] (the store and the pane's cells), with its reply.
//! - [`placeholder`]: Unicode placeholders: the cells that show a virtual
//!   placement (`U=1`) read, and a pane's virtual placements.
//! - [`frames`]: animation commands (`a=f`, `a=a`, `a=c`) read into what
//!   the store does with a picture's frames.
//! - [`encode`]: sending a picture under an id, placing it at a cell with
//!   a source rectangle and a size in cells, deleting placements.

pub mod command;
pub mod decode;
pub mod encode;
pub mod frames;
pub mod intake;
pub mod medium;
pub mod placeholder;
pub mod reply;
pub mod transfer;
