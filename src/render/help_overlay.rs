//! `prefix ?`: the bindings by topic (`input::help`), in a popup that fits
//! the terminal, scrolled and filtered as the user asked.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};
use unicode_width::UnicodeWidthStr;

use crate::config::keymap::Keymap;
use crate::input::help::{CHROME_ROWS, HelpLine, HelpView, lines, visible_rows};
use crate::render::popups::centered;

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
#[allow(clippy::unwrap_used)]
mod tests {
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
