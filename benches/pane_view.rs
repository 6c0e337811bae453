//! # pane_view: what does turning a vt100 screen into ratatui cells cost?
//!
//! Question: every frame re-paints each visible pane from its vt100 screen
//! into ratatui's back buffer (`PaneWidget`), because ratatui resets that
//! buffer each frame. How long does that take for a full screen of coloured
//! text (every cell a different 256-colour fg/bg, some bold) at the flood
//! pane's 104x59 and at a large 300x80 pane? This is the floor of a frame's
//! CPU cost, paid per visible pane per frame, so it bounds frames per second
//! under a flood.
//!
//! Result on this machine (2-core VM shared with three engineers compiling
//! and benchmarking, load average ~2; `cargo bench --bench pane_view --
//! --quick --noplot`, 2025-11-21; up to 2x slower under heavy load):
//!
//! | pane           | µs per pane view | cells/µs |
//! |----------------|------------------|----------|
//! | coloured/104x59 | 179             | 34       |
//! | coloured/300x80 | 697             | 34       |
//!
//! ~29 ns per cell, linear in the cell count (`screen.cell()` lookup, style
//! mapping, `set_symbol`). A flooding 104x59 pane drawn at 60 fps spends
//! ~11 ms/s (1 % of a core) here; a frame of four 300x80-sized panes would
//! cost ~2.8 ms before diffing. CRATES.md measured 0.15 / 0.55 ms on a
//! quiet machine.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;
use tilework::pane::term::screen::ScreenView;
use tilework::render::pane_view::PaneWidget;

use common::nz;

fn pane_view(c: &mut Criterion) {
    let mut group = c.benchmark_group("pane_view");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for (cols, rows) in [(common::COLS, common::ROWS), (300, 80)] {
        let mut parser = vt100::Parser::new(nz(rows), nz(cols), 0);
        parser.process(&common::coloured_screen(rows, cols, 0));
        let area = Rect::new(0, 0, cols, rows);
        let mut buf = Buffer::empty(area);
        group.throughput(Throughput::Elements(u64::from(rows) * u64::from(cols)));
        group.bench_function(
            BenchmarkId::new("coloured", format!("{cols}x{rows}")),
            |b| {
                b.iter(|| {
                    PaneWidget::new(black_box(ScreenView::new(parser.screen())))
                        .render(area, &mut buf)
                });
            },
        );
        black_box(&buf);
    }
    group.finish();
}

criterion_group!(benches, pane_view);
criterion_main!(benches);
