//! Drawing pictures to a terminal that speaks kitty graphics: each picture
//! is sent once under its store id, and each piece of a placement the
//! frame shows is a kitty placement of the picture's part over the
//! piece's cells (the terminal scales it). A piece unchanged is left
//! alone; a piece gone is deleted; a picture the store dropped is deleted
//! from the terminal too. Text the painter writes over a piece does not
//! erase it in a kitty terminal, so nothing is sent again for that.
//!
//! A picture with frames (kitty's animation) is sent with its frames, and
//! how they play (the current frame, running or stopped, loops, gaps), so
//! the terminal plays them itself; what changes later (a frame added or
//! edited, another one made current) follows as it changes.

use std::collections::{HashMap, HashSet};
use std::io::Write as _;

use super::Piece;
use crate::graphics::kitty::encode;
use crate::graphics::picture_store::{ImageId, PictureStore, PixelRect};

/// One frame as the terminal has it.
#[derive(Debug, Clone, Copy)]
struct SentFrame {
    /// The frame's id in its animation.
    id: u32,
    version: u32,
    gap: i32,
}

/// What a terminal was sent of a picture's frames.
#[derive(Debug, Default)]
struct FramesSent {
    /// The frames the terminal has, in its order (the first: the picture
    /// as sent).
    frames: Vec<SentFrame>,
    /// How they play: kitty's `s`, the current frame (0-based), `v`.
    control: Option<(u32, usize, u32)>,
    /// The animation's version all this was sent for.
    animation: Option<u64>,
}

/// One client's pictures in its kitty terminal.
#[derive(Debug, Default)]
pub struct KittyPictures {
    /// The pieces placed, with the terminal's placement id of each.
    shown: Vec<(Piece, u32)>,
    /// The pictures sent to the terminal.
    sent: HashSet<ImageId>,
    /// What the terminal has of each sent picture's frames.
    frames_sent: HashMap<ImageId, FramesSent>,
    next_placement: u32,
    /// Something was drawn since this drawer was made (it is made anew
    /// when the screen is drawn whole, or the terminal changes).
    started: bool,
}

impl KittyPictures {
    /// Appends to `out` what makes the terminal show `pieces` (of the
    /// pictures in `store`) and nothing else of tilework's.
    pub fn draw(&mut self, store: &PictureStore, pieces: &[Piece], out: &mut Vec<u8>) {
        if !self.started && !pieces.is_empty() {
            // Whatever an earlier drawer left in the terminal goes first:
            // its ids are not known here.
            self.started = true;
            encode::delete_all(out);
        }
        let shown = std::mem::take(&mut self.shown);
        for (piece, id) in &shown {
            if !pieces.contains(piece) {
                encode::delete_placement(piece.image.0, *id, out);
            }
        }
        self.forget_dropped(store, out);
        for piece in pieces {
            if let Some((_, id)) = shown.iter().find(|(p, _)| p == piece) {
                self.shown.push((piece.clone(), *id));
                continue;
            }
            if !self.sent.contains(&piece.image) {
                let locked = store.lock();
                let Some(image) = locked.root_image(piece.image).cloned() else {
                    continue;
                };
                // Which frame the terminal gets as the picture: the first.
                let root = locked
                    .animation(piece.image)
                    .and_then(|a| a.frames().first())
                    .map_or((0, 0), |f| (f.id, f.version));
                drop(locked);
                encode::transmit(piece.image.0, &image, out);
                self.sent.insert(piece.image);
                self.frames_sent.insert(
                    piece.image,
                    FramesSent {
                        frames: vec![SentFrame {
                            id: root.0,
                            version: root.1,
                            gap: 0,
                        }],
                        control: None,
                        animation: None,
                    },
                );
            }
            self.next_placement = self.next_placement.wrapping_add(1).max(1);
            let id = self.next_placement;
            // DECSC/DECRC: the frame's cursor stays where the frame put it.
            let _ = write!(out, "\x1b7\x1b[{};{}H", piece.at.y + 1, piece.at.x + 1);
            encode::place(
                piece.image.0,
                id,
                picture_part(piece),
                piece.at.width,
                piece.at.height,
                piece_z(store, piece),
                out,
            );
            out.extend_from_slice(b"\x1b8");
            self.shown.push((piece.clone(), id));
        }
        self.forward_frames(store, out);
    }

    /// Sends what the terminal lacks of the sent pictures' frames and of
    /// how they play.
    fn forward_frames(&mut self, store: &PictureStore, out: &mut Vec<u8>) {
        let store = store.lock();
        let mut wanted = Vec::new();
        for id in &self.sent {
            let Some(animation) = store.animation(*id) else {
                continue;
            };
            let known = self.frames_sent.get(id).and_then(|s| s.animation);
            if known != Some(animation.version()) {
                wanted.push((*id, animation.clone()));
            }
        }
        drop(store);
        for (id, animation) in wanted {
            let Some(sent) = self.frames_sent.get_mut(&id) else {
                continue;
            };
            sent.animation = Some(animation.version());
            // Frames are only added at the end: those the terminal lacks
            // are sent first, then the ones deleted since are deleted
            // there (after, so that the terminal never has to delete its
            // only frame), by their number there.
            for frame in animation.frames() {
                if !sent.frames.iter().any(|s| s.id == frame.id) {
                    encode::frame(id.0, &frame.image, None, frame.gap, out);
                    sent.frames.push(SentFrame {
                        id: frame.id,
                        version: frame.version,
                        gap: frame.gap,
                    });
                }
            }
            let mut n = 0;
            while n < sent.frames.len() {
                if animation.frames().iter().any(|f| f.id == sent.frames[n].id) {
                    n += 1;
                    continue;
                }
                let number = u32::try_from(n + 1).unwrap_or(u32::MAX);
                encode::delete_frame(id.0, number, out);
                sent.frames.remove(n);
                // Which frame the terminal makes current then is its own
                // rule: it is told ours again.
                sent.control = None;
            }
            for (n, (frame, sent)) in animation.frames().iter().zip(&mut sent.frames).enumerate() {
                let number = u32::try_from(n + 1).unwrap_or(u32::MAX);
                if sent.version != frame.version {
                    encode::frame(id.0, &frame.image, Some(number), 0, out);
                    sent.version = frame.version;
                }
                if sent.gap != frame.gap && frame.gap != 0 {
                    encode::gap(id.0, number, frame.gap, out);
                    sent.gap = frame.gap;
                }
            }
            let control = (
                animation.playing.number(),
                animation.current(),
                animation.loops,
            );
            if sent.control != Some(control) {
                let current = u32::try_from(control.1 + 1).unwrap_or(u32::MAX);
                encode::control(id.0, control.0, current, control.2, out);
                sent.control = Some(control);
            }
        }
    }

    /// Whether the terminal shows `pieces` already, and nothing else.
    pub fn shows(&self, pieces: &[Piece]) -> bool {
        pieces.len() == self.shown.len()
            && pieces
                .iter()
                .all(|p| self.shown.iter().any(|(s, _)| s == p))
    }

    /// Deletes from the terminal the pictures the store no longer has.
    fn forget_dropped(&mut self, store: &PictureStore, out: &mut Vec<u8>) {
        if self.sent.is_empty() {
            return;
        }
        let store = store.lock();
        let gone: Vec<ImageId> = self
            .sent
            .iter()
            .copied()
            .filter(|id| store.image(*id).is_none())
            .collect();
        drop(store);
        for id in gone {
            encode::delete(id.0, out);
            self.sent.remove(&id);
            self.frames_sent.remove(&id);
        }
    }
}

/// The stacking order the program asked for.
fn piece_z(store: &PictureStore, piece: &Piece) -> i32 {
    store.lock().placement(piece.placement).map_or(0, |p| p.z)
}

/// The part of the picture (in its own pixels) a piece shows: the piece's
/// pixels of the placement as displayed, mapped back onto the placement's
/// source rectangle.
fn picture_part(piece: &Piece) -> PixelRect {
    let (dw, dh) = (
        u64::from(piece.display.0.max(1)),
        u64::from(piece.display.1.max(1)),
    );
    let s = piece.source;
    let scale = |v: u32, whole: u32, display: u64| {
        u32::try_from(u64::from(v) * u64::from(whole) / display).unwrap_or(whole)
    };
    let x = scale(piece.src.x, s.width, dw);
    let y = scale(piece.src.y, s.height, dh);
    let right = scale(piece.src.x + piece.src.width, s.width, dw).max(x + 1);
    let bottom = scale(piece.src.y + piece.src.height, s.height, dh).max(y + 1);
    PixelRect {
        x: s.x + x,
        y: s.y + y,
        width: right.min(s.width) - x.min(s.width - 1),
        height: bottom.min(s.height) - y.min(s.height - 1),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use ratatui::layout::Rect;

    use super::*;
    use crate::graphics::image::RgbaImage;
    use crate::graphics::picture_store::PlacementId;

    fn piece(image: ImageId, at: Rect, src: PixelRect) -> Piece {
        Piece {
            placement: PlacementId(1),
            image,
            at,
            src,
            display: (40, 40),
            source: PixelRect {
                x: 0,
                y: 0,
                width: 80,
                height: 80,
            },
            look: 0,
        }
    }

    fn count(out: &[u8], what: &[u8]) -> usize {
        out.windows(what.len()).filter(|w| *w == what).count()
    }

    #[test]
    fn a_picture_is_sent_once_placed_per_piece_and_deleted_when_gone() {
        let image = RgbaImage::new(80, 80, vec![5; 80 * 80 * 4]).unwrap();
        let store = PictureStore::default();
        let id = store.lock().add_image(image).unwrap();
        let whole = PixelRect {
            x: 0,
            y: 0,
            width: 40,
            height: 40,
        };
        let a = piece(id, Rect::new(2, 3, 4, 2), whole);
        let mut k = KittyPictures::default();
        let mut out = Vec::new();
        k.draw(&store, std::slice::from_ref(&a), &mut out);
        assert!(
            out.starts_with(b"\x1b_Ga=d,d=A,"),
            "an earlier drawer's left first"
        );
        assert_eq!(count(&out, b"a=t,"), 1);
        assert_eq!(count(&out, b"a=p,"), 1);
        assert_eq!(count(&out, b"\x1b[4;3H"), 1, "at the piece's cell");
        // The whole picture over 4 x 2 cells, its pixels mapped back.
        assert_eq!(count(&out, b"x=0,y=0,w=80,h=80,c=4,r=2"), 1);
        // The same frame again: nothing.
        let mut out = Vec::new();
        k.draw(&store, std::slice::from_ref(&a), &mut out);
        assert!(out.is_empty());
        // The bottom half only (text cut it): the old placement goes, the
        // picture is not sent again.
        let half = PixelRect {
            y: 20,
            height: 20,
            ..whole
        };
        let b = piece(id, Rect::new(2, 4, 4, 1), half);
        let mut out = Vec::new();
        k.draw(&store, std::slice::from_ref(&b), &mut out);
        assert_eq!(count(&out, b"a=t,"), 0);
        assert_eq!(count(&out, b"a=d,d=i,"), 1);
        assert_eq!(count(&out, b"x=0,y=40,w=80,h=40,c=4,r=1"), 1);
        // The store drops the picture: the terminal forgets it too.
        store.lock().delete_image(id);
        let mut out = Vec::new();
        k.draw(&store, &[], &mut out);
        assert_eq!(count(&out, b"a=d,d=I,"), 1);
    }

    #[test]
    fn deleted_frames_are_deleted_in_the_terminal_by_their_number_there() {
        use crate::graphics::animation::FrameOp;
        let image = RgbaImage::new(8, 8, vec![5; 8 * 8 * 4]).unwrap();
        let store = PictureStore::default();
        let id = store.lock().add_image(image.clone()).unwrap();
        let add = |store: &PictureStore| {
            let frame = FrameOp::Frame {
                data: image.clone(),
                x: 0,
                y: 0,
                base: 0,
                edit: 0,
                background: 0,
                replace: true,
                gap: 0,
            };
            store.lock().animate(id, frame).unwrap();
        };
        let whole = PixelRect::whole(&image);
        let a = piece(id, Rect::new(0, 0, 1, 1), whole);
        let mut k = KittyPictures::default();
        let mut out = Vec::new();
        k.draw(&store, std::slice::from_ref(&a), &mut out);
        add(&store);
        add(&store);
        let mut out = Vec::new();
        k.draw(&store, std::slice::from_ref(&a), &mut out);
        assert_eq!(count(&out, b"a=f,"), 2);
        // Frame 2 goes: the terminal deletes its frame 2.
        assert!(store.lock().delete_frame(id, 2));
        let mut out = Vec::new();
        k.draw(&store, std::slice::from_ref(&a), &mut out);
        let i = id.0;
        assert_eq!(count(&out, format!("a=d,d=f,q=2,i={i},r=2").as_bytes()), 1);
        assert_eq!(count(&out, b"a=f,"), 0);
        assert_eq!(count(&out, b"a=a,"), 1, "told the current frame again");
        // The first goes and a frame is added before the next draw: the
        // new one is sent, then the first is deleted (number 1).
        assert!(store.lock().delete_frame(id, 1));
        add(&store);
        let mut out = Vec::new();
        k.draw(&store, std::slice::from_ref(&a), &mut out);
        let text = String::from_utf8_lossy(&out);
        let added = text.find("a=f,").unwrap();
        let deleted = text.find(&format!("a=d,d=f,q=2,i={i},r=1")).unwrap();
        assert!(added < deleted, "{text}");
    }
}
