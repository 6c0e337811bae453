//! # rep: what does REP (`CSI n b`) cost a pane, and what does bounding it
//! cost everything else?
//!
//! Question: through the whole pane pipeline (`Pane::feed` of 64 KiB chunks,
//! then `Pane::settle`: the OSC guard, the fast-forward, `rep_bound`, vt100
//! and the byte ring), how long does issue 10's flood take: `x ESC [ 65535
//! b` repeated 2,000 times (a tenth of the 175 KiB; the whole of it
//! runs through the real binary in `scripts/bench-rep.sh`), at the pane
//! sizes of a two-pane split, a full 104x59 pane and a narrow column? And how much
//! does following every parsed byte with a second vte (to find REPs) cost
//! output with no huge REP: a vim redraw stream and log lines?
//!
//! Result on this machine (2-core VM shared with other engineers building,
//! load average 3-9; `cargo bench --bench rep -- --quick --noplot` for the
//! REP rows, `cargo bench --bench rep -- --noplot 'rep/(redraw|log)'` seven
//! times for the others, before and after back to back, 2026-11-23; before
//! is 7d2a11a, the parent of rep_bound.rs, with this file copied in):
//!
//! | scenario (time per iteration)  | before (vt100 writes every copy) | after    | after/before |
//! |--------------------------------|----------------------------------|----------|--------------|
//! | rep-2000 at 22x39 (split)      | 3.49 s                           | 98.9 ms  | 1/35         |
//! | rep-2000 at 59x104             | 4.07 s                           | 526 ms   | 1/7.7        |
//! | rep-2000 at 59x8 (narrow)      | 4.10 s                           | 32.0 ms  | 1/128        |
//! | redraw (vim, 2 MiB) at 59x104  | 78.5 ms (67-98)                  | 87.5 ms (83-96) | 1.10 (0.95-1.35) |
//! | log (2 MiB) at 59x104          | 9.45 ms (9.1-10.9)               | 8.40 ms (8.1-8.6) | 0.89 |
//!
//! Medians over the runs, ranges in brackets; the redraw ratio is the median
//! of the seven back-to-back pairs. A REP now costs about two screenfuls of
//! cell writes (59x104: 12,000 cells instead of 65,535). Output with no
//! large REP pays for the second vte in escape-heavy streams: ~10 % on the
//! vim redraw, within the noise of a shared machine; log lines lose nothing
//! (the fast-forward skips most of them before any parser sees them).
//! `cargo bench --bench frame` (the pane pipeline plus drawing, one frame):
//! `full_repaint` 3.7 ms before, 4.8 ms after (medians of five runs at load
//! ~3; 1.4-1.8x in three more pairs at load ~8), the other frames within
//! noise. The whole 175 KiB through the real binary: `scripts/bench-rep.sh`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tilework::pane::Pane;
use tilework::pane::PaneId;

use common::{COLS, PARSE_CHUNK, ROWS};

/// Issue 10's input: 20,000 repeats of 9 bytes.
fn rep_flood(repeats: usize) -> Vec<u8> {
    b"x\x1b[65535b".repeat(repeats)
}

/// `input` through a fresh pane of `rows` x `cols`, as the render loop
/// feeds it: chunk by chunk, then a frame's settle.
fn through_pane(rows: u16, cols: u16, input: &[u8]) {
    let mut pane = Pane::detached(PaneId(1), rows, cols, 8 << 20);
    for chunk in input.chunks(PARSE_CHUNK) {
        pane.feed(chunk.to_vec());
    }
    pane.settle();
    black_box(pane.screen().cursor_position());
}

fn rep(c: &mut Criterion) {
    let mut group = c.benchmark_group("rep");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    // A tenth of the 175 KiB: vt100 alone takes seconds for it.
    let flood = rep_flood(2_000);
    group.throughput(Throughput::BytesDecimal(flood.len() as u64));
    for (rows, cols) in [(22, 39), (ROWS, COLS), (59, 8)] {
        group.bench_function(
            BenchmarkId::new("rep-2000", format!("{rows}x{cols}")),
            |b| {
                b.iter(|| through_pane(rows, cols, &flood));
            },
        );
    }
    let len = 2 * 1024 * 1024;
    let redraw = common::fixture_or("rep/redraw", "vim-scroll", len, |len| {
        common::redraw_stream(ROWS, COLS, len)
    });
    let log = common::log_lines(len);
    for (name, input) in [("redraw", &redraw), ("log", &log)] {
        group.throughput(Throughput::BytesDecimal(input.len() as u64));
        group.bench_function(BenchmarkId::new(name, format!("{ROWS}x{COLS}")), |b| {
            b.iter(|| through_pane(ROWS, COLS, input));
        });
    }
    group.finish();
}

criterion_group!(benches, rep);
criterion_main!(benches);
