//! Sixel pictures in a pane's output: the follower hands each `DCS q`
//! body over byte by byte as vte reads it ([`SixelIntake`]), decoded as it
//! comes (nothing is buffered, and the loop's time slice cuts a long one
//! into pieces like any output); at its ST the follower stops, vt100 gets
//! CAN (it ignored the DCS anyway) and then the bytes that anchor the
//! placement in the cells (`crate::graphics::anchor`).
//!
//! A picture larger than the pane, or over the image memory budget, is
//! dropped and its DCS leaves nothing, as before pictures were taken.
//! The same data sent again (a program redrawing, a history window or a
//! resized screen replaying the output) finds its placement by a hash and
//! is anchored again, not decoded into a second picture.

use crate::graphics::anchor::{self, CursorAfter};
use crate::graphics::picture_store::{self, Origin, PictureStore};
use crate::graphics::placement::{self, At, Request};
use crate::graphics::reach;
use crate::graphics::sixel::decode::Decoder;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

/// The sixel picture being read, if any.
#[derive(Debug, Default)]
pub struct SixelIntake {
    decoder: Option<Box<Decoder>>,
    /// FNV-1a of the DCS's parameters and body.
    hash: u64,
    /// vte unhooked the DCS; its ST's `\` comes next.
    ended: bool,
    /// A history replay: pictures still in the store are anchored again;
    /// others only keep their place (blank cells), never stored anew.
    placeholders_only: bool,
    /// The workspace's store the pictures go to.
    store: PictureStore,
    /// The cell's size in pixels the pane's program was told (`None`:
    /// nothing told, [`reach::DEFAULT_CELL`]).
    cell: Option<reach::CellPixels>,
}

impl SixelIntake {
    /// Pictures go to `store` from now on (the workspace's).
    pub fn set_store(&mut self, store: PictureStore) {
        self.store = store;
    }

    pub fn store(&self) -> &PictureStore {
        &self.store
    }

    /// For a history replay (see `placeholders_only`).
    pub fn placeholders_only(&mut self) {
        self.placeholders_only = true;
    }

    /// Pictures take their cells at `cell` pixels a cell from now on
    /// (what the pane's program is told, see `AttachedFacts::reach`).
    pub fn set_cell(&mut self, cell: reach::CellPixels) {
        self.cell = Some(cell);
    }

    fn cell(&self) -> reach::CellPixels {
        self.cell.unwrap_or(reach::DEFAULT_CELL)
    }

    /// A DCS starts: a sixel one (final `q`, no intermediates) is decoded,
    /// for a pane of `rows` x `cols` cells.
    pub fn hook(
        &mut self,
        params: &vte::Params,
        intermediates: &[u8],
        action: char,
        size: (u16, u16),
    ) {
        self.ended = false;
        self.decoder = None;
        if action != 'q' || !intermediates.is_empty() {
            return;
        }
        let cell = self.cell();
        let (rows, cols) = size;
        let max_width = u32::from(cols.min(anchor::MAX_COLS)) * u32::from(cell.width);
        let max_height = u32::from(rows.min(anchor::MAX_ROWS)) * u32::from(cell.height);
        self.decoder = Some(Box::new(Decoder::new(max_width, max_height)));
        let mut hash = FNV_OFFSET;
        for p in params.iter().flatten() {
            for b in p.to_le_bytes() {
                hash = (hash ^ u64::from(b)).wrapping_mul(FNV_PRIME);
            }
        }
        self.hash = hash;
    }

    #[inline]
    pub fn put(&mut self, byte: u8) {
        if let Some(decoder) = self.decoder.as_mut() {
            decoder.byte(byte);
            self.hash = (self.hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME);
        }
    }

    pub fn unhook(&mut self) {
        self.ended = self.decoder.is_some();
    }

    /// Whether a sixel DCS just ended and waits for its ST's `\`.
    #[inline]
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// Anything but the ST's `\` came after the DCS (CAN, another
    /// sequence): no picture.
    #[inline]
    pub fn cancel(&mut self) {
        if self.ended {
            self.ended = false;
            self.decoder = None;
        }
    }

    /// The picture is complete: placed, and the bytes that anchor it at
    /// the cursor (column `cursor_col` of a `rows` x `cols` screen).
    pub fn finish(&mut self, cursor_col: u16, rows: u16, cols: u16) -> Option<Vec<u8>> {
        self.ended = false;
        let decoder = self.decoder.take()?;
        let at = At {
            rows,
            cols,
            cursor_col,
            cell: self.cell(),
        };
        let reused = self.store.lock().reuse_content(self.hash);
        if let Some((id, placement)) = reused
            && placement.rows <= rows
            && placement.cols <= cols
        {
            return Some(anchor::anchor_bytes(
                id,
                placement.cols,
                placement.rows,
                cursor_col,
                cols,
                CursorAfter::LastRowSameColumn,
            ));
        }
        let image = match decoder.finish() {
            Ok(image) => image,
            Err(err) => {
                tracing::debug!("a sixel picture was dropped: {err}");
                return None;
            }
        };
        if self.placeholders_only {
            // Anchors of placement 0, which is never given: blank cells
            // where the picture was, drawn by no one.
            let cell = self.cell();
            let cols = reach::cells_for(image.width(), cell.width).min(cols);
            let rows = reach::cells_for(image.height(), cell.height).min(rows);
            return Some(anchor::anchor_bytes(
                picture_store::PlacementId(0),
                cols,
                rows,
                cursor_col,
                at.cols,
                CursorAfter::LastRowSameColumn,
            ));
        }
        let request = Request {
            source: None,
            cells: None,
            z: 0,
            origin: Origin::Sixel,
            cursor_after: CursorAfter::LastRowSameColumn,
        };
        let mut store = self.store.lock();
        match placement::place_new(&mut store, image, request, at) {
            Ok(placed) => {
                store.remember_content(self.hash, placed.placement);
                Some(placed.anchor_bytes)
            }
            Err(err) => {
                tracing::debug!("a sixel picture was not placed: {err}");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::graphics::picture_store::{self, PictureStore};
    use crate::pane::term::fidelity::Fidelity;
    use crate::pane::term::screen::ScreenView;
    use crate::pane::term::terminal_queries::PaneEvents;

    /// The screen, and the store its pictures went to.
    fn screen_after(
        rows: u16,
        cols: u16,
        pieces: &[&[u8]],
    ) -> (vt100::Parser<PaneEvents>, PictureStore) {
        let nz = |n| std::num::NonZeroU16::new(n).expect("a size");
        let mut parser =
            vt100::Parser::new_with_callbacks(nz(rows), nz(cols), 0, PaneEvents::default());
        let mut fidelity = Fidelity::live();
        for piece in pieces {
            fidelity.process(&mut parser, piece).expect("vt100 parses");
        }
        (parser, fidelity.pictures().clone())
    }

    /// A sixel picture 20 pixels wide and 40 tall (2 x 2 cells of 10 x 20),
    /// in a colour of its own so that tests running at once do not share
    /// its placement.
    fn sixel(colour: u8) -> Vec<u8> {
        let mut out = format!("\x1bPq\"1;1;20;40#1;2;{colour};0;0#1").into_bytes();
        for band in 0..7 {
            if band > 0 {
                out.push(b'-');
            }
            out.extend_from_slice(b"!20~");
        }
        out.extend_from_slice(b"\x1b\\");
        out
    }

    #[test]
    fn a_sixel_picture_is_anchored_at_the_cursor_and_the_text_goes_on() {
        let picture = sixel(11);
        // Cut in two, as output arrives.
        let (a, b) = picture.split_at(9);
        let (p, pictures) = screen_after(6, 10, &[b"ab\r\n  ", a, b, b"x"]);
        let screen = ScreenView::new(p.screen());
        let anchors = screen.picture_anchors();
        let at: Vec<(u16, u16, u16, u16)> = anchors
            .iter()
            .map(|(r, c, a)| (*r, *c, a.row, a.col))
            .collect();
        // Rows 1-3, columns 2-3; the cursor went to the last row, the
        // column it started in (xterm's): text printed there goes over
        // the picture's cells, as in xterm.
        assert_eq!(
            at,
            [
                (1, 2, 0, 0),
                (1, 3, 0, 1),
                (2, 2, 1, 0),
                (2, 3, 1, 1),
                (3, 3, 2, 1)
            ]
        );
        assert_eq!(screen.contents_between(3, 0, 3, 10).trim_end(), "  x");
        let placement = anchors[0].2.placement;
        let store = pictures.lock();
        let placed = store.placement(placement).expect("placed");
        assert_eq!((placed.cols, placed.rows), (2, 3));
        assert_eq!(store.image(placed.image).map(|i| i.height()), Some(42));
    }

    #[test]
    fn a_picture_larger_than_the_pane_or_cut_off_leaves_nothing() {
        let (p, _) = screen_after(2, 10, &[b"ab", &sixel(12), b"cd"]);
        let screen = ScreenView::new(p.screen());
        assert!(screen.picture_anchors().is_empty());
        assert_eq!(screen.contents(), "abcd");
        let mut cut = sixel(13);
        cut.truncate(cut.len() - 2);
        cut.extend_from_slice(b"\x18ok");
        let (p, _) = screen_after(6, 10, &[&cut]);
        let screen = ScreenView::new(p.screen());
        assert!(screen.picture_anchors().is_empty());
        assert_eq!(screen.contents(), "ok");
    }

    #[test]
    fn a_history_replay_keeps_the_place_of_a_picture_no_longer_stored() {
        let nz = |n| std::num::NonZeroU16::new(n).expect("a size");
        let mut parser = vt100::Parser::new_with_callbacks(nz(6), nz(10), 0, PaneEvents::default());
        Fidelity::history()
            .process(
                &mut parser,
                &[b"ab\r\n".as_slice(), &sixel(14), b"x"].concat(),
            )
            .expect("vt100 parses");
        let screen = ScreenView::new(parser.screen());
        // Two columns of three rows kept blank (placement 0: none), the
        // cursor where the picture left it.
        let anchors = screen.picture_anchors();
        assert_eq!(anchors.len(), 5);
        assert!(
            anchors
                .iter()
                .all(|a| a.2.placement == picture_store::PlacementId(0))
        );
        assert_eq!(screen.cursor_position(), (3, 1));
    }
}
