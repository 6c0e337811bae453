//! Reflow without ghosts (issue 30 part 1): a pane that changes size shows
//! what a terminal that reflows its grid (tmux) shows, not the output
//! replayed at the new width. Output that redrew a line in place (a `\r`
//! progress bar, a right prompt placed with cursor moves) comes out once,
//! where it was; a taller pane takes back the rows a shorter one pushed up.
//!
//! The reference is [`Reflowing`], a small model of such a terminal: the
//! rows a vt100 parser with a long scrollback holds after the output, at
//! the size it was printed at, then joined into logical lines and cut
//! again at each new width, as tmux's `grid_reflow` does. `tmux_agrees`
//! checks the model against tmux itself where tmux is installed.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::num::NonZeroU16;

use common::{Tilework, row_has_both, rows_with};
use tilework::pane::{Pane, PaneId};

/// A terminal that reflows its grid, in a few lines (ASCII output only:
/// every character one cell). `rows` are all its rows, history first, each
/// with whether it wraps into the next; the screen is the last `height`.
#[derive(Debug, Clone)]
struct Reflowing {
    rows: Vec<(String, bool)>,
    height: usize,
    width: usize,
    /// (absolute row, column).
    cursor: (usize, usize),
}

impl Reflowing {
    /// What a terminal of `height` x `width` holds after `bytes`.
    fn printed(height: u16, width: u16, bytes: &[u8]) -> Self {
        let mut parser = vt100::Parser::new(
            NonZeroU16::new(height).unwrap(),
            NonZeroU16::new(width).unwrap(),
            100_000,
        );
        parser.process(bytes);
        parser.screen_mut().set_scrollback(usize::MAX);
        let above = parser.screen().scrollback();
        let mut rows = Vec::new();
        for abs in 0..above + usize::from(height) {
            let (offset, row) = if abs < above {
                (above - abs, 0)
            } else {
                (0, u16::try_from(abs - above).unwrap())
            };
            parser.screen_mut().set_scrollback(offset);
            let screen = parser.screen();
            let text = screen.rows(0, width).nth(usize::from(row)).unwrap();
            rows.push((text, screen.row_wrapped(row)));
        }
        parser.screen_mut().set_scrollback(0);
        let (row, col) = parser.screen().cursor_position();
        Self {
            rows,
            height: usize::from(height),
            width: usize::from(width),
            cursor: (above + usize::from(row), usize::from(col)),
        }
    }

    /// The terminal resized: its height as vt100 and tmux change it (rows
    /// below the cursor go first, then the top goes into the history; a
    /// taller screen takes rows back from it), then its logical lines cut
    /// again at the new width, the cursor kept in its line.
    fn resize(&mut self, height: u16, width: u16) {
        let (height, width) = (usize::from(height), usize::from(width));
        if height < self.height {
            let below = self.rows.len() - 1 - self.cursor.0;
            let drop = below.min(self.height - height);
            self.rows.truncate(self.rows.len() - drop);
        }
        self.height = height;
        if width != self.width {
            self.rewrap(width);
        }
        while self.rows.len() < self.height {
            self.rows.push((String::new(), false));
        }
    }

    fn rewrap(&mut self, width: usize) {
        // Lines, and the cursor's line and offset in it (its end when it
        // stood past its row's text, as tmux's grid_wrap_position says).
        let mut lines: Vec<String> = vec![String::new()];
        let mut cursor = (0, None);
        for (abs, (text, wrapped)) in self.rows.iter().enumerate() {
            let so_far = lines.last().map_or(0, String::len);
            if abs == self.cursor.0 {
                let col = self.cursor.1;
                cursor = (lines.len() - 1, (col < text.len()).then_some(so_far + col));
            }
            lines.last_mut().unwrap().push_str(text);
            if !wrapped && abs + 1 < self.rows.len() {
                lines.push(String::new());
            }
        }
        self.rows.clear();
        for (i, line) in lines.iter().enumerate() {
            let first = self.rows.len();
            let pieces: Vec<String> = if line.is_empty() {
                vec![String::new()]
            } else {
                line.as_bytes()
                    .chunks(width)
                    .map(|c| String::from_utf8(c.to_vec()).unwrap())
                    .collect()
            };
            let last = pieces.len() - 1;
            for (k, piece) in pieces.into_iter().enumerate() {
                self.rows.push((piece, k < last));
            }
            if i == cursor.0 {
                let offset = cursor.1.unwrap_or(line.len());
                let k = (offset / width).min(last);
                self.cursor = (first + k, (offset - k * width).min(width - 1));
            }
        }
        self.width = width;
    }

    /// The screen's rows, as `ScreenView::row_texts` gives them.
    fn screen(&self) -> Vec<String> {
        let top = self.rows.len() - self.height;
        self.rows[top..].iter().map(|(t, _)| t.clone()).collect()
    }

    fn cursor(&self) -> (u16, u16) {
        let top = self.rows.len() - self.height;
        match self.cursor.0.checked_sub(top) {
            Some(row) => (row as u16, self.cursor.1 as u16),
            None => (0, 0),
        }
    }
}

fn shown(pane: &mut Pane) -> (Vec<String>, (u16, u16)) {
    pane.settle();
    let screen = pane.screen();
    (screen.row_texts().collect(), screen.cursor_position())
}

/// Feeds `bytes` to a pane of the first size, resizes it through the rest,
/// and compares it with the model after each.
fn assert_reflows_like_the_model(bytes: &[u8], sizes: &[(u16, u16)]) -> Pane {
    let (rows, cols) = sizes[0];
    let mut pane = Pane::detached(PaneId(1), rows, cols, 1 << 20);
    for chunk in bytes.chunks(997) {
        pane.feed(chunk.to_vec());
    }
    let mut model = Reflowing::printed(rows, cols, bytes);
    assert_eq!(
        shown(&mut pane),
        (model.screen(), model.cursor()),
        "as printed"
    );
    for &(rows, cols) in &sizes[1..] {
        pane.resize(rows, cols);
        model.resize(rows, cols);
        assert_eq!(
            shown(&mut pane),
            (model.screen(), model.cursor()),
            "at {rows}x{cols}"
        );
    }
    pane
}

/// Some history, then an apt-style progress bar redrawn with `\r` and
/// `CSI K`, then a prompt.
fn progress_bar(cols: usize) -> Vec<u8> {
    let mut out: Vec<u8> = (1..=30)
        .flat_map(|i| format!("build step {i}\r\n").into_bytes())
        .collect();
    out.extend(bar_only(cols));
    out
}

/// The bar, redrawn as it fills, then a prompt.
fn bar_only(cols: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let inner = cols - 30;
    for pct in (0..=100).step_by(5) {
        let done = inner * pct / 100;
        let bar = format!("{}>{}", "=".repeat(done), " ".repeat(inner - done));
        out.extend(format!("\rdownloading [{bar}] {pct:3}% 1.2MB/s\x1b[K").into_bytes());
    }
    out.extend_from_slice(b"\r\ndone\r\n$ ");
    out
}

#[test]
fn a_progress_bar_comes_back_once_at_a_narrower_and_a_wider_width() {
    let bytes = progress_bar(80);
    let mut pane = assert_reflows_like_the_model(&bytes, &[(24, 80), (24, 60), (24, 100)]);
    pane.resize(24, 60);
    let (rows, _) = shown(&mut pane);
    let copies = rows.iter().filter(|r| r.contains("downloading [")).count();
    assert_eq!(copies, 1, "{rows:#?}");
}

/// A zsh-style prompt with a right prompt: the left prompt, a jump right
/// with `CSI n C` to draw the right one, and back with `CSI n D`; then a
/// command typed and its output, three times.
fn right_prompts(cols: usize) -> Vec<u8> {
    let right = "[main] 12:34:56";
    let mut out = Vec::new();
    for (cmd, output) in [("ls", "a.txt  b.txt"), ("pwd", "/home/user"), ("", "")] {
        let jump = cols - 4 - right.len() - 1;
        out.extend(format!("% \x1b[{jump}C{right}\x1b[{}D", jump + right.len()).into_bytes());
        out.extend(cmd.as_bytes());
        if !cmd.is_empty() {
            out.extend(format!("\r\n{output}\r\n").into_bytes());
        }
    }
    out
}

#[test]
fn a_right_prompt_drawn_with_cursor_moves_is_not_left_behind() {
    let bytes = right_prompts(80);
    let mut pane = assert_reflows_like_the_model(&bytes, &[(16, 80), (16, 50), (16, 90)]);
    pane.resize(16, 50);
    let (rows, _) = shown(&mut pane);
    // One right prompt for each prompt on the screen, none left over.
    let copies = rows.iter().filter(|r| r.contains("[main]")).count();
    let prompts = rows.iter().filter(|r| r.starts_with('%')).count();
    assert_eq!((copies, prompts), (2, 2), "{rows:#?}");
}

/// `L001L002…L042EN`: 170 characters, each position recognisable.
fn long_line() -> String {
    let mut line: String = (1..=42).map(|i| format!("L{i:03}")).collect();
    line.push_str("EN");
    line
}

#[test]
fn the_earlier_reflow_cases_match_the_model() {
    // tests/reflow.rs: a long line shrunk and grown, output after a
    // reflow, a line under a full-screen program.
    let line = format!("$ cat line\r\n\x1b[1;32m{}\x1b[m\r\n$ ", long_line());
    assert_reflows_like_the_model(line.as_bytes(), &[(8, 80), (8, 60), (8, 100)]);
    let mut pane = assert_reflows_like_the_model(
        format!("{}\r\n$ ", long_line()).as_bytes(),
        &[(6, 80), (6, 50)],
    );
    pane.feed(b"typed\r\nnext line\r\n$ ".to_vec());
    let (rows, _) = shown(&mut pane);
    assert_eq!(rows[3..], ["$ typed", "next line", "$ "]);
}

#[test]
fn growing_only_the_height_brings_back_the_rows_shrinking_pushed_up() {
    let bytes: Vec<u8> = (1..=40)
        .flat_map(|i| format!("line {i}\r\n").into_bytes())
        .chain(b"$ ".to_vec())
        .collect();
    let mut pane = assert_reflows_like_the_model(&bytes, &[(24, 80), (12, 80), (24, 80)]);
    let (rows, cursor) = shown(&mut pane);
    assert_eq!(rows[0], "line 18");
    assert_eq!(rows[22], "line 40");
    assert_eq!((rows[23].as_str(), cursor), ("$ ", (23, 2)));
    // Narrower and shorter at once, then back.
    assert_reflows_like_the_model(&bytes, &[(24, 80), (10, 5), (24, 80)]);
}

#[test]
fn output_printed_between_resizes_is_laid_out_at_the_size_it_was_printed_at() {
    // A bar drawn at 80, the pane narrowed to 50 and the bar redrawn there
    // (for 50), widened to 90: each bar as it was drawn, rewrapped.
    let mut pane = Pane::detached(PaneId(1), 40, 80, 1 << 20);
    pane.feed(progress_bar(80));
    pane.resize(40, 50);
    let more = b"\r\n"
        .iter()
        .copied()
        .chain(progress_bar(50))
        .collect::<Vec<u8>>();
    pane.feed(more.clone());
    let (at_50, _) = shown(&mut pane);
    let mut model = Reflowing::printed(40, 80, &progress_bar(80));
    model.resize(40, 50);
    // The model goes on printing from what it shows, at 50.
    let mut at_50_model = model.clone();
    let mut parser = vt100::Parser::new(
        NonZeroU16::new(40).unwrap(),
        NonZeroU16::new(50).unwrap(),
        0,
    );
    parser.process(model.screen().join("\r\n").as_bytes());
    let (row, col) = model.cursor();
    parser.process(format!("\x1b[{};{}H", row + 1, col + 1).as_bytes());
    parser.process(&more);
    at_50_model.rows = parser.screen().rows(0, 50).map(|r| (r, false)).collect();
    assert_eq!(at_50, at_50_model.screen());
    pane.resize(40, 90);
    let (at_90, _) = shown(&mut pane);
    assert_eq!(
        at_90.iter().filter(|r| r.contains("downloading [")).count(),
        2,
        "the bar drawn at 80 and the one drawn at 50, once each: {at_90:#?}"
    );
}

#[test]
fn a_progress_bar_in_a_shell_comes_back_once_when_the_window_narrows() {
    let mut tw = Tilework::start(&[], 20, 82);
    tw.wait_for("a shell prompt", |s| s.contents().contains("$ "));
    // The bar is drawn for the pane's 80 columns; `RDY` says it finished.
    // (The typed line spells neither the bar's start nor the end mark.)
    tw.type_line(
        "d=download; b=; i=0; while [ $i -le 20 ]; do \
         printf \"\\r${d}ing [%-40s] %3d%% 1.2MB/s\\033[K\" \"$b\" $((i*5)); \
         b=\"$b==\"; i=$((i+1)); done; echo; echo R''DY",
    );
    tw.wait_for("the bar finished", |s| rows_with(s, "RDY") == 1);
    // Narrowed, the bar takes two rows, once: its end is on the next row.
    tw.resize(20, 52);
    tw.wait_for("the pane at 50 columns with one bar", |s| {
        rows_with(s, "downloading [") == 1
            && rows_with(s, "100% 1.2MB/s") == 1
            && !row_has_both(s, "downloading [", "1.2MB/s")
    });
    tw.resize(20, 102);
    tw.wait_for("the pane at 100 columns with one bar on one row", |s| {
        rows_with(s, "downloading [") == 1 && row_has_both(s, "downloading [", "100% 1.2MB/s")
    });
}

/// A tmux server of its own (socket in a temporary directory), killed when
/// the test ends.
struct Tmux {
    dir: common::TempDir,
}

impl Tmux {
    fn run(&self, args: &[&str]) -> String {
        let out = std::process::Command::new("tmux")
            .arg("-S")
            .arg(self.dir.path().join("socket"))
            .arg("-f")
            .arg(self.dir.path().join("tmux.conf"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "tmux {args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    }

    /// The pane's rows (trailing blanks trimmed) and cursor.
    fn screen(&self) -> (Vec<String>, (u16, u16)) {
        let rows = self.run(&["capture-pane", "-p", "-t", "t"]);
        let cursor = self.run(&["display", "-p", "-t", "t", "#{cursor_y} #{cursor_x}"]);
        let (y, x) = cursor.trim().split_once(' ').unwrap();
        (
            rows.lines().map(str::to_owned).collect(),
            (y.parse().unwrap(), x.parse().unwrap()),
        )
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = std::process::Command::new("tmux")
            .arg("-S")
            .arg(self.dir.path().join("socket"))
            .arg("kill-server")
            .output();
    }
}

fn trimmed((rows, cursor): (Vec<String>, (u16, u16))) -> (Vec<String>, (u16, u16)) {
    let mut rows: Vec<String> = rows.iter().map(|r| r.trim_end().to_owned()).collect();
    while rows.last().is_some_and(String::is_empty) {
        rows.pop();
    }
    (rows, cursor)
}

/// tmux, fed `bytes` at the first size and resized through the rest,
/// shows what the model shows after each.
fn assert_tmux_agrees(bytes: &[u8], sizes: &[(u16, u16)]) {
    let tmux = Tmux {
        dir: common::TempDir::new("tmux-reflow"),
    };
    std::fs::write(tmux.dir.path().join("tmux.conf"), "set -g status off\n").unwrap();
    let output = tmux.dir.path().join("output");
    std::fs::write(&output, bytes).unwrap();
    let (rows, cols) = sizes[0];
    let command = format!("cat '{}'; exec sleep 600", output.display());
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "t",
        "-x",
        &cols.to_string(),
        "-y",
        &rows.to_string(),
        &command,
    ]);
    let mut model = Reflowing::printed(rows, cols, bytes);
    let expected = trimmed((model.screen(), model.cursor()));
    common::wait_until("tmux to show the output", || {
        trimmed(tmux.screen()) == expected
    });
    for &(rows, cols) in &sizes[1..] {
        tmux.run(&[
            "resize-window",
            "-t",
            "t",
            "-x",
            &cols.to_string(),
            "-y",
            &rows.to_string(),
        ]);
        model.resize(rows, cols);
        assert_eq!(
            trimmed(tmux.screen()),
            trimmed((model.screen(), model.cursor())),
            "at {rows}x{cols}"
        );
    }
}

#[test]
fn tmux_agrees_with_the_model() {
    if !common::require_program("tmux") {
        return;
    }
    assert_tmux_agrees(&progress_bar(80), &[(24, 80), (24, 60), (24, 100)]);
    assert_tmux_agrees(
        &right_prompts(80),
        &[(16, 80), (16, 50), (16, 90), (16, 50)],
    );
    let line = format!("$ cat line\r\n{}\r\n$ ", long_line());
    assert_tmux_agrees(line.as_bytes(), &[(8, 80), (8, 60), (8, 100)]);
    let lines: Vec<u8> = (1..=40)
        .flat_map(|i| format!("line {i}\r\n").into_bytes())
        .chain(b"$ ".to_vec())
        .collect();
    assert_tmux_agrees(&lines, &[(24, 80), (12, 80), (24, 80), (10, 5), (24, 80)]);
}

// The history views (copy mode, the wheel, `C-b PgUp`, search, `capture
// --history`, `C-b e`) show what the live screen shows after a reflow:
// output replayed at the size it was printed at, lines rewrapped.

/// The pane's history opened (as the wheel or copy mode opens it): every
/// row it holds, oldest first, the screen's last.
/// Opens the pane's history view and waits for its replay.
fn open_history(pane: &mut Pane) {
    let (tx, rx) = crossbeam_channel::unbounded();
    pane.history_mut().open_history(&tx.into());
    // However long the replay takes on a loaded machine, as long as its
    // thread works.
    let replay = std::time::Duration::from_secs(60);
    match common::progress::recv_from_threads(&rx, "history-replay", replay) {
        Ok(tilework::pane::event::PaneEvent::HistoryReady(_, history)) => {
            pane.history_mut().history_ready(history)
        }
        Ok(_) => panic!("an event other than the history replay"),
        Err(err) => panic!("no history replay: {err}"),
    }
}

fn history_rows(pane: &mut Pane) -> Vec<String> {
    pane.settle();
    open_history(pane);
    let history = pane.history_mut().window_mut().unwrap();
    let cols = history.screen().size().1.get();
    let rows: Vec<String> = (0..history.total_rows())
        .map(|row| history.with_row(row, |s, r| s.contents_between(r, 0, r, cols)))
        .collect();
    pane.history_mut().scroll_to_bottom();
    rows
}

/// Every row the model holds, history first.
fn model_rows(model: &Reflowing) -> Vec<String> {
    model.rows.iter().map(|(t, _)| t.clone()).collect()
}

/// The model's rows joined into lines, trailing blanks trimmed, as
/// `capture --history` writes them.
fn model_lines(model: &Reflowing) -> String {
    let mut text = String::new();
    for (row, wrapped) in &model.rows {
        text.push_str(row);
        if !wrapped {
            text.truncate(text.trim_end().len());
            text.push('\n');
        }
    }
    format!("{}\n", text.trim_end_matches('\n'))
}

/// Feeds `bytes` at the first size, resizes through the rest, and
/// compares the history view and the history's text with the model.
fn assert_history_like_the_model(bytes: &[u8], sizes: &[(u16, u16)]) -> Vec<String> {
    let mut pane = assert_reflows_like_the_model(bytes, sizes);
    let mut model = Reflowing::printed(sizes[0].0, sizes[0].1, bytes);
    for &(rows, cols) in &sizes[1..] {
        model.resize(rows, cols);
    }
    let rows = history_rows(&mut pane);
    assert_eq!(rows, model_rows(&model), "the history view");
    let (screen, _) = shown(&mut pane);
    assert_eq!(
        rows[rows.len() - screen.len()..],
        screen,
        "joins the screen"
    );
    let text = tilework::pane::history::as_text::history_text(&pane, false)();
    assert_eq!(text, model_lines(&model), "the history's text");
    rows
}

#[test]
fn the_history_shows_a_progress_bar_once_after_the_pane_narrowed() {
    let rows = assert_history_like_the_model(&progress_bar(120), &[(24, 120), (24, 60)]);
    let copies = rows.iter().filter(|r| r.contains("downloading [")).count();
    assert_eq!(copies, 1, "{rows:#?}");
    assert_history_like_the_model(&progress_bar(80), &[(24, 80), (24, 60), (24, 100)]);
    // Narrower and shorter, then wider: rows pushed into the history.
    assert_history_like_the_model(&progress_bar(80), &[(24, 80), (10, 50), (30, 90)]);
}

#[test]
fn the_history_shows_a_right_prompt_once_after_the_pane_narrowed() {
    let rows = assert_history_like_the_model(&right_prompts(80), &[(6, 80), (6, 50)]);
    let copies = rows.iter().filter(|r| r.contains("[main]")).count();
    assert_eq!(copies, 3, "{rows:#?}");
    let line = format!("$ cat line\r\n\x1b[1;32m{}\x1b[m\r\n$ ", long_line());
    assert_history_like_the_model(line.as_bytes(), &[(4, 80), (4, 60), (4, 100)]);
}

/// 10,000 numbered lines with a progress bar every 500, printed at 120,
/// 60, 100 and 80 columns in turn, viewed at 60: five windows of history.
fn long_history_through_four_widths() -> Pane {
    let mut pane = Pane::detached(PaneId(1), 24, 120, 8 << 20);
    let widths = [120u16, 60, 100, 80];
    for (part, &width) in widths.iter().enumerate() {
        if part > 0 {
            pane.resize(24, width);
        }
        let mut out = Vec::new();
        for i in part * 2_500 + 1..=(part + 1) * 2_500 {
            out.extend(format!("line {i:05}\r\n").into_bytes());
            if i % 500 == 0 {
                out.extend(bar_only(usize::from(width)));
                out.extend(b"\r\n");
            }
        }
        for chunk in out.chunks(4096) {
            pane.feed(chunk.to_vec());
        }
        pane.settle();
    }
    pane.resize(24, 60);
    pane
}

#[test]
fn a_history_of_many_windows_printed_at_several_widths_shows_every_line_once() {
    let mut pane = long_history_through_four_widths();
    let text = tilework::pane::history::as_text::history_text(&pane, false)();
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("line ")).collect();
    let expected: Vec<String> = (1..=10_000).map(|i| format!("line {i:05}")).collect();
    assert_eq!(lines, expected);
    let bars = text.lines().filter(|l| l.contains("downloading [")).count();
    assert_eq!(bars, 20, "each bar once");
    // Page by page from the newest row to the oldest, across windows: the
    // numbered lines come in order, none twice, none missing.
    let mailbox = tilework::pane::event::PaneMailbox::discarding();
    open_history(&mut pane);
    let mut seen: Vec<usize> = Vec::new();
    let mut bar_rows = 0;
    for _ in 0..20_000 {
        let history = pane.history().window().unwrap();
        let at_top = history.top_row() == 0 && history.at_top;
        let rows: Vec<String> = pane.screen().row_texts().collect();
        // The last page back stops at the first row: it repeats some of
        // the page after it.
        let overlap = rows.iter().position(|r| {
            at_top && r.strip_prefix("line ").and_then(|n| n.parse().ok()) == seen.last().copied()
        });
        for row in rows[..overlap.unwrap_or(rows.len())].iter().rev() {
            if let Some(n) = row.strip_prefix("line ") {
                seen.push(n.parse().unwrap());
            }
            bar_rows += usize::from(row.starts_with("downloading ["));
        }
        if at_top {
            break;
        }
        pane.history_mut().scroll(24, &mailbox);
    }
    let expected: Vec<usize> = (1..=10_000).rev().collect();
    assert_eq!(seen.len(), expected.len(), "lines seen once each");
    assert_eq!(seen, expected);
    assert_eq!(bar_rows, 20);
}
