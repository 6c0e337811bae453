//! Interactive run on the user's terminal: draw as fast as possible, space
//! switches writer, `q`/Esc/Ctrl-C quits.

use std::io::{self, IsTerminal};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::crossterm::terminal;
use ratatui::layout::Rect;
use std::os::fd::AsFd;

use tilework::terminal::guard::TerminalModes;

use super::anim::{self, Meter};
use super::{Experiment, FrameOut, Variant};

const HINT: &str = "space: next  q: quit";

enum Next {
    Switch,
    Quit,
}

pub fn run<V: Variant>(exp: &Experiment<'_, V>) -> Result<()> {
    // crossterm's size() falls back to `tput` without a terminal, so check
    // first and point at the mode that works without one.
    if !io::stdout().is_terminal() {
        bail!("stdout is not a terminal: run with --headless to measure on a PTY instead");
    }
    let (mut cols, mut rows) = terminal::size().context("reading the terminal size")?;
    // The app's own guard: raw mode, alternate screen, hidden cursor, and a
    // panic hook that restores all of it before the message is printed. Mouse
    // reporting stays off: this demo has no use for it.
    let _guard = TerminalModes::enter(std::io::stdin().as_fd(), std::io::stdout().as_fd(), false)
        .context("setting up the terminal")?;

    let mut index = 0;
    // Carried across switches so the animation does not jump back.
    let mut t = 0;
    loop {
        let Some(variant) = exp.variants.get(index) else {
            return Ok(());
        };
        let out = variant
            .open_terminal()
            .with_context(|| format!("opening the terminal as {}", variant.label()))?;
        let mut meter = Meter::new(variant.label(), HINT, out.counters());
        // A new Terminal has an empty previous buffer, so its first frame
        // repaints everything through the new writer.
        let mut term = anim::terminal(out, cols, rows).context("creating the terminal")?;
        loop {
            anim::draw_frame(&mut term, t, &meter.status()).context("drawing a frame")?;
            t += 1;
            meter.frame_done();
            // Zero timeout: the point is to draw as fast as the writer allows
            // (the post's 1/60 s poll capped every writer at 60 fps).
            match input(&mut cols, &mut rows)? {
                Some(Next::Switch) => break,
                Some(Next::Quit) => return Ok(()),
                None => {}
            }
            let size = Rect::new(0, 0, cols, rows);
            if term.get_frame().area() != size {
                term.resize(size).context("resizing")?;
            }
        }
        index = (index + 1) % exp.variants.len();
    }
}

/// Handles every pending event without waiting; updates the size on resize.
fn input(cols: &mut u16, rows: &mut u16) -> Result<Option<Next>> {
    while event::poll(Duration::ZERO).context("polling for input")? {
        match event::read().context("reading input")? {
            Event::Key(key) if key.kind == KeyEventKind::Press => match key.code {
                KeyCode::Char(' ') => return Ok(Some(Next::Switch)),
                KeyCode::Char('q') | KeyCode::Esc => return Ok(Some(Next::Quit)),
                KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                    return Ok(Some(Next::Quit));
                }
                _ => {}
            },
            // Fixed viewports are never resized by ratatui itself.
            Event::Resize(c, r) => (*cols, *rows) = (c.max(1), r.max(2)),
            _ => {}
        }
    }
    Ok(None)
}
