//! The variables tmux's formats read, for one session, window and pane:
//! from the workspace's snapshot, and for what the workspace does not
//! keep (a pane's terminal, its foreground program), from the kernel.

use std::collections::HashMap;

use super::format::Lookup;
use super::server::{Server, Session};
use crate::session::tmux_call::{TmuxPane, TmuxTab};
use crate::workspace::tmux_env::tmux_id;

/// The version tilework answers as: the tmux its command line follows.
pub const VERSION: &str = "3.3a";

/// The variables `display-message -a` lists.
pub const NAMES: &[&str] = &[
    "client_height",
    "client_name",
    "client_pid",
    "client_termname",
    "client_tty",
    "client_width",
    "cursor_flag",
    "cursor_x",
    "cursor_y",
    "history_limit",
    "history_size",
    "host",
    "host_short",
    "keypad_cursor_flag",
    "keypad_flag",
    "mouse_any_flag",
    "pane_active",
    "pane_at_bottom",
    "pane_at_left",
    "pane_at_right",
    "pane_at_top",
    "pane_bottom",
    "pane_current_command",
    "pane_current_path",
    "pane_dead",
    "pane_dead_status",
    "pane_height",
    "pane_id",
    "pane_in_mode",
    "pane_index",
    "pane_left",
    "pane_pid",
    "pane_right",
    "pane_start_command",
    "pane_title",
    "pane_top",
    "pane_tty",
    "pane_width",
    "pid",
    "session_attached",
    "session_created",
    "session_id",
    "session_name",
    "session_windows",
    "socket_path",
    "uid",
    "user",
    "version",
    "window_active",
    "window_flags",
    "window_height",
    "window_id",
    "window_index",
    "window_layout",
    "window_name",
    "window_panes",
    "window_width",
    "window_zoomed_flag",
];

/// What a format is expanded against.
pub struct Scope<'a> {
    pub server: &'a Server,
    pub session: Option<&'a Session>,
    pub tab: Option<usize>,
    pub pane: Option<usize>,
    /// Variables of the command itself (`buffer_name`, `hook`…).
    pub extra: HashMap<String, String>,
}

impl<'a> Scope<'a> {
    pub fn new(server: &'a Server, session: Option<&'a Session>) -> Self {
        Self {
            server,
            session,
            tab: None,
            pane: None,
            extra: HashMap::new(),
        }
    }

    pub fn at(mut self, tab: Option<usize>, pane: Option<usize>) -> Self {
        self.tab = tab;
        self.pane = pane;
        self
    }

    fn tab_ref(&self) -> Option<&'a TmuxTab> {
        let session = self.session?;
        let index = self.tab.unwrap_or(session.state.active);
        session.state.tabs.get(index)
    }

    fn pane_ref(&self) -> Option<&'a TmuxPane> {
        let tab = self.tab_ref()?;
        match self.pane {
            Some(i) => tab.panes.get(i),
            None => tab.panes.iter().find(|p| p.id == tab.focus),
        }
    }
}

/// `%N` of pane `id` of `session`.
pub fn pane_id(session: &Session, id: u32) -> String {
    format!("%{}", tmux_id(session.state.number, u64::from(id)))
}

/// `@N` of tab `serial` of `session`.
pub fn window_id(session: &Session, serial: u64) -> String {
    format!("@{}", tmux_id(session.state.number, serial))
}

fn flag(on: bool) -> String {
    if on { "1" } else { "0" }.to_string()
}

impl Lookup for Scope<'_> {
    fn get(&self, name: &str) -> Option<String> {
        if let Some(value) = self.extra.get(name) {
            return Some(value.clone());
        }
        if let Some(value) = global(self.server, name) {
            return Some(value);
        }
        let session = self.session?;
        if name.starts_with("session_") || name.starts_with("client_") {
            return session_var(self.server, session, name);
        }
        let tab = self.tab_ref()?;
        let tab_index = session
            .state
            .tabs
            .iter()
            .position(|t| t.serial == tab.serial)?;
        if name.starts_with("window_") {
            return window_var(session, tab, tab_index, name);
        }
        let pane = self.pane_ref()?;
        let pane_index = tab.panes.iter().position(|p| p.id == pane.id)?;
        pane_var(session, tab, tab_index, pane, pane_index, name)
    }
}

fn global(server: &Server, name: &str) -> Option<String> {
    Some(match name {
        "version" => VERSION.to_string(),
        "pid" => std::process::id().to_string(),
        "socket_path" => server.socket_path(),
        "host" | "host_short" => {
            let host = nix::unistd::gethostname()
                .ok()
                .and_then(|h| h.into_string().ok())
                .unwrap_or_default();
            if name == "host_short" {
                host.split('.').next().unwrap_or("").to_string()
            } else {
                host
            }
        }
        "uid" => crate::session::dir::my_uid().to_string(),
        "user" => std::env::var("USER").unwrap_or_default(),
        _ => return None,
    })
}

fn session_var(server: &Server, session: &Session, name: &str) -> Option<String> {
    let state = &session.state;
    Some(match name {
        "session_name" | "client_session" => session.name.clone(),
        "session_id" => format!("${}", state.number),
        "session_windows" => state.tabs.len().to_string(),
        "session_attached" => state.clients.to_string(),
        "session_many_attached" => flag(state.clients > 1),
        "session_created" | "session_activity" | "session_last_attached" => {
            state.created.to_string()
        }
        "session_path" => std::env::current_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_default(),
        "session_grouped" | "session_marked" => "0".into(),
        "session_group" | "session_alerts" | "session_stack" => String::new(),
        "session_format" => "1".into(),
        "client_width" => state.cols.to_string(),
        "client_height" => state.rows.to_string(),
        "client_name" | "client_tty" => server.socket_path(),
        "client_termname" => "xterm-256color".into(),
        "client_utf8" => "1".into(),
        "client_readonly" | "client_prefix" | "client_control_mode" => "0".into(),
        "client_pid" => state.pid.to_string(),
        _ => return None,
    })
}

fn window_var(session: &Session, tab: &TmuxTab, index: usize, name: &str) -> Option<String> {
    let state = &session.state;
    let active = state.active == index;
    let last = state.last_tab == Some(tab.serial);
    Some(match name {
        "window_id" => window_id(session, tab.serial),
        "window_index" => index.to_string(),
        "window_name" => tab.name.clone(),
        "window_active" => flag(active),
        "window_panes" => tab.panes.len().to_string(),
        "window_width" => state.cols.to_string(),
        "window_height" => state.rows.to_string(),
        "window_zoomed_flag" => flag(tab.zoomed),
        "window_last_flag" => flag(last),
        "window_flags" | "window_raw_flags" => {
            let mut flags = String::new();
            if active {
                flags.push('*');
            }
            if last {
                flags.push('-');
            }
            if tab.zoomed {
                flags.push('Z');
            }
            flags
        }
        "window_layout" | "window_visible_layout" => layout(tab, state.cols, state.rows),
        "window_activity" => state.created.to_string(),
        "window_format" => "1".into(),
        "window_start_flag" => flag(index == 0),
        "window_end_flag" => flag(index + 1 == state.tabs.len()),
        "window_bell_flag" | "window_activity_flag" | "window_silence_flag" | "window_linked" => {
            "0".into()
        }
        "window_marked_flag" => {
            flag((tab.panes.iter()).any(|p| Some(p.id) == session.state.marked))
        }
        "window_active_clients" | "window_active_sessions" => flag(active),
        _ => return None,
    })
}

fn pane_var(
    session: &Session,
    tab: &TmuxTab,
    tab_index: usize,
    pane: &TmuxPane,
    index: usize,
    name: &str,
) -> Option<String> {
    let dead = pane.exit_code.is_some();
    let right = pane.left + pane.cols.saturating_sub(1);
    let bottom = pane.top + pane.rows.saturating_sub(1);
    let edges = edges(tab);
    Some(match name {
        "pane_id" => pane_id(session, pane.id),
        "pane_index" => index.to_string(),
        "pane_pid" => pane.pid.map(|p| p.to_string()).unwrap_or_default(),
        "pane_tty" => pane.pid.and_then(tty_of).unwrap_or_default(),
        "pane_current_path" | "pane_path" => pane
            .cwd
            .clone()
            .or_else(|| pane.pid.and_then(cwd_of))
            .unwrap_or_default(),
        "pane_start_path" => pane.cwd.clone().unwrap_or_default(),
        "pane_current_command" => current_command(pane),
        "pane_start_command" => match pane.command.as_slice() {
            // A command line, as tmux keeps it: not the shell running it.
            [sh, c, line] if sh == "/bin/sh" && c == "-c" => line.clone(),
            argv => argv.join(" "),
        },
        "pane_title" => pane.title.clone(),
        "pane_width" => pane.cols.to_string(),
        "pane_height" => pane.rows.to_string(),
        "pane_left" => pane.left.to_string(),
        "pane_top" => pane.top.to_string(),
        "pane_right" => right.to_string(),
        "pane_bottom" => bottom.to_string(),
        "pane_active" => flag(tab.focus == pane.id),
        "pane_last" => flag(tab.last_focus == Some(pane.id)),
        "pane_dead" => flag(dead),
        "pane_dead_status" => pane.exit_code.map(|c| c.to_string()).unwrap_or_default(),
        "pane_in_mode" => flag(pane.in_mode),
        "pane_mode" => if pane.in_mode { "copy-mode" } else { "" }.to_string(),
        "pane_at_left" => flag(pane.left <= edges.0),
        "pane_at_top" => flag(pane.top <= edges.1),
        "pane_at_right" => flag(right >= edges.2),
        "pane_at_bottom" => flag(bottom >= edges.3),
        "pane_format" => "1".into(),
        "pane_marked" => flag(session.state.marked == Some(pane.id)),
        "pane_marked_set" => flag(session.state.marked.is_some()),
        "pane_synchronized" | "pane_input_off" | "pane_pipe" => "0".into(),
        "pane_floating_flag" => flag(pane.floating),
        "cursor_x" => pane.cursor_x.to_string(),
        "cursor_y" => pane.cursor_y.to_string(),
        "alternate_on" => flag(pane.alternate),
        "cursor_flag" => flag(!pane.modes.cursor_hidden),
        "keypad_cursor_flag" => flag(pane.modes.keypad_cursor),
        "keypad_flag" => flag(pane.modes.keypad),
        "bracket_paste_flag" => flag(pane.modes.bracketed_paste),
        "mouse_any_flag" => flag(pane.modes.mouse > 0),
        "mouse_standard_flag" => flag(matches!(pane.modes.mouse, 1 | 2)),
        "mouse_button_flag" => flag(pane.modes.mouse == 3),
        "mouse_all_flag" => flag(pane.modes.mouse == 4),
        "mouse_sgr_flag" => flag(pane.modes.mouse_sgr),
        "mouse_utf8_flag" => flag(pane.modes.mouse_utf8),
        // The parser keeps no origin or insert mode, scroll region or saved
        // alternate cursor to ask: tmux's values for a pane that set none.
        "insert_flag" | "origin_flag" | "alternate_saved_x" | "alternate_saved_y" => "0".into(),
        "wrap_flag" => "1".into(),
        "scroll_region_upper" => "0".into(),
        "scroll_region_lower" => pane.rows.saturating_sub(1).to_string(),
        "history_size" => pane.history.to_string(),
        "history_limit" => "2000".into(),
        "history_bytes" => "0".into(),
        _ => {
            let _ = tab_index;
            return None;
        }
    })
}

/// The tab's outer edges (left, top, right, bottom) over its tiled panes.
fn edges(tab: &TmuxTab) -> (u16, u16, u16, u16) {
    let tiled = tab.panes.iter().filter(|p| !p.floating);
    let mut e = (u16::MAX, u16::MAX, 0, 0);
    for p in tiled {
        e.0 = e.0.min(p.left);
        e.1 = e.1.min(p.top);
        e.2 = e.2.max(p.left + p.cols.saturating_sub(1));
        e.3 = e.3.max(p.top + p.rows.saturating_sub(1));
    }
    e
}

/// The program in the pane's foreground, as the kernel names it.
pub fn current_command(pane: &TmuxPane) -> String {
    pane.pid
        .filter(|_| pane.exit_code.is_none())
        .and_then(crate::workspace::foreground::of_process)
        .map(|fg| fg.program)
        .or_else(|| {
            pane.command
                .first()
                .map(|c| c.rsplit('/').next().unwrap_or(c).to_string())
        })
        .unwrap_or_default()
}

fn tty_of(pid: u32) -> Option<String> {
    std::fs::read_link(format!("/proc/{pid}/fd/0"))
        .ok()
        .map(|p| p.display().to_string())
}

fn cwd_of(pid: u32) -> Option<String> {
    std::fs::read_link(format!("/proc/{pid}/cwd"))
        .ok()
        .map(|p| p.display().to_string())
}

/// tmux's layout string for the tab: its panes' places, with tmux's
/// checksum. The tree is read back from where the panes are (a row of
/// panes side by side `{…}`, a column `[…]`).
fn layout(tab: &TmuxTab, cols: u16, rows: u16) -> String {
    let panes: Vec<&TmuxPane> = tab.panes.iter().filter(|p| !p.floating).collect();
    let body = match panes.as_slice() {
        [one] => format!("{}x{},0,0,{}", cols, rows, one.id),
        many => {
            let side_by_side = many.iter().all(|p| p.top == many[0].top);
            let cells: Vec<String> = many
                .iter()
                .map(|p| format!("{}x{},{},{},{}", p.cols, p.rows, p.left, p.top, p.id))
                .collect();
            let (open, close) = if side_by_side { ('{', '}') } else { ('[', ']') };
            format!("{cols}x{rows},0,0{open}{}{close}", cells.join(","))
        }
    };
    let mut csum: u16 = 0;
    for b in body.bytes() {
        csum = (csum >> 1) | ((csum & 1) << 15);
        csum = csum.wrapping_add(u16::from(b));
    }
    format!("{csum:04x},{body}")
}
