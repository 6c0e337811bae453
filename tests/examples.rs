//! The comparison examples run headless to completion and print their
//! tables. No timing is asserted: the numbers are for people to read.

use std::path::PathBuf;
use std::process::Command;

/// `cargo test` builds the examples next to the binary under test.
fn example(name: &str) -> PathBuf {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_tilework"));
    bin.parent()
        .map(|dir| dir.join("examples").join(name))
        .unwrap_or_default()
}

fn run_headless(name: &str, rows_expected: &[&str]) {
    let path = example(name);
    assert!(
        path.exists(),
        "{} was not built (cargo test builds examples)",
        path.display()
    );
    let out = Command::new(&path)
        .args(["--headless", "--seconds", "0.2", "--size", "80x24"])
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", path.display()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{name} failed: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    for row in rows_expected {
        assert!(
            stdout.contains(&format!("| {row} |")),
            "{row} missing from:\n{stdout}"
        );
    }
}

#[test]
fn stdout_vs_stderr_prints_a_row_per_writer() {
    run_headless(
        "stdout-vs-stderr",
        &[
            "bufwriter-raw",
            "stdout",
            "stderr",
            "bufwriter-stdout",
            "linewriter-stderr",
            "raw",
        ],
    );
}

#[test]
fn buffer_sizes_prints_a_row_per_capacity() {
    run_headless("buffer-sizes", &["100 B", "1 MiB"]);
}

#[test]
fn sync_output_prints_both_modes() {
    run_headless(
        "sync-output",
        &["no sync (plain frames)", "sync (CSI ? 2026 h/l)"],
    );
}
