//! `prefix ?`: every binding, generated from the keymap itself so it can
//! never disagree with what the keys do.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

use crate::config::keymap::Keymap;
use crate::render::popups::centered;

pub struct HelpOverlay<'a> {
    pub keymap: &'a Keymap,
}

impl HelpOverlay<'_> {
    fn lines(&self) -> Vec<Line<'static>> {
        let entries = self.keymap.help_lines();
        let key_w = entries
            .iter()
            .map(|(k, _)| k.chars().count())
            .max()
            .unwrap_or(0);
        entries
            .into_iter()
            .map(|(keys, what)| {
                Line::from(vec![
                    Span::styled(
                        format!(" {keys:<key_w$}  "),
                        Style::default()
                            .fg(Color::Yellow)
                            .add_modifier(Modifier::BOLD),
                    ),
                    Span::raw(what),
                ])
            })
            .collect()
    }
}

impl Widget for HelpOverlay<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let lines = self.lines();
        let want_w = lines.iter().map(Line::width).max().unwrap_or(0) + 4;
        let width = u16::try_from(want_w).unwrap_or(u16::MAX);
        let rect = centered(area, width, lines.len() + 2);
        Clear.render(rect, buf);
        let block = Block::bordered()
            .border_type(BorderType::Rounded)
            .border_style(Style::default().fg(Color::Yellow))
            .title(" tilework keys — any key closes ");
        Paragraph::new(lines).block(block).render(rect, buf);
    }
}
