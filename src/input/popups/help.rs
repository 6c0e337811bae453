//! `prefix ?`: every binding, grouped by topic, generated from the keymap
//! itself so it can never disagree with what the keys do, in a popup that
//! fits the terminal. [`HelpView`] is the popup: where it is scrolled to
//! and what it is filtered by. It takes every key while it is open: it
//! scrolls (`j k`, arrows, `PgUp PgDn`, `g G`), filters (`/`), and `q` or
//! `Esc` close it. The prefix still works, so that `prefix ?` toggles it.

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};
use unicode_width::UnicodeWidthStr;

use super::{Cx, DrawCx, Popup, Reply, centered};
use crate::input::outcome::Outcome;
use crate::input::ui_state::Mode;

use crate::config::action::Action;
use crate::config::keymap::Keymap;

/// Topics, in the order help shows them.
const TOPICS: [&str; 6] = [
    "Panes",
    "Focus and size",
    "Tabs",
    "Layouts",
    "Copy, search, paste",
    "Workspace",
];

/// Which of [`TOPICS`] an action belongs to. A match without a catch-all,
/// so a new action cannot be left out of help by accident.
fn topic(action: Action) -> usize {
    match action {
        Action::SplitRight
        | Action::SplitDown
        | Action::ClosePane
        | Action::ToggleZoom
        | Action::RestartPane
        | Action::BreakPane
        | Action::MovePaneToNextTab
        | Action::MarkPane
        | Action::ClearPaneMark
        | Action::SwapNext
        | Action::SwapPrev
        | Action::RotatePanes
        | Action::ToggleFloating
        | Action::NewFloating
        | Action::ToggleEmbed
        | Action::MoveFloating(_)
        | Action::TogglePin
        | Action::PaneInfo => 0,
        Action::Focus(_)
        | Action::Navigate(_)
        | Action::FocusNext
        | Action::FocusPrev
        | Action::Resize(_)
        | Action::LastPane
        | Action::DisplayPanes => 1,
        Action::NewTab
        | Action::NextTab
        | Action::PrevTab
        | Action::GoToTab(_)
        | Action::CloseTab
        | Action::RenameTab
        | Action::LastTab
        | Action::SelectTab
        | Action::MoveTab
        | Action::MoveTabLeft
        | Action::MoveTabRight => 2,
        Action::Layout(_) | Action::NextLayout => 3,
        Action::ScrollMode
        | Action::ScrollPageUp
        | Action::ScrollPageDown
        | Action::SearchBackward
        | Action::SearchAllPanes
        | Action::PasteBuffer
        | Action::ChooseBuffer
        | Action::ClearHistory
        | Action::CopyLastOutput
        | Action::EditLastOutput
        | Action::EditScrollback => 4,
        Action::ToggleBroadcast
        | Action::SaveProfile
        | Action::ToggleHelp
        | Action::ToggleFps
        | Action::SendPrefix
        | Action::Detach
        | Action::ChooseWorkspace
        | Action::PrevWorkspace
        | Action::NextWorkspace
        | Action::SourceConfig
        | Action::Quit
        | Action::CommandPrompt
        | Action::RenameWorkspace => 5,
    }
}

/// One line of the help text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HelpLine {
    /// A topic's title.
    Heading(&'static str),
    /// The keys bound to an action, and what it does.
    Binding { keys: String, what: String },
    /// Between topics.
    Blank,
}

/// Help's lines: each topic with its bound actions, keeping those that
/// contain `filter` (case-insensitive; a topic whose title contains it is
/// kept whole). The nine go-to-tab bindings fold into one line when they
/// are the usual digits.
pub fn lines(keymap: &Keymap, filter: &str) -> Vec<HelpLine> {
    let filter = filter.to_lowercase();
    let digits_are_tabs = (1..=9u8).all(|n| {
        let keys = keymap.keys_for(Action::GoToTab(n));
        keys.len() == 1 && keys[0] == format!("{} {n}", keymap.prefix)
    });
    let mut by_topic: Vec<Vec<(String, String)>> = vec![Vec::new(); TOPICS.len()];
    for action in Action::all() {
        let row = match action {
            Action::GoToTab(1) if digits_are_tabs => {
                (format!("{} 1..9", keymap.prefix), "go to tab 1..9".into())
            }
            Action::GoToTab(_) if digits_are_tabs => continue,
            _ => {
                let keys = keymap.keys_for(action);
                if keys.is_empty() {
                    continue;
                }
                (keys.join(", "), action.description())
            }
        };
        by_topic[topic(action)].push(row);
    }
    let mut out = Vec::new();
    for (title, rows) in TOPICS.iter().zip(by_topic) {
        let whole = title.to_lowercase().contains(&filter);
        let rows: Vec<_> = rows
            .into_iter()
            .filter(|(keys, what)| {
                whole
                    || keys.to_lowercase().contains(&filter)
                    || what.to_lowercase().contains(&filter)
            })
            .collect();
        if rows.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(HelpLine::Blank);
        }
        out.push(HelpLine::Heading(title));
        out.extend(
            rows.into_iter()
                .map(|(keys, what)| HelpLine::Binding { keys, what }),
        );
    }
    out
}

/// Rows of the popup that are not help text: two borders and the line
/// that says how to scroll, search and close.
pub const CHROME_ROWS: usize = 3;

/// How many lines of help a screen `screen_rows` high shows at once.
pub fn visible_rows(screen_rows: u16) -> usize {
    usize::from(screen_rows).saturating_sub(CHROME_ROWS).max(1)
}

/// Where help is scrolled to and what it is filtered by.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HelpView {
    /// The first line shown.
    pub scroll: usize,
    /// Only lines containing this are shown.
    pub filter: String,
    /// `/` was pressed: keys type into the filter until Enter or Esc.
    pub editing: bool,
}

/// What a key did to help.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelpKey {
    /// Scrolled, filtered, or nothing.
    Stay,
    Close,
}

impl HelpView {
    /// The scroll position shown for `total` lines on a screen
    /// `screen_rows` high: never past the point where the last line is at
    /// the bottom.
    pub fn first_line(&self, total: usize, screen_rows: u16) -> usize {
        self.scroll
            .min(total.saturating_sub(visible_rows(screen_rows)))
    }

    /// A key while help is shown, on a screen `screen_rows` high.
    pub fn scroll_or_filter(
        &mut self,
        key: &KeyEvent,
        keymap: &Keymap,
        screen_rows: u16,
    ) -> HelpKey {
        if self.editing {
            self.edit_filter(key);
            return HelpKey::Stay;
        }
        let total = lines(keymap, &self.filter).len();
        let page = visible_rows(screen_rows).saturating_sub(1).max(1);
        let bottom = total.saturating_sub(visible_rows(screen_rows));
        // From where it shows, so that scrolling up at the bottom moves at once.
        let at = self.first_line(total, screen_rows);
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        self.scroll = match key.code {
            KeyCode::Char('q') => return HelpKey::Close,
            KeyCode::Esc | KeyCode::Enter if self.filter.is_empty() => return HelpKey::Close,
            KeyCode::Esc | KeyCode::Enter => {
                self.filter.clear();
                0
            }
            KeyCode::Char('/') => {
                self.editing = true;
                self.filter.clear();
                0
            }
            KeyCode::Char('d' | 'f') if ctrl => (at + page).min(bottom),
            KeyCode::Char('u') if ctrl => at.saturating_sub(page),
            KeyCode::Char('j') | KeyCode::Down => (at + 1).min(bottom),
            KeyCode::Char('k') | KeyCode::Up => at.saturating_sub(1),
            KeyCode::PageDown | KeyCode::Char(' ') => (at + page).min(bottom),
            KeyCode::PageUp => at.saturating_sub(page),
            KeyCode::Char('g') | KeyCode::Home => 0,
            KeyCode::Char('G') | KeyCode::End => bottom,
            _ => at,
        };
        HelpKey::Stay
    }

    fn edit_filter(&mut self, key: &KeyEvent) {
        let plain = !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        match key.code {
            KeyCode::Enter => self.editing = false,
            KeyCode::Esc => {
                self.editing = false;
                self.filter.clear();
            }
            KeyCode::Backspace => {
                self.filter.pop();
            }
            KeyCode::Char('u') if !plain => self.filter.clear(),
            KeyCode::Char(c) if plain && !c.is_control() => self.filter.push(c),
            _ => {}
        }
        self.scroll = 0;
    }
}

impl Popup for HelpView {
    fn handle_key(&mut self, cx: &mut Cx<'_>, key: &KeyEvent) -> Reply {
        // While the filter is typed, the prefix key is a key like others.
        if !self.editing && (cx.ui.mode == Mode::Prefix || cx.keymap.is_prefix(key)) {
            return Reply::pass(false);
        }
        // Help covers the whole terminal, status bar included.
        let screen_rows = cx.ws.tiling().area().height.saturating_add(1);
        match self.scroll_or_filter(key, cx.keymap, screen_rows) {
            HelpKey::Close => Reply::close(Outcome::redraw()),
            HelpKey::Stay => Reply::stay(Outcome::redraw()),
        }
    }

    fn draw(&self, buf: &mut Buffer, at: &DrawCx<'_>) {
        HelpOverlay {
            keymap: at.keymap,
            view: self,
            frame: at.theme.popup,
        }
        .render(at.screen, buf);
    }
}

/// Widest the keys column gets; longer key lists are cut.
const MAX_KEYS_WIDTH: usize = 34;

pub struct HelpOverlay<'a> {
    pub keymap: &'a Keymap,
    pub view: &'a HelpView,
    /// The frame's style (the theme's `popup`).
    pub frame: Style,
}

/// `text` cut to `width` columns, with `…` when something was cut.
fn fit(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    let mut out = String::new();
    for c in text.chars() {
        if out.width() + unicode_width::UnicodeWidthChar::width(c).unwrap_or(0) + 1 > width {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

impl HelpOverlay<'_> {
    fn styled(all: &[HelpLine], inner_width: usize) -> Vec<Line<'static>> {
        let keys_w = all
            .iter()
            .filter_map(|l| match l {
                HelpLine::Binding { keys, .. } => Some(keys.width()),
                _ => None,
            })
            .max()
            .unwrap_or(0)
            .min(MAX_KEYS_WIDTH)
            .min(inner_width / 2);
        let what_w = inner_width.saturating_sub(keys_w + 3);
        let key_style = Style::default()
            .fg(Color::Yellow)
            .add_modifier(Modifier::BOLD);
        all.iter()
            .map(|line| match line {
                HelpLine::Heading(title) => Line::styled(
                    format!(" {title}"),
                    Style::default()
                        .fg(Color::Cyan)
                        .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
                ),
                HelpLine::Binding { keys, what } => Line::from(vec![
                    Span::styled(format!(" {:<keys_w$}  ", fit(keys, keys_w)), key_style),
                    Span::raw(fit(what, what_w)),
                ]),
                HelpLine::Blank => Line::default(),
            })
            .collect()
    }

    fn footer(&self, first: usize, shown: usize, total: usize) -> Line<'static> {
        let dim = Style::default().fg(Color::DarkGray);
        let view = self.view;
        if view.editing {
            return Line::from(vec![
                Span::styled(" search: ", Style::default().fg(Color::Yellow)),
                Span::raw(format!("{}▏", view.filter)),
                Span::styled("  Enter keeps · Esc clears", dim),
            ]);
        }
        let place = if total == 0 {
            "nothing matches".to_string()
        } else {
            format!("{}-{} of {total}", first + 1, first + shown)
        };
        let filter = if view.filter.is_empty() {
            String::new()
        } else {
            format!("/{} · Esc clears · ", view.filter)
        };
        Line::styled(
            format!(" {place} · {filter}↑↓ PgUp PgDn g G scroll · / search · q close"),
            dim,
        )
    }
}

impl Widget for HelpOverlay<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let all = lines(self.keymap, &self.view.filter);
        let rows = visible_rows(area.height);
        let first = self.view.first_line(all.len(), area.height);
        let width = area.width.min(100);
        let styled = Self::styled(&all, usize::from(width.saturating_sub(2)));
        let body: Vec<Line<'static>> = styled.into_iter().skip(first).take(rows).collect();
        let footer = self.footer(first, body.len(), all.len());
        // As tall as the help needs, never taller than the terminal.
        let height = (all.len().max(1) + CHROME_ROWS).min(usize::from(area.height));
        let rect = centered(area, width, height);
        Clear.render(rect, buf);
        let block = Block::bordered()
            .border_type(BorderType::Rounded)
            .border_style(self.frame)
            .title(" tilework keys ");
        let inner = block.inner(rect);
        block.render(rect, buf);
        if inner.height == 0 {
            return;
        }
        let body_area = Rect {
            height: inner.height - 1,
            ..inner
        };
        Paragraph::new(body).render(body_area, buf);
        let footer_area = Rect {
            y: inner.bottom() - 1,
            height: 1,
            ..inner
        };
        Paragraph::new(footer).render(footer_area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn every_bound_action_is_under_one_topic_heading() {
        let keymap = Keymap::default();
        let all = lines(&keymap, "");
        let headings: Vec<_> = all
            .iter()
            .filter_map(|l| match l {
                HelpLine::Heading(t) => Some(*t),
                _ => None,
            })
            .collect();
        assert_eq!(headings, TOPICS);
        let quit = all
            .iter()
            .position(|l| matches!(l, HelpLine::Binding { what, .. } if what.starts_with("quit")))
            .expect("quit is listed");
        let workspace = all
            .iter()
            .position(|l| *l == HelpLine::Heading("Workspace"))
            .expect("a Workspace topic");
        assert!(quit > workspace);
        let tabs = all
            .iter()
            .filter(|l| matches!(l, HelpLine::Binding { keys, .. } if keys.contains("1..9")))
            .count();
        assert_eq!(tabs, 1, "the go-to-tab keys fold into one line");
    }

    #[test]
    fn a_filter_keeps_matching_lines_under_their_topics() {
        let keymap = Keymap::default();
        let found = lines(&keymap, "ZOOM");
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0], HelpLine::Heading("Panes"));
        assert!(matches!(&found[1], HelpLine::Binding { keys, .. } if keys.contains("C-b z")));
        assert!(lines(&keymap, "no such thing").is_empty());
        let tabs = lines(&keymap, "tabs");
        assert!(tabs.len() > 5, "a topic's title keeps it whole: {tabs:?}");
    }

    #[test]
    fn scrolling_stops_with_the_last_line_at_the_bottom() {
        let keymap = Keymap::default();
        let total = lines(&keymap, "").len();
        let mut view = HelpView::default();
        view.scroll_or_filter(&key(KeyCode::Char('G')), &keymap, 24);
        assert_eq!(view.first_line(total, 24), total - visible_rows(24));
        for _ in 0..100 {
            view.scroll_or_filter(&key(KeyCode::Char('j')), &keymap, 24);
        }
        assert_eq!(view.first_line(total, 24), total - visible_rows(24));
        view.scroll_or_filter(&key(KeyCode::Char('k')), &keymap, 24);
        assert_eq!(view.first_line(total, 24), total - visible_rows(24) - 1);
        view.scroll_or_filter(&key(KeyCode::Char('g')), &keymap, 24);
        assert_eq!(view.scroll, 0);
    }

    #[test]
    fn slash_types_a_filter_and_esc_clears_it_before_closing() {
        let keymap = Keymap::default();
        let mut view = HelpView::default();
        view.scroll_or_filter(&key(KeyCode::Char('/')), &keymap, 24);
        for c in "quit".chars() {
            view.scroll_or_filter(&key(KeyCode::Char(c)), &keymap, 24);
        }
        assert_eq!(view.filter, "quit");
        // `q` types while the filter is edited; Enter ends the editing.
        assert_eq!(
            view.scroll_or_filter(&key(KeyCode::Enter), &keymap, 24),
            HelpKey::Stay
        );
        assert!(!view.editing);
        assert_eq!(
            view.scroll_or_filter(&key(KeyCode::Esc), &keymap, 24),
            HelpKey::Stay
        );
        assert!(view.filter.is_empty());
        assert_eq!(
            view.scroll_or_filter(&key(KeyCode::Esc), &keymap, 24),
            HelpKey::Close
        );
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod drawing_tests {
    use super::*;

    fn render(view: &HelpView, w: u16, h: u16) -> Vec<String> {
        let keymap = Keymap::default();
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        HelpOverlay {
            keymap: &keymap,
            view,
            frame: Style::default(),
        }
        .render(area, &mut buf);
        (0..h)
            .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>())
            .collect()
    }

    #[test]
    fn at_80x24_it_fits_and_scrolled_down_shows_its_last_line() {
        let top = render(&HelpView::default(), 80, 24);
        assert!(top[0].contains("tilework keys"), "{top:#?}");
        assert!(top[1].contains("Panes"), "{top:#?}");
        assert!(
            top[23].starts_with('╰'),
            "the bottom border shows: {top:#?}"
        );
        assert!(top[22].contains("q close"), "{top:#?}");
        assert!(!top.join("\n").contains("quit tilework"));

        let view = HelpView {
            scroll: usize::MAX,
            ..HelpView::default()
        };
        let bottom = render(&view, 80, 24);
        let text = bottom.join("\n");
        assert!(
            bottom[21].contains("rename the workspace"),
            "the last binding is on the last row: {bottom:#?}"
        );
        assert!(text.contains("Workspace"), "{text}");
        assert!(!text.contains(" Panes"), "{text}");
        for row in &bottom {
            assert_eq!(row.width(), 80);
        }
    }

    #[test]
    fn a_filter_shows_only_what_matches() {
        let view = HelpView {
            filter: "zoom".into(),
            ..HelpView::default()
        };
        let shown = render(&view, 80, 24).join("\n");
        assert!(shown.contains("C-b z"), "{shown}");
        assert!(!shown.contains("split"), "{shown}");
        assert!(shown.contains("/zoom"), "{shown}");
    }
}
