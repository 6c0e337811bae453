//! Pictures in panes (issue 34), end to end: real picture programs
//! (`img2sixel` from libsixel, `chafa`) in a pane, and an outer terminal
//! that says it speaks sixel (DA1 `4`, cells of 10 x 20 pixels). The
//! picture must reach the outer stream at the right cell, move when the
//! pane scrolls, be gone after `clear`, and never go to a terminal that
//! did not say it speaks sixel.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::{TerminalReplies, Tilework, graphics, require_program};

const ROWS: u16 = 24;
const COLS: u16 = 80;

/// How tilework starts each sixel it draws (its encoder's header).
const SIXEL_START: &[u8] = b"\x1bP0;1;0q";

fn sixel_terminal() -> Tilework {
    let replies = TerminalReplies {
        sixel: true,
        ..TerminalReplies::default()
    };
    graphics::start(replies, ROWS, COLS)
}

/// A 40 x 40 red picture (4 x 2 cells of 10 x 20) as a PPM file in the
/// test's directory, where the pane's shell starts.
fn red_picture(tw: &Tilework) {
    let mut ppm = b"P6\n40 40\n255\n".to_vec();
    for _ in 0..40 * 40 {
        ppm.extend_from_slice(&[255, 0, 0]);
    }
    std::fs::write(tw.dir.path().join("red.ppm"), ppm).unwrap();
}

/// Where each sixel tilework drew starts (1-based row, column), in the
/// order drawn, from raw output `raw`.
fn sixels_drawn(raw: &[u8]) -> Vec<(u16, u16)> {
    graphics::drawn_at(raw, SIXEL_START)
}

/// The screen position (0-based row, column) where `text` shows.
fn find_text(tw: &Tilework, text: &str) -> (u16, u16) {
    tw.with_screen(|s| {
        for row in 0..ROWS {
            let line = s.contents_between(row, 0, row, COLS);
            if let Some(col) = line.find(text) {
                return (row, line[..col].chars().count() as u16);
            }
        }
        panic!("{text:?} is not on the screen:\n{}", s.contents());
    })
}

/// Waits until a sixel was drawn at (1-based) `at` after raw offset `from`.
fn wait_for_sixel_at(tw: &Tilework, from: usize, at: (u16, u16)) {
    graphics::wait_for_drawn_at(tw, "a sixel", SIXEL_START, from, at);
}

fn run(tw: &mut Tilework, command: &str, n: u32) -> u16 {
    graphics::run(tw, command, n, (ROWS, COLS))
}

#[test]
fn img2sixel_reaches_the_terminal_at_the_cursor_moves_with_scrolling_and_goes_with_clear() {
    if !require_program("img2sixel") {
        return;
    }
    let mut tw = sixel_terminal();
    red_picture(&tw);
    // The prompt at the bottom first, so that output scrolls the pane.
    run(&mut tw, "seq 1 40", 1);
    // The picture starts where the cursor was (the row after the
    // command, the pane's first column) and takes two rows; the cursor
    // is left on its last row, where the mark prints.
    let mark_row = run(&mut tw, "img2sixel red.ppm", 2);
    let col = find_text(&tw, "M2K").1;
    let top = mark_row - 1;
    wait_for_sixel_at(&tw, 0, (top + 1, col + 1));

    // Two more rows of output (the mark and a prompt) scroll the pane by
    // two: the picture follows.
    let before = tw.raw_tail().len();
    run(&mut tw, "true", 3);
    wait_for_sixel_at(&tw, before, (top + 1 - 2, col + 1));

    // `clear` erases it: no sixel is drawn after it, whatever follows.
    run(&mut tw, "clear", 4);
    let from = tw.raw_tail().len();
    run(&mut tw, "true", 5);
    assert!(
        sixels_drawn(&tw.raw_tail()[from..]).is_empty(),
        "a sixel was drawn after clear"
    );
}

#[test]
fn chafa_sixels_reach_the_terminal() {
    if !require_program("chafa") {
        return;
    }
    let mut tw = sixel_terminal();
    red_picture(&tw);
    run(&mut tw, "chafa -f sixel -s 4x2 red.ppm", 1);
    let (cmd_row, col) = find_text(&tw, "$ chafa");
    wait_for_sixel_at(&tw, 0, (cmd_row + 2, col + 1));
}

#[test]
fn a_picture_comes_back_when_a_full_screen_program_leaves() {
    if !require_program("img2sixel") {
        return;
    }
    let mut tw = sixel_terminal();
    red_picture(&tw);
    let mark_row = run(&mut tw, "img2sixel red.ppm", 1);
    let col = find_text(&tw, "M1K").1;
    // 1-based: the picture's top row is the one above the mark's.
    let at = (mark_row, col + 1);
    wait_for_sixel_at(&tw, 0, at);
    // A program on the alternate screen, its text over all the picture's
    // cells (so the terminal must be sent it again, whenever the frames
    // came): the picture leaves with the shell's screen (frames meanwhile
    // find no picture there)...
    // The pane's rows are the screen's less the border above them.
    let (first, last) = (at.0 - 1, at.0);
    tw.type_line(&format!(
        "printf '\\033[?1049h\\033[{first}HFULL%s\\033[{last}HFULL%s' SCREEN SCREEN; \
         read x; printf '\\033[?1049l'"
    ));
    tw.wait_for_text("FULLSCREEN");
    let from = tw.raw_tail().len();
    // ...and comes back with it when the program leaves, drawn again
    // where it was.
    tw.type_line("");
    wait_for_sixel_at(&tw, from, at);
}

#[test]
fn a_terminal_that_does_not_speak_sixel_gets_none() {
    if !require_program("img2sixel") {
        return;
    }
    let mut tw = graphics::start(TerminalReplies::default(), ROWS, COLS);
    red_picture(&tw);
    run(&mut tw, "img2sixel red.ppm", 1);
    run(&mut tw, "true", 2);
    assert!(sixels_drawn(&tw.raw_tail()).is_empty());
    // No DCS but tilework's own XTGETTCAP question.
    let raw = tw.raw_tail();
    let dcs = raw.windows(2).filter(|w| *w == b"\x1bP").count();
    let asked = raw.windows(4).filter(|w| *w == b"\x1bP+q").count();
    assert_eq!(dcs, asked, "a DCS went to a terminal without sixel");
}

/// A `w` x `h` picture of two colours as a PPM file in the test's
/// directory.
fn picture(tw: &Tilework, name: &str, w: usize, h: usize) {
    let mut ppm = format!("P6\n{w} {h}\n255\n").into_bytes();
    for y in 0..h {
        for _ in 0..w {
            ppm.extend_from_slice(if y < h / 2 {
                &[0, 0, 255]
            } else {
                &[0, 255, 0]
            });
        }
    }
    std::fs::write(tw.dir.path().join(name), ppm).unwrap();
}

/// Each sixel tilework drew after raw offset `from`: its cells (0-based
/// column, row, width, height), from the cursor move before it and its
/// raster attributes, at 10 x 20 pixels a cell.
fn sixel_cells(tw: &Tilework, from: usize) -> Vec<(u16, u16, u16, u16)> {
    let raw = tw.raw_tail();
    let raw = &raw[from.min(raw.len())..];
    let mut out = Vec::new();
    for (row, col) in sixels_drawn(raw) {
        let header = format!("\x1b[{row};{col}H\x1bP0;1;0q\"1;1;");
        let Some(at) = raw
            .windows(header.len())
            .position(|w| w == header.as_bytes())
        else {
            continue;
        };
        let rest = &raw[at + header.len()..];
        let end = rest.iter().position(|&b| b == b'#').unwrap_or(rest.len());
        let size = String::from_utf8_lossy(&rest[..end]).into_owned();
        if let Some((w, h)) = size.split_once(';')
            && let (Ok(w), Ok(h)) = (w.parse::<u16>(), h.parse::<u16>())
        {
            out.push((col - 1, row - 1, w.div_ceil(10), h.div_ceil(20)));
        }
    }
    out
}

#[test]
fn a_floating_pane_and_a_popup_go_over_the_picture() {
    if !require_program("img2sixel") {
        return;
    }
    let mut tw = sixel_terminal();
    // 60 x 8 cells: wider and taller than the middle of the screen.
    picture(&tw, "wide.ppm", 600, 160);
    let mark_row = run(&mut tw, "img2sixel wide.ppm", 1);
    let top = mark_row - 7;
    wait_for_sixel_at(&tw, 0, (top + 1, 2));

    // A floating pane opens over the middle: what is drawn of the picture
    // after that keeps out of it.
    let from = tw.raw_tail().len();
    tw.send("\x02W");
    tw.wait_for("a floating pane", |s| s.contents().contains('╭'));
    let float = tw.with_screen(|s| {
        let mut corners = Vec::new();
        for row in 0..ROWS {
            for col in 0..COLS {
                let c = s.cell(row, col).map(|c| c.contents()).unwrap_or_default();
                if c == "╭" || c == "╯" {
                    corners.push((col, row));
                }
            }
        }
        corners
    });
    let [(x0, y0), (x1, y1)] = float[..] else {
        panic!("the floating pane's corners: {float:?}");
    };
    common::wait_until("the picture drawn again around the floating pane", || {
        !sixel_cells(&tw, from).is_empty()
    });
    for (x, y, w, h) in sixel_cells(&tw, from) {
        let apart = x + w <= x0 || x > x1 || y + h <= y0 || y > y1;
        assert!(
            apart,
            "a piece at {x},{y} {w}x{h} is under the floating pane {float:?}"
        );
    }

    // Closed again: the picture is drawn whole (its last row is cut by the
    // mark printed there: seven full rows in one piece).
    let from = tw.raw_tail().len();
    tw.send("\x02w");
    tw.wait_for("the floating pane hidden", |s| !s.contents().contains('╭'));
    common::wait_until("the picture drawn whole again", || {
        sixel_cells(&tw, from).contains(&(1, top, 60, 7))
    });

    // The help popup hides it (no piece is drawn over the popup);
    // closed, the picture is back.
    let from = tw.raw_tail().len();
    tw.send("\x02?");
    tw.wait_for_text("tilework keys");
    // From the frame that draws the popup on (a frame already on its way
    // before the key may still draw the picture).
    let raw = tw.raw_tail();
    let title = b"tilework keys";
    let popup_at = raw[from..]
        .windows(title.len())
        .position(|w| w == title)
        .map_or(from, |at| from + at);
    assert!(
        sixel_cells(&tw, popup_at).is_empty(),
        "a sixel over the popup"
    );
    let from = tw.raw_tail().len();
    tw.send("q");
    common::wait_until("the picture drawn again after the popup", || {
        sixel_cells(&tw, from).contains(&(1, top, 60, 7))
    });
}

/// Two terminals attached at once: the one that speaks sixel gets the
/// picture, the other gets none (each is drawn to in what it speaks).
#[test]
fn each_attached_terminal_gets_what_it_can_show() {
    if !require_program("img2sixel") {
        return;
    }
    let runtime = common::TempDir::new("pictures");
    let path = std::env::var("PATH").unwrap_or_default();
    let runtime_dir = runtime.path().to_str().unwrap().to_string();
    let env = [
        ("XDG_RUNTIME_DIR", runtime_dir.as_str()),
        ("PATH", path.as_str()),
    ];
    let sixel = TerminalReplies {
        sixel: true,
        ..TerminalReplies::default()
    };
    let mut a = Tilework::start_answering(
        common::binary(),
        &["--session", "pics"],
        ROWS,
        COLS,
        &env,
        sixel,
    );
    a.wait_for_text("$ ");
    let b = Tilework::start_answering(
        common::binary(),
        &["attach", "pics"],
        ROWS,
        COLS,
        &env,
        TerminalReplies::default(),
    );
    b.wait_for_text("$ ");
    red_picture(&a);
    run(&mut a, "img2sixel red.ppm", 1);
    let (row, col) = find_text(&a, "M1K");
    wait_for_sixel_at(&a, 0, (row, col + 1));
    b.wait_for_text("M1K");
    run(&mut a, "true", 2);
    b.wait_for_text("M2K");
    let raw = b.raw_tail();
    let dcs = raw.windows(2).filter(|w| *w == b"\x1bP").count();
    let asked = raw.windows(4).filter(|w| *w == b"\x1bP+q").count();
    assert_eq!(dcs, asked, "a sixel went to the terminal without sixel");
    drop(b);
    drop(a);
    common::end_workspaces(runtime.path());
}

/// A 400 x 198 red sixel (40 x 10 cells of 10 x 20), written by hand so
/// no picture program is needed, and a 100 x 60 kitty picture sent
/// directly (10 x 3 cells), as files in the test's directory.
fn large_pictures(tw: &Tilework) {
    let mut sixel = b"\x1bPq\"1;1;400;198#0;2;100;0;0".to_vec();
    for _ in 0..33 {
        sixel.extend_from_slice(b"#0!400~-");
    }
    sixel.extend_from_slice(b"\x1b\\");
    std::fs::write(tw.dir.path().join("big.six"), sixel).unwrap();
    use base64::Engine as _;
    let data = base64::engine::general_purpose::STANDARD.encode([0u8, 0, 200].repeat(100 * 60));
    let chunks: Vec<&[u8]> = data.as_bytes().chunks(4096).collect();
    let mut kitty = Vec::new();
    for (n, chunk) in chunks.iter().enumerate() {
        let more = u8::from(n + 1 < chunks.len());
        let keys = if n == 0 {
            format!("a=T,f=24,s=100,v=60,i=9,q=2,m={more}")
        } else {
            format!("m={more}")
        };
        kitty.extend_from_slice(format!("\x1b_G{keys};").as_bytes());
        kitty.extend_from_slice(chunk);
        kitty.extend_from_slice(b"\x1b\\");
    }
    std::fs::write(tw.dir.path().join("big.kitty"), kitty).unwrap();
}

/// Terminals that claim cells no terminal has (issue 40): 65535 x 65535
/// pixels, a `CSI 16 t` answer of 60000 x 60000, and the largest claim
/// believed (512 x 512, which would scale the pictures past
/// `image_memory`) attach one after the other while a sixel and a kitty
/// picture show. The workspace lives through each: its programs answer,
/// each terminal is drawn on, and its memory stays bounded (its peak
/// resident size, whatever the claims asked of it).
#[test]
fn terminals_claiming_huge_cells_leave_the_workspace_alive_and_its_memory_bounded() {
    let runtime = common::TempDir::new("pictures-huge-cells");
    let path = std::env::var("PATH").unwrap_or_default();
    let runtime_dir = runtime.path().to_str().unwrap().to_string();
    let env = [
        ("XDG_RUNTIME_DIR", runtime_dir.as_str()),
        ("PATH", path.as_str()),
    ];
    let sixel = TerminalReplies {
        sixel: true,
        ..TerminalReplies::default()
    };
    let mut a = Tilework::start_answering(
        common::binary(),
        &["--session", "huge"],
        ROWS,
        COLS,
        &env,
        sixel,
    );
    a.wait_for_text("$ ");
    large_pictures(&a);
    run(&mut a, "clear; cat big.six", 1);
    common::wait_until("the sixel drawn", || {
        !sixels_drawn(&a.raw_tail()).is_empty()
    });
    run(&mut a, "cat big.kitty", 2);
    let pid = a.workspace_pid();
    let peak = || common::proc_status_kib(pid, "VmHWM").unwrap();
    let before = peak();

    let claims = [
        (65535, 65535, sixel),
        (
            60000,
            60000,
            TerminalReplies {
                kitty_graphics: true,
                ..TerminalReplies::default()
            },
        ),
        (512, 512, sixel),
    ];
    for (n, (width, height, speaks)) in (3..).zip(claims) {
        let replies = TerminalReplies {
            cell: Some((width, height)),
            ..speaks
        };
        let mut b = Tilework::start_answering(
            common::binary(),
            &["attach", "huge"],
            ROWS,
            COLS,
            &env,
            replies,
        );
        b.wait_for_text("M2K");
        // The workspace's programs still answer, on both terminals.
        run(&mut a, &format!("echo {width}x{height}"), n);
        b.wait_for_text(&format!("M{n}K"));
        assert!(common::alive(pid), "the workspace died at {width}x{height}");
        b.send("\x02d");
        assert_eq!(b.wait_exit().exit_code(), 0, "{width}x{height}");
    }
    let after = peak();
    assert!(
        after < 300 * 1024,
        "the workspace peaked at {after} KiB (it was at {before} KiB before the claims)"
    );
    drop(a);
    common::end_workspaces(runtime.path());
}

/// A program that asks the terminal's cell size (`CSI 16 t`) and DA1,
/// and prints the answers as `R<n>:` then the answers without their
/// ESCs. With `plain`, it asks again until DA1 no longer says sixel (the
/// terminal that spoke it is leaving), for at most 20 s.
const ASK: &str = r#"import os, sys, termios, time, tty
fd = sys.stdin.fileno()
old = termios.tcgetattr(fd)
tty.setraw(fd)
def ask():
    os.write(1, b"\x1b[16t\x1b[c")
    got = b""
    while not got.endswith(b"c"):
        got += os.read(fd, 1)
    return got
got = ask()
end = time.monotonic() + 20
while sys.argv[2] == "plain" and b";4c" in got and time.monotonic() < end:
    time.sleep(0.05)
    got = ask()
termios.tcsetattr(fd, termios.TCSADRAIN, old)
print("R" + sys.argv[1] + ":" + got.replace(b"\x1b", b"").decode())
"#;

/// Runs the `ASK` program (numbered `n`) in the focused pane and returns
/// what it printed after `R<n>:`.
fn asked(tw: &mut Tilework, n: u32, until: &str) -> String {
    tw.type_line(&format!("python3 ask.py {n} {until}"));
    let mark = format!("R{n}:");
    tw.wait_for(&format!("the answers {mark}"), |s| {
        s.contents().contains(&mark)
    });
    tw.with_screen(|s| {
        let text = s.contents();
        let at = text.find(&mark).unwrap() + mark.len();
        text[at..]
            .chars()
            .take_while(char::is_ascii_graphic)
            .collect()
    })
}

/// Splits the focused pane, which is the rightmost, into `panes` panes in
/// all, and waits for the new pane (the rightmost again) to show its
/// prompt. (Counting prompts on the whole screen would not do: the pane
/// split is narrowed, and the rows its lines now wrap into can push one of
/// its own prompts into its history.)
fn split(tw: &mut Tilework, panes: u32) {
    tw.send("\x02%");
    let status = format!("pane {panes}/{panes}");
    tw.wait_for("the new pane's prompt", |s| {
        let text = s.contents();
        let first_row = text.lines().nth(1).unwrap_or("");
        let borders = ['│', '┃'];
        let rightmost = first_row
            .trim_end()
            .trim_end_matches(borders)
            .rsplit(borders)
            .next()
            .unwrap_or("");
        text.contains(&status) && rightmost.trim() == "$"
    });
}

/// What programs are told of pictures follows the terminals attached: a
/// terminal that speaks sixel (cells of 9 x 18 pixels) attaches to a
/// workspace whose terminal does not, then detaches. DA1's `4` and the
/// cell size go with it, in panes opened before it came, while it was
/// attached, and after it left.
#[test]
fn what_programs_are_told_of_pictures_follows_the_terminals_attached() {
    if !require_program("python3") {
        return;
    }
    let runtime = common::TempDir::new("pictures-told");
    let path = std::env::var("PATH").unwrap_or_default();
    let runtime_dir = runtime.path().to_str().unwrap().to_string();
    let env = [
        ("XDG_RUNTIME_DIR", runtime_dir.as_str()),
        ("PATH", path.as_str()),
    ];
    let mut a = Tilework::start_answering(
        common::binary(),
        &["--session", "told"],
        ROWS,
        COLS,
        &env,
        TerminalReplies::default(),
    );
    a.wait_for_text("$ ");
    std::fs::write(a.dir.path().join("ask.py"), ASK).unwrap();
    const PLAIN: &str = "[6;20;10t[?1;2c";
    const SIXEL: &str = "[6;18;9t[?1;2;4c";
    assert_eq!(
        asked(&mut a, 1, "once"),
        PLAIN,
        "no terminal shows pictures"
    );

    let speaks_sixel = TerminalReplies {
        sixel: true,
        cell: Some((9, 18)),
        ..TerminalReplies::default()
    };
    let mut b = Tilework::start_answering(
        common::binary(),
        &["attach", "told"],
        ROWS,
        COLS,
        &env,
        speaks_sixel,
    );
    b.wait_for_text("R1:");
    assert_eq!(asked(&mut a, 2, "once"), SIXEL, "a pane opened before");
    split(&mut a, 2);
    assert_eq!(asked(&mut a, 3, "once"), SIXEL, "a pane opened meanwhile");

    b.send("\x02d");
    assert_eq!(b.wait_exit().exit_code(), 0, "detached");
    assert_eq!(asked(&mut a, 4, "plain"), PLAIN, "a pane open when it left");
    split(&mut a, 3);
    assert_eq!(asked(&mut a, 5, "once"), PLAIN, "a pane opened after");
    drop(a);
    common::end_workspaces(runtime.path());
}

/// Prints the pane's cell size in pixels (`TIOCGWINSZ`'s pixels over its
/// cells) at start and at each SIGWINCH, as picture programs (chafa,
/// `kitten icat`) read it.
const WINSIZE: &str = r#"
import fcntl, signal, struct, termios
def show(*_):
    rows, cols, x, y = struct.unpack("HHHH", fcntl.ioctl(0, termios.TIOCGWINSZ, b"\0" * 8))
    print(f"cell-{x // cols}x{y // rows} cols-{cols}", flush=True)
signal.signal(signal.SIGWINCH, show)
show()
while True:
    signal.pause()
"#;

/// A workspace on a terminal of 10x20-pixel cells whose pane runs
/// [`WINSIZE`], once it told its first size; `None` without python3.
fn showing_winsize() -> Option<Tilework> {
    if !require_program("python3") {
        return None;
    }
    let replies = TerminalReplies {
        cell: Some((10, 20)),
        ..TerminalReplies::default()
    };
    let mut tw = graphics::start(replies, ROWS, COLS);
    std::fs::write(tw.dir.path().join("winsize.py"), WINSIZE).unwrap();
    tw.type_line("clear; python3 winsize.py");
    tw.wait_for_text("cell-10x20");
    Some(tw)
}

/// A terminal resized in cells and pixels at once (a window resized as its
/// font changes): a program hears of it once, at the new size. It used to
/// hear of the new cell first at its pane's old size, then of the resize.
#[test]
fn a_resize_in_cells_and_pixels_at_once_reaches_a_program_once_at_the_new_size() {
    let Some(mut tw) = showing_winsize() else {
        return;
    };
    let told = |s: &vt100::Screen, cell: &str| -> Vec<String> {
        s.contents()
            .lines()
            .filter_map(|l| {
                let after = &l[l.find(cell)? + cell.len()..];
                after.split_whitespace().next().map(str::to_owned)
            })
            .collect()
    };
    let first = tw.with_screen(|s| told(s, "cell-10x20 "))[0].clone();
    tw.resize_in_pixels(ROWS, COLS - 10, (COLS - 10) * 12, ROWS * 24);
    tw.wait_for("the program to hear of the new size", |s| {
        told(s, "cell-12x24 ").iter().any(|cols| *cols != first)
    });
    let heard = tw.with_screen(|s| told(s, "cell-12x24 "));
    assert_eq!(heard.len(), 1, "heard {heard:?} (before: {first})");
}

/// The user's terminal changes its font size: the same rows and columns,
/// cells of another size in pixels (its size in pixels changes, with a
/// SIGWINCH). A program already running in a pane gets a SIGWINCH too and
/// reads the new cell size from its PTY, without any pane changing size.
#[test]
fn a_font_size_change_reaches_the_programs_already_running() {
    let Some(mut tw) = showing_winsize() else {
        return;
    };
    tw.claim_pixels(COLS * 12, ROWS * 24);
    tw.wait_for_text("cell-12x24");
    tw.claim_pixels(COLS * 7, ROWS * 15);
    tw.wait_for_text("cell-7x15");
    // A resize of cells and pixels together is one change as before.
    tw.resize(ROWS, COLS - 10);
    tw.claim_pixels((COLS - 10) * 8, ROWS * 16);
    tw.wait_for_text("cell-8x16");
    // Another terminal of the same size in cells, of other pixels, takes
    // over (`attach -d`): the program hears of its cells too.
    let runtime = tw.runtime_dir();
    let b = Tilework::start_answering(
        common::binary(),
        &["attach", "-d"],
        ROWS,
        COLS - 10,
        &[("XDG_RUNTIME_DIR", runtime.to_str().unwrap())],
        TerminalReplies {
            cell: Some((9, 18)),
            ..TerminalReplies::default()
        },
    );
    b.wait_for_text("cell-9x18");
    tw.wait_exit();
}
