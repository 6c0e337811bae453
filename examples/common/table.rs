//! The headless result as a Markdown table, ready to paste into a report.

use super::anim::Sample;

pub fn print(column: &str, rows: &[(String, Sample)]) {
    println!("| {column} | frames/s | writes/frame | bytes/frame |");
    println!("|---|---:|---:|---:|");
    for (label, s) in rows {
        println!(
            "| {label} | {} | {} | {} |",
            fps(s.fps),
            per_frame(s.writes_per_frame),
            per_frame(s.bytes_per_frame)
        );
    }
}

/// Whole numbers once they are big enough that decimals are noise; one
/// decimal below that, so "1.0" (one write per frame) stays visible.
pub fn per_frame(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// Two decimals for the slow rows: at the post's size an unbuffered writer
/// manages about a tenth of a frame per second, which one decimal would
/// round to nothing useful.
pub fn fps(v: f64) -> String {
    if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}
