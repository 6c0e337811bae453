//! Shared by the three output experiments (`stdout-vs-stderr`,
//! `buffer-sizes`, `sync-output`). Each example only says which writers it
//! compares ([`Variant`]); everything else — the animation, the interactive
//! loop, the headless PTY harness, the flags and the table — lives here, so
//! the three measure exactly the same workload and differ only in the
//! writer between ratatui and the file descriptor.
//!
//! Included with `#[path = "common/mod.rs"] mod common;` because cargo
//! would otherwise treat a directory under `examples/` as an example.

pub mod anim;
pub mod cli;
pub mod headless;
pub mod interactive;
pub mod sink;
pub mod table;

pub use sink::{FrameOut, Variant};

/// One experiment: what the table's first column is called and the writers
/// it compares, in the order space cycles through them.
pub struct Experiment<'a, V> {
    pub name: &'static str,
    pub about: &'static str,
    pub column: &'static str,
    pub variants: &'a [V],
}

/// Parses the flags and runs the experiment interactively or headless.
pub fn run<V: Variant>(exp: &Experiment<'_, V>) -> anyhow::Result<()> {
    let args = cli::Args::parse_for(exp.name, exp.about);
    if args.headless {
        headless::run(exp, &args)
    } else {
        interactive::run(exp)
    }
}
