//! A one-line text prompt drawn over the status bar: renaming a tab,
//! naming a saved session, typing a search pattern.

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;
use unicode_width::UnicodeWidthStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    RenameTab,
    SaveSession,
    /// Search in the focused pane (copy mode).
    Search,
    /// Search every pane of the tab.
    SearchAll,
}

impl PromptKind {
    fn label(self) -> &'static str {
        match self {
            PromptKind::RenameTab => "rename tab",
            PromptKind::SaveSession => "save workspace as profile",
            PromptKind::Search => "search (regex, Alt-c: case)",
            PromptKind::SearchAll => "search all panes (regex)",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptEvent {
    /// The text changed (search runs as you type).
    Edited,
    /// Alt-c: toggle case sensitivity.
    ToggleCase,
    Submit(String),
    Cancel,
    Ignored,
}

#[derive(Debug, Clone)]
pub struct Prompt {
    pub kind: PromptKind,
    pub text: String,
    /// Shown after the text (e.g. "3/12 matches" or a regex error).
    pub status: String,
}

impl Prompt {
    pub fn new(kind: PromptKind, initial: &str) -> Self {
        Self {
            kind,
            text: initial.to_string(),
            status: String::new(),
        }
    }

    pub fn handle_key(&mut self, key: &KeyEvent) -> PromptEvent {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        match key.code {
            KeyCode::Enter => PromptEvent::Submit(self.text.clone()),
            KeyCode::Esc => PromptEvent::Cancel,
            KeyCode::Char('c' | 'g') if ctrl => PromptEvent::Cancel,
            KeyCode::Char('c') if alt => PromptEvent::ToggleCase,
            KeyCode::Char('u') if ctrl => {
                self.text.clear();
                PromptEvent::Edited
            }
            KeyCode::Char('w') if ctrl => {
                let trimmed = self.text.trim_end();
                let cut = trimmed.rfind(char::is_whitespace).map_or(0, |i| i + 1);
                self.text.truncate(cut);
                PromptEvent::Edited
            }
            KeyCode::Backspace => {
                self.text.pop();
                PromptEvent::Edited
            }
            KeyCode::Char(c) if !ctrl && !alt && !c.is_control() => {
                self.text.push(c);
                PromptEvent::Edited
            }
            _ => PromptEvent::Ignored,
        }
    }
}

impl Widget for &Prompt {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let style = Style::default().bg(Color::Blue).fg(Color::White);
        buf.set_style(area, style);
        let label = format!(" {}: ", self.kind.label());
        let (x, _) = buf.set_stringn(
            area.x,
            area.y,
            &label,
            usize::from(area.width),
            style.add_modifier(Modifier::BOLD),
        );
        let room = usize::from(area.right().saturating_sub(x));
        // Show the end of a long text: that is where the user types.
        let mut shown = self.text.as_str();
        while shown.width() + 1 > room && !shown.is_empty() {
            let mut chars = shown.chars();
            chars.next();
            shown = chars.as_str();
        }
        let (x, _) = buf.set_stringn(x, area.y, shown, room, style);
        if x < area.right() {
            buf.set_string(x, area.y, "▏", style);
        }
        if !self.status.is_empty() {
            let w = u16::try_from(self.status.width() + 1).unwrap_or(u16::MAX);
            if area.right().saturating_sub(x) > w + 2 {
                buf.set_string(
                    area.right() - w,
                    area.y,
                    &self.status,
                    style.fg(Color::Yellow),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn edits_and_submits() {
        let mut p = Prompt::new(PromptKind::RenameTab, "ol");
        assert_eq!(p.handle_key(&key(KeyCode::Backspace)), PromptEvent::Edited);
        for c in "ne two".chars() {
            p.handle_key(&key(KeyCode::Char(c)));
        }
        assert_eq!(p.text, "one two");
        p.handle_key(&KeyEvent::new(KeyCode::Char('w'), KeyModifiers::CONTROL));
        assert_eq!(p.text, "one ");
        assert_eq!(
            p.handle_key(&key(KeyCode::Enter)),
            PromptEvent::Submit("one ".into())
        );
        assert_eq!(p.handle_key(&key(KeyCode::Esc)), PromptEvent::Cancel);
        assert_eq!(
            p.handle_key(&KeyEvent::new(KeyCode::Char('c'), KeyModifiers::ALT)),
            PromptEvent::ToggleCase
        );
    }
}
