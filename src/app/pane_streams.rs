//! Remote panes' output (issue 47 §2): each `tilework proxy` on this host
//! follows one pane of this workspace through a `pane-stream` call (see
//! `session::pane_link`), from a position of the pane's byte ring on.
//!
//! The ring is the buffer: the loop only copies what the ring gained since
//! the stream's last turn (the pane's newest bytes, in its tail or newest
//! block) into a bounded queue with `try_send`, and never waits on a
//! stream. A stream whose reader falls behind (its queue full, or more
//! than [`MAX_QUEUED_BYTES`] waiting) is cut off: its answer ends without
//! an exit frame, and the proxy asks again from the last position it got,
//! which the call's own thread copies from a copy of the ring. So a slow
//! link costs the loop nothing, and no byte is lost while the ring holds
//! it.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crossbeam_channel::{Receiver, Sender, TrySendError, bounded};

use crate::app::stream_pictures;
use crate::graphics::picture_store::PictureStore;
use crate::pane::PaneId;
use crate::pane::history::scrollback::ByteRing;
use crate::session::pane_link::{self, Frame, MAX_OUTPUT_FRAME, PaneStreamCall, UNKNOWN_STATUS};
use crate::session::script::{Reply, TextJob};
use crate::workspace::Workspace;

/// Streams at once (each holds one of the conversations a uid may have).
const MAX_STREAMS: usize = 16;
/// Frames queued for one stream at most.
const QUEUE: usize = 256;
/// Output bytes queued for one stream at most.
const MAX_QUEUED_BYTES: usize = 4 << 20;
/// A stream that asks for no position starts this far back (from a line
/// start): enough output for the screen it joins.
const FRESH_BACKLOG: u64 = 256 << 10;

struct Stream {
    pane: PaneId,
    /// The ring position the stream has up to.
    sent: u64,
    tx: Sender<Vec<u8>>,
    queued: Arc<AtomicUsize>,
    cut_off: Arc<AtomicBool>,
}

impl Stream {
    /// Queues one frame; false once cut off.
    fn offer(&self, frame: &Frame) -> bool {
        self.offer_encoded(frame.encode())
    }

    /// Queues one encoded frame; false once cut off.
    fn offer_encoded(&self, bytes: Vec<u8>) -> bool {
        let len = bytes.len();
        let queued = self.queued.fetch_add(len, Ordering::Relaxed) + len;
        let kept = queued <= MAX_QUEUED_BYTES
            && match self.tx.try_send(bytes) {
                Ok(()) => true,
                Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => false,
            };
        if !kept {
            self.cut_off.store(true, Ordering::Relaxed);
        }
        kept
    }

    /// Queues what the ring gained since the last turn (its pictures
    /// those of `pictures`); false once cut off.
    fn catch_up(&mut self, ring: &ByteRing, pictures: &PictureStore) -> bool {
        if ring.start() > self.sent {
            self.sent = stream_pictures::resume_at(ring, ring.start());
            if !self.offer(&Frame::Gap(self.sent)) {
                return false;
            }
        }
        while self.sent < ring.end() {
            let end = ring.end().min(self.sent + MAX_OUTPUT_FRAME as u64);
            // A picture's reference the ring holds only part of waits.
            let end = stream_pictures::whole_end(ring, self.sent, end);
            if end == self.sent {
                break;
            }
            let frames = encoded_frames(ring, pictures, self.sent, end);
            self.sent = end;
            for frame in frames {
                if !self.offer_encoded(frame) {
                    return false;
                }
            }
        }
        true
    }
}

#[derive(Default)]
pub struct PaneStreams {
    list: Vec<Stream>,
}

impl PaneStreams {
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// A new stream of pane `id`'s output: the reply sends what the ring
    /// holds from the position asked for (copied on the call's thread),
    /// then what comes.
    pub fn open(&mut self, ws: &mut Workspace, id: PaneId, call: &PaneStreamCall) -> Reply {
        self.list.retain(|s| !s.cut_off.load(Ordering::Relaxed));
        if self.list.len() >= MAX_STREAMS {
            return Reply::error(format!("{MAX_STREAMS} remote panes are streaming already"));
        }
        relayed(ws, id);
        let Some(pane) = ws.panes().get(id) else {
            return Reply::error("the pane is gone");
        };
        let ring = pane.history().ring().clone();
        let end = stream_pictures::whole_end(&ring, ring.start(), ring.end());
        let from = match call.from {
            Some(from) => from.min(end),
            None => {
                ring.line_start_at_or_after(end.saturating_sub(FRESH_BACKLOG).max(ring.start()))
            }
        };
        let (tx, rx) = bounded(QUEUE);
        let queued = Arc::new(AtomicUsize::new(0));
        let cut_off = Arc::new(AtomicBool::new(false));
        let mut stream = Stream {
            pane: id,
            sent: end,
            tx,
            queued: queued.clone(),
            cut_off: cut_off.clone(),
        };
        let exit = pane.program().exit().map(|e| e.code);
        if let Some(code) = exit {
            // Ended already (a pane kept open): what it left, then its end.
            stream.offer(&Frame::Exit(code));
        } else {
            stream.catch_up(pane.history().ring(), ws.panes().spawner().pictures());
            self.list.push(stream);
        }
        let pictures = ws.panes().spawner().pictures().clone();
        Reply::Pieces(send(ring, pictures, from, end, rx, queued, cut_off))
    }

    /// After a turn of feeding: each stream gets what its pane's ring
    /// gained; a stream whose pane is gone gets its end.
    pub fn pump(&mut self, ws: &Workspace) {
        self.list.retain_mut(|stream| {
            if stream.cut_off.load(Ordering::Relaxed) {
                return false;
            }
            let Some(pane) = ws.panes().get(stream.pane) else {
                stream.offer(&Frame::Exit(UNKNOWN_STATUS));
                return false;
            };
            if !stream.catch_up(pane.history().ring(), ws.panes().spawner().pictures()) {
                return false;
            }
            match pane.program().exit() {
                Some(info) => {
                    stream.offer(&Frame::Exit(info.code));
                    false
                }
                None => true,
            }
        });
    }

    /// Pane `id`'s program ended with `code`, its last output fed: its
    /// streams get that output and the status, before the pane may close.
    pub fn pane_ended(&mut self, ws: &Workspace, id: PaneId, code: i32) {
        self.list.retain_mut(|stream| {
            if stream.pane != id {
                return true;
            }
            if let Some(ring) = ring_of(ws, id) {
                stream.catch_up(ring, ws.panes().spawner().pictures());
            }
            stream.offer(&Frame::Exit(code));
            false
        });
    }
}

/// Pane `id` is a remote pane's: the local workspace keeps its history,
/// compressed, and saves it. Here it is kept only to be streamed (a
/// reconnect's catch-up): not saved, and kept plain, so that a flood costs
/// this loop neither the compression nor the saver's writes (with the
/// ring's budget of plain bytes in memory, against about half of it
/// compressed).
fn relayed(ws: &mut Workspace, id: PaneId) {
    ws.panes_mut().stop_saving_history(id);
    if let Some(pane) = ws.panes_mut().get_mut(id) {
        pane.history_mut().keep_plain();
    }
}

/// The output frame of the ring's `[from, to)`, its bytes copied once,
/// from the ring's blocks into the frame.
fn output_frame(ring: &ByteRing, from: u64, to: u64) -> Vec<u8> {
    let len = usize::try_from(to - from).unwrap_or(0);
    pane_link::output_frame(to, len, |out| {
        ring.visit(from, to, false, |_, bytes| {
            out.extend_from_slice(bytes);
            ControlFlow::<()>::Continue(())
        });
    })
}

/// The ring's `[from, to)` as encoded frames: one output frame, encoded
/// straight from the ring, unless it holds a picture's reference, which
/// becomes the commands that carry the picture of `pictures` (see
/// `stream_pictures`).
fn encoded_frames(ring: &ByteRing, pictures: &PictureStore, from: u64, to: u64) -> Vec<Vec<u8>> {
    let frame = output_frame(ring, from, to);
    let len = usize::try_from(to - from).unwrap_or(0);
    let body = &frame[frame.len() - len..];
    if !stream_pictures::holds_reference(body) {
        return vec![frame];
    }
    stream_pictures::frames(pictures, body.to_vec(), to)
        .iter()
        .map(Frame::encode)
        .collect()
}

fn ring_of(ws: &Workspace, id: PaneId) -> Option<&ByteRing> {
    ws.panes().get(id).map(|p| p.history().ring())
}

/// The stream's side, on its call's thread: the ring's `[from, end)` from
/// the copy, then the frames the loop queues, until the pane ends, the
/// stream is cut off, or the reader leaves.
fn send(
    ring: ByteRing,
    pictures: PictureStore,
    from: u64,
    end: u64,
    rx: Receiver<Vec<u8>>,
    queued: Arc<AtomicUsize>,
    cut_off: Arc<AtomicBool>,
) -> TextJob {
    Box::new(move |sink| {
        let mut at = from;
        if ring.start() > at {
            at = stream_pictures::resume_at(&ring, ring.start());
            sink(&Frame::Gap(at).encode())?;
        }
        while at < end {
            let to = end.min(at + MAX_OUTPUT_FRAME as u64);
            let to = stream_pictures::whole_end(&ring, at, to);
            if to == at {
                break;
            }
            for frame in encoded_frames(&ring, &pictures, at, to) {
                sink(&frame)?;
            }
            at = to;
        }
        drop((ring, pictures));
        loop {
            // What was queued before a cut-off is still good: the reader
            // asks again from after it.
            let frame = match rx.try_recv() {
                Ok(frame) => frame,
                Err(_) if cut_off.load(Ordering::Relaxed) => return Ok(()),
                Err(_) => match rx.recv() {
                    Ok(frame) => frame,
                    // The workspace ended.
                    Err(_) => return Ok(()),
                },
            };
            queued.fetch_sub(frame.len(), Ordering::Relaxed);
            let exit = frame.first() == Some(&b'X');
            sink(&frame)?;
            if exit {
                return Ok(());
            }
        }
    })
}
