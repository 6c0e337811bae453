//! What OSC 133 marks cost a flood (issue 43): feeds a pane (`Pane::feed`,
//! the whole intake) 40 MB of log lines, 4 KiB at a time as a PTY reader
//! delivers them, settling every 1 MiB, with a shell's prompt marks every
//! 20 lines (`--marks`) or the same bytes with an OSC nobody reads in
//! their place (`--plain`: same length, so only the marks' handling
//! differs). `scripts/marks-cost-instructions.sh` counts the instructions
//! of both under cachegrind (no noise from a shared machine).
//!
//!   cargo run --release --example marks-cost -- --marks|--plain [--mb 40]

use tilework::pane::{Pane, PaneId};

/// The bytes fed unless `--mb N` says otherwise.
const TOTAL: usize = 40 * 1000 * 1000;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let marks = args.iter().any(|a| a == "--marks");
    let total = args
        .iter()
        .position(|a| a == "--mb")
        .and_then(|i| args.get(i + 1)?.parse::<usize>().ok())
        .map_or(TOTAL, |mb| mb * 1000 * 1000);
    let (a, b, c, d) = if marks {
        ("133;A", "133;B", "133;C", "133;D;0")
    } else {
        // Same lengths, an OSC tilework ignores.
        ("999;A", "999;B", "999;C", "999;D;0")
    };
    let mut input = Vec::with_capacity(total + 4096);
    let mut line = 0u64;
    while input.len() < total {
        if line.is_multiple_of(20) {
            input.extend_from_slice(
                format!("\x1b]{d}\x07\x1b]{a}\x07$ \x1b]{b}\x07make\r\n\x1b]{c}\x07").as_bytes(),
            );
        }
        input.extend_from_slice(
            format!("{line:08} compiling crate number {line} of the workspace, ok\r\n").as_bytes(),
        );
        line += 1;
    }
    let mut pane = Pane::detached(PaneId(1), 59, 104, 8 << 20);
    let mut fed = 0;
    for chunk in input.chunks(4096) {
        pane.feed(chunk.to_vec());
        fed += chunk.len();
        if fed >= 1 << 20 {
            fed = 0;
            pane.settle();
        }
    }
    pane.settle();
    let commands = pane.history().command_marks().commands().count();
    println!("{} bytes fed, {commands} commands held", input.len());
}
