//! `--stats PATH`: one JSON line per frame (timings, bytes, writes, key
//! latency, each pane's queued and parsed bytes) for offline analysis.

use std::time::Duration;

use anyhow::{Context, Result};

/// `--stats`: one JSON object per frame, for offline analysis.
pub struct StatsFile {
    out: std::io::BufWriter<std::fs::File>,
    line: String,
}

impl StatsFile {
    pub fn create(path: &std::path::Path) -> Result<Self> {
        let file = std::fs::File::create(path)
            .with_context(|| format!("creating the stats file {}", path.display()))?;
        Ok(Self {
            out: std::io::BufWriter::new(file),
            line: String::with_capacity(256),
        })
    }

    pub fn frame(
        &mut self,
        t: Duration,
        dur: Duration,
        bytes: u64,
        writes: u64,
        key: Option<Duration>,
        panes: impl Iterator<Item = (usize, u64)> + Clone,
    ) {
        use std::fmt::Write as _;
        use std::io::Write as _;
        self.line.clear();
        let _ = write!(
            self.line,
            "{{\"t\":{:.6},\"dur_us\":{},\"bytes\":{bytes},\"writes\":{writes},",
            t.as_secs_f64(),
            dur.as_micros()
        );
        // From the loop's read of a key to this frame's write.
        match key {
            Some(key) => {
                let _ = write!(self.line, "\"key_us\":{},", key.as_micros());
            }
            None => self.line.push_str("\"key_us\":null,"),
        }
        self.line.push_str("\"queued\":[");
        for (i, (queued, _)) in panes.clone().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            let _ = write!(self.line, "{sep}{queued}");
        }
        self.line.push_str("],\"parsed\":[");
        for (i, (_, parsed)) in panes.enumerate() {
            let sep = if i == 0 { "" } else { "," };
            let _ = write!(self.line, "{sep}{parsed}");
        }
        self.line.push_str("]}\n");
        // Flushed per frame so a reader sees frames as they happen; a stats
        // file is a diagnostic, its cost is acceptable.
        if let Err(err) = self
            .out
            .write_all(self.line.as_bytes())
            .and_then(|()| self.out.flush())
        {
            tracing::warn!("writing stats: {err}");
        }
    }
}
