//! The store moving to a newer tilework (an upgrade, see `crate::upgrade`):
//! every picture and placement under the same ids, so the anchors the
//! panes' cells and histories carry name the same placements in the new
//! process. The pictures' pixels travel apart, as bytes.

use serde::{Deserialize, Serialize};

use super::{ImageId, Origin, PixelRect, Placement, PlacementId, Store, Stored};
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
        self.images
            .iter()
            .map(|&(_, w, h)| (w as usize).saturating_mul(h as usize).saturating_mul(4))
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
        let next = new.add_image(image).unwrap();
        assert_ne!(next, id);
    }
}
