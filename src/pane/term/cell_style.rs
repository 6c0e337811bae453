//! The values a cell's look is made of: [`Colour`], [`Attrs`] and
//! [`UnderlineStyle`] (the screen's [`crate::pane::term::screen::CellStyle`]
//! holds them; the cells' markers, [`crate::pane::term::cell_marks`], too).

use std::ops::{BitOr, BitOrAssign};

/// A colour as the program set it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum Colour {
    /// The terminal's own foreground or background.
    #[default]
    Default,
    /// One of the 256 palette colours (0-15 are the named ones).
    Indexed(u8),
    Rgb(u8, u8, u8),
}

/// A cell's on/off text attributes, as a set of bits. The bits are in the
/// order of ratatui's `Modifier` (SGR's order), so the renderer turns them
/// into one with a mask; bit 3 is free (the underline has its own
/// [`UnderlineStyle`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Attrs(u16);

impl Attrs {
    pub const BOLD: Self = Self(1);
    pub const DIM: Self = Self(1 << 1);
    pub const ITALIC: Self = Self(1 << 2);
    /// Kept in the cell's marker (vt100 drops it).
    pub const BLINK: Self = Self(1 << 4);
    pub const INVERSE: Self = Self(1 << 6);
    /// Kept in the cell's marker (vt100 drops it).
    pub const CONCEAL: Self = Self(1 << 7);
    /// Kept in the cell's marker (vt100 drops it).
    pub const STRIKETHROUGH: Self = Self(1 << 8);
    /// Kept in the cell's marker (vt100 drops it).
    pub const OVERLINE: Self = Self(1 << 9);

    #[inline]
    pub const fn empty() -> Self {
        Self(0)
    }

    #[inline]
    pub const fn from_bits(bits: u16) -> Self {
        Self(bits)
    }

    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every attribute of `other` is set.
    #[inline]
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// `flag` on or off.
    #[inline]
    pub fn set(&mut self, flag: Self, on: bool) {
        if on {
            self.0 |= flag.0;
        } else {
            self.0 &= !flag.0;
        }
    }

    /// `flag` if `on`, else nothing (without a branch: this runs per cell).
    #[inline]
    pub(crate) const fn if_on(flag: Self, on: bool) -> u16 {
        flag.0 * on as u16
    }
}

impl BitOr for Attrs {
    type Output = Self;

    #[inline]
    fn bitor(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }
}

impl BitOrAssign for Attrs {
    #[inline]
    fn bitor_assign(&mut self, other: Self) {
        self.0 |= other.0;
    }
}

/// How a cell is underlined. vt100 keeps only "underlined or not", which
/// reads as `Single`; the other styles come from the cell's marker.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum UnderlineStyle {
    #[default]
    None,
    Single,
    Double,
    Curly,
    Dotted,
    Dashed,
}
