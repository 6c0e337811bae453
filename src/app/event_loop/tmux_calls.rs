//! The loop's side of the `tmux` front-end's calls
//! (`crate::session::tmux_call`): a snapshot of the tabs and panes for
//! tmux's formats and targets, and the changes its commands make. Each is
//! answered within the turn, as every script call is.

use std::path::PathBuf;
use std::time::Instant;

use super::App;
use super::scripting::Desk;
use crate::config::action::Action;
use crate::pane::PaneId;
use crate::pane::term::screen::{MouseProtocolEncoding, MouseProtocolMode};
use crate::session::script::Reply;
use crate::session::tmux_call::{
    Command, PaneModes, Split, TmuxCall, TmuxPane, TmuxState, TmuxTab,
};
use crate::terminal::frame_sink::FrameSink;
use crate::workspace::layout::Axis;
use crate::workspace::tmux_ops::SplitHow;
use crate::workspace::{PaneLaunch, Workspace};

impl<B: FrameSink> App<B> {
    pub(super) fn tmux_call(&mut self, call: TmuxCall) -> Reply {
        if call == TmuxCall::State {
            let (name, created) = match &self.session {
                Some(host) => (host.name().to_string(), host.info(0, false).started),
                None => (String::new(), 0),
            };
            // Copy mode is the acting terminal's, on its focused pane.
            let copying = (self.clients.acting_router().ui().mode()
                == crate::input::ui_state::Mode::Copy)
                .then(|| self.ws.tabs().focused_id())
                .flatten();
            let clients = self.clients.list.len();
            return Desk { ws: &mut self.ws }.tmux_state(name, created, clients, copying);
        }
        let reply = self.tmux_change(call);
        for client in &mut self.clients.list {
            client.router.focus_moved(&mut self.ws);
        }
        self.clock.changed_now();
        self.ws.panes_mut().names_mut().may_change(Instant::now());
        match reply {
            Ok(text) => Reply::Text(text.into_bytes()),
            Err(why) => Reply::Error(why),
        }
    }

    fn tmux_change(&mut self, call: TmuxCall) -> Result<String, String> {
        if super::tmux_moves::is_move(&call) {
            return super::tmux_moves::answer(&mut self.ws, call);
        }
        match call {
            TmuxCall::State => Ok(String::new()),
            TmuxCall::Open {
                split,
                pane,
                keep_focus,
                command,
                name,
            } => Desk { ws: &mut self.ws }.tmux_open(
                split,
                pane,
                keep_focus,
                command,
                name.as_deref(),
            ),
            TmuxCall::Respawn { pane, command } => {
                let id = tmux_pane(&self.ws, pane)?;
                let launch = tmux_launch(&self.ws, &command);
                match self.ws.respawn_pane(id, Some(launch), 0) {
                    Some(_) => Ok(String::new()),
                    None => Err(format!("can't respawn pane %{pane}")),
                }
            }
            TmuxCall::Focus { pane } => {
                let id = tmux_pane(&self.ws, pane)?;
                self.ws.show_pane(id);
                Ok(String::new())
            }
            TmuxCall::SelectTab { tab } => {
                let index = tmux_tab(&self.ws, tab)?;
                self.ws.tabs_mut().select(index);
                Ok(String::new())
            }
            TmuxCall::Act {
                pane,
                action,
                keep_focus,
            } => Desk { ws: &mut self.ws }.tmux_act(pane, &action, keep_focus),
            TmuxCall::SetTitle { pane, title } => {
                let id = tmux_pane(&self.ws, pane)?;
                self.ws.panes_mut().set_title(id, &title);
                Ok(String::new())
            }
            TmuxCall::RenameTab { tab, name } => {
                let index = tmux_tab(&self.ws, tab)?;
                self.ws.tabs_mut().rename_at(index, &name);
                Ok(String::new())
            }
            TmuxCall::Notify { text } => {
                let text = crate::sanitize::sanitize_title(text.as_bytes());
                for client in &mut self.clients.list {
                    client.router.notify(text.clone());
                }
                Ok(String::new())
            }
            TmuxCall::ResizeWindow { cols, rows } => {
                if !self.clients.list.is_empty() {
                    return Err("resize-window: the window is the attached terminal's size".into());
                }
                let area = self.ws.tiling().area();
                let size = |v: Option<u16>, now: u16, max: u16| v.unwrap_or(now).clamp(2, max);
                self.ws.set_area(ratatui::layout::Rect::new(
                    0,
                    0,
                    size(cols, area.width, 1024),
                    size(rows, area.height, 512),
                ));
                Ok(String::new())
            }
            TmuxCall::RenameSession { name } => {
                self.rename_workspace(None, name);
                Ok(String::new())
            }
            TmuxCall::KillPane { pane } => {
                let id = tmux_pane(&self.ws, pane)?;
                self.ws.close_pane(id, None);
                Ok(String::new())
            }
            TmuxCall::KillTab { tab } => {
                let index = tmux_tab(&self.ws, tab)?;
                self.ws.kill_tab_at(index);
                Ok(String::new())
            }
            TmuxCall::Resize { pane, cols, rows } => {
                let id = tmux_pane(&self.ws, pane)?;
                if let Some(cols) = cols {
                    self.ws.size_pane(id, Axis::Horizontal, cols);
                }
                if let Some(rows) = rows {
                    self.ws.size_pane(id, Axis::Vertical, rows);
                }
                Ok(String::new())
            }
            TmuxCall::CopyMode {
                pane,
                command,
                args,
            } => self.tmux_copy_mode(pane, command.as_deref(), &args),
            _ => Err("not a tmux change".into()),
        }
    }
}

/// The tmux front-end's calls that need the workspace alone.
impl Desk<'_> {
    pub(super) fn tmux_open(
        &mut self,
        split: Option<Split>,
        pane: Option<u32>,
        keep_focus: bool,
        command: Command,
        name: Option<&str>,
    ) -> Result<String, String> {
        self.ws.panes().room_for_pane()?;
        let mut launch = tmux_launch(self.ws, &command);
        // tmux runs a new pane's command in the target pane's directory
        // when none is given, as a split here does.
        if command.cwd.is_none() {
            let from = match pane {
                Some(n) => tmux_pane(self.ws, n).ok(),
                None => self.ws.tabs().focused_id(),
            };
            launch.spec.cwd = from.and_then(|id| self.ws.panes().dir(id));
        }
        let id = match split {
            Some(split) => {
                let target = match pane {
                    Some(n) => tmux_pane(self.ws, n)?,
                    None => self.ws.tabs().focused_id().ok_or("no current pane")?,
                };
                if self.ws.tabs().is_floating(target) {
                    return Err("can't split a floating pane".into());
                }
                let (rows, cols) = self
                    .ws
                    .panes()
                    .get(target)
                    .map_or((0, 0), |p| p.term().size());
                let along = if split.beside { cols } else { rows };
                let cells = split.cells.or_else(|| {
                    split
                        .percent
                        .map(|p| (u32::from(along) * u32::from(p.min(100)) / 100) as u16)
                });
                let how = SplitHow {
                    axis: if split.beside {
                        Axis::Horizontal
                    } else {
                        Axis::Vertical
                    },
                    before: split.before,
                    cells,
                    keep_focus,
                };
                self.ws
                    .split_pane(target, how, launch)
                    .ok_or("create pane failed: pane too small")?
            }
            None => {
                let shown = self.ws.tabs().active();
                let id = self.ws.new_tab_with(launch).ok_or("create window failed")?;
                if let Some(name) = name {
                    let index = self.ws.tabs().index_of(id).unwrap_or(0);
                    self.ws.tabs_mut().rename_at(index, name);
                }
                if keep_focus {
                    self.ws.tabs_mut().select(shown);
                }
                id
            }
        };
        if let Some(err) = self
            .ws
            .panes()
            .get(id)
            .and_then(|p| p.program().spawn_error())
        {
            let message = format!("create pane failed: {err}");
            self.ws.close_pane(id, None);
            return Err(message);
        }
        let tab = self
            .ws
            .tabs()
            .index_of(id)
            .and_then(|i| self.ws.tabs().get(i))
            .map_or(0, |t| t.serial);
        Ok(format!("{tab} {}\n", self.ws.panes().script_id(id)))
    }

    pub(super) fn tmux_act(
        &mut self,
        pane: u32,
        action: &str,
        keep_focus: bool,
    ) -> Result<String, String> {
        let action: Action = action.parse().map_err(|err| format!("{err}"))?;
        let id = tmux_pane(self.ws, pane)?;
        let before = (self.ws.tabs().active(), self.ws.tabs().focused_id());
        self.ws.show_pane(id);
        self.ws.apply(action);
        if keep_focus {
            self.ws.tabs_mut().select(before.0);
            if let Some(old) = before.1
                && self.ws.panes().get(old).is_some()
            {
                self.ws.show_pane(old);
            }
        }
        Ok(String::new())
    }

    pub(super) fn tmux_state(
        &mut self,
        name: String,
        created: u64,
        clients: usize,
        copying: Option<PaneId>,
    ) -> Reply {
        let area = self.ws.tiling().area();
        let mut tabs = Vec::new();
        for (index, tab) in self.ws.tabs().iter().enumerate() {
            let mut panes = Vec::new();
            let mut rects = tab.layout.rects(area);
            rects.extend(tab.floats.iter().map(|f| (f.id, f.rect)));
            for (id, rect) in rects {
                let Some(pane) = self.ws.panes().get(id) else {
                    continue;
                };
                let inner = self
                    .ws
                    .tiling()
                    .content(rect, self.ws.tabs().is_floating(id));
                let screen = pane.term().screen();
                let (cursor_y, cursor_x) = screen.cursor_position();
                let (rows, cols) = pane.term().size();
                panes.push(TmuxPane {
                    id: self.ws.panes().script_id(id),
                    left: inner.x,
                    top: inner.y,
                    cols,
                    rows,
                    floating: tab.floats.contains(id),
                    pid: pane.program().pid(),
                    exit_code: pane.program().exit().map(|e| e.code),
                    cwd: self
                        .ws
                        .panes()
                        .dir(id)
                        .map(|dir| dir.to_string_lossy().into_owned()),
                    title: self.ws.panes().title(id).to_string(),
                    command: pane.spec.argv.clone(),
                    in_mode: pane.history().is_scrolled() || copying == Some(id),
                    history: 0,
                    cursor_x,
                    cursor_y,
                    alternate: screen.alternate_screen(),
                    modes: modes_of(screen),
                });
            }
            tabs.push(TmuxTab {
                serial: tab.serial,
                name: self.ws.tabs().name(index, self.ws.panes()),
                zoomed: tab.zoomed,
                panes,
                focus: self.ws.panes().script_id(tab.focus),
                last_focus: tab.last_focus.map(|id| self.ws.panes().script_id(id)),
            });
        }
        let state = TmuxState {
            name,
            pid: std::process::id(),
            number: self.ws.panes().spawner().tmux_session(),
            created,
            clients,
            cols: area.width,
            rows: area.height,
            active: self.ws.tabs().active(),
            last_tab: self.ws.tabs().last_serial(),
            tabs,
            marked: crate::workspace::pane_moves::marked(self.ws)
                .map(|id| self.ws.panes().script_id(id)),
        };
        match serde_json::to_vec(&state) {
            Ok(json) => Reply::Text(json),
            Err(err) => Reply::error(format!("describing the workspace: {err}")),
        }
    }
}

/// Pane `n` by its script number.
fn tmux_pane(ws: &Workspace, n: u32) -> Result<PaneId, String> {
    ws.panes()
        .by_script_id(n)
        .ok_or_else(|| format!("can't find pane: {n}"))
}

/// Tab `@serial`'s index.
fn tmux_tab(ws: &Workspace, serial: u64) -> Result<usize, String> {
    ws.tabs()
        .index_of_serial(serial)
        .ok_or_else(|| format!("can't find window: @{serial}"))
}

/// What `command` runs, as a pane launch.
fn tmux_launch(ws: &Workspace, command: &Command) -> PaneLaunch {
    let env = &ws.panes().spawner().settings().env;
    let cwd = command.cwd.as_ref().map(PathBuf::from);
    let (mut spec, label) = match command.argv.as_slice() {
        [] => env.shell(cwd),
        [line] => env.command_line(line, cwd),
        argv => env.argv(argv, cwd),
    };
    for (name, value) in &command.env {
        spec.env.retain(|(n, _)| n != name);
        spec.unset.retain(|n| n != name);
        spec.env.push((name.clone(), value.clone()));
    }
    PaneLaunch::new(spec, label)
}

/// The modes tmux's `*_flag` variables report, from the pane's screen.
fn modes_of(screen: crate::pane::term::screen::ScreenView<'_>) -> PaneModes {
    PaneModes {
        cursor_hidden: screen.hide_cursor(),
        keypad_cursor: screen.application_cursor(),
        keypad: screen.application_keypad(),
        bracketed_paste: screen.bracketed_paste(),
        mouse: match screen.mouse_protocol_mode() {
            MouseProtocolMode::None => 0,
            MouseProtocolMode::Press => 1,
            MouseProtocolMode::PressRelease => 2,
            MouseProtocolMode::ButtonMotion => 3,
            MouseProtocolMode::AnyMotion => 4,
        },
        mouse_sgr: screen.mouse_protocol_encoding() == MouseProtocolEncoding::Sgr,
        mouse_utf8: screen.mouse_protocol_encoding() == MouseProtocolEncoding::Utf8,
    }
}
