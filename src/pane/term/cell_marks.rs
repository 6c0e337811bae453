//! What a cell has beyond what vt100 keeps (underline styles and colour,
//! strikethrough, overline, blink, conceal, a hyperlink), carried in the
//! cell itself as a zero-width marker.
//!
//! While the program's pen has such an attribute, the fidelity layer
//! appends a marker after each character it prints: one or two code points
//! from an unassigned, default-ignorable plane-14 range, which
//! unicode-width (and so vt100) gives no width. vt100 appends them to the
//! cell as it does combining marks, so scrolling, insert and delete,
//! erasing, resizing and the alternate screen carry them with no work of
//! ours, and cells without them (all cells of a program that uses none of
//! these) cost nothing more. The marker is an id into one table shared by
//! every pane ([`Extra`]s and [`Link`]s interned once, never freed); the
//! screen view strips markers from every text it hands out and decodes
//! them into the cell's style.
//!
//! A cell keeps at most 22 bytes (18 before the last append): a base
//! character (≤ 4) and a marker (≤ 8) leave room for a few combining
//! marks of the program's, which vt100 appends after the marker (the
//! screen view puts them back beside their character).

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, RwLock};

use crate::pane::term::cell_style::{Attrs, Colour, UnderlineStyle};
use crate::pane::term::mark_part::MarkPart;

/// The attributes of [`Extra::attrs`]: those vt100 drops.
pub const EXTRA_ATTRS: Attrs = Attrs::from_bits(
    Attrs::BLINK.bits()
        | Attrs::CONCEAL.bits()
        | Attrs::STRIKETHROUGH.bits()
        | Attrs::OVERLINE.bits(),
);

/// A marker's last code point: `FINAL + low 10 bits of the id`.
const FINAL: u32 = 0xE0400;
/// A marker's first code point when the id needs two: `LEAD + id >> 10`.
const LEAD: u32 = 0xE0800;
const DIGIT: u32 = 1 << 10;
/// After a space, this makes the cell U+FFFD, which vt100 drops (it does
/// not print the replacement character, neither a program's nor the one
/// vte reads for invalid UTF-8).
const REPLACEMENT_MARK: char = '\u{E0C00}';
/// Ids the two code points can tell apart.
const MAX_EXTRAS: usize = 1 << 16;
/// Links kept at most, and their bytes (a program printing fresh links
/// forever, like `ls --hyperlink` in a loop over new trees, fills the
/// table rather than growing it without bound). The table is the
/// process's and is never emptied: once it is full, no pane gets a new
/// link (the text stays), and each new link also took an [`Extra`], so
/// past [`MAX_EXTRAS`] no pane gets a new extended style either, until the
/// workspace's process ends (an upgrade's new process starts with only
/// the entries its screens name, `carried_marks`).
const MAX_LINKS: usize = 1 << 16;
const MAX_LINK_BYTES: usize = 16 << 20;
/// A URI longer than this is not kept (the link is dropped, its text
/// stays).
pub const MAX_URI_BYTES: usize = 2048;
/// An `id=` longer than this is not kept.
pub const MAX_LINK_ID_BYTES: usize = 250;

/// An OSC 8 hyperlink: where it points and the `id=` that ties its cells
/// together across lines.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Link {
    pub uri: Box<str>,
    pub id: Option<Box<str>>,
}

impl Link {
    /// A link as the program sent it (`OSC 8 ; params ; uri`), if it is
    /// one to keep: a URI of printable ASCII or UTF-8 up to
    /// [`MAX_URI_BYTES`], no control character anywhere.
    pub fn sanitized(params: &[u8], uri: &[u8]) -> Option<Self> {
        let clean = |bytes: &[u8], cap: usize| -> Option<Box<str>> {
            let text = std::str::from_utf8(bytes).ok()?;
            (!text.is_empty() && bytes.len() <= cap && !text.chars().any(char::is_control))
                .then(|| text.into())
        };
        let uri = clean(uri, MAX_URI_BYTES)?;
        let id = params
            .split(|&b| b == b':')
            .find_map(|p| p.strip_prefix(b"id="))
            .and_then(|id| clean(id, MAX_LINK_ID_BYTES));
        Some(Self { uri, id })
    }
}

/// Index of an interned [`Link`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LinkId(u32);

/// What a cell has beyond vt100's attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Extra {
    /// Only [`EXTRA_ATTRS`].
    pub attrs: Attrs,
    /// The style of an underline vt100 keeps as plain (`None` or `Single`:
    /// vt100's own).
    pub underline: UnderlineStyle,
    pub underline_colour: Colour,
    pub link: Option<LinkId>,
}

impl Extra {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

#[derive(Default)]
struct Table {
    extras: Vec<Extra>,
    extra_ids: HashMap<Extra, u32>,
    links: Vec<Arc<Link>>,
    link_ids: HashMap<Arc<Link>, u32>,
    link_bytes: usize,
    full_told: bool,
    /// The config's `hyperlinks = false`: the table takes no link, so no
    /// cell, history view or capture holds one.
    drop_links: bool,
}

// why process-wide: ids in cells cross their panes' bounds (every
// terminal's frame mixes all panes' cells, and its markers name the panes'
// links); see docs/architecture.md, "Statics that remain".
static TABLE: LazyLock<RwLock<Table>> = LazyLock::new(RwLock::default);

/// Whether OSC 8 links are kept (the config's `hyperlinks`), said by the
/// loop before its first pane starts: the table then takes none (see
/// [`intern_link`]).
pub fn set_keep_links(on: bool) {
    if let Ok(mut table) = TABLE.write() {
        table.drop_links = !on;
    }
}

fn told_full(table: &mut Table, what: &str) {
    if !table.full_told {
        table.full_told = true;
        tracing::warn!("the table of cell {what} is full: new ones are not kept");
    }
}

/// The id of `extra` (interned on first use); `None` when the table is
/// full.
pub fn intern(extra: Extra) -> Option<u32> {
    if let Ok(table) = TABLE.read()
        && let Some(&id) = table.extra_ids.get(&extra)
    {
        return Some(id);
    }
    let mut table = TABLE.write().ok()?;
    if let Some(&id) = table.extra_ids.get(&extra) {
        return Some(id);
    }
    if table.extras.len() >= MAX_EXTRAS {
        told_full(&mut table, "styles");
        return None;
    }
    let id = u32::try_from(table.extras.len()).ok()?;
    table.extras.push(extra);
    table.extra_ids.insert(extra, id);
    Some(id)
}

/// The id of `link` (interned on first use); `None` when the table is
/// full, or takes no links (`hyperlinks = false`).
pub fn intern_link(link: Link) -> Option<LinkId> {
    if let Ok(table) = TABLE.read() {
        if table.drop_links {
            return None;
        }
        if let Some(&id) = table.link_ids.get(&link) {
            return Some(LinkId(id));
        }
    }
    let mut table = TABLE.write().ok()?;
    if table.drop_links {
        return None;
    }
    if let Some(&id) = table.link_ids.get(&link) {
        return Some(LinkId(id));
    }
    let bytes = link.uri.len() + link.id.as_ref().map_or(0, |id| id.len());
    if table.links.len() >= MAX_LINKS || table.link_bytes + bytes > MAX_LINK_BYTES {
        told_full(&mut table, "links");
        return None;
    }
    let id = u32::try_from(table.links.len()).ok()?;
    let link = Arc::new(link);
    table.links.push(Arc::clone(&link));
    table.link_ids.insert(link, id);
    table.link_bytes += bytes;
    Some(LinkId(id))
}

/// The extra attributes of id `id`.
pub fn extra(id: u32) -> Extra {
    TABLE
        .read()
        .ok()
        .and_then(|t| t.extras.get(id as usize).copied())
        .unwrap_or_default()
}

pub fn link(id: LinkId) -> Option<Arc<Link>> {
    TABLE
        .read()
        .ok()
        .and_then(|t| t.links.get(id.0 as usize).cloned())
}

/// Appends the marker of `id`.
pub fn push_marker(out: &mut Vec<u8>, id: u32) {
    let mut buf = [0; 4];
    let mut push = |code: u32| {
        if let Some(c) = char::from_u32(code) {
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    };
    if id >= DIGIT {
        push(LEAD + (id >> 10) % DIGIT);
    }
    push(FINAL + id % DIGIT);
}

/// The marker of `id` as text.
pub fn marker(id: u32) -> String {
    let mut out = Vec::with_capacity(8);
    push_marker(&mut out, id);
    String::from_utf8(out).unwrap_or_default()
}

/// What `c` is of a marker, if it is part of one.
pub fn marker_part(c: char) -> Option<MarkPart> {
    let code = u32::from(c);
    if (LEAD..LEAD + DIGIT).contains(&code) {
        Some(MarkPart::Lead((code - LEAD) << 10))
    } else if (FINAL..LEAD).contains(&code) {
        Some(MarkPart::Last(code - FINAL))
    } else {
        None
    }
}

/// Appends what vt100 keeps of U+FFFD: a space and its mark.
pub fn push_replacement(out: &mut Vec<u8>) {
    let mut buf = [0; 4];
    out.push(b' ');
    out.extend_from_slice(REPLACEMENT_MARK.encode_utf8(&mut buf).as_bytes());
}

/// Whether `c` is a marker: a style marker, or part of a picture's anchor
/// (`crate::graphics::anchor`), which text leaves out as well.
#[inline]
pub fn is_marker(c: char) -> bool {
    (FINAL..=u32::from(REPLACEMENT_MARK)).contains(&u32::from(c))
        || crate::graphics::anchor::is_anchor_char(c)
}

/// Every marker's UTF-8 starts with this byte (`U+E0000..U+E0FFF`).
const MARKER_LEAD_BYTE: u8 = 0xF3;

/// Whether `text` may hold a marker: one look for a byte that plain text
/// of the common scripts never has.
#[inline]
pub fn may_hold_marker(text: &str) -> bool {
    text.len() >= 4 && memchr::memchr(MARKER_LEAD_BYTE, text.as_bytes()).is_some()
}

/// A cell's text without its marker, and the marker's id. A cell's text is
/// short; the common one (no marker) is told by its length or one scan.
/// Combining marks vt100 appended after the marker (a program's, printed
/// after a marked character) are kept: the text is then a copy.
#[inline]
pub fn split(contents: &str) -> (Cow<'_, str>, Option<u32>) {
    // A base character and a marker take at least 5 bytes.
    if contents.len() < 5 || !may_hold_marker(contents) {
        return (Cow::Borrowed(contents), None);
    }
    split_marked(contents)
}

#[cold]
fn split_marked(contents: &str) -> (Cow<'_, str>, Option<u32>) {
    if let Some(cluster) = crate::pane::term::cluster_marks::expand(contents) {
        let (text, id) = split_unclustered(&cluster);
        return (Cow::Owned(text.into_owned()), id);
    }
    split_unclustered(contents)
}

fn split_unclustered(contents: &str) -> (Cow<'_, str>, Option<u32>) {
    let Some((at, _)) = contents.char_indices().find(|&(_, c)| is_marker(c)) else {
        return (Cow::Borrowed(contents), None);
    };
    let (mut text, mut rest) = contents.split_at(at);
    if let Some(after) = rest.strip_prefix(REPLACEMENT_MARK) {
        if text == " " {
            text = "\u{FFFD}";
        }
        rest = after;
    }
    let mut id = 0;
    let mut found = None;
    // What follows the marker: the marker's code points are skipped.
    let mut after = "";
    for (i, c) in rest.char_indices() {
        let code = u32::from(c);
        if (LEAD..LEAD + DIGIT).contains(&code) {
            id = (code - LEAD) << 10;
        } else if (FINAL..LEAD).contains(&code) {
            found = Some(id | (code - FINAL));
            after = &rest[i + c.len_utf8()..];
            break;
        } else if crate::graphics::anchor::is_anchor_char(c) {
            // A picture's anchor, before or after the style marker.
            continue;
        } else {
            after = &rest[i..];
            break;
        }
    }
    let rest = after;
    if rest.is_empty() {
        return (Cow::Borrowed(text), found);
    }
    let mut whole = String::with_capacity(text.len() + rest.len());
    whole.push_str(text);
    whole.extend(rest.chars().filter(|&c| !is_marker(c)));
    (Cow::Owned(whole), found)
}

/// `text` without markers (a copy only when it held some).
pub fn strip(text: String) -> String {
    if may_hold_marker(&text) {
        let text = crate::pane::term::cluster_marks::expand_all(&text).unwrap_or(text);
        text.replace(" \u{E0C00}", "\u{FFFD}")
            .chars()
            .filter(|&c| !is_marker(c))
            .collect()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;
    use unicode_width::{UnicodeWidthChar as _, UnicodeWidthStr as _};

    #[test]
    fn markers_have_no_width_and_read_back() {
        for id in [0, 1, 1023, 1024, 5000, (MAX_EXTRAS - 1) as u32] {
            let m = marker(id);
            assert!(m.chars().all(|c| c.width() == Some(0)), "{id}");
            let cell = format!("x{m}");
            assert_eq!(cell.width(), 1);
            assert_eq!(split(&cell), ("x".into(), Some(id)));
            // A combining mark appended after the marker stays with its
            // character.
            let wide = format!("漢{m}\u{301}");
            assert_eq!(split(&wide), ("漢\u{301}".into(), Some(id)));
            assert_eq!(strip(format!("a{m}b")), "ab");
        }
        assert_eq!(split("e\u{301}\u{302}"), ("e\u{301}\u{302}".into(), None));
        let mut fffd = b"x".to_vec();
        push_replacement(&mut fffd);
        push_marker(&mut fffd, 7);
        let cell = String::from_utf8(fffd).unwrap();
        assert_eq!(split(&cell[1..]), ("\u{FFFD}".into(), Some(7)));
        assert_eq!(strip(cell), "x\u{FFFD}");
        // A variation selector of the program's is no marker.
        assert_eq!(split("葛\u{E0100}"), ("葛\u{E0100}".into(), None));
    }

    #[test]
    fn interning_gives_one_id_per_value() {
        let a = Extra {
            attrs: Attrs::STRIKETHROUGH,
            ..Extra::default()
        };
        let b = Extra {
            underline: UnderlineStyle::Curly,
            underline_colour: Colour::Rgb(1, 2, 3),
            ..Extra::default()
        };
        let (ia, ib) = (intern(a).unwrap(), intern(b).unwrap());
        assert_ne!(ia, ib);
        assert_eq!(intern(a), Some(ia));
        assert_eq!(extra(ib), b);
    }

    #[test]
    fn links_are_sanitized() {
        let link = Link::sanitized(b"id=x1:foo=bar", b"https://example.com/a;b").unwrap();
        assert_eq!(&*link.uri, "https://example.com/a;b");
        assert_eq!(link.id.as_deref(), Some("x1"));
        assert!(Link::sanitized(b"", b"").is_none());
        assert!(Link::sanitized(b"", b"http://x/\x07\x1b[2J").is_none());
        assert!(Link::sanitized(b"", &vec![b'a'; MAX_URI_BYTES + 1]).is_none());
        assert!(Link::sanitized(b"", b"file:///etc/\xff").is_none());
        let id = intern_link(link.clone()).unwrap();
        assert_eq!(intern_link(link.clone()), Some(id));
        assert_eq!(*self::link(id).unwrap(), link);
    }
}
