//! The store moving to a newer tilework (an upgrade, see `crate::upgrade`):
//! every picture and placement under the same ids, so the anchors the
//! panes' cells and histories carry name the same placements in the new
//! process. The pictures' pixels travel apart, as bytes.

use serde::{Deserialize, Serialize};

use super::{ImageId, Origin, PixelRect, Placement, PlacementId, Store, Stored};
use crate::graphics::animation::{Animation, Frame, Playing};
use crate::graphics::image::RgbaImage;

/// The store without its pixels (those follow in the pictures' order).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct CarriedStore {
    /// Id, width, height of each picture.
    pub images: Vec<(u32, u32, u32)>,
    /// Oldest first.
    pub placements: Vec<CarriedPlacement>,
    pub next_image: u32,
    pub next_placement: u32,
    /// Sixel placements by their data's hash: the pane's history, read
    /// again in the new process, finds its pictures placed already.
    #[serde(default)]
    pub by_content: Vec<(u64, u32)>,
    /// The pictures' frames (kitty's animation); their pixels follow the
    /// pictures', in this order.
    #[serde(default)]
    pub animations: Vec<CarriedAnimation>,
}

/// A picture's frames without their pixels.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CarriedAnimation {
    pub image: u32,
    /// Width, height, gap and version of each frame, the root first.
    pub frames: Vec<(u32, u32, i32, u32)>,
    pub current: usize,
    /// Kitty's `s` and `v`.
    pub playing: u32,
    pub loops: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CarriedPlacement {
    pub id: u32,
    pub image: u32,
    /// x, y, width, height.
    pub source: (u32, u32, u32, u32),
    pub cols: u16,
    pub rows: u16,
    pub z: i32,
    /// Kitty's `i=` and `p=`; none for a sixel.
    pub kitty: Option<(u32, u32)>,
}

impl CarriedStore {
    /// Bytes of pixels that follow.
    pub fn pixel_bytes(&self) -> usize {
        let frames = self.animations.iter().flat_map(|a| &a.frames);
        let sizes = self.images.iter().map(|&(_, w, h)| (w, h));
        sizes
            .chain(frames.map(|&(w, h, _, _)| (w, h)))
            .map(|(w, h)| (w as usize).saturating_mul(h as usize).saturating_mul(4))
            .fold(0, usize::saturating_add)
    }
}

impl Store {
    /// Everything the store holds, and the pictures' pixels appended to
    /// `pixels`.
    pub fn carry(&self, pixels: &mut Vec<u8>) -> CarriedStore {
        let mut carried = CarriedStore {
            next_image: self.next_image,
            next_placement: self.next_placement,
            ..CarriedStore::default()
        };
        for (id, stored) in &self.images {
            carried
                .images
                .push((id.0, stored.image.width(), stored.image.height()));
            pixels.extend_from_slice(stored.image.pixels());
        }
        for (id, animation) in &self.animations {
            let frames = animation.frames();
            carried.animations.push(CarriedAnimation {
                image: id.0,
                frames: (frames.iter())
                    .map(|f| (f.image.width(), f.image.height(), f.gap, f.version))
                    .collect(),
                current: animation.current(),
                playing: animation.playing.number(),
                loops: animation.loops,
            });
            for frame in frames {
                pixels.extend_from_slice(frame.image.pixels());
            }
        }
        carried.by_content = (self.by_content.iter())
            .map(|(&hash, id)| (hash, id.0))
            .collect();
        for (id, p) in self.placements() {
            carried.placements.push(CarriedPlacement {
                id: id.0,
                image: p.image.0,
                source: (p.source.x, p.source.y, p.source.width, p.source.height),
                cols: p.cols,
                rows: p.rows,
                z: p.z,
                kitty: match p.origin {
                    Origin::Sixel => None,
                    Origin::Kitty { image, placement } => Some((image, placement)),
                },
            });
        }
        carried
    }

    /// Takes over what [`Store::carry`] gave (into a store that holds
    /// nothing yet), then keeps to its own budget. Pictures whose pixels
    /// do not read are left out, with their placements.
    pub fn take_carried(&mut self, carried: CarriedStore, mut pixels: &[u8]) {
        for (id, width, height) in carried.images {
            let len = (width as usize)
                .saturating_mul(height as usize)
                .saturating_mul(4);
            let Some((these, rest)) = pixels.split_at_checked(len) else {
                tracing::warn!("the handed-over pictures are cut short");
                break;
            };
            pixels = rest;
            match RgbaImage::new(width, height, these.to_vec()) {
                Ok(image) => {
                    self.used += image.byte_size();
                    self.images.insert(ImageId(id), Stored { image, placed: 0 });
                }
                Err(err) => tracing::warn!("a handed-over picture: {err}"),
            }
        }
        for animation in carried.animations {
            let mut frames = Vec::new();
            for (width, height, gap, version) in animation.frames {
                let len = (width as usize)
                    .saturating_mul(height as usize)
                    .saturating_mul(4);
                let Some((these, rest)) = pixels.split_at_checked(len) else {
                    tracing::warn!("the handed-over frames are cut short");
                    break;
                };
                pixels = rest;
                if let Ok(image) = RgbaImage::new(width, height, these.to_vec()) {
                    frames.push(Frame {
                        image,
                        gap,
                        version,
                        // Numbered anew by `Animation::carried`.
                        id: 0,
                    });
                }
            }
            let playing = Playing::from_number(animation.playing).unwrap_or_default();
            let id = ImageId(animation.image);
            if self.images.contains_key(&id)
                && let Some(animation) =
                    Animation::carried(frames, animation.current, playing, animation.loops)
            {
                self.used += animation.extra_bytes();
                self.animations.insert(id, animation);
            }
        }
        for p in carried.placements {
            let Some(stored) = self.images.get_mut(&ImageId(p.image)) else {
                continue;
            };
            stored.placed += 1;
            let (x, y, width, height) = p.source;
            let placement = Placement {
                image: ImageId(p.image),
                source: PixelRect {
                    x,
                    y,
                    width,
                    height,
                },
                cols: p.cols,
                rows: p.rows,
                z: p.z,
                origin: p
                    .kitty
                    .map_or(Origin::Sixel, |(image, placement)| Origin::Kitty {
                        image,
                        placement,
                    }),
            };
            let id = PlacementId(p.id);
            if self.placements.insert(id, placement).is_none() {
                self.age.push_back(id);
            }
        }
        for (hash, id) in carried.by_content {
            if self.placements.contains_key(&PlacementId(id)) {
                self.by_content.insert(hash, PlacementId(id));
            }
        }
        self.next_image = self.next_image.max(carried.next_image).max(1);
        self.next_placement = carried.next_placement.max(1);
        self.generation += 1;
        self.fit_budget(0);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn pictures_and_placements_come_across_under_the_same_ids() {
        let mut old = Store::new(1 << 20);
        let image = RgbaImage::new(2, 1, vec![1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
        let id = old.add_image(image.clone()).unwrap();
        let placement = Placement {
            image: id,
            source: PixelRect::whole(&image),
            cols: 1,
            rows: 1,
            z: -1,
            origin: Origin::Kitty {
                image: 7,
                placement: 3,
            },
        };
        let _gone = old.place(placement.clone()).unwrap();
        old.delete_placement(_gone);
        let id = old.add_image(image.clone()).unwrap();
        let placement = Placement {
            image: id,
            ..placement
        };
        let pid = old.place(placement.clone()).unwrap();
        let mut pixels = Vec::new();
        let carried = old.carry(&mut pixels);
        assert_eq!(carried.pixel_bytes(), pixels.len());
        let mut new = Store::new(1 << 20);
        new.take_carried(carried, &pixels);
        assert_eq!(new.placement(pid), Some(&placement));
        assert_eq!(new.image(id).unwrap().pixels(), image.pixels());
        // New ones do not take the ids of those carried.
        let next = new.add_image(image.clone()).unwrap();
        assert_ne!(next, id);

        // An animated picture's frames and current frame come across too.
        let blue = RgbaImage::new(2, 1, vec![0, 0, 9, 255, 0, 0, 9, 255]).unwrap();
        old.animate(
            id,
            crate::graphics::animation::FrameOp::Frame {
                data: blue.clone(),
                x: 0,
                y: 0,
                base: 0,
                edit: 0,
                background: 0,
                replace: true,
                gap: 40,
            },
        )
        .unwrap();
        old.animate(
            id,
            crate::graphics::animation::FrameOp::Control {
                playing: Some(Playing::Looping),
                current: Some(2),
                gap: None,
                loops: None,
            },
        )
        .unwrap();
        let mut pixels = Vec::new();
        let carried = old.carry(&mut pixels);
        assert_eq!(carried.pixel_bytes(), pixels.len());
        let mut newer = Store::new(1 << 20);
        newer.take_carried(carried, &pixels);
        assert_eq!(newer.image(id), Some(&blue));
        assert_eq!(newer.root_image(id), Some(&image));
        let animation = newer.animation(id).unwrap();
        assert_eq!(
            (animation.playing, animation.frames()[1].gap),
            (Playing::Looping, 40)
        );
        assert_eq!(newer.used(), old.used());
    }
}
