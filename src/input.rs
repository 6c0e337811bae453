//! From the user's keys and mouse to what happens: [`router`] dispatches
//! every event by mode (normal, prompt, copy mode, search) through the
//! keymap (`config::keymap`), and [`key_encoder`] turns keys meant for a
//! program into the bytes an xterm would send. [`copy_mode`], [`prompt`]
//! and [`search_all`] hold the modes' own state; [`search_worker`] runs
//! their regex searches off the render loop.

pub mod copy_mode;
pub mod key_encoder;
pub mod prompt;
pub mod router;
pub mod search_all;
pub mod search_worker;
