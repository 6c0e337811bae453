//! The which-key popup after the prefix: a short hint of the keys most
//! used, by topic, one line each (`1-9 go to tab`, `hjkl focus`), built
//! from the keymap so it shows what the keys really do. Everything else is
//! in help (`?`), which the hint names. The prefix layer draws it while it
//! waits for the key after the prefix (`layers::prefix`).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};
use unicode_width::UnicodeWidthStr;

use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use crate::config::action::{Action, Direction};
use crate::config::keymap::{KeySpec, Keymap};

/// One hint: the keys of one or more actions, and a label for them.
enum Hint {
    /// Every key of these actions, e.g. `%/|` for `split right`.
    Keys(&'static [Action], &'static str),
    /// The four directions of one action in vi order (left down up right),
    /// e.g. `hjkl` or `←↓↑→`.
    Directions(fn(Direction) -> Action, &'static str),
    /// `1-9` when the digits go to the tabs.
    TabDigits,
}

/// The topics and their hints, in order.
const TOPICS: &[(&str, &[Hint])] = &[
    (
        "panes",
        &[
            Hint::Keys(&[Action::SplitRight], "split right"),
            Hint::Keys(&[Action::SplitDown], "split down"),
            Hint::Keys(&[Action::ClosePane], "close"),
            Hint::Keys(&[Action::ToggleZoom], "zoom"),
            Hint::Directions(Action::Focus, "focus"),
            Hint::Keys(&[Action::FocusNext], "next"),
            Hint::Directions(Action::Resize, "resize"),
        ],
    ),
    (
        "tabs",
        &[
            Hint::Keys(&[Action::NewTab], "new"),
            Hint::Keys(&[Action::NextTab, Action::PrevTab], "next/previous"),
            Hint::TabDigits,
            Hint::Keys(&[Action::RenameTab], "rename"),
            Hint::Keys(&[Action::CloseTab], "close"),
            Hint::Keys(&[Action::LastTab], "last"),
        ],
    ),
    (
        "copy",
        &[
            Hint::Keys(&[Action::ScrollMode], "copy mode"),
            Hint::Keys(&[Action::SearchBackward], "search"),
            Hint::Keys(&[Action::SearchAllPanes], "search all panes"),
            Hint::Keys(&[Action::PasteBuffer], "paste"),
        ],
    ),
    (
        "more",
        &[
            Hint::Keys(&[Action::ToggleHelp], "all keys"),
            Hint::Keys(&[Action::NextLayout], "layout"),
            Hint::Keys(&[Action::SaveProfile], "save"),
            Hint::Keys(&[Action::Quit], "quit"),
            Hint::Keys(&[Action::CommandPrompt], "command"),
        ],
    ),
];

/// The vi order of directions, as `hjkl` reads.
const VI_ORDER: [Direction; 4] = [
    Direction::Left,
    Direction::Down,
    Direction::Up,
    Direction::Right,
];

/// A key as short as it can be said: arrows as arrows.
fn short(key: &KeySpec) -> String {
    let arrow = match key.code {
        KeyCode::Left => Some("←"),
        KeyCode::Right => Some("→"),
        KeyCode::Up => Some("↑"),
        KeyCode::Down => Some("↓"),
        _ => None,
    };
    match arrow {
        Some(a) => format!("{}{a}", mods(key)),
        None => key.to_string(),
    }
}

fn mods(key: &KeySpec) -> String {
    let mut out = String::new();
    for (flag, text) in [
        (KeyModifiers::CONTROL, "C-"),
        (KeyModifiers::ALT, "M-"),
        (KeyModifiers::SHIFT, "S-"),
    ] {
        if key.modifiers.contains(flag) {
            out.push_str(text);
        }
    }
    out
}

/// The keys after the prefix bound to `action`, in keymap order.
fn prefixed(keymap: &Keymap, action: Action) -> Vec<KeySpec> {
    keymap
        .prefixed
        .iter()
        .filter(|(_, a)| *a == action)
        .map(|(k, _)| *k)
        .collect()
}

/// The key text of a hint, or `None` when nothing is bound to it.
fn keys_of(keymap: &Keymap, hint: &Hint) -> Option<(String, &'static str)> {
    match hint {
        Hint::Keys(actions, label) => {
            let keys: Vec<String> = actions
                .iter()
                .filter_map(|a| prefixed(keymap, *a).first().map(short))
                .collect();
            if keys.len() < actions.len() {
                // `n/p next/previous` only when both are there.
                let alone: Vec<String> = actions
                    .iter()
                    .flat_map(|a| prefixed(keymap, *a))
                    .map(|k| short(&k))
                    .collect();
                return (!alone.is_empty()).then(|| (alone.join("/"), *label));
            }
            let keys = if actions.len() == 1 {
                // Every key of the one action: `%/|`.
                prefixed(keymap, actions[0])
                    .iter()
                    .map(short)
                    .collect::<Vec<_>>()
            } else {
                keys
            };
            Some((keys.join("/"), *label))
        }
        Hint::Directions(make, label) => {
            let per_dir: Vec<Vec<KeySpec>> = VI_ORDER
                .iter()
                .map(|d| prefixed(keymap, make(*d)))
                .collect();
            // Sets of four keys that differ only in the key: `hjkl`, `←↓↑→`.
            let mut sets = Vec::new();
            for first in &per_dir[0] {
                let set: Option<Vec<KeySpec>> = per_dir
                    .iter()
                    .map(|keys| {
                        keys.iter()
                            .find(|k| {
                                k.modifiers == first.modifiers && is_arrow(k) == is_arrow(first)
                            })
                            .copied()
                    })
                    .collect();
                if let Some(set) = set {
                    let bare: String = set.iter().map(|k| short(&KeySpec::plain(k.code))).collect();
                    sets.push(format!("{}{bare}", mods(first)));
                }
            }
            (!sets.is_empty()).then(|| (sets.join(" "), *label))
        }
        Hint::TabDigits => {
            let digits = (1..=9u8).all(|n| {
                prefixed(keymap, Action::GoToTab(n)).iter().any(|k| {
                    k.code == KeyCode::Char(char::from(b'0' + n)) && k.modifiers.is_empty()
                })
            });
            digits.then(|| ("1-9".to_string(), "go to tab"))
        }
    }
}

fn is_arrow(key: &KeySpec) -> bool {
    matches!(
        key.code,
        KeyCode::Left | KeyCode::Right | KeyCode::Up | KeyCode::Down
    )
}

/// The hint's lines for an inner width of `width` columns: each topic's
/// name, then its hints, wrapped under the first.
pub fn hint_lines(keymap: &Keymap, width: usize) -> Vec<Line<'static>> {
    let name_w = TOPICS.iter().map(|(t, _)| t.width()).max().unwrap_or(0) + 2;
    let key_style = Style::default()
        .fg(Color::Yellow)
        .add_modifier(Modifier::BOLD);
    let topic_style = Style::default()
        .fg(Color::Cyan)
        .add_modifier(Modifier::BOLD);
    let mut out = Vec::new();
    for (topic, hints) in TOPICS {
        let mut spans = vec![Span::styled(
            format!(" {topic:<0$}", name_w - 1),
            topic_style,
        )];
        let mut used = name_w;
        for (keys, label) in hints.iter().filter_map(|h| keys_of(keymap, h)) {
            let w = keys.width() + 1 + label.width() + 2;
            if used + w > width && used > name_w {
                out.push(Line::from(std::mem::take(&mut spans)));
                spans.push(Span::raw(" ".repeat(name_w)));
                used = name_w;
            }
            spans.push(Span::styled(keys, key_style));
            spans.push(Span::raw(format!(" {label}  ")));
            used += w;
        }
        out.push(Line::from(spans));
    }
    out
}

/// The popup, bottom right over the panes.
pub struct WhichKey<'a> {
    pub keymap: &'a Keymap,
    /// The frame's style (the theme's `popup`).
    pub frame: Style,
}

impl Widget for WhichKey<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let inner_max = usize::from(area.width.saturating_sub(2));
        let lines = hint_lines(self.keymap, inner_max);
        let inner_w = lines.iter().map(Line::width).max().unwrap_or(0);
        let width = u16::try_from(inner_w + 2)
            .unwrap_or(u16::MAX)
            .min(area.width);
        let height = u16::try_from(lines.len() + 2)
            .unwrap_or(u16::MAX)
            .min(area.height);
        let rect = Rect {
            x: area.right() - width,
            y: area.bottom() - height,
            width,
            height,
        };
        Clear.render(rect, buf);
        Paragraph::new(lines)
            .block(
                Block::bordered()
                    .border_type(BorderType::Rounded)
                    .border_style(self.frame)
                    .title(format!(" {} … ", self.keymap.prefix)),
            )
            .render(rect, buf);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn render(keymap: &Keymap, w: u16, h: u16) -> Vec<String> {
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        WhichKey {
            keymap,
            frame: Style::default(),
        }
        .render(area, &mut buf);
        (0..h)
            .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>())
            .collect()
    }

    #[test]
    fn at_80x23_the_hint_fits_whole_grouped_and_without_repeats() {
        // 80x24 less the status bar.
        let rows = render(&Keymap::default(), 80, 23);
        let text = rows.join("\n");
        let last = rows.iter().rposition(|r| r.contains('╰')).unwrap();
        assert_eq!(last, 22, "the bottom border is on screen: {text}");
        let first = rows.iter().position(|r| r.contains('╭')).unwrap();
        assert!(last - first <= 8, "short: {text}");
        for wanted in [
            "panes",
            "tabs",
            "copy",
            "more",
            "1-9 go to tab",
            "%/| split right",
            // `l` is tmux's last tab: h j k alone are not shown.
            "←↓↑→ focus",
            "l last",
            ": command",
            "n/p next/previous",
            "? all keys",
            "Q quit",
        ] {
            assert!(text.contains(wanted), "{wanted:?} in {text}");
        }
        for once in ["go to tab", "split right", "all keys", "quit"] {
            assert_eq!(text.matches(once).count(), 1, "{once:?} in {text}");
        }
        assert!(!text.contains("go-to-tab"), "human labels: {text}");
    }

    #[test]
    fn a_rebound_key_shows_as_bound_and_an_unbound_action_not_at_all() {
        let mut keymap = Keymap::default();
        keymap.unbind_prefixed(&"Q".parse().unwrap());
        keymap.bind_prefixed("X".parse().unwrap(), Action::Quit);
        keymap.unbind_prefixed(&"F".parse().unwrap());
        let text = render(&keymap, 80, 23).join("\n");
        assert!(text.contains("X quit"), "{text}");
        assert!(!text.contains("search all panes"), "{text}");
    }
}
