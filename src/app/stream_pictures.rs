//! Kitty pictures in a remote pane's stream (issue 47 §2).
//!
//! A pane's byte ring does not hold the kitty graphics commands its
//! program sent: the escape scanner leaves a short reference in their
//! place (`ESC _ G#<16 hex>[s] ESC \`, see `pane::term::escape_scanner`),
//! which names the placement the command made in the picture store. A
//! stream of the ring to a relay would pass that reference, which means
//! nothing to the workspace at the other end. So each reference a stream
//! carries is replaced, in order, by the commands that send its picture
//! and place it as the program placed it (the cells it covers, the part
//! of the picture, `z`, and whether the cursor stayed), under an id of
//! its own (each placement sends its picture again: the other side may
//! have dropped an earlier one). A reference whose placement is gone (a
//! transmission alone, a query, a delete, or a picture the store let go)
//! is left out.
//!
//! The stream's positions stay the ring's: the frames of a picture end at
//! the reference's start, the last one at its end, so a link that drops
//! half-way sends the picture again whole. A range is never cut inside a
//! reference ([`whole_end`]), and output resuming after a gap never starts
//! inside one ([`resume_at`]).

use std::io::Write as _;

use memchr::memmem;

use crate::graphics::kitty::encode;
use crate::graphics::picture_store::PictureStore;
use crate::pane::history::scrollback::ByteRing;
use crate::session::pane_link::{Frame, MAX_OUTPUT_FRAME};

/// How every reference starts.
const START: &[u8] = b"\x1b_G#";
/// `ESC _ G # <16 hex> s ESC \`: the longest reference.
const LONGEST: usize = 4 + 16 + 1 + 2;

/// Ids the pictures sent for references take on the other side: above
/// those programs pick, below those tilework gives (`1 << 31`).
const IDS: u32 = 1 << 30;

/// Where output from `from` may end at `to` at most without cutting a
/// reference: before one the ring holds only part of (its command still
/// arriving, or its `ESC \` not yet), else `to`.
pub fn whole_end(ring: &ByteRing, from: u64, to: u64) -> u64 {
    let tail_from = to.saturating_sub(LONGEST as u64).max(from);
    let tail = ring.copy_range(tail_from, to);
    match unfinished_start(&tail) {
        Some(at) => tail_from + at as u64,
        None => to,
    }
}

/// Where output resumes after a gap, from the ring's oldest byte `start`:
/// past the rest of a reference whose start the ring let go (that rest
/// would print as text on the other side), else `start`.
pub fn resume_at(ring: &ByteRing, start: u64) -> u64 {
    let head = ring.copy_range(start, ring.end().min(start + LONGEST as u64));
    start + cut_reference_rest(&head) as u64
}

/// How many bytes `head` starts with that are the rest of a reference cut
/// before it: up to its `ESC \`, at most the end of `_G#`, 16 hex digits
/// and `s` before that. 0 when `head` starts otherwise (a whole reference
/// included). What cannot be told apart from such a rest is skipped too:
/// hex digits ended by `ESC \` (inside some other string sequence the gap
/// cut, whose rest would print as well) and a lone `\`.
fn cut_reference_rest(head: &[u8]) -> usize {
    if head.first() == Some(&b'\\') {
        // The last byte of a reference's `ESC \`.
        return 1;
    }
    let Some(end) = memmem::find(head, b"\x1b\\") else {
        return 0;
    };
    let before = &head[..end];
    let body = before.strip_suffix(b"s").unwrap_or(before);
    let hex = body
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_hexdigit())
        .count();
    let lead = &body[..body.len() - hex];
    let rest = hex <= 16 && (lead.is_empty() || (hex == 16 && START[1..].ends_with(lead)));
    if rest { end + 2 } else { 0 }
}

/// Where in `tail` a reference starts that `tail` ends before its end.
fn unfinished_start(tail: &[u8]) -> Option<usize> {
    let at = memchr::memrchr(0x1b, tail)?;
    // The ESC of a reference's own `ESC \`: its start is further back.
    let at = match tail.get(at + 1) {
        None if at > 0 => memchr::memrchr(0x1b, &tail[..at])
            .filter(|&s| reference_at(&tail[s..]).is_none() && could_be_reference(&tail[s..at])),
        _ => None,
    }
    .unwrap_or(at);
    let rest = &tail[at..];
    (reference_at(rest).is_none() && could_be_reference(rest)).then_some(at)
}

/// Whether `bytes` may be the start of a reference whose rest is to come.
fn could_be_reference(bytes: &[u8]) -> bool {
    bytes.iter().enumerate().all(|(i, &b)| match i {
        0..4 => b == START[i],
        4..20 => b.is_ascii_hexdigit(),
        20 => b == b's' || b == 0x1b,
        21 => (bytes[20] == 0x1b && b == b'\\') || (bytes[20] == b's' && b == 0x1b),
        _ => false,
    })
}

/// A whole reference at the start of `bytes`: its length, its key, and
/// whether the cursor stayed.
fn reference_at(bytes: &[u8]) -> Option<(usize, u64, bool)> {
    let hex = std::str::from_utf8(bytes.get(4..20)?).ok()?;
    if !bytes.starts_with(START) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let key = u64::from_str_radix(hex, 16).ok()?;
    match bytes.get(20..23) {
        Some([b's', 0x1b, b'\\']) => Some((23, key, true)),
        _ if bytes.get(20..22) == Some(b"\x1b\\") => Some((22, key, false)),
        _ => None,
    }
}

/// Whether `bytes` may hold a picture's reference (its start).
pub fn holds_reference(bytes: &[u8]) -> bool {
    memmem::find(bytes, START).is_some()
}

/// The output frames for the ring's `bytes` ending at position `end`,
/// each reference in them replaced by its picture's commands (the
/// pictures of `store`, the workspace's).
pub fn frames(store: &PictureStore, bytes: Vec<u8>, end: u64) -> Vec<Frame> {
    if !holds_reference(&bytes) {
        return vec![Frame::Output { end, bytes }];
    }
    let start = end - bytes.len() as u64;
    let mut frames = Vec::new();
    let mut text = Vec::new();
    let mut at = 0;
    while let Some(found) = memmem::find(&bytes[at..], START) {
        let i = at + found;
        let Some((len, key, stays)) = reference_at(&bytes[i..]) else {
            text.extend_from_slice(&bytes[at..=i]);
            at = i + 1;
            continue;
        };
        text.extend_from_slice(&bytes[at..i]);
        at = i + len;
        let picture = commands_for(store, key, stays);
        if picture.is_empty() {
            continue;
        }
        let (ref_start, ref_end) = (start + i as u64, start + at as u64);
        if !text.is_empty() {
            frames.push(Frame::Output {
                end: ref_start,
                bytes: std::mem::take(&mut text),
            });
        }
        let mut pieces = picture.chunks(MAX_OUTPUT_FRAME).peekable();
        while let Some(piece) = pieces.next() {
            let end = if pieces.peek().is_some() {
                ref_start
            } else {
                ref_end
            };
            frames.push(Frame::Output {
                end,
                bytes: piece.to_vec(),
            });
        }
    }
    text.extend_from_slice(&bytes[at..]);
    let reached = frames.last().map(|f| match f {
        Frame::Output { end, .. } => *end,
        _ => 0,
    });
    if !text.is_empty() || reached != Some(end) {
        frames.push(Frame::Output { end, bytes: text });
    }
    frames
}

/// The commands that send the picture of the placement reference `key`
/// names and place it at the cursor; nothing when the store has no such
/// placement. The picture is encoded outside the store's lock.
fn commands_for(store: &PictureStore, key: u64, stays: bool) -> Vec<u8> {
    let found = {
        let mut store = store.lock();
        store.reuse_content(key).and_then(|(_, placement)| {
            let image = store.image(placement.image)?.clone();
            Some((placement, image))
        })
    };
    let Some((placement, image)) = found else {
        return Vec::new();
    };
    let id = IDS | (u32::try_from(key & u64::from(IDS - 1)).unwrap_or(0));
    let mut out = Vec::new();
    encode::transmit(id, &image, &mut out);
    let source = placement.source;
    // Writing to a Vec cannot fail. `C=1` only where the program's own
    // command kept the cursor: the other side's screen must move it as
    // this one did.
    let _ = write!(
        out,
        "\x1b_Ga=p,q=2,i={id},x={},y={},w={},h={},c={},r={},z={}{}\x1b\\",
        source.x,
        source.y,
        source.width,
        source.height,
        placement.cols,
        placement.rows,
        placement.z,
        if stays { ",C=1" } else { "" }
    );
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn outputs(frames: &[Frame]) -> Vec<(u64, Vec<u8>)> {
        frames
            .iter()
            .map(|f| match f {
                Frame::Output { end, bytes } => (*end, bytes.clone()),
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn output_without_references_is_one_frame_as_it_came() {
        let frames = frames(
            &PictureStore::default(),
            b"plain \x1b_Xapc\x1b\\ text".to_vec(),
            100,
        );
        assert_eq!(
            outputs(&frames),
            [(100, b"plain \x1b_Xapc\x1b\\ text".to_vec())]
        );
    }

    #[test]
    fn a_reference_whose_placement_is_gone_is_left_out_and_positions_stay() {
        // No placement was made under this key in this store.
        let bytes = b"ab\x1b_G#00000000000000ffs\x1b\\cd".to_vec();
        let end = 1000;
        let frames = frames(&PictureStore::default(), bytes, end);
        assert_eq!(outputs(&frames), [(end, b"abcd".to_vec())]);
    }

    #[test]
    fn a_placed_picture_is_sent_in_place_of_its_reference_in_pieces_ending_at_it() {
        use crate::graphics::image::RgbaImage;
        use crate::graphics::picture_store::{Origin, PixelRect, Placement};
        // Pixels that do not compress: the picture takes several frames.
        let mut seed = 7u32;
        let pixels: Vec<u8> = (0..300 * 300 * 4)
            .map(|_| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                (seed >> 16) as u8
            })
            .collect();
        let image = RgbaImage::new(300, 300, pixels).unwrap();
        let source = PixelRect::whole(&image);
        let key = 0x5eed_0000_0000_0042;
        let pictures = PictureStore::default();
        {
            let mut store = pictures.lock();
            let image = store.add_image(image).unwrap();
            let placement = store
                .place(Placement {
                    image,
                    source,
                    cols: 30,
                    rows: 15,
                    z: 0,
                    origin: Origin::Kitty {
                        image: 7,
                        placement: 0,
                    },
                })
                .unwrap();
            store.remember_content(key, placement);
        }
        let mut bytes = b"before".to_vec();
        bytes.extend_from_slice(format!("\x1b_G#{key:016x}\x1b\\").as_bytes());
        bytes.extend_from_slice(b"after");
        let end = 10_000;
        let got = outputs(&frames(&pictures, bytes, end));
        let (ref_start, ref_end) = (end - 5 - 22, end - 5);
        assert_eq!(got[0], (ref_start, b"before".to_vec()));
        assert_eq!(got.last().unwrap(), &(end, b"after".to_vec()));
        let picture = &got[1..got.len() - 1];
        assert!(picture.len() > 1, "{} pieces", picture.len());
        assert!(picture.iter().all(|(_, b)| b.len() <= MAX_OUTPUT_FRAME));
        let ends: Vec<u64> = picture.iter().map(|(e, _)| *e).collect();
        let mut want = vec![ref_start; picture.len() - 1];
        want.push(ref_end);
        assert_eq!(ends, want, "only the last piece passes the reference");
        let sent: Vec<u8> = picture.iter().flat_map(|(_, b)| b.clone()).collect();
        let text = String::from_utf8_lossy(&sent);
        assert!(
            text.starts_with("\x1b_Ga=t,q=2,f=32,o=z,i="),
            "{}",
            &text[..40]
        );
        // The cursor moved after it, as the program's command moved it.
        assert!(
            text.ends_with(",x=0,y=0,w=300,h=300,c=30,r=15,z=0\x1b\\"),
            "{}",
            &text[text.len() - 60..]
        );
    }

    #[test]
    fn references_are_recognised_whole_and_only_whole() {
        assert_eq!(
            reference_at(b"\x1b_G#0123456789abcdef\x1b\\x"),
            Some((22, 0x0123_4567_89ab_cdef, false))
        );
        assert_eq!(
            reference_at(b"\x1b_G#0123456789abcdefs\x1b\\"),
            Some((23, 0x0123_4567_89ab_cdef, true))
        );
        assert_eq!(reference_at(b"\x1b_G#0123456789abcdefs\x1b"), None);
        assert_eq!(reference_at(b"\x1b_G#0123456789abcdeg\x1b\\"), None);
    }

    #[test]
    fn a_range_is_never_cut_inside_a_reference() {
        let whole = b"text\x1b_G#0123456789abcdefs\x1b\\";
        // Every cut inside the reference (after its ESC) is moved back to
        // its start; a cut after it, or in the text, stays.
        for cut in 0..=whole.len() {
            let tail = &whole[..cut];
            let expected = if (5..whole.len()).contains(&cut) {
                Some(4)
            } else {
                None
            };
            assert_eq!(unfinished_start(tail), expected, "cut at {cut}");
        }
        // Other escapes are no reference.
        assert_eq!(unfinished_start(b"a\x1b[1"), None);
        assert_eq!(unfinished_start(b"a\x1b_X"), None);
        assert_eq!(unfinished_start(b"a\x1b"), Some(1));
    }

    #[test]
    fn output_resumed_after_a_gap_never_starts_inside_a_reference() {
        for whole in [
            &b"\x1b_G#0123456789abcdefs\x1b\\text"[..],
            &b"\x1b_G#0123456789ABCDEF\x1b\\text"[..],
        ] {
            let len = whole.len() - 4;
            // The gap cut it anywhere inside: output resumes after it.
            for cut in 1..len {
                assert_eq!(cut_reference_rest(&whole[cut..]), len - cut, "cut at {cut}");
            }
            // At its start or after it: where it was.
            assert_eq!(cut_reference_rest(whole), 0);
            assert_eq!(cut_reference_rest(&whole[len..]), 0);
        }
        // Text, and other sequences, are no reference's rest.
        for head in [
            &b"plain text\x1b\\"[..],
            b"\x1b]0;title\x1b\\",
            b"_G#0123456789abcdef0\x1b\\",
            b"G#0123\x1b\\",
            b"",
        ] {
            assert_eq!(cut_reference_rest(head), 0, "{head:?}");
        }
        // Through the ring: a resume point moved past the cut reference.
        let mut ring = ByteRing::new(1 << 16);
        ring.push(b"#0123456789abcdef\x1b\\after");
        assert_eq!(resume_at(&ring, ring.start()), ring.start() + 19);
    }
}
