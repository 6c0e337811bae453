//! What the user configures and how it is read: the config file
//! (`settings`: [`Config`]) and the text `--print-config` prints
//! (`default_toml`), the vocabulary of bindings ([`action`], [`keymap`], copy mode's
//! [`copy_keymap`]),
//! hooks run when something happens ([`hooks`]), the look (`appearance`: theme, borders, status bar; the status
//! `clock`), colours as terminals report them (`colour`), what to do when
//! the terminal hangs up ([`OnHangup`]), workspace profiles ([`profile`]),
//! reading either file and errors that point into it, by line, column and
//! key ([`file_error`]), reading the file again while running
//! ([`reload`]), files written private to the user ([`private_file`]),
//! what is saved for after a reboot ([`saving`]), and how other machines
//! are reached ([`remote`]).

pub mod action;
pub mod appearance;
pub mod clients;
pub mod clipboard_read;
pub mod clock;
pub mod colour;
pub mod copy_keymap;
mod default_toml;
pub mod file_error;
pub mod float_place;
pub mod hooks;
pub mod key_spec;
pub mod keymap;
pub mod private_file;
pub mod profile;
pub mod profile_toml;
pub mod reload;
pub mod remote_pane;
pub mod remote_settings;
pub mod saving;
mod settings;
pub mod terminal_features;

pub use default_toml::default_toml;
pub use settings::{
    Config, ConfigError, DEFAULT_FPS, DEFAULT_SCROLLBACK_BYTES, DEFAULT_TERM, MAX_FPS,
    MAX_MAX_PANES, MAX_SCROLLBACK_BYTES, Notifications, OnHangup, default_path, load, parse,
    parse_size,
};
