//! A pane's history as the raw bytes its program printed, bounded by a byte
//! budget of output kept.
//!
//! The live parser keeps no scrollback: the parser (0.18) allocates a row per
//! scrolled line and parses a flood at less than half the speed without it
//! (CRATES.md). Appending bytes here is a memcpy into a plain tail block;
//! each full block is sealed once, LZ4-compressed (see `ring_block`), so
//! the ring keeps its whole budget of output in about half the memory.
//! When the user scrolls back, the bytes are read back (decompressed) and
//! replayed into a separate parser (see `history.rs`).
//!
//! Positions are absolute byte offsets since the pane started, so a replay
//! that finished at position P can be brought up to date with the bytes
//! after P. Every reader goes through [`ByteRing::visit`]: blocks are never
//! handed out compressed.

use std::collections::VecDeque;
use std::ops::ControlFlow;

use crate::pane::history::ring_block::{Packing, SealedBlock};

/// Output bytes in a sealed block: big enough for LZ4 to find the
/// repeats of log lines (2.09x here against 2.11x at 128 KiB), small
/// enough that reading a few rows back decompresses little (~25 µs).
pub const BLOCK_BYTES: usize = 64 * 1024;

#[derive(Debug, Clone)]
pub struct ByteRing {
    /// Bytes of output kept: the newest `budget` bytes are always held.
    budget: usize,
    /// Output bytes per block; block `k` holds positions
    /// `[k * block, (k + 1) * block)`.
    block: usize,
    packing: Packing,
    /// Full blocks, oldest first, starting with block `first_block`.
    sealed: VecDeque<SealedBlock>,
    first_block: u64,
    /// The newest bytes, plain: the block after the sealed ones, not yet
    /// full. Grows on demand, so idle panes cost nothing.
    tail: Vec<u8>,
    /// Absolute position of the oldest byte held.
    start: u64,
    /// Absolute position of the next byte to be written.
    end: u64,
    /// Output before this position was erased (ED 3, RIS) or forgotten
    /// (`clear-history`): no view shows it, and it is not saved.
    erased: u64,
}

impl ByteRing {
    /// A ring keeping the newest `budget` bytes of output, its sealed
    /// blocks compressed.
    pub fn new(budget: usize) -> Self {
        Self::with_layout(budget, BLOCK_BYTES, Packing::Lz4)
    }

    /// A ring with blocks of `block` bytes (at most the budget), packed as
    /// `packing` says: tests compare the layouts.
    pub fn with_layout(budget: usize, block: usize, packing: Packing) -> Self {
        let budget = budget.max(1);
        Self {
            budget,
            block: block.clamp(1, budget),
            packing,
            sealed: VecDeque::new(),
            first_block: 0,
            tail: Vec::new(),
            start: 0,
            end: 0,
            erased: 0,
        }
    }

    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Blocks sealed from now on stay plain: the ring's output is relayed
    /// to a workspace that keeps its own (a remote pane's, see
    /// `app::pane_streams`), and compressing it here only costs the loop.
    pub fn keep_plain(&mut self) {
        self.packing = Packing::Off;
    }

    /// Absolute position one past the newest byte.
    pub fn end(&self) -> u64 {
        self.end
    }

    /// Absolute position of the oldest byte still held.
    pub fn start(&self) -> u64 {
        self.start
    }

    /// Output before this position is not to be saved: the program erased
    /// it (ED 3) or the user had it forgotten.
    pub fn erased(&self) -> u64 {
        self.erased
    }

    /// The program erased the history before `pos` (ED 3): the views no
    /// longer show it (their parsers erase it too), and the saver deletes
    /// it from disk. It stays in memory, where the views replay it from.
    pub fn erase_before(&mut self, pos: u64) {
        self.erased = self.erased.max(pos.min(self.end));
    }

    /// Forgets every byte held (`clear-history`): the sealed blocks are
    /// let go and the tail blanked; positions go on from where they were,
    /// so what comes next is where it would have been.
    pub fn forget(&mut self) {
        self.sealed.clear();
        self.first_block = self.end / self.block_len();
        self.tail.fill(0);
        self.start = self.end;
        self.erased = self.end;
    }

    /// Bytes of output held.
    pub fn len(&self) -> usize {
        usize::try_from(self.end - self.start).unwrap_or(usize::MAX)
    }

    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }

    /// Memory the held bytes take: the sealed blocks as stored plus the
    /// plain tail's allocation.
    pub fn stored_bytes(&self) -> usize {
        self.sealed
            .iter()
            .map(SealedBlock::stored_len)
            .sum::<usize>()
            + self.tail.capacity()
    }

    fn block_len(&self) -> u64 {
        self.block as u64
    }

    /// Absolute position of the tail's first byte.
    fn tail_start(&self) -> u64 {
        (self.first_block + self.sealed.len() as u64) * self.block_len()
    }

    pub fn push(&mut self, mut bytes: &[u8]) {
        let block = self.block_len();
        let new_end = self.end + bytes.len() as u64;
        let new_start = new_end.saturating_sub(self.budget as u64).max(self.start);
        // A push bigger than the budget: what goes before the oldest block
        // that survives it is never stored (nor compressed).
        let first_kept = new_start / block * block;
        if first_kept > self.end {
            let skip = usize::try_from(first_kept - self.end).unwrap_or(bytes.len());
            bytes = &bytes[skip.min(bytes.len())..];
            self.sealed.clear();
            self.tail.clear();
            self.first_block = first_kept / block;
            self.end = first_kept;
        }
        while !bytes.is_empty() {
            let take = (self.block - self.tail.len()).min(bytes.len());
            self.tail.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            self.end += take as u64;
            if self.tail.len() == self.block {
                self.seal_tail(new_start);
            }
        }
        self.start = new_start;
        while !self.sealed.is_empty() && (self.first_block + 1) * block <= self.start {
            self.sealed.pop_front();
            self.first_block += 1;
        }
    }

    /// The tail is full: seal it (unless it is already past keeping).
    fn seal_tail(&mut self, keep_from: u64) {
        let tail_end = self.tail_start() + self.block_len();
        if self.sealed.is_empty() && tail_end <= keep_from {
            self.first_block += 1;
        } else {
            self.sealed
                .push_back(SealedBlock::seal(&mut self.tail, self.packing));
            // Taken over by a plain block: the next block comes in as fast.
            if self.tail.capacity() == 0 {
                self.tail.reserve_exact(self.block);
            }
        }
        self.tail.clear();
    }

    /// Calls `f(position, bytes)` with the held bytes in `[from, to)`
    /// (clamped to what is held), a block at a time, oldest first or, when
    /// `backwards`, newest first; stops at the first `Break` and returns
    /// its value. Every reader of the ring comes through here.
    pub fn visit<T>(
        &self,
        from: u64,
        to: u64,
        backwards: bool,
        mut f: impl FnMut(u64, &[u8]) -> ControlFlow<T>,
    ) -> Option<T> {
        let to = to.clamp(self.start, self.end);
        let from = from.clamp(self.start, to);
        if from == to {
            return None;
        }
        let block = self.block_len();
        let (first, last) = (from / block, (to - 1) / block);
        let mut scratch = Vec::new();
        let mut one = |k: u64, scratch: &mut Vec<u8>| {
            let base = k * block;
            let lo = usize::try_from(from.max(base) - base).unwrap_or(usize::MAX);
            let hi = usize::try_from(to.min(base + block) - base).unwrap_or(usize::MAX);
            let mut part = |bytes: &[u8]| {
                let lo = lo.min(bytes.len());
                f(base + lo as u64, &bytes[lo..hi.clamp(lo, bytes.len())])
            };
            match usize::try_from(k - self.first_block)
                .ok()
                .and_then(|i| self.sealed.get(i))
            {
                Some(sealed) => sealed.read(self.block, scratch, part),
                None => part(&self.tail),
            }
        };
        if backwards {
            for k in (first..=last).rev() {
                if let ControlFlow::Break(v) = one(k, &mut scratch) {
                    return Some(v);
                }
            }
        } else {
            for k in first..=last {
                if let ControlFlow::Break(v) = one(k, &mut scratch) {
                    return Some(v);
                }
            }
        }
        None
    }

    /// Output bytes per block.
    pub fn block_bytes(&self) -> usize {
        self.block
    }

    /// One past the index of the newest sealed block: block `k` holds
    /// positions `[k * block_bytes, (k + 1) * block_bytes)`.
    pub fn sealed_end(&self) -> u64 {
        self.first_block + self.sealed.len() as u64
    }

    /// Sealed block `k`, if still held (shared, not copied: for saving it
    /// on another thread).
    pub fn sealed_block(&self, k: u64) -> Option<SealedBlock> {
        let i = usize::try_from(k.checked_sub(self.first_block)?).ok()?;
        self.sealed.get(i).cloned()
    }

    /// Takes over blocks sealed by an earlier run (a saved history read
    /// back, see `persist::restore`), oldest first, each `block_len` bytes
    /// of output as stored, then `tail` (less than a block): held as they
    /// are, never decompressed and compressed again. Only into an empty
    /// ring with blocks of that size (false otherwise, nothing changed);
    /// the newest `budget` bytes of them are kept.
    pub fn adopt(&mut self, block_len: usize, blocks: Vec<SealedBlock>, tail: &[u8]) -> bool {
        if self.end != 0 || block_len != self.block || tail.len() >= self.block {
            return false;
        }
        let block = self.block_len();
        let count = blocks.len() as u64;
        let end = count * block + tail.len() as u64;
        let start = end.saturating_sub(self.budget as u64);
        // A block is at most the budget, so the tail is kept whole.
        let first_kept = (start / block).min(count);
        self.sealed = blocks
            .into_iter()
            .skip(usize::try_from(first_kept).unwrap_or(usize::MAX))
            .collect();
        self.first_block = first_kept;
        self.tail.clear();
        self.tail.reserve_exact(self.block);
        self.tail.extend_from_slice(tail);
        self.start = start;
        self.end = end;
        true
    }

    /// The plain bytes after the sealed blocks (the block being filled).
    pub fn tail(&self) -> &[u8] {
        &self.tail
    }

    /// A copy of the held bytes in `[from, to)`.
    pub fn copy_range(&self, from: u64, to: u64) -> Vec<u8> {
        let (lo, hi) = (from.max(self.start), to.min(self.end));
        let mut out = Vec::with_capacity(usize::try_from(hi.saturating_sub(lo)).unwrap_or(0));
        self.visit(from, to, false, |_, bytes| {
            out.extend_from_slice(bytes);
            ControlFlow::<()>::Continue(())
        });
        out
    }

    /// The first line start at or after `pos` (a position just after a
    /// newline, or 0), or the end when no line starts there.
    pub fn line_start_at_or_after(&self, pos: u64) -> u64 {
        if pos == 0 {
            return 0;
        }
        // `pos` itself is a line start when the byte before it is a newline.
        let from = (pos - 1).max(self.start);
        self.visit(from, self.end, false, |at, bytes| {
            match memchr::memchr(b'\n', bytes) {
                Some(i) => ControlFlow::Break(at + i as u64 + 1),
                None => ControlFlow::Continue(()),
            }
        })
        .unwrap_or(self.end)
    }

    /// The oldest line start held: where a replay can begin without
    /// starting inside a line or an escape sequence.
    pub fn first_line_start(&self) -> u64 {
        if self.start == 0 {
            0
        } else {
            self.line_start_at_or_after(self.start + 1)
        }
    }

    /// The newest line start in `(floor, pos]`, if any.
    pub fn last_line_start_in(&self, floor: u64, pos: u64) -> Option<u64> {
        if pos == 0 {
            return Some(0);
        }
        let lo = floor.max(self.start);
        let found = self.visit(lo, pos, true, |at, bytes| {
            match memchr::memrchr(b'\n', bytes) {
                Some(i) => ControlFlow::Break(at + i as u64 + 1),
                None => ControlFlow::Continue(()),
            }
        });
        found.or((lo == 0).then_some(0))
    }

    /// The start of the line `lines` newlines before `pos`, going back no
    /// further than `floor` (returned when there are fewer newlines).
    pub fn lines_back(&self, pos: u64, lines: usize, floor: u64) -> u64 {
        if lines == 0 {
            return pos.max(floor);
        }
        let floor = floor.max(self.start);
        let mut left = lines;
        self.visit(floor, pos, true, |at, bytes| {
            for i in memchr::memrchr_iter(b'\n', bytes) {
                left -= 1;
                if left == 0 {
                    return ControlFlow::Break(at + i as u64 + 1);
                }
            }
            ControlFlow::Continue(())
        })
        .unwrap_or(floor)
    }

    /// The position just after the `lines`-th newline at or after `pos`,
    /// going no further than `ceil` (returned when there are fewer).
    pub fn lines_forward(&self, pos: u64, lines: usize, ceil: u64) -> u64 {
        let ceil = ceil.min(self.end);
        if lines == 0 {
            return pos.min(ceil);
        }
        let mut left = lines;
        self.visit(pos.max(self.start), ceil, false, |at, bytes| {
            for i in memchr::memchr_iter(b'\n', bytes) {
                left -= 1;
                if left == 0 {
                    return ControlFlow::Break(at + i as u64 + 1);
                }
            }
            ControlFlow::Continue(())
        })
        .unwrap_or(ceil)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn held(ring: &ByteRing) -> Vec<u8> {
        ring.copy_range(0, ring.end())
    }

    #[test]
    fn adopted_blocks_read_back_as_pushed_ones_within_the_budget() {
        let text: Vec<u8> = (0..200u8).map(|i| b'a' + i % 26).collect();
        let mut pushed = ByteRing::with_layout(48, 16, Packing::Lz4);
        pushed.push(&text);
        // Sealed as another run would have: every whole block, then the tail.
        let mut blocks = Vec::new();
        for chunk in text.chunks(16).filter(|c| c.len() == 16) {
            blocks.push(SealedBlock::seal(&mut chunk.to_vec(), Packing::Lz4));
        }
        let tail = &text[text.len() / 16 * 16..];
        let mut adopted = ByteRing::with_layout(48, 16, Packing::Lz4);
        assert!(adopted.adopt(16, blocks.clone(), tail));
        assert_eq!(
            (adopted.start(), adopted.end()),
            (pushed.start(), pushed.end())
        );
        assert_eq!(adopted.sealed_end(), pushed.sealed_end());
        assert_eq!(held(&adopted), held(&pushed));
        adopted.push(b"more");
        pushed.push(b"more");
        assert_eq!(held(&adopted), held(&pushed));
        // Not into a ring that holds output, nor with blocks of another size.
        assert!(!adopted.adopt(16, blocks.clone(), b""));
        assert!(!ByteRing::with_layout(48, 8, Packing::Lz4).adopt(16, blocks, b""));
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
    fn a_range_is_clamped_to_what_is_held() {
        let mut ring = ByteRing::new(8);
        ring.push(b"abcdefghij");
        assert_eq!(ring.copy_range(5, u64::MAX), b"fghij");
        assert_eq!(ring.copy_range(0, 4), b"cd");
        assert!(ring.copy_range(100, 200).is_empty());
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
}
