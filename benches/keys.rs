//! # keys: what does dispatching one key cost?
//!
//! Question: from a crossterm `KeyEvent` to "action done" or "bytes queued
//! for the pane's writer thread", how long does `InputRouter::handle_key`
//! take on a real (headless) `Workspace`? Like the input-latency seed's
//! `synthetic_key` scenarios, this is the in-process slice of the
//! keystroke-to-echo path; `scripts/bench-latency.sh` measures the whole path.
//!
//! Setup: a `Workspace` with no terminal, one pane (two for the focus chord)
//! running `stty raw -echo; exec cat` on a real PTY through `open_row`, the
//! default keymap (prefix C-b). Keys for the pane are encoded and written
//! to its PTY (`Pane::send`: straight from the loop when nothing is queued,
//! else queued for the writer thread); `cat` echoes them back, and between timed batches
//! of at most 256 queued keys the bench waits, untimed, until every echoed
//! byte arrived (so the input queue, bounded at 1024, never fills and drops
//! keys, and the pane's output channel never stalls `cat`).
//!
//! Scenarios (per iteration; divide by the keys to get ns per key):
//! - `a`: a plain character for the pane (1 key, 1 byte).
//! - `esc`, `up`: named keys for the pane (1 key, 1 and 3 bytes).
//! - `prefix_chord`: C-b then `o`, focus-next between 2 panes (2 keys).
//! - `overlay`: C-b `?` opening the help overlay, C-b `?` closing it (4 keys).
//! - `type_13B`: typing "hello, world!" (13 keys, 13 bytes).
//!
//! Result on this machine (2-core VM; `cargo bench --bench keys -- --quick
//! --noplot`, 2026-11-21; noisy: `esc` and `up` vary by ~1 µs):
//!
//! | scenario     | per iteration | keys | per key |
//! |--------------|---------------|------|---------|
//! | a            | 2.6 µs        | 1    | 2.6 µs  |
//! | esc          | 2.1 µs        | 1    | 2.1 µs  |
//! | up           | 2.2 µs        | 1    | 2.2 µs  |
//! | prefix_chord | 166 ns        | 2    | 83 ns   |
//! | overlay      | 643 ns        | 4    | 161 ns  |
//! | type_13B     | 22.5 µs       | 13   | 1.7 µs  |
//!
//! Dispatch alone (keymap lookups, mode changes) is 70-170 ns a key. A key
//! for the pane is written to the PTY by the loop itself when nothing is
//! queued (`PtyProcess::send_input`): a `write(2)` of a few bytes, ~2 µs
//! here, instead of queueing it and waking the writer thread (~0.4-0.5 µs
//! in the loop, but a thread hop before the program sees the key). When
//! keys do queue (a paste in progress, a program not reading), the loop
//! yields after waking the writer, which otherwise waited for the loop's
//! time slice on this 2-core machine (0.2 ms on average under load,
//! `perf sched`). Microseconds either way, against a 0.3 ms echo budget.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use crossbeam_channel::{Receiver, bounded};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use tilework::config::DEFAULT_SCROLLBACK_BYTES;
use tilework::config::keymap::Keymap;
use tilework::input::router::InputRouter;
use tilework::mailbox::Mailbox;
use tilework::pane::event::PaneEvent;
use tilework::pane::program::spawn::ChildEnv;
use tilework::workspace::{PaneLaunch, Workspace, WorkspaceSettings};

/// Keys queued to the pane per timed batch: well under the input channel's
/// 1024 chunks and the PTY's buffers.
const BATCH_SENDS: u64 = 256;

/// The pane's program: no echo from the terminal, no line buffering, every
/// byte copied back once, and a marker when it is ready.
const CAT: &str = "stty raw -echo; printf ready; exec cat";
const READY: &str = "ready";

struct Bench {
    ws: Workspace,
    router: InputRouter,
    /// Held so the workspace's event sender stays connected.
    _events: Receiver<PaneEvent>,
    /// Bytes echoed back so far, and bytes that should have been.
    received: u64,
    expected: u64,
}

impl Bench {
    fn new(panes: usize) -> Self {
        let env = ChildEnv::new(Some("/bin/sh"), "xterm-256color");
        let settings = WorkspaceSettings {
            env: env.clone(),
            scrollback_bytes: DEFAULT_SCROLLBACK_BYTES,
            keep_exited_panes: false,
        };
        let (tx, rx) = bounded(256);
        let mut ws = Workspace::new(settings, Rect::new(0, 0, 106, 60), tx.into());
        let launches = (0..panes)
            .map(|_| {
                let (spec, label) = env.command_line(CAT, None);
                PaneLaunch::new(spec, label)
            })
            .collect();
        ws.open_row(launches);
        let mut bench = Self {
            ws,
            router: InputRouter::new(Keymap::default(), false, Mailbox::discarding()),
            _events: rx,
            received: 0,
            expected: (panes * READY.len()) as u64,
        };
        assert!(bench.drain(), "the cat panes did not start");
        bench
    }

    /// Waits (untimed) until every byte sent has come back. Returns false on
    /// a timeout, after which counting restarts.
    fn drain(&mut self) -> bool {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            for pane in self.ws.panes_mut().iter_mut() {
                while let Some(chunk) = pane.program_mut().try_output() {
                    self.received += chunk.len() as u64;
                    pane.feed(chunk);
                }
            }
            if self.received >= self.expected {
                return true;
            }
            if Instant::now() > deadline {
                eprintln!(
                    "keys: only {} of {} echoed bytes came back",
                    self.received, self.expected
                );
                self.received = self.expected;
                return false;
            }
            std::thread::sleep(Duration::from_micros(50));
        }
    }
}

impl Drop for Bench {
    fn drop(&mut self) {
        self.ws.panes().kill_all();
    }
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn ctrl(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
}

/// Times `keys` dispatched `iters` times, in batches that let `cat` catch up.
/// `echo` is the number of bytes the keys send to the pane per iteration.
fn run(bench: &mut Bench, keys: &[KeyEvent], echo: u64, iters: u64) -> Duration {
    let sends = keys.len() as u64;
    let per_batch = if echo == 0 {
        iters
    } else {
        (BATCH_SENDS / sends).max(1)
    };
    let mut total = Duration::ZERO;
    let mut left = iters;
    while left > 0 {
        let n = left.min(per_batch);
        let start = Instant::now();
        for _ in 0..n {
            for k in keys {
                black_box(bench.router.handle_key(&mut bench.ws, black_box(k)));
            }
        }
        total += start.elapsed();
        left -= n;
        if echo > 0 {
            bench.expected += n * echo;
            bench.drain();
        }
    }
    total
}

fn keys(c: &mut Criterion) {
    let mut group = c.benchmark_group("keys");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));

    let typed: Vec<KeyEvent> = "hello, world!"
        .chars()
        .map(|c| key(KeyCode::Char(c)))
        .collect();
    let one_pane: Vec<(&str, Vec<KeyEvent>, u64)> = vec![
        ("a", vec![key(KeyCode::Char('a'))], 1),
        ("esc", vec![key(KeyCode::Esc)], 1),
        ("up", vec![key(KeyCode::Up)], 3),
        (
            "overlay",
            vec![
                ctrl('b'),
                key(KeyCode::Char('?')),
                ctrl('b'),
                key(KeyCode::Char('?')),
            ],
            0,
        ),
        ("type_13B", typed, 13),
    ];
    let mut bench = Bench::new(1);
    for (name, keys, echo) in &one_pane {
        group.throughput(Throughput::Elements(keys.len() as u64));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter_custom(|iters| run(&mut bench, keys, *echo, iters));
        });
    }
    assert!(
        bench
            .router
            .popups()
            .get::<tilework::input::popups::help::HelpView>()
            .is_none(),
        "the overlay bench left help open"
    );
    drop(bench);

    let mut bench = Bench::new(2);
    let chord = [ctrl('b'), key(KeyCode::Char('o'))];
    let first = bench.ws.tabs().focused_id();
    group.throughput(Throughput::Elements(chord.len() as u64));
    group.bench_function(BenchmarkId::from_parameter("prefix_chord"), |b| {
        b.iter_custom(|iters| run(&mut bench, &chord, 0, iters));
    });
    // Focus really moved: one more chord lands on the other pane.
    let before = bench.ws.tabs().focused_id();
    run(&mut bench, &chord, 0, 1);
    assert_ne!(
        before,
        bench.ws.tabs().focused_id(),
        "C-b o did not move focus"
    );
    black_box(first);
    group.finish();
}

criterion_group!(benches, keys);
criterion_main!(benches);
