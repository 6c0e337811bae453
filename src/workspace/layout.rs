//! The pane layout tree of one tab.
//!
//! Pure geometry: pane ids and rectangles, nothing about PTYs or drawing, so
//! tiling, resizing and focus moves are testable on their own. Splits store
//! ratios rather than cell counts so panes keep their proportions when the
//! terminal is resized; cells are derived on demand by [`Layout::rects`].

use ratatui::layout::{Position, Rect};

use crate::config::action::{Direction, Preset};
use crate::pane::PaneId;

/// Smallest size a pane gets along a split axis while the area allows it:
/// a box border on each side plus two cells of content, so even a squeezed
/// pane still shows something and its borders stay distinguishable.
pub const MIN_PANE: u16 = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// Children side by side (left | right).
    Horizontal,
    /// Children stacked (top / bottom).
    Vertical,
}

impl Axis {
    fn len(self, r: Rect) -> u16 {
        match self {
            Axis::Horizontal => r.width,
            Axis::Vertical => r.height,
        }
    }

    fn start(self, r: Rect) -> u16 {
        match self {
            Axis::Horizontal => r.x,
            Axis::Vertical => r.y,
        }
    }

    fn end(self, r: Rect) -> u16 {
        self.start(r).saturating_add(self.len(r))
    }

    fn pick(self, x: u16, y: u16) -> u16 {
        match self {
            Axis::Horizontal => x,
            Axis::Vertical => y,
        }
    }

    fn other(self) -> Axis {
        match self {
            Axis::Horizontal => Axis::Vertical,
            Axis::Vertical => Axis::Horizontal,
        }
    }

    /// Cuts `r` so the first part is `first` cells long along this axis;
    /// the second part gets the rest, so the two always tile `r` exactly.
    fn cut(self, r: Rect, first: u16) -> (Rect, Rect) {
        let first = first.min(self.len(r));
        match self {
            Axis::Horizontal => (
                Rect { width: first, ..r },
                Rect {
                    x: r.x.saturating_add(first),
                    width: r.width - first,
                    ..r
                },
            ),
            Axis::Vertical => (
                Rect { height: first, ..r },
                Rect {
                    y: r.y.saturating_add(first),
                    height: r.height - first,
                    ..r
                },
            ),
        }
    }
}

/// The split axis a direction crosses, and whether it points towards the
/// second child (right/down) — the two facts resize and focus moves need.
fn parts(dir: Direction) -> (Axis, bool) {
    match dir {
        Direction::Left => (Axis::Horizontal, false),
        Direction::Right => (Axis::Horizontal, true),
        Direction::Up => (Axis::Vertical, false),
        Direction::Down => (Axis::Vertical, true),
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Leaf(PaneId),
    Split {
        axis: Axis,
        /// Share of the first child; kept as a ratio so proportions survive
        /// terminal resizes. Out-of-range values are tolerated and clamped.
        ratio: f32,
        first: Box<Node>,
        second: Box<Node>,
    },
}

impl Node {
    /// Shorthand for building trees by hand (tests, saved layouts).
    pub fn split(axis: Axis, ratio: f32, first: Node, second: Node) -> Node {
        Node::Split {
            axis,
            ratio,
            first: Box::new(first),
            second: Box::new(second),
        }
    }

    /// Cells this subtree needs along `axis` so every pane in it keeps
    /// [`MIN_PANE`]; without this a nested split would be squeezed below the
    /// minimum while its parent thinks everything is fine.
    fn min_len(&self, axis: Axis) -> u16 {
        match self {
            Node::Leaf(_) => MIN_PANE,
            Node::Split {
                axis: a,
                first,
                second,
                ..
            } => {
                let (f, s) = (first.min_len(axis), second.min_len(axis));
                if *a == axis {
                    f.saturating_add(s)
                } else {
                    f.max(s)
                }
            }
        }
    }

    /// The rectangles of a split's two children inside `r`; `None` for a leaf.
    fn child_rects(&self, r: Rect) -> Option<(Rect, Rect)> {
        let Node::Split {
            axis,
            ratio,
            first,
            second,
        } = self
        else {
            return None;
        };
        let total = u32::from(axis.len(r));
        let (min1, min2) = (
            u32::from(first.min_len(*axis)),
            u32::from(second.min_len(*axis)),
        );
        let len = if min1 + min2 <= total {
            let ratio = if ratio.is_finite() {
                f64::from(ratio.clamp(0.0, 1.0))
            } else {
                0.5
            };
            // `as` from f64 saturates; the clamp keeps both minimums.
            ((f64::from(total) * ratio).round() as u32).clamp(min1, total - min2)
        } else {
            // Too small for both minimums: share what there is in proportion
            // to what each side needs, so neither side vanishes first.
            total * min1 / (min1 + min2)
        };
        let len = u16::try_from(len).unwrap_or(u16::MAX);
        Some(axis.cut(r, len))
    }

    fn get(&self, path: &[bool]) -> Option<&Node> {
        match (path.split_first(), self) {
            (None, _) => Some(self),
            (Some((&second_side, rest)), Node::Split { first, second, .. }) => {
                if second_side { second } else { first }.get(rest)
            }
            (Some(_), Node::Leaf(_)) => None,
        }
    }

    fn get_mut(&mut self, path: &[bool]) -> Option<&mut Node> {
        match (path.split_first(), self) {
            (None, node) => Some(node),
            (Some((&second_side, rest)), Node::Split { first, second, .. }) => {
                if second_side { second } else { first }.get_mut(rest)
            }
            (Some(_), Node::Leaf(_)) => None,
        }
    }

    /// The rectangle the node at `path` occupies when the root fills `r`.
    fn rect_at(&self, r: Rect, path: &[bool]) -> Option<Rect> {
        let Some((&second_side, rest)) = path.split_first() else {
            return Some(r);
        };
        let (a, b) = self.child_rects(r)?;
        let Node::Split { first, second, .. } = self else {
            return None;
        };
        if second_side {
            second.rect_at(b, rest)
        } else {
            first.rect_at(a, rest)
        }
    }

    /// Path from this node to the leaf `id`: `false` = first child.
    fn path_to(&self, id: PaneId) -> Option<Vec<bool>> {
        match self {
            Node::Leaf(leaf) => (*leaf == id).then(Vec::new),
            Node::Split { first, second, .. } => {
                let (side, mut path) = match first.path_to(id) {
                    Some(p) => (false, p),
                    None => (true, second.path_to(id)?),
                };
                path.insert(0, side);
                Some(path)
            }
        }
    }

    fn collect_panes(&self, out: &mut Vec<PaneId>) {
        match self {
            Node::Leaf(id) => out.push(*id),
            Node::Split { first, second, .. } => {
                first.collect_panes(out);
                second.collect_panes(out);
            }
        }
    }

    fn collect_rects(&self, r: Rect, out: &mut Vec<(PaneId, Rect)>) {
        match (self, self.child_rects(r)) {
            (Node::Split { first, second, .. }, Some((a, b))) => {
                first.collect_rects(a, out);
                second.collect_rects(b, out);
            }
            (Node::Leaf(id), _) => out.push((*id, r)),
            (Node::Split { .. }, None) => {}
        }
    }

    fn rename(&mut self, a: PaneId, b: PaneId) {
        match self {
            Node::Leaf(id) if *id == a => *id = b,
            Node::Leaf(id) if *id == b => *id = a,
            Node::Leaf(_) => {}
            Node::Split { first, second, .. } => {
                first.rename(a, b);
                second.rename(a, b);
            }
        }
    }

    fn border_at(&self, r: Rect, x: u16, y: u16, path: &mut Vec<bool>) -> Option<BorderHandle> {
        let pos = Position { x, y };
        if !r.contains(pos) {
            return None;
        }
        let (a, b) = self.child_rects(r)?;
        let Node::Split {
            axis,
            first,
            second,
            ..
        } = self
        else {
            return None;
        };
        let (p, edge) = (axis.pick(x, y), axis.start(b));
        if axis.len(a) > 0 && axis.len(b) > 0 && (p == edge || p == edge - 1) {
            return Some(BorderHandle {
                path: path.clone(),
                axis: *axis,
            });
        }
        let (side, child, rect) = if a.contains(pos) {
            (false, first, a)
        } else {
            (true, second, b)
        };
        path.push(side);
        child.border_at(rect, x, y, path)
    }
}

/// Identifies one split's border between a mouse press and the drags that
/// follow. It is a path from the root, so it goes stale (and is refused)
/// if the tree changes shape in between.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BorderHandle {
    /// Steps from the root to the split: `false` = first child.
    path: Vec<bool>,
    axis: Axis,
}

impl BorderHandle {
    /// Lets the caller pick a fitting cursor or highlight while dragging.
    pub fn axis(&self) -> Axis {
        self.axis
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    root: Node,
}

impl Layout {
    pub fn new(first: PaneId) -> Self {
        Layout {
            root: Node::Leaf(first),
        }
    }

    /// Trusts the caller that pane ids are unique; duplicates would make
    /// lookups find only the first occurrence.
    pub fn from_node(root: Node) -> Self {
        Layout { root }
    }

    pub fn root(&self) -> &Node {
        &self.root
    }

    /// Splits `target`'s cell: `target` keeps the first half, `new` gets the
    /// second (right or below). False if `target` is absent or `new` is
    /// already present, since ids must stay unique.
    pub fn split(&mut self, target: PaneId, axis: Axis, new: PaneId) -> bool {
        if self.contains(new) {
            return false;
        }
        let Some(node) = self
            .root
            .path_to(target)
            .and_then(|path| self.root.get_mut(&path))
        else {
            return false;
        };
        *node = Node::split(axis, 0.5, Node::Leaf(target), Node::Leaf(new));
        true
    }

    /// Removes a pane; its sibling takes over the parent's whole cell.
    /// False if absent or if it is the only pane: a tab without panes makes
    /// no sense, so the caller closes the tab instead.
    pub fn remove(&mut self, id: PaneId) -> bool {
        let Some(path) = self.root.path_to(id) else {
            return false;
        };
        let Some((&was_second, parent)) = path.split_last() else {
            return false;
        };
        let Some(parent) = self.root.get_mut(parent) else {
            return false;
        };
        let Node::Split { first, second, .. } = parent else {
            return false;
        };
        let sibling = if was_second { first } else { second };
        let sibling = std::mem::replace(sibling.as_mut(), Node::Leaf(id));
        *parent = sibling;
        true
    }

    pub fn contains(&self, id: PaneId) -> bool {
        self.root.path_to(id).is_some()
    }

    pub fn len(&self) -> usize {
        self.panes().len()
    }

    /// Always false: a layout holds at least one pane by construction.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Pane ids in reading order (depth-first, first child first), which is
    /// the order focus-next/prev cycles through.
    pub fn panes(&self) -> Vec<PaneId> {
        let mut out = Vec::new();
        self.root.collect_panes(&mut out);
        out
    }

    /// The rectangle of every pane inside `area`, in reading order. They tile
    /// `area` exactly (borders are drawn inside each rect, so neighbours
    /// touch); each pane keeps [`MIN_PANE`] cells per split axis while the
    /// area allows, and shrinks gracefully (possibly to zero) when it doesn't.
    pub fn rects(&self, area: Rect) -> Vec<(PaneId, Rect)> {
        let mut out = Vec::new();
        self.root.collect_rects(area, &mut out);
        out
    }

    pub fn pane_rect(&self, area: Rect, id: PaneId) -> Option<Rect> {
        let path = self.root.path_to(id)?;
        self.root.rect_at(area, &path)
    }

    /// The pane adjacent to `from` in `dir`, like tmux `select-pane -L/-R/-U/-D`:
    /// of the panes touching that edge, the one sharing the most of it, so
    /// the move lands where the eye expects; ties go to the top/left one.
    /// `None` at the edge of the area.
    pub fn neighbor(&self, area: Rect, from: PaneId, dir: Direction) -> Option<PaneId> {
        let rects = self.rects(area);
        let (_, f) = *rects.iter().find(|(id, _)| *id == from)?;
        let (axis, forward) = parts(dir);
        let across = axis.other();
        let edge = if forward { axis.end(f) } else { axis.start(f) };
        rects
            .iter()
            .filter(|(id, r)| *id != from && !r.is_empty())
            .filter(|(_, r)| {
                if forward {
                    axis.start(*r) == edge
                } else {
                    axis.end(*r) == edge
                }
            })
            .map(|&(id, r)| {
                let overlap = across
                    .end(f)
                    .min(across.end(r))
                    .saturating_sub(across.start(f).max(across.start(r)));
                (overlap, across.start(r), id)
            })
            .filter(|(overlap, _, _)| *overlap > 0)
            .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))
            .map(|(_, _, id)| id)
    }

    /// Moves the border on the `dir` side of `id` by `cells` towards `dir`,
    /// like tmux `resize-pane`: the nearest split of that axis where `id` has
    /// a neighbour on that side grows `id`; failing that (e.g. Right on the
    /// rightmost pane) the nearest split of that axis moves its border
    /// anyway, shrinking `id`. Keeps [`MIN_PANE`]. Returns whether anything
    /// changed.
    pub fn resize(&mut self, area: Rect, id: PaneId, dir: Direction, cells: u16) -> bool {
        let Some(path) = self.root.path_to(id) else {
            return false;
        };
        let (axis, forward) = parts(dir);
        let mut fallback = None;
        let mut chosen = None;
        for depth in (0..path.len()).rev() {
            if let Some(Node::Split { axis: a, .. }) = self.root.get(&path[..depth])
                && *a == axis
            {
                fallback.get_or_insert(depth);
                // In the first child going forward (or the second going
                // back), the other child is the neighbour on that side.
                if path[depth] != forward {
                    chosen = Some(depth);
                    break;
                }
            }
        }
        let Some(depth) = chosen.or(fallback) else {
            return false;
        };
        self.move_border(area, &path[..depth], |len| {
            if forward {
                len.saturating_add(cells)
            } else {
                len.saturating_sub(cells)
            }
        })
    }

    /// Which split border is at (x, y), for mouse dragging. A border is the
    /// two columns (or rows) where the children meet — the last of the first
    /// child and the first of the second — since each pane draws its own
    /// box and either line looks like "the border" to the user.
    pub fn border_at(&self, area: Rect, x: u16, y: u16) -> Option<BorderHandle> {
        self.root.border_at(area, x, y, &mut Vec::new())
    }

    /// Moves the handle's border so the first child ends at column `x` (or
    /// row `y`), clamped to [`MIN_PANE`]. False if nothing changed or the
    /// handle is stale.
    pub fn drag_border(&mut self, area: Rect, handle: &BorderHandle, x: u16, y: u16) -> bool {
        match self.root.get(&handle.path) {
            Some(Node::Split { axis, .. }) if *axis == handle.axis => {}
            _ => return false,
        }
        let Some(rect) = self.root.rect_at(area, &handle.path) else {
            return false;
        };
        let len = handle
            .axis
            .pick(x, y)
            .saturating_sub(handle.axis.start(rect))
            .saturating_add(1);
        self.move_border(area, &handle.path, |_| len)
    }

    /// The pane whose rect contains (x, y).
    pub fn pane_at(&self, area: Rect, x: u16, y: u16) -> Option<PaneId> {
        self.rects(area)
            .into_iter()
            .find(|(_, r)| r.contains(Position { x, y }))
            .map(|(id, _)| id)
    }

    /// Exchanges the positions of two panes. False if either is absent or
    /// they are the same pane.
    pub fn swap(&mut self, a: PaneId, b: PaneId) -> bool {
        if a == b || !self.contains(a) || !self.contains(b) {
            return false;
        }
        self.root.rename(a, b);
        true
    }

    /// An equal row/column of panes (for `tilework -c A -c B -c C`), as
    /// nested binary splits with ratios 1/n, 1/(n-1), ... so each pane gets
    /// the same share. `None` for no panes or duplicate ids.
    pub fn even(axis: Axis, panes: &[PaneId]) -> Option<Layout> {
        let mut unique = panes.to_vec();
        unique.sort_unstable();
        unique.dedup();
        if unique.len() != panes.len() {
            return None;
        }
        fn build(axis: Axis, panes: &[PaneId]) -> Option<Node> {
            let (&first, rest) = panes.split_first()?;
            Some(match build(axis, rest) {
                None => Node::Leaf(first),
                Some(rest_node) => {
                    Node::split(axis, 1.0 / panes.len() as f32, Node::Leaf(first), rest_node)
                }
            })
        }
        build(axis, panes).map(Layout::from_node)
    }

    /// A tmux-style preset over `panes` (in reading order). `main` is the
    /// pane that gets the big cell in [`Preset::MainVertical`].
    pub fn preset(preset: Preset, panes: &[PaneId], main: PaneId) -> Option<Layout> {
        match preset {
            Preset::EvenHorizontal => Layout::even(Axis::Horizontal, panes),
            Preset::EvenVertical => Layout::even(Axis::Vertical, panes),
            Preset::MainVertical => {
                if !panes.contains(&main) {
                    return None;
                }
                let rest: Vec<PaneId> = panes.iter().copied().filter(|&p| p != main).collect();
                match Layout::even(Axis::Vertical, &rest) {
                    // Like tmux's main-pane-width: the main pane gets most of the width.
                    Some(stack) => Some(Layout::from_node(Node::split(
                        Axis::Horizontal,
                        0.6,
                        Node::Leaf(main),
                        stack.root,
                    ))),
                    None => Some(Layout::new(main)),
                }
            }
            Preset::Tiled => {
                if panes.is_empty() {
                    return None;
                }
                let n = panes.len();
                let cols = (1..=n).find(|c| c * c >= n).unwrap_or(n);
                let rows: Vec<Node> = panes
                    .chunks(cols)
                    .filter_map(|row| Layout::even(Axis::Horizontal, row).map(|l| l.root))
                    .collect();
                let count = rows.len();
                let mut iter = rows.into_iter().rev();
                let mut node = iter.next()?;
                for (i, row) in iter.enumerate() {
                    // i + 2 rows from here down: this one gets 1/(i+2).
                    node = Node::split(Axis::Vertical, 1.0 / (i + 2) as f32, row, node);
                }
                debug_assert!(count >= 1);
                Some(Layout::from_node(node))
            }
        }
    }

    /// Puts `new` where `old` is. False if `old` is absent or `new` present.
    pub fn replace(&mut self, old: PaneId, new: PaneId) -> bool {
        if !self.contains(old) || self.contains(new) {
            return false;
        }
        fn walk(node: &mut Node, old: PaneId, new: PaneId) {
            match node {
                Node::Leaf(id) if *id == old => *id = new,
                Node::Leaf(_) => {}
                Node::Split { first, second, .. } => {
                    walk(first, old, new);
                    walk(second, old, new);
                }
            }
        }
        walk(&mut self.root, old, new);
        true
    }

    /// Moves every pane to the next cell in reading order (the last one
    /// wraps to the first), keeping the shape: tmux's rotate-window.
    pub fn rotate(&mut self) -> bool {
        let panes = self.panes();
        if panes.len() < 2 {
            return false;
        }
        let mut next = panes.len() - 1;
        fn relabel(node: &mut Node, panes: &[PaneId], next: &mut usize) {
            match node {
                Node::Leaf(id) => {
                    *id = panes[*next % panes.len()];
                    *next += 1;
                }
                Node::Split { first, second, .. } => {
                    relabel(first, panes, next);
                    relabel(second, panes, next);
                }
            }
        }
        relabel(&mut self.root, &panes, &mut next);
        true
    }

    /// Sets the first-child length of the split at `path` to `to(current)`,
    /// clamped so both sides keep their minimums; stored back as a ratio.
    fn move_border(&mut self, area: Rect, path: &[bool], to: impl FnOnce(u16) -> u16) -> bool {
        let Some(rect) = self.root.rect_at(area, path) else {
            return false;
        };
        let Some(node) = self.root.get_mut(path) else {
            return false;
        };
        let Some((current, _)) = node.child_rects(rect) else {
            return false;
        };
        let Node::Split {
            axis,
            ratio,
            first,
            second,
        } = node
        else {
            return false;
        };
        let total = axis.len(rect);
        let lo = first.min_len(*axis);
        let hi = total.saturating_sub(second.min_len(*axis));
        if lo > hi {
            return false;
        }
        let current = axis.len(current);
        let new = to(current).clamp(lo, hi);
        if new == current {
            return false;
        }
        *ratio = f32::from(new) / f32::from(total);
        true
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn p(n: u32) -> PaneId {
        PaneId(n)
    }

    fn leaf(n: u32) -> Node {
        Node::Leaf(p(n))
    }

    fn area(w: u16, h: u16) -> Rect {
        Rect::new(0, 0, w, h)
    }

    /// Draws each pane's rect as its id digit ('.' where no pane is).
    fn render(layout: &Layout, w: u16, h: u16) -> String {
        let mut grid = vec![vec!['.'; usize::from(w)]; usize::from(h)];
        for (id, r) in layout.rects(area(w, h)) {
            let c = char::from_digit(id.0 % 36, 36).unwrap();
            for y in r.top()..r.bottom() {
                for x in r.left()..r.right() {
                    grid[usize::from(y)][usize::from(x)] = c;
                }
            }
        }
        grid.into_iter()
            .map(|row| row.into_iter().collect::<String>() + "\n")
            .collect()
    }

    /// Strips the indentation of a grid written inside a test.
    fn dedent(s: &str) -> String {
        s.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|l| l.to_string() + "\n")
            .collect()
    }

    #[track_caller]
    fn check(layout: &Layout, w: u16, h: u16, expected: &str) {
        let got = render(layout, w, h);
        assert_eq!(got, dedent(expected), "\n{got}");
    }

    /// 1 on the left, 2 over 3 on the right, 4 along the bottom: an L of
    /// panes around 1's corner with unequal overlaps.
    fn l_shape() -> Layout {
        Layout::from_node(Node::split(
            Axis::Vertical,
            0.75,
            Node::split(
                Axis::Horizontal,
                0.5,
                leaf(1),
                Node::split(Axis::Vertical, 0.5, leaf(2), leaf(3)),
            ),
            Node::split(Axis::Horizontal, 0.7, leaf(4), leaf(5)),
        ))
    }

    /// Deterministic pseudo-random trees built through the public API.
    fn random_layout(seed: u64, panes: u32) -> Layout {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as u32
        };
        let mut layout = Layout::new(p(1));
        for n in 2..=panes {
            let ids = layout.panes();
            let target = ids[next() as usize % ids.len()];
            let axis = if next() % 2 == 0 {
                Axis::Horizontal
            } else {
                Axis::Vertical
            };
            assert!(layout.split(target, axis, p(n)));
            let dir = Direction::ALL[next() as usize % 4];
            layout.resize(area(80, 40), target, dir, (next() % 7) as u16);
        }
        layout
    }

    fn sample_layouts() -> Vec<Layout> {
        let mut all = vec![
            Layout::new(p(1)),
            l_shape(),
            Layout::even(Axis::Horizontal, &[p(1), p(2), p(3), p(4), p(5)]).unwrap(),
            Layout::from_node(Node::split(Axis::Vertical, 0.01, leaf(1), leaf(2))),
            Layout::from_node(Node::split(Axis::Horizontal, f32::NAN, leaf(1), leaf(2))),
        ];
        all.extend((0..6).map(|seed| random_layout(seed, 7)));
        all
    }

    #[test]
    fn split_remove_len_panes() {
        let mut l = Layout::new(p(1));
        assert_eq!(l.len(), 1);
        assert!(!l.is_empty());
        assert!(l.split(p(1), Axis::Horizontal, p(2)));
        assert!(l.split(p(1), Axis::Vertical, p(3)));
        assert!(l.split(p(2), Axis::Vertical, p(4)));
        assert!(!l.split(p(9), Axis::Vertical, p(5)), "absent target");
        assert!(!l.split(p(1), Axis::Vertical, p(4)), "duplicate id");
        assert_eq!(l.len(), 4);
        assert_eq!(l.panes(), vec![p(1), p(3), p(2), p(4)]);
        assert!(l.contains(p(3)) && !l.contains(p(9)));

        assert!(l.remove(p(1)));
        assert!(!l.remove(p(1)));
        assert_eq!(l.panes(), vec![p(3), p(2), p(4)]);
        // 3 took over 1's whole cell.
        assert_eq!(
            l.root(),
            &Node::split(
                Axis::Horizontal,
                0.5,
                leaf(3),
                Node::split(Axis::Vertical, 0.5, leaf(2), leaf(4)),
            )
        );
        assert!(l.remove(p(3)));
        assert!(l.remove(p(2)));
        assert_eq!(l.root(), &leaf(4));
        assert!(!l.remove(p(4)), "last pane stays");
        assert_eq!(l.len(), 1);
    }

    #[test]
    fn rects_snapshots() {
        let mut l = Layout::new(p(1));
        check(
            &l,
            10,
            3,
            "
            1111111111
            1111111111
            1111111111
            ",
        );
        l.split(p(1), Axis::Horizontal, p(2));
        check(
            &l,
            20,
            6,
            "
            11111111112222222222
            11111111112222222222
            11111111112222222222
            11111111112222222222
            11111111112222222222
            11111111112222222222
            ",
        );
        l.split(p(2), Axis::Vertical, p(3));
        check(
            &l,
            21,
            7,
            "
            111111111112222222222
            111111111112222222222
            111111111112222222222
            111111111113333333333
            111111111113333333333
            111111111113333333333
            111111111113333333333
            ",
        );
        // The top half needs 8 rows (2 and 3 at 4 each), so 75% of 12 gives 8.
        check(
            &l_shape(),
            20,
            12,
            "
            11111111112222222222
            11111111112222222222
            11111111112222222222
            11111111112222222222
            11111111113333333333
            11111111113333333333
            11111111113333333333
            11111111113333333333
            44444444444444555555
            44444444444444555555
            44444444444444555555
            44444444444444555555
            ",
        );
        // Minimums win over the ratio: 2 gets 4 rows, not 1.
        let thin = Layout::from_node(Node::split(Axis::Vertical, 0.95, leaf(1), leaf(2)));
        check(
            &thin,
            6,
            10,
            "
            111111
            111111
            111111
            111111
            111111
            111111
            222222
            222222
            222222
            222222
            ",
        );
        // Too small for both minimums: shared evenly rather than one vanishing.
        check(
            &thin,
            6,
            5,
            "
            111111
            111111
            222222
            222222
            222222
            ",
        );
    }

    #[test]
    fn rects_respect_nested_minimums() {
        // 2 | 3 nested on the right needs 8 columns, so 1 can't take 90%.
        let l = Layout::from_node(Node::split(
            Axis::Horizontal,
            0.9,
            leaf(1),
            Node::split(Axis::Horizontal, 0.5, leaf(2), leaf(3)),
        ));
        check(
            &l,
            20,
            4,
            "
            11111111111122223333
            11111111111122223333
            11111111111122223333
            11111111111122223333
            ",
        );
    }

    #[test]
    fn rects_tile_exactly() {
        for layout in sample_layouts() {
            let min_w = layout.root().min_len(Axis::Horizontal);
            let min_h = layout.root().min_len(Axis::Vertical);
            for w in 0..60 {
                for h in 0..30 {
                    let a = Rect::new(3, 2, w, h);
                    let rects = layout.rects(a);
                    assert_eq!(rects.len(), layout.len());
                    let ids: Vec<_> = rects.iter().map(|(id, _)| *id).collect();
                    assert_eq!(ids, layout.panes());
                    let sum: u32 = rects.iter().map(|(_, r)| r.area()).sum();
                    assert_eq!(sum, a.area(), "{w}x{h} {layout:?}");
                    for (i, (_, r)) in rects.iter().enumerate() {
                        assert!(r.is_empty() || a.union(*r) == a, "outside: {r:?} in {a:?}");
                        if w >= min_w && h >= min_h {
                            assert!(r.width >= MIN_PANE && r.height >= MIN_PANE, "{r:?}");
                        }
                        for (_, o) in &rects[i + 1..] {
                            assert_eq!(r.intersection(*o).area(), 0, "{r:?} overlaps {o:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn neighbor_all_directions() {
        let l = l_shape();
        let a = area(20, 12);
        let n = |from, dir| l.neighbor(a, p(from), dir);
        use Direction::*;
        // 1 touches 2 and 3 equally (3 rows each): the upper one wins.
        assert_eq!(n(1, Right), Some(p(2)));
        assert_eq!(n(1, Left), None);
        assert_eq!(n(1, Up), None);
        // 1 sits above all of 4 (10 columns), not above 5.
        assert_eq!(n(1, Down), Some(p(4)));
        assert_eq!(n(2, Left), Some(p(1)));
        assert_eq!(n(2, Down), Some(p(3)));
        assert_eq!(n(2, Right), None);
        assert_eq!(n(3, Up), Some(p(2)));
        assert_eq!(n(3, Left), Some(p(1)));
        // 3 (columns 10..20) overlaps 4 by 4 columns and 5 by 6.
        assert_eq!(n(3, Down), Some(p(5)));
        // 4 (columns 0..14) overlaps 1 by 10 columns and 3 by 4.
        assert_eq!(n(4, Up), Some(p(1)));
        assert_eq!(n(4, Right), Some(p(5)));
        assert_eq!(n(5, Up), Some(p(3)));
        assert_eq!(n(5, Left), Some(p(4)));
        assert_eq!(n(5, Down), None);
        assert_eq!(n(9, Up), None);
    }

    #[test]
    fn resize_grows_shrinks_and_clamps() {
        use Direction::*;
        let a = area(20, 4);
        let mut l = Layout::new(p(1));
        l.split(p(1), Axis::Horizontal, p(2));
        let widths = |l: &Layout| -> Vec<u16> { l.rects(a).iter().map(|(_, r)| r.width).collect() };

        assert!(l.resize(a, p(1), Right, 2));
        assert_eq!(widths(&l), [12, 8]);
        // Rightmost pane: its left border moves right, shrinking it.
        assert!(l.resize(a, p(2), Right, 2));
        assert_eq!(widths(&l), [14, 6]);
        assert!(l.resize(a, p(2), Left, 5));
        assert_eq!(widths(&l), [9, 11]);
        // Leftmost pane going left: its right border moves left.
        assert!(l.resize(a, p(1), Left, 1));
        assert_eq!(widths(&l), [8, 12]);
        assert!(l.resize(a, p(1), Right, 100));
        assert_eq!(widths(&l), [16, 4]);
        assert!(!l.resize(a, p(1), Right, 1), "already clamped");
        assert!(l.resize(a, p(1), Left, u16::MAX));
        assert_eq!(widths(&l), [4, 16]);
        assert!(!l.resize(a, p(1), Up, 1), "no vertical split");
        assert!(!l.resize(a, p(9), Left, 1), "absent pane");
        assert!(!l.resize(a, p(1), Right, 0));

        // The ratio is what's kept: proportions survive a bigger terminal.
        assert_eq!(
            l.rects(area(40, 4))
                .iter()
                .map(|(_, r)| r.width)
                .collect::<Vec<_>>(),
            [8, 32]
        );
    }

    #[test]
    fn resize_nested_picks_the_right_split() {
        use Direction::*;
        let a = area(20, 16);
        let mut l = l_shape();
        let rect = |l: &Layout, n| l.pane_rect(a, p(n)).unwrap();
        let height = |l: &Layout, n| rect(l, n).height;

        // 2 has no right neighbour: the 1|(2/3) border moves right instead.
        assert!(l.resize(a, p(2), Right, 3));
        assert_eq!(rect(&l, 1).width, 13);
        assert_eq!(rect(&l, 2), Rect::new(13, 0, 7, 6));
        // 2 grows down into 3 until 3 is at its minimum.
        assert!(l.resize(a, p(2), Down, 2));
        assert_eq!((height(&l, 2), height(&l, 3)), (8, 4));
        assert!(!l.resize(a, p(2), Down, 1));
        // 3 going down moves the root border, but 4 is already at 4 rows.
        assert!(!l.resize(a, p(3), Down, 1));
        // 4 going up grows 4; the top half shrinks to its nested minimum.
        assert!(l.resize(a, p(4), Up, 4));
        assert_eq!((height(&l, 2), height(&l, 3), height(&l, 4)), (4, 4, 8));
        assert!(l.resize(a, p(3), Down, 2));
        assert_eq!((height(&l, 2), height(&l, 3), height(&l, 4)), (6, 4, 6));
        // 5 has no neighbour below: the root border moves down, shrinking 5.
        assert!(l.resize(a, p(5), Down, 1));
        assert_eq!(height(&l, 5), 5);
    }

    #[test]
    fn border_at_and_drag() {
        let a = Rect::new(2, 1, 20, 12);
        let mut l = l_shape();
        // Root split: rows 8 and 9 (last of top half, first of bottom).
        let root = l.border_at(a, 5, 8).unwrap();
        assert_eq!(root.axis(), Axis::Vertical);
        assert_eq!(l.border_at(a, 5, 9), Some(root.clone()));
        assert_eq!(l.border_at(a, 20, 9), Some(root.clone()));
        assert_eq!(l.border_at(a, 5, 7), None);
        assert_eq!(l.border_at(a, 5, 10), None);
        // 1 | (2/3): columns 11 and 12, along the whole top half.
        let vert = l.border_at(a, 11, 1).unwrap();
        assert_eq!(vert.axis(), Axis::Horizontal);
        assert_eq!(l.border_at(a, 12, 7), Some(vert.clone()));
        assert_ne!(vert, root);
        // Inner 2/3 border, rows 4 and 5 on the right only.
        let inner = l.border_at(a, 15, 4).unwrap();
        assert_ne!(inner, vert);
        assert_eq!(l.border_at(a, 15, 5), Some(inner.clone()));
        assert_eq!(l.border_at(a, 5, 4), None);
        assert_eq!(l.border_at(a, 0, 0), None, "outside the area");

        // Drag 1's right edge to column 7: 1 spans columns 2..=7.
        assert!(l.drag_border(a, &vert, 7, 0));
        assert_eq!(l.pane_rect(a, p(1)).unwrap(), Rect::new(2, 1, 6, 8));
        assert!(!l.drag_border(a, &vert, 7, 3), "no change");
        // Clamped: both sides keep MIN_PANE.
        assert!(l.drag_border(a, &vert, 0, 0));
        assert_eq!(l.pane_rect(a, p(1)).unwrap().width, MIN_PANE);
        assert!(l.drag_border(a, &vert, 100, 0));
        assert_eq!(l.pane_rect(a, p(2)).unwrap().width, MIN_PANE);
        // 2 and 3 are at their minimums in 8 rows; a taller area frees them.
        assert!(!l.drag_border(a, &inner, 0, 6));
        let tall = Rect::new(2, 1, 20, 16);
        assert!(l.drag_border(tall, &inner, 0, 7));
        assert_eq!(l.pane_rect(tall, p(2)).unwrap(), Rect::new(18, 1, 4, 7));
        // Stale handles after the tree changed shape.
        l.remove(p(4));
        l.remove(p(5));
        assert!(!l.drag_border(a, &root, 0, 3));
        assert!(!l.drag_border(a, &inner, 0, 3));
    }

    #[test]
    fn pane_at_finds_the_containing_rect() {
        let l = l_shape();
        let a = Rect::new(1, 1, 20, 12);
        assert_eq!(l.pane_at(a, 1, 1), Some(p(1)));
        assert_eq!(l.pane_at(a, 10, 8), Some(p(1)));
        assert_eq!(l.pane_at(a, 11, 1), Some(p(2)));
        assert_eq!(l.pane_at(a, 20, 8), Some(p(3)));
        assert_eq!(l.pane_at(a, 14, 9), Some(p(4)));
        assert_eq!(l.pane_at(a, 15, 12), Some(p(5)));
        assert_eq!(l.pane_at(a, 0, 0), None);
        assert_eq!(l.pane_at(a, 21, 1), None);
    }

    #[test]
    fn swap_exchanges_positions() {
        let mut l = l_shape();
        let a = area(20, 12);
        let before = l.rects(a);
        assert!(l.swap(p(1), p(5)));
        assert_eq!(l.panes(), vec![p(5), p(2), p(3), p(4), p(1)]);
        assert_eq!(l.pane_rect(a, p(5)), Some(before[0].1));
        assert_eq!(l.pane_rect(a, p(1)), Some(before[4].1));
        assert!(!l.swap(p(1), p(1)));
        assert!(!l.swap(p(1), p(9)));
        assert!(!l.swap(p(9), p(1)));
    }

    #[test]
    fn even_rows_and_columns() {
        assert_eq!(Layout::even(Axis::Horizontal, &[]), None);
        assert_eq!(Layout::even(Axis::Horizontal, &[p(1), p(1)]), None);
        assert_eq!(
            Layout::even(Axis::Vertical, &[p(7)]),
            Some(Layout::new(p(7)))
        );
        let l = Layout::even(Axis::Horizontal, &[p(1), p(2), p(3)]).unwrap();
        assert_eq!(l.panes(), vec![p(1), p(2), p(3)]);
        check(
            &l,
            20,
            4,
            "
            11111112222222333333
            11111112222222333333
            11111112222222333333
            11111112222222333333
            ",
        );
        let l = Layout::even(Axis::Vertical, &[p(1), p(2), p(3), p(4)]).unwrap();
        let heights: Vec<u16> = l.rects(area(5, 40)).iter().map(|(_, r)| r.height).collect();
        assert_eq!(heights, [10, 10, 10, 10]);
    }

    #[test]
    fn tiny_and_extreme_areas_never_panic() {
        let areas = [
            area(0, 0),
            area(1, 1),
            area(3, 3),
            area(0, 50),
            area(50, 0),
            Rect::new(u16::MAX - 3, u16::MAX - 3, 3, 3),
            Rect::new(u16::MAX - 100, 0, 100, 100),
            area(u16::MAX, u16::MAX),
        ];
        for mut layout in sample_layouts() {
            for a in areas {
                let rects = layout.rects(a);
                assert_eq!(rects.iter().map(|(_, r)| r.area()).sum::<u32>(), a.area());
                for id in layout.panes() {
                    for dir in Direction::ALL {
                        layout.neighbor(a, id, dir);
                        layout.resize(a, id, dir, 3);
                        layout.resize(a, id, dir, u16::MAX);
                    }
                }
                for (x, y) in [(0, 0), (1, 1), (2, 2), (a.x, a.y), (u16::MAX, u16::MAX)] {
                    layout.pane_at(a, x, y);
                    if let Some(h) = layout.border_at(a, x, y) {
                        layout.drag_border(a, &h, 0, 0);
                        layout.drag_border(a, &h, u16::MAX, u16::MAX);
                    }
                }
            }
        }
    }

    #[test]
    fn presets_cover_every_pane_once() {
        let panes: Vec<PaneId> = (1..=5).map(PaneId).collect();
        let area = Rect::new(0, 0, 80, 24);
        for preset in Preset::ALL {
            let layout = Layout::preset(preset, &panes, PaneId(3)).unwrap();
            let mut got = layout.panes();
            got.sort();
            assert_eq!(got, panes, "{preset:?}");
            let cells: u32 = layout.rects(area).iter().map(|(_, r)| r.area()).sum();
            assert_eq!(cells, area.area(), "{preset:?} must tile the area");
        }
    }

    #[test]
    fn main_vertical_puts_the_main_pane_left_and_large() {
        let panes: Vec<PaneId> = (1..=3).map(PaneId).collect();
        let layout = Layout::preset(Preset::MainVertical, &panes, PaneId(2)).unwrap();
        let rects = layout.rects(Rect::new(0, 0, 100, 30));
        let main = rects.iter().find(|(p, _)| *p == PaneId(2)).unwrap().1;
        assert_eq!((main.x, main.width, main.height), (0, 60, 30));
    }

    #[test]
    fn tiled_makes_a_square_grid() {
        let panes: Vec<PaneId> = (1..=4).map(PaneId).collect();
        let layout = Layout::preset(Preset::Tiled, &panes, PaneId(1)).unwrap();
        let rects = layout.rects(Rect::new(0, 0, 80, 24));
        let sizes: Vec<(u16, u16)> = rects.iter().map(|(_, r)| (r.width, r.height)).collect();
        assert_eq!(sizes, vec![(40, 12); 4]);
    }

    #[test]
    fn rotate_moves_each_pane_one_cell_on() {
        let mut layout =
            Layout::even(Axis::Horizontal, &[PaneId(1), PaneId(2), PaneId(3)]).unwrap();
        assert!(layout.rotate());
        assert_eq!(layout.panes(), vec![PaneId(3), PaneId(1), PaneId(2)]);
        assert!(!Layout::new(PaneId(1)).rotate());
    }
}
