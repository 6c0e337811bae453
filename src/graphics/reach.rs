//! What reaches the users' terminals: which picture protocols the
//! attached terminals speak, and how big a cell is in pixels.
//!
//! Each client's terminal is asked at attach (DA1's `4`: sixel; a kitty
//! graphics `a=q` query: kitty; `CSI 16 t`: the cell's size), and keeps
//! its own [`Speaks`] for drawing. Programs in panes are answered for all
//! attached terminals at once ([`answers`]): a protocol is said to work
//! when at least one attached terminal will show what the program sends
//! in it (tilework draws each picture to every terminal that speaks sixel
//! or kitty, whichever protocol the program used).

use std::sync::Mutex;

/// The picture protocols one terminal speaks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Speaks {
    pub sixel: bool,
    pub kitty: bool,
}

impl Speaks {
    /// It shows pictures at all.
    pub fn any(self) -> bool {
        self.sixel || self.kitty
    }
}

/// A cell's size in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellPixels {
    pub width: u16,
    pub height: u16,
}

/// What is assumed when no terminal told (xterm's default font is close).
pub const DEFAULT_CELL: CellPixels = CellPixels {
    width: 10,
    height: 20,
};

/// What the attached terminals told, for the workspace's panes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reach {
    /// Some attached terminal shows pictures (in either protocol: each
    /// picture is drawn in what each terminal speaks).
    pub pictures: bool,
    /// The cell size of the first terminal that told it.
    pub cell: Option<CellPixels>,
}

static REACH: Mutex<Reach> = Mutex::new(Reach {
    pictures: false,
    cell: None,
});

/// Sets what the attached terminals told (the loop calls it whenever a
/// client attaches or leaves).
pub fn set(reach: Reach) {
    *REACH.lock().unwrap_or_else(|p| p.into_inner()) = reach;
}

/// What the attached terminals told.
pub fn answers() -> Reach {
    *REACH.lock().unwrap_or_else(|p| p.into_inner())
}

/// Whether a picture a program sends now reaches some user: the truthful
/// answer to kitty's `a=q`, DA1's `4` and XTSMGRAPHICS.
pub fn pictures_reach() -> bool {
    answers().pictures
}

/// A cell's size in pixels, as told or assumed.
pub fn cell_pixels() -> CellPixels {
    answers().cell.unwrap_or(DEFAULT_CELL)
}

/// How many cells `pixels` cover, rounded up (at least one).
pub fn cells_for(pixels: u32, cell: u16) -> u16 {
    let cell = u32::from(cell.max(1));
    u16::try_from(pixels.div_ceil(cell).max(1)).unwrap_or(u16::MAX)
}
