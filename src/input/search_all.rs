//! Searching every pane of a tab: each pane's history is replayed and
//! searched on its own worker thread; results come back through a
//! [`SearchMailbox`].

use crate::input::copy_mode::{RowText, find_all};
use crate::input::search_worker::{SearchMailbox, SearchReport};
use crate::pane::PaneId;
use crate::pane::history::{History, ReplayRequest};

/// Matching lines kept per pane for the results list.
const LINES_PER_PANE: usize = 5;

#[derive(Debug, Clone)]
pub struct PaneMatches {
    pub pane: PaneId,
    pub pattern: String,
    /// Matching rows in all.
    pub count: usize,
    /// The newest matching rows, trimmed.
    pub lines: Vec<String>,
}

/// Searches one pane's history for `pattern` (already validated) off the
/// render thread.
pub fn spawn(pane: PaneId, request: ReplayRequest, pattern: String, events: SearchMailbox) {
    let spawned = std::thread::Builder::new()
        .name("search-all".into())
        .spawn(move || {
            // A result always arrives, or the results list would wait for
            // this pane forever; a panic here (in vt100 on the pane's output
            // or anywhere else) finds nothing rather than ending the workspace.
            let result = crate::diag::panic_guard::contain(|| search(pane, request, &pattern))
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

pub fn search(pane: PaneId, request: ReplayRequest, pattern: &str) -> PaneMatches {
    let mut history = History::replay(request);
    let rows: Vec<RowText> = crate::input::copy_mode::snapshot(&mut history);
    let cols = history.screen().size().1.get();
    let mut out = PaneMatches {
        pane,
        pattern: pattern.to_string(),
        count: 0,
        lines: Vec::new(),
    };
    let Ok(regex) = crate::input::search_worker::compile(pattern, true) else {
        return out;
    };
    let mut matched_rows: Vec<usize> = find_all(&rows, &regex, cols)
        .iter()
        .map(|m| m.row)
        .collect();
    matched_rows.dedup();
    out.count = matched_rows.len();
    out.lines = matched_rows
        .iter()
        .rev()
        .take(LINES_PER_PANE)
        .rev()
        .filter_map(|&r| rows.get(r).map(|t| t.text.trim().to_string()))
        .collect();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pane::scrollback::ByteRing;

    #[test]
    fn counts_matching_rows_and_keeps_the_newest() {
        let mut ring = ByteRing::new(1 << 20);
        ring.record_resize(5, 30);
        for i in 0..40 {
            ring.push(
                format!("{} item {i}\r\n", if i % 4 == 0 { "ERROR" } else { "ok" }).as_bytes(),
            );
        }
        let r = search(
            PaneId(1),
            ReplayRequest::from_ring(&ring, 5, 30, 1000),
            "error",
        );
        assert_eq!(r.count, 10);
        assert_eq!(r.lines.len(), LINES_PER_PANE);
        assert_eq!(r.lines.last().map(String::as_str), Some("ERROR item 36"));
    }
}
