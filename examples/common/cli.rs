//! The flags all three examples share.

use std::time::Duration;

use clap::{CommandFactory, FromArgMatches, Parser};

#[derive(Debug, Parser)]
pub struct Args {
    /// Measure every variant on a PTY of its own and print a Markdown table
    /// instead of drawing on this terminal.
    #[arg(long)]
    pub headless: bool,

    /// Seconds to render each variant (headless only).
    #[arg(long, default_value = "3", value_parser = parse_seconds, requires = "headless")]
    pub seconds: Duration,

    /// PTY size as COLSxROWS (headless only); 550x360 is the post's terminal.
    #[arg(long, default_value = "200x60", value_parser = parse_size, requires = "headless")]
    pub size: Size,

    /// Feed what the PTY master reads to a vt100 parser instead of
    /// discarding it (headless only): a stand-in for the terminal emulator
    /// whose parsing the post's numbers include.
    #[arg(long, requires = "headless")]
    pub parse: bool,
}

impl Args {
    /// Parses `std::env::args` with the example's own name and description:
    /// the derive would otherwise show the tilework package's.
    pub fn parse_for(name: &'static str, about: &'static str) -> Self {
        let matches = Self::command().name(name).about(about).get_matches();
        Self::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Size {
    pub cols: u16,
    pub rows: u16,
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.cols, self.rows)
    }
}

fn parse_size(s: &str) -> Result<Size, String> {
    let bad = || format!("`{s}` is not COLSxROWS, e.g. 200x60");
    let (cols, rows) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let cols: u16 = cols.trim().parse().map_err(|_| bad())?;
    let rows: u16 = rows.trim().parse().map_err(|_| bad())?;
    // One row for the status line, at least one for the animation.
    if cols == 0 || rows < 2 {
        return Err(format!("`{s}` is too small: at least 1x2"));
    }
    Ok(Size { cols, rows })
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if secs.is_nan() || secs <= 0.0 {
        return Err(format!("`{s}`: seconds must be more than 0"));
    }
    Duration::try_from_secs_f64(secs).map_err(|e| format!("`{s}`: {e}"))
}
