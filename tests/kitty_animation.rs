//! Kitty graphics animation (issue 46), end to end: a program sends a
//! picture, a second frame (`a=f`) and makes that frame the current one
//! (`a=a,c=2`). A terminal that speaks kitty graphics is sent the frame
//! and the control, so it shows (and plays) the frames itself; a sixel
//! terminal is drawn the current frame.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use common::{TerminalReplies, Tilework, graphics};

const ROWS: u16 = 24;
const COLS: u16 = 80;

fn run(tw: &mut Tilework, command: &str, n: u32) -> u16 {
    graphics::run(tw, command, n, (ROWS, COLS))
}

/// 40 x 40 pixels of one RGB colour, base64.
fn solid(rgb: [u8; 3]) -> String {
    STANDARD.encode(vec![rgb; 40 * 40].concat())
}

/// Writes, in the test's directory, `red.kitty`: a red 40 x 40 picture
/// (id 3) placed at the cursor, then a blue second frame; and
/// `second.kitty`: frame 2 made current, stopped; `drop.kitty`: frame 2
/// deleted (`a=d,d=f`).
fn animation_files(tw: &Tilework) {
    let first = format!(
        "\x1b_Ga=T,i=3,f=24,s=40,v=40,q=2;{}\x1b\\\x1b_Ga=f,i=3,f=24,s=40,v=40,z=100,q=2;{}\x1b\\",
        solid([255, 0, 0]),
        solid([0, 0, 255])
    );
    std::fs::write(tw.dir.path().join("red.kitty"), first).unwrap();
    std::fs::write(
        tw.dir.path().join("second.kitty"),
        "\x1b_Ga=a,i=3,c=2,s=1,q=2\x1b\\",
    )
    .unwrap();
    std::fs::write(
        tw.dir.path().join("drop.kitty"),
        "\x1b_Ga=d,d=f,i=3,r=2,q=2\x1b\\",
    )
    .unwrap();
}

fn count(raw: &[u8], what: &[u8]) -> usize {
    raw.windows(what.len()).filter(|w| *w == what).count()
}

#[test]
fn a_kitty_terminal_is_sent_the_frames_and_the_frame_made_current() {
    let mut tw = graphics::start(
        TerminalReplies {
            kitty_graphics: true,
            ..TerminalReplies::default()
        },
        ROWS,
        COLS,
    );
    animation_files(&tw);
    run(&mut tw, "cat red.kitty", 1);
    common::wait_until("the second frame sent", || {
        count(&tw.raw_tail(), b"\x1b_Ga=f,q=2,f=32,o=z,") > 0
    });
    let raw = tw.raw_tail();
    assert_eq!(count(&raw, b"\x1b_Ga=t,"), 1, "the picture is sent once");
    assert!(
        count(&raw, b",z=100,m=") == 1,
        "the frame's gap goes with it"
    );
    let before = raw.len();
    run(&mut tw, "cat second.kitty", 2);
    common::wait_until("frame 2 made current", || {
        let raw = tw.raw_tail();
        count(&raw[before..], b",s=1,c=2") > 0
    });
    // The frame is not sent again.
    assert_eq!(count(&tw.raw_tail(), b"\x1b_Ga=f,q=2,f=32,o=z,"), 1);
}

/// The sixel colour register a colour of these percentages defines.
fn register(r: u8, g: u8, b: u8) -> Vec<u8> {
    format!(";2;{r};{g};{b}").into_bytes()
}

#[test]
fn a_sixel_terminal_is_drawn_the_current_frame() {
    let mut tw = graphics::start(
        TerminalReplies {
            sixel: true,
            ..TerminalReplies::default()
        },
        ROWS,
        COLS,
    );
    animation_files(&tw);
    let sixel = b"\x1bP0;1;0q";
    run(&mut tw, "cat red.kitty", 1);
    common::wait_until("the first frame drawn", || count(&tw.raw_tail(), sixel) > 0);
    let raw = tw.raw_tail();
    assert!(count(&raw, &register(100, 0, 0)) > 0, "drawn red");
    assert_eq!(count(&raw, &register(0, 0, 100)), 0, "not blue yet");
    let before = raw.len();
    run(&mut tw, "cat second.kitty", 2);
    common::wait_until("the second frame drawn", || {
        let raw = tw.raw_tail();
        count(&raw[before..], &register(0, 0, 100)) > 0
    });
}

#[test]
fn a_deleted_frame_is_deleted_in_a_kitty_terminal() {
    let mut tw = graphics::start(
        TerminalReplies {
            kitty_graphics: true,
            ..TerminalReplies::default()
        },
        ROWS,
        COLS,
    );
    animation_files(&tw);
    run(&mut tw, "cat red.kitty", 1);
    common::wait_until("the second frame sent", || {
        count(&tw.raw_tail(), b"\x1b_Ga=f,q=2,f=32,o=z,") > 0
    });
    let before = tw.raw_tail().len();
    run(&mut tw, "cat drop.kitty", 2);
    common::wait_until("frame 2 deleted in the terminal", || {
        let raw = tw.raw_tail();
        let text = String::from_utf8_lossy(&raw[before..]).into_owned();
        text.split("\x1b_Ga=d,d=f,q=2,").skip(1).any(|rest| {
            rest.split('\x1b')
                .next()
                .is_some_and(|k| k.ends_with(",r=2"))
        })
    });
}

#[test]
fn a_sixel_terminal_is_drawn_the_frame_left_current_after_a_deletion() {
    let mut tw = graphics::start(
        TerminalReplies {
            sixel: true,
            ..TerminalReplies::default()
        },
        ROWS,
        COLS,
    );
    animation_files(&tw);
    run(&mut tw, "cat red.kitty", 1);
    run(&mut tw, "cat second.kitty", 2);
    common::wait_until("the second frame drawn", || {
        count(&tw.raw_tail(), &register(0, 0, 100)) > 0
    });
    // Frame 2, the one shown, goes: frame 1 (red) shows again.
    let before = tw.raw_tail().len();
    run(&mut tw, "cat drop.kitty", 3);
    common::wait_until("the first frame drawn again", || {
        let raw = tw.raw_tail();
        count(&raw[before..], &register(100, 0, 0)) > 0
    });
}
