//! One sealed block of a pane's byte ring: a fixed number of output bytes,
//! kept LZ4-compressed (terminal output shrinks to about half: 2.1x on the
//! flood benchmark's log lines, compressed at ~600-900 MB/s and read back at
//! ~2 GB/s of CPU time on this machine), or plain when compression would
//! not save anything (already compressed or random bytes).
//!
//! Compression is off the render loop when it can be: a full block is
//! handed over plain and one process-wide `history-compress` thread packs
//! it a moment later (~0.15 ms for 64 KiB); when that thread is a few
//! blocks behind, the block is packed in place. The thread holds blocks
//! only weakly, so a block the ring dropped before its turn is never
//! compressed at all. Readers see the block plain or packed,
//! whichever it is when they look; both read back the same bytes.
//!
//! Blocks are shared (`Arc`), so copying a ring for a search on another
//! thread copies pointers, not history.
//!
//! A block is sealed from the ring's own full tail buffer, not a copy, and
//! once packed that buffer goes to a small process-wide store of spares
//! from which rings take their next tail ([`spare_tail`]). A flood so
//! seals thousands of blocks without a 64 KiB allocation each: those came
//! from the loop's heap and were freed by the compressor thread, a churn
//! that left the loop's heap fragmented (up to ~0.8 MB more of it resident
//! at the flood benchmark's peak).

use std::cell::RefCell;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};

use crossbeam_channel::{Receiver, Sender, TrySendError};

/// When a sealed block is compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Packing {
    /// Never: blocks stay plain (the reference layout in tests).
    Off,
    /// At once, on the thread that seals it (deterministic, for tests).
    Inline,
    /// Soon, on the compressor thread.
    Background,
}

#[derive(Debug, Clone)]
enum Stored {
    /// The ring's tail buffer as it was sealed (its capacity goes back to
    /// the spares once packed).
    Plain(Arc<Vec<u8>>),
    Lz4(Arc<[u8]>),
}

type Cell = Mutex<Stored>;

#[derive(Debug, Clone)]
pub struct SealedBlock(Arc<Cell>);

/// Blocks waiting for the compressor thread, at most: past this a block
/// is compressed by whoever seals it, so a compressor starved of CPU (a
/// flood on a busy machine) costs at most this many plain blocks of
/// memory. (A long queue measured 0.5-1.3 MB more peak RSS in the flood
/// benchmark than compressing in place.)
const QUEUE: usize = 4;

/// Packed blocks' buffers kept for rings' next tails, at most: about what
/// the compressor frees while a ring fills its next tail. More would only
/// stay resident once floods stop.
const SPARES: usize = 2;

/// A cleared buffer of at least `capacity` bytes for a ring's tail: a
/// packed block's, or a new one.
pub fn spare_tail(capacity: usize) -> Vec<u8> {
    spares()
        .1
        .try_recv()
        .ok()
        .filter(|buf| buf.capacity() >= capacity)
        .unwrap_or_else(|| Vec::with_capacity(capacity))
}

/// Keeps `buf` for a later [`spare_tail`], or frees it if enough are kept.
fn give_back(mut buf: Vec<u8>) {
    buf.clear();
    // Full: enough are kept, this one is freed.
    let _ = spares().0.try_send(buf);
}

type Spares = (Sender<Vec<u8>>, Receiver<Vec<u8>>);

fn spares() -> &'static Spares {
    static SPARE_BUFFERS: OnceLock<Spares> = OnceLock::new();
    SPARE_BUFFERS.get_or_init(|| crossbeam_channel::bounded(SPARES))
}

impl SealedBlock {
    /// Seals `bytes` (a ring's full tail, taken over) as `packing` says.
    pub fn seal(bytes: Vec<u8>, packing: Packing) -> Self {
        let block = Self(Arc::new(Mutex::new(Stored::Plain(Arc::new(bytes)))));
        match packing {
            Packing::Off => {}
            Packing::Inline => pack(&block.0),
            Packing::Background => match compressor() {
                Some(queue) => match queue.try_send(Arc::downgrade(&block.0)) {
                    Ok(()) => {}
                    Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => pack(&block.0),
                },
                None => pack(&block.0),
            },
        }
        block
    }

    fn stored(&self) -> Stored {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Memory the block's bytes take now.
    pub fn stored_len(&self) -> usize {
        match self.stored() {
            Stored::Lz4(b) => b.len(),
            Stored::Plain(b) => b.len(),
        }
    }

    pub fn is_compressed(&self) -> bool {
        matches!(self.stored(), Stored::Lz4(_))
    }

    /// Calls `f` with the block's bytes (`len` of them), decompressed into
    /// `scratch` when packed.
    pub fn read<T>(&self, len: usize, scratch: &mut Vec<u8>, f: impl FnOnce(&[u8]) -> T) -> T {
        match self.stored() {
            Stored::Plain(b) => f(&b),
            Stored::Lz4(packed) => {
                scratch.resize(len, 0);
                match lz4_flex::block::decompress_into(&packed, scratch) {
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

thread_local! {
    /// Where this thread compresses: one worst-case buffer reused for every
    /// block, so packing a block allocates only the bytes it keeps.
    static PACK_BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Compresses the block in `cell` if it is plain and compression pays.
fn pack(cell: &Cell) {
    let Stored::Plain(plain) = cell.lock().unwrap_or_else(PoisonError::into_inner).clone() else {
        return;
    };
    // Compressed outside the lock: readers are never held up by it.
    let packed = PACK_BUFFER.with_borrow_mut(|buf| {
        buf.resize(lz4_flex::block::get_maximum_output_size(plain.len()), 0);
        match lz4_flex::block::compress_into(&plain, buf) {
            Ok(n) if n < plain.len() => Some(Arc::<[u8]>::from(&buf[..n])),
            Ok(_) => None,
            Err(err) => {
                // The buffer is the worst case's size; not expected.
                tracing::warn!("compressing a history block: {err}; kept plain");
                None
            }
        }
    });
    if let Some(packed) = packed {
        *cell.lock().unwrap_or_else(PoisonError::into_inner) = Stored::Lz4(packed);
        // Unless a reader still holds it, the plain buffer is ours alone now.
        if let Ok(buf) = Arc::try_unwrap(plain) {
            give_back(buf);
        }
    }
}

/// The compressor thread's queue, started on first use; `None` when the
/// thread could not be started (blocks are then compressed in place).
fn compressor() -> Option<&'static Sender<Weak<Cell>>> {
    static QUEUE_TX: OnceLock<Option<Sender<Weak<Cell>>>> = OnceLock::new();
    QUEUE_TX
        .get_or_init(|| {
            let (tx, rx) = crossbeam_channel::bounded::<Weak<Cell>>(QUEUE);
            let spawned = std::thread::Builder::new()
                .name("history-compress".into())
                .spawn(move || {
                    for weak in rx {
                        // Gone: the ring dropped it first; nothing to do.
                        if let Some(cell) = weak.upgrade() {
                            pack(&cell);
                        }
                    }
                });
            match spawned {
                Ok(_) => Some(tx),
                Err(err) => {
                    tracing::warn!("starting the history compressor: {err}; compressing in place");
                    None
                }
            }
        })
        .as_ref()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn log_text() -> Vec<u8> {
        (0..2000)
            .flat_map(|i| format!("12:00:{i:02} INFO worker: done id={i}\r\n").into_bytes())
            .collect()
    }

    fn read_all(block: &SealedBlock, len: usize) -> Vec<u8> {
        block.read(len, &mut Vec::new(), <[u8]>::to_vec)
    }

    #[test]
    fn text_is_compressed_and_reads_back_whole() {
        let text = log_text();
        let block = SealedBlock::seal(text.clone(), Packing::Inline);
        assert!(block.is_compressed());
        assert!(block.stored_len() * 2 < text.len());
        assert_eq!(read_all(&block, text.len()), text);
    }

    #[test]
    fn the_compressor_thread_packs_a_block_soon() {
        let text = log_text();
        let block = SealedBlock::seal(text.clone(), Packing::Background);
        let deadline = Instant::now() + Duration::from_secs(30);
        while !block.is_compressed() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(block.is_compressed());
        assert_eq!(read_all(&block, text.len()), text);
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
        let block = SealedBlock::seal(noise.clone(), Packing::Inline);
        assert!(!block.is_compressed());
        assert_eq!(read_all(&block, noise.len()), noise);
    }
}
