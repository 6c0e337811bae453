//! How many bytes of sealed blocks wait for the saver thread, bounded.
//!
//! Blocks are shared with the ring (not copied), so one waiting costs
//! nothing until the ring lets it go; from then on the queue alone keeps
//! it alive. Counted in messages (the channel's capacity), a saver thread
//! that gets little CPU (a loaded machine) let a flood's evicted blocks
//! pile up: one run at load 18 peaked with a 21.8 MB heap where others
//! peaked at 5-7 MB. So the loop hands blocks only while fewer than
//! [`WAITING_BYTES`] of them wait, and never waits itself: the blocks not
//! handed stay in the ring and are handed on a later turn, once the saver
//! has written some. Those the ring lets go meanwhile are never written:
//! the saved history has a gap there, which a restore shows as a note in
//! their place (see `restore`), the blocks around it in order.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// At most this many bytes of blocks (as stored: most are LZ4-packed,
/// ~30 KiB each during a flood) wait for the saver, besides the one block
/// always let through when none waits. A few of the saver's batches
/// (it writes what gathered in [`crate::persist::saver::BATCH_PAUSE`]).
pub const WAITING_BYTES: usize = 2 << 20;

/// Test switch (debug builds only): the saver thread sleeps this many
/// milliseconds before each batch, as on a machine too busy to give it
/// CPU, so a test can see what the bound keeps.
pub const TEST_SLOW_SAVER_VAR: &str = "TILEWORK_TEST_SLOW_SAVER_MS";

/// The loop's count of the bytes waiting, shared with each [`Weight`].
#[derive(Debug, Default, Clone)]
pub struct Waiting {
    bytes: Arc<AtomicUsize>,
}

impl Waiting {
    /// Bytes handed and not yet written (or dropped) by the saver.
    pub fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }

    /// How many of the blocks whose sizes `sizes` gives (oldest first) may
    /// be handed now: see [`fitting`].
    pub fn room(&self, sizes: impl IntoIterator<Item = usize>) -> usize {
        fitting(self.bytes(), WAITING_BYTES, sizes)
    }

    /// Counts `bytes` as waiting until the weight is dropped.
    pub fn weigh(&self, bytes: usize) -> Weight {
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
        Weight {
            bytes,
            count: self.bytes.clone(),
        }
    }
}

/// How many of the blocks of `sizes` (oldest first) may join the
/// `waiting` bytes without passing `bound`: the oldest first, always one
/// when none waits (a block bigger than the bound still goes), none once
/// one does not fit (they go in order, never one past another).
pub fn fitting(waiting: usize, bound: usize, sizes: impl IntoIterator<Item = usize>) -> usize {
    let mut total = waiting;
    let mut n = 0;
    for size in sizes {
        total = total.saturating_add(size);
        if total > bound && !(n == 0 && waiting == 0) {
            break;
        }
        n += 1;
    }
    n
}

/// Bytes handed with a message: they stop counting as waiting when the
/// message is dropped (written, dropped unwritten, or the saver gone).
#[derive(Debug, Default)]
pub struct Weight {
    bytes: usize,
    count: Arc<AtomicUsize>,
}

impl Weight {
    /// Takes `other`'s bytes over (two messages written as one).
    pub fn absorb(&mut self, mut other: Weight) {
        if Arc::ptr_eq(&self.count, &other.count) {
            self.bytes += std::mem::take(&mut other.bytes);
        }
    }
}

impl Drop for Weight {
    fn drop(&mut self) {
        self.count.fetch_sub(self.bytes, Ordering::Relaxed);
    }
}

/// The pause [`TEST_SLOW_SAVER_VAR`] asks for, read once (none in release
/// builds).
pub fn test_slowness() -> Option<std::time::Duration> {
    if !cfg!(debug_assertions) {
        return None;
    }
    let ms: u64 = std::env::var(TEST_SLOW_SAVER_VAR).ok()?.parse().ok()?;
    Some(std::time::Duration::from_millis(ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_handed_oldest_first_while_they_fit() {
        assert_eq!(fitting(0, 100, [30, 30, 30, 30]), 3);
        assert_eq!(fitting(40, 100, [30, 30, 30]), 2);
        // One that does not fit stops the ones after it, small or not.
        assert_eq!(fitting(40, 100, [70, 1, 1]), 0);
        assert_eq!(fitting(100, 100, [1]), 0);
        assert_eq!(fitting(0, 100, []), 0);
    }

    #[test]
    fn a_block_bigger_than_the_bound_goes_alone_when_nothing_waits() {
        assert_eq!(fitting(0, 100, [500, 1]), 1);
        assert_eq!(fitting(1, 100, [500]), 0);
    }

    #[test]
    fn bytes_wait_until_their_weight_is_dropped_merged_or_not() {
        let waiting = Waiting::default();
        let mut first = waiting.weigh(30);
        let second = waiting.weigh(50);
        assert_eq!(waiting.bytes(), 80);
        first.absorb(second);
        assert_eq!(waiting.bytes(), 80);
        assert_eq!(waiting.room([WAITING_BYTES - 80, 1]), 1);
        drop(first);
        assert_eq!(waiting.bytes(), 0);
        // A weight of another count is not taken over (nor lost).
        let mut other = Weight::default();
        other.absorb(waiting.weigh(7));
        assert_eq!(waiting.bytes(), 0);
    }
}
