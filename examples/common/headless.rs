//! Headless measurement: each variant draws on a PTY of its own for a fixed
//! time, as fast as it can, while a thread reads the master side and throws
//! the bytes away. The PTY is what makes this honest: a write to it is a
//! real tty `write(2)` with the kernel's tty locking and buffering, which a
//! pipe or `/dev/null` would not have. What it leaves out by default is a
//! terminal emulator parsing the bytes, so the numbers are the writer's cost
//! alone; `--parse` puts a vt100 parser on the master side to add it back.

use std::fs::OpenOptions;
use std::io::{self, Read};
use std::num::NonZeroU16;
use std::os::unix::fs::OpenOptionsExt;
use std::thread;
use std::time::Duration;

use anyhow::{Context, Result, anyhow};
use portable_pty::{PtySize, native_pty_system};

use super::anim::{self, Meter, Sample, Tally};
use super::cli::{Args, Size};
use super::{Experiment, FrameOut, Variant, table};

pub fn run<V: Variant>(exp: &Experiment<'_, V>, args: &Args) -> Result<()> {
    let (size, seconds) = (args.size, args.seconds);
    let mut rows = Vec::new();
    let mut drained = 0;
    for variant in exp.variants {
        let label = variant.label();
        // Progress on stderr keeps stdout a clean table even when one slow
        // variant takes a while.
        eprintln!("{}: measuring {label} for {seconds:?} at {size}…", exp.name);
        let (sample, bytes) = measure(variant, &label, size, seconds, args.parse)
            .with_context(|| format!("measuring {label}"))?;
        drained += bytes;
        rows.push((label, sample));
    }
    table::print(exp.column, &rows);
    println!();
    let reader = if args.parse {
        "parsed by a vt100 screen on the master side"
    } else {
        "master drained and discarded (no terminal emulator parsing it)"
    };
    println!(
        "size {size}, {} s per row; each row on its own PTY, {reader}; {:.1} MB read in all",
        seconds.as_secs_f64(),
        drained as f64 / 1e6
    );
    Ok(())
}

/// Returns the rates and the bytes the drain thread read.
fn measure<V: Variant>(
    variant: &V,
    label: &str,
    size: Size,
    seconds: Duration,
    parse: bool,
) -> Result<(Sample, u64)> {
    let screen = if parse {
        let rows = NonZeroU16::new(size.rows).context("zero rows")?;
        let cols = NonZeroU16::new(size.cols).context("zero columns")?;
        Some(vt100::Parser::new(rows, cols, 0))
    } else {
        None
    };
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: size.rows,
            cols: size.cols,
            pixel_width: 0,
            pixel_height: 0,
        })
        .context("opening a PTY")?;
    let path = pair
        .master
        .tty_name()
        .context("the PTY has no slave device path")?;
    // O_NOCTTY: if this process happens to be a session leader without a
    // terminal (setsid, some CI runners), opening a tty would make it our
    // controlling terminal, and closing the master later would SIGHUP us.
    let file = OpenOptions::new()
        .write(true)
        .custom_flags(nix::libc::O_NOCTTY)
        .open(&path)
        .with_context(|| format!("opening {}", path.display()))?;
    // From here on `file` is the only descriptor of the slave side, so
    // dropping it at the end is what makes the master read EOF (EIO) and
    // the drain thread return.
    drop(pair.slave);

    let master = pair.master;
    let reader = master
        .try_clone_reader()
        .context("cloning the PTY master for reading")?;
    // The thread owns every master descriptor and closes them when it stops,
    // even on a read error: writes to the slave then fail with EIO instead
    // of blocking forever on a PTY buffer that nobody empties.
    let drain = thread::Builder::new()
        .name("pty-drain".into())
        .spawn(move || {
            let drained = drain(reader, screen);
            drop(master);
            drained
        })
        .context("starting the drain thread")?;

    // `render` owns the writer and drops it (closing the slave) before it
    // returns, on success and on error alike, so the join below cannot hang.
    let rendered = render(variant.wrap_file(file), label, size, seconds);
    let drained = drain
        .join()
        .map_err(|_| anyhow!("the PTY drain thread panicked"))?
        .context("reading the PTY master")?;
    let sample = rendered.context("drawing on the PTY")?;
    Ok((sample, drained))
}

fn render<W: FrameOut>(out: W, label: &str, size: Size, seconds: Duration) -> io::Result<Sample> {
    // The same status line as the interactive run, so both draw the same
    // bytes; `total` is the whole run, `meter` only feeds that line.
    let mut total = Tally::new(out.counters());
    let mut meter = Meter::new(label.to_string(), "headless", out.counters());
    let mut term = anim::terminal(out, size.cols, size.rows)?;
    let mut t = 0;
    // At least one frame, however short the run: a slow writer at a large
    // size can take longer than `seconds` for a single frame.
    loop {
        anim::draw_frame(&mut term, t, &meter.status())?;
        t += 1;
        total.frame_done();
        meter.frame_done();
        if total.elapsed() >= seconds {
            return Ok(total.sample());
        }
    }
}

/// Reads as fast as the kernel hands bytes over, like an idle terminal
/// emulator would, so the writer never blocks on a full PTY buffer for
/// long; with a `screen`, every byte is also parsed, like a real one.
/// Ends at EOF, which portable-pty reports when the slave is closed.
fn drain(mut reader: Box<dyn Read + Send>, mut screen: Option<vt100::Parser>) -> io::Result<u64> {
    let mut buf = vec![0u8; 64 * 1024];
    let mut total = 0u64;
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return Ok(total),
            Ok(n) => {
                total += n as u64;
                if let Some(screen) = screen.as_mut() {
                    screen.process(&buf[..n]);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}
