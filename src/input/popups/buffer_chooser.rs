//! `C-b =`'s chooser over the paste buffers (tmux's `choose-buffer`):
//! newest first, the chosen one in reverse video. Up and down (or `k` `j`)
//! pick one, Enter pastes it, a digit pastes that buffer at once, any other
//! key closes the list. The copies are the workspace's; the chooser is a
//! terminal's own.

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

use super::{Cx, DrawCx, Popup, Reply, centered};
use crate::input::outcome::Outcome;
use crate::input::paste_buffers::{PasteBuffers, preview};

/// The chooser, on buffer `at` (0: the newest).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferChooser {
    pub at: usize,
}

impl BufferChooser {
    /// Open on the newest; `None` when nothing was copied.
    pub fn over(buffers: &PasteBuffers) -> Option<Self> {
        (!buffers.is_empty()).then_some(Self { at: 0 })
    }

    /// Moves by `step` over `len` buffers, wrapping around.
    fn step(&mut self, step: isize, len: usize) {
        if len > 0 {
            let len = isize::try_from(len).unwrap_or(isize::MAX);
            let next = (isize::try_from(self.at).unwrap_or(0) + step).rem_euclid(len);
            self.at = usize::try_from(next).unwrap_or(0);
        }
    }
}

impl Popup for BufferChooser {
    fn handle_key(&mut self, cx: &mut Cx<'_>, key: &KeyEvent) -> Reply {
        let picked = match key.code {
            KeyCode::Up | KeyCode::Char('k') => {
                self.step(-1, cx.ui.buffers.len());
                return Reply::stay(Outcome::redraw());
            }
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                self.step(1, cx.ui.buffers.len());
                return Reply::stay(Outcome::redraw());
            }
            KeyCode::Enter => Some(self.at),
            KeyCode::Char(c) => c.to_digit(10).and_then(|d| usize::try_from(d).ok()),
            _ => None,
        };
        let text = picked.and_then(|i| cx.ui.buffers.get(i));
        let mut out = Outcome::redraw();
        if let Some(text) = text {
            out.merge(cx.paste(&text));
        }
        Reply::close(out)
    }

    fn draw(&self, buf: &mut Buffer, at: &DrawCx<'_>) {
        let area = at.panes;
        let width = area.width.saturating_sub(8).max(20);
        let text_width = usize::from(width.saturating_sub(8));
        let mut lines: Vec<Line<'_>> = at
            .ui
            .buffers()
            .all()
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let style = if i == self.at {
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
                    .border_style(at.theme.popup)
                    .title(" paste buffers "),
            )
            .render(rect, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chooser_wraps_and_opens_only_on_something() {
        let mut buffers = PasteBuffers::default();
        assert!(BufferChooser::over(&buffers).is_none());
        buffers.push("a");
        buffers.push("b");
        let mut chooser = BufferChooser::over(&buffers).unwrap_or(BufferChooser { at: 9 });
        assert_eq!(chooser.at, 0);
        chooser.step(-1, buffers.len());
        assert_eq!(chooser.at, 1);
        chooser.step(1, buffers.len());
        assert_eq!(chooser.at, 0);
    }
}
