//! kitty's own picture viewer in a pane (issue 34): `kitty +kitten icat`
//! (Debian 12's kitty 0.26) asks whether the terminal shows pictures
//! before it switches its terminal to raw mode, and that switch throws
//! away input that came before it (`TCSAFLUSH`). tilework answered within
//! a fraction of a millisecond, so the answer was thrown away about half
//! the time and icat said the terminal has no graphics; the answer now
//! waits for the program's raw mode (`pane::term::held_replies`). The picture
//! must reach an outer terminal that speaks kitty graphics each time, and
//! no answer may be left on the screen as text.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::{TerminalReplies, Tilework, require_program};

const ROWS: u16 = 24;
const COLS: u16 = 80;

/// A 40 x 40 red PNG in the test's directory.
fn red_png(tw: &Tilework) {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, 40, 40);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().unwrap();
    writer
        .write_image_data(&[200, 30, 30, 255].repeat(40 * 40))
        .unwrap();
    writer.finish().unwrap();
    std::fs::write(tw.dir.path().join("red.png"), out).unwrap();
}

fn count(raw: &[u8], what: &[u8]) -> usize {
    raw.windows(what.len()).filter(|w| *w == what).count()
}

#[test]
fn kitten_icat_shows_its_picture_every_time_and_leaves_no_answer_on_screen() {
    // icat reads pictures other than PNG with ImageMagick's `identify`.
    if !require_program("kitty") || !require_program("identify") {
        return;
    }
    let replies = TerminalReplies {
        kitty_graphics: true,
        ..TerminalReplies::default()
    };
    let mut tw = common::graphics::start(replies, ROWS, COLS);
    red_png(&tw);
    // Five times: the old race lost the answer in about 1 run of 3.
    for n in 1..=5 {
        let before = count(&tw.raw_tail(), b"\x1b_Ga=p,");
        tw.type_line(&format!(
            "clear; kitty +kitten icat red.png; echo icat$((0+{n}))=$?"
        ));
        let mark = format!("icat{n}=");
        tw.wait_for(&format!("icat's run {n} to end"), |s| {
            s.contents().contains(&mark)
        });
        let screen = tw.screen_text();
        assert!(
            screen.contains(&format!("icat{n}=0")),
            "icat failed on run {n}:\n{screen}"
        );
        common::wait_until(
            &format!("run {n}'s picture placed on the outer terminal"),
            || count(&tw.raw_tail(), b"\x1b_Ga=p,") > before,
        );
        // An answer that reached the shell's canonical mode was echoed as
        // text (`^[_Gi=1;OK^[\`).
        assert!(
            !screen.contains("Gi="),
            "an answer shown as text:\n{screen}"
        );
    }
}
