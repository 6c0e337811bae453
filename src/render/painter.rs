//! Sends the terminal only the rows a frame drew.
//!
//! ratatui's `Terminal::draw` clears its buffer, has every widget draw the
//! whole screen again and compares every cell with the previous frame. For
//! a key's echo that was most of the frame's cost: copying every pane's
//! cached image (~13 % of the loop's CPU in `perf`) and comparing ~6,000
//! cells (~17 %), to send one character.
//!
//! Here the buffer widgets draw into (ratatui's current buffer, which this
//! module never lets ratatui clear) keeps the previous frame. A frame with
//! the same shape as the last one (same panes in the same places, same
//! focus, no popups) redraws only what changed and marks those rows dirty;
//! only dirty rows are compared with what the terminal shows, using
//! ratatui's own diff, so the bytes sent are the same as before. Any other
//! frame is drawn in full, as ratatui would.

use ratatui::backend::Backend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::fit::Fit;
use crate::pane::PaneId;
use crate::render::cell_extras::{self, Features};

/// What decides whether a frame can reuse the previous one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameShape {
    pub panes: Vec<(PaneId, Rect)>,
    pub focused: Option<PaneId>,
    /// A popup, overlay, selection or copy mode draws over the panes.
    pub overlays: bool,
}

pub struct Painter {
    /// What the terminal shows.
    shown: Buffer,
    /// Rows drawn this frame.
    dirty: Vec<bool>,
    /// The next frame must be drawn in full (first frame, resize).
    full: bool,
    last_shape: Option<FrameShape>,
    /// Where the frame's cells land on the terminal (see `fit`).
    fit: Fit,
    /// What the terminal draws beyond ratatui's cells.
    features: Features,
    /// Whether a frame cell may hold a frame marker (see
    /// `cell_extras::draw`).
    markers: bool,
    /// Per terminal row, the columns the last flush wrote (first, last):
    /// a picture drawn there was written over (see `render::pictures`).
    written: Vec<Option<(u16, u16)>>,
    /// Whether to note them (pictures are shown): text alone costs nothing
    /// more.
    track_writes: bool,
}

impl Painter {
    pub fn new(area: Rect) -> Self {
        Self::fitted(Fit::new(area, area))
    }

    /// A painter for frames drawn at `fit.frame` on a terminal of
    /// `fit.terminal`.
    pub fn fitted(fit: Fit) -> Self {
        let area = fit.frame;
        // Widgets mark dirty rows by terminal row, which is the row from the
        // top of the area only for an area at the top left (the loop's is).
        debug_assert_eq!((area.x, area.y), (0, 0));
        Self {
            shown: Buffer::empty(area),
            dirty: vec![true; usize::from(area.height)],
            full: true,
            last_shape: None,
            fit,
            features: Features::default(),
            markers: false,
            written: Vec::new(),
            track_writes: false,
        }
    }

    /// The terminal attached (or another one): what it draws. The next
    /// frame is drawn in full.
    pub fn set_features(&mut self, features: Features) {
        self.features = features;
        self.full = true;
    }

    /// After the terminal or the frame changed size (the terminal was
    /// cleared).
    pub fn refitted(&mut self, fit: Fit) {
        let (features, markers) = (self.features, self.markers);
        *self = Self::fitted(fit);
        self.features = features;
        self.markers = markers;
    }

    /// Whether any frame drawn for this terminal has held a cell with a
    /// frame marker (the render cache tells: `RenderCache::markers_drawn`).
    pub fn set_markers(&mut self, drawn: bool) {
        self.markers = drawn;
    }

    pub fn fit(&self) -> Fit {
        self.fit
    }

    /// Starts a frame. Returns whether it is drawn in full: the caller then
    /// resets the buffer and draws everything.
    pub fn begin(&mut self, shape: FrameShape) -> bool {
        let full = self.full || shape.overlays || self.last_shape.as_ref() != Some(&shape);
        self.full = false;
        self.last_shape = Some(shape);
        self.dirty.fill(full);
        self.written.clear();
        full
    }

    /// Rows of this frame, to be marked when drawn.
    pub fn dirty_rows(&mut self) -> &mut [bool] {
        &mut self.dirty
    }

    /// Sends the dirty rows of `next` that differ from what the terminal
    /// shows, and remembers them as shown.
    pub fn flush<B: Backend>(&mut self, next: &Buffer, backend: &mut B) -> Result<(), B::Error> {
        if next.area != self.shown.area {
            // Cannot happen after `resized`; draw everything rather than
            // compare buffers of different shapes.
            self.shown = Buffer::empty(next.area);
            self.dirty = vec![true; usize::from(next.area.height)];
        }
        let dirty = self.dirty.iter().filter(|d| **d).count();
        if dirty == 0 {
            return Ok(());
        }
        let fit = self.fit;
        let written = &mut self.written;
        let mut note = |&(x, y, _): &(u16, u16, &ratatui::buffer::Cell)| {
            let y = usize::from(y);
            if written.len() <= y {
                written.resize(y + 1, None);
            }
            let span = written[y].get_or_insert((x, x));
            *span = (span.0.min(x), span.1.max(x));
        };
        if dirty * 2 >= self.dirty.len() {
            // A terminal the frame's size (nearly always) takes the cells
            // where they are: no look at each on the way.
            let note = self.track_writes.then_some(&mut note as Note<'_>);
            if fit.is_exact() {
                send(
                    backend,
                    self.shown.diff_iter(next),
                    self.features,
                    self.markers,
                    note,
                )?;
            } else {
                send(
                    backend,
                    fit.cells(self.shown.diff_iter(next)),
                    self.features,
                    self.markers,
                    note,
                )?;
            }
            self.shown.content.clone_from_slice(&next.content);
            return Ok(());
        }
        // Few rows: compare them band by band (copies of a few rows cost
        // less than comparing the whole screen). Bands count rows from the
        // top of the area.
        let bands = bands(&self.dirty);
        let pairs: Vec<(Buffer, Buffer)> = bands
            .iter()
            .map(|&(y, height)| (rows_of(&self.shown, y, height), rows_of(next, y, height)))
            .collect();
        let diffs = pairs.iter().flat_map(|(shown, next)| shown.diff_iter(next));
        let note = self.track_writes.then_some(&mut note as Note<'_>);
        if fit.is_exact() {
            send(backend, diffs, self.features, self.markers, note)?;
        } else {
            send(backend, fit.cells(diffs), self.features, self.markers, note)?;
        }
        let width = usize::from(next.area.width);
        for &(row, height) in &bands {
            let range = usize::from(row) * width..(usize::from(row) + usize::from(height)) * width;
            self.shown.content[range.clone()].clone_from_slice(&next.content[range]);
        }
        Ok(())
    }
}

/// What notes each cell a flush writes, when writes are tracked.
type Note<'n> = &'n mut dyn FnMut(&(u16, u16, &ratatui::buffer::Cell));

/// Draws `cells`, noting each when there is a `note`.
fn send<'a, B: Backend>(
    backend: &mut B,
    cells: impl Iterator<Item = (u16, u16, &'a ratatui::buffer::Cell)>,
    features: Features,
    markers: bool,
    note: Option<Note<'_>>,
) -> Result<(), B::Error> {
    match note {
        Some(note) => {
            cell_extras::draw(backend, cells.inspect(|cell| note(cell)), features, markers)
        }
        None => cell_extras::draw(backend, cells, features, markers),
    }
}

impl Painter {
    /// Whether flushes note the cells they write (for
    /// [`Painter::wrote_within`]).
    pub fn track_writes(&mut self, on: bool) {
        self.track_writes = on;
    }

    /// Whether the last flush wrote a cell in `rect` (terminal cells).
    pub fn wrote_within(&self, rect: Rect) -> bool {
        (rect.y..rect.bottom()).any(|y| {
            self.written
                .get(usize::from(y))
                .copied()
                .flatten()
                .is_some_and(|(from, to)| from < rect.right() && to >= rect.x)
        })
    }

    /// Writes the cells of `rect` (frame cells) as the terminal should
    /// show them, changed or not: a picture drawn over them is gone.
    pub fn repaint<B: Backend>(&self, rect: Rect, backend: &mut B) -> Result<(), B::Error> {
        let area = self.shown.area.intersection(rect);
        let cells = (area.y..area.bottom()).flat_map(|y| {
            (area.x..area.right())
                .filter_map(move |x| self.shown.cell((x, y)).map(|cell| (x, y, cell)))
        });
        cell_extras::draw(backend, self.fit.cells(cells), self.features, self.markers)
    }
}

fn bands(dirty: &[bool]) -> Vec<(u16, u16)> {
    let mut out: Vec<(u16, u16)> = Vec::new();
    for (y, _) in dirty.iter().enumerate().filter(|(_, d)| **d) {
        let Ok(y) = u16::try_from(y) else { break };
        match out.last_mut() {
            Some((start, height)) if *start + *height == y => *height += 1,
            _ => out.push((y, 1)),
        }
    }
    out
}

/// A buffer holding `height` rows of `buf` from row `row` of its area.
fn rows_of(buf: &Buffer, row: u16, height: u16) -> Buffer {
    let width = usize::from(buf.area.width);
    let start = usize::from(row) * width;
    Buffer {
        area: Rect {
            y: buf.area.y + row,
            height,
            ..buf.area
        },
        content: buf.content[start..start + usize::from(height) * width].to_vec(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;
    use ratatui::backend::TestBackend;
    use ratatui::style::{Color, Style};

    fn shape(overlays: bool) -> FrameShape {
        FrameShape {
            panes: vec![(PaneId(1), Rect::new(0, 0, 10, 4))],
            focused: Some(PaneId(1)),
            overlays,
        }
    }

    #[test]
    fn bands_group_consecutive_rows() {
        assert_eq!(
            bands(&[false, true, true, false, true]),
            vec![(1, 2), (4, 1)]
        );
        assert!(bands(&[false; 3]).is_empty());
    }

    #[test]
    fn only_the_same_shape_without_overlays_is_partial() {
        let mut p = Painter::new(Rect::new(0, 0, 10, 4));
        assert!(p.begin(shape(false)), "the first frame is full");
        assert!(!p.begin(shape(false)));
        assert!(p.begin(shape(true)));
        assert!(p.begin(shape(false)), "the frame after an overlay is full");
        assert!(!p.begin(shape(false)));
        p.refitted(Fit::new(Rect::new(0, 0, 12, 4), Rect::new(0, 0, 12, 4)));
        assert!(p.begin(shape(false)));
    }

    /// Partial frames leave the terminal exactly as full frames would.
    #[test]
    fn partial_frames_show_what_full_frames_show() {
        let area = Rect::new(0, 0, 12, 6);
        let mut backend = TestBackend::new(12, 6);
        let mut p = Painter::new(area);
        let mut next = Buffer::empty(area);
        assert!(p.begin(shape(false)));
        next.set_string(0, 0, "hello", Style::default());
        next.set_string(0, 5, "status", Style::default().fg(Color::Red));
        p.flush(&next, &mut backend).unwrap();
        backend.assert_buffer(&next);

        // A partial frame that draws row 2 (and marks it) and, wrongly,
        // also changes row 4 without marking it: only row 2 is sent.
        assert!(!p.begin(shape(false)));
        next.set_string(0, 2, "漢字 x", Style::default());
        p.dirty_rows()[2] = true;
        let mut unmarked = next.clone();
        unmarked.set_string(0, 4, "nope", Style::default());
        p.flush(&unmarked, &mut backend).unwrap();
        backend.assert_buffer(&next);

        // Overwriting a wide character with narrow ones and back.
        assert!(!p.begin(shape(false)));
        next.set_string(0, 2, "abcd", Style::default());
        p.dirty_rows()[2] = true;
        p.flush(&next, &mut backend).unwrap();
        backend.assert_buffer(&next);
    }
}
