//! Copy mode's regex search: every match in the pane's whole byte history
//! (found off the loop, see `search_worker` and `ring_search`), the one the
//! view follows, and those on the window of history shown.
//!
//! Matches are named by anchors ([`GlobalMatch`]), so they stay valid when
//! the view moves to another window; [`Search::locate`] finds the ones on
//! the window shown, for drawing.

use super::{GlobalMatch, Match};
use crate::input::command_search::CommandLines;
use crate::input::search_worker::{Found, SearchMailbox, SearchWorker};
use crate::pane::history::window::{Located, Window};
use crate::pane::{PaneId, RingCopy};

/// A regex search of one pane's history, run off the render loop as the
/// pattern is typed (see `search_worker`): the matches and the current one,
/// or why there are none, and whether a newer search is still running.
#[derive(Debug)]
pub struct Search {
    pub pattern: String,
    pub case_insensitive: bool,
    /// Every match in the history, oldest first.
    found: Vec<GlobalMatch>,
    /// The matches on the window shown, in rows of that window.
    pub matches: Vec<Match>,
    /// For each of `matches`, its index in `found`.
    located: Vec<usize>,
    /// Index into `found` of the one the view follows.
    current: Option<usize>,
    pub error: Option<String>,
    /// The request whose result is awaited (the latest one).
    pub(in crate::input::copy_mode) searching: Option<u64>,
    /// `n` (+1) and `N` (-1) pressed while searching, taken when the result
    /// lands so that no keystroke is lost.
    queued_steps: isize,
    worker: Result<SearchWorker, String>,
    /// The pane's command lines (a `cmd:` pattern searches only them).
    command_lines: CommandLines,
}

impl Search {
    /// Starts the worker that searches `source` (a copy of the pane's
    /// bytes: the loop keeps the pane to itself); results come back on
    /// `events`.
    pub fn new(pane: PaneId, source: RingCopy, events: SearchMailbox) -> Self {
        let worker = SearchWorker::start(pane, source, events)
            .map_err(|err| format!("cannot search: starting a thread failed: {err}"));
        Self {
            pattern: String::new(),
            case_insensitive: true,
            found: Vec::new(),
            matches: Vec::new(),
            located: Vec::new(),
            current: None,
            error: None,
            searching: None,
            queued_steps: 0,
            worker,
            command_lines: CommandLines::default(),
        }
    }

    /// Starts searching for `pattern`; any search under way is abandoned.
    /// The previous matches stay (no flicker while typing) until the
    /// result arrives in [`Search::apply`]. The pattern already searched
    /// for (Enter at the end of typing) keeps its search, running or done.
    pub fn set_pattern(&mut self, pattern: &str) {
        if pattern == self.pattern && !pattern.is_empty() {
            return;
        }
        self.pattern = pattern.to_string();
        self.start();
    }

    /// The history is searched again, in `source` (the pane's bytes at
    /// its new size: the matches found were named by rows at the old one).
    /// The matches stay, not drawn, until the result arrives.
    pub fn search_again(&mut self, pane: PaneId, source: RingCopy, events: SearchMailbox) {
        self.worker = SearchWorker::start(pane, source, events)
            .map_err(|err| format!("cannot search: starting a thread failed: {err}"));
        self.matches.clear();
        self.located.clear();
        if !self.pattern.is_empty() {
            self.start();
        }
    }

    /// The pane's command lines as they are now, for the next request.
    pub fn set_command_lines(&mut self, lines: CommandLines) {
        self.command_lines = lines;
    }

    pub fn toggle_case(&mut self) {
        self.case_insensitive = !self.case_insensitive;
        self.start();
    }

    fn start(&mut self) {
        self.queued_steps = 0;
        let worker = match &self.worker {
            Ok(worker) => worker,
            Err(reason) => {
                self.error = Some(reason.clone());
                return;
            }
        };
        if self.pattern.is_empty() {
            worker.cancel();
            self.searching = None;
            self.found.clear();
            self.matches.clear();
            self.located.clear();
            self.current = None;
            self.error = None;
            return;
        }
        self.searching = Some(worker.request_in(
            &self.pattern,
            self.case_insensitive,
            self.command_lines.clone(),
        ));
    }

    /// What names the worker in its answers.
    #[cfg(test)]
    pub(in crate::input::copy_mode) fn asker(&self) -> crate::input::search_worker::Latest {
        self.worker
            .as_ref()
            .map(SearchWorker::asker)
            .unwrap_or_default()
    }

    /// A search is running whose result will replace the matches.
    pub fn is_searching(&self) -> bool {
        self.searching.is_some()
    }

    /// Takes a worker's result if it answers the latest request (an older
    /// one is dropped: returns false). The current match becomes the one
    /// nearest before `from` (a row and column of `history`; searching
    /// backwards, like tmux's `?`), moved by any `n`/`N` pressed meanwhile.
    pub fn apply(&mut self, found: Found, history: &Window, from: super::Point) -> bool {
        let wanted = self.searching == Some(found.generation)
            && self.worker.as_ref().is_ok_and(|w| w.answers(&found));
        if !wanted {
            return false;
        }
        self.searching = None;
        self.current = None;
        match found.outcome {
            Ok(matches) => {
                self.found = matches;
                self.error = None;
            }
            Err(err) => {
                self.found.clear();
                self.error = Some(err.to_string());
            }
        }
        let from = (history.anchor_of(from.row), from.col);
        self.current = self
            .found
            .iter()
            .rposition(|m| (m.start, m.start_col) <= from)
            .or_else(|| self.found.len().checked_sub(1));
        let steps = std::mem::take(&mut self.queued_steps);
        for _ in 0..steps.unsigned_abs() {
            self.step(steps > 0);
        }
        self.locate(history);
        true
    }

    /// Finds the matches on the window `history` shows, for drawing.
    pub fn locate(&mut self, history: &Window) {
        self.matches.clear();
        self.located.clear();
        let extent = history.extent();
        // Only matches whose anchors lie in the window's bytes can be on it.
        let lo = self.found.partition_point(|m| m.start.pos < extent.start);
        let hi = self.found.partition_point(|m| m.start.pos <= extent.end);
        for (i, m) in self.found.iter().enumerate().take(hi).skip(lo) {
            let Located::At(row) = history.locate(m.start) else {
                continue;
            };
            let end_row = match history.locate(m.end) {
                Located::At(end) if end >= row => end,
                _ => row,
            };
            self.matches.push(Match {
                row,
                start: m.start_col,
                end_row,
                end: m.end_col,
            });
            self.located.push(i);
        }
    }

    /// Moves to the next (older, `back`) or previous match, wrapping. While
    /// a search runs, the step is kept for its result.
    pub fn step(&mut self, back: bool) -> Option<GlobalMatch> {
        if self.is_searching() {
            self.queued_steps += if back { 1 } else { -1 };
            return None;
        }
        let n = self.found.len();
        if n == 0 {
            return None;
        }
        let i = match self.current {
            None => n - 1,
            Some(i) if back => (i + n - 1) % n,
            Some(i) => (i + 1) % n,
        };
        self.current = Some(i);
        self.found.get(i).copied()
    }

    /// Makes the first match on the `n`-th newest matching row (0: the
    /// newest; the oldest when there are fewer) the current one.
    pub fn select_row_from_end(&mut self, n: usize) {
        let mut rows_seen = 0;
        let mut pick = None;
        for (i, m) in self.found.iter().enumerate().rev() {
            let next_row = self.found.get(i + 1).map(|later| later.start);
            if next_row != Some(m.start) {
                rows_seen += 1;
            }
            if rows_seen > n + 1 {
                break;
            }
            pick = Some(i);
        }
        if pick.is_some() {
            self.current = pick;
        }
    }

    /// The match the view follows, wherever it is.
    pub fn current_global(&self) -> Option<GlobalMatch> {
        self.current.and_then(|i| self.found.get(i).copied())
    }

    /// The match the view follows, if it is on the window shown.
    pub fn current_match(&self) -> Option<Match> {
        let current = self.current?;
        let j = self.located.binary_search(&current).ok()?;
        self.matches.get(j).copied()
    }

    /// Matches in the whole history.
    pub fn count(&self) -> usize {
        self.found.len()
    }

    pub fn case_label(&self) -> &'static str {
        if self.case_insensitive {
            "(any case)"
        } else {
            "(exact case)"
        }
    }

    /// What the prompt shows after the pattern.
    pub fn status(&self) -> String {
        if self.is_searching() {
            return "searching…".into();
        }
        match (&self.error, self.current) {
            (Some(err), _) => err.clone(),
            (None, Some(i)) => format!("{}/{} {}", i + 1, self.found.len(), self.case_label()),
            (None, None) if self.pattern.is_empty() => String::new(),
            (None, None) => format!("no match {}", self.case_label()),
        }
    }
}
