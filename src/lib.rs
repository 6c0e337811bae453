//! tilework: a terminal workspace. Many panes, each a program on a PTY
//! mirrored by a vt100 parser; one render loop; one write per frame.
//!
//! Where things live: the render loop is `app`, a pane is `pane` (over
//! `pty`), the layout tree is `layout`, the key encoder is `key_encoder`,
//! keys to actions is `keymap` + `input_router`, drawing is `ui` with
//! `pane_widget`, `status_bar` and `help_overlay`.

pub mod action;
pub mod app;
pub mod children;
pub mod cli;
pub mod clipboard;
pub mod config;
pub mod copy_mode;
pub mod event;
pub mod fast_forward;
pub mod file_error;
pub mod fps_overlay;
pub mod help_overlay;
pub mod history;
pub mod input_queue;
pub mod input_router;
pub mod key_encoder;
pub mod keymap;
pub mod layout;
pub mod logging;
pub mod metrics;
pub mod osc_guard;
pub mod output;
pub mod painter;
pub mod pane;
pub mod pane_widget;
pub mod parse_guard;
pub mod popups;
pub mod private_file;
pub mod profile;
pub mod prompt;
pub mod pty;
pub mod render_cache;
pub mod sanitize;
pub mod scrollback;
pub mod search_all;
pub mod session;
pub mod spawn;
pub mod status_bar;
pub mod terminal_guard;
pub mod terminal_queries;
pub mod typing_throttle;
pub mod ui;
pub mod workspace;
