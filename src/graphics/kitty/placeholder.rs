//! Kitty's Unicode placeholders: a picture shown through text. A program
//! makes a virtual placement (`a=p,U=1` or `a=T,U=1`, `c=` columns by
//! `r=` rows) and prints `U+10EEEE` in each cell the picture covers; the
//! cell's combining diacritics say which row and column of the placement
//! it is (and a third one the image id's high byte), its foreground colour
//! the image id's low 24 bits, its underline colour the placement id.
//!
//! The cells are text, so the pane's parser moves them with scrolling,
//! keeps them in the history and reflows them; this file only reads them.
//! Which cells hold placeholders is asked only of a pane with a virtual
//! placement, when a frame is drawn (`pane::term::placeholder_cells`).

use std::collections::HashMap;

use crate::graphics::image::RgbaImage;
use crate::graphics::picture_store::{PixelRect, PlacementId};

/// The placeholder character.
pub const PLACEHOLDER: char = '\u{10EEEE}';

/// Its UTF-8 form: how a cell's text starts when it holds one.
pub const PLACEHOLDER_UTF8: [u8; 4] = [0xF4, 0x8E, 0xBB, 0xAE];

/// The diacritics whose place in this list is a row, a column or the id's
/// high byte (kitty's `rowcolumn-diacritics.txt`: combining marks of class
/// 230 without decompositions), ascending.
const DIACRITICS: [u32; 297] = [
    0x0305, 0x030D, 0x030E, 0x0310, 0x0312, 0x033D, 0x033E, 0x033F, 0x0346, 0x034A, 0x034B, 0x034C,
    0x0350, 0x0351, 0x0352, 0x0357, 0x035B, 0x0363, 0x0364, 0x0365, 0x0366, 0x0367, 0x0368, 0x0369,
    0x036A, 0x036B, 0x036C, 0x036D, 0x036E, 0x036F, 0x0483, 0x0484, 0x0485, 0x0486, 0x0487, 0x0592,
    0x0593, 0x0594, 0x0595, 0x0597, 0x0598, 0x0599, 0x059C, 0x059D, 0x059E, 0x059F, 0x05A0, 0x05A1,
    0x05A8, 0x05A9, 0x05AB, 0x05AC, 0x05AF, 0x05C4, 0x0610, 0x0611, 0x0612, 0x0613, 0x0614, 0x0615,
    0x0616, 0x0617, 0x0657, 0x0658, 0x0659, 0x065A, 0x065B, 0x065D, 0x065E, 0x06D6, 0x06D7, 0x06D8,
    0x06D9, 0x06DA, 0x06DB, 0x06DC, 0x06DF, 0x06E0, 0x06E1, 0x06E2, 0x06E4, 0x06E7, 0x06E8, 0x06EB,
    0x06EC, 0x0730, 0x0732, 0x0733, 0x0735, 0x0736, 0x073A, 0x073D, 0x073F, 0x0740, 0x0741, 0x0743,
    0x0745, 0x0747, 0x0749, 0x074A, 0x07EB, 0x07EC, 0x07ED, 0x07EE, 0x07EF, 0x07F0, 0x07F1, 0x07F3,
    0x0816, 0x0817, 0x0818, 0x0819, 0x081B, 0x081C, 0x081D, 0x081E, 0x081F, 0x0820, 0x0821, 0x0822,
    0x0823, 0x0825, 0x0826, 0x0827, 0x0829, 0x082A, 0x082B, 0x082C, 0x082D, 0x0951, 0x0953, 0x0954,
    0x0F82, 0x0F83, 0x0F86, 0x0F87, 0x135D, 0x135E, 0x135F, 0x17DD, 0x193A, 0x1A17, 0x1A75, 0x1A76,
    0x1A77, 0x1A78, 0x1A79, 0x1A7A, 0x1A7B, 0x1A7C, 0x1B6B, 0x1B6D, 0x1B6E, 0x1B6F, 0x1B70, 0x1B71,
    0x1B72, 0x1B73, 0x1CD0, 0x1CD1, 0x1CD2, 0x1CDA, 0x1CDB, 0x1CE0, 0x1DC0, 0x1DC1, 0x1DC3, 0x1DC4,
    0x1DC5, 0x1DC6, 0x1DC7, 0x1DC8, 0x1DC9, 0x1DCB, 0x1DCC, 0x1DD1, 0x1DD2, 0x1DD3, 0x1DD4, 0x1DD5,
    0x1DD6, 0x1DD7, 0x1DD8, 0x1DD9, 0x1DDA, 0x1DDB, 0x1DDC, 0x1DDD, 0x1DDE, 0x1DDF, 0x1DE0, 0x1DE1,
    0x1DE2, 0x1DE3, 0x1DE4, 0x1DE5, 0x1DE6, 0x1DFE, 0x20D0, 0x20D1, 0x20D4, 0x20D5, 0x20D6, 0x20D7,
    0x20DB, 0x20DC, 0x20E1, 0x20E7, 0x20E9, 0x20F0, 0x2CEF, 0x2CF0, 0x2CF1, 0x2DE0, 0x2DE1, 0x2DE2,
    0x2DE3, 0x2DE4, 0x2DE5, 0x2DE6, 0x2DE7, 0x2DE8, 0x2DE9, 0x2DEA, 0x2DEB, 0x2DEC, 0x2DED, 0x2DEE,
    0x2DEF, 0x2DF0, 0x2DF1, 0x2DF2, 0x2DF3, 0x2DF4, 0x2DF5, 0x2DF6, 0x2DF7, 0x2DF8, 0x2DF9, 0x2DFA,
    0x2DFB, 0x2DFC, 0x2DFD, 0x2DFE, 0x2DFF, 0xA66F, 0xA67C, 0xA67D, 0xA6F0, 0xA6F1, 0xA8E0, 0xA8E1,
    0xA8E2, 0xA8E3, 0xA8E4, 0xA8E5, 0xA8E6, 0xA8E7, 0xA8E8, 0xA8E9, 0xA8EA, 0xA8EB, 0xA8EC, 0xA8ED,
    0xA8EE, 0xA8EF, 0xA8F0, 0xA8F1, 0xAAB0, 0xAAB2, 0xAAB3, 0xAAB7, 0xAAB8, 0xAABE, 0xAABF, 0xAAC1,
    0xFE20, 0xFE21, 0xFE22, 0xFE23, 0xFE24, 0xFE25, 0xFE26, 0x10A0F, 0x10A38, 0x1D185, 0x1D186,
    0x1D187, 0x1D188, 0x1D189, 0x1D1AA, 0x1D1AB, 0x1D1AC, 0x1D1AD, 0x1D242, 0x1D243, 0x1D244,
];

/// The number a diacritic stands for.
fn value_of(c: char) -> Option<u16> {
    DIACRITICS
        .binary_search(&u32::from(c))
        .ok()
        .and_then(|i| u16::try_from(i).ok())
}

/// The diacritic for `n` (tests and programs that print placeholders).
pub fn diacritic(n: u16) -> Option<char> {
    DIACRITICS
        .get(usize::from(n))
        .and_then(|&c| char::from_u32(c))
}

/// What a placeholder cell's own diacritics say (missing ones come from
/// the cell on its left).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Marks {
    pub row: Option<u16>,
    pub col: Option<u16>,
    pub high: Option<u8>,
}

/// The marks of a cell's text when it is a placeholder (`None`: it is
/// not). Marks after the first that is not a diacritic are not read.
pub fn marks(text: &str) -> Option<Marks> {
    let rest = text.strip_prefix(PLACEHOLDER)?;
    let mut values = rest.chars().map_while(value_of);
    let row = values.next();
    let col = row.and_then(|_| values.next());
    let high = col
        .and_then(|_| values.next())
        .map(|v| u8::try_from(v).unwrap_or(u8::MAX));
    Some(Marks { row, col, high })
}

/// One placeholder cell read whole: which cell of which placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlaceholderCell {
    /// The program's image id (`i`).
    pub image: u32,
    /// The program's placement id (`p`; 0: any of the image's).
    pub placement: u32,
    pub row: u16,
    pub col: u16,
}

/// Reads a row's placeholder cells left to right, filling in what a cell
/// leaves out from the cell on its left, as kitty's rules say.
#[derive(Debug, Default)]
pub struct RowReader {
    /// The cell just left of the next one, if it was a placeholder: its
    /// colours' ids, then what it was read as (with its high byte).
    left: Option<(u32, u32, PlaceholderCell, u8)>,
}

impl RowReader {
    /// The next cell is not a placeholder.
    pub fn gap(&mut self) {
        self.left = None;
    }

    /// The next cell is a placeholder with `marks`, its foreground colour
    /// standing for `fg` and its underline colour for `underline`.
    pub fn cell(&mut self, marks: Marks, fg: u32, underline: u32) -> PlaceholderCell {
        let left = self
            .left
            .filter(|(f, u, _, _)| *f == fg && *u == underline)
            .map(|(_, _, cell, high)| (cell, high));
        let (row, col, high) = match (marks.row, marks.col, marks.high) {
            (None, _, _) => match left {
                Some((l, high)) => (l.row, l.col + 1, high),
                None => (0, 0, 0),
            },
            (Some(row), None, _) => match left {
                Some((l, high)) if l.row == row => (row, l.col + 1, high),
                _ => (row, 0, 0),
            },
            (Some(row), Some(col), None) => match left {
                Some((l, high)) if l.row == row && l.col + 1 == col => (row, col, high),
                _ => (row, col, 0),
            },
            (Some(row), Some(col), Some(high)) => (row, col, high),
        };
        let cell = PlaceholderCell {
            image: (fg & 0x00FF_FFFF) | (u32::from(high) << 24),
            placement: underline,
            row,
            col,
        };
        self.left = Some((fg, underline, cell, high));
        cell
    }
}

/// Virtual placements kept at most per pane.
const MAX_VIRTUAL: usize = 4096;

/// A pane's virtual placements: the store's placement for each of the
/// program's (image, placement) numbers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VirtualPlacements {
    by_number: HashMap<(u32, u32), PlacementId>,
}

impl VirtualPlacements {
    pub fn is_empty(&self) -> bool {
        self.by_number.is_empty()
    }

    /// Every one, as (image, placement, the store's id), in order.
    pub fn listed(&self) -> Vec<(u32, u32, u32)> {
        let mut all: Vec<(u32, u32, u32)> = self
            .by_number
            .iter()
            .map(|(&(image, placement), id)| (image, placement, id.0))
            .collect();
        all.sort_unstable();
        all
    }

    /// The placement made before under these numbers, if any.
    pub fn get(&self, image: u32, placement: u32) -> Option<PlacementId> {
        self.by_number.get(&(image, placement)).copied()
    }

    /// Notes a placement under the program's numbers. Returns whether it
    /// is kept (a pane keeps at most [`MAX_VIRTUAL`]).
    pub fn insert(&mut self, image: u32, placement: u32, id: PlacementId) -> bool {
        if self.by_number.len() >= MAX_VIRTUAL && !self.by_number.contains_key(&(image, placement))
        {
            return false;
        }
        self.by_number.insert((image, placement), id);
        true
    }

    /// Forgets the placements whose numbers (image, placement) `doomed`
    /// picks, and gives them back (for the store to delete).
    pub fn take_where(&mut self, doomed: impl Fn(u32, u32) -> bool) -> Vec<PlacementId> {
        let mut taken = Vec::new();
        self.by_number.retain(|&(image, placement), id| {
            let gone = doomed(image, placement);
            if gone {
                taken.push(*id);
            }
            !gone
        });
        taken
    }

    /// The placement a placeholder cell of image `image` and placement
    /// `placement` shows: the one of those numbers, or with placement 0
    /// (the cell names none), any of the image's.
    pub fn find(&self, image: u32, placement: u32) -> Option<PlacementId> {
        if let Some(id) = self.get(image, placement) {
            return Some(id);
        }
        if placement != 0 {
            return None;
        }
        self.by_number
            .iter()
            .filter(|((i, _), _)| *i == image)
            .map(|(_, id)| *id)
            .min()
    }
}

/// What a virtual placement of `cols` x `rows` cells (of `cell` pixels)
/// shows of `source` of `image`, as kitty shows it: fitted inside the
/// cells, its proportions kept, centred, as a copy with transparent
/// margins. `None` when it fills the cells already (to a pixel), or the
/// copy would be too large: it is then stretched over them.
pub fn fitted(
    image: &RgbaImage,
    source: PixelRect,
    (cols, rows): (u16, u16),
    (cell_w, cell_h): (u32, u32),
) -> Option<RgbaImage> {
    let box_w = u64::from(cols.max(1)) * u64::from(cell_w.max(1));
    let box_h = u64::from(rows.max(1)) * u64::from(cell_h.max(1));
    let (w, h) = (u64::from(source.width), u64::from(source.height));
    let (width, height) = if w * box_h > h * box_w {
        (w, (w * box_h + box_w / 2) / box_w)
    } else {
        ((h * box_w + box_h / 2) / box_h, h)
    };
    if width <= w && height <= h {
        return None;
    }
    let (width, height) = (u32::try_from(width).ok()?, u32::try_from(height).ok()?);
    crate::graphics::image::check_size(width, height).ok()?;
    let (left, top) = (
        (width - source.width) as usize / 2,
        (height - source.height) as usize / 2,
    );
    let stride = image.width() as usize * 4;
    let row_bytes = source.width as usize * 4;
    let mut pixels = vec![0; width as usize * height as usize * 4];
    for row in 0..source.height as usize {
        let from = (source.y as usize + row) * stride + source.x as usize * 4;
        let to = ((top + row) * width as usize + left) * 4;
        pixels[to..to + row_bytes].copy_from_slice(image.pixels().get(from..from + row_bytes)?);
    }
    RgbaImage::new(width, height, pixels).ok()
}

/// The id a colour stands for: 24-bit colours their value, 256-colour
/// indices theirs, the default colour 0.
pub fn colour_id(rgb: Option<(u8, u8, u8)>, index: Option<u8>) -> u32 {
    match (rgb, index) {
        (Some((r, g, b)), _) => (u32::from(r) << 16) | (u32::from(g) << 8) | u32::from(b),
        (None, Some(i)) => u32::from(i),
        (None, None) => 0,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;

    fn cell(marks: &[u16]) -> String {
        let mut s = String::from(PLACEHOLDER);
        s.extend(marks.iter().filter_map(|&n| diacritic(n)));
        s
    }

    #[test]
    fn diacritics_read_back_and_other_text_is_no_placeholder() {
        assert_eq!(diacritic(0), Some('\u{0305}'));
        assert_eq!(diacritic(1), Some('\u{030D}'));
        let m = marks(&cell(&[3, 296, 2]));
        assert_eq!(
            m,
            Some(Marks {
                row: Some(3),
                col: Some(296),
                high: Some(2)
            })
        );
        assert_eq!(marks("x\u{0305}"), None);
        assert_eq!(marks(&cell(&[])), Some(Marks::default()));
    }

    #[test]
    fn cells_leaving_marks_out_take_them_from_the_left_as_kitty_says() {
        // Kitty's own example: row marks only on the first column, and the
        // id's high byte given once.
        let mut r = RowReader::default();
        let first = r.cell(marks(&cell(&[1, 0, 2])).unwrap_or_default(), 42, 0);
        assert_eq!((first.image, first.row, first.col), (42 + (2 << 24), 1, 0));
        let next = r.cell(marks(&cell(&[])).unwrap_or_default(), 42, 0);
        assert_eq!((next.image, next.row, next.col), (42 + (2 << 24), 1, 1));
        let only_row = r.cell(marks(&cell(&[1])).unwrap_or_default(), 42, 0);
        assert_eq!((only_row.image, only_row.col), (42 + (2 << 24), 2));
        // Another colour starts over; so does a gap.
        let other = r.cell(marks(&cell(&[])).unwrap_or_default(), 7, 0);
        assert_eq!((other.image, other.row, other.col), (7, 0, 0));
        r.gap();
        let after_gap = r.cell(marks(&cell(&[4, 9])).unwrap_or_default(), 7, 0);
        assert_eq!((after_gap.row, after_gap.col), (4, 9));
    }

    #[test]
    fn a_cell_naming_no_placement_shows_any_of_its_images() {
        let mut v = VirtualPlacements::default();
        v.insert(5, 3, PlacementId(10));
        assert_eq!(v.find(5, 0), Some(PlacementId(10)));
        assert_eq!(v.find(5, 3), Some(PlacementId(10)));
        assert_eq!(v.find(5, 4), None);
        assert_eq!(v.find(6, 0), None);
        assert_eq!(colour_id(Some((0, 1, 2)), None), 258);
        assert_eq!(colour_id(None, Some(42)), 42);
    }

    #[test]
    fn a_picture_is_fitted_inside_its_cells_keeping_its_proportions() {
        let red = RgbaImage::new(40, 20, [255, 0, 0, 255].repeat(40 * 20)).unwrap();
        let whole = PixelRect::whole(&red);
        // 4 x 2 cells of 10 x 20: a 40 x 40 box; the picture centred in it.
        let fit = fitted(&red, whole, (4, 2), (10, 20)).unwrap();
        assert_eq!((fit.width(), fit.height()), (40, 40));
        let alpha = |y: usize| fit.pixels()[y * 40 * 4 + 3];
        assert_eq!(
            (alpha(9), alpha(10), alpha(29), alpha(30)),
            (0, 255, 255, 0)
        );
        // Cells of its own proportions: as it is.
        assert!(fitted(&red, whole, (4, 1), (10, 20)).is_none());
    }
}
