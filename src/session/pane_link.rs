//! What a remote pane (issue 47 §2) carries: the calls `tilework proxy`
//! makes to the workspace on its host, and the frames it exchanges with
//! the local relay (`tilework remote-pane`) over ssh's stdin and stdout.
//!
//! A remote pane needs four things of its workspace, and no more:
//! - its **output** from a position of its byte ring onwards, each frame
//!   tagged with the ring position it ends at, so a reconnect asks for
//!   what came since and nothing arrives twice;
//! - **input** bytes for its PTY, and a **resize**;
//! - its **end** (the exit status).
//!
//! Besides, the pane's directory as the workspace last looked it up (so a
//! split of a remote pane opens there even when the remote shell does not
//! report it by OSC 7). Everything else (copy mode, search, pictures, the
//! status bar) is the local workspace's: it parses the output itself.
//!
//! A frame is a kind byte, a big-endian `u32` length, and that many bytes.

use serde::{Deserialize, Serialize};

/// The output of pane `pane` from ring position `from` (`None`: from what
/// its screen needs, the last screenfuls' worth), as frames (see
/// [`Frame`]) in the pieces of the answer, until the pane ends or the
/// reader falls too far behind (then the answer ends without an exit
/// frame, and the reader asks again from where it got).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaneStreamCall {
    pub pane: u32,
    pub from: Option<u64>,
}

/// The longest frame either side accepts: output is sent in pieces of at
/// most [`MAX_OUTPUT_FRAME`].
pub const MAX_FRAME: usize = 1 << 20;
/// The most output bytes in one frame.
pub const MAX_OUTPUT_FRAME: usize = 256 << 10;

/// The exit status of a program whose status is not known (its pane was
/// closed before it could be read).
pub const UNKNOWN_STATUS: i32 = -1;

/// One frame, either way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// Proxy to relay: the remote pane's id, first on every connection.
    Pane(u32),
    /// Output bytes ending at this ring position.
    Output { end: u64, bytes: Vec<u8> },
    /// The ring no longer holds what was asked for: output resumes at this
    /// position (the bytes before it are lost).
    Gap(u64),
    /// The pane's directory, as its workspace last saw it.
    Dir(String),
    /// The pane's program ended with this status.
    Exit(i32),
    /// The proxy could not do what it was asked (no such pane...).
    Error(String),
    /// Relay to proxy: bytes for the pane's PTY.
    Input(Vec<u8>),
    /// Relay to proxy: the pane's new size.
    Resize { cols: u16, rows: u16 },
}

impl Frame {
    /// The frame as it travels.
    pub fn encode(&self) -> Vec<u8> {
        let (kind, body): (u8, Vec<u8>) = match self {
            Frame::Pane(id) => (b'P', id.to_be_bytes().to_vec()),
            Frame::Output { end, bytes } => {
                let mut body = end.to_be_bytes().to_vec();
                body.extend_from_slice(bytes);
                (b'O', body)
            }
            Frame::Gap(at) => (b'G', at.to_be_bytes().to_vec()),
            Frame::Dir(dir) => (b'D', dir.as_bytes().to_vec()),
            Frame::Exit(code) => (b'X', code.to_be_bytes().to_vec()),
            Frame::Error(text) => (b'E', text.as_bytes().to_vec()),
            Frame::Input(bytes) => (b'I', bytes.clone()),
            Frame::Resize { cols, rows } => {
                let mut body = cols.to_be_bytes().to_vec();
                body.extend_from_slice(&rows.to_be_bytes());
                (b'R', body)
            }
        };
        let len = u32::try_from(body.len()).unwrap_or(u32::MAX);
        let mut out = Vec::with_capacity(5 + body.len());
        out.push(kind);
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(&body);
        out
    }

    fn decode(kind: u8, body: &[u8]) -> Result<Self, String> {
        let u64_at = |b: &[u8]| -> Result<u64, String> {
            let bytes: [u8; 8] = b
                .get(..8)
                .and_then(|s| s.try_into().ok())
                .ok_or("a frame too short")?;
            Ok(u64::from_be_bytes(bytes))
        };
        let u32_of = |b: &[u8]| -> Result<[u8; 4], String> {
            b.try_into().map_err(|_| "a frame of the wrong size".into())
        };
        Ok(match kind {
            b'P' => Frame::Pane(u32::from_be_bytes(u32_of(body)?)),
            b'O' => Frame::Output {
                end: u64_at(body)?,
                bytes: body[8..].to_vec(),
            },
            b'G' => Frame::Gap(u64_at(body)?),
            b'D' => Frame::Dir(String::from_utf8_lossy(body).into_owned()),
            b'X' => Frame::Exit(i32::from_be_bytes(u32_of(body)?)),
            b'E' => Frame::Error(String::from_utf8_lossy(body).into_owned()),
            b'I' => Frame::Input(body.to_vec()),
            b'R' => {
                let b = u32_of(body)?;
                Frame::Resize {
                    cols: u16::from_be_bytes([b[0], b[1]]),
                    rows: u16::from_be_bytes([b[2], b[3]]),
                }
            }
            other => return Err(format!("a frame of unknown kind {other:#04x}")),
        })
    }
}

/// A frame's kind byte and length: the header before its body.
pub const HEADER: usize = 5;

/// An output frame ending at ring position `end` with `len` bytes, its
/// header and position written, its bytes appended by `fill` (straight
/// from where they are: the host's ring), so they are copied once.
pub fn output_frame(end: u64, len: usize, fill: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let body = 8 + len;
    let mut out = Vec::with_capacity(HEADER + body);
    out.push(b'O');
    out.extend_from_slice(&u32::try_from(body).unwrap_or(u32::MAX).to_be_bytes());
    out.extend_from_slice(&end.to_be_bytes());
    fill(&mut out);
    debug_assert_eq!(out.len(), HEADER + body);
    out
}

/// The whole length (header included) of the frame `bytes` start with,
/// once its header is there; an error for a length no frame has (the
/// bytes are no frames).
pub fn frame_len(bytes: &[u8]) -> Result<Option<usize>, String> {
    let Some(head) = bytes.get(..HEADER) else {
        return Ok(None);
    };
    let len = u32::from_be_bytes([head[1], head[2], head[3], head[4]]) as usize;
    if len > MAX_FRAME + 8 {
        return Err(format!("a frame of {len} bytes"));
    }
    Ok(Some(HEADER + len))
}

/// The ring position a whole frame (`bytes`, header included) brings the
/// reader to: an output frame's end, or a gap's.
pub fn position_of(frame: &[u8]) -> Option<u64> {
    match frame.first() {
        Some(b'O' | b'G') => frame
            .get(HEADER..HEADER + 8)
            .and_then(|b| b.try_into().ok())
            .map(u64::from_be_bytes),
        _ => None,
    }
}

/// A frame as read: output borrowed from the bytes it came in, any other
/// decoded.
#[derive(Debug, PartialEq, Eq)]
pub enum Received<'a> {
    Output { end: u64, bytes: &'a [u8] },
    Other(Frame),
}

impl<'a> Received<'a> {
    /// The whole frame `frame` (header included).
    fn of(frame: &'a [u8]) -> Result<Self, String> {
        let (kind, body) = (frame[0], &frame[HEADER..]);
        if kind == b'O' {
            let end = position_of(frame).ok_or("a frame too short")?;
            return Ok(Received::Output {
                end,
                bytes: &body[8..],
            });
        }
        Ok(Received::Other(Frame::decode(kind, body)?))
    }
}

/// Frames out of a byte stream that may cut them anywhere.
#[derive(Default)]
pub struct FrameReader {
    /// The start of a frame the last bytes cut.
    held: Vec<u8>,
}

impl FrameReader {
    /// Takes `bytes` and returns the frames they complete; an error for a
    /// stream that is not frames (the other side is not a tilework of this
    /// version, or something printed on ssh's channel).
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<Frame>, String> {
        let mut frames = Vec::new();
        self.each(bytes, |frame| {
            frames.push(match frame {
                Received::Output { end, bytes } => Frame::Output {
                    end,
                    bytes: bytes.to_vec(),
                },
                Received::Other(frame) => frame,
            });
        })?;
        Ok(frames)
    }

    /// Hands `f` each frame `bytes` complete, in order. Whole frames are
    /// read where they lie (an output's bytes are not copied); only a
    /// frame cut at either end of `bytes` is put together here.
    pub fn each(
        &mut self,
        mut bytes: &[u8],
        mut f: impl FnMut(Received<'_>),
    ) -> Result<(), String> {
        while !self.held.is_empty() {
            let want = frame_len(&self.held)?.unwrap_or(HEADER);
            let take = want.saturating_sub(self.held.len()).min(bytes.len());
            self.held.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.held.len() < want {
                return Ok(());
            }
            if frame_len(&self.held)? == Some(self.held.len()) {
                let frame = std::mem::take(&mut self.held);
                f(Received::of(&frame)?);
                self.held = frame;
                self.held.clear();
            }
        }
        let mut at = 0;
        while let Some(len) = frame_len(&bytes[at..])? {
            let Some(frame) = bytes.get(at..at + len) else {
                break;
            };
            f(Received::of(frame)?);
            at += len;
        }
        self.held.extend_from_slice(&bytes[at..]);
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn frames_cut_anywhere_come_out_whole_and_in_order() {
        let frames = vec![
            Frame::Pane(7),
            Frame::Output {
                end: 1 << 40,
                bytes: b"hello\x1b[m".to_vec(),
            },
            Frame::Gap(12),
            Frame::Dir("/srv/x".into()),
            Frame::Input(vec![0, 255, 27]),
            Frame::Resize { cols: 300, rows: 2 },
            Frame::Exit(-1),
            Frame::Error("no such pane".into()),
        ];
        let stream: Vec<u8> = frames.iter().flat_map(Frame::encode).collect();
        for cut in [1, 2, 3, 5, 7, 64] {
            let mut reader = FrameReader::default();
            let mut got = Vec::new();
            for piece in stream.chunks(cut) {
                got.extend(reader.push(piece).unwrap());
            }
            assert_eq!(got, frames, "cut every {cut}");
        }
    }

    #[test]
    fn output_read_in_place_is_the_output_sent() {
        let sent = output_frame(42, 5, |out| out.extend_from_slice(b"hello"));
        let frame = Frame::Output {
            end: 42,
            bytes: b"hello".to_vec(),
        };
        assert_eq!(sent, frame.encode());
        assert_eq!(position_of(&sent), Some(42));
        assert_eq!(frame_len(&sent), Ok(Some(sent.len())));
        let stream: Vec<u8> = [sent.clone(), Frame::Exit(0).encode(), sent].concat();
        for cut in [1, 4, 5, 6, 18, 19] {
            let mut reader = FrameReader::default();
            let mut got = Vec::new();
            for piece in stream.chunks(cut) {
                reader
                    .each(piece, |f| {
                        got.push(match f {
                            Received::Output { end, bytes } => format!("{end}:{bytes:?}"),
                            Received::Other(f) => format!("{f:?}"),
                        })
                    })
                    .unwrap();
            }
            let hello = format!("42:{:?}", b"hello");
            assert_eq!(got, [hello.clone(), "Exit(0)".into(), hello], "cut {cut}");
        }
    }

    #[test]
    fn text_that_is_no_frame_is_refused() {
        let mut reader = FrameReader::default();
        assert!(reader.push(b"bash: tilework: command not found\n").is_err());
    }
}
