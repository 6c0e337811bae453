//! Grapheme clusters vt100 cannot keep in one cell, carried in the cell as
//! a zero-width mark.
//!
//! vt100 gives every code point its own width: a ZWJ sequence
//! (👨‍👩‍👧) takes three wide cells, an emoji with a skin tone two, and a
//! text-presentation selector (⌚︎, U+FE0E) leaves its emoji wide. The
//! terminals that draw these whole (kitty, ghostty, wezterm, foot, iTerm2)
//! and the programs that lay text out with Unicode's rules (`wcswidth` of
//! Python's `wcwidth`, Rust's `unicode-width`) give the whole cluster one
//! width: 2, 2 and 1. The fidelity layer (`fidelity::clusters`) writes such
//! a cluster into vt100 as one character of the cluster's width (a
//! stand-in) followed by a mark: one or two code points from unassigned,
//! default-ignorable plane-14 ranges no other mark uses, naming the
//! cluster's text in one table shared by every pane (interned once, never
//! freed, as `cell_marks` does for styles). vt100 keeps the mark as a
//! combining mark of the cell, so the cell moves with the text like any
//! other; the screen view hands out the cluster's text in its place.

use std::collections::HashMap;
use std::sync::{LazyLock, RwLock};

use crate::pane::term::mark_part::MarkPart;

/// A mark's last code point: `FINAL + low 9 bits of the id`.
const FINAL: u32 = 0xE0200;
const FINAL_DIGIT: u32 = 1 << 9;
/// A mark's first code point when the id needs two: `LEAD + id >> 9`.
const LEAD: u32 = 0xE0080;
const LEAD_DIGIT: u32 = 1 << 7;
/// Clusters kept at most (a program printing new clusters forever stops
/// getting them joined rather than growing the table without bound).
const MAX_CLUSTERS: usize = (FINAL_DIGIT * LEAD_DIGIT) as usize;
/// A cluster longer than this is not kept whole.
pub const MAX_CLUSTER_BYTES: usize = 64;

#[derive(Default)]
struct Table {
    texts: Vec<Box<str>>,
    ids: HashMap<Box<str>, u32>,
    full_told: bool,
}

// why process-wide: as `cell_marks`' table (docs/architecture.md, "Statics
// that remain"): a frame's cells carry the marks of every pane.
static TABLE: LazyLock<RwLock<Table>> = LazyLock::new(RwLock::default);

/// The id of cluster `text` (interned on first use); `None` when the table
/// is full or the cluster too long.
pub fn intern(text: &str) -> Option<u32> {
    if text.len() > MAX_CLUSTER_BYTES {
        return None;
    }
    if let Ok(table) = TABLE.read()
        && let Some(&id) = table.ids.get(text)
    {
        return Some(id);
    }
    let mut table = TABLE.write().ok()?;
    if let Some(&id) = table.ids.get(text) {
        return Some(id);
    }
    if table.texts.len() >= MAX_CLUSTERS {
        if !table.full_told {
            table.full_told = true;
            tracing::warn!("the table of character clusters is full: new ones are not joined");
        }
        return None;
    }
    let id = u32::try_from(table.texts.len()).ok()?;
    table.texts.push(text.into());
    table.ids.insert(text.into(), id);
    Some(id)
}

/// Appends the mark of cluster `id`.
pub fn push_mark(out: &mut Vec<u8>, id: u32) {
    let mut buf = [0; 4];
    let mut push = |code: u32| {
        if let Some(c) = char::from_u32(code) {
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    };
    if id >= FINAL_DIGIT {
        push(LEAD + (id >> 9) % LEAD_DIGIT);
    }
    push(FINAL + id % FINAL_DIGIT);
}

/// The cluster of id `id`.
pub fn cluster(id: u32) -> Option<Box<str>> {
    TABLE.read().ok()?.texts.get(id as usize).cloned()
}

/// What `c` is of a cluster mark, if it is part of one.
pub fn mark_part(c: char) -> Option<MarkPart> {
    let code = u32::from(c);
    if (LEAD..LEAD + LEAD_DIGIT).contains(&code) {
        Some(MarkPart::Lead((code - LEAD) << 9))
    } else if (FINAL..FINAL + FINAL_DIGIT).contains(&code) {
        Some(MarkPart::Last(code - FINAL))
    } else {
        None
    }
}

/// Whether `c` is part of a cluster mark.
#[inline]
pub fn is_mark(c: char) -> bool {
    let code = u32::from(c);
    (FINAL..FINAL + FINAL_DIGIT).contains(&code) || (LEAD..LEAD + LEAD_DIGIT).contains(&code)
}

/// The cluster a cell's text names, if it holds a mark: the text with the
/// stand-in and the mark replaced by the cluster (other marks, a style's,
/// a picture's, are kept where they were, after it). Only a text that may
/// hold a mark (a byte 0xF3) needs asking.
#[cold]
pub fn expand(contents: &str) -> Option<String> {
    if !contents.chars().any(is_mark) {
        return None;
    }
    let mut lead = 0;
    let mut found = None;
    let mut others = String::new();
    for c in contents.chars().skip(1) {
        let code = u32::from(c);
        if (LEAD..LEAD + LEAD_DIGIT).contains(&code) {
            lead = (code - LEAD) << 9;
        } else if (FINAL..FINAL + FINAL_DIGIT).contains(&code) {
            found = Some(lead | (code - FINAL));
            lead = 0;
        } else {
            others.push(c);
        }
    }
    let id = found?;
    let table = TABLE.read().ok()?;
    let cluster = table.texts.get(id as usize)?;
    let mut text = String::with_capacity(cluster.len() + others.len());
    text.push_str(cluster);
    text.push_str(&others);
    Some(text)
}

/// `text` (several cells' worth) with each stand-in and its mark replaced
/// by the cluster they name; `None` when it holds no mark.
#[cold]
pub fn expand_all(text: &str) -> Option<String> {
    if !text.chars().any(is_mark) {
        return None;
    }
    let table = TABLE.read().ok()?;
    let mut out = String::with_capacity(text.len() * 2);
    // Where the character before the mark (its stand-in) starts in `out`.
    let mut stand_in = 0;
    let mut lead = 0;
    for c in text.chars() {
        let code = u32::from(c);
        if (LEAD..LEAD + LEAD_DIGIT).contains(&code) {
            lead = (code - LEAD) << 9;
        } else if (FINAL..FINAL + FINAL_DIGIT).contains(&code) {
            if let Some(cluster) = table.texts.get((lead | (code - FINAL)) as usize) {
                out.truncate(stand_in);
                out.push_str(cluster);
            }
            lead = 0;
        } else {
            stand_in = out.len();
            out.push(c);
        }
    }
    Some(out)
}

/// Whether a cell's text holds a cluster mark.
#[inline]
pub fn holds_mark(contents: &str) -> bool {
    contents.len() >= 5 && contents.chars().skip(1).any(is_mark)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;
    use unicode_width::UnicodeWidthStr as _;

    #[test]
    fn a_marked_cell_reads_as_its_cluster() {
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}";
        let id = intern(family).unwrap();
        let mut cell = "\u{1F468}".as_bytes().to_vec();
        push_mark(&mut cell, id);
        let cell = String::from_utf8(cell).unwrap();
        assert_eq!(cell.width(), 2, "the mark has no width");
        assert!(holds_mark(&cell));
        assert_eq!(expand(&cell).unwrap(), family);
        assert_eq!(expand("\u{1F468}"), None);
        assert_eq!(
            expand_all(&format!("a{cell}b\u{2764}")).unwrap(),
            format!("a{family}b\u{2764}")
        );
    }

    #[test]
    fn ids_past_one_code_point_take_two() {
        for id in [0, 511, 512, 4000, u32::try_from(MAX_CLUSTERS).unwrap() - 1] {
            let mut out = Vec::new();
            push_mark(&mut out, id);
            let text = String::from_utf8(out).unwrap();
            assert_eq!(text.chars().count(), if id < 512 { 1 } else { 2 });
            let mut lead = 0;
            let mut got = None;
            for c in text.chars() {
                assert!(is_mark(c));
                let code = u32::from(c);
                if code < FINAL {
                    lead = (code - LEAD) << 9;
                } else {
                    got = Some(lead | (code - FINAL));
                }
            }
            assert_eq!(got, Some(id));
            assert_eq!(text.width(), 0);
        }
    }
}
