//! Kitty graphics in panes (issue 34), end to end: a test writes kitty
//! graphics commands in a pane (an RGB picture sent directly in chunks, a
//! PNG through a temporary file), and an outer terminal that answers the
//! kitty graphics query gets each picture once and a placement at the
//! cell the program's cursor was at, which moves when the pane scrolls
//! and goes with `clear`. A program's own query is answered, and files
//! that are not regular (a FIFO, a device) are refused without a hang.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use common::{TerminalReplies, Tilework, graphics, require_program};

const ROWS: u16 = 24;
const COLS: u16 = 80;

fn kitty_terminal() -> Tilework {
    let replies = TerminalReplies {
        kitty_graphics: true,
        ..TerminalReplies::default()
    };
    graphics::start(replies, ROWS, COLS)
}

/// A 40 x 40 green RGB picture (4 x 2 cells of 10 x 20) as kitty
/// commands in chunks of 4096 base64 bytes, written to `name` in the
/// test's directory.
fn rgb_commands(tw: &Tilework, name: &str) {
    let data = STANDARD.encode(vec![[0u8, 200, 0]; 40 * 40].concat());
    let chunks: Vec<&[u8]> = data.as_bytes().chunks(4096).collect();
    let mut out = Vec::new();
    for (n, chunk) in chunks.iter().enumerate() {
        let more = u8::from(n + 1 < chunks.len());
        let keys = if n == 0 {
            format!("a=T,f=24,s=40,v=40,i=7,q=2,m={more}")
        } else {
            format!("m={more}")
        };
        out.extend_from_slice(format!("\x1b_G{keys};").as_bytes());
        out.extend_from_slice(chunk);
        out.extend_from_slice(b"\x1b\\");
    }
    std::fs::write(tw.dir.path().join(name), out).unwrap();
}

/// A 30 x 20 PNG (3 x 1 cells).
fn png() -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, 30, 20);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().unwrap();
    writer.write_image_data(&[90; 30 * 20 * 4]).unwrap();
    writer.finish().unwrap();
    out
}

/// How tilework starts each kitty placement it draws.
const PLACEMENT_START: &[u8] = b"\x1b_Ga=p,";

/// Where each kitty placement tilework drew is (1-based row, column), from
/// raw output `raw`.
fn placements_drawn(raw: &[u8]) -> Vec<(u16, u16)> {
    graphics::drawn_at(raw, PLACEMENT_START)
}

fn count(raw: &[u8], what: &[u8]) -> usize {
    raw.windows(what.len()).filter(|w| *w == what).count()
}

fn wait_for_placement_at(tw: &Tilework, from: usize, at: (u16, u16)) {
    graphics::wait_for_drawn_at(tw, "a kitty placement", PLACEMENT_START, from, at);
}

fn run(tw: &mut Tilework, command: &str, n: u32) -> u16 {
    graphics::run(tw, command, n, (ROWS, COLS))
}

/// The pane's column where `text` shows on screen row `row` (the pane's
/// border takes the screen's first column).
fn column_of(tw: &Tilework, row: u16, text: &str) -> u16 {
    tw.with_screen(|s| {
        let line = s.contents_between(row, 0, row, COLS);
        let col = line
            .find(text)
            .unwrap_or_else(|| panic!("{text:?} not on row {row}: {line:?}"));
        line[..col].chars().count() as u16 - 1
    })
}

#[test]
fn a_picture_sent_in_chunks_reaches_a_kitty_terminal_at_the_cursor_scrolls_and_goes_with_clear() {
    let mut tw = kitty_terminal();
    rgb_commands(&tw, "green.kitty");
    run(&mut tw, "seq 1 40", 1);
    // The picture starts where the cursor was (the row after the command,
    // column 0) over 4 x 2 cells; kitty leaves the cursor after it on its
    // last row, where the mark prints.
    let mark_row = run(&mut tw, "cat green.kitty", 2);
    assert_eq!(column_of(&tw, mark_row, "M2K"), 4);
    let top = mark_row - 1;
    // 1-based, the border before the pane's first column.
    wait_for_placement_at(&tw, 0, (top + 1, 2));
    let raw = tw.raw_tail();
    assert_eq!(count(&raw, b"\x1b_Ga=t,"), 1, "the picture is sent once");

    // Two more rows of output scroll the pane by two: the picture follows,
    // and is not sent again.
    let before = tw.raw_tail().len();
    run(&mut tw, "true", 3);
    wait_for_placement_at(&tw, before, (top + 1 - 2, 2));
    assert_eq!(count(&tw.raw_tail(), b"\x1b_Ga=t,"), 1);

    // `clear` erases it: its placement is deleted, and none is drawn after.
    let before = tw.raw_tail().len();
    run(&mut tw, "clear", 4);
    common::wait_until("the placement deleted", || {
        count(&tw.raw_tail()[before..], b"\x1b_Ga=d,d=i,") > 0
    });
    let from = tw.raw_tail().len();
    run(&mut tw, "true", 5);
    assert!(placements_drawn(&tw.raw_tail()[from..]).is_empty());
}

#[test]
fn a_png_in_a_temporary_file_is_read_deleted_and_placed() {
    let mut tw = kitty_terminal();
    let path = std::env::temp_dir().join(format!(
        "tty-graphics-protocol-tilework-test-{}.png",
        std::process::id()
    ));
    std::fs::write(&path, png()).unwrap();
    let name = STANDARD.encode(path.to_str().unwrap());
    let command = format!("\x1b_Ga=T,t=t,f=100,i=9,q=2;{name}\x1b\\");
    std::fs::write(tw.dir.path().join("png.kitty"), command).unwrap();
    let mark_row = run(&mut tw, "cat png.kitty", 1);
    // 30 x 20 pixels: 3 x 1 cells, the cursor after them on the same row.
    assert_eq!(column_of(&tw, mark_row, "M1K"), 3);
    wait_for_placement_at(&tw, 0, (mark_row + 1, 2));
    assert!(!path.exists(), "the temporary file is deleted once read");
}

#[test]
fn queries_are_answered_and_fifos_and_devices_refused() {
    if !require_program("python3") {
        return;
    }
    let mut tw = kitty_terminal();
    let fifo = tw.dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let b64 = |s: &str| STANDARD.encode(s);
    // The program asks, sends a FIFO and a device, then asks DA1, and
    // prints every answer up to DA1's (ESC shown as `E`).
    let script = format!(
        r#"import os, sys, termios, tty
fd = sys.stdin.fileno()
old = termios.tcgetattr(fd)
tty.setraw(fd)
os.write(1, b"\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\")
os.write(1, b"\x1b_Ga=T,t=f,f=100,i=2;{fifo}\x1b\\")
os.write(1, b"\x1b_Ga=T,t=f,f=100,i=3;{zero}\x1b\\")
os.write(1, b"\x1b[c")
got = b""
while not got.endswith(b"c"):
    got += os.read(fd, 1)
termios.tcsetattr(fd, termios.TCSADRAIN, old)
for part in got.split(b"\x1b\\"):
    print("GOT", part.replace(b"\x1b", b"E").decode())
"#,
        fifo = b64(fifo.to_str().unwrap()),
        zero = b64("/dev/zero"),
    );
    std::fs::write(tw.dir.path().join("ask.py"), script).unwrap();
    run(&mut tw, "python3 ask.py", 1);
    let lines: Vec<String> = tw.with_screen(|s| {
        s.contents()
            .lines()
            .filter_map(|l| {
                l.find("GOT ")
                    .map(|at| l[at + 4..].trim_end_matches([' ', '┃']).to_owned())
            })
            .collect()
    });
    let at = |what: &str| {
        lines
            .iter()
            .position(|l| l.starts_with(what))
            .unwrap_or_else(|| panic!("no {what:?} in {lines:?}"))
    };
    // The answers come in the order asked, DA1's last.
    let (q, f, d, da1) = (
        at("E_Gi=31;OK"),
        at("E_Gi=2;EBADF:"),
        at("E_Gi=3;EPERM:"),
        at("E[?"),
    );
    assert!(q < f && f < d && d < da1, "{lines:?}");
}

/// base64 of `bytes` (a length of 3n + 1) with the four bits after its
/// last byte set, as `chafa -f kitty` 1.12 ends about one chunk in four:
/// kitty reads them, and the picture shows.
fn base64_with_set_trailing_bits(bytes: &[u8]) -> Vec<u8> {
    assert_eq!(bytes.len() % 3, 1);
    let mut text = STANDARD.encode(bytes).into_bytes();
    let last = text.len() - 3;
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let value = ALPHABET.iter().position(|&c| c == text[last]).unwrap();
    assert_eq!(value & 0xf, 0);
    text[last] = ALPHABET[value | 0xf];
    text
}

#[test]
fn a_picture_whose_chunks_end_in_set_padding_bits_is_drawn_as_from_chafa() {
    let mut tw = kitty_terminal();
    // Each chunk its own base64, padded, as chafa writes them.
    let pixels = vec![[0u8, 0, 200]; 40 * 40].concat();
    let chunks: Vec<&[u8]> = pixels.chunks(1000).collect();
    let mut out = Vec::new();
    for (n, chunk) in chunks.iter().enumerate() {
        let more = u8::from(n + 1 < chunks.len());
        let keys = if n == 0 {
            format!("a=T,f=24,s=40,v=40,i=9,q=2,m={more}")
        } else {
            format!("m={more}")
        };
        out.extend_from_slice(format!("\x1b_G{keys};").as_bytes());
        if chunk.len() % 3 == 1 {
            out.extend_from_slice(&base64_with_set_trailing_bits(chunk));
        } else {
            out.extend_from_slice(STANDARD.encode(chunk).as_bytes());
        }
        out.extend_from_slice(b"\x1b\\");
    }
    std::fs::write(tw.dir.path().join("blue.kitty"), out).unwrap();
    let mark_row = run(&mut tw, "cat blue.kitty", 1);
    wait_for_placement_at(&tw, 0, (mark_row, 2));
}

#[test]
fn chafa_kitty_pictures_are_drawn() {
    if !require_program("chafa") {
        return;
    }
    let mut tw = kitty_terminal();
    let mut ppm = b"P6\n40 40\n255\n".to_vec();
    for i in 0..40 * 40u32 {
        ppm.extend_from_slice(&[(i % 251) as u8, (i * 7 % 253) as u8, 90]);
    }
    std::fs::write(tw.dir.path().join("pattern.ppm"), ppm).unwrap();
    run(&mut tw, "chafa -f kitty -s 4x2 pattern.ppm", 1);
    common::wait_until("chafa's picture placed", || {
        !placements_drawn(&tw.raw_tail()).is_empty()
    });
}
