//! Answers to what picture programs ask of the terminal: primary device
//! attributes (DA1, whose `4` says sixel), XTSMGRAPHICS
//! (`CSI ? Pi ; Pa ; Pv S`: colour registers, the largest sixel picture)
//! and the pane's size in pixels (`CSI 14 t`, the cell's `CSI 16 t`).
//! Sixel is said to work only while an attached terminal shows pictures.
//!
//! The fidelity layer answers them (see `fidelity::answers`) from the
//! pane's own [`Reach`], which the loop sets with the rest of what the
//! attached terminals told (`pane::term::attached_facts`).

use std::io::Write as _;

use crate::graphics::reach::Reach;

/// Colour registers a sixel picture may use (the decoder's).
const REGISTERS: u32 = 1024;

/// A query about pictures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PictureQuery {
    /// DA1: `CSI c` or `CSI 0 c`.
    DeviceAttributes,
    /// XTSMGRAPHICS: `CSI ? item ; action S`.
    Graphics { item: u16, action: u16 },
    /// `CSI 14 t`: the text area in pixels.
    AreaPixels,
    /// `CSI 16 t`: a cell in pixels.
    CellPixels,
}

/// Appends the answer to `query` on a pane of `size` (rows, columns),
/// as `reach` says.
pub fn answer(query: PictureQuery, size: (u16, u16), reach: Reach, out: &mut Vec<u8>) {
    let cell = reach.cell_pixels();
    let (rows, cols) = (u32::from(size.0), u32::from(size.1));
    let (width, height) = (cols * u32::from(cell.width), rows * u32::from(cell.height));
    // Writing to a Vec cannot fail.
    let _ = match query {
        // A VT100 with advanced video, like tmux; with sixel (`4`) while
        // pictures reach a user.
        PictureQuery::DeviceAttributes if reach.pictures => write!(out, "\x1b[?1;2;4c"),
        PictureQuery::DeviceAttributes => write!(out, "\x1b[?1;2c"),
        PictureQuery::AreaPixels => write!(out, "\x1b[4;{height};{width}t"),
        PictureQuery::CellPixels => write!(out, "\x1b[6;{};{}t", cell.height, cell.width),
        // Status: 0 success, 1 unknown item, 2 unknown action, 3 failure.
        PictureQuery::Graphics { item, action } => match (item, action) {
            (1 | 2, _) if !reach.pictures => write!(out, "\x1b[?{item};3;0S"),
            (1 | 2, 1..=4) if item == 1 => write!(out, "\x1b[?1;0;{REGISTERS}S"),
            (1 | 2, 1..=4) => write!(out, "\x1b[?2;0;{width};{height}S"),
            (1 | 2, _) => write!(out, "\x1b[?{item};2;0S"),
            _ => write!(out, "\x1b[?{item};1;0S"),
        },
    };
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::graphics::reach::CellPixels;
    use crate::pane::term::attached_facts::AttachedFacts;
    use crate::pane::term::fidelity::Fidelity;
    use crate::pane::term::terminal_queries::PaneEvents;

    /// What a pane of 24 x 80 told `reach` answers to `query`, through
    /// the fidelity layer as a live pane's output goes.
    fn answered(reach: Reach, query: &[u8]) -> String {
        let nz = |n| std::num::NonZeroU16::new(n).unwrap();
        let mut parser =
            vt100::Parser::new_with_callbacks(nz(24), nz(80), 0, PaneEvents::default());
        let mut fidelity = Fidelity::live();
        fidelity.set_attached_facts(AttachedFacts {
            reach,
            ..AttachedFacts::default()
        });
        fidelity.process(&mut parser, query).unwrap();
        String::from_utf8_lossy(&parser.callbacks().replies).into_owned()
    }

    const SHOWN: Reach = Reach {
        pictures: true,
        cell: Some(CellPixels {
            width: 9,
            height: 18,
        }),
    };

    #[test]
    fn sizes_in_pixels_are_the_told_cells_or_the_assumed_ones() {
        assert_eq!(answered(SHOWN, b"\x1b[16t"), "\x1b[6;18;9t");
        assert_eq!(answered(SHOWN, b"\x1b[14t"), "\x1b[4;432;720t");
        let assumed = Reach::default();
        assert_eq!(answered(assumed, b"\x1b[16t"), "\x1b[6;20;10t");
        assert_eq!(answered(assumed, b"\x1b[14t"), "\x1b[4;480;800t");
    }

    #[test]
    fn sixel_is_claimed_only_while_pictures_reach_a_user() {
        for da1 in [&b"\x1b[c"[..], b"\x1b[0c"] {
            assert_eq!(answered(SHOWN, da1), "\x1b[?1;2;4c");
            assert_eq!(answered(Reach::default(), da1), "\x1b[?1;2c");
        }
        assert_eq!(answered(SHOWN, b"\x1b[?1;1S"), "\x1b[?1;0;1024S");
        assert_eq!(answered(SHOWN, b"\x1b[?2;1S"), "\x1b[?2;0;720;432S");
        assert_eq!(answered(Reach::default(), b"\x1b[?2;1S"), "\x1b[?2;3;0S");
        // ReGIS: no such item.
        assert_eq!(answered(SHOWN, b"\x1b[?3;1S"), "\x1b[?3;1;0S");
    }

    #[test]
    fn answers_keep_the_order_of_the_queries() {
        // The cursor report is vt100's, DA1 the layer's: in the order asked.
        assert_eq!(
            answered(SHOWN, b"\x1b[6n\x1b[c\x1b[5n"),
            "\x1b[1;1R\x1b[?1;2;4c\x1b[0n"
        );
    }
}
