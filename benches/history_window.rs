//! # history_window: what does a window of history cost to replay when
//! its output was printed at other sizes?
//!
//! Question: a page up (copy mode, the wheel, `C-b PgUp`) that passes the
//! end of the window shown replays the next window on the loop
//! (`Pane::shift_history`), a few thousand rows. Since issue 30 part 1 a
//! window whose output was printed at other sizes than the pane's now is
//! replayed stretch by stretch at those sizes and rewrapped
//! (`src/pane/history/sized.rs`) instead of all at once at the size now.
//! How much does that add to a window, and to paging through a whole
//! 8 MiB ring? Measured on the flood pane's size (59 x 104) with a full
//! 8 MiB ring of log lines, a window around its middle:
//! - "one size": all printed at 104 columns (the replay as before: no
//!   size recorded differs);
//! - "printed at 80": all printed at 80 columns, viewed at 104 (the
//!   common case: the pane was split or the window resized once); log
//!   lines only flow, so they are replayed at 104 at once, as before;
//! - "printed at 80, redrawn": the same with a `\r` progress line redrawn
//!   ten times after every 50 lines, which must be replayed at 80 and
//!   rewrapped (against "one size, redrawn", the same bytes as before);
//! - "printed through a drag": the window's output, with redraws,
//!   printed at 64 sizes alternating 80 and 104 (a border dragged while a
//!   build printed; the pane keeps 16 of them, all in this window: the
//!   worst case);
//! - "before" for the last two: the same bytes replayed as before this
//!   change, all at the size now (what `Pane::shift_history` did).
//!
//! Also printed, not measured by criterion: paging from the newest row
//! to the oldest, a page at a time, through the 8 MiB ring with redraws
//! printed at 80 and viewed at 104, against the same ring printed at 104.
//!
//! Result: see the README's "History views and reflow" (numbers from
//! `cargo bench --bench history_window -- --quick --noplot` on the shared
//! 2-core VM).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use tilework::pane::event::{PaneEvent, PaneMailbox};
use tilework::pane::history::anchors;
use tilework::pane::history::scrollback::ByteRing;
use tilework::pane::history::size_log::SizeLog;
use tilework::pane::history::window::{ReplayRequest, Window};
use tilework::pane::{Pane, PaneId};

use common::{COLS, ROWS};

const RING: usize = 8 << 20;
const WINDOW_ROWS: usize = 2_000;

fn ring_of(output: &[u8]) -> ByteRing {
    let mut ring = ByteRing::new(RING);
    for chunk in output.chunks(32 * 1024) {
        ring.push(chunk);
    }
    ring
}

fn replay(ring: &ByteRing, sizes: &SizeLog) -> Window {
    let middle = (ring.start() + ring.end()) / 2;
    let extent = anchors::around(ring, middle, WINDOW_ROWS, COLS);
    Window::replay(ReplayRequest::window(
        ring,
        sizes,
        extent,
        (ROWS, COLS),
        100_000,
    ))
}

/// Pages from the newest row to the oldest; returns the time and pages.
fn page_through(pane: &mut Pane) -> (Duration, usize) {
    let (tx, rx) = crossbeam_channel::unbounded();
    pane.history_mut().open_history(&tx.into());
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(PaneEvent::HistoryReady(_, history)) => pane.history_mut().history_ready(history),
        _ => panic!("no history replay"),
    }
    let mailbox = PaneMailbox::discarding();
    let started = Instant::now();
    let mut pages = 0;
    while !pane
        .history()
        .window()
        .is_some_and(|h| h.at_top && h.top_row() == 0)
    {
        pane.history_mut()
            .scroll(isize::try_from(ROWS).unwrap(), &mailbox);
        pages += 1;
    }
    let took = started.elapsed();
    pane.history_mut().scroll_to_bottom();
    (took, pages)
}

/// A border dragged in the middle window while output came: a size
/// change every KiB before its middle, alternating 80 and 104 columns.
fn drag(ring: &ByteRing) -> SizeLog {
    let middle = (ring.start() + ring.end()) / 2;
    let mut sizes = SizeLog::new(ROWS, COLS);
    for i in 0..64u64 {
        let cols = if i % 2 == 0 { 80 } else { COLS };
        sizes.record(middle - 64 * 1024 + i * 1024, ROWS, cols, ring.start());
    }
    sizes
}

/// `output` with a progress line redrawn in place ten times after every
/// 50 lines.
fn with_redraws(output: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(output.len() + output.len() / 8);
    for (i, line) in output.split_inclusive(|&b| b == b'\n').enumerate() {
        out.extend_from_slice(line);
        if i % 50 == 49 {
            for pct in (0..=100).step_by(10) {
                let bar = "=".repeat(pct * 3 / 5);
                out.extend(format!("\rfetching [{bar:<60}] {pct:3}%\x1b[K").into_bytes());
            }
            out.extend_from_slice(b"\r\n");
        }
    }
    out
}

fn pane_printed_at(cols: u16, output: &[u8]) -> Pane {
    let mut pane = Pane::detached(PaneId(1), ROWS, cols, RING);
    for chunk in output.chunks(32 * 1024) {
        pane.feed(chunk.to_vec());
    }
    pane.settle();
    pane.resize(ROWS, COLS);
    pane
}

fn bench(c: &mut Criterion) {
    let output = common::log_lines(RING + RING / 4);
    let ring = ring_of(&output);
    let redrawn = with_redraws(&output);
    let redrawn_ring = ring_of(&redrawn);
    let one_size = SizeLog::new(ROWS, COLS);
    let mut at_80 = SizeLog::new(ROWS, 80);
    at_80.record(ring.end(), ROWS, COLS, ring.start());
    let at_64 = drag(&redrawn_ring);

    let mut group = c.benchmark_group("history window");
    group.measurement_time(Duration::from_secs(5));
    group.sample_size(20);
    group.bench_function("one size", |b| b.iter(|| replay(&ring, &one_size)));
    group.bench_function("printed at 80", |b| b.iter(|| replay(&ring, &at_80)));
    let mut redrawn_at_80 = SizeLog::new(ROWS, 80);
    redrawn_at_80.record(redrawn_ring.end(), ROWS, COLS, redrawn_ring.start());
    group.bench_function("one size, redrawn", |b| {
        b.iter(|| replay(&redrawn_ring, &one_size))
    });
    group.bench_function("printed at 80, redrawn", |b| {
        b.iter(|| replay(&redrawn_ring, &redrawn_at_80))
    });
    group.bench_function("printed through a drag", |b| {
        b.iter(|| replay(&redrawn_ring, &at_64))
    });
    group.finish();

    let mut wide = pane_printed_at(COLS, &redrawn);
    let mut narrow = pane_printed_at(80, &redrawn);
    for _ in 0..2 {
        let (took, pages) = page_through(&mut wide);
        println!("paging 8 MiB redrawn, printed at {COLS}: {pages} pages in {took:?}");
        let (took, pages) = page_through(&mut narrow);
        println!("paging 8 MiB redrawn, printed at 80: {pages} pages in {took:?}");
    }
}

/// The reflow's worst case (`benches/reflow.rs`'s "log lines at 64
/// sizes"): the newest 2 MiB printed at a size change every 32 KiB, the
/// pane resized `iterations` times with no grid kept.
fn reflow_through_a_drag(iterations: usize) {
    let output = common::log_lines(RING + RING / 4);
    let mut pane = Pane::detached(PaneId(1), ROWS, COLS, RING);
    for (i, chunk) in output.chunks(32 * 1024).enumerate() {
        pane.feed(chunk.to_vec());
        pane.settle();
        pane.resize(ROWS, if i % 2 == 0 { 80 } else { COLS });
    }
    for i in 0..iterations {
        pane.term_mut().forget_reflow_checkpoint();
        pane.resize(ROWS, if i % 2 == 0 { 90 } else { 96 });
        pane.settle();
    }
}

/// With `HISTORY_WINDOW_CASE=name` set, replays that case's window
/// `HISTORY_WINDOW_ITERATIONS` times (20) and nothing else (`none`: only
/// the set-up), for an instruction count (cachegrind's `I refs`), which a
/// loaded machine does not skew as it skews time.
fn count(case: &str) {
    let iterations = std::env::var("HISTORY_WINDOW_ITERATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20);
    if case == "reflow through a drag" {
        reflow_through_a_drag(iterations);
        return;
    }
    let output = common::log_lines(RING + RING / 4);
    let redrawn = with_redraws(&output);
    let (ring, sizes) = match case {
        "one size" => (ring_of(&output), SizeLog::new(ROWS, COLS)),
        "printed at 80" => (ring_of(&output), SizeLog::new(ROWS, 80)),
        "one size, redrawn" => (ring_of(&redrawn), SizeLog::new(ROWS, COLS)),
        "printed at 80, redrawn" => (ring_of(&redrawn), SizeLog::new(ROWS, 80)),
        "printed through a drag, redrawn" => {
            let ring = ring_of(&redrawn);
            let sizes = drag(&ring);
            (ring, sizes)
        }
        _ => return,
    };
    let mut sizes = sizes;
    sizes.record(ring.end(), ROWS, COLS, ring.start());
    for _ in 0..iterations {
        std::hint::black_box(replay(&ring, &sizes));
    }
}

criterion_group!(benches, bench);

fn main() {
    if let Ok(case) = std::env::var("HISTORY_WINDOW_CASE") {
        count(&case);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
