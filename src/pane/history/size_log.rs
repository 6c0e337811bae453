//! The sizes a pane's output was printed at: where in the byte ring each
//! size took effect. A reflow replays each stretch of output at the size
//! the program drew it for, and rewraps the grid where the size changed
//! (see `reflow`), so what was drawn in place stays in place.

use std::collections::VecDeque;

/// Size changes kept. Each one a replay passes costs a rewrap of the grid
/// (a few screenfuls of cells, ~2.5 ms on the flood pane), so a long
/// border drag cannot make a resize, or a window of history, slow: 64 made
/// the worst case 170 ms. Past the cap the stretch with the least output
/// goes (see `SizeLog::forget_smallest`); output older than the oldest
/// kept change is replayed at that change's size.
pub const MAX_CHANGES: usize = 16;

/// The largest grid a pane is ever given: the largest terminal drawn on
/// (`render::frame`), 1024 columns, 512 rows. A terminal that says it is
/// larger is drawn on at its top left; a saved size larger than this is
/// not one a pane had.
pub const MAX_COLS: u16 = 1024;
pub const MAX_ROWS: u16 = 512;

/// A size in effect from ring position `from` on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeFrom {
    pub from: u64,
    pub rows: u16,
    pub cols: u16,
}

/// A stretch of output, `[start, end)` in the ring, printed at one size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stretch {
    pub start: u64,
    pub end: u64,
    pub rows: u16,
    pub cols: u16,
}

#[derive(Debug, Clone)]
pub struct SizeLog {
    /// Oldest first; never empty; `from` strictly increasing.
    sizes: VecDeque<SizeFrom>,
}

impl SizeLog {
    /// A pane's size from its first byte.
    pub fn new(rows: u16, cols: u16) -> Self {
        Self {
            sizes: VecDeque::from([SizeFrom {
                from: 0,
                rows,
                cols,
            }]),
        }
    }

    /// The size is `rows` x `cols` from ring position `at` on. Sizes that
    /// took effect before `oldest` (the ring's oldest byte) are forgotten,
    /// except the one in effect there.
    pub fn record(&mut self, at: u64, rows: u16, cols: u16, oldest: u64) {
        let new = SizeFrom {
            from: at,
            rows,
            cols,
        };
        match self.sizes.back_mut() {
            // No output between two resizes: the first size printed nothing.
            Some(last) if last.from == at => *last = new,
            _ => self.sizes.push_back(new),
        }
        while self.sizes.len() > 1 && self.sizes[1].from <= oldest {
            self.sizes.pop_front();
        }
        while self.sizes.len() > MAX_CHANGES {
            self.forget_smallest();
        }
        // Merges the now-equal neighbour a replaced size may have made.
        let n = self.sizes.len();
        if n > 1 && (self.sizes[n - 2].rows, self.sizes[n - 2].cols) == (rows, cols) {
            self.sizes.pop_back();
        }
    }

    /// Forgets the size of the stretch with the least output (the one
    /// being printed aside), which is replayed at the size before it from
    /// then on. A border drag makes many such stretches, each a prompt
    /// redrawn for a size passed on the way; the sizes the bulk of the
    /// output was printed at stay, however long ago.
    fn forget_smallest(&mut self) {
        let closed = self.sizes.len() - 1;
        let Some(i) = (0..closed).min_by_key(|&i| self.sizes[i + 1].from - self.sizes[i].from)
        else {
            return;
        };
        self.sizes.remove(i);
        let same = |a: &SizeFrom, b: &SizeFrom| (a.rows, a.cols) == (b.rows, b.cols);
        if i > 0 && i < self.sizes.len() && same(&self.sizes[i - 1], &self.sizes[i]) {
            self.sizes.remove(i);
        }
    }

    /// The sizes kept, oldest first (for saving the log with the history).
    pub fn sizes(&self) -> impl Iterator<Item = SizeFrom> + '_ {
        self.sizes.iter().copied()
    }

    /// A log of `sizes` (oldest first) read back: positions made relative
    /// to `origin` (a size from before it counts from 0), the sizes from
    /// `end` on dropped. `None` when none is left.
    pub fn from_saved(sizes: &[SizeFrom], origin: u64, end: u64) -> Option<Self> {
        let mut kept: Option<Self> = None;
        for size in sizes.iter().filter(|s| s.from < end.saturating_add(origin)) {
            let at = size.from.saturating_sub(origin);
            match &mut kept {
                None => kept = Some(Self::new(size.rows, size.cols)),
                Some(log) if at == 0 => *log = Self::new(size.rows, size.cols),
                Some(log) => log.record(at, size.rows, size.cols, 0),
            }
        }
        kept
    }

    /// The stretches of `[start, end)`, oldest first, each with the size it
    /// was printed at; the first begins at `start` (at the oldest size
    /// kept if that is newer), the last ends at `end` (empty when the size
    /// changed at `end`).
    pub fn stretches(&self, start: u64, end: u64) -> Vec<Stretch> {
        let mut out: Vec<Stretch> = Vec::new();
        for (i, size) in self.sizes.iter().enumerate() {
            let last = i + 1 == self.sizes.len();
            let until = self.sizes.get(i + 1).map_or(end, |next| next.from.min(end));
            if !last && until <= start {
                continue;
            }
            let from = if out.is_empty() {
                start
            } else {
                size.from.max(start)
            };
            out.push(Stretch {
                start: from,
                end: until.max(from),
                rows: size.rows,
                cols: size.cols,
            });
        }
        out
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failed unwrap is a failed test
mod tests {
    use super::*;

    fn sizes(stretches: &[Stretch]) -> Vec<(u64, u64, u16)> {
        stretches.iter().map(|s| (s.start, s.end, s.cols)).collect()
    }

    #[test]
    fn a_saved_log_comes_back_relative_to_the_first_byte_restored() {
        let mut log = SizeLog::new(24, 120);
        log.record(1_000, 24, 60, 0);
        log.record(5_000, 24, 100, 0);
        log.record(9_000, 24, 80, 0);
        let saved: Vec<SizeFrom> = log.sizes().collect();
        // Restored from position 2,000 on, 6,000 bytes of it.
        let back = SizeLog::from_saved(&saved, 2_000, 6_000).unwrap();
        assert_eq!(
            sizes(&back.stretches(0, 6_000)),
            [(0, 3_000, 60), (3_000, 6_000, 100)]
        );
        assert!(SizeLog::from_saved(&[], 0, 10).is_none());
    }

    #[test]
    fn output_is_split_where_the_size_changed() {
        let mut log = SizeLog::new(24, 80);
        log.record(100, 24, 60, 0);
        log.record(250, 24, 100, 0);
        assert_eq!(
            sizes(&log.stretches(0, 300)),
            [(0, 100, 80), (100, 250, 60), (250, 300, 100)]
        );
        assert_eq!(
            sizes(&log.stretches(120, 300)),
            [(120, 250, 60), (250, 300, 100)]
        );
        // A resize just now: the last stretch is empty.
        log.record(300, 24, 70, 0);
        assert_eq!(
            sizes(&log.stretches(260, 300)),
            [(260, 300, 100), (300, 300, 70)]
        );
    }

    #[test]
    fn resizes_with_no_output_between_are_one() {
        let mut log = SizeLog::new(24, 80);
        log.record(50, 24, 60, 0);
        log.record(50, 24, 70, 0);
        assert_eq!(sizes(&log.stretches(0, 60)), [(0, 50, 80), (50, 60, 70)]);
        // Back to the size before: nothing changed at 50 after all.
        log.record(50, 24, 80, 0);
        assert_eq!(sizes(&log.stretches(0, 60)), [(0, 60, 80)]);
    }

    #[test]
    fn sizes_older_than_the_ring_and_beyond_the_cap_are_forgotten() {
        let mut log = SizeLog::new(24, 80);
        log.record(10, 24, 60, 0);
        log.record(20, 24, 70, 15);
        assert_eq!(sizes(&log.stretches(15, 30)), [(15, 20, 60), (20, 30, 70)]);
        for i in 0..200u16 {
            log.record(100 + u64::from(i), 24, 40 + i % 3, 15);
        }
        assert_eq!(log.sizes.len(), MAX_CHANGES);
    }

    #[test]
    fn past_the_cap_the_sizes_of_the_least_output_go() {
        // A build printed at 80, then a border dragged through 40 sizes
        // with a prompt redrawn at each, then more output at 60.
        let mut log = SizeLog::new(24, 80);
        let mut at = 10_000;
        for i in 0..40u16 {
            log.record(at, 24, 41 + i, 0);
            at += 30;
        }
        log.record(at, 24, 60, 0);
        let stretches = log.stretches(0, at + 5_000);
        assert!(stretches.len() <= MAX_CHANGES);
        // The build's output and the output after the drag keep their sizes.
        // (Prompts of the drag forgotten go with the stretch before them.)
        assert_eq!((stretches[0].start, stretches[0].cols), (0, 80));
        assert!(stretches[0].end >= 10_000);
        assert_eq!(
            sizes(&stretches[stretches.len() - 1..]),
            [(at, at + 5_000, 60)]
        );
    }
}
