//! Drawing the panes' pictures to one client's terminal, after the frame's
//! cells, inside the same synchronized update and the same `write(2)`.
//!
//! Each frame the drawer finds the pictures' anchors on every visible
//! pane's shown screen (only while the store holds a placement, and only
//! on a pane where anchors may have come since a look found none: text
//! alone costs nothing, see `bare`), groups them into rectangles of
//! cells (a picture cut by text or erases becomes several), cuts away what
//! a floating pane drawn later covers and what the terminal does not show
//! (its last row too: a sixel there may scroll the terminal), and compares
//! the pieces with those drawn last frame:
//! - a piece drawn last frame and not now is erased by writing its cells
//!   again (text written over a sixel replaces it in the terminal);
//! - a piece not drawn last frame, or whose cells the painter wrote this
//!   frame, is sent;
//! - a piece unchanged is not sent again.
//!
//! While a popup, an overlay or copy mode is up, no picture is drawn:
//! they would cover it. Only a terminal that said it speaks sixel gets
//! sixel; encoded pieces are kept (bounded) so a picture redrawn (a popup
//! closed) is not encoded again.

use std::collections::HashMap;
use std::io::Write as _;
use std::sync::Arc;

use ratatui::backend::Backend;
use ratatui::layout::Rect;

use crate::graphics::image::RgbaImage;
use crate::graphics::picture_store::{
    ImageId, PictureStore, PixelRect, Placement, PlacementId, Store,
};
use crate::graphics::reach::{self, CellPixels, Speaks};
use crate::graphics::sixel::encode;
use crate::pane::term::placeholder_cells::{placeholder_anchors, virtual_placements};
use crate::render::painter::Painter;
use crate::workspace::Workspace;

mod bare;
mod kitty_terminal;

use bare::BarePanes;

/// Encoded pieces kept per terminal, in bytes.
const ENCODED_CAP: usize = 32 << 20;
/// A piece of more pixels than this is encoded on a thread of its own
/// (tens of milliseconds for a large picture of short runs), drawn at the
/// first frame after it is ready; smaller ones are encoded in the frame.
const ENCODE_INLINE_PIXELS: u32 = 128 * 128;
/// Encodings on threads at once, per terminal.
const MAX_ENCODING: usize = 2;
/// Sixel bytes a frame sends at most (past its first piece): the rest go
/// in the next frames. A terminal takes a frame whole before the next is
/// drawn, so a key's echo waits behind at most this much, not behind
/// every picture a scroll moved (megabytes of noise-like pictures).
const FRAME_SIXEL_BYTES: usize = 256 << 10;
/// A sixel piece of more pixels than this is sent in bands of rows, each
/// a piece of its own, so [`FRAME_SIXEL_BYTES`] can split it over frames.
const BAND_PIXELS: u32 = 128 * 1024;

/// A rectangle of a placement on the terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Piece {
    placement: PlacementId,
    image: ImageId,
    /// The terminal's cells it covers.
    at: Rect,
    /// The pixels it shows, of the placement's picture as displayed
    /// (`display` pixels large).
    src: PixelRect,
    display: (u32, u32),
    /// The placement's part of the picture.
    source: PixelRect,
    /// Which of an animated picture's frames shows, and how it looked
    /// (see [`look_of`]; 0 for a still picture): another frame is drawn
    /// again.
    look: u64,
}

type EncodeKey = (ImageId, PixelRect, (u32, u32), PixelRect, u64);
/// Encodings a thread finished, for the drawer to take.
type Finished = Arc<std::sync::Mutex<Vec<(EncodeKey, Vec<u8>)>>>;

/// One client's pictures.
#[derive(Default)]
pub struct PictureDrawer {
    shown: Vec<Piece>,
    encoded: HashMap<EncodeKey, Arc<Vec<u8>>>,
    encoded_bytes: usize,
    /// Encodings under way on threads, and what they finished.
    encoding: Vec<EncodeKey>,
    finished: Finished,
    /// What a terminal that speaks kitty graphics shows (`kitty`).
    kitty: kitty_terminal::KittyPictures,
    /// Panes whose cells need no look this frame.
    bare: BarePanes,
    /// Pictures too large to scale for this terminal (said once).
    over_budget: OverBudget,
}

/// Leaves out the sixel pieces whose picture, scaled to this terminal's
/// cells, would not fit the `image_memory` budget, and says so in the log
/// once per terminal.
#[derive(Default)]
struct OverBudget {
    said: bool,
}

impl OverBudget {
    fn keep_within(&mut self, pieces: &mut Vec<Piece>, budget: usize) {
        let before = pieces.len();
        pieces.retain(|p| p.within(budget));
        if pieces.len() < before && !self.said {
            self.said = true;
            tracing::warn!(
                budget,
                "a picture scaled to this terminal's cells would be over image_memory: \
                 not drawn on it"
            );
        }
    }
}

/// What the drawer needs of the client.
pub struct Terminal<F: FnOnce() -> bool> {
    pub speaks: Speaks,
    /// Its cell's size in pixels (`None`: as the panes assumed).
    pub cell: Option<CellPixels>,
    /// Whether a popup, overlay or copy mode is up (asked only while
    /// pictures are placed).
    pub covered: F,
}

impl PictureDrawer {
    /// Draws the pictures after the frame's cells (the painter has
    /// flushed them): erases the pieces gone, sends the new ones.
    /// `write_raw` writes bytes of our own through the backend. With
    /// `defer` (a frame drawn early for a key's echo) nothing is sent: the
    /// echo stays a few bytes, not megabytes of pictures in front of the
    /// next key. Returns whether something was left for the next frame.
    pub fn draw<B: Backend, F: FnOnce() -> bool>(
        &mut self,
        ws: &Workspace,
        terminal: Terminal<F>,
        painter: &mut Painter,
        backend: &mut B,
        write_raw: fn(&mut B, &[u8]) -> std::io::Result<()>,
        defer: bool,
    ) -> std::io::Result<bool> {
        let store = ws.panes().spawner().pictures();
        if terminal.speaks.kitty {
            // Kitty placements: sent once, placed and deleted by id.
            let placed = store.lock().placements().next().is_some();
            let mut pieces = if placed && !(terminal.covered)() {
                pieces(ws, painter.fit().terminal, terminal.cell, &mut self.bare)
            } else {
                Vec::new()
            };
            // The terminal shows the current frame itself (it is sent the
            // frames and which is current).
            for piece in &mut pieces {
                piece.look = 0;
            }
            painter.track_writes(false);
            if defer && !self.kitty.shows(&pieces) {
                // A key's echo goes first; the next frame places them.
                return Ok(true);
            }
            let mut out = Vec::new();
            self.kitty.draw(store, &pieces, &mut out);
            if !out.is_empty() {
                write_raw(backend, &out)?;
            }
            return Ok(false);
        }
        let placed = terminal.speaks.sixel && store.lock().placements().next().is_some();
        let pieces = if placed && !(terminal.covered)() {
            let cell = terminal.cell.unwrap_or_else(|| told_cell(ws));
            let mut found = pieces(ws, painter.fit().terminal, terminal.cell, &mut self.bare);
            let budget = store.lock().budget();
            self.over_budget.keep_within(&mut found, budget);
            in_bands(found, u32::from(cell.height))
        } else {
            Vec::new()
        };
        if pieces.is_empty() && self.shown.is_empty() {
            painter.track_writes(false);
            return Ok(false);
        }
        if defer && self.shown != pieces {
            // What the painter wrote over is sent again next frame.
            self.shown.retain(|p| !painter.wrote_within(p.at));
            return Ok(true);
        }
        let gone: Vec<Rect> = self
            .shown
            .iter()
            .filter(|old| !pieces.contains(old))
            .map(|old| old.at)
            .collect();
        for rect in &gone {
            painter
                .repaint(*rect, backend)
                .map_err(|e| std::io::Error::other(e.to_string()))?;
        }
        let mut out = Vec::new();
        // Pieces whose encoding is not ready: drawn by a later frame.
        let mut waiting = Vec::new();
        for piece in &pieces {
            let due = !self.shown.contains(piece)
                || painter.wrote_within(piece.at)
                || gone.iter().any(|g| g.intersects(piece.at));
            if !due {
                continue;
            }
            if out.len() >= FRAME_SIXEL_BYTES {
                waiting.push(piece.clone());
                continue;
            }
            let Some(bytes) = self.encoded(store, piece) else {
                waiting.push(piece.clone());
                continue;
            };
            // DECSC/DECRC: the frame's cursor stays where the frame put it.
            let _ = write!(out, "\x1b7\x1b[{};{}H", piece.at.y + 1, piece.at.x + 1);
            out.extend_from_slice(&bytes);
            out.extend_from_slice(b"\x1b8");
        }
        if !out.is_empty() {
            tracing::debug!(
                pieces = pieces.len(),
                gone = gone.len(),
                bytes = out.len(),
                "pictures drawn"
            );
            write_raw(backend, &out)?;
        }
        painter.track_writes(!pieces.is_empty());
        let left = !waiting.is_empty();
        self.shown = pieces;
        self.shown.retain(|p| !waiting.contains(p));
        Ok(left)
    }

    /// The sixel of `piece` (of a picture in `store`), encoded once;
    /// `None` while a thread encodes it (or the picture is gone).
    fn encoded(&mut self, store: &PictureStore, piece: &Piece) -> Option<Arc<Vec<u8>>> {
        let key = (
            piece.image,
            piece.source,
            piece.display,
            piece.src,
            piece.look,
        );
        let finished = std::mem::take(
            &mut *self
                .finished
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        );
        for (done, bytes) in finished {
            self.encoding.retain(|k| *k != done);
            self.keep(done, bytes);
        }
        if let Some(bytes) = self.encoded.get(&key) {
            return Some(Arc::clone(bytes));
        }
        if self.encoding.contains(&key) {
            return None;
        }
        let image = store.lock().image(piece.image)?.clone();
        let job = piece.clone();
        if piece.pixels() > u64::from(ENCODE_INLINE_PIXELS) && self.encoding.len() < MAX_ENCODING {
            let finished = Arc::clone(&self.finished);
            let spawned = crate::jobs::named("sixel-encode", move || {
                if let Some(bytes) = encode_piece(&image, &job) {
                    finished
                        .lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .push((key, bytes));
                }
            });
            // A thread that cannot start is said in the log by
            // `jobs::named`: the piece is encoded here instead.
            if spawned.is_ok() {
                self.encoding.push(key);
                return None;
            }
            let image = store.lock().image(piece.image)?.clone();
            return self.keep(key, encode_piece(&image, piece)?);
        }
        if !self.encoding.is_empty() && piece.pixels() > u64::from(ENCODE_INLINE_PIXELS) {
            // Both threads busy: this one waits its turn.
            return None;
        }
        self.keep(key, encode_piece(&image, piece)?)
    }

    /// Keeps an encoding (within [`ENCODED_CAP`]).
    fn keep(&mut self, key: EncodeKey, bytes: Vec<u8>) -> Option<Arc<Vec<u8>>> {
        if self.encoded_bytes + bytes.len() > ENCODED_CAP {
            self.encoded.clear();
            self.encoded_bytes = 0;
        }
        self.encoded_bytes += bytes.len();
        let bytes = Arc::new(bytes);
        self.encoded.insert(key, Arc::clone(&bytes));
        Some(bytes)
    }
}

/// `pieces` with each of more than [`BAND_PIXELS`] cut into bands of
/// rows (a multiple of 3 rows: at 20 pixels a cell, whole sixel rows), for
/// cells `cell_height` pixels high.
fn in_bands(pieces: Vec<Piece>, cell_height: u32) -> Vec<Piece> {
    let cell_height = cell_height.max(1);
    let mut out = Vec::with_capacity(pieces.len());
    for piece in pieces {
        if piece.pixels() <= u64::from(BAND_PIXELS) || piece.at.height <= 3 {
            out.push(piece);
            continue;
        }
        let rows_fit =
            u64::from(BAND_PIXELS) / (u64::from(piece.src.width.max(1)) * u64::from(cell_height));
        let band = u16::try_from(rows_fit / 3 * 3).unwrap_or(u16::MAX).max(3);
        let mut top = 0;
        while top < piece.at.height {
            let rows = band.min(piece.at.height - top);
            let y = u64::from(top) * u64::from(cell_height);
            let Some(y) = u32::try_from(y).ok().filter(|&y| y < piece.src.height) else {
                break;
            };
            let mut part = piece.clone();
            part.at.y += top;
            part.at.height = rows;
            part.src.y += y;
            part.src.height = u32::try_from(u64::from(rows) * u64::from(cell_height))
                .unwrap_or(u32::MAX)
                .min(piece.src.height - y);
            out.push(part);
            top += rows;
        }
    }
    out
}

/// The sixel of `piece` of `image`.
fn encode_piece(image: &RgbaImage, piece: &Piece) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    if piece.display == (piece.source.width, piece.source.height) {
        let src = PixelRect {
            x: piece.source.x + piece.src.x,
            y: piece.source.y + piece.src.y,
            ..piece.src
        };
        encode::encode(image, src, &mut bytes);
    } else {
        let scaled = scaled_part(image, piece)?;
        encode::encode(&scaled, PixelRect::whole(&scaled), &mut bytes);
    }
    Some(bytes)
}

/// The part `piece.src` of the placement's picture scaled to
/// `piece.display` (nearest pixel).
fn scaled_part(image: &RgbaImage, piece: &Piece) -> Option<RgbaImage> {
    let (dw, dh) = piece.display;
    let s = piece.source;
    let (w, h) = (piece.src.width, piece.src.height);
    // Bounded by the budget (`Piece::within`); checked all the same.
    let bytes = usize::try_from(piece.pixels().checked_mul(4)?).ok()?;
    let mut pixels = Vec::new();
    pixels.try_reserve_exact(bytes).ok()?;
    let stride = image.width() as usize * 4;
    for y in 0..h {
        let sy = s.y
            + u32::try_from(
                u64::from(piece.src.y + y) * u64::from(s.height) / u64::from(dh.max(1)),
            )
            .ok()?;
        for x in 0..w {
            let sx = s.x
                + u32::try_from(
                    u64::from(piece.src.x + x) * u64::from(s.width) / u64::from(dw.max(1)),
                )
                .ok()?;
            let at = sy.min(image.height() - 1) as usize * stride
                + sx.min(image.width() - 1) as usize * 4;
            pixels.extend_from_slice(image.pixels().get(at..at + 4)?);
        }
    }
    RgbaImage::new(w, h, pixels).ok()
}

/// A rectangle of one placement's cells on a pane's screen.
#[derive(Debug, Clone, Copy)]
struct CellRect {
    placement: PlacementId,
    /// The placement's cell at its top left.
    row: u16,
    col: u16,
    /// Where it is, in frame cells.
    at: Rect,
}

/// The pieces of every visible placement this frame (the cells of panes
/// `bare` knows hold no anchor are not looked at).
fn pieces(
    ws: &Workspace,
    terminal: Rect,
    cell: Option<CellPixels>,
    bare: &mut BarePanes,
) -> Vec<Piece> {
    let visible = ws.tiling().visible(ws.tabs().shown());
    bare.keep_only(|id| visible.iter().any(|(v, _)| *v == id));
    let mut rects = Vec::new();
    for (i, &(id, rect)) in visible.iter().enumerate() {
        let Some(pane) = ws.panes().get(id) else {
            continue;
        };
        // Placeholder cells are text: any output may bring them, so a pane
        // with virtual placements is looked at each frame.
        let virtuals = virtual_placements(pane.term());
        let shown = BarePanes::shown(pane).filter(|_| virtuals.is_none());
        if bare.is_bare(id, shown) {
            continue;
        }
        let mut anchors = pane.screen().picture_anchors();
        bare.looked(id, shown, anchors.is_empty());
        if let Some(virtuals) = virtuals {
            anchors.extend(placeholder_anchors(pane.screen(), virtuals));
        }
        let inner = ws.tiling().content(rect, ws.tabs().is_floating(id));
        let found = cell_rects(anchors, inner);
        let above: Vec<Rect> = visible[i + 1..]
            .iter()
            .filter(|(other, _)| ws.tabs().is_floating(*other))
            .map(|(_, r)| *r)
            .collect();
        for r in found {
            let shown = Rect::new(0, 0, terminal.width, terminal.height.saturating_sub(1));
            let clipped = clip(r, shown);
            rects.extend(clipped.into_iter().flat_map(|r| cut_away(r, &above)));
        }
    }
    let assumed = told_cell(ws);
    let cell = cell.unwrap_or(assumed);
    let store = ws.panes().spawner().pictures().lock();
    rects
        .into_iter()
        .filter_map(|r| {
            let placement = store.placement(r.placement)?;
            let mut piece = piece_of(r, placement, cell, assumed)?;
            piece.look = look_of(&store, placement.image);
            Some(piece)
        })
        .collect()
}

/// The cell's size in pixels the panes' programs were told (the loop
/// tells every pane the same, see `pane::term::attached_facts`).
fn told_cell(ws: &Workspace) -> CellPixels {
    ws.panes().spawner().attached_facts().reach.cell_pixels()
}

/// Which frame of picture `image` shows now, and which version of it: 0
/// for a picture without frames.
fn look_of(store: &Store, image: ImageId) -> u64 {
    store.animation(image).map_or(0, |a| {
        // The frame's id, not its number: deleting a frame puts another
        // one at the same number.
        a.frames()
            .get(a.current())
            .map_or(0, |f| ((u64::from(f.id) + 1) << 32) | u64::from(f.version))
    })
}

/// The piece of placement `p` that `r` shows, on a terminal of `cell`
/// pixels a cell (`assumed`: what the pane's program was told). Every
/// product is checked: a size past `u32` is no piece.
fn piece_of(r: CellRect, p: &Placement, cell: CellPixels, assumed: CellPixels) -> Option<Piece> {
    let (cw, ch) = (u64::from(cell.width), u64::from(cell.height));
    let natural = p.cols == reach::cells_for(p.source.width, assumed.width)
        && p.rows == reach::cells_for(p.source.height, assumed.height);
    let wide = |n: u64| u32::try_from(n).ok();
    let display = if natural {
        (
            wide(u64::from(p.source.width) * cw / u64::from(assumed.width.max(1)))?,
            wide(u64::from(p.source.height) * ch / u64::from(assumed.height.max(1)))?,
        )
    } else {
        (wide(u64::from(p.cols) * cw)?, wide(u64::from(p.rows) * ch)?)
    };
    let x = wide(u64::from(r.col) * cw)?;
    let y = wide(u64::from(r.row) * ch)?;
    if x >= display.0 || y >= display.1 {
        return None;
    }
    let src = PixelRect {
        x,
        y,
        width: wide((u64::from(r.at.width) * cw).min(u64::from(display.0 - x)))?,
        height: wide((u64::from(r.at.height) * ch).min(u64::from(display.1 - y)))?,
    };
    Some(Piece {
        placement: r.placement,
        image: p.image,
        at: r.at,
        src,
        display,
        source: p.source,
        look: 0,
    })
}

impl Piece {
    /// Pixels of its part of the picture as displayed.
    fn pixels(&self) -> u64 {
        u64::from(self.src.width) * u64::from(self.src.height)
    }

    /// Whether it is drawn scaled (the terminal's cell is not the one the
    /// program was told): sixel then needs a scaled copy of the picture.
    fn scaled(&self) -> bool {
        self.display != (self.source.width, self.source.height)
    }

    /// Whether its picture, scaled to the terminal's cells, fits the
    /// `image_memory` budget (`budget` bytes) that bounds the pictures
    /// kept: a terminal claiming huge cells must not make a frame
    /// allocate past it.
    fn within(&self, budget: usize) -> bool {
        let bytes = u64::from(self.display.0) * u64::from(self.display.1) * 4;
        !self.scaled() || bytes <= u64::try_from(budget).unwrap_or(u64::MAX)
    }
}

/// Groups anchors (screen row, column, anchor) into rectangles: runs of a
/// row whose cells follow each other in the placement too, then runs of
/// the same columns on the rows below.
fn cell_rects(
    anchors: Vec<(u16, u16, crate::graphics::anchor::Anchor)>,
    inner: Rect,
) -> Vec<CellRect> {
    let mut runs: Vec<CellRect> = Vec::new();
    for (row, col, a) in anchors {
        if row >= inner.height || col >= inner.width {
            continue;
        }
        let (x, y) = (inner.x + col, inner.y + row);
        if let Some(last) = runs.last_mut()
            && last.placement == a.placement
            && last.at.y == y
            && last.row == a.row
            && last.at.right() == x
            && last.col + last.at.width == a.col
        {
            last.at.width += 1;
            continue;
        }
        runs.push(CellRect {
            placement: a.placement,
            row: a.row,
            col: a.col,
            at: Rect::new(x, y, 1, 1),
        });
    }
    let mut rects: Vec<CellRect> = Vec::new();
    for run in runs {
        if let Some(above) = rects.iter_mut().find(|r| {
            r.placement == run.placement
                && r.col == run.col
                && r.at.x == run.at.x
                && r.at.width == run.at.width
                && r.at.bottom() == run.at.y
                && r.row + r.at.height == run.row
        }) {
            above.at.height += 1;
        } else {
            rects.push(run);
        }
    }
    rects
}

/// `r` within `bounds`, its placement cell moved to match.
fn clip(r: CellRect, bounds: Rect) -> Option<CellRect> {
    let at = r.at.intersection(bounds);
    if at.is_empty() {
        return None;
    }
    Some(CellRect {
        row: r.row + (at.y - r.at.y),
        col: r.col + (at.x - r.at.x),
        at,
        ..r
    })
}

/// What of `r` no rectangle of `covers` covers, as rectangles.
fn cut_away(r: CellRect, covers: &[Rect]) -> Vec<CellRect> {
    let mut parts = vec![r];
    for cover in covers {
        let mut next = Vec::new();
        for part in parts {
            if !part.at.intersects(*cover) {
                next.push(part);
                continue;
            }
            let a = part.at;
            let bands = [
                // Above, below, then left and right of the cover.
                Rect::new(a.x, a.y, a.width, cover.y.saturating_sub(a.y)),
                Rect::new(
                    a.x,
                    cover.bottom().max(a.y),
                    a.width,
                    a.bottom().saturating_sub(cover.bottom()),
                ),
                Rect::new(
                    a.x,
                    cover.y.max(a.y),
                    cover.x.saturating_sub(a.x),
                    cover
                        .bottom()
                        .min(a.bottom())
                        .saturating_sub(cover.y.max(a.y)),
                ),
                Rect::new(
                    cover.right().max(a.x),
                    cover.y.max(a.y),
                    a.right().saturating_sub(cover.right()),
                    cover
                        .bottom()
                        .min(a.bottom())
                        .saturating_sub(cover.y.max(a.y)),
                ),
            ];
            next.extend(bands.into_iter().filter_map(|band| clip(part, band)));
        }
        parts = next;
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graphics::anchor::Anchor;

    fn rect_of(
        p: u32,
        rows: std::ops::Range<u16>,
        cols: std::ops::Range<u16>,
    ) -> Vec<(u16, u16, Anchor)> {
        let mut out = Vec::new();
        for row in rows.clone() {
            for col in cols.clone() {
                out.push((
                    row,
                    col,
                    Anchor {
                        placement: PlacementId(p),
                        row: row - rows.start,
                        col: col - cols.start,
                    },
                ));
            }
        }
        out
    }

    #[test]
    fn anchors_group_into_rectangles_and_text_over_them_cuts_them() {
        let inner = Rect::new(10, 5, 20, 10);
        let rects = cell_rects(rect_of(1, 2..5, 3..7), inner);
        assert_eq!(rects.len(), 1);
        assert_eq!(rects[0].at, Rect::new(13, 7, 4, 3));
        // The middle row's third cell written over: four rectangles.
        let mut anchors = rect_of(1, 2..5, 3..7);
        anchors.retain(|(r, c, _)| !(*r == 3 && *c == 5));
        let rects = cell_rects(anchors, inner);
        let ats: Vec<Rect> = rects.iter().map(|r| r.at).collect();
        assert_eq!(
            ats,
            [
                Rect::new(13, 7, 4, 1),
                Rect::new(13, 8, 2, 1),
                Rect::new(16, 8, 1, 1),
                Rect::new(13, 9, 4, 1)
            ]
        );
        assert_eq!((rects[2].row, rects[2].col), (1, 3));
    }

    #[test]
    fn a_large_sixel_piece_goes_in_bands_of_whole_sixel_rows_and_a_small_one_whole() {
        use crate::graphics::picture_store::ImageId;
        let whole = PixelRect {
            x: 0,
            y: 0,
            width: 500,
            height: 460,
        };
        let piece = Piece {
            placement: PlacementId(1),
            image: ImageId(1),
            at: Rect::new(2, 5, 50, 23),
            src: whole,
            display: (500, 460),
            source: whole,
            look: 0,
        };
        let bands = in_bands(vec![piece.clone()], 20);
        let ats: Vec<Rect> = bands.iter().map(|b| b.at).collect();
        assert_eq!(ats, [Rect::new(2, 5, 50, 12), Rect::new(2, 17, 50, 11)]);
        let srcs: Vec<(u32, u32)> = bands.iter().map(|b| (b.src.y, b.src.height)).collect();
        assert_eq!(srcs, [(0, 240), (240, 220)], "every pixel row once");
        let small = Piece {
            at: Rect::new(2, 5, 4, 2),
            src: PixelRect {
                width: 40,
                height: 40,
                ..whole
            },
            ..piece
        };
        assert_eq!(in_bands(vec![small.clone()], 20), [small]);
    }

    #[test]
    fn a_picture_scaled_for_huge_cells_is_no_piece_or_over_the_budget_never_an_overflow() {
        let placement = Placement {
            image: ImageId(1),
            source: PixelRect {
                x: 0,
                y: 0,
                width: 400,
                height: 200,
            },
            cols: 40,
            rows: 10,
            z: 0,
            origin: Default::default(),
        };
        let r = CellRect {
            placement: PlacementId(1),
            row: 9,
            col: 39,
            at: Rect::new(0, 0, 40, 10),
        };
        let assumed = reach::DEFAULT_CELL;
        let cell = |n| CellPixels {
            width: n,
            height: n,
        };
        // Cells no terminal has (refused where they are told, but not
        // trusted here either) and the largest cell believed: no product
        // overflows, and the scaled picture is over the default budget
        // (it is not drawn); at the cell the program was told, it is
        // drawn unscaled.
        for n in [u16::MAX, 512] {
            let piece = piece_of(r, &placement, cell(n), assumed).map(|p| p.within(64 << 20));
            assert_eq!(piece, Some(false), "{n}");
        }
        let same = piece_of(r, &placement, assumed, assumed).map(|p| (p.scaled(), p.within(0)));
        assert_eq!(same, Some((false, true)));
    }

    #[test]
    fn a_floating_pane_cuts_away_what_it_covers() {
        let r = CellRect {
            placement: PlacementId(1),
            row: 0,
            col: 0,
            at: Rect::new(0, 0, 10, 4),
        };
        let parts = cut_away(r, &[Rect::new(4, 1, 20, 2)]);
        let cells: u16 = parts.iter().map(|p| p.at.width * p.at.height).sum();
        assert_eq!(cells, 40 - 12);
        let right_of = parts
            .iter()
            .find(|p| p.at.y == 1)
            .map(|p| (p.at, p.row, p.col));
        assert_eq!(right_of, Some((Rect::new(0, 1, 4, 2), 1, 0)));
    }
}
