//! Pictures in panes: what programs draw with sixel and the kitty graphics
//! protocol, kept beside the pane's text and drawn to each user's terminal
//! in the protocol it speaks.
//!
//! - [`image`]: a decoded picture, the one form every protocol becomes.
//! - [`kitty`]: the kitty graphics protocol: commands read, pictures
//!   decoded, replies, and the encoder for terminals that speak it.

pub mod image;
pub mod kitty;
