//! Answers to what picture programs ask of the terminal: XTSMGRAPHICS
//! (`CSI ? Pi ; Pa ; Pv S`: colour registers, the largest sixel picture)
//! and the pane's size in pixels (`CSI 14 t`, the cell's `CSI 16 t`).
//! Sixel is said to work only while an attached terminal shows pictures
//! (`crate::graphics::reach`).

use std::io::Write as _;
use std::num::NonZeroU16;

use crate::graphics::reach;

/// Colour registers a sixel picture may use (the decoder's).
const REGISTERS: u32 = 1024;

/// Appends the answer to `CSI {i1} params {c}` on a pane of `size` (rows,
/// columns).
pub fn answer(
    i1: Option<u8>,
    c: char,
    params: &[&[u16]],
    size: (NonZeroU16, NonZeroU16),
    out: &mut Vec<u8>,
) {
    let cell = reach::cell_pixels();
    let (rows, cols) = (u32::from(size.0.get()), u32::from(size.1.get()));
    let (width, height) = (cols * u32::from(cell.width), rows * u32::from(cell.height));
    let param = |i: usize| params.get(i).and_then(|p| p.first()).copied().unwrap_or(0);
    match (i1, c) {
        (None, 't') if param(0) == 14 => {
            let _ = write!(out, "\x1b[4;{height};{width}t");
        }
        (None, 't') => {
            let _ = write!(out, "\x1b[6;{};{}t", cell.height, cell.width);
        }
        (Some(b'?'), 'S') => {
            let (item, action) = (param(0), param(1));
            // Status: 0 success, 1 unknown item, 2 unknown action, 3 failure.
            let _ = match (item, action) {
                (1 | 2, _) if !reach::pictures_reach() => write!(out, "\x1b[?{item};3;0S"),
                (1 | 2, 1..=4) if item == 1 => write!(out, "\x1b[?1;0;{REGISTERS}S"),
                (1 | 2, 1..=4) => write!(out, "\x1b[?2;0;{width};{height}S"),
                (1 | 2, _) => write!(out, "\x1b[?{item};2;0S"),
                _ => write!(out, "\x1b[?{item};1;0S"),
            };
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answered(i1: Option<u8>, c: char, params: &[u16]) -> String {
        let nz = |n| NonZeroU16::new(n).unwrap_or(NonZeroU16::MIN);
        let params: Vec<&[u16]> = params.iter().map(std::slice::from_ref).collect();
        let mut out = Vec::new();
        answer(i1, c, &params, (nz(24), nz(80)), &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    #[test]
    fn sizes_in_pixels_and_unknown_graphics_items_are_answered() {
        let cell = reach::cell_pixels();
        assert_eq!(
            answered(None, 't', &[16]),
            format!("\x1b[6;{};{}t", cell.height, cell.width)
        );
        assert_eq!(
            answered(None, 't', &[14]),
            format!("\x1b[4;{};{}t", 24 * cell.height, 80 * cell.width)
        );
        // ReGIS: no such item.
        assert_eq!(answered(Some(b'?'), 'S', &[3, 1]), "\x1b[?3;1;0S");
    }
}
