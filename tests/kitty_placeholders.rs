//! Kitty graphics' Unicode placeholders (issue 46), end to end: a program
//! sends a picture with a virtual placement (`a=T,U=1`) and prints the
//! placeholder cells (`U+10EEEE`, diacritics for row and column, the
//! image id in the foreground colour). The outer terminal gets the
//! picture placed over those cells, and when the pane scrolls, at the
//! cells' new rows; a terminal that speaks sixel gets it as sixel there.
//! The cells themselves show blank, never the private-use character.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use common::{TerminalReplies, Tilework, graphics};

const ROWS: u16 = 24;
const COLS: u16 = 80;

/// How tilework starts each kitty placement it draws.
const PLACEMENT_START: &[u8] = b"\x1b_Ga=p,";
/// How tilework starts each sixel it draws.
const SIXEL_START: &[u8] = b"\x1bP0;1;0q";

fn start(replies: TerminalReplies) -> Tilework {
    graphics::start(replies, ROWS, COLS)
}

fn run(tw: &mut Tilework, command: &str, n: u32) -> u16 {
    graphics::run(tw, command, n, (ROWS, COLS))
}

/// The first diacritics of kitty's row and column table: 0, 1, 2, 3.
const DIACRITICS: [char; 4] = ['\u{0305}', '\u{030D}', '\u{030E}', '\u{0310}'];

/// Writes `name` in the test's directory: a 40 x 40 RGB picture sent
/// with a virtual placement of 4 x 2 cells under image id `id` (quietly,
/// as programs that use placeholders do), then its placeholder cells,
/// two lines of four, the id in a 256-colour foreground. The first cell
/// of each line gives row and column, the rest only their row (kitty's
/// rules fill the column in).
fn placeholder_picture(tw: &Tilework, name: &str, id: u8) {
    coloured_placeholder_picture(tw, name, id, [0, 150, 250]);
}

/// [`placeholder_picture`] of colour `rgb`.
fn coloured_placeholder_picture(tw: &Tilework, name: &str, id: u8, rgb: [u8; 3]) {
    let data = STANDARD.encode(vec![rgb; 40 * 40].concat());
    let mut out = format!("\x1b_Ga=T,U=1,i={id},c=4,r=2,f=24,s=40,v=40,q=2;{data}\x1b\\");
    for row_mark in &DIACRITICS[..2] {
        out.push_str(&format!("\x1b[38;5;{id}m"));
        for col in 0..4 {
            out.push('\u{10EEEE}');
            out.push(*row_mark);
            if col == 0 {
                out.push(DIACRITICS[0]);
            }
        }
        out.push_str("\x1b[39m\n");
    }
    std::fs::write(tw.dir.path().join(name), out).unwrap();
}

#[test]
fn a_placeholder_picture_is_drawn_over_its_cells_and_at_their_new_rows_when_scrolled() {
    let mut tw = start(TerminalReplies {
        kitty_graphics: true,
        ..TerminalReplies::default()
    });
    placeholder_picture(&tw, "pic.kitty", 42);
    // The prompt at the bottom first, so that output scrolls the pane.
    run(&mut tw, "seq 1 40", 1);
    let mark_row = run(&mut tw, "cat pic.kitty", 2);
    let top = mark_row - 2;
    // 1-based, the border before the pane's first column; the whole
    // picture over the 4 x 2 placeholder cells.
    graphics::wait_for_drawn_at(&tw, "the picture", PLACEMENT_START, 0, (top + 1, 2));
    let raw = tw.raw_tail();
    assert!(
        raw.windows(9).any(|w| w == b"c=4,r=2,z"),
        "placed over 4 x 2 cells"
    );
    // The cells show blank, not the private-use character.
    let row_text = tw.with_screen(|s| s.contents_between(top, 0, top + 1, COLS));
    assert!(!row_text.contains('\u{10EEEE}'), "{row_text:?}");

    // Two more rows of output scroll the pane by two: the picture is
    // drawn at the cells' new rows.
    let before = tw.raw_tail().len();
    run(&mut tw, "true", 3);
    graphics::wait_for_drawn_at(
        &tw,
        "the picture",
        PLACEMENT_START,
        before,
        (top + 1 - 2, 2),
    );

    // Scrolled off the screen, it is drawn no more.
    let before = tw.raw_tail().len();
    run(&mut tw, "seq 1 30", 4);
    common::wait_until("the placement deleted", || {
        let raw = tw.raw_tail();
        raw[before..].windows(9).any(|w| w == b"\x1b_Ga=d,d=")
    });
}

#[test]
fn a_placeholder_picture_is_drawn_as_sixel_where_its_cells_are() {
    let mut tw = start(TerminalReplies {
        sixel: true,
        ..TerminalReplies::default()
    });
    placeholder_picture(&tw, "pic.kitty", 9);
    run(&mut tw, "seq 1 40", 1);
    let mark_row = run(&mut tw, "cat pic.kitty", 2);
    let top = mark_row - 2;
    graphics::wait_for_drawn_at(&tw, "a sixel", SIXEL_START, 0, (top + 1, 2));
    let before = tw.raw_tail().len();
    run(&mut tw, "true", 3);
    graphics::wait_for_drawn_at(&tw, "a sixel", SIXEL_START, before, (top + 1 - 2, 2));
}

/// Each kitty placement drawn in `raw` since the last time the terminal
/// was cleared of pictures: where (1-based row, column) and which of the
/// terminal's pictures (`i`).
fn placements_with_ids(raw: &[u8]) -> Vec<((u16, u16), u32)> {
    let clear = b"\x1b_Ga=d,d=A";
    let from = raw
        .windows(clear.len())
        .rposition(|w| w == clear)
        .unwrap_or(0);
    let raw = &raw[from..];
    let at = graphics::drawn_at(raw, PLACEMENT_START);
    let ids = raw
        .windows(PLACEMENT_START.len())
        .enumerate()
        .filter(|(_, w)| *w == PLACEMENT_START)
        .filter_map(|(n, _)| {
            let text = String::from_utf8_lossy(&raw[n..(n + 64).min(raw.len())]).into_owned();
            let id = text.split(",i=").nth(1)?.split(',').next()?.parse().ok()?;
            Some(id)
        })
        .collect::<Vec<u32>>();
    at.into_iter().zip(ids).collect()
}

#[test]
fn two_panes_using_the_same_image_id_each_show_their_own_picture() {
    let mut tw = start(TerminalReplies {
        kitty_graphics: true,
        ..TerminalReplies::default()
    });
    coloured_placeholder_picture(&tw, "red.kitty", 1, [250, 0, 0]);
    coloured_placeholder_picture(&tw, "blue.kitty", 1, [0, 0, 250]);
    tw.send("\x02%");
    tw.wait_for("two prompts", |s| {
        s.contents_between(1, COLS / 2, 1, COLS).contains('$')
            && s.contents_between(1, 0, 1, COLS / 2).contains('$')
    });
    // The right pane, focused after the split, shows the blue one; then
    // the left one (a focus move to the left) the red one, both as id 1.
    run(&mut tw, "cat blue.kitty", 1);
    tw.send("\x02\x1b[D");
    run(&mut tw, "cat red.kitty", 2);
    common::wait_until("both pictures placed", || {
        let placed = placements_with_ids(&tw.raw_tail());
        let left = placed.iter().find(|(at, _)| at.1 == 2);
        let right = placed.iter().find(|(at, _)| at.1 > COLS / 2);
        matches!((left, right), (Some(l), Some(r)) if l.1 != r.1)
    });
    let sent = tw
        .raw_tail()
        .windows(7)
        .filter(|w| *w == b"\x1b_Ga=t,")
        .count();
    assert_eq!(sent, 2, "two pictures, neither replacing the other");
}

#[test]
fn a_placeholder_picture_scrolled_off_shows_again_in_the_history() {
    let mut tw = start(TerminalReplies {
        kitty_graphics: true,
        ..TerminalReplies::default()
    });
    placeholder_picture(&tw, "pic.kitty", 42);
    run(&mut tw, "seq 1 40", 1);
    let mark_row = run(&mut tw, "cat pic.kitty", 2);
    graphics::wait_for_drawn_at(&tw, "the picture", PLACEMENT_START, 0, (mark_row - 1, 2));
    let before = tw.raw_tail().len();
    run(&mut tw, "seq 1 40", 3);
    common::wait_until("the placement deleted", || {
        let raw = tw.raw_tail();
        raw[before..].windows(9).any(|w| w == b"\x1b_Ga=d,d=")
    });
    // The wheel brings the history back (three rows a notch): the
    // placeholder cells are in it, and so is the picture.
    let before = tw.raw_tail().len();
    tw.send("\x1b[<64;10;10M".repeat(12));
    common::wait_until("the picture drawn in the history", || {
        let raw = tw.raw_tail();
        !graphics::drawn_at(&raw[before..], PLACEMENT_START).is_empty()
    });
}

/// The part of the picture (`x`, `y`, `w`, `h`) and the cells (`c`, `r`)
/// of each kitty placement tilework drew in `raw`.
fn placed_parts(raw: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(raw);
    text.split("\x1b_Ga=p,")
        .skip(1)
        .filter_map(|p| {
            let keys = p.split('\x1b').next()?;
            let from = keys.find("x=")?;
            let to = keys.find(",z=")?;
            Some(keys[from..to].to_owned())
        })
        .collect()
}

#[test]
fn the_placement_named_by_the_underline_colour_shows_without_an_underline() {
    let mut tw = start(TerminalReplies {
        kitty_graphics: true,
        ..TerminalReplies::default()
    });
    // One 40 x 40 picture, two virtual placements: 1 over 4 x 2 cells,
    // 2 over 8 x 4. Two placeholder cells name placement 2 in their
    // underline colour (256 colours, then true colour), no underline on,
    // as kitty's rules allow: the top left 2 x 1 cells of placement 2,
    // a quarter of a quarter of the picture.
    let data = STANDARD.encode(vec![[0u8, 150, 250]; 40 * 40].concat());
    let out = format!(
        "\x1b_Ga=T,U=1,i=42,p=1,c=4,r=2,f=24,s=40,v=40,q=2;{data}\x1b\\\
         \x1b_Ga=p,U=1,i=42,p=2,c=8,r=4,q=2\x1b\\\
         \x1b[38;5;42;58;5;2m\u{10EEEE}\u{305}\u{305}\x1b[58:2::0:0:2m\u{10EEEE}\x1b[m\n"
    );
    std::fs::write(tw.dir.path().join("two.kitty"), out).unwrap();
    run(&mut tw, "seq 1 40", 1);
    let mark_row = run(&mut tw, "cat two.kitty", 2);
    graphics::wait_for_drawn_at(&tw, "the picture", PLACEMENT_START, 0, (mark_row, 2));
    let parts = placed_parts(&tw.raw_tail());
    assert_eq!(
        parts.last().map(String::as_str),
        Some("x=0,y=0,w=10,h=10,c=2,r=1"),
        "placement 2's corner, not placement 1's ({parts:?})"
    );
}
