//! The bottom line: tabs, the focused pane, the current mode, and hints for
//! the keys a newcomer needs first.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;
use unicode_width::UnicodeWidthStr;

use crate::config::action::Action;
use crate::config::keymap::Keymap;
use crate::input::ui_state::{Confirm, Mode};
use crate::workspace::Workspace;

/// A tab's label and where it sits on the bar, for drawing and for clicks.
pub fn tab_spans(ws: &Workspace) -> Vec<(u16, u16, usize, String)> {
    let mut x = 0u16;
    let mut spans = Vec::new();
    for (i, tab) in ws.tabs().iter().enumerate() {
        // Markers a tmux user knows: Z zoomed, ! bell, • output while hidden,
        // ⇶ broadcasting.
        let mut marks = String::new();
        if tab.zoomed {
            marks.push_str(" Z");
        }
        if tab.broadcast {
            marks.push_str(" ⇶");
        }
        if tab.bell {
            marks.push_str(" !");
        } else if tab.activity {
            marks.push_str(" •");
        }
        let label = format!(" {}:{}{marks} ", i + 1, truncate(&ws.tab_name(i), 16));
        let w = u16::try_from(label.width()).unwrap_or(u16::MAX);
        spans.push((x, x.saturating_add(w), i, label));
        x = x.saturating_add(w).saturating_add(1);
    }
    spans
}

/// Which tab the status bar shows at column `x`.
pub fn tab_at(ws: &Workspace, x: u16) -> Option<usize> {
    tab_spans(ws)
        .into_iter()
        .find(|&(a, b, _, _)| (a..b).contains(&x))
        .map(|(_, _, i, _)| i)
}

pub struct StatusBar<'a> {
    pub ws: &'a Workspace,
    pub keymap: &'a Keymap,
    pub mode: Mode,
    /// A short message that replaces the hints for a moment.
    pub notice: Option<&'a str>,
}

fn truncate(s: &str, max: usize) -> String {
    if s.width() <= max {
        return s.to_string();
    }
    let mut out = String::new();
    for c in s.chars() {
        if out.width() + 1 >= max {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

impl Widget for StatusBar<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let base = Style::default().bg(Color::Indexed(236)).fg(Color::Gray);
        buf.set_style(area, base);
        let mut x = area.x;
        let right_edge = area.right();
        for (_, _, i, label) in tab_spans(self.ws) {
            let tab = &self.ws.tabs()[i];
            let style = if i == self.ws.active_index() {
                Style::default()
                    .bg(Color::Green)
                    .fg(Color::Black)
                    .add_modifier(Modifier::BOLD)
            } else if tab.bell {
                base.fg(Color::LightRed).add_modifier(Modifier::BOLD)
            } else if tab.activity {
                base.fg(Color::White).add_modifier(Modifier::BOLD)
            } else {
                base
            };
            let (nx, _) = buf.set_stringn(x, area.y, &label, usize::from(right_edge - x), style);
            x = nx.saturating_add(1).min(right_edge);
        }
        let (mode_text, mode_style) = match self.mode {
            Mode::Prefix => (
                " PREFIX ",
                Style::default().bg(Color::Yellow).fg(Color::Black),
            ),
            Mode::Copy => (" COPY ", Style::default().bg(Color::Cyan).fg(Color::Black)),
            Mode::Normal => ("", base),
        };
        if !mode_text.is_empty() && x < right_edge {
            let (nx, _) = buf.set_stringn(
                x,
                area.y,
                mode_text,
                usize::from(right_edge - x),
                mode_style.add_modifier(Modifier::BOLD),
            );
            x = nx.saturating_add(1).min(right_edge);
        }
        let (pos, count) = self.ws.focus_position();
        let title = self
            .ws
            .focused_id()
            .map(|id| self.ws.pane_title(id).to_string())
            .unwrap_or_default();
        let middle = format!("pane {pos}/{count}  {}", truncate(&title, 40));

        let broadcast = self.ws.tab().is_some_and(|t| t.broadcast);
        let hints = match self.notice {
            Some(text) => format!("{text} "),
            None if broadcast => "BROADCAST: keys go to every pane of this tab ".into(),
            None => self.hints(),
        };
        let hints_style = if self.notice.is_some() || broadcast {
            base.fg(Color::Yellow).add_modifier(Modifier::BOLD)
        } else {
            base.fg(Color::DarkGray)
        };
        let hints_w = u16::try_from(hints.width()).unwrap_or(u16::MAX);
        let middle_room = right_edge.saturating_sub(x);
        let (nx, _) = buf.set_stringn(
            x,
            area.y,
            &middle,
            usize::from(middle_room),
            base.fg(Color::White),
        );
        if right_edge.saturating_sub(nx) > hints_w + 1 {
            buf.set_string(right_edge - hints_w, area.y, &hints, hints_style);
        } else if self.notice.is_some() {
            // A notice matters more than the title: it takes the middle.
            let room = usize::from(right_edge.saturating_sub(x));
            buf.set_stringn(x, area.y, &hints, room, hints_style);
        }
    }
}

impl StatusBar<'_> {
    /// Everything the bar's look depends on, so an unchanged bar need not
    /// be drawn again.
    pub fn signature(&self) -> String {
        use std::fmt::Write;
        let title = self.ws.focused_id().map_or("", |id| self.ws.pane_title(id));
        let mut key = format!(
            "{}|{:?}|{:?}|{:?}|{title}",
            self.ws.active_index(),
            self.mode,
            self.notice,
            self.ws.focus_position()
        );
        for (i, tab) in self.ws.tabs().iter().enumerate() {
            let _ = write!(
                key,
                "|{}{}{}{}{}",
                self.ws.tab_name(i),
                u8::from(tab.zoomed),
                u8::from(tab.broadcast),
                u8::from(tab.bell),
                u8::from(tab.activity)
            );
        }
        key
    }

    fn hints(&self) -> String {
        let keys = [
            (Action::ToggleHelp, "help"),
            (Action::SplitRight, "split"),
            (Action::SplitDown, "split↓"),
            (Action::ClosePane, "close"),
            (Action::ToggleZoom, "zoom"),
            (Action::ScrollMode, "copy"),
        ];
        let mut parts: Vec<String> = keys
            .iter()
            .filter_map(|(a, what)| self.keymap.hint(*a).map(|k| format!("{k} {what}")))
            .collect();
        if self.mode == Mode::Copy {
            parts = vec![
                "hjkl w/b/e f/t H/L PgUp move".into(),
                "v V C-v select".into(),
                "y copy".into(),
                "/ search n/N".into(),
                "q/Esc leave".into(),
            ];
        }
        format!("{} ", parts.join("  "))
    }
}

/// A close or quit waiting for `y`, in place of the status bar.
pub struct ConfirmBar<'a> {
    pub confirm: &'a Confirm,
}

impl Widget for ConfirmBar<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let style = Style::default()
            .bg(Color::Yellow)
            .fg(Color::Black)
            .add_modifier(Modifier::BOLD);
        buf.set_style(area, style);
        let text = format!(" {} (y/n) ", self.confirm.question);
        buf.set_stringn(area.x, area.y, &text, usize::from(area.width), style);
    }
}
