//! Placing a picture at a pane's cursor: what every protocol's intake does
//! once it has a picture (sixel's `DCS q` ends, kitty's `a=T` or `a=p`).
//! Checks the picture against the pane, keeps it in the store, and gives
//! the bytes that anchor it in the pane's cells.

use crate::graphics::anchor::{self, CursorAfter};
use crate::graphics::image::RgbaImage;
use crate::graphics::picture_store::{
    ImageId, Origin, PixelRect, Placement, PlacementId, Store, StoreError,
};
use crate::graphics::reach::{self, CellPixels};

/// Where and how a picture is placed.
#[derive(Debug, Clone, Copy)]
pub struct Request {
    /// The part of the picture shown (`None`: all of it).
    pub source: Option<PixelRect>,
    /// The cells it covers (`None`: as many as its pixels take at the
    /// terminal's cell size).
    pub cells: Option<(u16, u16)>,
    pub z: i32,
    pub origin: Origin,
    pub cursor_after: CursorAfter,
}

/// The pane's screen where the picture goes.
#[derive(Debug, Clone, Copy)]
pub struct At {
    pub rows: u16,
    pub cols: u16,
    /// The cursor's column.
    pub cursor_col: u16,
    /// A cell's size in pixels, as the pane's program was told.
    pub cell: CellPixels,
}

/// A placement made: the bytes for the parser that anchor it at the cursor.
#[derive(Debug)]
pub struct Placed {
    pub placement: PlacementId,
    pub anchor_bytes: Vec<u8>,
}

/// Why a picture was not placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlaceError {
    /// Larger than the pane (in cells at the terminal's cell size).
    LargerThanPane,
    /// The source rectangle is not inside the picture.
    BadSource,
    Store(StoreError),
}

impl std::fmt::Display for PlaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlaceError::LargerThanPane => write!(f, "the picture is larger than the pane"),
            PlaceError::BadSource => write!(f, "the source rectangle is outside the picture"),
            PlaceError::Store(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlaceError {}

/// Keeps `image` in `store` and places it (sixel: a new picture each
/// time).
pub fn place_new(
    store: &mut Store,
    image: RgbaImage,
    request: Request,
    at: At,
) -> Result<Placed, PlaceError> {
    check_fits(&image, request, at, at.cell)?;
    let id = store.add_image(image).map_err(PlaceError::Store)?;
    place_kept(store, id, request, at)
}

/// Places a picture already in `store` (kitty's `a=p`).
pub fn place_kept(
    store: &mut Store,
    image: ImageId,
    request: Request,
    at: At,
) -> Result<Placed, PlaceError> {
    let cell = at.cell;
    let picture = store
        .image(image)
        .ok_or(PlaceError::Store(StoreError::NoSuchImage))?;
    check_fits(picture, request, at, cell)?;
    let source = source_of(picture, request)?;
    let (cols, rows) = cells_of(source, request, cell);
    let placement = store
        .place(Placement {
            image,
            source,
            cols,
            rows,
            z: request.z,
            origin: request.origin,
        })
        .map_err(PlaceError::Store)?;
    let anchor_bytes = anchor::anchor_bytes(
        placement,
        cols,
        rows,
        at.cursor_col,
        at.cols,
        request.cursor_after,
    );
    Ok(Placed {
        placement,
        anchor_bytes,
    })
}

fn source_of(picture: &RgbaImage, request: Request) -> Result<PixelRect, PlaceError> {
    let whole = PixelRect::whole(picture);
    let Some(mut source) = request.source else {
        return Ok(whole);
    };
    if source.x >= whole.width || source.y >= whole.height {
        return Err(PlaceError::BadSource);
    }
    // Kitty: a width or height of 0 means "to the picture's edge".
    if source.width == 0 || source.x + source.width > whole.width {
        source.width = whole.width - source.x;
    }
    if source.height == 0 || source.y + source.height > whole.height {
        source.height = whole.height - source.y;
    }
    Ok(source)
}

fn cells_of(source: PixelRect, request: Request, cell: CellPixels) -> (u16, u16) {
    let natural = (
        reach::cells_for(source.width, cell.width),
        reach::cells_for(source.height, cell.height),
    );
    match request.cells {
        Some((0, 0)) | None => natural,
        Some((0, rows)) => (natural.0, rows),
        Some((cols, 0)) => (cols, natural.1),
        Some(cells) => cells,
    }
}

fn check_fits(
    picture: &RgbaImage,
    request: Request,
    at: At,
    cell: CellPixels,
) -> Result<(), PlaceError> {
    let source = source_of(picture, request)?;
    let (cols, rows) = cells_of(source, request, cell);
    if cols > at.cols.min(anchor::MAX_COLS) || rows > at.rows.min(anchor::MAX_ROWS) {
        return Err(PlaceError::LargerThanPane);
    }
    Ok(())
}
