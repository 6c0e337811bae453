//! A decoded picture: what every image a pane takes becomes (sixel, kitty
//! RGB, RGBA or PNG), and what every protocol drawn to a user's terminal is
//! made from. Pixels are shared, so a picture placed twice or drawn to two
//! terminals is kept once.

use std::fmt;
use std::sync::Arc;

/// Pictures wider or taller than this are refused: a program cannot make
/// tilework hold more than this many pixels on a side (the limit).
pub const MAX_SIDE: u32 = 10_000;

/// Four bytes (red, green, blue, alpha) per pixel, rows top to bottom.
#[derive(Clone, PartialEq, Eq)]
pub struct RgbaImage {
    width: u32,
    height: u32,
    pixels: Arc<[u8]>,
}

/// Why a picture was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageError {
    /// Zero pixels wide or tall.
    Empty,
    /// Over [`MAX_SIDE`] on a side.
    TooLarge { width: u32, height: u32 },
    /// The pixel bytes are not `width * height * 4`.
    WrongLength { expected: usize, got: usize },
}

impl fmt::Display for ImageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImageError::Empty => write!(f, "the picture has no pixels"),
            ImageError::TooLarge { width, height } => write!(
                f,
                "the picture is {width}x{height} pixels, over the {MAX_SIDE}x{MAX_SIDE} limit"
            ),
            ImageError::WrongLength { expected, got } => {
                write!(f, "expected {expected} bytes of pixels, got {got}")
            }
        }
    }
}

impl std::error::Error for ImageError {}

impl RgbaImage {
    /// A picture from RGBA bytes, checked against the limits.
    pub fn new(width: u32, height: u32, pixels: Vec<u8>) -> Result<Self, ImageError> {
        check_size(width, height)?;
        let expected = width as usize * height as usize * 4;
        if pixels.len() != expected {
            return Err(ImageError::WrongLength {
                expected,
                got: pixels.len(),
            });
        }
        Ok(RgbaImage {
            width,
            height,
            pixels: pixels.into(),
        })
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    /// RGBA, four bytes per pixel, rows top to bottom.
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// What the picture costs in memory: what image budgets count.
    pub fn byte_size(&self) -> usize {
        self.pixels.len()
    }
}

/// Checks a size before its pixels are decoded, so a header that claims a
/// huge picture is refused before anything is allocated for it.
pub fn check_size(width: u32, height: u32) -> Result<(), ImageError> {
    if width == 0 || height == 0 {
        return Err(ImageError::Empty);
    }
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(ImageError::TooLarge { width, height });
    }
    Ok(())
}

impl fmt::Debug for RgbaImage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RgbaImage({}x{})", self.width, self.height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_over_the_limit_or_empty_are_refused() {
        assert_eq!(RgbaImage::new(0, 1, vec![]), Err(ImageError::Empty));
        assert!(matches!(
            check_size(MAX_SIDE + 1, 1),
            Err(ImageError::TooLarge { .. })
        ));
        assert!(matches!(
            RgbaImage::new(2, 1, vec![0; 4]),
            Err(ImageError::WrongLength {
                expected: 8,
                got: 4
            })
        ));
        let ok = RgbaImage::new(2, 1, vec![0; 8]).map(|i| i.byte_size());
        assert_eq!(ok, Ok(8));
    }
}
