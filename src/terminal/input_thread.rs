//! The thread that reads the user's terminal: every key, mouse and resize
//! event, stamped on arrival (key-to-frame latency starts here) and handed
//! to the loop on a bounded channel.

use std::time::Instant;

use anyhow::{Context, Result};
use crossbeam_channel::{Receiver, bounded};
use ratatui::crossterm::event::{self, Event};

/// Input events queued between the input thread and the loop.
const INPUT_CHANNEL_CAPACITY: usize = 256;

/// crossterm's `read` blocks and cannot be cancelled: the thread is left to
/// die with the process.
pub fn spawn() -> Result<Receiver<(Instant, Event)>> {
    let (tx, rx) = bounded(INPUT_CHANNEL_CAPACITY);
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            loop {
                match event::read() {
                    Ok(ev) => {
                        // Stamped here: key-to-frame latency starts on arrival.
                        if tx.send((Instant::now(), ev)).is_err() {
                            break;
                        }
                    }
                    Err(err) => {
                        tracing::warn!("reading terminal input: {err}");
                        break;
                    }
                }
            }
        })
        .context("starting the input thread")?;
    Ok(rx)
}
