//! The thread that reads the user's terminal: every key, mouse and resize
//! event, stamped on arrival (key-to-frame latency starts here) and handed
//! to the loop on a bounded channel.
//!
//! It reads whatever terminal is on fd 0 (see `terminal::stdio`). When that
//! terminal fails (it hung up), the thread waits for [`resume`], which the
//! next attach calls, instead of spinning on the error or ending: a
//! workspace outlives its terminals.

use std::sync::OnceLock;
use std::time::Instant;

use anyhow::{Context, Result};
use crossbeam_channel::{Receiver, Sender, bounded};
use ratatui::crossterm::event::{self, Event};

/// Input events queued between the input thread and the loop.
const INPUT_CHANNEL_CAPACITY: usize = 256;

/// Wakes the input thread after a read error (one token is enough).
static RESUME: OnceLock<Sender<()>> = OnceLock::new();

/// crossterm's `read` blocks and cannot be cancelled: the thread is left to
/// die with the process.
pub fn spawn() -> Result<Receiver<(Instant, Event)>> {
    let (tx, rx) = bounded(INPUT_CHANNEL_CAPACITY);
    let (resume_tx, resume_rx) = bounded::<()>(1);
    let _ = RESUME.set(resume_tx);
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            loop {
                match event::read() {
                    Ok(ev) => {
                        tracing::trace!(?ev, "input");
                        // Stamped here: key-to-frame latency starts on arrival.
                        if tx.send((Instant::now(), ev)).is_err() {
                            break;
                        }
                    }
                    Err(err) => {
                        tracing::warn!("reading terminal input: {err}; waiting for a terminal");
                        if resume_rx.recv().is_err() {
                            break;
                        }
                    }
                }
            }
        })
        .context("starting the input thread")?;
    Ok(rx)
}

/// A new terminal is on fd 0: a thread that stopped on an error reads again.
pub fn resume() {
    if let Some(tx) = RESUME.get() {
        let _ = tx.try_send(());
    }
}
