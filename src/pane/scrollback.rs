//! A pane's history as the raw bytes its program printed, bounded by a byte
//! budget.
//!
//! The live parser keeps no scrollback: vt100 0.18 allocates a row per
//! scrolled line and parses a flood at less than half the speed without it
//! (CRATES.md). Appending bytes here is a memcpy. When the user scrolls back,
//! the bytes are replayed into a separate parser (see `history.rs`).
//!
//! Positions are absolute byte offsets since the pane started, so a replay
//! that finished at position P can be brought up to date with the bytes
//! after P.

/// A terminal size change, recorded at the byte position where it happened
/// so a replay lays text out as it was laid out live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResizeMark {
    pub position: u64,
    pub rows: u16,
    pub cols: u16,
}

#[derive(Debug, Clone)]
pub struct ByteRing {
    budget: usize,
    /// Grows on demand up to `budget`, so idle panes cost nothing.
    buf: Vec<u8>,
    /// Index in `buf` of the oldest byte once the buffer is full.
    head: usize,
    /// Absolute position of the next byte to be written.
    end: u64,
    resizes: Vec<ResizeMark>,
}

impl ByteRing {
    pub fn new(budget: usize) -> Self {
        Self {
            budget: budget.max(1),
            buf: Vec::new(),
            head: 0,
            end: 0,
            resizes: Vec::new(),
        }
    }

    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Absolute position one past the newest byte.
    pub fn end(&self) -> u64 {
        self.end
    }

    /// Absolute position of the oldest byte still held.
    pub fn start(&self) -> u64 {
        self.end - self.buf.len() as u64
    }

    pub fn len(&self) -> usize {
        self.buf.len()
    }

    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    pub fn push(&mut self, mut bytes: &[u8]) {
        self.end += bytes.len() as u64;
        if bytes.len() >= self.budget {
            bytes = &bytes[bytes.len() - self.budget..];
            self.buf.clear();
            self.buf.extend_from_slice(bytes);
            self.head = 0;
            self.forget_old_resizes();
            return;
        }
        let room = self.budget - self.buf.len();
        if room > 0 {
            let take = room.min(bytes.len());
            self.buf.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
        }
        // Full: overwrite the oldest bytes, wrapping around.
        while !bytes.is_empty() {
            let take = (self.budget - self.head).min(bytes.len());
            self.buf[self.head..self.head + take].copy_from_slice(&bytes[..take]);
            self.head = (self.head + take) % self.budget;
            bytes = &bytes[take..];
        }
        self.forget_old_resizes();
    }

    pub fn record_resize(&mut self, rows: u16, cols: u16) {
        if let Some(last) = self.resizes.last_mut()
            && last.position == self.end
        {
            last.rows = rows;
            last.cols = cols;
            return;
        }
        self.resizes.push(ResizeMark {
            position: self.end,
            rows,
            cols,
        });
    }

    /// Resizes recorded at or after the oldest held byte, plus the last one
    /// before it (the size the oldest bytes were laid out at).
    pub fn resizes(&self) -> &[ResizeMark] {
        &self.resizes
    }

    /// The held bytes from `from` (clamped to what is held) to the end, as
    /// two slices because the ring may wrap.
    pub fn slices_from(&self, from: u64) -> (&[u8], &[u8]) {
        let from = from.clamp(self.start(), self.end);
        let skip = usize::try_from(from - self.start()).unwrap_or(usize::MAX);
        let (older, newer) = if self.buf.len() < self.budget {
            (&self.buf[..], &self.buf[..0])
        } else {
            (&self.buf[self.head..], &self.buf[..self.head])
        };
        if skip <= older.len() {
            (&older[skip..], newer)
        } else {
            let skip = (skip - older.len()).min(newer.len());
            (&newer[skip..], &older[..0])
        }
    }

    /// The held bytes in `[from, to)` (clamped to what is held), as up to
    /// two slices because the ring may wrap.
    fn segments(&self, from: u64, to: u64) -> [&[u8]; 2] {
        let to = to.clamp(self.start(), self.end);
        let from = from.clamp(self.start(), to);
        let len = usize::try_from(to - from).unwrap_or(usize::MAX);
        let (a, b) = self.slices_from(from);
        let first = len.min(a.len());
        [&a[..first], &b[..(len - first).min(b.len())]]
    }

    /// A copy of the held bytes in `[from, to)`.
    pub fn copy_range(&self, from: u64, to: u64) -> Vec<u8> {
        self.segments(from, to).concat()
    }

    /// The first line start at or after `pos` (a position just after a
    /// newline, or 0), or the end when no line starts there.
    pub fn line_start_at_or_after(&self, pos: u64) -> u64 {
        if pos == 0 {
            return 0;
        }
        // `pos` itself is a line start when the byte before it is a newline.
        let from = (pos - 1).max(self.start());
        let mut at = from;
        for seg in self.segments(from, self.end) {
            if let Some(i) = memchr::memchr(b'\n', seg) {
                return at + i as u64 + 1;
            }
            at += seg.len() as u64;
        }
        self.end
    }

    /// The oldest line start held: where a replay can begin without
    /// starting inside a line or an escape sequence.
    pub fn first_line_start(&self) -> u64 {
        if self.start() == 0 {
            0
        } else {
            self.line_start_at_or_after(self.start() + 1)
        }
    }

    /// The newest line start in `(floor, pos]`, if any.
    pub fn last_line_start_in(&self, floor: u64, pos: u64) -> Option<u64> {
        if pos == 0 {
            return Some(0);
        }
        let lo = floor.max(self.start());
        let [a, b] = self.segments(lo, pos);
        if let Some(i) = memchr::memrchr(b'\n', b) {
            return Some(lo + a.len() as u64 + i as u64 + 1);
        }
        if let Some(i) = memchr::memrchr(b'\n', a) {
            return Some(lo + i as u64 + 1);
        }
        (lo == 0).then_some(0)
    }

    /// The start of the line `lines` newlines before `pos`, going back no
    /// further than `floor` (returned when there are fewer newlines).
    pub fn lines_back(&self, pos: u64, lines: usize, floor: u64) -> u64 {
        if lines == 0 {
            return pos.max(floor);
        }
        let floor = floor.max(self.start());
        let [a, b] = self.segments(floor, pos);
        let mut left = lines;
        for i in memchr::memrchr_iter(b'\n', b) {
            left -= 1;
            if left == 0 {
                return floor + a.len() as u64 + i as u64 + 1;
            }
        }
        for i in memchr::memrchr_iter(b'\n', a) {
            left -= 1;
            if left == 0 {
                return floor + i as u64 + 1;
            }
        }
        floor
    }

    /// The position just after the `lines`-th newline at or after `pos`,
    /// going no further than `ceil` (returned when there are fewer).
    pub fn lines_forward(&self, pos: u64, lines: usize, ceil: u64) -> u64 {
        let ceil = ceil.min(self.end);
        if lines == 0 {
            return pos.min(ceil);
        }
        let mut at = pos.max(self.start());
        let mut left = lines;
        for seg in self.segments(at, ceil) {
            for i in memchr::memchr_iter(b'\n', seg) {
                left -= 1;
                if left == 0 {
                    return at + i as u64 + 1;
                }
            }
            at += seg.len() as u64;
        }
        ceil
    }

    fn forget_old_resizes(&mut self) {
        let start = self.start();
        // Keep the last mark before `start`: it gives the size at `start`.
        let first_needed = self
            .resizes
            .iter()
            .rposition(|m| m.position <= start)
            .unwrap_or(0);
        if first_needed > 0 {
            self.resizes.drain(..first_needed);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn held(ring: &ByteRing) -> Vec<u8> {
        let (a, b) = ring.slices_from(0);
        [a, b].concat()
    }

    #[test]
    fn keeps_everything_under_budget() {
        let mut ring = ByteRing::new(16);
        ring.push(b"hello ");
        ring.push(b"world");
        assert_eq!(held(&ring), b"hello world");
        assert_eq!((ring.start(), ring.end()), (0, 11));
    }

    #[test]
    fn keeps_only_the_newest_bytes_when_full() {
        let mut ring = ByteRing::new(8);
        for chunk in [&b"abc"[..], b"defg", b"hij", b"klmnop"] {
            ring.push(chunk);
        }
        assert_eq!(held(&ring), b"ijklmnop");
        assert_eq!((ring.start(), ring.end()), (8, 16));
    }

    #[test]
    fn a_push_larger_than_the_budget_keeps_its_tail() {
        let mut ring = ByteRing::new(4);
        ring.push(b"xy");
        ring.push(b"0123456789");
        assert_eq!(held(&ring), b"6789");
        assert_eq!(ring.end(), 12);
    }

    #[test]
    fn slices_from_a_position_return_the_rest() {
        let mut ring = ByteRing::new(8);
        ring.push(b"abcdefghij");
        let (a, b) = ring.slices_from(5);
        assert_eq!([a, b].concat(), b"fghij");
        let (a, b) = ring.slices_from(100);
        assert!(a.is_empty() && b.is_empty());
    }

    #[test]
    fn matches_a_naive_model_on_many_pushes() {
        let mut ring = ByteRing::new(37);
        let mut all = Vec::new();
        for i in 0..200u32 {
            let chunk: Vec<u8> = (0..(i * 7 % 23)).map(|j| (i + j) as u8).collect();
            ring.push(&chunk);
            all.extend_from_slice(&chunk);
            let keep = all.len().min(37);
            assert_eq!(held(&ring), &all[all.len() - keep..]);
            assert_eq!(ring.end(), all.len() as u64);
        }
    }

    #[test]
    fn the_first_line_start_is_past_the_dropped_bytes() {
        let mut ring = ByteRing::new(10);
        ring.push(b"first\nsecond\nthird");
        assert_eq!(ring.first_line_start(), 13);
        assert_eq!(ring.copy_range(13, ring.end()), b"third");
        let mut fresh = ByteRing::new(100);
        fresh.push(b"ab\ncd");
        assert_eq!(fresh.first_line_start(), 0);
    }

    #[test]
    fn newlines_are_counted_across_the_wrap_like_a_naive_scan() {
        let mut ring = ByteRing::new(50);
        let mut all = Vec::new();
        for i in 0..40u32 {
            let line = format!("{}\n", "x".repeat((i % 5) as usize));
            ring.push(line.as_bytes());
            all.extend_from_slice(line.as_bytes());
        }
        let start = ring.start();
        let is_start = |p: u64| p == 0 || all[(p - 1) as usize] == b'\n';
        for pos in start..=ring.end() {
            // The line start `n` newlines back, by hand.
            for n in 0..6 {
                let mut p = pos;
                let mut left = n;
                while left > 0 && p > start {
                    p -= 1;
                    if all[p as usize] == b'\n' {
                        left -= 1;
                        if left == 0 {
                            p += 1;
                            break;
                        }
                    }
                }
                let expected = if left > 0 { start } else { p };
                assert_eq!(ring.lines_back(pos, n, 0), expected, "back {n} from {pos}");
            }
            let from = pos.max(start + 1);
            let after = (from..=ring.end()).find(|&p| is_start(p));
            assert_eq!(
                ring.line_start_at_or_after(from),
                after.unwrap_or(ring.end())
            );
            let forward = ring.lines_forward(pos, 1, ring.end());
            let next_nl = (pos..ring.end()).find(|&p| all[p as usize] == b'\n');
            assert_eq!(forward, next_nl.map_or(ring.end(), |p| p + 1));
        }
    }

    #[test]
    fn resize_marks_older_than_the_history_are_forgotten_but_one() {
        let mut ring = ByteRing::new(4);
        ring.record_resize(24, 80);
        ring.push(b"ab");
        ring.record_resize(30, 100);
        ring.push(b"cdefgh");
        ring.record_resize(10, 10);
        assert_eq!(
            ring.resizes(),
            &[
                ResizeMark {
                    position: 2,
                    rows: 30,
                    cols: 100
                },
                ResizeMark {
                    position: 8,
                    rows: 10,
                    cols: 10
                },
            ]
        );
    }
}
