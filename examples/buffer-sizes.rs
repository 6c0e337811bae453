//! The post's "small buffer vs big buffer" observation: the same animation
//! through `BufWriter::with_capacity(cap, file)` for capacities from 100 B
//! to 1 MiB. A frame here is hundreds of KB, so the number of `write(2)`
//! calls per frame is roughly frame bytes / capacity until the buffer holds
//! a whole frame; past that, bigger buffers buy nothing.
//!
//! ```text
//! cargo run --release --example buffer-sizes                 # space cycles capacities
//! cargo run --release --example buffer-sizes -- --headless --seconds 2
//! ```

#[path = "common/mod.rs"]
mod common;

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::os::fd::AsFd;
use std::sync::Arc;

use tilework::terminal::output::{Counting, WriteCounters};

/// A `BufWriter` capacity in bytes.
#[derive(Clone, Copy)]
struct Capacity(usize);

const CAPACITIES: [Capacity; 6] = [
    Capacity(100),
    Capacity(1024),
    Capacity(8 * 1024),
    Capacity(64 * 1024),
    Capacity(256 * 1024),
    Capacity(1024 * 1024),
];

impl common::Variant for Capacity {
    type Out = Buffered;

    fn label(&self) -> String {
        let Capacity(cap) = *self;
        match cap {
            c if c >= 1024 * 1024 => format!("{} MiB", c / (1024 * 1024)),
            // std's `BufWriter::new` capacity, called out because it is what
            // `BufWriter::new(stdout())` gives.
            8192 => "8 KiB (std default)".to_string(),
            c if c >= 1024 => format!("{} KiB", c / 1024),
            c => format!("{c} B"),
        }
    }

    /// An owned duplicate of fd 1, as the app does: no `unsafe`, and
    /// dropping the writer does not close the real stdout.
    fn open_terminal(&self) -> io::Result<Buffered> {
        let fd = io::stdout().as_fd().try_clone_to_owned()?;
        Ok(self.wrap_file(File::from(fd)))
    }

    fn wrap_file(&self, file: File) -> Buffered {
        let counters = Arc::new(WriteCounters::default());
        let Capacity(cap) = *self;
        Buffered {
            inner: BufWriter::with_capacity(cap, Counting::new(file, Arc::clone(&counters))),
            counters,
        }
    }
}

/// `BufWriter` with the app's flush discipline: ratatui's mid-frame
/// flushes (from `execute!`) are ignored, so only a full buffer or the end
/// of a frame reaches the OS and the count isolates the capacity's effect.
struct Buffered {
    inner: BufWriter<Counting<File>>,
    counters: Arc<WriteCounters>,
}

impl Write for Buffered {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl common::FrameOut for Buffered {
    fn end_frame(&mut self) -> io::Result<()> {
        self.inner.flush()
    }

    fn counters(&self) -> Arc<WriteCounters> {
        Arc::clone(&self.counters)
    }
}

fn main() -> anyhow::Result<()> {
    common::run(&common::Experiment {
        name: "buffer-sizes",
        about: "Draws a full-screen animation through BufWriters of 100 B to 1 MiB \
                and shows fps and write(2) calls per frame",
        column: "buffer",
        variants: &CAPACITIES,
    })
}
