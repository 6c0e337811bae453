//! Where a pane's screen shows its virtual placements (kitty's `U=1`):
//! the cells holding Unicode placeholders, read as the picture anchors
//! the drawer already places pictures by. Asked only for a pane whose
//! program made a virtual placement, when a frame is drawn; the text
//! itself costs nothing more to parse.

use std::borrow::Cow;

use crate::graphics::anchor::Anchor;
use crate::graphics::kitty::placeholder::{self, PLACEHOLDER_UTF8, RowReader, VirtualPlacements};
use crate::pane::term::cell_marks;
use crate::pane::term::emulator::Term;
use crate::pane::term::screen::{Colour, ScreenView};

/// The kitty virtual placements (`U=1`) the pane's program made, which its
/// placeholder cells show; `None` while it made none.
pub fn virtual_placements(term: &Term) -> Option<&VirtualPlacements> {
    let virtuals = term.fast_forward.kitty.intake.virtual_placements();
    (!virtuals.is_empty()).then_some(virtuals)
}

/// The number a placeholder's colour stands for.
fn id_of(colour: Colour) -> u32 {
    match colour {
        Colour::Rgb(r, g, b) => placeholder::colour_id(Some((r, g, b)), None),
        Colour::Indexed(i) => placeholder::colour_id(None, Some(i)),
        Colour::Default => 0,
    }
}

/// Every placeholder cell of `screen` that names one of `virtuals`, as
/// (row, column, anchor), row by row.
pub fn placeholder_anchors(
    screen: ScreenView<'_>,
    virtuals: &VirtualPlacements,
) -> Vec<(u16, u16, Anchor)> {
    let (rows, cols) = screen.size();
    let mut found = Vec::new();
    for row in 0..rows.get() {
        let mut reader = RowReader::default();
        for col in 0..cols.get() {
            let Some(cell) = screen.cell(row, col) else {
                break;
            };
            let (text, fg, underline) = match cell.unmarked() {
                Some((text, style)) => (Cow::Borrowed(text), style.fg, Colour::Default),
                None => {
                    let (text, style, extra) = cell.text_and_style();
                    // The placement's number rides in the underline colour,
                    // underlined or not.
                    let underline =
                        extra.map_or(Colour::Default, |id| cell_marks::extra(id).underline_colour);
                    (text, style.fg, underline)
                }
            };
            let marks = text
                .as_bytes()
                .starts_with(&PLACEHOLDER_UTF8)
                .then(|| placeholder::marks(&text))
                .flatten();
            let Some(marks) = marks else {
                reader.gap();
                continue;
            };
            let read = reader.cell(marks, id_of(fg), id_of(underline));
            if let Some(placement) = virtuals.find(read.image, read.placement) {
                found.push((
                    row,
                    col,
                    Anchor {
                        placement,
                        row: read.row,
                        col: read.col,
                    },
                ));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graphics::picture_store::PlacementId;
    use crate::pane::term::screen::PlainTerminal;

    #[test]
    fn placeholder_cells_read_as_anchors_and_move_with_the_text() {
        let mut virtuals = VirtualPlacements::default();
        virtuals.insert(42, 0, PlacementId(7));
        let mut term = PlainTerminal::new(5, 10);
        // Kitty's example: a 2 x 3 placeholder giving only the rows.
        term.process(
            "\x1b[38;5;42m\u{10EEEE}\u{305}\u{10EEEE}\u{10EEEE}\r\n\
             \u{10EEEE}\u{30D}\u{10EEEE}\u{10EEEE}\x1b[39m\r\n"
                .as_bytes(),
        );
        let cells = |term: &PlainTerminal| -> Vec<(u16, u16, u16, u16)> {
            placeholder_anchors(term.screen(), &virtuals)
                .into_iter()
                .map(|(r, c, a)| (r, c, a.row, a.col))
                .collect()
        };
        let at_top = vec![
            (0, 0, 0, 0),
            (0, 1, 0, 1),
            (0, 2, 0, 2),
            (1, 0, 1, 0),
            (1, 1, 1, 1),
            (1, 2, 1, 2),
        ];
        assert_eq!(cells(&term), at_top);
        // Three more lines scroll it up by one.
        term.process(b"a\r\nb\r\nc\r\n");
        let moved: Vec<_> = at_top
            .iter()
            .filter(|c| c.0 > 0)
            .map(|&(r, c, ar, ac)| (r - 1, c, ar, ac))
            .collect();
        assert_eq!(cells(&term), moved);
        // As `kitten icat --unicode-placeholder` prints them: the id in a
        // colon-form true colour, all three marks in each cell.
        let mut virtuals = VirtualPlacements::default();
        virtuals.insert(258 + (2 << 24), 0, PlacementId(8));
        let mut icat = PlainTerminal::new(2, 4);
        icat.process(
            "\x1b[38:2:0:1:2m\u{10EEEE}\u{305}\u{305}\u{30E}\u{10EEEE}\u{305}\u{30D}\u{30E}\x1b[39m"
                .as_bytes(),
        );
        let found: Vec<_> = placeholder_anchors(icat.screen(), &virtuals)
            .into_iter()
            .map(|(r, c, a)| (r, c, a.placement, a.col))
            .collect();
        assert_eq!(
            found,
            [(0, 0, PlacementId(8), 0), (0, 1, PlacementId(8), 1)]
        );
        // Another image's cells show nothing.
        let mut other = PlainTerminal::new(2, 4);
        other.process("\x1b[38;5;9m\u{10EEEE}\u{305}\u{305}".as_bytes());
        assert!(placeholder_anchors(other.screen(), &virtuals).is_empty());
    }

    #[test]
    fn the_placement_in_the_underline_colour_is_read_without_an_underline() {
        let mut virtuals = VirtualPlacements::default();
        virtuals.insert(42, 1, PlacementId(7));
        virtuals.insert(42, 2, PlacementId(8));
        // Through the pane's own parsing, which keeps what vt100 drops.
        let nz = |n| std::num::NonZeroU16::new(n).expect("a size");
        let mut parser = vt100::Parser::new_with_callbacks(
            nz(2),
            nz(10),
            0,
            crate::pane::term::terminal_queries::PaneEvents::default(),
        );
        // Placement 2, in a 256-colour and a true-colour underline colour,
        // no underline on; then ordinary text in that colour.
        crate::pane::term::fidelity::Fidelity::live()
            .process(
                &mut parser,
                "\x1b[38;5;42;58;5;2m\u{10EEEE}\u{305}\u{305}\x1b[58:2::0:0:2m\u{10EEEE}\x1b[bx\x1b[m"
                    .as_bytes(),
            )
            .expect("vt100 parses");
        let screen = ScreenView::new(parser.screen());
        let found: Vec<_> = placeholder_anchors(screen, &virtuals)
            .into_iter()
            .map(|(r, c, a)| (r, c, a.placement))
            .collect();
        // The third one a copy by REP.
        assert_eq!(
            found,
            [
                (0, 0, PlacementId(8)),
                (0, 1, PlacementId(8)),
                (0, 2, PlacementId(8))
            ]
        );
        // The text beside them keeps no underline colour: drawn as before.
        let x = screen.cell(0, 3).map(|c| c.style());
        assert_eq!(x.map(|s| s.underline_colour), Some(Colour::Default));
    }
}
