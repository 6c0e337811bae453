//! A one-line text prompt drawn over the status bar: renaming a tab,
//! naming a saved session, typing a search pattern.

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    RenameTab,
    SaveProfile,
    /// Search in the focused pane (copy mode).
    Search,
    /// Search every pane of the tab.
    SearchAll,
    /// A tab's number or name, to show it (`C-b '`).
    SelectTab,
    /// The place to move the tab to (`C-b .`).
    MoveTab,
    /// A command as `tilework action` and the CLI take it (`C-b :`).
    Command,
    /// The workspace's new name (`C-b $`).
    RenameWorkspace,
}

impl PromptKind {
    fn label(self) -> &'static str {
        match self {
            PromptKind::RenameTab => "rename tab",
            PromptKind::SaveProfile => "save workspace as profile",
            PromptKind::Search => "search (regex, Alt-c: case)",
            PromptKind::SearchAll => "search all panes (regex)",
            PromptKind::SelectTab => "go to tab (number or name)",
            PromptKind::MoveTab => "move tab to place",
            PromptKind::Command => "command (Tab completes)",
            PromptKind::RenameWorkspace => "rename workspace",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptEvent {
    /// The text changed (search runs as you type).
    Edited,
    /// Alt-c: toggle case sensitivity.
    ToggleCase,
    /// Tab: complete the word typed (the command prompt's).
    Complete,
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
            KeyCode::Tab => PromptEvent::Complete,
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
        // The status (a match count, "searching…", why a pattern is refused)
        // keeps its place at the right however long the text grows; the
        // text gets what is left, when at least a few columns are.
        let status_width = self.status.width() + 1;
        let show_status = !self.status.is_empty() && room >= status_width + 2 + MIN_TEXT_ROOM;
        let text_room = if show_status {
            room - status_width - 2
        } else {
            room
        };
        // One column for the cursor.
        let shown = tail_fitting(&self.text, text_room.saturating_sub(1));
        let (x, _) = buf.set_stringn(x, area.y, shown, text_room, style);
        if x < area.right() {
            buf.set_string(x, area.y, "▏", style);
        }
        if show_status {
            let w = u16::try_from(status_width).unwrap_or(u16::MAX);
            buf.set_string(
                area.right().saturating_sub(w),
                area.y,
                &self.status,
                style.fg(Color::Yellow),
            );
        }
    }
}

/// Columns the text keeps before the status is left out.
const MIN_TEXT_ROOM: usize = 10;

/// The end of `text` that fits in `room` columns: that is where the user
/// types. One pass from the end, so a pattern of thousands of characters
/// costs no more than its length each frame.
fn tail_fitting(text: &str, room: usize) -> &str {
    let mut width = 0;
    let mut start = text.len();
    for (i, c) in text.char_indices().rev() {
        width += c.width().unwrap_or(0);
        if width > room {
            break;
        }
        start = i;
    }
    &text[start..]
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

    #[test]
    fn a_long_text_shows_its_end_and_keeps_the_status_in_view() {
        let mut p = Prompt::new(PromptKind::Search, &"x".repeat(5000));
        p.text.push_str("tail");
        p.status = "searching…".into();
        let area = Rect::new(0, 0, 60, 1);
        let mut buf = Buffer::empty(area);
        (&p).render(area, &mut buf);
        let line: String = (0..area.width)
            .map(|x| buf[(x, 0)].symbol().to_string())
            .collect();
        assert!(
            line.starts_with(" search (regex, Alt-c: case): xxx"),
            "{line:?}"
        );
        assert!(line.contains("xxtail▏"), "{line:?}");
        assert!(line.ends_with(" searching… "), "{line:?}");
    }

    #[test]
    fn the_tail_that_fits_counts_wide_characters_twice() {
        assert_eq!(tail_fitting("abc日本", 4), "日本");
        assert_eq!(tail_fitting("abc日本", 5), "c日本");
        assert_eq!(tail_fitting("abc", 10), "abc");
        assert_eq!(tail_fitting("日本", 1), "");
    }
}
