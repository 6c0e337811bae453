//! The mouse: a click focuses a pane or grabs a border to drag; a drag
//! selects text (a double click a word, a triple click a line) and copies
//! it when the button is let go; the wheel scrolls the history, moves the
//! copy-mode cursor, or becomes arrow keys for a full-screen program.
//! Programs that asked for mouse reports get the events instead.

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Position;

use crate::input::copy_mode::{self, SelectKind};
use crate::input::layers::Cx;
use crate::input::outcome::{Command, Outcome};
use crate::input::to_panes::inner_rect;
use crate::input::ui_state::MouseSelection;
use crate::pane::PaneId;
use crate::pane::term::screen::MouseProtocolMode;
use crate::workspace::Workspace;
use crate::workspace::grip::Grip;

/// Rows one wheel notch scrolls, like most terminals.
const WHEEL_ROWS: isize = 3;
/// Clicks closer together than this count as double/triple clicks.
const MULTI_CLICK: Duration = Duration::from_millis(400);

/// What the mouse remembers between events: the last click, to count
/// double and triple clicks, and what the left button holds while down.
#[derive(Debug, Default)]
pub struct MouseInput {
    last_click: Option<(Instant, u16, u16, u8)>,
    /// A border or floating pane being dragged.
    grip: Option<Grip>,
}

impl MouseInput {
    pub fn handle(&mut self, cx: &mut Cx<'_>, ev: &MouseEvent) -> Outcome {
        let (x, y) = (ev.column, ev.row);
        match ev.kind {
            MouseEventKind::Down(MouseButton::Left) => self.press(cx, ev),
            MouseEventKind::Drag(MouseButton::Left) if self.grip.is_some() => {
                Outcome::redraw_if(self.grip.as_ref().is_some_and(|g| cx.ws.drag_grip(g, x, y)))
            }
            MouseEventKind::Up(MouseButton::Left) if self.grip.is_some() => {
                self.grip = None;
                Outcome::redraw()
            }
            MouseEventKind::Drag(MouseButton::Left) if cx.ui.mouse_selection.is_some() => {
                extend_selection(cx, x, y);
                Outcome::redraw()
            }
            MouseEventKind::Up(MouseButton::Left) if cx.ui.mouse_selection.is_some() => {
                finish_selection(cx)
            }
            MouseEventKind::ScrollUp | MouseEventKind::ScrollDown => {
                match pane_under(cx.ws, x, y) {
                    Some(id) => wheel(cx, id, ev),
                    None => Outcome::default(),
                }
            }
            _ => match pane_under(cx.ws, x, y).or(cx.ws.tabs().focused_id()) {
                Some(id) if Some(id) == cx.ws.tabs().focused_id() && wants_mouse(cx, id) => {
                    cx.to_panes.mouse(cx.ws, id, ev)
                }
                _ => Outcome::default(),
            },
        }
    }

    /// The left button went down: a border to drag, a pane to focus, a
    /// report for its program or the start of a selection.
    fn press(&mut self, cx: &mut Cx<'_>, ev: &MouseEvent) -> Outcome {
        let (x, y) = (ev.column, ev.row);
        cx.ui.mouse_selection = None;
        let tiles = cx.ws.tiling().tiles();
        self.grip = cx.ws.tabs_mut().grab_at(tiles, x, y);
        if self.grip.is_some() {
            return Outcome::redraw();
        }
        let before = cx.ws.tabs().focused_id();
        let Some(id) = cx.ws.focus_at(x, y) else {
            return Outcome::default();
        };
        if cx.ui.copy.pane().is_some_and(|pane| pane != id) {
            cx.ui.leave_copy(cx.ws);
        }
        let changed = before != Some(id);
        if wants_mouse(cx, id) {
            let mut out = cx.to_panes.mouse(cx.ws, id, ev);
            out.redraw |= changed;
            return out;
        }
        self.begin_selection(cx, id, x, y);
        Outcome::redraw()
    }

    fn begin_selection(&mut self, cx: &mut Cx<'_>, id: PaneId, x: u16, y: u16) {
        let Some(inner) = inner_rect(cx.ws, id) else {
            return;
        };
        if !inner.contains(Position { x, y }) {
            return;
        }
        let now = Instant::now();
        let count = match self.last_click {
            Some((at, lx, ly, n)) if now.duration_since(at) < MULTI_CLICK && (lx, ly) == (x, y) => {
                (n % 3) + 1
            }
            _ => 1,
        };
        self.last_click = Some((now, x, y, count));
        let point = (y - inner.y, x - inner.x);
        let mut sel = MouseSelection {
            pane: id,
            start: point,
            end: point,
            kind: SelectKind::Char,
            pending: count == 1,
        };
        if let Some(pane) = cx.ws.panes().get(id) {
            match count {
                2 => {
                    let (a, b) = copy_mode::word_bounds(pane.screen(), point.0, point.1);
                    sel.start = (point.0, a);
                    sel.end = (point.0, b);
                }
                3 => sel.kind = SelectKind::Line,
                _ => {}
            }
        }
        cx.ui.mouse_selection = Some(sel);
    }
}

/// The program under the mouse asked for mouse reports and gets them (not
/// while its history is shown or copy mode is on).
fn wants_mouse(cx: &Cx<'_>, id: PaneId) -> bool {
    cx.ws.panes().get(id).is_some_and(|p| {
        !p.history().is_scrolled()
            && p.term().screen().mouse_protocol_mode() != MouseProtocolMode::None
    }) && !cx.ui.copy.is_active()
}

/// Extends the selection; it never leaves the pane it started in.
fn extend_selection(cx: &mut Cx<'_>, x: u16, y: u16) {
    let Some(sel) = cx.ui.mouse_selection.as_mut() else {
        return;
    };
    let Some(inner) = inner_rect(cx.ws, sel.pane) else {
        return;
    };
    if inner.width == 0 || inner.height == 0 {
        return;
    }
    let col = x.clamp(inner.x, inner.right() - 1) - inner.x;
    let row = y.clamp(inner.y, inner.bottom() - 1) - inner.y;
    sel.end = (row, col);
    sel.pending = false;
}

/// The button was let go: the selected text is copied (a plain click
/// selects nothing).
fn finish_selection(cx: &mut Cx<'_>) -> Outcome {
    let Some(sel) = cx.ui.mouse_selection else {
        return Outcome::redraw();
    };
    if sel.pending {
        cx.ui.mouse_selection = None;
        return Outcome::redraw();
    }
    let Some(pane) = cx.ws.panes().get(sel.pane) else {
        return Outcome::redraw();
    };
    let text = copy_mode::extract_screen(pane.screen(), sel.start, sel.end, sel.kind);
    if text.is_empty() {
        return Outcome::redraw();
    }
    cx.ui.copied(&text);
    Outcome::redraw().with(Command::Clipboard(text))
}

fn wheel(cx: &mut Cx<'_>, id: PaneId, ev: &MouseEvent) -> Outcome {
    let up = matches!(ev.kind, MouseEventKind::ScrollUp);
    let Some(pane) = cx.ws.panes().get(id) else {
        return Outcome::default();
    };
    let to_program = wants_mouse(cx, id)
        || (!pane.history().is_scrolled()
            && pane.term().screen().alternate_screen()
            && !cx.ui.copy.is_active());
    if to_program && cx.read_only {
        // A read-only terminal (`attach -r`) reaches no program, its
        // wheel neither (tmux passes nothing from a `-r` client).
        return Outcome::default();
    }
    if wants_mouse(cx, id) {
        return cx.to_panes.mouse(cx.ws, id, ev);
    }
    if to_program {
        // A full-screen program without mouse support (less, man): send
        // arrow keys, as xterm's alternate-scroll mode does.
        return cx.to_panes.arrows(cx.ws, id, up, WHEEL_ROWS);
    }
    let rows = if up { -WHEEL_ROWS } else { WHEEL_ROWS };
    if !cx.ui.copy.scroll(cx.ws, id, rows) {
        cx.ws.panes_mut().scroll(id, -rows);
    }
    Outcome::redraw()
}

/// The topmost pane at a position: `visible` lists them bottom to top.
fn pane_under(ws: &Workspace, x: u16, y: u16) -> Option<PaneId> {
    ws.tiling()
        .visible(ws.tabs().shown())
        .into_iter()
        .rev()
        .find(|(_, r)| r.contains(Position { x, y }))
        .map(|(id, _)| id)
}
