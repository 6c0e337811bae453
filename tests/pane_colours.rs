//! Colours a program sets for its pane: palette entries (OSC 4), default
//! foreground, background and cursor colours (OSC 10/11/12) and their
//! resets (OSC 104/110/111/112). They are answered by later queries, and
//! end to end the pane is drawn in them while other panes are not.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::num::NonZeroU16;

use common::{TempDir, Tilework};

use tilework::pane::term::fidelity::Fidelity;
use tilework::pane::term::fidelity::answers::Rgb;
use tilework::pane::term::terminal_queries::PaneEvents;

/// What a pane whose user's terminal has background `#111111` answers to
/// `output`.
fn answers_to(output: &[u8]) -> String {
    let mut parser = vt100::Parser::new_with_callbacks(
        NonZeroU16::new(24).unwrap(),
        NonZeroU16::new(80).unwrap(),
        0,
        PaneEvents::default(),
    );
    let mut layer = Fidelity::live();
    layer.set_terminal_colours([None, Some(Rgb(0x1111, 0x1111, 0x1111)), None]);
    layer.process(&mut parser, output).unwrap();
    String::from_utf8(std::mem::take(&mut parser.callbacks_mut().replies)).unwrap()
}

#[test]
fn a_colour_set_is_what_later_queries_are_told_until_it_is_reset() {
    assert_eq!(
        answers_to(b"\x1b]11;?\x07\x1b]11;#203040\x07\x1b]11;?\x07\x1b]111\x07\x1b]11;?\x07"),
        "\x1b]11;rgb:1111/1111/1111\x07\x1b]11;rgb:2020/3030/4040\x07\x1b]11;rgb:1111/1111/1111\x07"
    );
    // The foreground and cursor colours: unknown until set.
    assert_eq!(
        answers_to(b"\x1b]10;?\x1b\\\x1b]10;#ffffff;#000000\x1b\\\x1b]10;?;?\x1b\\\x1b]12;#ff0000\x1b\\\x1b]12;?\x1b\\"),
        "\x1b]10;rgb:ffff/ffff/ffff\x1b\\\x1b]11;rgb:0000/0000/0000\x1b\\\x1b]12;rgb:ffff/0000/0000\x1b\\"
    );
    // Palette entries: told once set, until reset (RIS resets them all).
    assert_eq!(
        answers_to(b"\x1b]4;1;?\x07\x1b]4;1;#ff8000\x07\x1b]4;1;?\x07\x1b]104;1\x07\x1b]4;1;?\x07"),
        "\x1b]4;1;rgb:ffff/8080/0000\x07"
    );
    assert_eq!(
        answers_to(b"\x1b]4;5;#010203\x07\x1bc\x1b]4;5;?\x07\x1b]11;#ffffff\x07\x1bc\x1b]11;?\x07"),
        "\x1b]11;rgb:1111/1111/1111\x07"
    );
}

const ROWS: u16 = 12;
const COLS: u16 = 80;

/// The screen cell where `text` starts inside a pane, if it shows (row 0
/// holds the borders' titles, which name the commands).
fn find(s: &vt100::Screen, text: &str) -> Option<(u16, u16)> {
    (1..ROWS).find_map(|row| {
        let line: Vec<String> = (0..COLS)
            .map(|col| {
                s.cell(row, col)
                    .map_or(String::new(), |c| c.contents().to_string())
            })
            .collect();
        let first = text.chars().next()?.to_string();
        (0..COLS).find_map(|col| {
            let at = usize::from(col);
            let fits = text
                .chars()
                .enumerate()
                .all(|(i, ch)| line.get(at + i).is_some_and(|c| *c == ch.to_string()));
            (line[at] == first && fits).then_some((row, col))
        })
    })
}

/// Two panes side by side: the left one's program sets colours
/// (`left_sets`, printf's format), prints `left_text`, and once file `go`
/// is in `dir` prints `later`; the right one prints `right_text` in the
/// same way but sets nothing.
fn two_panes(
    dir: &TempDir,
    (left_sets, left_text, later): (&str, &str, &str),
    right_text: &str,
) -> Tilework {
    let go = dir.path().join("go");
    let left = format!(
        "printf '{left_sets}{left_text}\\n'; while [ ! -e '{}' ]; do sleep 0.05; done; \
         printf '{later}'; exec cat",
        go.display()
    );
    let right = format!("printf '{right_text}\\n'; exec cat");
    Tilework::start(&["-c", &left, "-c", &right], ROWS, COLS)
}

#[test]
fn a_pane_whose_background_was_set_is_drawn_with_it_and_another_pane_is_not() {
    let dir = TempDir::new("pane-colours");
    let sets = "\\033]11;#203040\\033\\\\\\033]10;#d0e0f0\\007\\033]12;#ff0000\\007";
    let mut tw = two_panes(&dir, (sets, "painted-pane", ""), "plain-pane");
    tw.wait_for(
        "the left pane on its background, the right on the terminal's",
        |s| {
            let (Some(painted), Some(plain)) = (find(s, "painted-pane"), find(s, "plain-pane"))
            else {
                return false;
            };
            let cell = |(row, col): (u16, u16)| s.cell(row, col).unwrap().clone();
            let p = cell(painted);
            // A blank of the painted pane too: its whole area takes the colour.
            let blank = cell((painted.0 + 2, painted.1 + 2));
            let q = cell(plain);
            p.bgcolor() == vt100::Color::Rgb(0x20, 0x30, 0x40)
                && p.fgcolor() == vt100::Color::Rgb(0xd0, 0xe0, 0xf0)
                && blank.bgcolor() == vt100::Color::Rgb(0x20, 0x30, 0x40)
                && q.bgcolor() == vt100::Color::Default
                && q.fgcolor() == vt100::Color::Default
        },
    );
    // The cursor takes the colour while that pane is focused, and the
    // terminal's own once another one is.
    let raw_contains =
        |tw: &Tilework, needle: &[u8]| tw.raw_tail().windows(needle.len()).any(|w| w == needle);
    tw.click(3, 3);
    common::wait_until("the cursor colour set", || {
        raw_contains(&tw, b"\x1b]12;#ff0000\x07")
    });
    tw.click(COLS - 5, 3);
    common::wait_until("the cursor colour reset", || {
        raw_contains(&tw, b"\x1b]112\x07")
    });
}

#[test]
fn a_palette_change_recolours_that_panes_text_and_a_reset_brings_it_back() {
    let dir = TempDir::new("pane-palette");
    let sets = "\\033]4;1;#ff8000\\007\\033[31m";
    let tw = two_panes(
        &dir,
        (sets, "orange-red\\033[m", "\\033]104\\007"),
        "\\033[31mred-red\\033[m",
    );
    tw.wait_for("entry 1 redefined in the left pane only", |s| {
        let (Some(orange), Some(red)) = (find(s, "orange-red"), find(s, "red-red")) else {
            return false;
        };
        s.cell(orange.0, orange.1).unwrap().fgcolor() == vt100::Color::Rgb(0xff, 0x80, 0)
            && s.cell(red.0, red.1).unwrap().fgcolor() == vt100::Color::Idx(1)
    });
    std::fs::write(dir.path().join("go"), "").unwrap();
    tw.wait_for("the palette entry back to the terminal's", |s| {
        find(s, "orange-red")
            .is_some_and(|at| s.cell(at.0, at.1).unwrap().fgcolor() == vt100::Color::Idx(1))
    });
}
