//! From the user's keys and mouse to what happens: [`keymap`] turns keys
//! into [`action`]s, [`router`] dispatches every event by mode (normal,
//! prompt, copy mode, search), [`key_encoder`] turns keys for programs into
//! the bytes an xterm would send. [`copy_mode`], [`prompt`] and
//! [`search_all`] are the modes' own state.

pub mod action;
pub mod copy_mode;
pub mod key_encoder;
pub mod keymap;
pub mod prompt;
pub mod router;
pub mod search_all;
