//! Searching every pane of a tab: each pane's whole history is replayed
//! (a window at a time, see `ring_search`) and searched on its own worker
//! thread; results come back through a [`SearchMailbox`].
//!
//! [`SearchAllResults`] is the popup listing them: up and down pick a
//! matching line, Enter opens its pane in copy mode on it (the search
//! kept, so `n`/`N` go on through the pane's matches), any other key
//! closes the list.

use std::collections::VecDeque;

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

use super::{Cx, DrawCx, Popup, Reply, centered};
use crate::input::outcome::{Command, Outcome};

use crate::input::search_worker::{PaneMatches, SearchMailbox, SearchReport};
use crate::pane::{PaneId, RingCopy};
use crate::workspace::Workspace;

/// Matching lines kept per pane for the results list.
const LINES_PER_PANE: usize = 5;

/// The results list of a search over every pane of the tab.
#[derive(Debug, Clone, Default)]
pub struct SearchAllResults {
    pub pattern: String,
    /// One entry per pane with a match, in pane order.
    pub panes: Vec<PaneResult>,
    /// Panes still being searched.
    pub pending: usize,
    /// Panes searched without a match: counted, not listed.
    pub unmatched: usize,
    /// The line picked, counted over the matching lines of every pane.
    pub selected: usize,
}

/// One pane's part of the results.
#[derive(Debug, Clone)]
pub struct PaneResult {
    pub pane: PaneId,
    /// Where the pane is: `tab 2 "logs" · pane 1` (every shell is called
    /// `bash`, so its title alone does not say which one).
    pub place: String,
    /// The pane's title.
    pub title: String,
    /// Matching lines in all.
    pub count: usize,
    /// The newest matching lines, oldest first.
    pub lines: Vec<String>,
}

impl SearchAllResults {
    /// Takes one pane's result if it answers this search.
    pub fn add(&mut self, ws: &Workspace, result: PaneMatches) {
        if result.pattern != self.pattern {
            return;
        }
        self.pending = self.pending.saturating_sub(1);
        if result.count == 0 {
            self.unmatched += 1;
            return;
        }
        self.panes.push(PaneResult {
            pane: result.pane,
            place: pane_place(ws, result.pane),
            title: ws.panes().title(result.pane).to_string(),
            count: result.count,
            lines: result.lines,
        });
        self.panes.sort_by_key(|p| p.pane);
    }

    /// Matching lines listed, over every pane.
    pub fn line_count(&self) -> usize {
        self.panes.iter().map(|p| p.lines.len()).sum()
    }

    /// Moves the pick `by` lines, wrapping.
    pub fn step(&mut self, by: isize) {
        let n = self.line_count();
        if n > 0 {
            let n = isize::try_from(n).unwrap_or(isize::MAX);
            let at = isize::try_from(self.selected).unwrap_or(0);
            self.selected = usize::try_from((at + by).rem_euclid(n)).unwrap_or(0);
        }
    }

    /// Whether line `line` of pane entry `entry` is the one picked.
    pub fn is_selected(&self, entry: usize, line: usize) -> bool {
        let before: usize = self.panes.iter().take(entry).map(|p| p.lines.len()).sum();
        before + line == self.selected
    }

    /// The pane of the line picked, and which of its matching rows it is
    /// counted from the newest (0).
    pub fn picked(&self) -> Option<(PaneId, usize)> {
        let mut left = self.selected;
        for p in &self.panes {
            if left < p.lines.len() {
                return Some((p.pane, p.lines.len() - 1 - left));
            }
            left -= p.lines.len();
        }
        None
    }
}

/// `tab 2 "logs" · pane 1`: the tab's number (and the name it was given,
/// if any) and the pane's number in the tab.
pub fn pane_place(ws: &Workspace, id: PaneId) -> String {
    let Some((index, tab)) = ws
        .tabs()
        .iter()
        .enumerate()
        .find(|(_, t)| t.layout.contains(id))
    else {
        return String::new();
    };
    let number = index + 1;
    let mut place = format!("tab {number}");
    // A name the user or the profile gave; an automatic one repeats the
    // pane's title, shown beside.
    if let Some(name) = tab.name.as_deref().filter(|n| *n != number.to_string()) {
        place.push_str(&format!(" \"{name}\""));
    }
    if let Some(pane) = tab.layout.panes().iter().position(|&p| p == id) {
        place.push_str(&format!(" · pane {}", pane + 1));
    }
    place
}

/// Searches one pane's history for `pattern` (already validated) off the
/// render thread.
pub fn spawn(pane: PaneId, source: RingCopy, pattern: String, events: SearchMailbox) {
    // A thread that cannot start is said in the log by `jobs::named`.
    let _ = crate::jobs::named("search-all", move || {
        // A result always arrives, or the results list would wait for
        // this pane forever; a panic here (in the parser on the pane's output
        // or anywhere else) finds nothing rather than ending the workspace.
        let result = crate::diag::panic_guard::contain(|| search(pane, &source, &pattern))
            .unwrap_or_else(|message| {
                tracing::warn!(?pane, "searching the pane's history failed: {message}");
                PaneMatches {
                    pane,
                    pattern: pattern.clone(),
                    count: 0,
                    lines: Vec::new(),
                }
            });
        events.post(SearchReport::AllPanes(result));
    });
}

pub fn search(pane: PaneId, source: &RingCopy, pattern: &str) -> PaneMatches {
    let mut out = PaneMatches {
        pane,
        pattern: pattern.to_string(),
        count: 0,
        lines: Vec::new(),
    };
    let Ok(regex) = crate::input::search_worker::compile(pattern, true) else {
        return out;
    };
    let mut newest = VecDeque::with_capacity(LINES_PER_PANE + 1);
    crate::input::ring_search::matching_rows(source, &regex, |row| {
        out.count += 1;
        newest.push_back(row.text.trim().to_string());
        if newest.len() > LINES_PER_PANE {
            newest.pop_front();
        }
    });
    out.lines = newest.into();
    out
}

impl Popup for SearchAllResults {
    fn handle_key(&mut self, cx: &mut Cx<'_>, key: &KeyEvent) -> Reply {
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.step(-1),
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => self.step(1),
            KeyCode::Enter => {
                if let Some((pane, row_from_end)) = self.picked() {
                    open_at_match(cx, pane, &self.pattern, row_from_end);
                }
                return Reply::close(Outcome::redraw());
            }
            _ => return Reply::close(Outcome::redraw()),
        }
        Reply::stay(Outcome::redraw())
    }

    fn draw(&self, buf: &mut Buffer, at: &DrawCx<'_>) {
        let r = self;
        let mut lines = Vec::new();
        for (i, pane) in r.panes.iter().enumerate() {
            let head = Style::default()
                .fg(if pane.count > 0 {
                    Color::Green
                } else {
                    Color::DarkGray
                })
                .add_modifier(Modifier::BOLD);
            lines.push(Line::styled(
                // The title last: it is the part that may be cut off.
                format!(
                    " {} · {} matching lines · {} ",
                    pane.place, pane.count, pane.title
                ),
                head,
            ));
            for (j, m) in pane.lines.iter().enumerate() {
                let style = if r.is_selected(i, j) {
                    Style::default().add_modifier(Modifier::REVERSED)
                } else {
                    Style::default().fg(Color::Gray)
                };
                lines.push(Line::styled(format!("    {m}"), style));
            }
        }
        if r.pending > 0 {
            lines.push(Line::styled(
                format!(" searching {} more panes…", r.pending),
                Style::default().fg(Color::Yellow),
            ));
        }
        if r.unmatched > 0 {
            let text = match (r.panes.len(), r.unmatched) {
                (0, _) if r.pending == 0 => " no match in any pane".to_string(),
                (_, 1) => " 1 pane without a match".to_string(),
                (_, n) => format!(" {n} panes without a match"),
            };
            lines.push(Line::styled(text, Style::default().fg(Color::DarkGray)));
        }
        lines.push(Line::styled(
            " ↑↓ pick a line · Enter: copy mode there (n/N: more) · other keys close",
            Style::default().fg(Color::DarkGray),
        ));
        let area = at.panes;
        let rect = centered(area, area.width.saturating_sub(8).max(20), lines.len() + 2);
        Clear.render(rect, buf);
        Paragraph::new(lines)
            .block(
                Block::bordered()
                    .border_type(BorderType::Rounded)
                    .border_style(at.theme.popup)
                    .title(format!(" search /{}/ in every pane ", r.pattern)),
            )
            .render(rect, buf);
    }
}

/// Copy mode on `pane`, searching for `pattern`, the cursor on its
/// `row_from_end`-th newest matching row once the search lands.
fn open_at_match(cx: &mut Cx<'_>, pane: PaneId, pattern: &str, row_from_end: usize) {
    if cx.ui.copy.is_active() {
        cx.ui.leave_copy(cx.ws);
    }
    cx.ws.focus_pane(pane);
    cx.ui.enter_copy(cx.ws);
    cx.ui.copy.jump_to_match_from_end(row_from_end);
    if cx.ui.copy.is_active() {
        cx.search_copy(pattern, false);
    } else {
        // The history is still loading: search when it lands.
        cx.ui.copy.search_later(pattern.to_string());
    }
}

/// Opens the results list for `pattern` and asks the loop to search every
/// pane of the tab. A bad or oversized pattern is refused with a reason at
/// once (compiled here within the same limits the workers use).
pub fn start(cx: &mut Cx<'_>, pattern: &str) -> Outcome {
    if pattern.is_empty() {
        return Outcome::redraw();
    }
    if let Err(err) = crate::input::search_worker::compile(pattern, true) {
        cx.ui.notify(format!("bad regex: {err}"));
        return Outcome::redraw();
    }
    let panes: Vec<_> = cx
        .ws
        .tabs()
        .shown()
        .map(|t| t.layout.panes())
        .unwrap_or_default()
        .into_iter()
        .filter(|id| cx.ws.panes().get(*id).is_some())
        .collect();
    cx.popups.open(SearchAllResults {
        pattern: pattern.to_string(),
        pending: panes.len(),
        ..SearchAllResults::default()
    });
    Outcome::redraw().with(Command::SearchPanes {
        pattern: pattern.to_string(),
        panes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pane::history::scrollback::ByteRing;

    #[test]
    fn counts_matching_rows_and_keeps_the_newest() {
        let mut ring = ByteRing::new(1 << 20);
        for i in 0..40 {
            ring.push(
                format!("{} item {i}\r\n", if i % 4 == 0 { "ERROR" } else { "ok" }).as_bytes(),
            );
        }
        let source = RingCopy::at_one_size(ring, 5, 30);
        let r = search(PaneId(1), &source, "error");
        assert_eq!(r.count, 10);
        assert_eq!(r.lines.len(), LINES_PER_PANE);
        assert_eq!(r.lines.last().map(String::as_str), Some("ERROR item 36"));
    }

    #[test]
    fn a_pattern_ending_in_dollar_finds_the_line_that_ends_so() {
        let mut ring = ByteRing::new(1 << 20);
        ring.push(b"hit-3\r\nhit-33\r\nfiller\r\n$ ");
        let source = RingCopy::at_one_size(ring, 24, 80);
        let r = search(PaneId(1), &source, "hit-3$");
        assert_eq!((r.count, r.lines), (1, vec!["hit-3".to_string()]));
        let r = search(PaneId(1), &source, "^filler$");
        assert_eq!((r.count, r.lines), (1, vec!["filler".to_string()]));
    }
}
