//! # frame: what does one whole frame cost, in time and in bytes written?
//!
//! Question: from "the pane's output arrived" to "the frame left in one
//! `write(2)`", exactly as the render loop does it: the pane parses its
//! held-back output (`Pane::settle`), the render cache takes the rows it
//! touched, `frame::render_frame` draws what changed into the buffer that keeps
//! the last frame and sends only the changed rows (`painter`), crossterm
//! encodes, and `FrameWriter::end_frame` writes once, inside sync
//! begin/end. Output goes to `/dev/null`, so the time is CPU only. One
//! focused pane of 104x59 inside its border, plus the status bar (a 106x62
//! terminal); no PTY.
//!
//! Scenarios (what the pane's program printed since the previous frame):
//! - `unchanged`: nothing (the loop never draws such a frame: idle is 0
//!   frames; this is the fixed cost of a frame).
//! - `one_cell`: one character at the cursor (typing at a prompt: a key's
//!   echo).
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
//! Result on this machine (2-core VM, `cargo bench --bench frame --
//! --quick --noplot`, 2026-11-21; see the README for the table).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs::OpenOptions;
use std::hint::black_box;
use std::io::Write;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};
use tilework::config::keymap::Keymap;
use tilework::input::router::InputRouter;
use tilework::mailbox::Mailbox;
use tilework::pane::Pane;
use tilework::pane::PaneId;
use tilework::pane::program::spawn::ChildEnv;
use tilework::render::cache::RenderCache;
use tilework::render::frame;
use tilework::render::painter::Painter;
use tilework::terminal::frame_backend::FrameBackend;
use tilework::terminal::output::{FrameWriter, SYNC_BEGIN, SYNC_END, WriterKind};
use tilework::workspace::layout::Layout;
use tilework::workspace::{Workspace, WorkspaceSettings};

use common::{COLS, ROWS};

type Term = Terminal<FrameBackend<FrameWriter>>;

const PANE: PaneId = PaneId(1);

/// The render loop's state for one frame after another.
struct Loop {
    term: Term,
    painter: Painter,
    cache: RenderCache,
    ws: Workspace,
    router: InputRouter,
}

/// Frames go to `/dev/null`, or to the file named by `TILEWORK_FRAME_SINK`
/// (appended) to look at the bytes: `cat -v` it.
fn render_loop() -> Loop {
    let path = std::env::var_os("TILEWORK_FRAME_SINK").unwrap_or_else(|| "/dev/null".into());
    let sink = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .expect("opening the frame sink");
    let writer = FrameWriter::from_file(sink, WriterKind::BufWriterRaw);
    let area = Rect::new(0, 0, COLS + 2, ROWS + 3);
    let term = Terminal::with_options(
        FrameBackend::new(writer),
        TerminalOptions {
            viewport: Viewport::Fixed(area),
        },
    )
    .expect("creating the terminal");
    let (panes_area, _) = frame::split_screen(area);
    let settings = WorkspaceSettings {
        env: ChildEnv::new(Some("/bin/sh"), "xterm-256color"),
        scrollback_bytes: 1 << 20,
        keep_exited_panes: false,
    };
    let mut ws = Workspace::new(settings, panes_area, Mailbox::discarding());
    let pane = Pane::detached(PANE, ROWS, COLS, 8 << 20);
    ws.open_tab_of("bench", Layout::new(PANE), vec![pane]);
    Loop {
        term,
        painter: Painter::new(area),
        cache: RenderCache::default(),
        ws,
        router: InputRouter::new(Keymap::default(), false, Mailbox::discarding()),
    }
}

impl Loop {
    fn output(&mut self, bytes: &[u8]) {
        if let Some(pane) = self.ws.panes_mut().get_mut(PANE) {
            pane.feed(bytes.to_vec());
        }
    }

    /// One frame as the render loop draws and writes it.
    fn frame(&mut self) {
        for pane in self.ws.panes_mut().iter_mut() {
            pane.settle();
        }
        self.cache.note_changes(self.ws.panes_mut().iter_mut());
        let writer = self.term.backend_mut().writer_mut();
        writer.write_all(SYNC_BEGIN).expect("sync begin");
        frame::render_frame(
            &mut self.term,
            &mut self.painter,
            &mut self.cache,
            &self.ws,
            self.router.view(),
            None,
            None,
        )
        .expect("drawing");
        let writer = self.term.backend_mut().writer_mut();
        writer.write_all(SYNC_END).expect("sync end");
        writer.end_frame().expect("ending the frame");
    }
}

/// What the program prints before frame `i`.
type Step = Box<dyn FnMut(u64) -> Vec<u8>>;

struct Scenario {
    name: &'static str,
    step: Step,
}

fn scenarios() -> Vec<Scenario> {
    let lines: Vec<Vec<u8>> = common::log_lines(256 * 1024)
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    let screens: Vec<Vec<u8>> = (0..2)
        .map(|variant| {
            let mut bytes = b"\x1b[H".to_vec();
            bytes.extend(common::coloured_screen(ROWS, COLS, variant));
            bytes
        })
        .collect();
    vec![
        Scenario {
            name: "unchanged",
            step: Box::new(|_| Vec::new()),
        },
        Scenario {
            name: "one_cell",
            step: Box::new(|i| if i % 2 == 0 { b"x\x08" } else { b"y\x08" }.to_vec()),
        },
        Scenario {
            name: "scrolled_log",
            step: Box::new(move |i| lines[i as usize % lines.len()].clone()),
        },
        Scenario {
            name: "full_repaint",
            // Alternate two screens that differ in every cell.
            step: Box::new(move |i| screens[(i % 2) as usize].clone()),
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
        let mut l = render_loop();
        // A screen full of log lines, the cursor on the last row.
        l.output(&common::log_lines(64 * 1024));
        // The first frame is a full paint whatever the scenario.
        l.frame();
        let counters = l.term.backend().writer().counters();
        let mut i = 0u64;
        const PROBE: u64 = 16;
        let (bytes0, writes0) = (counters.bytes(), counters.writes());
        for _ in 0..PROBE {
            i += 1;
            l.output(&(s.step)(i));
            l.frame();
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
                l.output(black_box(&(s.step)(i)));
                l.frame();
            });
        });
    }
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
