//! Each pane's cells as drawn last frame, so a frame converts only what
//! changed.
//!
//! Converting a pane's screen costs ~30 ns a cell (~180 µs for 104x59), most
//! of it the parser's own cell lookup, and ratatui clears its buffer every frame.
//! Here a pane unchanged since the last frame is copied from its cache; a
//! live pane whose changed rows are known (the pane's damage) converts just
//! those; otherwise it is compared with a clone of an earlier screen
//! (`rows_diff`, ~30 µs) and only the changed rows are converted. After a
//! frame in which most rows changed (a flood) no clone is kept: the next
//! such frame converts every row and compares it with the image instead.
//! Nor is the image itself, when the frame drawn in place holds it (see
//! `PaneCache::lent`): a flooding pane keeps no copy of its cells at all. In a frame
//! drawn early for a key's echo, other panes may show their cached cells
//! (at most one frame interval old); the next regular frame refreshes them.

use std::cell::Cell;

use std::collections::HashMap;

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};

use crate::config::keymap::Keymap;
use crate::input::ui_state::Mode;
use crate::pane::Pane;
use crate::pane::PaneId;
use crate::pane::term::damage::Damage;
use crate::pane::term::fidelity::colour_sets::ColourSets;
use crate::pane::term::screen::{ScreenSnapshot, ScreenView};
use crate::render::pane_colours;
use crate::render::pane_view::render_row;
use crate::render::status_bar::hints_for;

/// A cache entry's generation before its first image: no image to reuse.
const NEVER_DRAWN: u64 = u64::MAX;
/// An image drawn from a screen with output still held back: redrawn next
/// frame whatever the pane's damage generation.
const DRAWN_BEHIND: u64 = u64::MAX - 1;

struct PaneCache {
    /// The pane's image, unless `lent`.
    buf: Buffer,
    /// The image's size (`buf`'s area while it holds the image).
    size: Rect,
    /// The image is not kept in `buf` but in the frame, at `placed`. While
    /// most rows change every frame (a flood) a copy of them would only be
    /// overwritten, and costs ~0.3 MB for a 104x59 pane: the changed rows
    /// are drawn straight into the frame (which keeps the last frame, see
    /// `painter`). A frame that cannot draw in place there makes the image
    /// anew (one conversion of every row).
    lent: bool,
    /// The pane's damage generation the image shows.
    generation: u64,
    live: bool,
    /// A live screen `buf` showed, for `rows_changed_since`: as of the last frame
    /// whose damage was not exact rows, except for `prev_behind` rows.
    /// `None` while most rows change from frame to frame.
    prev: Option<ScreenSnapshot>,
    /// Rows redrawn from exact damage since `prev` was taken. Cloning the
    /// screen costs as much as the rest of an echo's frame together, and a
    /// typed key damages one row: `prev` stays, and a later comparison
    /// redraws these rows as well (they may differ from `prev` and from
    /// the screen both).
    prev_behind: Damage,
    /// Where `buf` was last copied into the frame; `None` after a full
    /// rebuild, so the next copy is whole.
    placed: Option<Rect>,
    /// Rows of `buf` converted since it was last copied into the frame.
    changed: Vec<u16>,
    /// The pane's damage since `buf` was made, and the damage generation
    /// that covers (see [`RenderCache::note_changes`]). The loop notes
    /// damage right before every frame, so the generation always matches
    /// there; the check keeps a caller that does not note it (tests,
    /// benches) correct, comparing screens instead.
    damage: Damage,
    damage_generation: u64,
    /// The generation of the pane's colour sets the image shows.
    colours: u64,
    /// The cache's frame count when this pane was last drawn.
    drawn_in: u64,
}

/// What a pane's border shows, as far as telling it changed goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BorderKey {
    pub focused: bool,
    pub zoomed: bool,
    /// tmux's marked pane (`C-b m`).
    pub marked: bool,
    /// The pane's [`Pane::border_generation`].
    pub generation: u64,
}

/// A pane's damage as taken, with the damage generation it was taken at.
pub type PaneDamage = (PaneId, crate::pane::term::damage::Damage, u64);

/// Takes each pane's damage, for every client's cache to note.
pub fn take_damage<'a>(panes: impl IntoIterator<Item = &'a mut Pane>) -> Vec<PaneDamage> {
    panes
        .into_iter()
        .map(|pane| (pane.id, pane.take_damage(), pane.damage_generation()))
        .collect()
}

#[derive(Default)]
pub struct RenderCache {
    panes: HashMap<PaneId, PaneCache>,
    /// What each pane's border showed last frame.
    borders: HashMap<PaneId, BorderKey>,
    /// What the status bar showed last frame.
    bar: u64,
    /// The status bar's key hints and what they were made from.
    hints: Option<(Keymap, Mode, String)>,
    /// Frames begun ([`RenderCache::sweep`]), to tell the panes drawn in
    /// the last one.
    frame: u64,
    /// Whether a pane cell drawn here ever got a frame marker (see
    /// [`Self::markers_drawn`]).
    markers: Cell<bool>,
}

impl RenderCache {
    /// Whether any pane cell drawn for this terminal has had a frame marker
    /// (`render::cell_extras`): until one has, the painter hands cells on
    /// without a look at each.
    pub fn markers_drawn(&self) -> bool {
        self.markers.get()
    }

    /// Whether a pane's border differs from last frame's (`key` says what it
    /// shows); remembers it.
    pub fn border_changed(&mut self, id: PaneId, key: BorderKey) -> bool {
        if self.borders.get(&id) == Some(&key) {
            return false;
        }
        self.borders.insert(id, key);
        true
    }

    /// Takes each pane's damage, so a pane whose changed rows are known
    /// needs no comparison of its screens. Call before drawing; without it
    /// panes are compared as before.
    pub fn note_changes<'a>(&mut self, panes: impl IntoIterator<Item = &'a mut Pane>) {
        self.note_damage(&take_damage(panes));
    }

    /// Notes damage [`take_damage`] took: each client's cache is handed
    /// the same, taken once per frame.
    pub fn note_damage(&mut self, damage: &[PaneDamage]) {
        for &(id, damage, generation) in damage {
            if let Some(entry) = self.panes.get_mut(&id) {
                entry.damage = entry.damage.merge(damage);
                entry.damage_generation = generation;
            }
        }
    }

    /// Has the next frame copy pane `id`'s whole image, not only the rows
    /// that changed: something was drawn over it (a divider-style badge).
    pub fn redraw_whole(&mut self, id: PaneId) {
        if let Some(entry) = self.panes.get_mut(&id) {
            entry.placed = None;
        }
    }

    /// Has the next frame draw pane `id`'s border again.
    pub fn forget_border(&mut self, id: PaneId) {
        self.borders.remove(&id);
    }

    /// The status bar's key hints for `keymap` in `mode`, made again only
    /// when either changed.
    pub fn status_hints(&mut self, keymap: &Keymap, mode: Mode) -> &str {
        let fresh = self
            .hints
            .as_ref()
            .is_some_and(|(k, m, _)| *m == mode && k == keymap);
        if !fresh {
            self.hints = Some((keymap.clone(), mode, hints_for(keymap, mode)));
        }
        self.hints
            .as_ref()
            .map_or("", |(_, _, hints)| hints.as_str())
    }

    /// Whether the status bar differs from last frame's (`key` says what it
    /// shows); remembers it.
    pub fn bar_changed(&mut self, key: u64) -> bool {
        if self.bar == key {
            return false;
        }
        self.bar = key;
        true
    }

    /// Draws `pane` into `frame` at `inner`. With `may_be_stale`, a cached
    /// image of the right size is used even if the pane changed since.
    /// With `in_place`, `frame` still holds the previous frame: only rows
    /// that changed are copied, and marked there. Returns whether the drawn
    /// image is stale.
    pub fn draw(
        &mut self,
        pane: &Pane,
        inner: Rect,
        frame: &mut Buffer,
        may_be_stale: bool,
        in_place: Option<&mut [bool]>,
    ) -> bool {
        let inner = inner.intersection(frame.area);
        if inner.width == 0 || inner.height == 0 {
            return false;
        }
        let size = Rect::new(0, 0, inner.width, inner.height);
        let live = !pane.history().is_scrolled();
        // A pane with held-back output shows an older screen: as stale as a
        // cached image, and as soon refreshed.
        let behind = live && !pane.term().is_settled();
        let may_be_stale = may_be_stale || behind;
        let entry = self.panes.entry(pane.id).or_insert_with(|| PaneCache {
            buf: Buffer::empty(Rect::default()),
            size: Rect::default(),
            lent: false,
            generation: NEVER_DRAWN,
            live,
            prev: None,
            prev_behind: Damage::None,
            placed: None,
            changed: Vec::new(),
            damage: Damage::Full,
            damage_generation: NEVER_DRAWN,
            colours: 0,
            drawn_in: 0,
        });
        entry.drawn_in = self.frame;
        let colours = pane.term().colour_sets().generation();
        if entry.colours != colours {
            // Every cell may take other colours, though the screen is the
            // same: compared with the image, not with a copy of the screen.
            entry.colours = colours;
            entry.prev = None;
            entry.damage = Damage::Full;
        }
        let generation = pane.damage_generation();
        let same_shape = entry.size == size && entry.live == live;
        let partial = in_place.is_some();
        let in_place_here = partial && entry.placed == Some(inner);
        let grid_kept = entry
            .prev
            .as_ref()
            .is_none_or(|prev| prev.size() == pane.screen().size());
        if entry.lent && !(in_place_here && same_shape && grid_kept) {
            // The frame no longer holds the image where it was: make it anew.
            entry.lent = false;
            entry.size = Rect::default();
            entry.generation = NEVER_DRAWN;
            entry.prev = None;
        }
        let same_shape = entry.size == size && entry.live == live;
        let up_to_date = same_shape && entry.generation == generation;
        let look = Look {
            screen: pane.screen(),
            colours: pane.term().colour_sets(),
            marked: &self.markers,
        };
        let mut stale = false;
        let mut mostly_changed = false;
        if !up_to_date {
            if may_be_stale && same_shape && entry.generation != NEVER_DRAWN {
                stale = true;
            } else {
                mostly_changed = if entry.lent {
                    update(entry, frame, inner, look, size, live, generation)
                } else {
                    let mut own = std::mem::take(&mut entry.buf);
                    let mostly = update(entry, &mut own, size, look, size, live, generation);
                    entry.buf = own;
                    mostly
                };
                if behind {
                    // Not the newest image: draw it again next frame.
                    entry.generation = DRAWN_BEHIND;
                    stale = true;
                }
            }
        }
        match in_place {
            Some(dirty) if entry.lent => {
                // Drawn into the frame already.
                for &row in &entry.changed {
                    if let Some(d) = dirty.get_mut(usize::from(inner.y + row)) {
                        *d = true;
                    }
                }
            }
            Some(dirty) if entry.placed == Some(inner) => {
                for &row in &entry.changed {
                    blit_row(&entry.buf, inner, row, frame);
                    if let Some(d) = dirty.get_mut(usize::from(inner.y + row)) {
                        *d = true;
                    }
                }
            }
            Some(dirty) => {
                blit(&entry.buf, inner, frame);
                for d in dirty
                    .iter_mut()
                    .skip(usize::from(inner.y))
                    .take(usize::from(inner.height))
                {
                    *d = true;
                }
            }
            None => blit(&entry.buf, inner, frame),
        }
        if mostly_changed && !entry.lent && partial && live {
            // The frame holds the image now (it keeps it for the next
            // frame, drawn in place): no copy of it is kept.
            entry.buf = Buffer::default();
            entry.lent = true;
        }
        entry.placed = Some(inner);
        entry.changed.clear();
        stale
    }

    /// Begins a frame: forgets panes that no longer exist, and the images
    /// of panes the last frame did not draw (another tab's, a zoom's hidden
    /// ones). An image is about a screen's worth of cells plus a copy of
    /// the screen (~0.9 MB at 200x60): kept for every pane of every tab, it
    /// was most of an idle pane's memory. Showing such a pane again
    /// converts its rows once, as its first frame did.
    pub fn sweep(&mut self, alive: impl Fn(PaneId) -> bool) {
        let last = self.frame;
        self.frame += 1;
        self.panes
            .retain(|id, entry| entry.drawn_in == last && alive(*id));
        self.borders.retain(|id, _| alive(*id));
    }
}

/// Brings the image (in `image` at `at`: the cache's own buffer, or the
/// frame when lent) up to date with `screen`, noting the rows it drew in
/// `entry.changed`. Returns whether most rows changed (and no clone of the
/// screen was kept).
fn update(
    entry: &mut PaneCache,
    image: &mut Buffer,
    at: Rect,
    look: Look<'_>,
    size: Rect,
    live: bool,
    generation: u64,
) -> bool {
    let screen = look.screen;
    let rows = size.height.min(screen.size().0.get());
    // The image shows the same grid: it can be brought up to date row by row.
    let in_place = live
        && entry.live
        && entry.size == size
        && entry
            .prev
            .as_ref()
            .is_none_or(|prev| prev.size() == screen.size());
    // The pane's damage, if that covers every change since the image.
    let damage = std::mem::take(&mut entry.damage);
    let damage = if entry.damage_generation == generation {
        damage
    } else {
        Damage::Full
    };
    let mut mostly_changed = false;
    match (in_place, damage) {
        (true, Damage::None) => {}
        (true, Damage::Rows(first, last)) => {
            for row in first..=last.min(rows.saturating_sub(1)) {
                draw_row(look, row, at, image);
                entry.changed.push(row);
            }
            entry.prev_behind = entry.prev_behind.merge(Damage::Rows(first, last));
        }
        (true, Damage::Full) => {
            // Taken: the old clone is gone before a new one is made (two
            // at once were part of a flood's peak memory).
            let changed = match entry.prev.take() {
                Some(prev) => redraw_differing(entry, &prev, look, rows, image, at),
                None => redraw_compared(entry, look, rows, image, at),
            };
            // Most rows changed (a flood, a full repaint): the next frame
            // likely changes them again, and a clone to compare with would
            // save little and cost its copy and ~0.2 MB for a 104x59 pane.
            // Without one the next frame compares with the image itself.
            mostly_changed = changed * 2 >= usize::from(rows);
            entry.prev = (!mostly_changed).then(|| screen.snapshot());
            entry.prev_behind = Damage::None;
        }
        (false, _) => {
            // Only ever the cache's own buffer: `draw` takes a lent image
            // back first whenever this would be the way.
            if image.area == size {
                image.reset();
            } else {
                // Freed before the new one is made.
                *image = Buffer::default();
                *image = Buffer::empty(size);
            }
            for row in 0..rows {
                draw_row(look, row, size, image);
            }
            entry.placed = None;
            // History screens carry their whole scrollback: too big to
            // clone per frame, and they only change when the user scrolls.
            entry.prev = None;
            entry.prev = live.then(|| screen.snapshot());
            entry.prev_behind = Damage::None;
        }
    }
    entry.size = size;
    entry.live = live;
    entry.generation = generation;
    mostly_changed
}

/// Redraws the rows of `screen` that differ from `prev` (or were drawn
/// since `prev` was taken); returns how many.
fn redraw_differing(
    entry: &mut PaneCache,
    prev: &ScreenSnapshot,
    look: Look<'_>,
    rows: u16,
    image: &mut Buffer,
    at: Rect,
) -> usize {
    let behind = |row: u16| match entry.prev_behind {
        Damage::None => false,
        Damage::Rows(first, last) => (first..=last).contains(&row),
        Damage::Full => true,
    };
    let mut changed = 0;
    for (row, differs) in look.screen.rows_changed_since(prev).enumerate() {
        let Ok(row) = u16::try_from(row) else { break };
        if row >= rows {
            break;
        }
        if differs || behind(row) {
            draw_row(look, row, at, image);
            entry.changed.push(row);
            changed += 1;
        }
    }
    changed
}

/// Without an earlier screen to compare with: draws every row aside and
/// takes those that differ from the image; returns how many. Costs the
/// conversion of every row (~180 µs for 104x59), which a frame where most
/// rows changed pays anyway.
fn redraw_compared(
    entry: &mut PaneCache,
    look: Look<'_>,
    rows: u16,
    image: &mut Buffer,
    at: Rect,
) -> usize {
    let width = usize::from(at.width);
    let mut line = Buffer::empty(Rect::new(at.x, at.y, at.width, 1));
    let mut changed = 0;
    for row in 0..rows {
        // `render_row` draws row `row` on line `at.y + row` of its buffer.
        line.area.y = at.y + row;
        draw_row(look, row, at, &mut line);
        let Some(start) = index_of(image, Position::new(at.x, at.y + row)) else {
            break;
        };
        if let Some(shown) = image.content.get_mut(start..start + width)
            && *shown != line.content[..]
        {
            shown.clone_from_slice(&line.content);
            entry.changed.push(row);
            changed += 1;
        }
    }
    changed
}

/// A pane's screen as shown, with the colours its program set.
#[derive(Clone, Copy)]
struct Look<'a> {
    screen: ScreenView<'a>,
    colours: &'a ColourSets,
    /// Set when a drawn cell gets a frame marker ([`RenderCache::markers_drawn`]).
    marked: &'a Cell<bool>,
}

/// `render_row`, then the program's colours over the default ones.
fn draw_row(look: Look<'_>, row: u16, at: Rect, buf: &mut Buffer) {
    if render_row(look.screen, row, at, buf) {
        look.marked.set(true);
    }
    if !look.colours.is_empty() {
        pane_colours::recolour_line(buf, at, row, look.colours);
    }
}

/// Where `at` is in `buf`'s cells, if inside it.
fn index_of(buf: &Buffer, at: Position) -> Option<usize> {
    buf.area.contains(at).then(|| {
        usize::from(at.y - buf.area.y) * usize::from(buf.area.width)
            + usize::from(at.x - buf.area.x)
    })
}

fn blit(src: &Buffer, at: Rect, frame: &mut Buffer) {
    for row in 0..at.height.min(src.area.height) {
        blit_row(src, at, row, frame);
    }
}

fn blit_row(src: &Buffer, at: Rect, row: u16, frame: &mut Buffer) {
    if row >= at.height.min(src.area.height) {
        return;
    }
    let w = usize::from(at.width.min(src.area.width));
    let from = usize::from(row) * usize::from(src.area.width);
    let to = frame.index_of(at.x, at.y + row);
    if let (Some(dst), Some(line)) = (
        frame.content.get_mut(to..to + w),
        src.content.get(from..from + w),
    ) {
        dst.clone_from_slice(line);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::render::pane_view::PaneWidget;
    use ratatui::widgets::Widget;

    fn full(pane: &Pane, area: Rect) -> Buffer {
        let mut b = Buffer::empty(area);
        PaneWidget::new(pane.screen()).render(area, &mut b);
        b
    }

    /// Incremental drawing must equal drawing from scratch, chunk after
    /// chunk, for output that moves the cursor, scrolls, colours and uses
    /// wide characters.
    #[test]
    fn incremental_frames_equal_full_frames() {
        let mut pane = Pane::detached(PaneId(1), 12, 30, 1 << 20);
        let area = Rect::new(3, 2, 30, 12);
        let mut cache = RenderCache::default();
        let mut frame = Buffer::empty(Rect::new(0, 0, 40, 20));
        let chunks: Vec<Vec<u8>> = (0..200)
            .map(|i| match i % 7 {
                0 => format!("\x1b[3{}mline {i}\x1b[m\r\n", i % 8).into_bytes(),
                1 => format!("\x1b[{};{}H日本{i}", i % 12 + 1, i % 25 + 1).into_bytes(),
                2 => b"x".to_vec(),
                3 => format!("\x1b[{}A\x1b[K", i % 5).into_bytes(),
                4 => "🚀 wide at edge abcdefghijklmnopqrstuvwxyz\r\n"
                    .as_bytes()
                    .to_vec(),
                5 => b"\x1b[7minverse\x1b[27m \x1b[1;4mbold\x1b[m".to_vec(),
                _ => b"\x1b[2J\x1b[H".to_vec(),
            })
            .collect();
        for chunk in chunks {
            pane.feed(chunk);
            pane.settle();
            frame.reset();
            assert!(!cache.draw(&pane, area, &mut frame, false, None));
            let expected = full(&pane, area);
            for y in 0..area.height {
                for x in 0..area.width {
                    assert_eq!(
                        frame[(area.x + x, area.y + y)],
                        expected[(area.x + x, area.y + y)],
                        "cell ({x}, {y}) differs"
                    );
                }
            }
        }
    }

    fn assert_frame_is_full(frame: &Buffer, pane: &Pane, area: Rect, what: &str) {
        let expected = full(pane, area);
        for y in 0..area.height {
            for x in 0..area.width {
                assert_eq!(
                    frame[(area.x + x, area.y + y)],
                    expected[(area.x + x, area.y + y)],
                    "{what}: cell ({x}, {y}) differs"
                );
            }
        }
    }

    /// With the pane's damage noted (as the loop does), rows drawn from
    /// exact damage leave the compared-against screen behind: a later
    /// full comparison must still redraw them, even where the screen went
    /// back to what that older screen showed.
    #[test]
    fn rows_drawn_from_damage_are_redrawn_when_the_screen_goes_back() {
        let mut pane = Pane::detached(PaneId(1), 5, 10, 1 << 20);
        let area = Rect::new(0, 0, 10, 5);
        let mut cache = RenderCache::default();
        let mut frame = Buffer::empty(area);
        for (chunk, what) in [
            (&b"a"[..], "first image"),
            (b"b", "a typed key: one row"),
            (b"c", "another key"),
            (b"[2J[Ha", "cleared back to the first image"),
        ] {
            pane.feed(chunk.to_vec());
            pane.settle();
            cache.note_changes([&mut pane]);
            frame.reset();
            cache.draw(&pane, area, &mut frame, false, None);
            assert_frame_is_full(&frame, &pane, area, what);
        }
    }

    #[test]
    fn incremental_frames_with_damage_equal_full_frames() {
        let mut pane = Pane::detached(PaneId(1), 12, 30, 1 << 20);
        let area = Rect::new(3, 2, 30, 12);
        let mut cache = RenderCache::default();
        let mut frame = Buffer::empty(Rect::new(0, 0, 40, 20));
        for i in 0..300 {
            let chunk = match i % 6 {
                0 => format!("\x1b[3{}mline {i}\x1b[m\r\n", i % 8).into_bytes(),
                1 => format!("\x1b[{};{}H日本{i}", i % 12 + 1, i % 25 + 1).into_bytes(),
                2 | 3 => vec![b'a' + (i % 26) as u8],
                4 => b"\x08\x08\x1b[K".to_vec(),
                _ => b"\x1b[2J\x1b[H".to_vec(),
            };
            pane.feed(chunk);
            pane.settle();
            cache.note_changes([&mut pane]);
            frame.reset();
            cache.draw(&pane, area, &mut frame, false, None);
            assert_frame_is_full(&frame, &pane, area, &format!("chunk {i}"));
        }
    }

    /// A flood changes every row each frame: the cache keeps no clone of
    /// the screen then (memory), and the frames that follow, a flood or a
    /// typed key, still show what a full drawing shows.
    #[test]
    fn frames_after_a_flood_keep_no_clone_and_show_the_screen() {
        let mut pane = Pane::detached(PaneId(1), 6, 20, 1 << 20);
        let area = Rect::new(0, 0, 20, 6);
        let mut cache = RenderCache::default();
        let mut frame = Buffer::empty(area);
        let mut draw = |pane: &mut Pane, bytes: &[u8], what: &str| {
            pane.feed(bytes.to_vec());
            pane.settle();
            cache.note_changes([&mut *pane]);
            frame.reset();
            cache.draw(pane, area, &mut frame, false, None);
            assert_frame_is_full(&frame, pane, area, what);
            cache.panes[&pane.id].prev.is_some()
        };
        draw(&mut pane, b"$ ", "the prompt");
        for i in 0..4 {
            let flood: String = (0..8).map(|n| format!("line {i}-{n}\r\n")).collect();
            assert!(
                !draw(&mut pane, flood.as_bytes(), "a flood"),
                "no clone kept"
            );
        }
        // A cursor move: the damage is not exact rows, so the image is
        // compared; one row changed, so a clone is kept again.
        assert!(draw(&mut pane, b"\x1b[2;3Hx", "an editor's echo"));
        assert!(draw(&mut pane, b"\x1b[2;4Hy", "the next key"));
    }

    /// Frames drawn in place (the frame keeps the last one): during a
    /// flood the cache lends its image to the frame and keeps no copy; the
    /// frame still shows what a full drawing shows, through the flood, a
    /// frame that cannot draw in place, and the keys typed after.
    #[test]
    fn a_flooding_pane_lends_its_image_to_the_frame() {
        let mut pane = Pane::detached(PaneId(1), 6, 20, 1 << 20);
        let area = Rect::new(2, 1, 20, 6);
        let mut cache = RenderCache::default();
        let mut frame = Buffer::empty(Rect::new(0, 0, 24, 8));
        let mut dirty = [false; 8];
        let mut draw = |pane: &mut Pane, bytes: &[u8], in_place: bool, what: &str| {
            pane.feed(bytes.to_vec());
            pane.settle();
            cache.note_changes([&mut *pane]);
            if !in_place {
                frame.reset();
            }
            dirty.fill(false);
            cache.draw(
                pane,
                area,
                &mut frame,
                false,
                in_place.then_some(&mut dirty[..]),
            );
            assert_frame_is_full(&frame, pane, area, what);
            let entry = &cache.panes[&pane.id];
            assert_eq!(entry.lent, entry.buf.content.is_empty(), "{what}");
            entry.lent
        };
        assert!(!draw(&mut pane, b"$ ", false, "the prompt"));
        assert!(!draw(&mut pane, b"ls\r\n", true, "a line"));
        let flood = |i: usize| -> String { (0..8).map(|n| format!("line {i}-{n}\r\n")).collect() };
        assert!(
            draw(&mut pane, flood(0).as_bytes(), true, "a flood"),
            "lent"
        );
        for i in 1..4 {
            assert!(draw(&mut pane, flood(i).as_bytes(), true, "more flood"));
        }
        assert!(!draw(
            &mut pane,
            flood(4).as_bytes(),
            false,
            "a frame drawn in full"
        ));
        assert!(draw(
            &mut pane,
            flood(5).as_bytes(),
            true,
            "the flood again"
        ));
        assert!(draw(&mut pane, b"x", true, "a key's echo"));
        assert!(draw(&mut pane, b"\x1b[2;3Hy", true, "an editor's echo"));
        assert!(draw(&mut pane, b"", true, "nothing new"));
    }

    #[test]
    fn output_not_yet_parsed_is_drawn_as_stale_and_redrawn_when_parsed() {
        let mut pane = Pane::detached(PaneId(1), 5, 10, 1 << 20);
        let area = Rect::new(0, 0, 10, 5);
        let mut cache = RenderCache::default();
        let mut frame = Buffer::empty(area);
        pane.feed(b"one".to_vec());
        assert!(!pane.term().is_settled());
        // Nothing cached yet: the older screen is drawn, marked stale.
        assert!(cache.draw(&pane, area, &mut frame, false, None));
        pane.settle();
        frame.reset();
        assert!(!cache.draw(&pane, area, &mut frame, false, None));
        assert_eq!(frame[(2, 0)].symbol(), "e");
    }

    #[test]
    fn the_cache_says_once_a_drawn_cell_carries_a_frame_marker() {
        let mut pane = Pane::detached(PaneId(1), 5, 20, 1 << 20);
        let area = Rect::new(0, 0, 20, 5);
        let mut cache = RenderCache::default();
        let mut frame = Buffer::empty(area);
        pane.feed(b"\x1b[1;31mplain\x1b[m".to_vec());
        pane.settle();
        cache.draw(&pane, area, &mut frame, false, None);
        assert!(!cache.markers_drawn(), "colours alone need no marker");
        // A curly underline is drawn by `cell_extras`, through a marker.
        pane.feed(b"\r\n\x1b[4:3mcurly\x1b[m".to_vec());
        pane.settle();
        cache.draw(&pane, area, &mut frame, false, None);
        assert!(cache.markers_drawn());
        // Another client's cache has drawn none.
        assert!(!RenderCache::default().markers_drawn());
    }

    #[test]
    fn a_stale_image_is_allowed_only_when_asked() {
        let mut pane = Pane::detached(PaneId(1), 5, 10, 1 << 20);
        let area = Rect::new(0, 0, 10, 5);
        let mut cache = RenderCache::default();
        let mut frame = Buffer::empty(area);
        pane.feed(b"one".to_vec());
        pane.settle();
        cache.draw(&pane, area, &mut frame, false, None);
        pane.feed(b" two".to_vec());
        pane.settle();
        frame.reset();
        assert!(cache.draw(&pane, area, &mut frame, true, None));
        assert_eq!(frame[(4, 0)].symbol(), " ");
        frame.reset();
        assert!(!cache.draw(&pane, area, &mut frame, false, None));
        assert_eq!(frame[(4, 0)].symbol(), "t");
    }

    /// A pane another tab shows keeps no image: only the panes the last
    /// frame drew hold one, and a pane shown again is drawn whole.
    #[test]
    fn images_of_panes_the_last_frame_did_not_draw_are_forgotten() {
        let mut shown = Pane::detached(PaneId(1), 5, 10, 1 << 20);
        let mut hidden = Pane::detached(PaneId(2), 5, 10, 1 << 20);
        let area = Rect::new(0, 0, 10, 5);
        let mut cache = RenderCache::default();
        let mut frame = Buffer::empty(area);
        for pane in [&mut shown, &mut hidden] {
            pane.feed(format!("pane {}", pane.id.0).into_bytes());
            pane.settle();
        }
        cache.sweep(|_| true);
        cache.draw(&shown, area, &mut frame, false, None);
        cache.draw(&hidden, area, &mut frame, false, None);
        cache.sweep(|_| true);
        cache.draw(&shown, area, &mut frame, false, None);
        cache.sweep(|_| true);
        assert!(cache.panes.contains_key(&shown.id));
        assert!(!cache.panes.contains_key(&hidden.id));
        frame.reset();
        assert!(!cache.draw(&hidden, area, &mut frame, false, None));
        assert_eq!(frame[(5, 0)].symbol(), "2");
        cache.sweep(|id| id != shown.id);
        assert!(!cache.panes.contains_key(&shown.id));
    }
}
