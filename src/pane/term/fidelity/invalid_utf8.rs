//! Invalid UTF-8 in a program's output: found, and cut into pieces vte
//! reads without dropping bytes (see `Fidelity::process`).

/// Bytes vte is given at once from output that holds invalid UTF-8
/// (see `Fidelity::process`).
pub(super) const INVALID_UTF8_PIECE: usize = 64;

/// Whether `bytes` holds a byte sequence that is not UTF-8. A character
/// cut off at either end (its rest is in the next or the last piece) is not.
pub(super) fn has_invalid_utf8(bytes: &[u8]) -> bool {
    let lead = bytes
        .iter()
        .take(3)
        .take_while(|&&b| b & 0xC0 == 0x80)
        .count();
    match std::str::from_utf8(&bytes[lead..]) {
        Ok(_) => false,
        Err(err) => err.error_len().is_some(),
    }
}

/// Where to cut the next piece of output that holds invalid UTF-8: about
/// [`INVALID_UTF8_PIECE`] bytes in, but never after the start of a
/// character whose rest follows: vte keeps such a start for the next piece,
/// and after an invalid sequence split that way vte 0.15 may drop bytes it
/// reads in one piece (`tests/fast_forward_equivalence.rs` leaves invalid
/// UTF-8 out for that reason), so the cuts made here add no such split.
pub(super) fn next_cut(bytes: &[u8]) -> usize {
    let mut cut = INVALID_UTF8_PIECE.min(bytes.len());
    while cut < bytes.len() && ends_inside_character(&bytes[..cut]) {
        cut += 1;
    }
    cut
}

/// Whether `piece` ends with the start of a character still incomplete (a
/// lead byte and fewer continuation bytes than it announces).
fn ends_inside_character(piece: &[u8]) -> bool {
    let from = piece.len().saturating_sub(3);
    piece[from..]
        .iter()
        .rposition(|&b| b & 0xC0 != 0x80)
        .is_some_and(|lead| {
            matches!(std::str::from_utf8(&piece[from + lead..]), Err(e) if e.error_len().is_none())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_is_found_but_a_character_cut_at_either_end_is_not() {
        assert!(!has_invalid_utf8(b"plain text \x1b[1m bold"));
        assert!(!has_invalid_utf8("caf\u{e9} \u{2764}".as_bytes()));
        // The start or the rest of a character in another piece.
        assert!(!has_invalid_utf8(b"abc\xe2\x9d"));
        assert!(!has_invalid_utf8(b"\x9d\xa4 rest"));
        assert!(has_invalid_utf8(b"abc\xff def"));
        assert!(has_invalid_utf8(b"caf\xe9 na\xefve"));
        assert!(has_invalid_utf8(&[0x80; 8]));
    }

    #[test]
    fn cuts_never_fall_inside_a_character() {
        let mut bytes = vec![b'a'; INVALID_UTF8_PIECE - 1];
        bytes.extend_from_slice("\u{2764}".as_bytes());
        bytes.extend_from_slice(b"\xff tail");
        assert_eq!(next_cut(&bytes), INVALID_UTF8_PIECE + 2);
        // A lone start byte that the next byte shows invalid: cut after the
        // invalid byte, so vte sees both at once.
        let mut bytes = vec![0xff; INVALID_UTF8_PIECE - 1];
        bytes.extend_from_slice(b"\xe9 na");
        assert_eq!(next_cut(&bytes), INVALID_UTF8_PIECE + 1);
        assert_eq!(next_cut(&[0xff; 200]), INVALID_UTF8_PIECE);
        assert_eq!(next_cut(b"short\xff"), 6);
    }
}
