//! The workspace's pictures and where they are placed: one store per
//! workspace, which its pane table owns ([`PictureStore`], a handle every
//! pane's intake (sixel, kitty graphics) adds to, and every client's
//! drawer, a history view's replay and a remote pane's stream read).
//! Two workspaces in one process (tests) keep their pictures apart.
//!
//! The pixels a store holds are bounded by a budget (the config's
//! `image_memory`, 64 MiB unless set): past it, the oldest placements are
//! dropped, and with them pictures nothing else shows; then the oldest
//! pictures kept without a placement (kitty's "transmit only").
//!
//! A placement does not know where it is on the screen: the pane's cells
//! carry that (see [`crate::graphics::anchor`]), so it scrolls, is erased
//! and leaves with the alternate screen as the text does. A placement
//! whose cells are all gone stays in the store until the budget drops it
//! or its program deletes it; that costs only its entry (the picture is
//! shared).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::graphics::animation::{Animation, FrameError, FrameOp};
use crate::graphics::image::RgbaImage;

/// The store moving to a newer tilework (an upgrade).
pub mod carry;

/// The budget when the config sets none.
pub const DEFAULT_BUDGET: usize = 64 << 20;

/// A picture in the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ImageId(pub u32);

/// A placement in the store. At most [`MAX_PLACEMENT_IDS`] are told apart
/// (the cells' anchors hold two digits of base 1023); ids are reused only
/// after every other one was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlacementId(pub u32);

/// How many placement ids the anchors can tell apart.
pub const MAX_PLACEMENT_IDS: u32 = 1023 * 1023;

/// A rectangle of a picture's pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PixelRect {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

impl PixelRect {
    /// All of `image`.
    pub fn whole(image: &RgbaImage) -> Self {
        Self {
            x: 0,
            y: 0,
            width: image.width(),
            height: image.height(),
        }
    }
}

/// Which protocol a placement came from, with the program's own numbers
/// for it (kitty's `i=`, `I=` and `p=`), so the program can delete it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Origin {
    #[default]
    Sixel,
    Kitty {
        /// `i=` (0: none given).
        image: u32,
        /// `p=` (0: none given).
        placement: u32,
    },
}

/// A picture shown over a pane's cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    pub image: ImageId,
    /// The part of the picture shown.
    pub source: PixelRect,
    /// The cells it covers, from its anchor (the top left cell).
    pub cols: u16,
    pub rows: u16,
    /// Kitty's `z=`: below 0 under the text. Sixel: 0.
    pub z: i32,
    pub origin: Origin,
}

/// Why the store refused something.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// The picture alone is over the budget.
    OverBudget { bytes: usize, budget: usize },
    /// No picture has this id (deleted, or dropped for the budget).
    NoSuchImage,
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::OverBudget { bytes, budget } => write!(
                f,
                "the picture takes {bytes} bytes, over the image memory budget of {budget}"
            ),
            StoreError::NoSuchImage => write!(f, "no such picture"),
        }
    }
}

impl std::error::Error for StoreError {}

#[derive(Debug)]
struct Stored {
    image: RgbaImage,
    /// Placements showing it.
    placed: u32,
}

/// Pictures and placements, under a budget.
#[derive(Debug)]
pub struct Store {
    images: BTreeMap<ImageId, Stored>,
    /// In the order they were made (ids grow until they wrap).
    placements: BTreeMap<PlacementId, Placement>,
    /// The order of `placements`, oldest first (ids wrap, so the map's
    /// order is not their age).
    age: std::collections::VecDeque<PlacementId>,
    next_image: u32,
    next_placement: u32,
    budget: usize,
    used: usize,
    /// Bumped by every change a drawer may need to see.
    generation: u64,
    /// Images dropped since the drawers last asked (a drawer that sent one
    /// to a kitty terminal deletes it there).
    dropped: HashMap<ImageId, ()>,
    /// Sixel placements by a hash of the data they were decoded from: the
    /// same picture sent again (a program redrawing it, a history window
    /// or a resized screen replaying the pane's output) shares the
    /// placement, and costs no more memory.
    by_content: HashMap<u64, PlacementId>,
    /// The frames of the pictures that have more than one (kitty's
    /// animation); drawing shows each one's current frame.
    animations: HashMap<ImageId, Animation>,
}

impl Default for Store {
    fn default() -> Self {
        Self::new(DEFAULT_BUDGET)
    }
}

impl Store {
    pub fn new(budget: usize) -> Self {
        Self {
            images: BTreeMap::new(),
            placements: BTreeMap::new(),
            age: std::collections::VecDeque::new(),
            next_image: 1,
            next_placement: 1,
            budget,
            used: 0,
            generation: 0,
            dropped: HashMap::new(),
            by_content: HashMap::new(),
            animations: HashMap::new(),
        }
    }

    /// The budget from now on; what is over it is dropped now.
    pub fn set_budget(&mut self, budget: usize) {
        self.budget = budget;
        self.fit_budget(0);
    }

    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Bytes of pixels held.
    pub fn used(&self) -> usize {
        self.used
    }

    /// Changes whenever a picture or placement comes or goes.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Keeps `image`, dropping the oldest placements (and pictures) to make
    /// room under the budget.
    pub fn add_image(&mut self, image: RgbaImage) -> Result<ImageId, StoreError> {
        let bytes = image.byte_size();
        if bytes > self.budget {
            return Err(StoreError::OverBudget {
                bytes,
                budget: self.budget,
            });
        }
        self.fit_budget(bytes);
        let id = ImageId(self.next_image);
        self.next_image = self.next_image.wrapping_add(1).max(1);
        self.used += bytes;
        self.images.insert(id, Stored { image, placed: 0 });
        self.generation += 1;
        Ok(id)
    }

    /// The picture as shown now: its current frame if it has frames.
    pub fn image(&self, id: ImageId) -> Option<&RgbaImage> {
        let stored = self.images.get(&id)?;
        Some(
            self.animations
                .get(&id)
                .map_or(&stored.image, Animation::current_image),
        )
    }

    /// The picture's first frame (what a terminal that plays its frames
    /// itself is sent first).
    pub fn root_image(&self, id: ImageId) -> Option<&RgbaImage> {
        let stored = self.images.get(&id)?;
        Some(
            self.animations
                .get(&id)
                .map_or(&stored.image, |a| &a.frames()[0].image),
        )
    }

    /// The picture's frames and how they play, if it has frames.
    pub fn animation(&self, id: ImageId) -> Option<&Animation> {
        self.animations.get(&id)
    }

    /// Adds, edits or composes a frame of a picture, or changes how its
    /// frames play (kitty's `a=f`, `a=c`, `a=a`). New frames count
    /// against the budget; one past it is refused, nothing is dropped for
    /// it.
    pub fn animate(&mut self, id: ImageId, op: FrameOp) -> Result<(), FrameError> {
        let stored = self.images.get(&id).ok_or(FrameError::NoImage)?;
        let room = self.budget.saturating_sub(self.used);
        let animation = self
            .animations
            .entry(id)
            .or_insert_with(|| Animation::new(stored.image.clone()));
        let grew = animation.apply(op, room)?;
        self.used += grew;
        self.generation += 1;
        Ok(())
    }

    /// Deletes frame `n` of a picture's animation (kitty's `a=d,d=f`, see
    /// [`Animation::delete_frame`]); its pixels leave the budget. Returns
    /// whether a frame went (`false`: no such picture, or it has one
    /// frame).
    pub fn delete_frame(&mut self, id: ImageId, n: u32) -> bool {
        let Some(animation) = self.animations.get_mut(&id) else {
            return false;
        };
        let Some(freed) = animation.delete_frame(n) else {
            return false;
        };
        // The picture as sent may be the frame deleted: it becomes the
        // first frame now (the pixels are shared, not copied).
        let root = animation.frames()[0].image.clone();
        if let Some(stored) = self.images.get_mut(&id) {
            stored.image = root;
        }
        self.used = self.used.saturating_sub(freed);
        self.generation += 1;
        true
    }

    /// Places a kept picture; its anchor goes in the pane's cells next
    /// (see [`crate::graphics::anchor::anchor_bytes`]).
    pub fn place(&mut self, placement: Placement) -> Result<PlacementId, StoreError> {
        let stored = self
            .images
            .get_mut(&placement.image)
            .ok_or(StoreError::NoSuchImage)?;
        stored.placed += 1;
        if self.placements.len() as u32 >= MAX_PLACEMENT_IDS - 1
            && let Some(oldest) = self.age.front().copied()
        {
            self.delete_placement(oldest);
        }
        let mut id = self.next_placement;
        while self.placements.contains_key(&PlacementId(id)) {
            id = id % (MAX_PLACEMENT_IDS - 1) + 1;
        }
        self.next_placement = id % (MAX_PLACEMENT_IDS - 1) + 1;
        let id = PlacementId(id);
        self.placements.insert(id, placement);
        self.age.push_back(id);
        self.generation += 1;
        Ok(id)
    }

    /// The placement made for data of hash `content` (see
    /// [`Store::remember_content`]), made younger: it is in use again.
    pub fn reuse_content(&mut self, content: u64) -> Option<(PlacementId, Placement)> {
        let id = *self.by_content.get(&content)?;
        let placement = self.placements.get(&id)?.clone();
        if let Some(at) = self.age.iter().position(|p| *p == id) {
            self.age.remove(at);
            self.age.push_back(id);
        }
        Some((id, placement))
    }

    /// Notes that `placement` shows data of hash `content`.
    pub fn remember_content(&mut self, content: u64, placement: PlacementId) {
        self.by_content.insert(content, placement);
    }

    pub fn placement(&self, id: PlacementId) -> Option<&Placement> {
        self.placements.get(&id)
    }

    /// Every placement, oldest first.
    pub fn placements(&self) -> impl Iterator<Item = (PlacementId, &Placement)> {
        self.age
            .iter()
            .filter_map(|id| self.placements.get(id).map(|p| (*id, p)))
    }

    /// Deletes a placement; its picture goes too when nothing else shows
    /// it and it was placed (a picture only transmitted stays).
    pub fn delete_placement(&mut self, id: PlacementId) -> bool {
        let Some(placement) = self.placements.remove(&id) else {
            return false;
        };
        self.age.retain(|p| *p != id);
        self.by_content.retain(|_, p| *p != id);
        if let Some(stored) = self.images.get_mut(&placement.image) {
            stored.placed = stored.placed.saturating_sub(1);
            if stored.placed == 0 {
                self.forget_image(placement.image);
            }
        }
        self.generation += 1;
        true
    }

    /// Deletes every placement `doomed` picks. Returns how many.
    pub fn delete_placements_where(
        &mut self,
        mut doomed: impl FnMut(PlacementId, &Placement) -> bool,
    ) -> usize {
        let ids: Vec<PlacementId> = self
            .placements
            .iter()
            .filter(|(id, p)| doomed(**id, p))
            .map(|(id, _)| *id)
            .collect();
        for id in &ids {
            self.delete_placement(*id);
        }
        ids.len()
    }

    /// Deletes a picture and every placement of it.
    pub fn delete_image(&mut self, id: ImageId) -> bool {
        self.delete_placements_where(|_, p| p.image == id);
        let had = self.images.contains_key(&id);
        self.forget_image(id);
        had
    }

    /// Pictures dropped since the last call (a drawer frees what it sent
    /// of them).
    pub fn take_dropped(&mut self) -> Vec<ImageId> {
        self.dropped.drain().map(|(id, _)| id).collect()
    }

    fn forget_image(&mut self, id: ImageId) {
        if let Some(stored) = self.images.remove(&id) {
            self.used -= stored.image.byte_size();
            if let Some(animation) = self.animations.remove(&id) {
                self.used -= animation.extra_bytes();
            }
            self.dropped.insert(id, ());
            self.generation += 1;
        }
    }

    /// Drops the oldest placements, then the oldest unplaced pictures,
    /// until `more` bytes fit.
    fn fit_budget(&mut self, more: usize) {
        while self.used + more > self.budget {
            if let Some(oldest) = self.age.front().copied() {
                tracing::debug!(?oldest, "image memory budget: dropping a placement");
                self.delete_placement(oldest);
                continue;
            }
            let Some(oldest) = self.images.keys().next().copied() else {
                break;
            };
            self.forget_image(oldest);
        }
    }
}

/// A workspace's store, as its parts hold it: clones share one [`Store`].
/// Shared rather than lent, for the work that reads it off the loop's
/// thread: a history view's replay anchors the pictures still kept, a
/// remote pane's stream sends them. A default one is a store of its own
/// (a pane or replay outside a workspace: tests, benches).
#[derive(Debug, Clone, Default)]
pub struct PictureStore(Arc<Mutex<Store>>);

impl PictureStore {
    /// The store, locked. Hold it only for a look or a change: the loop's
    /// intake and drawers and those threads take it.
    pub fn lock(&self) -> MutexGuard<'_, Store> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;

    fn picture(side: u32) -> RgbaImage {
        RgbaImage::new(side, side, vec![7; (side * side * 4) as usize]).unwrap()
    }

    fn placed(store: &mut Store, image: ImageId) -> PlacementId {
        let source = PixelRect::whole(store.image(image).unwrap());
        store
            .place(Placement {
                image,
                source,
                cols: 1,
                rows: 1,
                z: 0,
                origin: Origin::Sixel,
            })
            .unwrap()
    }

    #[test]
    fn past_the_budget_the_oldest_placements_go_first() {
        // Three 10x10 pictures (400 bytes each) in a budget of 1000.
        let mut store = Store::new(1000);
        let a = store.add_image(picture(10)).unwrap();
        let pa = placed(&mut store, a);
        let b = store.add_image(picture(10)).unwrap();
        let pb = placed(&mut store, b);
        let c = store.add_image(picture(10)).unwrap();
        let pc = placed(&mut store, c);
        assert!(store.placement(pa).is_none() && store.image(a).is_none());
        assert!(store.placement(pb).is_some() && store.placement(pc).is_some());
        assert_eq!(store.used(), 800);
        assert_eq!(store.take_dropped(), vec![a]);
    }

    #[test]
    fn a_picture_over_the_whole_budget_is_refused() {
        let mut store = Store::new(100);
        assert!(matches!(
            store.add_image(picture(10)),
            Err(StoreError::OverBudget { bytes: 400, .. })
        ));
        assert_eq!(store.used(), 0);
    }

    #[test]
    fn deleting_the_last_placement_frees_the_picture() {
        let mut store = Store::new(10_000);
        let a = store.add_image(picture(10)).unwrap();
        let p1 = placed(&mut store, a);
        let p2 = placed(&mut store, a);
        assert!(store.delete_placement(p1));
        assert!(store.image(a).is_some());
        assert!(store.delete_placement(p2));
        assert!(store.image(a).is_none());
        assert_eq!(store.used(), 0);
        // A picture only transmitted stays until deleted.
        let b = store.add_image(picture(10)).unwrap();
        assert!(store.image(b).is_some());
        assert!(store.delete_image(b));
        assert!(
            store
                .place(Placement {
                    image: b,
                    source: PixelRect::default(),
                    cols: 1,
                    rows: 1,
                    z: 0,
                    origin: Origin::Sixel
                })
                .is_err()
        );
    }

    #[test]
    fn a_deleted_frame_leaves_the_budget() {
        let mut store = Store::new(10_000);
        let a = store.add_image(picture(10)).unwrap();
        let frame = FrameOp::Frame {
            data: picture(10),
            x: 0,
            y: 0,
            base: 0,
            edit: 0,
            background: 0,
            replace: true,
            gap: 0,
        };
        store.animate(a, frame.clone()).unwrap();
        store.animate(a, frame).unwrap();
        assert_eq!(store.used(), 3 * 400);
        assert!(store.delete_frame(a, 1));
        assert_eq!(store.used(), 2 * 400);
        assert!(store.delete_frame(a, 2));
        assert!(!store.delete_frame(a, 1), "the only frame stays");
        assert_eq!(store.used(), 400);
        assert_eq!(store.animation(a).map(|a| a.frames().len()), Some(1));
    }
}
