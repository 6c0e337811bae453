//! The handoff on the workspace's socket, after the new process's request
//! (`tilework/1 handoff OLDEST NEWEST`, see `session::proto`):
//!
//! ```text
//! old: handoff HEADER_LEN BODY_LEN FDS\n     (or `error WHY\n`: refused)
//! old: one byte per 3 descriptors, with them  (SCM_RIGHTS)
//! old: the header (JSON), the body            (see `state`)
//! new: up\n                                   (built, nothing read yet)
//! old: go\n                                   then the old process exits
//! ```
//!
//! The old process keeps everything, and reads nothing, until `up` or
//! [`UP_DEADLINE`]: a new process that dies, hangs or refuses leaves the
//! workspace running in the old one. The new one reads nothing before
//! `go`: told nothing (the old one carried on), it exits without a trace.

use std::io::{self, Read, Write};
use std::os::fd::{BorrowedFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};

use super::state::{Header, MAX_HEADER};
use crate::os;

/// How long the old process waits for the new one to be up.
pub const UP_DEADLINE: Duration = Duration::from_secs(5);

/// How long the new process waits for the state, and for `go`.
pub const STATE_DEADLINE: Duration = Duration::from_secs(10);

/// Descriptors sent with each byte (what `os::recv_with_fds` takes).
const FDS_PER_MESSAGE: usize = os::MAX_FDS;

/// Old side: sends the state and `fds`, waits for the new process to be
/// up and tells it to go. Ok: the caller exits at once. Err: the workspace
/// carries on here (the new process hears nothing and exits).
pub fn give(
    stream: &UnixStream,
    header: &Header,
    body: &[u8],
    fds: &[BorrowedFd<'_>],
) -> Result<()> {
    let header = serde_json::to_vec(header).context("writing the header")?;
    stream.set_write_timeout(Some(UP_DEADLINE))?;
    let mut w = stream;
    w.write_all(format!("handoff {} {} {}\n", header.len(), body.len(), fds.len()).as_bytes())
        .context("sending the state's size")?;
    for group in fds.chunks(FDS_PER_MESSAGE) {
        os::send_with_fds(stream, b"F", group).context("sending descriptors")?;
    }
    w.write_all(&header).context("sending the header")?;
    w.write_all(body).context("sending the state")?;
    let line =
        read_line(stream, Instant::now() + UP_DEADLINE).context("waiting for the new process")?;
    ensure!(line == "up", "the new process said {line:?}");
    w.write_all(b"go\n")
        .context("telling the new process to go")?;
    Ok(())
}

/// Old side: refuses the handoff, saying why.
pub fn refuse(stream: &UnixStream, why: &str) {
    let flat: String = why
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let _ = (&mut &*stream).write_all(format!("error {flat}\n").as_bytes());
}

/// What the new process received.
pub struct Received {
    pub header: Header,
    pub body: Vec<u8>,
    pub fds: Vec<OwnedFd>,
}

/// New side: reads the state and its descriptors.
pub fn receive(stream: &UnixStream) -> Result<Received> {
    let deadline = Instant::now() + STATE_DEADLINE;
    let line = read_line(stream, deadline).context("reading the old workspace's answer")?;
    if let Some(why) = line.strip_prefix("error ") {
        bail!("{why}");
    }
    let mut words = line.split(' ').skip(1);
    let mut number = || -> Result<usize> {
        words
            .next()
            .and_then(|w| w.parse().ok())
            .with_context(|| format!("the old workspace said {line:?}"))
    };
    ensure!(
        line.starts_with("handoff "),
        "the old workspace said {line:?}"
    );
    let (header_len, body_len, count) = (number()?, number()?, number()?);
    ensure!(header_len <= MAX_HEADER, "a header of {header_len} bytes");
    let mut fds = Vec::with_capacity(count);
    while fds.len() < count {
        arm(stream, deadline)?;
        let mut byte = [0u8; 1];
        let before = fds.len();
        match os::recv_with_fds(stream, &mut byte, &mut fds) {
            Ok(0) => bail!("the old workspace hung up"),
            Ok(_) if fds.len() > before => {}
            Ok(_) => bail!("descriptors missing from the handoff"),
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err).context("receiving descriptors"),
        }
    }
    arm(stream, deadline)?;
    let mut header = vec![0; header_len];
    (&mut &*stream)
        .read_exact(&mut header)
        .context("reading the header")?;
    let header: Header = serde_json::from_slice(&header).context("reading the header")?;
    ensure!(
        crate::release::reads(header.format),
        "the workspace's state is in format {}; this tilework reads {:?}",
        header.format,
        crate::release::formats_read()
    );
    ensure!(body_len <= header.max_body(), "a state of {body_len} bytes");
    let mut body = vec![0; body_len];
    arm(stream, deadline)?;
    (&mut &*stream)
        .read_exact(&mut body)
        .context("reading the state")?;
    Ok(Received { header, body, fds })
}

/// New side: says it is up and waits for the old process to let go.
pub fn confirm(stream: &UnixStream) -> Result<()> {
    stream.set_write_timeout(Some(STATE_DEADLINE))?;
    (&mut &*stream)
        .write_all(b"up\n")
        .context("saying it is up")?;
    let line = read_line(stream, Instant::now() + STATE_DEADLINE).context("waiting for go")?;
    ensure!(line == "go", "the old workspace said {line:?}");
    Ok(())
}

fn arm(stream: &UnixStream, deadline: Instant) -> Result<()> {
    let left = deadline.saturating_duration_since(Instant::now());
    ensure!(!left.is_zero(), "the deadline passed");
    stream.set_read_timeout(Some(left))?;
    Ok(())
}

/// One line, read a byte at a time (descriptors may follow it).
fn read_line(stream: &UnixStream, deadline: Instant) -> Result<String> {
    let mut line = Vec::new();
    loop {
        arm(stream, deadline)?;
        let mut byte = [0u8; 1];
        match (&mut &*stream).read(&mut byte) {
            Ok(0) => bail!("the other side hung up"),
            Ok(_) if byte[0] == b'\n' => break,
            Ok(_) => line.push(byte[0]),
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err).context("reading a line"),
        }
        ensure!(
            line.len() <= crate::session::proto::MAX_LINE,
            "a line too long"
        );
    }
    Ok(String::from_utf8_lossy(&line).into_owned())
}
