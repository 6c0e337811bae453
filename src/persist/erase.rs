//! Keeping erased output off the disk: a program that erases the
//! scrollback (ED 3, which `clear` sends) or a user who has a pane's history
//! forgotten (`clear-history`) sets a cut in the pane's ring (see
//! `ByteRing::erased`), and nothing before it is written again, nor kept:
//! the saver deletes the segments wholly before the cut and writes the one
//! it falls in again; the part of a block before the cut is blanked (NUL
//! bytes, which a terminal shows as nothing), so every block keeps its
//! length and the restored history still lines up by position.

use std::io;
use std::path::Path;

use crate::pane::history::ring_block::SealedBlock;
use crate::persist::block_file;
use crate::persist::dirs;

/// How many of block `index`'s bytes (blocks of `block_len` bytes) come
/// before `cut`.
pub fn before_cut(index: u64, block_len: usize, cut: u64) -> usize {
    let start = index.saturating_mul(block_len as u64);
    usize::try_from(cut.saturating_sub(start)).unwrap_or(usize::MAX)
}

/// Appends block `index`'s record to `out`, the part before `cut` blanked;
/// nothing when all of it comes before the cut.
pub fn encode_block(
    index: u64,
    block_len: usize,
    block: &SealedBlock,
    cut: u64,
    out: &mut Vec<u8>,
) {
    let blank = before_cut(index, block_len, cut);
    match block {
        SealedBlock::Lz4(packed) if blank == 0 => {
            block_file::encode(index, block_len, true, packed, out);
        }
        SealedBlock::Plain(plain) if blank == 0 => {
            block_file::encode(index, plain.len(), false, plain, out);
        }
        SealedBlock::Lz4(_) if blank < block_len => {
            let mut scratch = Vec::new();
            let mut plain = block.read(block_len, &mut scratch, <[u8]>::to_vec);
            plain[..blank.min(block_len)].fill(0);
            let packed = lz4_flex::block::compress(&plain);
            block_file::encode(index, plain.len(), true, &packed, out);
        }
        SealedBlock::Plain(plain) if blank < plain.len() => {
            let mut plain = plain.to_vec();
            plain[..blank].fill(0);
            block_file::encode(index, plain.len(), false, &plain, out);
        }
        _ => {}
    }
}

/// Appends the record of the tail (the unsealed bytes of block `index`) to
/// `out`, the part before `cut` blanked.
pub fn encode_tail(index: u64, block_len: usize, tail: &[u8], cut: u64, out: &mut Vec<u8>) {
    let blank = before_cut(index, block_len, cut).min(tail.len());
    if blank == 0 {
        block_file::encode(index, tail.len(), false, tail, out);
    } else {
        let mut plain = tail.to_vec();
        plain[..blank].fill(0);
        block_file::encode(index, plain.len(), false, &plain, out);
    }
}

/// Writes segment file `path` again without what comes before `cut`
/// (replaced whole, as the manifest is); deletes it when nothing is left.
pub fn cut_segment(path: &Path, block_len: usize, cut: u64) -> io::Result<()> {
    let bytes = dirs::read(path, block_file::MAX_SEGMENT_BYTES)?;
    let (blocks, _) = block_file::decode_all_stored(&bytes);
    let mut out = Vec::with_capacity(bytes.len());
    for stored in &blocks {
        encode_block(stored.index, block_len, &stored.block, cut, &mut out);
    }
    if out.is_empty() {
        std::fs::remove_file(path)
    } else {
        dirs::write_atomically(path, &out)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn plain_of(record: &[u8]) -> Vec<u8> {
        let (blocks, skipped) = block_file::decode_all(record);
        assert_eq!(skipped, 0);
        blocks.into_iter().flat_map(|b| b.plain).collect()
    }

    #[test]
    fn a_block_keeps_its_length_with_what_came_before_the_cut_blanked() {
        let text = b"secret\r\n\x1b[3Jafter".to_vec();
        let packed = SealedBlock::Lz4(Arc::from(lz4_flex::block::compress(&text)));
        let plain = SealedBlock::Plain(Arc::new(text.clone()));
        let len = text.len();
        for block in [&packed, &plain] {
            // Block 2 of blocks of `len` bytes: the cut 12 bytes into it.
            let mut out = Vec::new();
            encode_block(2, len, block, 2 * len as u64 + 12, &mut out);
            let back = plain_of(&out);
            assert_eq!(back.len(), len);
            assert_eq!(&back[..12], &[0; 12]);
            assert_eq!(&back[12..], b"after");
            // Wholly before the cut: nothing; wholly after: as it was.
            let mut out = Vec::new();
            encode_block(2, len, block, 3 * len as u64, &mut out);
            assert!(out.is_empty());
            encode_block(2, len, block, 2 * len as u64, &mut out);
            assert_eq!(plain_of(&out), text);
        }
        let mut out = Vec::new();
        encode_tail(1, 8, b"abcdefg", 10, &mut out);
        assert_eq!(plain_of(&out), b"\0\0cdefg");
    }
}
