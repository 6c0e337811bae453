//! Small overlays: the results of a search across every pane of the tab
//! (the which-key popup is `which_key`).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

use crate::input::search_all::SearchAllResults;

/// A `width` x `height` rectangle in the middle of `area`, shrunk to fit.
pub fn centered(area: Rect, width: u16, height: usize) -> Rect {
    let width = width.min(area.width);
    let height = u16::try_from(height).unwrap_or(u16::MAX).min(area.height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}

/// The per-pane results of a search across the tab.
pub struct SearchAllOverlay<'a> {
    pub results: &'a SearchAllResults,
    /// The frame's style (the theme's `popup`).
    pub frame: Style,
}

impl Widget for SearchAllOverlay<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let r = self.results;
        let mut lines = Vec::new();
        for (i, pane) in r.panes.iter().enumerate() {
            let head = Style::default()
                .fg(if pane.count > 0 {
                    Color::Green
                } else {
                    Color::DarkGray
                })
                .add_modifier(Modifier::BOLD);
            lines.push(Line::styled(
                // The title last: it is the part that may be cut off.
                format!(
                    " {} · {} matching lines · {} ",
                    pane.place, pane.count, pane.title
                ),
                head,
            ));
            for (j, m) in pane.lines.iter().enumerate() {
                let style = if r.is_selected(i, j) {
                    Style::default().add_modifier(Modifier::REVERSED)
                } else {
                    Style::default().fg(Color::Gray)
                };
                lines.push(Line::styled(format!("    {m}"), style));
            }
        }
        if r.pending > 0 {
            lines.push(Line::styled(
                format!(" searching {} more panes…", r.pending),
                Style::default().fg(Color::Yellow),
            ));
        }
        if r.unmatched > 0 {
            let text = match (r.panes.len(), r.unmatched) {
                (0, _) if r.pending == 0 => " no match in any pane".to_string(),
                (_, 1) => " 1 pane without a match".to_string(),
                (_, n) => format!(" {n} panes without a match"),
            };
            lines.push(Line::styled(text, Style::default().fg(Color::DarkGray)));
        }
        lines.push(Line::styled(
            " ↑↓ pick a line · Enter: copy mode there (n/N: more) · other keys close",
            Style::default().fg(Color::DarkGray),
        ));
        let rect = centered(area, area.width.saturating_sub(8).max(20), lines.len() + 2);
        Clear.render(rect, buf);
        Paragraph::new(lines)
            .block(
                Block::bordered()
                    .border_type(BorderType::Rounded)
                    .border_style(self.frame)
                    .title(format!(" search /{}/ in every pane ", r.pattern)),
            )
            .render(rect, buf);
    }
}
