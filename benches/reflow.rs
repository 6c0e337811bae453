//! # reflow: what does resizing a pane with a full history cost?
//!
//! Question: a pane on the primary screen that changes width (or grows
//! taller) is laid out again from its byte ring (`src/pane/reflow.rs`):
//! each stretch of the newest output (at most 2 MiB) replayed at the size
//! it was printed at, through the fast-forward, its grid rewrapped where
//! the size changed (`src/pane/rewrap.rs`), or, from the second resize on,
//! the grid the last reflow left rewrapped again with the output since.
//! A border drag resizes the pane on every step, so one resize must stay
//! well under a frame or two (target ≤ 50 ms). Measured: the flood pane
//! (59 rows) with a full 8 MiB ring, alternating between 104 and 80
//! columns, for log lines, coloured (SGR) lines and escape-heavy output
//! that the fast-forward cannot skip (a full-screen redraw stream):
//! "replayed" is the first resize after output (the checkpoint forgotten
//! before each), "next step" a drag's following steps; and the worst case
//! of the replay by sizes, the newest 2 MiB printed at 64 sizes with no
//! checkpoint (only after a parser failure, or on leaving a full-screen
//! program that was resized 64 times with 2 MiB of output).
//!
//! Result on this machine (2-core VM shared with other helpers building
//! and testing, load average 14-18; `cargo bench --bench reflow --
//! --quick --noplot`, 2026-11-27); before: the same bench on the commit
//! before issue 30's reflow (f767c87), which replayed at the new width
//! and had no checkpoint:
//!
//! | ring of 8 MiB of        | before, ms | replayed, ms | next step, ms |
//! |-------------------------|------------|--------------|---------------|
//! | log lines               | 26         | 12           | 5             |
//! | coloured lines          | 26         | 19           | 5             |
//! | full-screen redraws     | 11         | 9            | 9             |
//! | log lines at 64 sizes   | 30         | 170          | -             |
//!
//! The replay no longer follows vt100's count of scrolled rows with bare
//! line feeds (a replay's scrollback holds the rows that matter), which
//! made the common cases faster; 64 rewraps in one replay are over the
//! target, which the checkpoint keeps out of a drag. Since then the size
//! log keeps 16 changes (`size_log::MAX_CHANGES`), so the last case
//! replays through 16 sizes: a quarter of the instructions of 64
//! (`benches/history_window.rs`, `HISTORY_WINDOW_CASE`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use tilework::pane::{Pane, PaneId};

use common::{COLS, ROWS};

const RING: usize = 8 << 20;

fn full_pane(output: &[u8]) -> Pane {
    let mut pane = Pane::detached(PaneId(1), ROWS, COLS, RING);
    for chunk in output.chunks(32 * 1024) {
        pane.feed(chunk.to_vec());
    }
    pane.settle();
    assert_eq!(pane.history().bytes(), RING);
    pane
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("reflow");
    group.measurement_time(Duration::from_secs(5));
    group.sample_size(20);
    let inputs = [
        ("log lines", common::log_lines(RING + RING / 4)),
        ("coloured lines", common::sgr_lines(RING + RING / 4)),
        (
            "full-screen redraws",
            common::redraw_stream(ROWS, COLS, RING + RING / 4),
        ),
    ];
    for (name, output) in inputs {
        let mut pane = full_pane(&output);
        let mut narrow = false;
        // The first resize after output: a replay from 2 MiB back.
        group.bench_function(format!("{name}, replayed"), |b| {
            b.iter(|| {
                narrow = !narrow;
                pane.term_mut().forget_reflow_checkpoint();
                pane.resize(ROWS, if narrow { 80 } else { COLS });
                pane.settle();
            });
        });
        // The steps of a drag: each from the grid the step before left.
        group.bench_function(format!("{name}, next step"), |b| {
            b.iter(|| {
                narrow = !narrow;
                pane.resize(ROWS, if narrow { 80 } else { COLS });
                pane.settle();
            });
        });
    }
    // The worst case for the replay by sizes: the newest 2 MiB printed at
    // as many sizes as the pane remembers (a resize every 32 KiB of
    // output), each a rewrap of the grid on the way.
    let output = common::log_lines(RING + RING / 4);
    let mut pane = Pane::detached(PaneId(1), ROWS, COLS, RING);
    for (i, chunk) in output.chunks(32 * 1024).enumerate() {
        pane.feed(chunk.to_vec());
        pane.settle();
        pane.resize(ROWS, if i % 2 == 0 { 80 } else { COLS });
    }
    let mut narrow = false;
    group.bench_function("log lines at 64 sizes, replayed", |b| {
        b.iter(|| {
            narrow = !narrow;
            pane.term_mut().forget_reflow_checkpoint();
            pane.resize(ROWS, if narrow { 90 } else { 96 });
            pane.settle();
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
