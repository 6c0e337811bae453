//! How many rows plain output moves the cursor down: what the fast-forward
//! replays as bare line feeds for the output it drops (`fast_forward`).
//!
//! Every byte a flood drops is counted here once, so the count takes a run
//! of printable ASCII at a time (eight bytes per test, then one division
//! for the wraps in it) instead of a `match` per byte: byte by byte it was
//! ~2.5 % of the loop's CPU in the 120 MB flood.

use crate::pane::term::escape_scanner::sgr_len;

const ESC: u8 = 0x1b;

/// How often the cursor moves down (line feeds and wraps) while vt100
/// prints plain output from column `col`, or `None` if a character of
/// unknown width might wrap. ASCII is exact; other characters count as
/// their bytes, a bound on their width. Without auto-wrap (`wraps` false,
/// kept by the fidelity layer) only line feeds move it down.
pub fn row_advances(plain: &[u8], mut col: u16, cols: u16, wraps: bool) -> Option<usize> {
    if !wraps {
        // SGR parameters hold no line feeds.
        return Some(
            plain
                .iter()
                .filter(|&&b| matches!(b, b'\n' | 0x0b | 0x0c))
                .count(),
        );
    }
    let mut exact = true;
    let mut feeds = 0;
    let mut i = 0;
    while i < plain.len() {
        let run = printable_run(&plain[i..]);
        if run > 0 {
            let wrapped = print_run(&mut col, cols, run);
            if wrapped > 0 && !exact {
                return None;
            }
            feeds += wrapped;
            i += run;
            continue;
        }
        match plain[i] {
            ESC => {
                i += sgr_len(&plain[i..]).flatten()?;
                continue;
            }
            b'\r' => {
                col = 0;
                exact = true;
            }
            b'\n' | 0x0b | 0x0c => feeds += 1,
            b'\t' => col = (col - col % 8).saturating_add(8).min(cols - 1),
            0x08 => col = col.saturating_sub(1),
            0x80..=0xff => {
                exact = false;
                col = col.saturating_add(1);
                if col > cols {
                    return None;
                }
            }
            // Other controls do nothing in vt100 (printable ASCII was
            // taken as a run above).
            _ => {}
        }
        i += 1;
    }
    Some(feeds)
}

/// Prints `run` ASCII characters from `col` (at most `cols`: the cursor
/// waits past the last column until the next character wraps it), as
/// vt100 does one at a time; returns the wraps.
fn print_run(col: &mut u16, cols: u16, run: usize) -> usize {
    let (at, width) = (usize::from(*col), usize::from(cols));
    let room = width.saturating_sub(at);
    if run <= room {
        *col = u16::try_from(at + run).unwrap_or(cols);
        return 0;
    }
    let rest = run - room;
    let wraps = rest.div_ceil(width);
    *col = u16::try_from(rest - (wraps - 1) * width).unwrap_or(cols);
    wraps
}

/// How many bytes at the start of `bytes` are printable ASCII (0x20-0x7e).
fn printable_run(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut n = 0;
    for word in bytes.chunks_exact(8) {
        let mut le = [0u8; 8];
        le.copy_from_slice(word);
        let x = u64::from_le_bytes(le);
        // The high bit of each byte below 0x20, or above 0x7e, or with its
        // own high bit set; bytes after the first such one may be marked
        // wrongly (borrows and carries), the first never is.
        let below = x.wrapping_sub(ONES * 0x20) & !x;
        // Adding one carries 0x7f (and up) into the high bit.
        let above = x.wrapping_add(ONES) | x;
        let outside = (below | above) & HIGH;
        if outside != 0 {
            return n + (outside.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + bytes[n..]
        .iter()
        .take_while(|&&b| (0x20..=0x7e).contains(&b))
        .count()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;
    use proptest::prelude::*;

    /// The count a byte at a time, as it was written first: the reference.
    fn byte_by_byte(plain: &[u8], mut col: u16, cols: u16) -> Option<usize> {
        let mut exact = true;
        let mut feeds = 0;
        let mut i = 0;
        while i < plain.len() {
            match plain[i] {
                ESC => {
                    i += sgr_len(&plain[i..]).flatten()?;
                    continue;
                }
                b'\r' => {
                    col = 0;
                    exact = true;
                }
                b'\n' | 0x0b | 0x0c => feeds += 1,
                b'\t' => col = (col - col % 8).saturating_add(8).min(cols - 1),
                0x08 => col = col.saturating_sub(1),
                0x20..=0x7e => {
                    if col >= cols {
                        if !exact {
                            return None;
                        }
                        feeds += 1;
                        col = 0;
                    }
                    col += 1;
                }
                0x80..=0xff => {
                    exact = false;
                    col = col.saturating_add(1);
                    if col > cols {
                        return None;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        Some(feeds)
    }

    #[test]
    fn printable_runs_stop_at_the_first_byte_outside_ascii_text() {
        assert_eq!(printable_run(b""), 0);
        assert_eq!(printable_run(b"hello, world~ and more text"), 27);
        for stop in [b'\r', b'\n', 0x1f, 0x7f, 0x80, 0xff, 0x00, ESC] {
            for at in 0..20 {
                let mut bytes = vec![b'a'; 24];
                bytes[at] = stop;
                // Bytes that a carry or borrow could mark come after it.
                bytes[(at + 1).min(23)] = 0x00;
                assert_eq!(printable_run(&bytes), at, "{stop:#x} at {at}");
            }
        }
        assert_eq!(printable_run(b" ~ ~ ~ ~ ~ ~"), 12);
    }

    #[test]
    fn long_lines_wrap_as_vt100_wraps_them() {
        let line = [b'x'; 250];
        assert_eq!(row_advances(&line, 0, 80, true), Some(3));
        assert_eq!(row_advances(&line[..80], 0, 80, true), Some(0));
        assert_eq!(row_advances(&line[..81], 0, 80, true), Some(1));
        assert_eq!(row_advances(&line[..1], 80, 80, true), Some(1));
        assert_eq!(row_advances(b"\xc3\xa9x", 79, 80, true), None);
    }

    proptest! {
        #[test]
        fn counts_as_the_byte_by_byte_walk(
            bytes in proptest::collection::vec(
                prop_oneof![
                    8 => 0x20u8..0x7f,
                    1 => proptest::sample::select(
                        b"\r\n\t\x08\x0b\x0c\x00\x7f\x80\xc3\xa9\xff\x1b[m;0123".to_vec()
                    ),
                ],
                0..600,
            ),
            col in 0u16..=40,
            cols in 1u16..=40,
        ) {
            let col = col.min(cols);
            prop_assert_eq!(
                row_advances(&bytes, col, cols, true),
                byte_by_byte(&bytes, col, cols)
            );
        }
    }
}
