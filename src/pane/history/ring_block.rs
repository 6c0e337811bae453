//! One sealed block of a pane's byte ring: a fixed number of output bytes,
//! kept LZ4-compressed (terminal output shrinks to about half: 2.1x on the
//! flood benchmark's log lines, compressed at ~600-900 MB/s and read back at
//! ~2 GB/s of CPU time on this machine), or plain when compression would
//! not save anything (already compressed or random bytes).
//!
//! A block is compressed when it is sealed, by the thread that seals it:
//! the render loop, once per 64 KiB of a pane's output, ~0.1-0.2 ms each.
//! It used to be handed to a compressor thread. Compressed where its bytes
//! were just written (still in that core's cache), with no hand-over, the
//! flood benchmark cost less CPU (1.58-1.64 s against 1.76-2.00 s, the
//! loop's extra ~0.3 s replacing the thread's ~0.4 s) and less memory
//! (peak 9.2-9.3 MB against 9.6-9.8: no thread heap, no plain blocks
//! waiting), with the flood's time and the echo beside a flood unchanged.
//! And the ring's tail buffer is cleared and filled again right away, where
//! the thread's packed blocks had to return theirs through a store.
//!
//! Blocks are shared (`Arc`), so copying a ring for a search on another
//! thread copies pointers, not history.

use std::cell::RefCell;
use std::sync::Arc;

/// Whether sealed blocks are compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Packing {
    /// Never: blocks stay plain (the reference layout in tests).
    Off,
    /// With LZ4, when that saves memory.
    Lz4,
}

#[derive(Debug, Clone)]
pub enum SealedBlock {
    Plain(Arc<Vec<u8>>),
    Lz4(Arc<[u8]>),
}

impl SealedBlock {
    /// Seals a ring's full tail. Packed, the block is a copy and `tail` is
    /// left cleared, its buffer ready for the next block; plain, the block
    /// takes the buffer over and `tail` is left without one.
    pub fn seal(tail: &mut Vec<u8>, packing: Packing) -> Self {
        if packing == Packing::Lz4
            && let Some(packed) = pack(tail)
        {
            tail.clear();
            return Self::Lz4(packed);
        }
        Self::Plain(Arc::new(std::mem::take(tail)))
    }

    /// Memory the block's bytes take.
    pub fn stored_len(&self) -> usize {
        match self {
            Self::Lz4(b) => b.len(),
            Self::Plain(b) => b.len(),
        }
    }

    pub fn is_compressed(&self) -> bool {
        matches!(self, Self::Lz4(_))
    }

    /// Calls `f` with the block's bytes (`len` of them), decompressed into
    /// `scratch` when packed.
    pub fn read<T>(&self, len: usize, scratch: &mut Vec<u8>, f: impl FnOnce(&[u8]) -> T) -> T {
        match self {
            Self::Plain(b) => f(b),
            Self::Lz4(packed) => {
                scratch.resize(len, 0);
                match lz4_flex::block::decompress_into(packed, scratch) {
                    Ok(n) => f(&scratch[..n]),
                    Err(err) => {
                        // Only our own compressor wrote this block; reading
                        // it back cannot fail short of memory corruption.
                        // Show it blank rather than end the workspace.
                        tracing::error!("reading back a history block: {err}");
                        scratch.fill(b' ');
                        f(scratch)
                    }
                }
            }
        }
    }
}

// why per thread: scratch memory, holding nothing from one call to the next.
thread_local! {
    /// Where this thread compresses: one worst-case buffer reused for every
    /// block, so packing a block allocates only the bytes it keeps.
    static PACK_BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// `plain` compressed, if that makes it smaller.
fn pack(plain: &[u8]) -> Option<Arc<[u8]>> {
    PACK_BUFFER.with_borrow_mut(|buf| {
        buf.resize(lz4_flex::block::get_maximum_output_size(plain.len()), 0);
        match lz4_flex::block::compress_into(plain, buf) {
            Ok(n) if n < plain.len() => Some(Arc::<[u8]>::from(&buf[..n])),
            Ok(_) => None,
            Err(err) => {
                // The buffer is the worst case's size; not expected.
                tracing::warn!("compressing a history block: {err}; kept plain");
                None
            }
        }
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn log_text() -> Vec<u8> {
        (0..2000)
            .flat_map(|i| format!("12:00:{i:02} INFO worker: done id={i}\r\n").into_bytes())
            .collect()
    }

    fn read_all(block: &SealedBlock, len: usize) -> Vec<u8> {
        block.read(len, &mut Vec::new(), <[u8]>::to_vec)
    }

    #[test]
    fn text_is_compressed_and_reads_back_whole_and_the_tail_is_reused() {
        let text = log_text();
        let mut tail = text.clone();
        let capacity = tail.capacity();
        let block = SealedBlock::seal(&mut tail, Packing::Lz4);
        assert!(block.is_compressed());
        assert!(block.stored_len() * 2 < text.len());
        assert_eq!(read_all(&block, text.len()), text);
        assert!(tail.is_empty());
        assert_eq!(tail.capacity(), capacity, "the tail keeps its buffer");
    }

    #[test]
    fn bytes_that_do_not_shrink_stay_plain() {
        // A xorshift sequence: no repeats for LZ4 to find.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let noise: Vec<u8> = (0..4096)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        let mut tail = noise.clone();
        let block = SealedBlock::seal(&mut tail, Packing::Lz4);
        assert!(!block.is_compressed());
        assert_eq!(read_all(&block, noise.len()), noise);
        assert!(tail.is_empty());
    }

    #[test]
    fn packing_off_keeps_blocks_plain() {
        let text = log_text();
        let block = SealedBlock::seal(&mut text.clone(), Packing::Off);
        assert!(!block.is_compressed());
        assert_eq!(read_all(&block, text.len()), text);
    }
}
