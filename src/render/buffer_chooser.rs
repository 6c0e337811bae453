//! `C-b =`'s list of paste buffers, newest first, the chosen one in
//! reverse video.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

use crate::input::paste_buffers::{PasteBuffers, preview};
use crate::render::popups::centered;

pub struct BufferChooser<'a> {
    pub buffers: &'a PasteBuffers,
    /// The frame's style (the theme's `popup`).
    pub frame: Style,
}

impl Widget for BufferChooser<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let width = area.width.saturating_sub(8).max(20);
        let text_width = usize::from(width.saturating_sub(8));
        let chosen = self.buffers.chosen();
        let mut lines: Vec<Line<'_>> = self
            .buffers
            .all()
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let style = if chosen == Some(i) {
                    Style::default().add_modifier(Modifier::REVERSED)
                } else {
                    Style::default().fg(Color::Gray)
                };
                Line::styled(format!(" {i}  {}", preview(text, text_width)), style)
            })
            .collect();
        lines.push(Line::styled(
            " ↑↓ pick · Enter or a digit: paste · other keys close",
            Style::default().fg(Color::DarkGray),
        ));
        let rect = centered(area, width, lines.len() + 2);
        Clear.render(rect, buf);
        Paragraph::new(lines)
            .block(
                Block::bordered()
                    .border_type(BorderType::Rounded)
                    .border_style(self.frame)
                    .title(" paste buffers "),
            )
            .render(rect, buf);
    }
}
