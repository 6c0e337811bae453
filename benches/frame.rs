//! # frame: what does one whole frame cost, in time and in bytes written?
//!
//! Question: from "the pane's screen changed" to "the frame left in one
//! `write(2)`": `Terminal::draw` (block border + `PaneWidget` into the back
//! buffer), ratatui's diff against the previous frame, crossterm's encoding,
//! and `FrameWriter::end_frame`, exactly as the render loop does it (sync
//! begin/end around the draw, `Viewport::Fixed`, `BufWriterRaw` with its
//! no-op `flush`, one real flush). Output goes to `/dev/null`, so the time is
//! CPU only. The pane is 104x59 inside its border (a 106x61 terminal), the
//! focused pane's cursor is shown, no PTY or `Workspace` is involved.
//!
//! Scenarios (what changed since the previous frame):
//! - `unchanged`: nothing (the loop never draws such a frame: idle is 0
//!   frames; this is the fixed cost of a frame).
//! - `one_cell`: one character (typing at a prompt).
//! - `scrolled_log`: one new log line at the bottom, everything above moved
//!   up a row (a `tail -f`; ratatui has no scroll-region optimisation, so
//!   every row that differs is re-sent).
//! - `full_repaint`: every cell's glyph and colours (worst case).
//!
//! Bytes per frame and `write(2)` calls per frame are printed once per
//! scenario before it is timed (the average of 16 frames).
//!
//! Set `TILEWORK_FRAME_SINK=/tmp/frames.bin` to append the frames to a file
//! instead and look at them (`cat -v`).
//!
//! Result on this machine (2-core VM shared with three engineers compiling
//! and benchmarking, load average ~2; `cargo bench --bench frame -- --quick
//! --noplot`, 2025-11-21; up to 1.7x slower under heavy load):
//!
//! | scenario     | µs per frame | bytes per frame | write(2) per frame |
//! |--------------|--------------|-----------------|--------------------|
//! | unchanged    | 261          | 48              | 1                  |
//! | one_cell     | 261          | 58              | 1                  |
//! | scrolled_log | 362          | 7,778           | 1                  |
//! | full_repaint | 1,039        | 136,226         | 1                  |
//!
//! One `write(2)` per frame in every case, and a one-cell change costs 58
//! bytes, not a repaint. The 48 bytes of an unchanged frame are the sync
//! begin/end (16), ratatui's style reset after the (empty) diff
//! `ESC[39m ESC[49m ESC[59m ESC[0m` (19), and the cursor show + move (13).
//! Time is dominated by re-painting the pane into the back buffer
//! (`pane_view`: ~180 µs for a 104x59 pane) and diffing 6,466 cells;
//! encoding only shows when many cells change. A scrolled log re-sends every changed row
//! (~7.8 KB for 59 rows of log text): a scroll-region optimisation
//! (`CSI S` + one new row) would cut it to ~150 bytes, but ratatui has none.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs::OpenOptions;
use std::hint::black_box;
use std::io::Write;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use ratatui::backend::CrosstermBackend;
use ratatui::layout::{Position, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Widget};
use ratatui::{Terminal, TerminalOptions, Viewport};
use tilework::output::{FrameWriter, SYNC_BEGIN, SYNC_END, WriterKind};
use tilework::pane_widget::PaneWidget;
use tilework::workspace::content_rect;

use common::{COLS, ROWS, nz};

type Term = Terminal<CrosstermBackend<FrameWriter>>;

/// Frames go to `/dev/null`, or to the file named by `TILEWORK_FRAME_SINK`
/// (appended) to look at the bytes: `cat -v` it.
fn terminal() -> Term {
    let path = std::env::var_os("TILEWORK_FRAME_SINK").unwrap_or_else(|| "/dev/null".into());
    let sink = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .expect("opening the frame sink");
    let writer = FrameWriter::from_file(sink, WriterKind::BufWriterRaw);
    Terminal::with_options(
        CrosstermBackend::new(writer),
        TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, COLS + 2, ROWS + 2)),
        },
    )
    .expect("creating the terminal")
}

/// One frame as the render loop writes it.
fn frame(term: &mut Term, screen: &vt100::Screen) {
    let writer = term.backend_mut().writer_mut();
    writer.write_all(SYNC_BEGIN).expect("sync begin");
    term.draw(|f| {
        let area = f.area();
        Block::bordered()
            .border_type(BorderType::Thick)
            .title(Line::from(" bench "))
            .render(area, f.buffer_mut());
        let inner = content_rect(area);
        PaneWidget::new(screen).render(inner, f.buffer_mut());
        // Like `ui::draw_pane`: the real cursor, only inside the pane.
        let (row, col) = screen.cursor_position();
        let pos = Position {
            x: inner.x + col,
            y: inner.y + row,
        };
        if inner.contains(pos) {
            f.set_cursor_position(pos);
        }
    })
    .expect("drawing");
    let writer = term.backend_mut().writer_mut();
    writer.write_all(SYNC_END).expect("sync end");
    writer.end_frame().expect("ending the frame");
}

/// Changes the parsers before frame `i`; returns which one to draw.
type Step = Box<dyn FnMut(&mut [vt100::Parser], u64) -> usize>;

/// A scenario: a parser and what to do to it before each frame.
struct Scenario {
    name: &'static str,
    parsers: Vec<vt100::Parser>,
    step: Step,
}

fn log_screen() -> vt100::Parser {
    let mut p = vt100::Parser::new(nz(ROWS), nz(COLS), 0);
    p.process(&common::log_lines(64 * 1024));
    p
}

fn scenarios() -> Vec<Scenario> {
    let lines: Vec<Vec<u8>> = common::log_lines(256 * 1024)
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    vec![
        Scenario {
            name: "unchanged",
            parsers: vec![log_screen()],
            step: Box::new(|_, _| 0),
        },
        Scenario {
            name: "one_cell",
            parsers: vec![log_screen()],
            step: Box::new(|p, i| {
                p[0].process(if i % 2 == 0 {
                    b"\x1b[30;50Hx"
                } else {
                    b"\x1b[30;50Hy"
                });
                0
            }),
        },
        Scenario {
            name: "scrolled_log",
            parsers: vec![log_screen()],
            step: Box::new(move |p, i| {
                p[0].process(&lines[i as usize % lines.len()]);
                0
            }),
        },
        Scenario {
            name: "full_repaint",
            parsers: (0..2)
                .map(|variant| {
                    let mut p = vt100::Parser::new(nz(ROWS), nz(COLS), 0);
                    p.process(&common::coloured_screen(ROWS, COLS, variant));
                    p
                })
                .collect(),
            // Alternate two screens that differ in every cell.
            step: Box::new(|_, i| (i % 2) as usize),
        },
    ]
}

fn frames(c: &mut Criterion) {
    let mut group = c.benchmark_group("frame");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for mut s in scenarios() {
        let mut term = terminal();
        let counters = term.backend().writer().counters();
        let mut i = 0u64;
        // The first frame is a full paint whatever the scenario.
        frame(&mut term, s.parsers[0].screen());
        const PROBE: u64 = 16;
        let (bytes0, writes0) = (counters.bytes(), counters.writes());
        for _ in 0..PROBE {
            i += 1;
            let which = (s.step)(&mut s.parsers, i);
            frame(&mut term, s.parsers[which].screen());
        }
        let bytes = (counters.bytes() - bytes0) as f64 / PROBE as f64;
        let writes = (counters.writes() - writes0) as f64 / PROBE as f64;
        eprintln!(
            "frame/{}: {bytes:.0} bytes per frame, {writes:.1} write(2) per frame",
            s.name
        );
        group.bench_function(BenchmarkId::from_parameter(s.name), |b| {
            b.iter(|| {
                i += 1;
                let which = (s.step)(&mut s.parsers, i);
                frame(&mut term, black_box(s.parsers[which].screen()));
            });
        });
    }
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
