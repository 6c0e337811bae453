//! Shared by the pictures tests (`tests/pictures.rs`, sixel, and
//! `tests/kitty_graphics.rs`): a workspace whose outer terminal answers the
//! graphics queries, commands run with a mark after them, and where in the
//! outer stream tilework drew a picture.

use super::{TerminalReplies, Tilework};

/// A workspace of `rows` x `cols` whose outer terminal answers as
/// `replies` say, with the test's `PATH` (for the picture programs), at
/// its shell's prompt.
pub fn start(replies: TerminalReplies, rows: u16, cols: u16) -> Tilework {
    let path = std::env::var("PATH").unwrap_or_default();
    let env = [("PATH", path.as_str())];
    let tw = Tilework::start_answering(super::binary(), &[], rows, cols, &env, replies);
    tw.wait_for_text("$ ");
    tw
}

/// Types `command; echo <mark>` and waits for the mark's output and the
/// prompt after it (the mark is written so the typed line does not hold
/// it) on a screen of `rows` x `cols`. Returns the screen row the mark's
/// output is on.
pub fn run(tw: &mut Tilework, command: &str, n: u32, (rows, cols): (u16, u16)) -> u16 {
    tw.type_line(&format!("{command}; echo M$(({n}+0))K"));
    let mark = format!("M{n}K");
    let mut row = 0;
    tw.wait_for(&format!("{mark} and a prompt after it"), |s| {
        (0..rows.saturating_sub(1)).any(|r| {
            let line = s.contents_between(r, 0, r, cols);
            let next = s.contents_between(r + 1, 0, r + 1, cols);
            let found = line.contains(&mark) && next.contains("$ ");
            if found {
                row = r;
            }
            found
        })
    });
    row
}

/// Where each picture tilework drew starts (1-based row, column: the
/// cursor move right before `start`, how each picture's bytes begin), in
/// the order drawn, from raw output `raw`.
pub fn drawn_at(raw: &[u8], start: &[u8]) -> Vec<(u16, u16)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(off) = raw[at..].windows(start.len()).position(|w| w == start) {
        let here = at + off;
        let before = &raw[..here];
        if before.last() == Some(&b'H')
            && let Some(csi) = before.iter().rposition(|&b| b == b'[')
        {
            let text = String::from_utf8_lossy(&before[csi + 1..here - 1]).into_owned();
            if let Some((row, col)) = text.split_once(';')
                && let (Ok(row), Ok(col)) = (row.parse(), col.parse())
            {
                out.push((row, col));
            }
        }
        at = here + start.len();
    }
    out
}

/// Waits until a picture starting with `start` (a `what`) was drawn at
/// (1-based) `at` after raw offset `from`.
pub fn wait_for_drawn_at(tw: &Tilework, what: &str, start: &[u8], from: usize, at: (u16, u16)) {
    super::wait_until(&format!("{what} drawn at {at:?}"), || {
        let raw = tw.raw_tail();
        drawn_at(&raw[from.min(raw.len())..], start).contains(&at)
    });
}
