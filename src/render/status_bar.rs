//! The bottom line, from the `[status]` segments: by default the tabs, the
//! mode, the focused pane and its title at the left and hints for the keys
//! a newcomer needs first at the right; also the directory, git branch,
//! host, clock and text of the user's own. A notice replaces the right
//! side for a moment; a program's notification, until its pane is focused.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;
use unicode_width::UnicodeWidthStr;

use crate::config::action::Action;
use crate::config::appearance::{Segment, Theme};
use crate::config::keymap::Keymap;
use crate::input::ui_state::Mode;
use crate::input::ui_view::UiView;
use crate::workspace::Workspace;

/// Splits the terminal into the pane area and the status bar (its bottom
/// row, when it has more than one).
pub fn split_screen(size: Rect) -> (Rect, Rect) {
    let bar_h = u16::from(size.height > 1);
    let panes = Rect {
        height: size.height - bar_h,
        ..size
    };
    let bar = Rect {
        y: size.y + size.height - bar_h,
        height: bar_h,
        ..size
    };
    (panes, bar)
}

/// A tab's label and where it sits on the bar, for drawing and for clicks.
/// `seen_elsewhere`: the tabs (by serial) other terminals show, marked ◆.
pub fn tab_spans(ws: &Workspace, seen_elsewhere: &[u64]) -> Vec<(u16, u16, usize, String)> {
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
        if seen_elsewhere.contains(&tab.serial) {
            marks.push_str(" ◆");
        }
        if let Some(progress) = crate::render::progress::tab_mark(ws, tab) {
            marks.push(' ');
            marks.push_str(&progress);
        }
        let label = format!(
            " {}:{}{marks} ",
            i + 1,
            truncate(&ws.tabs().name(i, ws.panes()), 16)
        );
        let w = u16::try_from(label.width()).unwrap_or(u16::MAX);
        spans.push((x, x.saturating_add(w), i, label));
        x = x.saturating_add(w).saturating_add(1);
    }
    spans
}

/// Which tab the status bar (of a screen of `size`) shows at column `x`.
pub fn tab_at(ws: &Workspace, ui: UiView<'_>, size: Rect, x: u16) -> Option<usize> {
    let (_, bar) = split_screen(size);
    let hints = hints_for(ui.keymap, ui.state.mode());
    StatusBar {
        ws,
        ui,
        hints: &hints,
    }
    .tab_at(bar, x)
}

pub struct StatusBar<'a> {
    pub ws: &'a Workspace,
    pub ui: UiView<'a>,
    /// The key hints, from [`hints_for`]: the same every frame, and looking
    /// keys up in the keymap cost more than the rest of the bar.
    pub hints: &'a str,
}

/// `pane 2/3` for a tiled pane; for a floating one its place among the
/// floating panes on screen, in `C-b o`'s order: `floating 1/2`.
fn pane_position(ws: &Workspace) -> String {
    let floating = ws.tabs().shown().filter(|t| t.floats.contains(t.focus));
    if let Some(tab) = floating {
        let mut shown: Vec<_> = tab.floats.visible().map(|f| f.id).collect();
        shown.sort();
        let pos = shown
            .iter()
            .position(|&id| id == tab.focus)
            .map_or(0, |i| i + 1);
        return format!("floating {pos}/{}", shown.len());
    }
    let (pos, count) = ws.tabs().focus_position();
    format!("pane {pos}/{count}")
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

/// One run of text on the bar.
#[derive(Debug, Clone, PartialEq)]
struct Piece {
    text: String,
    style: Style,
    /// A pill (tab, mode) is set off by one space, plain text by two.
    pill: bool,
    /// The tab a click on it selects.
    tab: Option<usize>,
}

/// The bar's pieces placed: each with its column.
struct Placed {
    left: Vec<(u16, Piece)>,
    /// Drawn only when it fits after the left side (else a notice takes
    /// the middle).
    right: Option<(u16, Vec<Piece>)>,
    /// A notice that did not fit at the right: drawn from this column.
    notice_over: Option<(u16, Piece)>,
}

impl StatusBar<'_> {
    fn theme(&self) -> &Theme {
        &self.ui.look.theme
    }

    fn pieces(&self, segment: &Segment, out: &mut Vec<Piece>) {
        let theme = self.theme();
        let ws = self.ws;
        let text = |text: String| Piece {
            text,
            style: theme.status,
            pill: false,
            tab: None,
        };
        let focused = ws.tabs().focused_id();
        let place = focused.and_then(|id| ws.panes().place(id));
        match segment {
            Segment::Session => {
                if let Some(name) = &self.ui.facts.workspace {
                    out.push(Piece {
                        pill: true,
                        ..text(format!("[{}]", truncate(name, 24)))
                    });
                }
            }
            Segment::Tabs => {
                for (_, _, i, label) in tab_spans(ws, &self.ui.facts.seen_elsewhere) {
                    let tab = &ws.tabs()[i];
                    let style = if i == ws.tabs().active() {
                        theme.tab_active
                    } else if tab.bell || tab.activity {
                        theme.tab_alert
                    } else {
                        theme.tab
                    };
                    out.push(Piece {
                        text: label,
                        style,
                        pill: true,
                        tab: Some(i),
                    });
                }
            }
            Segment::Mode => {
                let label = match self.ui.state.mode() {
                    // What the next key does: a resize again, not copy
                    // mode's motion, for the repeat's half second.
                    _ if self.ui.state.repeating() => " REPEAT ",
                    Mode::Prefix => " PREFIX ",
                    Mode::Copy => " COPY ",
                    Mode::Normal => return,
                };
                out.push(Piece {
                    text: label.into(),
                    style: theme.mode,
                    pill: true,
                    tab: None,
                });
            }
            Segment::Pane => out.push(text(pane_position(ws))),
            Segment::Title => {
                if let Some(id) = focused {
                    out.push(text(truncate(ws.panes().title(id), 40)));
                }
            }
            Segment::Cwd => {
                if let Some(place) = place {
                    out.push(text(truncate(&place.dir, 40)));
                }
            }
            Segment::Git => {
                if let Some(branch) = place.and_then(|p| p.branch.as_deref()) {
                    out.push(text(format!("⎇ {}", truncate(branch, 30))));
                }
            }
            // A remote pane's host when one has the focus (issue 47 §2).
            Segment::Host => out.push(text(
                focused
                    .and_then(|id| ws.panes().get(id))
                    .and_then(|p| crate::config::remote_pane::host_of(&p.spec.argv))
                    .unwrap_or(&self.ui.facts.host)
                    .to_string(),
            )),
            Segment::Clock => out.push(text(self.ui.facts.clock.clone())),
            Segment::Hints => {
                if !self.hints.is_empty() {
                    out.push(Piece {
                        style: theme.hints,
                        ..text(self.hints.to_string())
                    });
                }
            }
            Segment::Text(t) => out.push(text(t.clone())),
            Segment::Command(c) => {
                let shown = self.ui.facts.command_output(c);
                if !shown.is_empty() {
                    out.push(text(shown.to_string()));
                }
            }
        }
    }

    fn side(&self, segments: &[Segment]) -> Vec<Piece> {
        let mut out = Vec::new();
        for segment in segments {
            self.pieces(segment, &mut out);
        }
        out.retain(|p| !p.text.is_empty());
        out
    }

    /// What replaces the right side: a notice, or the broadcast warning.
    fn notice(&self) -> Option<Piece> {
        let broadcast = self.ws.tabs().shown().is_some_and(|t| t.broadcast);
        let text = match self.ui.state.notice() {
            Some(text) => text.to_string(),
            None if broadcast => "BROADCAST: keys go to every pane of this tab".into(),
            // A program asked for attention: which pane, and what it said.
            None => match self.ws.attention().notification() {
                Some((id, text)) => {
                    format!("{}: {}", truncate(self.ws.panes().title(id), 20), text)
                }
                None => return None,
            },
        };
        Some(Piece {
            text,
            style: self.theme().notice,
            pill: false,
            tab: None,
        })
    }

    fn place(&self, area: Rect) -> Placed {
        let layout = &self.ui.look.status;
        let mut left = Vec::new();
        let mut x = area.x;
        let mut last_pill_end = area.x;
        let mut prev_pill = true;
        // Whatever the segments: a terminal that only looks says so from
        // its first frame, not only after a refused key.
        let read_only = self.ui.facts.read_only.then(|| Piece {
            text: " READ-ONLY ".into(),
            style: self.theme().mode,
            pill: true,
            tab: None,
        });
        for piece in read_only.into_iter().chain(self.side(&layout.left)) {
            if x > area.x {
                x = x.saturating_add(if piece.pill || prev_pill { 1 } else { 2 });
            }
            let w = u16::try_from(piece.text.width()).unwrap_or(u16::MAX);
            prev_pill = piece.pill;
            left.push((x, piece));
            x = x.saturating_add(w);
            if prev_pill {
                last_pill_end = x.min(area.right());
            }
        }
        let notice = self.notice();
        let right_pieces = match &notice {
            Some(n) => vec![n.clone()],
            None => self.side(&layout.right),
        };
        let right_w: u16 = right_pieces
            .iter()
            .map(|p| u16::try_from(p.text.width()).unwrap_or(u16::MAX))
            .fold(0u16, u16::saturating_add)
            .saturating_add(2 * u16::try_from(right_pieces.len().saturating_sub(1)).unwrap_or(0))
            // One space at the right edge.
            .saturating_add(1);
        let fits = area.right().saturating_sub(x) > right_w;
        let mut placed = Placed {
            left,
            right: None,
            notice_over: None,
        };
        if !right_pieces.is_empty() && fits {
            placed.right = Some((area.right() - right_w, right_pieces));
        } else if let Some(notice) = notice {
            // A notice matters more than the title: it takes the middle.
            let at = if last_pill_end > area.x {
                last_pill_end.saturating_add(1)
            } else {
                area.x
            };
            placed.left.retain(|(px, p)| p.pill && *px < at);
            placed.notice_over = Some((at, notice));
        }
        placed
    }

    /// Everything the bar's look depends on, so an unchanged bar need not
    /// be drawn again.
    pub fn signature(&self, area: Rect) -> u64 {
        use std::hash::{Hash, Hasher};
        // Hashed, not formatted: this runs on every frame, a key's echo
        // among them, and `Debug`-formatting every piece's style allocated
        // and formatted a string each time.
        let placed = self.place(area);
        let mut key = std::collections::hash_map::DefaultHasher::new();
        for (x, p) in &placed.left {
            (0u8, x, p.style, &p.text).hash(&mut key);
        }
        if let Some((x, pieces)) = &placed.right {
            for p in pieces {
                (1u8, x, p.style, &p.text).hash(&mut key);
            }
        }
        if let Some((x, p)) = &placed.notice_over {
            (2u8, x, p.style, &p.text).hash(&mut key);
        }
        key.finish()
    }

    /// Which tab the bar shows at column `x`.
    pub fn tab_at(&self, area: Rect, x: u16) -> Option<usize> {
        let placed = self.place(area);
        let right = placed.right.iter().flat_map(|(rx, pieces)| {
            let mut at = *rx;
            pieces.iter().map(move |p| {
                let here = at;
                at = at
                    .saturating_add(u16::try_from(p.text.width()).unwrap_or(u16::MAX))
                    .saturating_add(2);
                (here, p)
            })
        });
        placed
            .left
            .iter()
            .map(|(px, p)| (*px, p))
            .chain(right)
            .find(|(px, p)| {
                let w = u16::try_from(p.text.width()).unwrap_or(u16::MAX);
                (*px..px.saturating_add(w)).contains(&x)
            })
            .and_then(|(_, p)| p.tab)
    }
}

impl Widget for StatusBar<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        buf.set_style(area, self.theme().status);
        let placed = self.place(area);
        let right_edge = area.right();
        let mut put = |x: u16, p: &Piece| {
            if x < right_edge {
                buf.set_stringn(x, area.y, &p.text, usize::from(right_edge - x), p.style);
            }
        };
        for (x, p) in &placed.left {
            put(*x, p);
        }
        if let Some((x, pieces)) = &placed.right {
            let mut x = *x;
            for p in pieces {
                put(x, p);
                x = x
                    .saturating_add(u16::try_from(p.text.width()).unwrap_or(u16::MAX))
                    .saturating_add(2);
            }
        }
        if let Some((x, p)) = &placed.notice_over {
            put(*x, p);
        }
    }
}

/// The key hints the bar shows in `mode`.
pub fn hints_for(keymap: &Keymap, mode: Mode) -> String {
    if mode == Mode::Copy {
        return [
            "hjkl w/b/e f/t H/L PgUp move",
            "v/Space V C-v select",
            "y/Enter copy",
            "/ search n/N",
            "q/Esc leave",
        ]
        .join("  ");
    }
    let keys = [
        (Action::ToggleHelp, "help"),
        (Action::SplitRight, "split"),
        (Action::SplitDown, "split↓"),
        (Action::ClosePane, "close"),
        (Action::ToggleZoom, "zoom"),
        (Action::ScrollMode, "copy"),
    ];
    keys.iter()
        .filter_map(|(a, what)| keymap.hint(*a).map(|k| format!("{k} {what}")))
        .collect::<Vec<_>>()
        .join("  ")
}
