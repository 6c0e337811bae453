//! # channel: what does a bounded reader -> loop channel cost?
//!
//! Question: each pane's reader thread hands the render loop `Vec<u8>` chunks
//! of ~4 KiB (what a flooding PTY returns per `read(2)`) through a bounded
//! crossbeam channel of `tilework::pane::program::pty::OUTPUT_CHANNEL_CAPACITY` (16)
//! messages; full means the reader waits, the PTY fills, the child blocks:
//! backpressure, nothing dropped, memory bounded. Does a small capacity cost
//! throughput? Measured for capacities 1, 4, 16 (ours), 64 and unbounded,
//! with a producer thread copying 4 KiB chunks into recycled buffers (as
//! `pty::read_loop` does) and a consumer that does trivial work per chunk and
//! sends the buffer back, so the numbers are the channel hand-off alone.
//! The `parse` variants make the consumer parse every chunk into a 104x59
//! vt100 screen plus the `ByteRing` (like `Pane::feed`): when parsing is the
//! bottleneck, how much does the capacity still matter?
//!
//! Result on this machine (2-core VM shared with three engineers compiling
//! and benchmarking, load average ~2; `cargo bench --bench channel --
//! --quick --noplot`, 2025-11-21; the hand-off numbers swing 2-3x between
//! runs with the load, the parse ones ±10 %):
//!
//! | consumer / capacity  | throughput | peak chunks queued |
//! |----------------------|------------|--------------------|
//! | trivial/cap1         | 792 MB/s   | 1                  |
//! | trivial/cap4         | 2.87 GB/s  | 4                  |
//! | trivial/cap16 (ours) | 7.17 GB/s  | 16                 |
//! | trivial/cap64        | 13.3 GB/s  | 18                 |
//! | trivial/unbounded    | 3.5 GB/s   | 1,029 (4 MiB)      |
//! | parse/cap1           | 54.0 MB/s  | 1                  |
//! | parse/cap16 (ours)   | 54.6 MB/s  | 16                 |
//! | parse/unbounded      | 60.4 MB/s  | 501 (2 MiB: all)   |
//!
//! The hand-off itself is ~100x faster than a PTY flood (~76 MB/s) at our
//! capacity of 16; even capacity 1 is 10x faster. Unbounded is slower than
//! 64 because the producer runs ahead and allocates fresh buffers instead
//! of reusing recycled ones, and it queues whatever the consumer has not
//! parsed yet (the whole input in the parse variant: a flood would pile up
//! without limit). When the consumer parses, capacity 1 and 16 are equal;
//! unbounded was 3-10 % faster over several runs, because the producer
//! finishes early instead of being woken (a futex wake) for every 4 KiB
//! chunk the parser frees; in the app the reader is paced by the PTY anyway.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use crossbeam_channel::{Receiver, Sender, bounded, unbounded};
use tilework::config::DEFAULT_SCROLLBACK_BYTES;
use tilework::pane::history::scrollback::ByteRing;
use tilework::pane::program::pty::OUTPUT_CHANNEL_CAPACITY;

use common::{COLS, PTY_CHUNK, ROWS, nz};

/// Bytes moved per iteration for the trivial consumer.
const TRIVIAL_LEN: usize = 8 * 1024 * 1024;
/// Bytes moved per iteration when the consumer parses (~30 ms at ~70 MB/s).
const PARSE_LEN: usize = 2 * 1024 * 1024;

/// One direction of a channel of buffers.
type Pipe = (Sender<Vec<u8>>, Receiver<Vec<u8>>);

/// The output channel and the recycle channel, as `PtyProcess::spawn` makes them.
fn channels(capacity: Option<usize>) -> (Pipe, Pipe) {
    match capacity {
        // Recycling: room for every buffer in flight.
        Some(cap) => (bounded(cap), bounded(cap + 2)),
        None => (unbounded(), unbounded()),
    }
}

/// Moves `input` through a channel of `capacity` in `PTY_CHUNK` pieces; the
/// consumer runs `consume` on each chunk and recycles its buffer. Returns the
/// most chunks seen queued at once (the memory a flood can pile up).
fn transfer(input: &[u8], capacity: Option<usize>, mut consume: impl FnMut(&[u8])) -> usize {
    let mut peak = 0;
    let ((tx, rx), (recycle_tx, recycle_rx)) = channels(capacity);
    std::thread::scope(|s| {
        s.spawn(move || {
            for piece in input.chunks(PTY_CHUNK) {
                let mut buf = recycle_rx.try_recv().unwrap_or_default();
                buf.clear();
                buf.extend_from_slice(piece);
                if tx.send(buf).is_err() {
                    break;
                }
            }
        });
        for chunk in &rx {
            peak = peak.max(rx.len() + 1);
            consume(&chunk);
            let _ = recycle_tx.try_send(chunk);
        }
    });
    peak
}

fn label(capacity: Option<usize>) -> String {
    match capacity {
        Some(c) if c == OUTPUT_CHANNEL_CAPACITY => format!("cap{c}-ours"),
        Some(c) => format!("cap{c}"),
        None => "unbounded".to_string(),
    }
}

fn channel(c: &mut Criterion) {
    let mut group = c.benchmark_group("channel");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));

    let trivial_input = common::log_lines(TRIVIAL_LEN);
    group.throughput(Throughput::BytesDecimal(trivial_input.len() as u64));
    for capacity in [
        Some(1),
        Some(4),
        Some(OUTPUT_CHANNEL_CAPACITY),
        Some(64),
        None,
    ] {
        let peak = transfer(&trivial_input, capacity, |chunk| {
            black_box(chunk[0]);
        });
        eprintln!(
            "channel/trivial/{}: peak {peak} chunks queued ({} KiB)",
            label(capacity),
            peak * PTY_CHUNK / 1024
        );
        group.bench_function(BenchmarkId::new("trivial", label(capacity)), |b| {
            b.iter(|| {
                let mut sum = 0u64;
                transfer(&trivial_input, capacity, |chunk| {
                    sum += u64::from(chunk[0]) + chunk.len() as u64;
                });
                black_box(sum)
            });
        });
    }

    let parse_input = common::log_lines(PARSE_LEN);
    group.throughput(Throughput::BytesDecimal(parse_input.len() as u64));
    let mut parser = vt100::Parser::new(nz(ROWS), nz(COLS), 0);
    let mut ring = ByteRing::new(DEFAULT_SCROLLBACK_BYTES);
    ring.push(&vec![b'x'; DEFAULT_SCROLLBACK_BYTES]);
    for capacity in [Some(1), Some(OUTPUT_CHANNEL_CAPACITY), None] {
        let peak = transfer(&parse_input, capacity, |chunk| {
            parser.process(chunk);
            ring.push(chunk);
        });
        eprintln!(
            "channel/parse/{}: peak {peak} chunks queued ({} KiB)",
            label(capacity),
            peak * PTY_CHUNK / 1024
        );
        group.bench_function(BenchmarkId::new("parse", label(capacity)), |b| {
            b.iter(|| {
                transfer(&parse_input, capacity, |chunk| {
                    parser.process(chunk);
                    ring.push(chunk);
                })
            });
        });
    }
    black_box(parser.screen().cursor_position());
    group.finish();
}

criterion_group!(benches, channel);
criterion_main!(benches);
