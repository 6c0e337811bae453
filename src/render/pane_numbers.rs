//! `C-b q`: each pane's number in a box in its middle, as tmux's
//! display-panes draws them; the focused pane's in the mode's colours,
//! the others in the popup's.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

use crate::input::pane_numbers::numbered;
use crate::workspace::Workspace;

pub struct PaneNumbers<'a> {
    pub ws: &'a Workspace,
    /// The focused pane's number (the theme's `mode`).
    pub focused: Style,
    /// The others' (the theme's `popup`).
    pub other: Style,
}

impl Widget for PaneNumbers<'_> {
    fn render(self, _area: Rect, buf: &mut Buffer) {
        let order = numbered(self.ws);
        let focused = self.ws.focused_id();
        for (id, rect) in self.ws.visible() {
            let Some(n) = order.iter().position(|&p| p == id).map(|i| i + 1) else {
                continue;
            };
            let label = format!(" {n} ");
            let width = u16::try_from(label.len()).unwrap_or(u16::MAX) + 2;
            let room = crate::render::popups::centered(rect, width, 3);
            if room.width < 3 || room.height < 3 {
                continue;
            }
            let style = if Some(id) == focused {
                self.focused
            } else {
                self.other
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
}
