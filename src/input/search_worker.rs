//! Regex searches off the render loop.
//!
//! Copy-mode search runs again on every keystroke of the pattern, and
//! compiling a pattern of a few hundred alternatives and matching it
//! against thousands of rows takes tens of milliseconds (seconds in all
//! while the pattern is typed). None of that may block typing, so it runs
//! on a [`SearchWorker`]: one thread per search session, and a slot holding
//! the one request it has yet to start. The latest pattern wins: a new
//! request replaces the waiting one and makes the running one stale
//! ([`Latest`]); a stale search stops at the next row, so however fast the
//! user types, one search per session uses a core. Results come back to the
//! loop through a [`SearchMailbox`], like those of the search across
//! panes (`search_all`), and are applied only if still current.
//!
//! Blocking: the loop takes the slot's mutex only to swap a request in; the
//! worker holds it only to take one out. The worker may block on the loop's
//! event channel (bounded) when it is full; the loop never waits for the
//! worker, not even to end it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use regex::{Regex, RegexBuilder};

use crate::input::command_search::{self, CommandLines};
use crate::input::copy_mode::GlobalMatch;
use crate::mailbox::Mailbox;
use crate::pane::{PaneId, RingCopy};

/// Most memory a compiled pattern may take. A 300-word alternation needs
/// well under 1 MiB; past the limit the compiler gives up as soon as it
/// gets there, instead of building a program that takes seconds to compile
/// and more to run.
pub const REGEX_SIZE_LIMIT: usize = 4 << 20;

/// Most memory the lazy DFA of one search may cache. Past it the regex
/// crate falls back to slower (still linear) engines rather than grow.
pub const DFA_SIZE_LIMIT: usize = 8 << 20;

/// Why a pattern cannot be searched for: what the prompt shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatternError {
    /// Over [`REGEX_SIZE_LIMIT`] compiled.
    TooLarge,
    /// Not a valid regex: the regex crate's explanation.
    Invalid(String),
}

impl std::fmt::Display for PatternError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PatternError::TooLarge => f.write_str("pattern too large"),
            PatternError::Invalid(reason) => f.write_str(reason),
        }
    }
}

/// Compiles a search pattern within the size limits.
pub fn compile(pattern: &str, case_insensitive: bool) -> Result<Regex, PatternError> {
    RegexBuilder::new(pattern)
        .case_insensitive(case_insensitive)
        .size_limit(REGEX_SIZE_LIMIT)
        .dfa_size_limit(DFA_SIZE_LIMIT)
        .build()
        .map_err(|err| match err {
            regex::Error::CompiledTooBig(_) => PatternError::TooLarge,
            // The message draws a caret under the faulty part over several
            // lines; its last line says what is wrong.
            other => {
                let text = other.to_string();
                let last = text.lines().last().unwrap_or(&text).trim();
                PatternError::Invalid(last.to_string())
            }
        })
}

/// The generation of the request that is wanted now: latest wins, every
/// older one is stale. Shared by the session and its worker, which numbers
/// its requests from 1; a result names the worker it answers (its
/// `Latest`), so that it cannot be taken for the answer to another
/// worker's request of the same number (a session's worker replaced after
/// a resize, a copy mode entered again).
#[derive(Debug, Clone, Default)]
pub struct Latest(Arc<AtomicU64>);

impl Latest {
    /// A new generation, wanted from now on.
    pub fn supersede(&self) -> u64 {
        // Only the values matter (uniqueness, then equality): the requests
        // themselves travel under the slot's mutex.
        self.0.fetch_add(1, Ordering::Relaxed) + 1
    }

    pub fn is_current(&self, generation: u64) -> bool {
        self.0.load(Ordering::Relaxed) == generation
    }

    /// Whether `self` and `other` are the same worker's.
    pub fn is(&self, other: &Latest) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// One search to run.
#[derive(Debug, Clone)]
struct SearchJob {
    generation: u64,
    pattern: String,
    case_insensitive: bool,
    /// The pane's command lines, for a pattern limited to them.
    command_lines: CommandLines,
}

/// The answer to a copy-mode search request.
#[derive(Debug, Clone)]
pub struct Found {
    pub pane: PaneId,
    pub generation: u64,
    /// The worker that answers.
    pub asker: Latest,
    pub outcome: Result<Vec<GlobalMatch>, PatternError>,
}

/// One pane's answer to a search across the tab.
#[derive(Debug, Clone)]
pub struct PaneMatches {
    pub pane: PaneId,
    pub pattern: String,
    /// Matching rows in all.
    pub count: usize,
    /// The newest matching rows, trimmed, oldest first.
    pub lines: Vec<String>,
}

/// What a search thread reports to the loop.
#[derive(Debug)]
pub enum SearchReport {
    /// One pane's part of a search across the tab (`C-b F`).
    AllPanes(PaneMatches),
    /// A copy-mode search of one pane's history.
    CopyMode(Found),
}

/// Where search threads report.
pub type SearchMailbox = Mailbox<SearchReport>;

#[derive(Debug, Default)]
struct Slot {
    job: Option<SearchJob>,
    /// The session ended: the worker thread returns.
    closed: bool,
}

#[derive(Debug, Default)]
struct Shared {
    slot: Mutex<Slot>,
    wake: Condvar,
    latest: Latest,
}

impl Shared {
    fn slot(&self) -> MutexGuard<'_, Slot> {
        // The slot is consistent whatever a panicking holder did (it only
        // swaps an Option and sets a flag).
        self.slot.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for the next request; `None` once the session has ended.
    fn next_job(&self) -> Option<SearchJob> {
        let mut slot = self.slot();
        loop {
            if slot.closed {
                return None;
            }
            if let Some(job) = slot.job.take() {
                return Some(job);
            }
            slot = self.wake.wait(slot).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// Searches a copy of a pane's byte history on its own thread, latest
/// request first and only. Dropping it stops the search under way (at the
/// next row) and ends the thread.
#[derive(Debug)]
pub struct SearchWorker {
    shared: Arc<Shared>,
}

impl SearchWorker {
    /// Starts the thread. Its results go to `events` as
    /// [`SearchReport::CopyMode`].
    pub fn start(pane: PaneId, source: RingCopy, events: SearchMailbox) -> std::io::Result<Self> {
        let shared = Arc::new(Shared::default());
        let theirs = Arc::clone(&shared);
        crate::jobs::named("copy-search", move || {
            serve(&theirs, pane, &source, &events)
        })?;
        Ok(Self { shared })
    }

    /// Asks for `pattern` to be searched; every earlier request is stale
    /// from now on. Returns the new request's generation.
    pub fn request(&self, pattern: &str, case_insensitive: bool) -> u64 {
        self.request_in(pattern, case_insensitive, CommandLines::default())
    }

    /// [`Self::request`], with the pane's command lines for a pattern
    /// limited to them (`command_search`).
    pub fn request_in(
        &self,
        pattern: &str,
        case_insensitive: bool,
        command_lines: CommandLines,
    ) -> u64 {
        let generation = self.shared.latest.supersede();
        self.shared.slot().job = Some(SearchJob {
            generation,
            pattern: pattern.to_string(),
            case_insensitive,
            command_lines,
        });
        self.shared.wake.notify_one();
        generation
    }

    /// Makes every request stale without asking for another.
    pub fn cancel(&self) {
        self.shared.latest.supersede();
        self.shared.slot().job = None;
    }

    pub fn is_current(&self, generation: u64) -> bool {
        self.shared.latest.is_current(generation)
    }

    /// Whether `found` answers this worker's latest request.
    pub fn answers(&self, found: &Found) -> bool {
        found.asker.is(&self.shared.latest) && self.is_current(found.generation)
    }

    /// What names this worker in its answers.
    pub fn asker(&self) -> Latest {
        self.shared.latest.clone()
    }
}

impl Drop for SearchWorker {
    fn drop(&mut self) {
        self.cancel();
        self.shared.slot().closed = true;
        self.shared.wake.notify_one();
    }
}

/// The worker thread: runs the latest request, reports it if it is still
/// wanted, waits for the next.
fn serve(shared: &Shared, pane: PaneId, source: &RingCopy, events: &SearchMailbox) {
    while let Some(job) = shared.next_job() {
        let wanted = || shared.latest.is_current(job.generation);
        // A panic in the regex crate finds nothing rather than leaving the
        // prompt "searching…" for good or ending the workspace.
        let outcome = crate::diag::panic_guard::contain(|| run(&job, source, wanted))
            .unwrap_or_else(|message| {
                tracing::warn!(?pane, "copy-mode search failed: {message}");
                Some(Err(PatternError::Invalid(
                    "search failed (see the log)".into(),
                )))
            });
        let Some(outcome) = outcome else {
            continue;
        };
        if !wanted() {
            continue;
        }
        let found = Found {
            pane,
            generation: job.generation,
            asker: shared.latest.clone(),
            outcome,
        };
        if !events.post(SearchReport::CopyMode(found)) {
            // The loop is gone: so is everyone who wanted the answer.
            return;
        }
    }
}

/// Compiles and runs one request; `None` when it went stale on the way.
fn run(
    job: &SearchJob,
    source: &RingCopy,
    wanted: impl Fn() -> bool,
) -> Option<Result<Vec<GlobalMatch>, PatternError>> {
    let (in_commands, pattern) = command_search::split(&job.pattern);
    let regex = match compile(pattern, job.case_insensitive) {
        Ok(regex) => regex,
        Err(err) => return Some(Err(err)),
    };
    if !wanted() {
        return None;
    }
    let lines = in_commands.then_some(&job.command_lines);
    crate::input::ring_search::find_in(source, &regex, wanted, lines).map(Ok)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crossbeam_channel::RecvTimeoutError;

    use super::*;

    #[test]
    fn the_latest_generation_wins() {
        let latest = Latest::default();
        let first = latest.supersede();
        assert!(latest.is_current(first));
        let second = latest.supersede();
        assert!(!latest.is_current(first));
        assert!(latest.is_current(second));
        // Generations are unique across sessions: another session's answer
        // is never taken for this one's.
        let other = Latest::default().supersede();
        assert_ne!(other, second);
        assert!(!latest.is_current(other));
    }

    #[test]
    fn an_oversized_pattern_is_refused_as_too_large() {
        let err = compile(r"\w{1000}", true).err();
        assert_eq!(err, Some(PatternError::TooLarge));
        assert_eq!(
            err.map(|e| e.to_string()).as_deref(),
            Some("pattern too large")
        );
        // Hundreds of alternatives are fine.
        let words: Vec<String> = (0..300).map(|i| format!("word{i}x")).collect();
        assert!(compile(&words.join("|"), true).is_ok());
    }

    #[test]
    fn an_invalid_pattern_says_what_is_wrong_in_one_line() {
        let err = compile("(unclosed", false).err().map(|e| e.to_string());
        assert_eq!(err.as_deref(), Some("error: unclosed group"));
    }

    fn rows(lines: &[&str]) -> RingCopy {
        let mut ring = crate::pane::history::scrollback::ByteRing::new(1 << 20);
        ring.push(lines.join("\r\n").as_bytes());
        RingCopy::at_one_size(ring, 5, 20)
    }

    fn next_found(rx: &crossbeam_channel::Receiver<SearchReport>) -> Found {
        match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(SearchReport::CopyMode(found)) => found,
            Ok(SearchReport::AllPanes(_)) => panic!("a search-all result"),
            Err(err) => panic!("no search result: {err}"),
        }
    }

    #[test]
    fn the_worker_answers_the_latest_request() {
        let (tx, rx) = crossbeam_channel::bounded(16);
        let worker =
            SearchWorker::start(PaneId(3), rows(&["alpha", "beta", "alphabet"]), tx.into())
                .unwrap_or_else(|err| panic!("{err}"));
        let older = worker.request("beta", true);
        let latest = worker.request("alpha", true);
        assert!(!worker.is_current(older));
        // The older request may have been answered before it went stale;
        // the latest always is, and last.
        let mut found = next_found(&rx);
        while found.generation != latest {
            assert_eq!(found.generation, older);
            found = next_found(&rx);
        }
        assert_eq!(found.pane, PaneId(3));
        let rows: Vec<usize> = found
            .outcome
            .unwrap_or_default()
            .iter()
            .map(|m| m.start.sub)
            .collect();
        assert_eq!(rows, vec![0, 2]);
        let refused = worker.request(r"\w{1000}", true);
        let found = next_found(&rx);
        assert_eq!(found.generation, refused);
        assert_eq!(found.outcome.err(), Some(PatternError::TooLarge));
    }

    #[test]
    fn dropping_the_worker_ends_its_thread() {
        let (tx, rx) = crossbeam_channel::bounded(16);
        let worker = SearchWorker::start(PaneId(1), rows(&["a"]), tx.into())
            .unwrap_or_else(|err| panic!("{err}"));
        drop(worker);
        // The thread held the last sender: the channel disconnects when it
        // returns.
        assert!(matches!(
            rx.recv_timeout(Duration::from_secs(30)),
            Err(RecvTimeoutError::Disconnected)
        ));
    }
}
