//! # ring: what does keeping the history compressed cost?
//!
//! Question: the byte ring (`src/pane/scrollback.rs`) seals its output in
//! 64 KiB blocks, LZ4-compressed (`src/pane/ring_block.rs`). What does
//! that add to taking in output (a memcpy before), and to reading history
//! back (a history window, a search, a reflow all copy ranges of it)?
//! Measured on 8 MiB of the benches' log lines, plain against compressed
//! (`Packing::Lz4`, as the panes' rings are).
//!
//! Result on this machine (2-core VM shared with three engineers, load
//! average ~2; `cargo bench --bench ring -- --quick --noplot`, 2026-11-23):
//!
//! | 8 MiB of log lines | plain   | LZ4     |
//! |--------------------|---------|---------|
//! | take in            | 6.9 ms  | 25.3 ms |
//! | read back          | 0.46 ms | 5.9 ms  |
//!
//! Compressing costs ~2.2 ms of CPU per MB taken in (~0.3 s over the
//! flood benchmark's 124 MB), paid once per 64 KiB block, by the render
//! loop when it seals the block. Reading back runs at 1.3 GiB/s: a history
//! window of a few hundred KiB decompresses in well under a millisecond,
//! next to the milliseconds vt100 takes to parse it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tilework::pane::history::ring_block::Packing;
use tilework::pane::history::scrollback::{BLOCK_BYTES, ByteRing};

const RING: usize = 8 << 20;

fn filled(output: &[u8], packing: Packing) -> ByteRing {
    let mut ring = ByteRing::with_layout(RING, BLOCK_BYTES, packing);
    for piece in output.chunks(4 * 1024) {
        ring.push(piece);
    }
    ring
}

fn bench(c: &mut Criterion) {
    let output = common::log_lines(RING);
    let mut group = c.benchmark_group("ring");
    group.measurement_time(Duration::from_secs(4));
    group.sample_size(10);
    group.throughput(Throughput::Bytes(output.len() as u64));
    for (name, packing) in [("plain", Packing::Off), ("lz4", Packing::Lz4)] {
        group.bench_function(BenchmarkId::new("take in 8 MiB", name), |b| {
            b.iter(|| black_box(filled(&output, packing)).len());
        });
        let ring = filled(&output, packing);
        group.bench_function(BenchmarkId::new("read back 8 MiB", name), |b| {
            b.iter(|| black_box(ring.copy_range(0, ring.end())).len());
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
