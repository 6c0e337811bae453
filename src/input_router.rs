//! Routes user input: a key is a prefix command, a direct binding, a
//! scrollback motion, or bytes for the focused pane; a mouse event focuses,
//! drags a border, scrolls, or goes to the program under it.

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::action::Action;
use crate::key_encoder::{KeyModes, encode_key, encode_mouse, encode_paste};
use crate::keymap::Keymap;
use crate::layout::PaneId;
use crate::workspace::{Workspace, content_rect};

/// Rows one wheel notch scrolls, like most terminals.
const WHEEL_ROWS: isize = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    #[default]
    Normal,
    /// The prefix was pressed; the next key is a command.
    Prefix,
    /// Keys move through the focused pane's scrollback.
    Scroll,
}

/// What handling one input event did, so the loop knows how urgently to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Outcome {
    /// The workspace's own drawing changed (focus, layout, overlays).
    pub redraw: bool,
    /// Bytes went to this pane: its echo should be drawn at once.
    pub sent_to: Option<PaneId>,
}

pub struct InputRouter {
    pub keymap: Keymap,
    pub mode: Mode,
    pub show_help: bool,
    pub show_fps: bool,
    /// Reused for every encoded key: no allocation per keystroke.
    scratch: Vec<u8>,
}

impl InputRouter {
    pub fn new(keymap: Keymap, show_fps: bool) -> Self {
        Self {
            keymap,
            mode: Mode::Normal,
            show_help: false,
            show_fps,
            scratch: Vec::with_capacity(64),
        }
    }

    pub fn handle_key(&mut self, ws: &mut Workspace, key: &KeyEvent) -> Outcome {
        if key.kind == KeyEventKind::Release {
            return Outcome::default();
        }
        if self.show_help && self.mode != Mode::Prefix {
            // Any key closes help; the prefix still works so `C-b ?` toggles.
            if !self.keymap.is_prefix(key) {
                self.show_help = false;
                return redraw();
            }
        }
        match self.mode {
            Mode::Prefix => {
                self.mode = Mode::Normal;
                match self.keymap.lookup_prefixed(key) {
                    Some(action) => self.run(ws, action),
                    // An unbound key after the prefix is swallowed, like tmux.
                    None => redraw(),
                }
            }
            Mode::Scroll => self.scroll_key(ws, key),
            Mode::Normal => {
                if self.keymap.is_prefix(key) {
                    self.mode = Mode::Prefix;
                    return redraw();
                }
                if let Some(action) = self.keymap.lookup_direct(key) {
                    return self.run(ws, action);
                }
                self.send_key(ws, key)
            }
        }
    }

    fn run(&mut self, ws: &mut Workspace, action: Action) -> Outcome {
        match action {
            Action::ToggleHelp => {
                self.show_help = !self.show_help;
                redraw()
            }
            Action::ToggleFps => {
                self.show_fps = !self.show_fps;
                redraw()
            }
            Action::ScrollMode => {
                self.mode = Mode::Scroll;
                redraw()
            }
            Action::ScrollPageUp => {
                self.mode = Mode::Scroll;
                ws.apply(action);
                redraw()
            }
            Action::SendPrefix => {
                let prefix = KeyEvent::new(self.keymap.prefix.code, self.keymap.prefix.modifiers);
                self.send_key(ws, &prefix)
            }
            other => Outcome {
                redraw: ws.apply(other),
                sent_to: None,
            },
        }
    }

    fn scroll_key(&mut self, ws: &mut Workspace, key: &KeyEvent) -> Outcome {
        if self.keymap.is_prefix(key) {
            self.mode = Mode::Prefix;
            return redraw();
        }
        let Some(id) = ws.focused_id() else {
            return Outcome::default();
        };
        let page = ws
            .focused()
            .map_or(10, |p| p.size().0.saturating_sub(1).max(1) as isize);
        let rows = match key.code {
            KeyCode::PageUp => page,
            KeyCode::PageDown => -page,
            KeyCode::Up | KeyCode::Char('k') => 1,
            KeyCode::Down | KeyCode::Char('j') => -1,
            KeyCode::Char('u') if key.modifiers.contains(KeyModifiers::CONTROL) => page / 2,
            KeyCode::Char('d') if key.modifiers.contains(KeyModifiers::CONTROL) => -page / 2,
            KeyCode::Home | KeyCode::Char('g') => isize::MAX / 2,
            KeyCode::End | KeyCode::Char('G') => isize::MIN / 2,
            KeyCode::Char('q') | KeyCode::Esc => {
                self.leave_scroll(ws);
                return redraw();
            }
            _ => {
                // Typing returns to the live screen and reaches the program.
                self.leave_scroll(ws);
                return self.send_key(ws, key);
            }
        };
        ws.scroll_pane(id, rows);
        if rows < 0 && !ws.focused().is_some_and(|p| p.is_scrolled()) {
            // Scrolled down to the bottom: stay in scroll mode, like tmux
            // copy mode, until `q`.
        }
        redraw()
    }

    fn leave_scroll(&mut self, ws: &mut Workspace) {
        self.mode = Mode::Normal;
        if let Some(p) = ws.focused_mut() {
            p.scroll_to_bottom();
        }
    }

    fn send_key(&mut self, ws: &mut Workspace, key: &KeyEvent) -> Outcome {
        let Some(pane) = ws.focused_mut() else {
            return Outcome::default();
        };
        let was_scrolled = pane.is_scrolled();
        if was_scrolled {
            pane.scroll_to_bottom();
        }
        let modes = KeyModes {
            application_cursor: pane.live_screen().application_cursor(),
        };
        self.scratch.clear();
        if !encode_key(key, modes, &mut self.scratch) {
            return Outcome {
                redraw: was_scrolled,
                sent_to: None,
            };
        }
        pane.send(&self.scratch);
        Outcome {
            redraw: was_scrolled,
            sent_to: Some(pane.id),
        }
    }

    pub fn handle_paste(&mut self, ws: &mut Workspace, text: &str) -> Outcome {
        let Some(pane) = ws.focused_mut() else {
            return Outcome::default();
        };
        pane.scroll_to_bottom();
        let mut bytes = Vec::with_capacity(text.len() + 12);
        encode_paste(text, pane.live_screen().bracketed_paste(), &mut bytes);
        pane.send(&bytes);
        Outcome {
            redraw: false,
            sent_to: Some(pane.id),
        }
    }

    pub fn handle_mouse(&mut self, ws: &mut Workspace, ev: &MouseEvent) -> Outcome {
        let (x, y) = (ev.column, ev.row);
        match ev.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                if ws.begin_drag(x, y) {
                    return redraw();
                }
                let before = ws.focused_id();
                let Some(id) = ws.focus_at(x, y) else {
                    return Outcome::default();
                };
                let mut out = self.forward_mouse(ws, id, ev);
                out.redraw |= before != Some(id);
                out
            }
            MouseEventKind::Drag(MouseButton::Left) if ws.drag.is_some() => Outcome {
                redraw: ws.drag_to(x, y),
                sent_to: None,
            },
            MouseEventKind::Up(MouseButton::Left) if ws.drag.is_some() => {
                ws.drag = None;
                redraw()
            }
            MouseEventKind::ScrollUp | MouseEventKind::ScrollDown => {
                let Some(id) = pane_under(ws, x, y) else {
                    return Outcome::default();
                };
                self.wheel(ws, id, ev)
            }
            _ => match pane_under(ws, x, y).or(ws.focused_id()) {
                Some(id) if Some(id) == ws.focused_id() => self.forward_mouse(ws, id, ev),
                _ => Outcome::default(),
            },
        }
    }

    fn wheel(&mut self, ws: &mut Workspace, id: PaneId, ev: &MouseEvent) -> Outcome {
        let up = matches!(ev.kind, MouseEventKind::ScrollUp);
        let Some(pane) = ws.panes.get(&id) else {
            return Outcome::default();
        };
        let screen = pane.live_screen();
        if !pane.is_scrolled() && screen.mouse_protocol_mode() != vt100::MouseProtocolMode::None {
            return self.forward_mouse(ws, id, ev);
        }
        if !pane.is_scrolled() && screen.alternate_screen() {
            // A full-screen program without mouse support (less, man): send
            // arrow keys, as xterm's alternate-scroll mode does.
            let modes = KeyModes {
                application_cursor: screen.application_cursor(),
            };
            let code = if up { KeyCode::Up } else { KeyCode::Down };
            self.scratch.clear();
            for _ in 0..WHEEL_ROWS {
                encode_key(
                    &KeyEvent::new(code, KeyModifiers::NONE),
                    modes,
                    &mut self.scratch,
                );
            }
            pane.send(&self.scratch);
            return Outcome {
                redraw: false,
                sent_to: Some(id),
            };
        }
        ws.scroll_pane(id, if up { WHEEL_ROWS } else { -WHEEL_ROWS });
        redraw()
    }

    fn forward_mouse(&mut self, ws: &mut Workspace, id: PaneId, ev: &MouseEvent) -> Outcome {
        let Some(rect) = ws
            .visible()
            .into_iter()
            .find(|(p, _)| *p == id)
            .map(|(_, r)| r)
        else {
            return Outcome::default();
        };
        let inner = content_rect(rect);
        let Some(pane) = ws.panes.get(&id) else {
            return Outcome::default();
        };
        if pane.is_scrolled() {
            return Outcome::default();
        }
        let screen = pane.live_screen();
        let col = ev
            .column
            .saturating_sub(inner.x)
            .min(inner.width.saturating_sub(1));
        let row = ev
            .row
            .saturating_sub(inner.y)
            .min(inner.height.saturating_sub(1));
        self.scratch.clear();
        if !encode_mouse(
            ev,
            col,
            row,
            screen.mouse_protocol_mode(),
            screen.mouse_protocol_encoding(),
            &mut self.scratch,
        ) {
            return Outcome::default();
        }
        pane.send(&self.scratch);
        Outcome {
            redraw: false,
            sent_to: Some(id),
        }
    }
}

fn pane_under(ws: &Workspace, x: u16, y: u16) -> Option<PaneId> {
    ws.visible()
        .into_iter()
        .find(|(_, r)| r.contains(ratatui::layout::Position { x, y }))
        .map(|(id, _)| id)
}

fn redraw() -> Outcome {
    Outcome {
        redraw: true,
        sent_to: None,
    }
}
