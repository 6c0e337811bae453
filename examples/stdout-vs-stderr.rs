//! The "Why stdout is faster than stderr?" experiment (blog.orhun.dev,
//! 2024) with tilework's own writers: the same ratatui animation drawn
//! through every `WriterKind` the app can use, which are std's `Stdout`
//! (a `LineWriter`: one `write(2)` per newline or per full 1 KiB buffer),
//! std's `Stderr` (unbuffered: one `write(2)` per escape-sequence fragment
//! crossterm formats) and the buffered variants the post tried as fixes.
//!
//! ```text
//! cargo run --release --example stdout-vs-stderr                 # space cycles writers
//! cargo run --release --example stdout-vs-stderr -- --headless --seconds 2
//! cargo run --release --example stdout-vs-stderr -- --headless --size 550x360   # the post's size
//! ```

#[path = "common/mod.rs"]
mod common;

use std::fs::File;
use std::io;

use tilework::terminal::output::{FrameWriter, WriterKind};

impl common::Variant for WriterKind {
    type Out = FrameWriter;

    fn label(&self) -> String {
        self.name().to_string()
    }

    /// `FrameWriter::open` is what the app does: a `LineWriter` over fd 1
    /// for `stdout`, unbuffered fd 2 for `stderr`, i.e. exactly the
    /// semantics of `std::io::stdout()`/`stderr()` that the post measured,
    /// but around a counting file so the status line shows real syscalls.
    fn open_terminal(&self) -> io::Result<FrameWriter> {
        FrameWriter::open(*self)
    }

    fn wrap_file(&self, file: File) -> FrameWriter {
        FrameWriter::from_file(file, *self)
    }
}

fn main() -> anyhow::Result<()> {
    common::run(&common::Experiment {
        name: "stdout-vs-stderr",
        about: "Draws a full-screen animation through each tilework WriterKind \
                (std stdout/stderr semantics and buffered variants) and shows fps \
                and write(2) calls per frame",
        column: "writer",
        variants: &WriterKind::ALL,
    })
}
