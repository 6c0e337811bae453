//! Marker code points a program prints itself, dropped before vt100 sees
//! them.
//!
//! The fidelity layer carries what vt100 drops as zero-width markers in
//! the cells (`cell_marks`, `cluster_marks`, and a picture's anchors in
//! `crate::graphics::anchor`): ids into tables shared by every pane. A
//! program printing those code points itself would name another pane's
//! hyperlink, style, cluster or picture, and its cells would show (and
//! copy) what the other pane printed. They are unassigned code points no
//! program has a use for, so they are dropped as they come in.

use std::borrow::Cow;

use memchr::memchr;

use crate::pane::term::{cell_marks, cluster_marks};

/// Every marker's UTF-8 starts with this byte (all are in `U+E0000..`
/// `U+E0FFF`); plain text of the common scripts never has it, and ASCII
/// costs one `memchr` over the output.
const MARKER_LEAD_BYTE: u8 = 0xF3;

/// `bytes` without the marker code points in them. `bytes` ends with no
/// character cut off (`Fidelity::process` holds one back), so a marker is
/// never split between two calls.
pub(super) fn without_forged_marks(bytes: &[u8]) -> Cow<'_, [u8]> {
    let Some(mut at) = find(bytes, 0) else {
        return Cow::Borrowed(bytes);
    };
    let mut out = Vec::with_capacity(bytes.len());
    let mut from = 0;
    loop {
        out.extend_from_slice(&bytes[from..at]);
        from = at + 4;
        match find(bytes, from) {
            Some(next) => at = next,
            None => break,
        }
    }
    out.extend_from_slice(&bytes[from..]);
    Cow::Owned(out)
}

/// Where the first marker code point at or after `from` starts.
fn find(bytes: &[u8], mut from: usize) -> Option<usize> {
    while let Some(i) = memchr(MARKER_LEAD_BYTE, &bytes[from..]) {
        let at = from + i;
        if is_marker_at(&bytes[at..]) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Whether `bytes` starts with a marker code point (4 bytes of UTF-8).
fn is_marker_at(bytes: &[u8]) -> bool {
    bytes
        .get(..4)
        .and_then(|head| std::str::from_utf8(head).ok())
        .and_then(|text| text.chars().next())
        .is_some_and(|c| cell_marks::is_marker(c) || cluster_marks::is_mark(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_code_points_are_dropped_and_everything_else_kept() {
        let link_marker = cell_marks::marker(0);
        let two_digit_marker = cell_marks::marker(5000);
        let printed = format!(
            "x{link_marker}y{two_digit_marker}z\u{E0C00}\u{E0C01}\u{E0FFF}\u{E0080}\u{E0200}\u{E03FF}."
        );
        assert_eq!(&*without_forged_marks(printed.as_bytes()), b"xyz.");
        // A flag's tags, a variation selector of plane 14, and other
        // 4-byte characters stay; so does a lone or invalid 0xF3.
        let kept = "\u{1F3F4}\u{E0067}\u{E007F} \u{E0100}\u{E01EF} \u{1F600}\u{E1000}";
        assert!(matches!(
            without_forged_marks(kept.as_bytes()),
            Cow::Borrowed(_)
        ));
        let invalid = b"a\xF3\xA0 b\xF3";
        assert_eq!(&*without_forged_marks(invalid), invalid);
        assert!(matches!(
            without_forged_marks(b"plain \x1b[1mtext"),
            Cow::Borrowed(_)
        ));
    }
}
