//! What reaches the users' terminals: which picture protocols the
//! attached terminals speak, and how big a cell is in pixels.
//!
//! Each client's terminal is asked at attach (DA1's `4`: sixel; a kitty
//! graphics `a=q` query: kitty; `CSI 16 t`: the cell's size), and keeps
//! its own [`Speaks`] for drawing. Programs in panes are answered for all
//! attached terminals at once ([`Reach`]): a protocol is said to work
//! when at least one attached terminal will show what the program sends
//! in it (tilework draws each picture to every terminal that speaks sixel
//! or kitty, whichever protocol the program used).
//!
//! The loop works the [`Reach`] out when a client attaches or leaves
//! (`client::facts::picture_reach`) and hands it to every pane with the
//! rest of what the terminals told (`pane::term::attached_facts`): each
//! pane answers, places pictures and sizes its PTY from its own copy.

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

/// The largest cell a terminal may say it has, in pixels on either side.
/// Real ones stay well under it (a 4K screen at a 40 pt font: ~50 x 100);
/// a claim past it is a broken or hostile terminal, and believing it would
/// scale each picture it is drawn on past any memory.
pub const MAX_CELL_PIXELS: u16 = 512;

impl CellPixels {
    /// The cell size a terminal (or an attach request) claims, if it is
    /// one a real terminal can have: 1 to [`MAX_CELL_PIXELS`] on each
    /// side. Any other claim is logged and refused (the caller goes on as
    /// if nothing was told).
    pub fn claimed(width: u64, height: u64, from: &str) -> Option<Self> {
        let fits = |n: u64| (1..=u64::from(MAX_CELL_PIXELS)).contains(&n);
        if fits(width) && fits(height) {
            return Some(Self {
                width: u16::try_from(width).ok()?,
                height: u16::try_from(height).ok()?,
            });
        }
        tracing::warn!(
            width,
            height,
            "{from} claims a cell of {width}x{height} pixels: refused (at most \
             {MAX_CELL_PIXELS}x{MAX_CELL_PIXELS}); the cell size is not told"
        );
        None
    }
}

/// What is assumed when no terminal told (xterm's default font is close).
pub const DEFAULT_CELL: CellPixels = CellPixels {
    width: 10,
    height: 20,
};

/// What the attached terminals told of pictures, for the workspace's
/// panes: `pictures` is the truthful answer to kitty's `a=q`, DA1's `4`
/// and XTSMGRAPHICS.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reach {
    /// Some attached terminal shows pictures (in either protocol: each
    /// picture is drawn in what each terminal speaks).
    pub pictures: bool,
    /// The cell size of the first terminal that told it.
    pub cell: Option<CellPixels>,
}

impl Reach {
    /// A cell's size in pixels, as told or assumed.
    pub fn cell_pixels(self) -> CellPixels {
        self.cell.unwrap_or(DEFAULT_CELL)
    }
}

/// How many cells `pixels` cover, rounded up (at least one).
pub fn cells_for(pixels: u32, cell: u16) -> u16 {
    let cell = u32::from(cell.max(1));
    u16::try_from(pixels.div_ceil(cell).max(1)).unwrap_or(u16::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_claim_is_believed_only_within_a_real_terminals_sizes() {
        assert_eq!(
            CellPixels::claimed(10, 20, "a test"),
            Some(CellPixels {
                width: 10,
                height: 20
            })
        );
        let max = u64::from(MAX_CELL_PIXELS);
        assert!(CellPixels::claimed(max, max, "a test").is_some());
        for (w, h) in [
            (0, 20),
            (10, 0),
            (max + 1, 20),
            (65535, 65535),
            (u64::MAX, 1),
        ] {
            assert_eq!(CellPixels::claimed(w, h, "a test"), None, "{w}x{h}");
        }
    }
}
