//! Searching every pane of a tab: each pane's whole history is replayed
//! (a window at a time, see `ring_search`) and searched on its own worker
//! thread; results come back through a [`SearchMailbox`].

use std::collections::VecDeque;

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
            title: ws.pane_title(result.pane).to_string(),
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
    let spawned = std::thread::Builder::new()
        .name("search-all".into())
        .spawn(move || {
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
    if let Err(err) = spawned {
        tracing::warn!("starting a search thread: {err}");
    }
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
