//! The history ring keeps sealed blocks LZ4-compressed: whatever is written,
//! in whatever pieces, under whatever budget, a compressed ring must read
//! back (and replay) exactly as a plain one and as a naive model: the
//! newest `budget` bytes of everything written.

use proptest::collection::vec;
use proptest::prelude::*;
use tilework::pane::history::ring_block::Packing;
use tilework::pane::history::scrollback::ByteRing;
use tilework::pane::history::window::{ReplayRequest, Window};

/// Output made of few distinct bytes (so blocks do compress) with a
/// newline now and then, and now and then arbitrary bytes (so some blocks
/// do not, and stay plain).
fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => vec(prop::sample::select(b"ab \n\x1b[m0".to_vec()), 0..300),
        1 => vec(any::<u8>(), 0..300),
        1 => (0usize..2_000, prop::sample::select(b"x\n".to_vec())).prop_map(|(n, b)| vec![b; n]),
    ]
}

fn screen_text(history: &Window) -> String {
    history.screen().contents()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_compressed_ring_reads_and_replays_like_a_plain_one(
        budget in prop_oneof![1usize..64, 64usize..3_000],
        block in 1usize..700,
        pieces in vec(piece(), 0..40),
        probes in vec((any::<u64>(), any::<u64>(), 0usize..6), 12),
    ) {
        let mut packed = ByteRing::with_layout(budget, block, Packing::Lz4);
        let mut plain = ByteRing::with_layout(budget, budget, Packing::Off);
        let mut all = Vec::new();
        for p in &pieces {
            packed.push(p);
            plain.push(p);
            all.extend_from_slice(p);
        }
        let kept = &all[all.len() - all.len().min(budget)..];
        let end = all.len() as u64;
        prop_assert_eq!((packed.start(), packed.end()), (end - kept.len() as u64, end));
        prop_assert_eq!((plain.start(), plain.end()), (packed.start(), packed.end()));
        prop_assert_eq!(packed.len(), kept.len());
        prop_assert_eq!(&packed.copy_range(0, u64::MAX), kept);
        prop_assert_eq!(&plain.copy_range(0, u64::MAX), kept);
        prop_assert_eq!(packed.first_line_start(), plain.first_line_start());

        let span = end + 2;
        for (a, b, n) in probes {
            let (a, b) = (a % span, b % span);
            let (lo, hi) = (a.min(b), a.max(b));
            prop_assert_eq!(packed.copy_range(lo, hi), plain.copy_range(lo, hi));
            prop_assert_eq!(packed.lines_back(hi, n, lo), plain.lines_back(hi, n, lo));
            prop_assert_eq!(packed.lines_forward(lo, n, hi), plain.lines_forward(lo, n, hi));
            prop_assert_eq!(packed.last_line_start_in(lo, hi), plain.last_line_start_in(lo, hi));
            prop_assert_eq!(packed.line_start_at_or_after(a), plain.line_start_at_or_after(a));
        }

        let replay = |ring: &ByteRing| Window::replay(ReplayRequest::from_ring(ring, 6, 13, 500));
        let (from_packed, from_plain) = (replay(&packed), replay(&plain));
        prop_assert_eq!(from_packed.fed_to, from_plain.fed_to);
        prop_assert_eq!(screen_text(&from_packed), screen_text(&from_plain));
    }
}

/// Log lines like the flood benchmark's, `n` of them.
fn log_lines(n: usize) -> Vec<u8> {
    let words = [
        "request", "served", "cache", "miss", "timeout", "commit", "shard",
    ];
    (0..n)
        .flat_map(|i| {
            format!(
                "08:{:02}:{:02}.{:03} INFO  worker: {} {} id={}\r\n",
                i / 60 % 60,
                i % 60,
                i * 7 % 1000,
                words[i % words.len()],
                words[i * 3 % words.len()],
                i * 7919 % 100_000
            )
            .into_bytes()
        })
        .collect()
}

#[test]
fn a_full_ring_keeps_its_whole_budget_of_output_in_about_half_the_memory() {
    let budget = 2 << 20;
    let mut ring = ByteRing::with_layout(budget, 64 * 1024, Packing::Lz4);
    let text = log_lines(60_000);
    assert!(text.len() > budget);
    for piece in text.chunks(4_321) {
        ring.push(piece);
    }
    assert_eq!(ring.len(), budget, "output kept is the budget");
    assert_eq!(ring.copy_range(0, u64::MAX), &text[text.len() - budget..]);
    let stored = ring.stored_bytes();
    assert!(
        stored * 2 < budget,
        "{budget} bytes of log lines take {stored} bytes"
    );
}

#[test]
fn a_copy_for_a_search_is_not_changed_by_newer_output() {
    let mut ring = ByteRing::new(4 << 20);
    ring.push(&log_lines(30_000));
    assert_eq!(ring.start(), 0);
    let copy = ring.clone();
    ring.push(b"more\r\n");
    assert_eq!(
        copy.copy_range(0, copy.end()),
        ring.copy_range(0, copy.end())
    );
}
