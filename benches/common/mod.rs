//! Inputs shared by the benches: deterministic generated terminal output and
//! recorded fixtures (`scripts/record-fixture.sh`, `benches/fixtures/*.bin`).
//!
//! Generated input stands in when a fixture is missing, so every bench runs on
//! a fresh checkout; which one was used is printed once per scenario.

#![allow(dead_code)]

use std::num::NonZeroU16;
use std::path::PathBuf;

/// The pane of the flood benchmark (issue 4): 59 rows x 104 columns.
pub const ROWS: u16 = 59;
pub const COLS: u16 = 104;

/// What the render loop hands the parser at most per `process` call in the
/// parse bench (a PTY delivers ~4 KiB per read; the loop batches them).
pub const PARSE_CHUNK: usize = 64 * 1024;

/// What a flooding PTY hands the reader thread per `read(2)`.
pub const PTY_CHUNK: usize = 4 * 1024;

/// Small deterministic generator (no `rand` dependency; same bytes every run).
pub struct Lcg(u64);

impl Lcg {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1))
    }

    pub fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as u32
    }

    pub fn below(&mut self, n: u32) -> u32 {
        self.next() % n.max(1)
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u32) as usize]
    }
}

pub fn nz(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n.max(2)).unwrap_or(NonZeroU16::MIN)
}

/// Repeats `unit` until the result holds at least `len` bytes (whole units,
/// so escape sequences are never cut).
pub fn repeat_to(unit: &[u8], len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + unit.len());
    while out.len() < len && !unit.is_empty() {
        out.extend_from_slice(unit);
    }
    out
}

const LEVELS: [&str; 5] = ["INFO ", "DEBUG", "WARN ", "INFO ", "TRACE"];
const WORDS: [&str; 16] = [
    "request", "handled", "worker", "cache", "miss", "upstream", "retry", "session", "token",
    "flushed", "segment", "index", "commit", "queue", "latency", "bytes",
];

/// Plain log lines as `cat` of a log file arrives from a PTY (`\r\n` line
/// ends, lengths 40..~160 so some wrap at 104 columns).
pub fn log_lines(len: usize) -> Vec<u8> {
    let mut rng = Lcg::new(1);
    let mut out = Vec::with_capacity(len + 256);
    let mut n = 0u64;
    while out.len() < len {
        n += 1;
        let mut line = format!(
            "2025-11-21T06:{:02}:{:02}.{:03}Z {} [worker-{:02}] id={:08x}",
            (n / 60) % 60,
            n % 60,
            n % 1000,
            rng.pick(&LEVELS),
            rng.below(32),
            rng.next(),
        );
        for _ in 0..rng.below(12) {
            line.push(' ');
            line.push_str(rng.pick(&WORDS));
            if rng.below(3) == 0 {
                line.push_str(&format!("={}", rng.below(100_000)));
            }
        }
        out.extend_from_slice(line.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// Every word in its own colour: 16-colour, 256-colour and RGB SGR, bold and
/// underline, resets; what `ls --color`, compilers and `git log --graph`
/// produce at their most colourful.
pub fn sgr_lines(len: usize) -> Vec<u8> {
    let mut rng = Lcg::new(2);
    let mut out = Vec::with_capacity(len + 512);
    while out.len() < len {
        let words = 4 + rng.below(10);
        for _ in 0..words {
            let sgr = match rng.below(4) {
                0 => format!("\x1b[{}m", 31 + rng.below(7)),
                1 => format!("\x1b[1;38;5;{}m", rng.below(256)),
                2 => format!(
                    "\x1b[38;2;{};{};{}m",
                    rng.below(256),
                    rng.below(256),
                    rng.below(256)
                ),
                _ => format!("\x1b[4;{};{}m", 30 + rng.below(8), 40 + rng.below(8)),
            };
            out.extend_from_slice(sgr.as_bytes());
            out.extend_from_slice(rng.pick(&WORDS).as_bytes());
            out.extend_from_slice(b"\x1b[0m ");
        }
        out.extend_from_slice(b"\r\n");
    }
    out
}

const CJK: [&str; 12] = [
    "日本語",
    "中文字符",
    "한국어",
    "テキスト",
    "表示",
    "終端",
    "漢字",
    "端末",
    "文字化け",
    "🚀",
    "✨",
    "🎉",
];

/// CJK and emoji (two columns each, multi-byte UTF-8) mixed with ASCII.
pub fn cjk_lines(len: usize) -> Vec<u8> {
    let mut rng = Lcg::new(3);
    let mut out = Vec::with_capacity(len + 256);
    while out.len() < len {
        let words = 3 + rng.below(12);
        for _ in 0..words {
            if rng.below(3) == 0 {
                out.extend_from_slice(rng.pick(&WORDS).as_bytes());
            } else {
                out.extend_from_slice(rng.pick(&CJK).as_bytes());
            }
            out.push(b' ');
        }
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// A full-screen program redrawing (htop/vim-like): each frame homes the
/// cursor, then rewrites every row with absolute cursor moves, colours,
/// erase-to-end-of-line, an inverse status line, and every 8th frame a full
/// clear. Nothing scrolls.
pub fn redraw_stream(rows: u16, cols: u16, len: usize) -> Vec<u8> {
    let mut rng = Lcg::new(4);
    let mut out = Vec::with_capacity(len + 16 * 1024);
    out.extend_from_slice(b"\x1b[?1049h\x1b[?25l");
    let mut frame = 0u32;
    while out.len() < len {
        if frame.is_multiple_of(8) {
            out.extend_from_slice(b"\x1b[H\x1b[2J");
        }
        for row in 1..rows {
            out.extend_from_slice(format!("\x1b[{row};1H").as_bytes());
            let mut col = 0u16;
            while col + 12 < cols {
                let colour = rng.below(256);
                let word = rng.pick(&WORDS);
                out.extend_from_slice(format!("\x1b[38;5;{colour}m{word:<10}\x1b[m ").as_bytes());
                col += 11;
            }
            out.extend_from_slice(b"\x1b[K");
        }
        out.extend_from_slice(
            format!("\x1b[{rows};1H\x1b[7m frame {frame:>6} \x1b[K\x1b[m").as_bytes(),
        );
        out.extend_from_slice(format!("\x1b[{};{}H", 1 + frame % 20, 1 + frame % 60).as_bytes());
        frame += 1;
    }
    out.extend_from_slice(b"\x1b[?25h\x1b[?1049l");
    out
}

/// One screenful of coloured text, every cell set: the worst case for the
/// pane widget and for a full repaint. `variant` changes every cell's glyph
/// and colour, so two variants differ in every cell.
pub fn coloured_screen(rows: u16, cols: u16, variant: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(rows as usize * cols as usize * 12);
    out.extend_from_slice(b"\x1b[H");
    for row in 0..rows {
        out.extend_from_slice(format!("\x1b[{};1H", row + 1).as_bytes());
        for col in 0..cols {
            let i = u32::from(row) * 7 + u32::from(col) + variant * 3;
            let fg = i % 256;
            let bg = (i / 3 + 128 + variant * 5) % 256;
            let bold = if (i + variant).is_multiple_of(5) {
                "1;"
            } else {
                "22;"
            };
            let glyph = char::from(b'!' + ((i * 13 + variant * 41) % 90) as u8);
            out.extend_from_slice(format!("\x1b[{bold}38;5;{fg};48;5;{bg}m{glyph}").as_bytes());
        }
    }
    out.extend_from_slice(b"\x1b[m");
    out
}

/// `benches/fixtures/NAME.bin`, if recorded.
pub fn fixture(name: &str) -> Option<Vec<u8>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("benches")
        .join("fixtures")
        .join(format!("{name}.bin"));
    std::fs::read(path).ok().filter(|b| !b.is_empty())
}

/// A fixture replayed (repeated) to at least `len` bytes, or `fallback`'s
/// output. Says which on stderr.
pub fn fixture_or(
    scenario: &str,
    name: &str,
    len: usize,
    fallback: impl FnOnce(usize) -> Vec<u8>,
) -> Vec<u8> {
    match fixture(name) {
        Some(bytes) => {
            eprintln!(
                "{scenario}: replaying benches/fixtures/{name}.bin ({} bytes) to {} KiB",
                bytes.len(),
                len / 1024
            );
            repeat_to(&bytes, len)
        }
        None => {
            eprintln!("{scenario}: benches/fixtures/{name}.bin missing, using generated input");
            fallback(len)
        }
    }
}
