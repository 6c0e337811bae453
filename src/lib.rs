//! tilework: a terminal workspace. Many panes, each a program on a PTY
//! mirrored by a terminal parser; one render loop; one write per frame.
//!
//! Where things live, in data-path order:
//! - [`terminal`]: the user's terminal (modes, the frame stream, clipboard).
//! - [`app`]: the loop that owns everything and decides when to draw.
//! - [`client`]: one attached terminal: its frames, input, size and facts.
//! - [`pane`]: PTY → guards → fast-forward → the parser → history, per pane.
//! - [`workspace`]: tabs, layout trees, focus, saved sessions.
//! - [`input`]: keymap, modes, the key encoder.
//! - [`render`]: frames, pane views, status bar, popups, overlays.
//! - [`graphics`]: pictures in panes (sixel, kitty graphics).
//! - [`config`]: the config file and profiles.
//! - [`diag`]: metrics and logs.
//! - [`session`]: detach and attach: the workspace outlives its terminal.
//! - [`persist`]: saved workspaces: back after a crash or a reboot.
//! - [`remote`]: workspaces on other machines, over OpenSSH.
//! - [`os`]: what tilework asks of the kernel that differs between systems.
//! - [`shell_job`]: a user's shell command run off the loop, with a deadline.
//! - [`release`]: which tilework this is (version, upgrade state format).
//! - [`tmux_compat`]: tmux's command line on tilework (`tmux` as a symlink).
//! - [`upgrade`]: a running workspace moved to a newer binary.

pub mod app;
pub mod cli;
pub mod client;
pub mod config;
pub mod diag;
pub mod graphics;
pub mod input;
pub mod jobs;
pub mod mailbox;
pub mod os;
pub mod pane;
pub mod persist;
pub mod release;
pub mod remote;
pub mod render;
pub mod sanitize;
pub mod session;
pub mod shell_integration;
pub mod shell_job;
pub mod terminal;
pub mod tmux_compat;
pub mod upgrade;
pub mod wake;
pub mod workspace;
