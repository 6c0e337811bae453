//! # overlay: what does the `--fps` overlay itself cost per frame?
//!
//! Question: the overlay is drawn on top of every frame while it is on.
//! How long does building its snapshot (percentiles over 300 frame times
//! and 200 key latencies, per-pane rates) and drawing it take, compared
//! with a frame of one 104x59 pane? It must be small enough not to distort
//! what it measures.
//!
//! Result on this machine (2-core VM, load ~2, `cargo bench --bench overlay
//! -- --quick --noplot`, 2026-11-21): snapshot 11.3 µs with full histories
//! (two sorts of a few hundred durations), render 23 µs with 4 panes
//! listed: ~35 µs a frame. A 104x59 pane alone costs ~180 µs to convert
//! (pane_view bench), so the overlay adds under 20 % to a frame while it is
//! on, and nothing at all when it is off. Its output is a 50x10 box: about 1-2 KB when it changes.

#![allow(clippy::unwrap_used)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;
use tilework::diag::metrics::{Metrics, PaneMetrics};
use tilework::render::fps_overlay::{FpsOverlay, OverlayData};

fn full_metrics() -> Metrics {
    let mut m = Metrics::new("bufwriter-raw");
    let t0 = Instant::now();
    for i in 0..400u64 {
        let at = t0 + Duration::from_millis(i * 16);
        m.key_arrived(at);
        m.key_reflected();
        m.frame_done(
            at + Duration::from_micros(300 + i % 50),
            Duration::from_micros(200 + i % 90),
            5000,
            1,
        );
    }
    m
}

/// The app's own snapshot, with four panes' worth of per-pane numbers.
fn snapshot(m: &mut Metrics, now: Instant) -> OverlayData {
    let panes = (0..4)
        .map(|i| PaneMetrics {
            label: format!("pane {i}"),
            bytes_per_sec: 1e6 * f64::from(i),
            queued: i as usize,
            capacity: 16,
        })
        .collect();
    OverlayData::from_metrics(m, now, panes)
}

fn overlay(c: &mut Criterion) {
    let mut group = c.benchmark_group("overlay");
    group.measurement_time(Duration::from_secs(2));
    group.warm_up_time(Duration::from_millis(300));
    let mut m = full_metrics();
    let now = Instant::now();
    group.bench_function("snapshot", |b| b.iter(|| black_box(snapshot(&mut m, now))));
    let data = snapshot(&mut m, now);
    let area = Rect::new(0, 0, 106, 62);
    let mut buf = Buffer::empty(area);
    group.bench_function("render", |b| {
        b.iter(|| {
            FpsOverlay { data: &data }.render(area, &mut buf);
            black_box(&buf);
        });
    });
    group.finish();
}

criterion_group!(benches, overlay);
criterion_main!(benches);
