//! `C-b s`'s list of the running workspaces, their tabs and panes, the
//! chosen row in reverse video and kept in view.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

use crate::input::workspace_chooser::WorkspaceChooser;
use crate::render::popups::centered;
use crate::sanitize::escape_controls;

pub struct WorkspaceChooserPopup<'a> {
    pub chooser: &'a WorkspaceChooser,
    /// The frame's style (the theme's `popup`).
    pub frame: Style,
}

impl Widget for WorkspaceChooserPopup<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let width = area.width.saturating_sub(8).clamp(20, 100);
        let hint = Line::styled(
            " ↑↓ or j/k pick · Enter: show it here · Esc: close",
            Style::default().fg(Color::DarkGray),
        );
        let Some(rows) = self.chooser.rows() else {
            let rect = centered(area, width, 3);
            Clear.render(rect, buf);
            Paragraph::new(vec![Line::from(" looking for workspaces…")])
                .block(self.block())
                .render(rect, buf);
            return;
        };
        // With a preview of the chosen row's tab, the list takes the top
        // half and the preview the rest, as tmux's choose-tree.
        let preview = self.chooser.preview();
        let list_area = if preview.is_some() {
            Rect {
                height: area.height / 2,
                ..area
            }
        } else {
            area
        };
        // Rows that fit between the frame and the hint; the chosen one in
        // view.
        let room = usize::from(list_area.height.saturating_sub(3)).max(1);
        let shown = rows.len().min(room);
        let first = self
            .chooser
            .chosen()
            .saturating_sub(shown.saturating_sub(1))
            .min(rows.len() - shown);
        let mut lines: Vec<Line<'_>> = rows
            .iter()
            .enumerate()
            .skip(first)
            .take(shown)
            .map(|(i, row)| {
                // Names and titles come from programs and other users'
                // workspaces: shown, never acted on.
                let text = format!(" {}", escape_controls(&row.text));
                let style = if i == self.chooser.chosen() {
                    Style::default().add_modifier(Modifier::REVERSED)
                } else if row.current {
                    Style::default().add_modifier(Modifier::BOLD)
                } else {
                    Style::default()
                };
                Line::styled(text, style)
            })
            .collect();
        lines.push(hint);
        let Some((name, tab, text)) = preview else {
            let rect = centered(area, width, lines.len() + 2);
            Clear.render(rect, buf);
            Paragraph::new(lines).block(self.block()).render(rect, buf);
            return;
        };
        let list_h = u16::try_from(lines.len() + 2)
            .unwrap_or(u16::MAX)
            .min(list_area.height);
        let list = Rect {
            y: area.y + list_area.height - list_h,
            ..centered(area, width, usize::from(list_h))
        };
        Clear.render(list, buf);
        Paragraph::new(lines).block(self.block()).render(list, buf);
        let below = Rect {
            y: list.bottom(),
            height: area.bottom().saturating_sub(list.bottom()),
            ..list
        };
        if below.height < 3 {
            return;
        }
        // Another workspace's screen, as text: shown, never acted on.
        let inner = usize::from(below.height - 2);
        let shown: Vec<Line<'_>> = text
            .lines()
            .take(inner)
            .map(|l| Line::from(escape_controls(l).into_owned()))
            .collect();
        Clear.render(below, buf);
        Paragraph::new(shown)
            .block(
                Block::bordered()
                    .border_type(BorderType::Rounded)
                    .border_style(self.frame)
                    .title(format!(" {} · tab {tab} ", escape_controls(name))),
            )
            .render(below, buf);
    }
}

impl WorkspaceChooserPopup<'_> {
    fn block(&self) -> Block<'static> {
        Block::bordered()
            .border_type(BorderType::Rounded)
            .border_style(self.frame)
            .title(" workspaces ")
    }
}
