//! The format of a pane's saved history: records appended one after the
//! other, each a block of output as the ring sealed it (LZ4 or plain) with
//! a header and a CRC-32 over both. A record cut short by a kill or a power
//! loss, or damaged on disk, is skipped (reading resumes at the next
//! record's magic); everything else reads back.
//!
//! Record: `TWB1`, block index (u64 LE), bytes of output (u32), bytes
//! stored (u32), packing (0 plain, 1 LZ4), CRC-32 of the 21 bytes before
//! it and the stored bytes (u32), the stored bytes.

use std::sync::Arc;

use crate::pane::history::scrollback::BLOCK_BYTES;

use crate::pane::history::ring_block::SealedBlock;

/// Blocks per segment file: 2 MiB of output with 64 KiB blocks.
pub const SEGMENT_BLOCKS: usize = 32;

/// The most a segment file holds: [`SEGMENT_BLOCKS`] records of a block
/// each, stored no larger than LZ4's worst case (well under twice the
/// block). A larger file is not one tilework wrote.
pub const MAX_SEGMENT_BYTES: usize = SEGMENT_BLOCKS * 2 * BLOCK_BYTES;

/// Each record starts with these bytes.
pub const MAGIC: [u8; 4] = *b"TWB1";
const HEADER: usize = 4 + 8 + 4 + 4 + 1 + 4;
/// Larger blocks are not ours: a damaged length is not believed.
const MAX_BLOCK: u32 = 16 << 20;

/// One block read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub index: u64,
    pub plain: Vec<u8>,
}

/// Appends the record of block `index` (`plain_len` bytes of output,
/// stored as `stored`, LZ4-compressed when `packed`) to `out`.
pub fn encode(index: u64, plain_len: usize, packed: bool, stored: &[u8], out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&index.to_le_bytes());
    out.extend_from_slice(&u32::try_from(plain_len).unwrap_or(u32::MAX).to_le_bytes());
    out.extend_from_slice(
        &u32::try_from(stored.len())
            .unwrap_or(u32::MAX)
            .to_le_bytes(),
    );
    out.push(u8::from(packed));
    let crc = crc32(&[&out[start..], stored]);
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(stored);
}

/// A block read back as it was stored (still compressed when it was).
pub struct StoredBlock {
    pub index: u64,
    /// Bytes of output it holds.
    pub plain_len: usize,
    pub block: SealedBlock,
}

/// Every block in `bytes` that reads back whole, in file order, and how
/// many damaged or cut records were skipped.
pub fn decode_all(bytes: &[u8]) -> (Vec<Block>, usize) {
    let (records, mut skipped) = records(bytes);
    let blocks = records
        .into_iter()
        .filter_map(|record| {
            let block = record.plain();
            skipped += usize::from(block.is_none());
            block
        })
        .collect();
    (blocks, skipped)
}

/// Every block in `bytes` whose checksum holds, as stored: the ring can
/// take compressed blocks over as they are (see `ByteRing::adopt`). And
/// how many damaged or cut records were skipped.
pub fn decode_all_stored(bytes: &[u8]) -> (Vec<StoredBlock>, usize) {
    let (records, skipped) = records(bytes);
    let blocks = records
        .into_iter()
        .map(|record| StoredBlock {
            index: record.index,
            plain_len: record.plain_len,
            block: if record.packed {
                SealedBlock::Lz4(Arc::from(record.stored))
            } else {
                SealedBlock::Plain(Arc::new(record.stored.to_vec()))
            },
        })
        .collect();
    (blocks, skipped)
}

/// One record whose checksum holds.
struct Record<'a> {
    index: u64,
    plain_len: usize,
    packed: bool,
    stored: &'a [u8],
}

impl Record<'_> {
    /// Its output, unless it does not decompress to the length it says.
    fn plain(&self) -> Option<Block> {
        let plain = if self.packed {
            let mut plain = vec![0; self.plain_len];
            let n = lz4_flex::block::decompress_into(self.stored, &mut plain).ok()?;
            plain.truncate(n);
            plain
        } else {
            self.stored.to_vec()
        };
        (plain.len() == self.plain_len).then_some(Block {
            index: self.index,
            plain,
        })
    }
}

fn records(bytes: &[u8]) -> (Vec<Record<'_>>, usize) {
    let mut records = Vec::new();
    let mut skipped = 0;
    let mut at = 0;
    while at < bytes.len() {
        match decode_one(&bytes[at..]) {
            Some((record, len)) => {
                records.push(record);
                at += len;
            }
            None => {
                skipped += 1;
                // Resume at the next record's start, if any.
                match memchr::memmem::find(&bytes[at + 1..], &MAGIC) {
                    Some(next) => at += 1 + next,
                    None => break,
                }
            }
        }
    }
    (records, skipped)
}

fn decode_one(bytes: &[u8]) -> Option<(Record<'_>, usize)> {
    let header = bytes.get(..HEADER)?;
    if header[..4] != MAGIC {
        return None;
    }
    let u32_at = |i: usize| header[i..i + 4].try_into().ok().map(u32::from_le_bytes);
    let index = u64::from_le_bytes(header[4..12].try_into().ok()?);
    let plain_len = u32_at(12)?;
    let stored_len = u32_at(16)?;
    let packed = match header[20] {
        0 => false,
        1 => true,
        _ => return None,
    };
    if plain_len > MAX_BLOCK || stored_len > MAX_BLOCK || (!packed && plain_len != stored_len) {
        return None;
    }
    let end = HEADER + usize::try_from(stored_len).ok()?;
    let stored = bytes.get(HEADER..end)?;
    let crc = crc32(&[&header[..21], stored]);
    if crc != u32_at(21)? {
        return None;
    }
    let record = Record {
        index,
        plain_len: usize::try_from(plain_len).ok()?,
        packed,
        stored,
    };
    Some((record, end))
}

/// CRC-32 (IEEE) of the concatenated `parts`.
fn crc32(parts: &[&[u8]]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    for part in parts {
        hasher.update(part);
    }
    hasher.finalize()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn record(index: u64, text: &[u8], packed: bool) -> Vec<u8> {
        let mut out = Vec::new();
        if packed {
            let stored = lz4_flex::block::compress(text);
            encode(index, text.len(), true, &stored, &mut out);
        } else {
            encode(index, text.len(), false, text, &mut out);
        }
        out
    }

    #[test]
    fn the_checksum_is_the_standard_crc32() {
        assert_eq!(crc32(&[b"1234", b"56789"]), 0xCBF4_3926);
    }

    #[test]
    fn blocks_read_back_plain_or_packed() {
        let text = b"hello hello hello hello\r\n".repeat(20);
        let mut file = record(3, &text, true);
        file.extend(record(4, b"tail", false));
        let (blocks, skipped) = decode_all(&file);
        assert_eq!(skipped, 0);
        assert_eq!(
            blocks[0],
            Block {
                index: 3,
                plain: text
            }
        );
        assert_eq!(blocks[1].plain, b"tail");
    }

    #[test]
    fn a_cut_or_damaged_record_is_skipped_and_the_rest_reads() {
        let mut file = record(0, b"zero", false);
        let one = record(1, &b"one ".repeat(50), true);
        file.extend(&one);
        file.extend(record(2, b"two", false));
        // A bit flipped in the middle record's stored bytes.
        let at = 2 * HEADER + 4 + 10;
        let mut damaged = file.clone();
        damaged[at] ^= 0x40;
        let (blocks, skipped) = decode_all(&damaged);
        assert_eq!(skipped, 1);
        let indices: Vec<u64> = blocks.iter().map(|b| b.index).collect();
        assert_eq!(indices, [0, 2]);
        // Cut anywhere: whole records before the cut survive, no panic.
        for cut in 0..file.len() {
            let (blocks, _) = decode_all(&file[..cut]);
            let whole = [HEADER + 4, HEADER + 4 + one.len(), file.len()]
                .iter()
                .filter(|&&end| end <= cut)
                .count();
            assert_eq!(blocks.len(), whole, "cut at {cut}");
        }
    }
}
