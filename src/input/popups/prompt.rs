//! The one-line prompt in the status bar's place: renaming a tab or the
//! workspace, naming a profile to save, a copy-mode search (run as the
//! pattern is typed), a search across panes, a tab to go to, and the
//! command line (`C-b :`). It takes every key while it is open.

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::{Cx, DrawCx, FollowUp, Popup, Reply, search_all};
use crate::input::command_line;
use crate::input::outcome::{Command, Outcome};

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

    /// A key typed into the line.
    pub fn edit(&mut self, key: &KeyEvent) -> PromptEvent {
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

impl Popup for Prompt {
    fn handle_key(&mut self, cx: &mut Cx<'_>, key: &KeyEvent) -> Reply {
        let event = self.edit(key);
        let kind = self.kind;
        match event {
            PromptEvent::Cancel => {
                if kind == PromptKind::Search {
                    cx.ui.copy.clear_search();
                }
                return Reply::close(Outcome::redraw());
            }
            PromptEvent::Submit(text) => return submit(cx, kind, text),
            PromptEvent::Edited | PromptEvent::ToggleCase if kind == PromptKind::Search => {
                let toggle = event == PromptEvent::ToggleCase;
                if let Some(status) = cx.copy_search(&self.text.clone(), toggle) {
                    self.status = status;
                }
            }
            PromptEvent::Complete if kind == PromptKind::Command => {
                let (completed, candidates) = command_line::complete(&self.text);
                self.text = completed;
                self.status = candidates.join(" ");
            }
            PromptEvent::Edited if kind == PromptKind::Command => self.status.clear(),
            _ => {}
        }
        Reply::stay(Outcome::redraw())
    }

    fn draw(&self, buf: &mut Buffer, at: &DrawCx<'_>) {
        self.render(at.bar, buf);
    }

    fn in_bar(&self) -> bool {
        true
    }

    fn show_search_status(&mut self, status: &str) -> bool {
        if self.kind != PromptKind::Search {
            return false;
        }
        self.status = status.to_string();
        true
    }
}

/// Enter: what the prompt was opened for. It closes first.
fn submit(cx: &mut Cx<'_>, kind: PromptKind, text: String) -> Reply {
    let done = |outcome| Reply::close(outcome);
    match kind {
        PromptKind::RenameTab => {
            cx.ws.tabs_mut().rename_shown(&text);
        }
        PromptKind::SaveProfile => return done(save(cx, text.trim())),
        // The history is still loading: search when it lands.
        PromptKind::Search if !cx.ui.copy.is_active() => cx.ui.copy.search_later(text),
        PromptKind::Search => cx.search_copy(&text, false),
        PromptKind::SearchAll => return done(search_all::start(cx, &text)),
        PromptKind::SelectTab => select_tab(cx, &text),
        PromptKind::MoveTab => move_tab(cx, &text),
        PromptKind::Command if text.trim().is_empty() => {}
        PromptKind::Command => match command_line::parse(&text) {
            Ok(line) => return done(Outcome::default()).then(FollowUp::CommandLine(line)),
            Err(why) => cx.ui.notify(why),
        },
        PromptKind::RenameWorkspace => return done(rename_workspace(cx, &text)),
    }
    done(Outcome::redraw())
}

/// `C-b '`: a tab's number, else its name.
pub(in crate::input) fn select_tab(cx: &mut Cx<'_>, text: &str) {
    let text = text.trim();
    let by_number = text
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=cx.ws.tabs().len()).contains(n));
    let by_name = || (0..cx.ws.tabs().len()).find(|&i| cx.ws.tabs().name(i, cx.ws.panes()) == text);
    match by_number.map(|n| n - 1).or_else(by_name) {
        Some(index) => {
            cx.ws.tabs_mut().select(index);
            cx.ui.leave_copy_if_unfocused(cx.ws);
        }
        None if text.is_empty() => {}
        None => cx.ui.notify(format!(
            "no tab {text}: there are {} (a number or a name)",
            cx.ws.tabs().len()
        )),
    }
}

/// `C-b .`: the place (1-based) to move the tab to.
pub(in crate::input) fn move_tab(cx: &mut Cx<'_>, text: &str) {
    let text = text.trim();
    let count = cx.ws.tabs().len();
    match text.parse::<usize>() {
        Ok(n) if (1..=count).contains(&n) => {
            cx.ws.tabs_mut().move_shown_to(n - 1);
        }
        _ if text.is_empty() => {}
        _ => cx
            .ui
            .notify(format!("no place {text}: a number from 1 to {count}")),
    }
}

/// `C-b $`: the loop renames the workspace's socket.
pub(in crate::input) fn rename_workspace(cx: &mut Cx<'_>, text: &str) -> Outcome {
    let name = text.trim();
    if name.is_empty() || Some(name) == cx.workspace_name {
        return Outcome::redraw();
    }
    Outcome::redraw().with(Command::RenameWorkspace(name.to_string()))
}

/// Asks the loop to save the workspace as profile `name`.
fn save(cx: &mut Cx<'_>, name: &str) -> Outcome {
    if name.is_empty() {
        cx.ui.notify("not saved: a profile needs a name".into());
        return Outcome::redraw();
    }
    Outcome::redraw().with(Command::SaveProfile(name.to_string()))
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
        assert_eq!(p.edit(&key(KeyCode::Backspace)), PromptEvent::Edited);
        for c in "ne two".chars() {
            p.edit(&key(KeyCode::Char(c)));
        }
        assert_eq!(p.text, "one two");
        p.edit(&KeyEvent::new(KeyCode::Char('w'), KeyModifiers::CONTROL));
        assert_eq!(p.text, "one ");
        assert_eq!(
            p.edit(&key(KeyCode::Enter)),
            PromptEvent::Submit("one ".into())
        );
        assert_eq!(p.edit(&key(KeyCode::Esc)), PromptEvent::Cancel);
        assert_eq!(
            p.edit(&KeyEvent::new(KeyCode::Char('c'), KeyModifiers::ALT)),
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
