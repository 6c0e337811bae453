//! The panes of the shown tab by number, as `C-b q` shows them over the
//! panes and the status bar counts them (`pane 2/3`): the tiled panes in
//! reading order, then the floating ones on screen in the order `C-b o`
//! visits them. [`PaneNumbers`] is the popup: each pane's number in a box
//! in its middle, as tmux's display-panes draws them (the focused pane's in
//! the mode's colours, the others in the popup's). While they are shown, a
//! digit focuses that pane; any other key takes the numbers away and goes
//! on down as if they had not been there.

use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

use super::{Cx, DrawCx, Popup, Reply, centered};
use crate::input::outcome::Outcome;
use crate::pane::PaneId;
use crate::workspace::Workspace;

/// Pane 1 is the first; digits 1-9 focus the first nine, 0 the tenth.
pub fn numbered(ws: &Workspace) -> Vec<PaneId> {
    let Some(tab) = ws.tabs().shown() else {
        return Vec::new();
    };
    let mut order = tab.layout.panes();
    let mut floats: Vec<PaneId> = tab.floats.visible().map(|f| f.id).collect();
    floats.sort();
    order.extend(floats);
    order
}

/// The pane a digit names: `1` the first, `0` the tenth.
pub fn pane_for_digit(ws: &Workspace, digit: char) -> Option<PaneId> {
    let n = digit.to_digit(10)?;
    let index = if n == 0 { 9 } else { n as usize - 1 };
    numbered(ws).get(index).copied()
}

/// The number shown over pane `id` (1-based), if it has one.
pub fn number_of(ws: &Workspace, id: PaneId) -> Option<usize> {
    numbered(ws).iter().position(|&p| p == id).map(|i| i + 1)
}

/// `C-b q`'s numbers, shown until `until` or the next key.
#[derive(Debug, Clone, Copy)]
pub struct PaneNumbers {
    pub until: Instant,
}

impl Popup for PaneNumbers {
    fn handle_key(&mut self, cx: &mut Cx<'_>, key: &KeyEvent) -> Reply {
        let digit = match key.code {
            KeyCode::Char(c) if c.is_ascii_digit() && key.modifiers == KeyModifiers::NONE => c,
            _ => return Reply::pass(true),
        };
        match pane_for_digit(cx.ws, digit) {
            Some(id) => {
                cx.ws.focus_pane(id);
                cx.ui.leave_copy_if_unfocused(cx.ws);
            }
            None => cx.ui.notify(format!("no pane {digit} in this tab")),
        }
        Reply::close(Outcome::redraw())
    }

    fn draw(&self, buf: &mut Buffer, at: &DrawCx<'_>) {
        let ws = at.ws;
        let order = numbered(ws);
        let focused = ws.tabs().focused_id();
        for (id, rect) in ws.tiling().visible(ws.tabs().shown()) {
            let Some(n) = order.iter().position(|&p| p == id).map(|i| i + 1) else {
                continue;
            };
            let label = format!(" {n} ");
            let width = u16::try_from(label.len()).unwrap_or(u16::MAX) + 2;
            let room = centered(rect, width, 3);
            if room.width < 3 || room.height < 3 {
                continue;
            }
            let style = if Some(id) == focused {
                at.theme.mode
            } else {
                at.theme.popup
            };
            Clear.render(room, buf);
            Paragraph::new(label)
                .style(style)
                .block(
                    Block::bordered()
                        .border_type(BorderType::Rounded)
                        .border_style(style),
                )
                .render(room, buf);
        }
    }

    /// The panes' text stays readable around the boxes: the cursor too.
    fn hides_cursor(&self) -> bool {
        false
    }

    fn closes_at(&self) -> Option<Instant> {
        Some(self.until)
    }
}
