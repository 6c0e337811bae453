//! Input for the programs: keys, pastes and mouse reports encoded as an
//! xterm would send them (`key_encoder`), to the focused pane or, while
//! broadcasting, to every pane of the tab.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent};
use ratatui::layout::Rect;

use crate::input::key_encoder::{KeyModes, encode_key, encode_mouse, encode_paste};
use crate::input::outcome::Outcome;
use crate::pane::PaneId;
use crate::workspace::Workspace;

/// What sending did, and whether some program refused the bytes (its input
/// queue is full: it is not reading).
pub struct Delivery {
    pub outcome: Outcome,
    pub refused: bool,
}

/// Sends input to panes, encoding into one reused buffer: no allocation per
/// keystroke.
#[derive(Debug, Default)]
pub struct PaneInput {
    scratch: Vec<u8>,
}

impl PaneInput {
    pub fn new() -> Self {
        Self {
            scratch: Vec::with_capacity(64),
        }
    }

    /// The panes keys go to: every pane of the tab while broadcasting.
    fn targets(ws: &Workspace) -> Vec<PaneId> {
        match ws.tabs().shown() {
            Some(tab) if tab.broadcast => tab.layout.panes(),
            Some(tab) => vec![tab.focus],
            None => Vec::new(),
        }
    }

    /// A key for the programs; a pane scrolled back returns to its live
    /// screen first.
    pub fn key(&mut self, ws: &mut Workspace, key: &KeyEvent) -> Delivery {
        let mut out = Delivery {
            outcome: Outcome::default(),
            refused: false,
        };
        let focused = ws.tabs().focused_id();
        for id in Self::targets(ws) {
            let Some(pane) = ws.panes_mut().get_mut(id) else {
                continue;
            };
            if pane.history().is_scrolled() {
                pane.history_mut().scroll_to_bottom();
                out.outcome.redraw = true;
            }
            let modes = KeyModes {
                application_cursor: pane.term().screen().application_cursor(),
                kitty_flags: pane.term().keyboard_flags(),
            };
            self.scratch.clear();
            if encode_key(key, modes, &mut self.scratch) {
                if !pane.program().send(&self.scratch) && pane.program().exit().is_none() {
                    out.refused = true;
                    out.outcome.redraw = true;
                }
                if Some(id) == focused {
                    out.outcome.sent_to = Some(id);
                }
            }
        }
        out
    }

    /// Pasted text, bracketed for programs that asked for it.
    pub fn paste(ws: &mut Workspace, text: &str) -> Delivery {
        let mut out = Delivery {
            outcome: Outcome::default(),
            refused: false,
        };
        let focused = ws.tabs().focused_id();
        for id in Self::targets(ws) {
            let Some(pane) = ws.panes_mut().get_mut(id) else {
                continue;
            };
            pane.history_mut().scroll_to_bottom();
            // Handed to the pane's queue as it is: a paste of megabytes is
            // not copied again.
            let mut bytes = Vec::with_capacity(text.len() + 12);
            encode_paste(text, pane.term().screen().bracketed_paste(), &mut bytes);
            if !pane.program().send_owned(bytes) {
                out.refused = true;
                out.outcome.redraw = true;
            }
            if Some(id) == focused {
                out.outcome.sent_to = Some(id);
            }
        }
        out
    }

    /// `rows` presses of an arrow key for pane `id` (the wheel over a
    /// full-screen program without mouse support).
    pub fn arrows(&mut self, ws: &Workspace, id: PaneId, up: bool, rows: isize) -> Outcome {
        let Some(pane) = ws.panes().get(id) else {
            return Outcome::default();
        };
        let modes = KeyModes {
            application_cursor: pane.term().screen().application_cursor(),
            kitty_flags: pane.term().keyboard_flags(),
        };
        let code = if up { KeyCode::Up } else { KeyCode::Down };
        self.scratch.clear();
        for _ in 0..rows {
            encode_key(
                &KeyEvent::new(code, KeyModifiers::NONE),
                modes,
                &mut self.scratch,
            );
        }
        pane.program().send(&self.scratch);
        Outcome::sent_to(id)
    }

    /// A mouse event for the program of pane `id`, which asked for mouse
    /// reports, in its own coordinates.
    pub fn mouse(&mut self, ws: &Workspace, id: PaneId, ev: &MouseEvent) -> Outcome {
        let Some(inner) = inner_rect(ws, id) else {
            return Outcome::default();
        };
        let Some(pane) = ws.panes().get(id) else {
            return Outcome::default();
        };
        let screen = pane.term().screen();
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
        pane.program().send(&self.scratch);
        Outcome::sent_to(id)
    }
}

/// Where pane `id`'s screen is drawn, if it is visible.
pub fn inner_rect(ws: &Workspace, id: PaneId) -> Option<Rect> {
    ws.tiling()
        .visible(ws.tabs().shown())
        .into_iter()
        .find(|(p, _)| *p == id)
        .map(|(p, r)| ws.tiling().content(r, ws.tabs().is_floating(p)))
}
