//! Scrolling back: the history view a pane shows instead of its live
//! screen (its [`ScrollView`]), replayed from the pane's byte ring a window at
//! a time (the first on a worker thread, the next ones in place as the view
//! passes an end), and the copy of the ring a search takes.

use crate::graphics::picture_store::PictureStore;
use crate::graphics::reach::Reach;
use crate::pane::PaneId;
use crate::pane::event::{PaneEvent, PaneMailbox};
use crate::pane::history::anchors::{self, Extent, RowAnchor, WINDOW_ROWS};
use crate::pane::history::command_marks::{Command, CommandMarks};
use crate::pane::history::scrollback::ByteRing;
use crate::pane::history::size_log::SizeLog;
use crate::pane::history::window::{Located, ReplayRequest, Window};
use crate::pane::term::damage::{Change, Damage, DamageLog};
use crate::pane::term::emulator::MIN_GRID;
use crate::pane::term::escape_scanner::osc133_capture::Osc133Found;
use crate::pane::term::fast_forward::Accepted;

/// What the pane shows: the live screen or a replayed window of history.
pub enum ScrollView {
    Live,
    /// A replay is running; `offset` is where to land when it arrives.
    Loading {
        offset: usize,
    },
    Viewing(Box<Window>),
}

/// A pane's history: every byte its program wrote (the ring), the sizes
/// it was printed at, where the shell's commands begin and end, and the
/// view shown instead of the live screen when scrolled back.
pub struct History {
    id: PaneId,
    pub(in crate::pane) ring: ByteRing,
    pub(in crate::pane) view: ScrollView,
    /// The size each stretch of the ring's output was printed at, for a
    /// reflow to replay it at that size.
    pub(in crate::pane) sizes: SizeLog,
    /// Where each command the shell ran begins and ends (OSC 133).
    pub(in crate::pane) marks: CommandMarks,
    /// The pane's size, which a window is replayed at.
    rows: u16,
    cols: u16,
    /// What changed in the view since the renderer last looked (the pane
    /// merges it with its terminal's).
    pub(in crate::pane) damage: DamageLog,
    /// The pane's pictures, which its windows show while they are kept.
    pub(in crate::pane) pictures: PictureStore,
    /// What the pane's program is told of pictures: its replays are told
    /// the same (the cells a sixel picture keeps).
    reach: Reach,
    /// Windows asked for so far, to name each (copy mode tells a window
    /// replayed after a resize from the one it knows).
    windows: u64,
}

/// Which window of history to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowTarget {
    /// The oldest rows held.
    Top,
    /// The newest rows, following new output.
    Tail,
    /// The rows around the one `RowAnchor` names.
    Around(RowAnchor),
}

/// A pane's byte history and size, copied for a search on another thread.
#[derive(Debug, Clone)]
pub struct RingCopy {
    pub ring: ByteRing,
    pub rows: u16,
    pub cols: u16,
    /// The sizes the ring's output was printed at.
    pub sizes: SizeLog,
    /// What the pane's program is told of pictures (see `History::reach`).
    pub reach: Reach,
}

impl RingCopy {
    /// A ring all printed at `rows` x `cols`.
    pub fn at_one_size(ring: ByteRing, rows: u16, cols: u16) -> Self {
        Self {
            ring,
            rows,
            cols,
            sizes: SizeLog::new(rows, cols),
            reach: Reach::default(),
        }
    }
}

/// Memory a replayed history may use: the parser keeps every row at full width
/// (32 bytes a cell), so a ring of short lines would need far more memory
/// as rows than as bytes. Bounded by both a multiple of the byte budget and
/// an absolute cap. 192 MiB keeps ~60,000 rows viewable at 104 columns
/// (we promise at least 50,000 lines of history), and it is only spent
/// while the user has scrolled that far back.
pub const HISTORY_MEMORY_PER_BUDGET_BYTE: usize = 64;
pub const HISTORY_MEMORY_CAP: usize = 192 * 1024 * 1024;

/// The most history rows a replay keeps for a byte budget and width.
pub fn max_history_rows(budget: usize, cols: u16) -> usize {
    let bytes = budget
        .saturating_mul(HISTORY_MEMORY_PER_BUDGET_BYTE)
        .min(HISTORY_MEMORY_CAP);
    (bytes / (usize::from(cols.max(1)) * 32)).max(usize::from(MIN_GRID))
}

/// A pane's history view.
impl History {
    /// An empty history of `budget` bytes for a pane of `rows` x `cols`.
    pub(in crate::pane) fn new(id: PaneId, budget: usize, rows: u16, cols: u16) -> Self {
        Self {
            id,
            ring: ByteRing::new(budget),
            view: ScrollView::Live,
            sizes: SizeLog::new(rows, cols),
            marks: CommandMarks::default(),
            rows,
            cols,
            damage: DamageLog::default(),
            pictures: PictureStore::default(),
            reach: Reach::default(),
            windows: 0,
        }
    }

    /// What the pane's program is told of pictures from now on, for the
    /// windows replayed after.
    pub fn set_picture_reach(&mut self, reach: Reach) {
        self.reach = reach;
    }

    /// Takes a piece of output, as the parser will see it, at the ring's
    /// end, with where a `clear` erased the history before it and the
    /// command marks it ended. Returns whether the view shows it (else the
    /// live screen does).
    pub(in crate::pane) fn push<'a>(
        &mut self,
        piece: Accepted<'a, impl Iterator<Item = Osc133Found<'a>>>,
    ) -> bool {
        let bytes = piece.bytes;
        let at = self.ring.end();
        self.ring.push(bytes);
        if let Some(end) = piece.erased {
            self.ring.erase_before(at + end);
        }
        // A mark may have begun in an earlier piece: before `at`.
        let in_ring = |p: u64| (at + p).saturating_sub(piece.scanned);
        let marks = piece.marks.map(|m| Osc133Found {
            at: in_ring(m.at),
            after: in_ring(m.after),
            body: m.body,
        });
        if self.marks.take_found(marks, bytes, at, &self.ring) {
            // The border tells a failed command.
            self.damage.note(Change::Titled);
        }
        let ScrollView::Viewing(window) = &mut self.view else {
            return false;
        };
        window.add_stops(self.marks.stops(at, self.ring.end()));
        window.feed(bytes);
        self.damage.note(Change::HistoryGrew);
        true
    }

    /// The pane's new size, from the ring's end on.
    pub(in crate::pane) fn record_size(&mut self, rows: u16, cols: u16) {
        self.sizes
            .record(self.ring.end(), rows, cols, self.ring.start());
        self.rows = rows;
        self.cols = cols;
    }

    /// What changed in the view since the last call.
    pub(in crate::pane) fn take_damage(&mut self) -> Damage {
        self.damage.take(Damage::None)
    }

    pub fn bytes(&self) -> usize {
        self.ring.len()
    }

    /// The ring, for saving it (see `persist`).
    pub fn ring(&self) -> &ByteRing {
        &self.ring
    }

    /// The pane's output is relayed elsewhere: see [`ByteRing::keep_plain`].
    pub fn keep_plain(&mut self) {
        self.ring.keep_plain();
    }

    /// The sizes this pane's output was printed at (saved with its history).
    pub fn size_log(&self) -> &SizeLog {
        &self.sizes
    }

    /// The sizes a restored history was printed at, before it is put back
    /// (`restore_history`, `restore_sealed_history`), so that it is
    /// replayed at those sizes, without ghosts of redraws (issue 30).
    pub fn adopt_size_log(&mut self, sizes: SizeLog) {
        self.sizes = sizes;
    }

    /// Where each command the shell ran begins and ends.
    pub fn command_marks(&self) -> &CommandMarks {
        &self.marks
    }

    pub fn command_marks_mut(&mut self) -> &mut CommandMarks {
        &mut self.marks
    }

    /// Puts back commands saved with the history (see
    /// `persist::marks_file`); positions in this ring's terms.
    pub fn adopt_commands(&mut self, commands: Vec<Command>) {
        self.marks.adopt(commands);
    }

    pub fn view(&self) -> &ScrollView {
        &self.view
    }

    /// The replayed history while the view shows it.
    pub fn window_mut(&mut self) -> Option<&mut Window> {
        // The caller may move the view (copy mode).
        self.damage.note(Change::ViewMoved);
        match &mut self.view {
            ScrollView::Viewing(h) => Some(h),
            _ => None,
        }
    }

    pub fn window(&self) -> Option<&Window> {
        match &self.view {
            ScrollView::Viewing(h) => Some(h),
            _ => None,
        }
    }

    /// Opens the history view at the bottom (copy mode needs it even before
    /// the user scrolls). Does nothing when it is already open or loading.
    pub fn open_history(&mut self, events: &PaneMailbox) {
        if matches!(self.view, ScrollView::Live) {
            self.request_history(0, events);
        }
    }

    /// What a search of the whole history needs: a copy of the pane's
    /// bytes and its size.
    pub fn ring_copy(&self) -> RingCopy {
        RingCopy {
            ring: self.ring.clone(),
            rows: self.rows,
            cols: self.cols,
            sizes: self.sizes.clone(),
            reach: self.reach,
        }
    }

    pub fn is_scrolled(&self) -> bool {
        !matches!(self.view, ScrollView::Live)
    }

    /// Rows a window aims for: enough for several views of this pane.
    fn window_rows(&self) -> usize {
        WINDOW_ROWS.max(usize::from(self.rows) * 8)
    }

    /// Scrolls the view `delta` rows (positive: back in time). Starts a replay
    /// on a worker thread when history is needed and not yet there; past the
    /// ends of the window shown, replays the next one.
    pub fn scroll(&mut self, delta: isize, events: &PaneMailbox) {
        self.damage.note(Change::ViewMoved);
        match &mut self.view {
            ScrollView::Live => {
                if delta > 0 {
                    self.request_history(delta.unsigned_abs(), events);
                }
            }
            ScrollView::Loading { offset } => {
                *offset = offset.saturating_add_signed(delta);
            }
            ScrollView::Viewing(_) => self.scroll_history(delta),
        }
    }

    /// Scrolls the history view `delta` rows, in steps a window holds,
    /// replaying the next window whenever the view would pass an end of the
    /// one shown; back to the live screen past the newest row.
    fn scroll_history(&mut self, delta: isize) {
        let step_most = self.window_rows() / 4;
        let mut left = delta.unsigned_abs();
        while left > 0 {
            let ScrollView::Viewing(history) = &mut self.view else {
                return;
            };
            let step = left.min(step_most);
            let top = history.top_row();
            let stuck = if delta > 0 {
                top == 0 && history.at_top
            } else {
                history.offset() == 0 && history.is_tail
            };
            if stuck {
                break;
            }
            let below = history
                .total_rows()
                .saturating_sub(top + history.view_rows());
            let short = if delta > 0 {
                step > top && !history.at_top
            } else {
                step > below && !history.is_tail
            };
            if short {
                let anchor = history.anchor_of(top);
                let before = history.extent();
                self.shift_history(WindowTarget::Around(anchor));
                if self.window().is_some_and(|h| h.extent() == before) {
                    // No other window to go to (the ring changed under it).
                    break;
                }
                let Some(history) = self.window_mut() else {
                    return;
                };
                if let Located::At(row) = history.locate(anchor) {
                    history.show_top(row);
                }
            }
            let ScrollView::Viewing(history) = &mut self.view else {
                return;
            };
            let signed = isize::try_from(step).unwrap_or(isize::MAX);
            let top = history.top_row();
            history.show_top(top.saturating_add_signed(if delta > 0 { -signed } else { signed }));
            left -= step;
        }
        if let ScrollView::Viewing(history) = &self.view
            && history.offset() == 0
            && delta < 0
            && history.is_tail
        {
            self.view = ScrollView::Live;
        }
    }

    fn request_history(&mut self, offset: usize, events: &PaneMailbox) {
        let extent = anchors::tail(&self.ring, self.window_rows(), self.cols);
        let request = self.window_request(extent);
        let id = self.id;
        let events = events.clone();
        let spawned = crate::jobs::named("history-replay", move || {
            let history = Window::replay(request);
            events.post(PaneEvent::HistoryReady(id, Box::new(history)));
        });
        // A thread that cannot start is said in the log by `jobs::named`.
        if spawned.is_ok() {
            self.view = ScrollView::Loading { offset };
            self.damage.note(Change::ViewMoved);
        }
    }

    fn window_request(&mut self, extent: Extent) -> ReplayRequest {
        // A window must hold all its rows, or its first rows (and anchors)
        // drop off and the next window back is the same one: room for the
        // rows it aims at, long lines and the snapping of its ends.
        let window = anchors::most_rows(self.window_rows()) + usize::from(self.rows);
        let cap = max_history_rows(self.ring.budget(), self.cols).max(window);
        let size = (self.rows, self.cols);
        let stops = self.marks.stops(extent.start, extent.end);
        self.windows += 1;
        let mut request = ReplayRequest {
            generation: self.windows,
            ..ReplayRequest::window(&self.ring, &self.sizes, extent, size, cap).with_stops(stops)
        }
        .with_pictures(self.pictures.clone());
        request.reach = self.reach;
        request
    }

    /// Replaces the history window shown with the one `target` names,
    /// replayed here and now (a window is a few thousand rows: milliseconds).
    /// Returns the window it replaces, to translate positions from; `None`
    /// when no history is shown.
    pub fn shift_history(&mut self, target: WindowTarget) -> Option<Box<Window>> {
        let ScrollView::Viewing(_) = self.view else {
            return None;
        };
        let rows = self.window_rows();
        let extent = match target {
            WindowTarget::Top => anchors::top(&self.ring, rows, self.cols),
            WindowTarget::Tail => anchors::tail(&self.ring, rows, self.cols),
            WindowTarget::Around(anchor) => {
                let pos = anchors::approximate_position(&self.ring, anchor);
                anchors::around(&self.ring, pos, rows, self.cols)
            }
        };
        let mut history = Box::new(Window::replay(self.window_request(extent)));
        history.truncated = self.ring.start() > 0;
        let ScrollView::Viewing(old) =
            std::mem::replace(&mut self.view, ScrollView::Viewing(history))
        else {
            return None;
        };
        self.damage.note(Change::ViewMoved);
        Some(old)
    }

    /// A replay finished: catch it up with output that arrived meanwhile.
    pub fn history_ready(&mut self, mut history: Box<Window>) {
        self.damage.note(Change::ViewMoved);
        let ScrollView::Loading { offset } = self.view else {
            // The user left the view before it arrived.
            return;
        };
        let missed = self.ring.copy_range(history.fed_to, self.ring.end());
        history.feed(&missed);
        if history.size() != (self.rows, self.cols) {
            // The pane was resized while it loaded: replayed at the size
            // now, as a view open then is (see `resize_history`).
            history = Box::new(Window::replay(self.window_request(history.extent())));
        }
        history.truncated = self.ring.start() > 0;
        let wanted = offset;
        history.set_offset(wanted);
        let more = wanted.saturating_sub(history.offset());
        self.view = ScrollView::Viewing(history);
        if more > 0 {
            // The user scrolled further than the window holds while it loaded.
            let mailbox = PaneMailbox::discarding();
            self.scroll(isize::try_from(more).unwrap_or(isize::MAX), &mailbox);
        }
    }

    /// The pane was resized: the window shown is replayed at the new size
    /// (its lines rewrapped, output printed at other sizes at those sizes,
    /// see `history::sized`), as a view opened now would show it, rather
    /// than its grid cut to the new size. The view keeps the logical line
    /// at its top (or stays at the bottom). The old window is kept in the
    /// new one's `replaced` for copy mode to carry its cursor over
    /// (`input::copy_window::follow_resize`) until the loop's turn ends.
    pub(in crate::pane) fn resize_history(&mut self) {
        let Some(old) = self.window() else {
            return;
        };
        if old.size() == (self.rows, self.cols) {
            return;
        }
        let mut new = Box::new(Window::replay(self.window_request(old.extent())));
        let ScrollView::Viewing(mut old) = std::mem::replace(&mut self.view, ScrollView::Live)
        else {
            return;
        };
        new.truncated = old.truncated;
        if old.offset() > 0 {
            let top = old.top_row();
            let (row, _) = crate::pane::history::window::carry_cell(&mut old, &mut new, top, 0);
            new.show_top(row);
        }
        // Resized twice before copy mode followed: it carries its rows
        // from the window it knows.
        new.replaced = Some(old.replaced.take().unwrap_or(old));
        self.view = ScrollView::Viewing(new);
        self.damage.note(Change::ViewMoved);
    }

    /// Lets go of the window a resize replaced, once copy mode had its
    /// chance to carry its rows over.
    pub fn forget_replaced_history(&mut self) {
        if let ScrollView::Viewing(history) = &mut self.view {
            history.replaced = None;
        }
    }

    /// Forgets the pane's history (`clear-history`, as tmux's): every byte
    /// the ring holds is let go, so no view shows it and the saver deletes
    /// it from disk. The screen stays as the program drew it.
    pub fn forget_history(&mut self) {
        self.ring.forget();
        self.scroll_to_bottom();
    }

    /// Back to the live screen.
    pub fn scroll_to_bottom(&mut self) {
        self.damage.note(Change::ViewMoved);
        self.view = ScrollView::Live;
    }

    /// The rows scrolled back and the rows available, for the indicator.
    pub fn scroll_position(&self) -> Option<(usize, usize, bool)> {
        match &self.view {
            ScrollView::Live => None,
            ScrollView::Loading { offset } => Some((*offset, 0, false)),
            ScrollView::Viewing(h) => Some((h.offset(), h.len(), h.truncated)),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;
    use crate::pane::Pane;

    /// A pane that printed `lines` numbered lines, its history open at the
    /// newest rows.
    fn scrolled_pane(lines: usize, rows: u16, back: isize) -> Pane {
        let mut pane = Pane::detached(PaneId(1), rows, 40, 8 << 20);
        let text: String = (1..=lines).map(|i| format!("row{i:05}\r\n")).collect();
        pane.feed(text.into_bytes());
        let (tx, rx) = crossbeam_channel::unbounded();
        pane.history_mut().scroll(back, &tx.into());
        match rx.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(PaneEvent::HistoryReady(_, history)) => pane.history_mut().history_ready(history),
            _ => panic!("no history replay"),
        }
        pane
    }

    fn top_line(pane: &mut Pane) -> String {
        pane.screen()
            .contents()
            .lines()
            .next()
            .unwrap_or_default()
            .to_string()
    }

    #[test]
    fn scrolling_back_goes_past_the_first_window_to_the_first_line() {
        let mut pane = scrolled_pane(50_000, 10, 1);
        let mailbox = PaneMailbox::discarding();
        for _ in 0..10_000 {
            pane.history_mut().scroll(3, &mailbox);
        }
        let top = top_line(&mut pane);
        assert!(top.as_str() <= "row20000", "{top}");
        for _ in 0..10_000 {
            pane.history_mut().scroll(3, &mailbox);
        }
        assert_eq!(top_line(&mut pane), "row00001");
        // And forward again to the live screen.
        for _ in 0..20_000 {
            pane.history_mut().scroll(-3, &mailbox);
        }
        assert!(!pane.history().is_scrolled());
    }

    #[test]
    fn scrolling_further_than_the_window_while_it_loads_goes_on_back() {
        let mut pane = scrolled_pane(50_000, 21, 6_000);
        let top = top_line(&mut pane);
        assert_eq!(top, format!("row{:05}", 50_000 - 6_000 - 20 + 1));
        pane.history_mut().scroll(3, &PaneMailbox::discarding());
        assert_eq!(
            top_line(&mut pane),
            format!("row{:05}", 50_000 - 6_000 - 20 - 2)
        );
    }

    #[test]
    fn scrolling_to_the_top_of_a_wrapped_ring_of_empty_lines() {
        let budget = 128 * 1024;
        let mut pane = Pane::detached(PaneId(1), 24, 80, budget);
        pane.feed(b"\r\n".repeat(budget));
        let (tx, rx) = crossbeam_channel::unbounded();
        pane.history_mut().scroll(isize::MAX / 2, &tx.into());
        match rx.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(PaneEvent::HistoryReady(_, history)) => pane.history_mut().history_ready(history),
            _ => panic!("no history replay"),
        }
        let h = pane.history().window().unwrap();
        assert!(
            h.at_top && h.top_row() == 0,
            "{:?} {} {} first {}",
            h.extent(),
            h.at_top,
            h.top_row(),
            pane.history().ring.first_line_start()
        );
    }

    #[test]
    fn a_view_open_across_a_resize_is_replayed_rewrapped_from_the_same_line() {
        let mut pane = Pane::detached(PaneId(1), 10, 120, 8 << 20);
        let zeros = "0".repeat(90);
        let text: String = (100..400)
            .map(|i| format!("row{i} {zeros} end{i}\r\n"))
            .collect();
        pane.feed(text.into_bytes());
        let (tx, rx) = crossbeam_channel::unbounded();
        pane.history_mut().scroll(50, &tx.into());
        match rx.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(PaneEvent::HistoryReady(_, history)) => pane.history_mut().history_ready(history),
            _ => panic!("no history replay"),
        }
        let top = top_line(&mut pane);
        assert!(top.starts_with("row3"), "{top}");
        let first = pane.history().window().map(|h| h.generation);
        pane.resize(10, 60);
        let rows: Vec<String> = pane.screen().row_texts().collect();
        assert_eq!(rows[0], top[..60], "{rows:?}");
        assert_eq!(rows[1].trim_end(), &top[60..], "{rows:?}");
        // Resized again before copy mode followed: it still finds the
        // window it knows.
        pane.resize(10, 80);
        let replaced = pane.history().window().and_then(|h| h.replaced.as_ref());
        assert_eq!(replaced.map(|h| h.generation), first);
        pane.history_mut().forget_replaced_history();
        assert!(
            pane.history()
                .window()
                .is_some_and(|h| h.replaced.is_none())
        );
    }
}
