//! Floating panes: panes of a tab that sit over its tiled layout, in
//! z-order (the last is on top), shown or hidden together (`C-b w`); a
//! pinned one stays on screen while the others are hidden. Pure geometry
//! and order, like `layout`; the workspace starts and sizes their
//! programs.

use ratatui::layout::{Position, Rect};

use crate::config::action::Direction;
use crate::pane::PaneId;

/// The smallest floating pane: a box around two rows of twelve columns.
pub const MIN_WIDTH: u16 = 14;
pub const MIN_HEIGHT: u16 = 4;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Float {
    pub id: PaneId,
    /// Where it is, border included, in the pane area.
    pub rect: Rect,
    /// Shown even while the floating panes are hidden.
    pub pinned: bool,
}

#[derive(Debug, Clone, Default)]
pub struct Floats {
    /// Bottom to top.
    panes: Vec<Float>,
    pub shown: bool,
    /// The tiled pane focused before the floats were, to go back to.
    pub tiled_focus: Option<PaneId>,
}

impl Floats {
    pub fn is_empty(&self) -> bool {
        self.panes.is_empty()
    }

    pub fn contains(&self, id: PaneId) -> bool {
        self.panes.iter().any(|f| f.id == id)
    }

    /// Bottom to top.
    pub fn iter(&self) -> impl Iterator<Item = &Float> {
        self.panes.iter()
    }

    /// The ones on screen, bottom to top: all when shown, else the pinned.
    pub fn visible(&self) -> impl Iterator<Item = &Float> {
        self.panes.iter().filter(|f| self.shown || f.pinned)
    }

    pub fn is_visible(&self, id: PaneId) -> bool {
        self.visible().any(|f| f.id == id)
    }

    pub fn top(&self) -> Option<PaneId> {
        self.panes.last().map(|f| f.id)
    }

    pub fn is_pinned(&self, id: PaneId) -> bool {
        self.panes.iter().any(|f| f.id == id && f.pinned)
    }

    /// Pins or unpins `id`; false if it is not here.
    pub fn set_pinned(&mut self, id: PaneId, pinned: bool) -> bool {
        match self.panes.iter_mut().find(|f| f.id == id) {
            Some(f) => {
                f.pinned = pinned;
                true
            }
            None => false,
        }
    }

    /// Where a new floating pane goes in `area`: centred, four fifths of
    /// it, each further one a little down and right so none hides another.
    pub fn place_new(&self, area: Rect) -> Rect {
        let width = (area.width * 4 / 5).max(MIN_WIDTH).min(area.width);
        let height = (area.height * 4 / 5).max(MIN_HEIGHT).min(area.height);
        let step = u16::try_from(self.panes.len() % 5).unwrap_or(0) * 2;
        let rect = Rect {
            x: area.x + (area.width - width) / 2 + step,
            y: area.y + (area.height - height) / 2 + step / 2,
            width,
            height,
        };
        clamp(rect, area)
    }

    /// Adds `id` on top.
    pub fn push(&mut self, id: PaneId, rect: Rect) {
        self.panes.push(Float {
            id,
            rect,
            pinned: false,
        });
    }

    pub fn remove(&mut self, id: PaneId) -> Option<Float> {
        let i = self.panes.iter().position(|f| f.id == id)?;
        Some(self.panes.remove(i))
    }

    /// Puts `id` on top.
    pub fn raise(&mut self, id: PaneId) {
        if let Some(f) = self.remove(id) {
            self.panes.push(f);
        }
    }

    pub fn rect(&self, id: PaneId) -> Option<Rect> {
        self.panes.iter().find(|f| f.id == id).map(|f| f.rect)
    }

    /// The topmost visible floating pane at a position.
    pub fn at(&self, x: u16, y: u16) -> Option<PaneId> {
        self.panes
            .iter()
            .rev()
            .filter(|f| self.shown || f.pinned)
            .find(|f| f.rect.contains(Position { x, y }))
            .map(|f| f.id)
    }

    /// Moves `id` by `cells` towards `dir`, staying inside `area`.
    pub fn move_by(&mut self, id: PaneId, dir: Direction, cells: u16, area: Rect) -> bool {
        self.update(id, area, |r| match dir {
            Direction::Left => r.x = r.x.saturating_sub(cells),
            Direction::Right => r.x = r.x.saturating_add(cells),
            Direction::Up => r.y = r.y.saturating_sub(cells),
            Direction::Down => r.y = r.y.saturating_add(cells),
        })
    }

    /// Grows (right, down) or shrinks (left, up) `id` by `cells`.
    pub fn resize_by(&mut self, id: PaneId, dir: Direction, cells: u16, area: Rect) -> bool {
        self.update(id, area, |r| match dir {
            Direction::Left => r.width = r.width.saturating_sub(cells),
            Direction::Right => r.width = r.width.saturating_add(cells),
            Direction::Up => r.height = r.height.saturating_sub(cells),
            Direction::Down => r.height = r.height.saturating_add(cells),
        })
    }

    /// Puts `id` at `rect` (a mouse drag), kept inside `area`.
    pub fn set_rect(&mut self, id: PaneId, rect: Rect, area: Rect) -> bool {
        self.update(id, area, |r| *r = rect)
    }

    fn update(&mut self, id: PaneId, area: Rect, f: impl FnOnce(&mut Rect)) -> bool {
        let Some(float) = self.panes.iter_mut().find(|f| f.id == id) else {
            return false;
        };
        let before = float.rect;
        f(&mut float.rect);
        float.rect = clamp(float.rect, area);
        float.rect != before
    }

    /// The terminal changed size: every floating pane stays inside.
    pub fn fit(&mut self, area: Rect) {
        for f in &mut self.panes {
            f.rect = clamp(f.rect, area);
        }
    }
}

/// The pane directional focus goes to from `from` towards `dir`, among
/// `candidates` (id, rectangle, z: higher is on top): of those whose
/// centre lies that way, the ones sharing rows (or columns) with `from`
/// first, then the nearest, then the one on top. Floating panes overlap
/// what they float over, so "that way" is by centres, not by edges.
pub fn nearest_towards(
    from: Rect,
    dir: Direction,
    candidates: impl IntoIterator<Item = (PaneId, Rect, usize)>,
) -> Option<PaneId> {
    // Doubled, so centres stay whole numbers.
    let centre = |r: Rect| {
        (
            i32::from(r.x) * 2 + i32::from(r.width),
            i32::from(r.y) * 2 + i32::from(r.height),
        )
    };
    let (fx, fy) = centre(from);
    let spans_overlap = |a0: u16, a1: u16, b0: u16, b1: u16| a0 < b1 && b0 < a1;
    candidates
        .into_iter()
        .filter_map(|(id, rect, z)| {
            let (cx, cy) = centre(rect);
            let (ahead, aside, shares) = match dir {
                Direction::Left => (
                    fx - cx,
                    (fy - cy).abs(),
                    spans_overlap(from.y, from.bottom(), rect.y, rect.bottom()),
                ),
                Direction::Right => (
                    cx - fx,
                    (fy - cy).abs(),
                    spans_overlap(from.y, from.bottom(), rect.y, rect.bottom()),
                ),
                Direction::Up => (
                    fy - cy,
                    (fx - cx).abs(),
                    spans_overlap(from.x, from.right(), rect.x, rect.right()),
                ),
                Direction::Down => (
                    cy - fy,
                    (fx - cx).abs(),
                    spans_overlap(from.x, from.right(), rect.x, rect.right()),
                ),
            };
            (ahead > 0).then_some(((!shares, ahead + aside, std::cmp::Reverse(z)), id))
        })
        .min_by_key(|(key, _)| *key)
        .map(|(_, id)| id)
}

/// `rect` at least the minimum size and inside `area` (moved, then cut).
fn clamp(rect: Rect, area: Rect) -> Rect {
    let width = rect.width.max(MIN_WIDTH).min(area.width);
    let height = rect.height.max(MIN_HEIGHT).min(area.height);
    let x = rect.x.clamp(area.x, area.right().saturating_sub(width));
    let y = rect.y.clamp(area.y, area.bottom().saturating_sub(height));
    Rect {
        x,
        y,
        width,
        height,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_floats_are_centred_and_step_aside() {
        let area = Rect::new(0, 0, 100, 40);
        let mut floats = Floats::default();
        let first = floats.place_new(area);
        assert_eq!(first, Rect::new(10, 4, 80, 32));
        floats.push(PaneId(1), first);
        let second = floats.place_new(area);
        assert_eq!((second.x, second.y), (12, 5));
    }

    #[test]
    fn the_top_float_wins_and_raising_reorders() {
        let mut floats = Floats::default();
        floats.push(PaneId(1), Rect::new(0, 0, 20, 10));
        floats.push(PaneId(2), Rect::new(10, 5, 20, 10));
        assert_eq!(floats.at(12, 6), None, "hidden");
        floats.shown = true;
        assert_eq!(floats.at(12, 6), Some(PaneId(2)));
        assert_eq!(floats.at(2, 2), Some(PaneId(1)));
        assert_eq!(floats.at(50, 30), None);
        floats.raise(PaneId(1));
        assert_eq!(floats.at(12, 6), Some(PaneId(1)));
        assert_eq!(floats.top(), Some(PaneId(1)));
    }

    #[test]
    fn moving_and_resizing_stay_inside_the_area() {
        let area = Rect::new(0, 0, 40, 20);
        let mut floats = Floats::default();
        floats.push(PaneId(1), Rect::new(5, 5, 20, 10));
        assert!(floats.move_by(PaneId(1), Direction::Left, 100, area));
        assert_eq!(floats.rect(PaneId(1)), Some(Rect::new(0, 5, 20, 10)));
        assert!(
            !floats.move_by(PaneId(1), Direction::Left, 1, area),
            "at the edge"
        );
        assert!(floats.resize_by(PaneId(1), Direction::Right, 100, area));
        assert_eq!(floats.rect(PaneId(1)), Some(Rect::new(0, 5, 40, 10)));
        assert!(floats.resize_by(PaneId(1), Direction::Up, 100, area));
        assert_eq!(floats.rect(PaneId(1)).map(|r| r.height), Some(MIN_HEIGHT));
        floats.fit(Rect::new(0, 0, 30, 8));
        assert_eq!(floats.rect(PaneId(1)), Some(Rect::new(0, 4, 30, 4)));
    }

    #[test]
    fn hidden_floats_but_the_pinned_are_off_screen() {
        let mut floats = Floats::default();
        floats.push(PaneId(1), Rect::new(0, 0, 20, 10));
        floats.push(PaneId(2), Rect::new(10, 5, 20, 10));
        assert!(floats.set_pinned(PaneId(1), true));
        let visible: Vec<PaneId> = floats.visible().map(|f| f.id).collect();
        assert_eq!(visible, [PaneId(1)]);
        assert_eq!(floats.at(12, 6), Some(PaneId(1)), "the pinned one, under");
        floats.shown = true;
        assert_eq!(floats.visible().count(), 2);
    }

    #[test]
    fn the_nearest_pane_that_way_sharing_rows_wins_then_the_one_on_top() {
        let from = Rect::new(0, 0, 20, 10);
        let beside = (PaneId(2), Rect::new(30, 0, 20, 10), 0);
        let nearer_but_below = (PaneId(3), Rect::new(22, 12, 10, 5), 0);
        let far = (PaneId(4), Rect::new(60, 2, 10, 5), 0);
        let behind = (PaneId(5), Rect::new(0, 0, 5, 5), 0);
        let pick = |dir, c: &[(PaneId, Rect, usize)]| nearest_towards(from, dir, c.iter().copied());
        assert_eq!(
            pick(Direction::Right, &[far, nearer_but_below, beside, behind]),
            Some(PaneId(2))
        );
        assert_eq!(pick(Direction::Right, &[nearer_but_below]), Some(PaneId(3)));
        assert_eq!(pick(Direction::Left, &[beside, far]), None);
        assert_eq!(pick(Direction::Left, &[beside, behind]), Some(PaneId(5)));
        assert_eq!(
            pick(Direction::Down, &[beside, nearer_but_below]),
            Some(PaneId(3))
        );
        // The same box twice: the one on top.
        let under = (PaneId(6), Rect::new(30, 0, 20, 10), 1);
        let over = (PaneId(7), Rect::new(30, 0, 20, 10), 2);
        assert_eq!(pick(Direction::Right, &[under, over]), Some(PaneId(7)));
    }
}
