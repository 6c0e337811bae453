//! `tilework subscribe` (issue 43): scripts that follow what happens in
//! the workspace as NDJSON events. Each subscriber has a thread of its
//! own (its call's conversation thread, which writes the events to its
//! socket) and a bounded queue the loop fills with `try_send`: the loop
//! never waits on a subscriber. One that falls behind (its queue full, or
//! more than [`MAX_QUEUED_BYTES`] of output waiting) is cut off: its
//! thread writes an `overflow` event and ends, and the pane goes on.
//!
//! Events come from four places: each chunk of a pane's output (`feed`),
//! each command's start and end (`command_events`), every event a hook
//! could run on (`hook_runner::Hooks::fire`: pane exited, focused, tab created,
//! client attached or detached, bell, notification, silence), and the
//! workspace compared turn to turn (`workspace_events`: pane opened or
//! resized, tab closed, renamed or selected).

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crossbeam_channel::{Receiver, Sender, TrySendError, bounded};

use crate::app::workspace_events::Snapshot;
use crate::pane::history::command_marks::plain::Plain;
use crate::session::script::{Reply, TextJob};
use crate::workspace::Workspace;

/// Subscribers at once; one more is refused (each also holds one of the 32
/// conversations a uid may have).
pub const MAX_SUBSCRIBERS: usize = 8;

/// Events queued for one subscriber at most.
const QUEUE: usize = 4096;

/// Output bytes queued for one subscriber at most.
pub const MAX_QUEUED_BYTES: usize = 8 << 20;

/// What a subscriber is told.
enum Event {
    /// A chunk of pane `pane`'s output.
    Output { pane: u32, bytes: Arc<[u8]> },
    /// An event already written as a JSON object.
    Line(String),
}

struct Subscriber {
    /// Only this pane's events (by the number scripts use), or all.
    pane: Option<u32>,
    /// The event names asked for (empty: all).
    events: Vec<String>,
    tx: Sender<Event>,
    queued: Arc<AtomicUsize>,
    cut_off: Arc<AtomicBool>,
}

impl Subscriber {
    fn wants(&self, name: &str, pane: Option<u32>) -> bool {
        (self.events.is_empty() || self.events.iter().any(|e| e == name))
            && (self.pane.is_none() || pane.is_none() || self.pane == pane)
    }

    /// Queues `event` (`bytes` of output); false once cut off.
    fn offer(&self, event: Event, bytes: usize) -> bool {
        let queued = self.queued.fetch_add(bytes, Ordering::Relaxed) + bytes;
        let kept = queued <= MAX_QUEUED_BYTES
            && match self.tx.try_send(event) {
                Ok(()) => true,
                Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => false,
            };
        if !kept {
            self.cut_off.store(true, Ordering::Relaxed);
        }
        kept
    }
}

#[derive(Default)]
pub struct Subscribers {
    list: Vec<Subscriber>,
    /// The workspace at the last turn, while anyone subscribes.
    seen: Option<Snapshot>,
}

impl Subscribers {
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// A new subscriber: the reply streams its events; an error when too
    /// many subscribe.
    pub fn add(&mut self, pane: Option<u32>, events: Vec<String>, escapes: bool) -> Reply {
        self.list.retain(|s| !s.cut_off.load(Ordering::Relaxed));
        if self.list.len() >= MAX_SUBSCRIBERS {
            return Reply::error(format!(
                "{MAX_SUBSCRIBERS} subscribers are following already"
            ));
        }
        let (tx, rx) = bounded(QUEUE);
        let queued = Arc::new(AtomicUsize::new(0));
        let cut_off = Arc::new(AtomicBool::new(false));
        self.list.push(Subscriber {
            pane,
            events,
            tx,
            queued: queued.clone(),
            cut_off: cut_off.clone(),
        });
        Reply::Pieces(stream(rx, queued, cut_off, escapes))
    }

    /// Tells the panes opened and resized and the tabs closed, renamed
    /// and selected since the last turn (`app::workspace_events`).
    pub fn observe(&mut self, ws: &Workspace) {
        if self.list.is_empty() {
            self.seen = None;
            return;
        }
        let now = Snapshot::of(ws);
        if let Some(seen) = self.seen.take()
            && seen != now
        {
            for (name, pane, fields) in seen.changes(&now, ws) {
                self.event(name, pane, &fields);
            }
        }
        self.seen = Some(now);
    }

    /// A chunk of pane `pane`'s output.
    pub fn output(&mut self, pane: u32, chunk: &[u8]) {
        let mut shared: Option<Arc<[u8]>> = None;
        self.list.retain(|s| {
            if !s.wants("output", Some(pane)) {
                return true;
            }
            let bytes = shared.get_or_insert_with(|| Arc::from(chunk)).clone();
            s.offer(Event::Output { pane, bytes }, chunk.len())
        });
    }

    /// A hook's event, with the facts a hook gets (`TILEWORK_PANE` and the
    /// rest, as fields named in lower case without the prefix).
    pub fn hook(&mut self, name: &str, env: &[(String, String)]) {
        if self.list.is_empty() {
            return;
        }
        let mut pane = None;
        let mut fields = Vec::new();
        for (key, value) in env {
            let key = key.strip_prefix("TILEWORK_").unwrap_or(key).to_lowercase();
            if key == "pane" {
                pane = value.parse::<u32>().ok();
                continue;
            }
            let value = serde_json::to_string(value).unwrap_or_default();
            fields.push(format!("\"{key}\":{value}"));
        }
        self.event(name, pane, &fields.join(","));
    }

    /// An event `name` of pane `pane` (if any), with more fields already
    /// written as JSON members (`"status":0`).
    pub fn event(&mut self, name: &str, pane: Option<u32>, fields: &str) {
        if self.list.is_empty() {
            return;
        }
        let pane_field = pane.map(|p| format!(",\"pane\":{p}")).unwrap_or_default();
        let sep = if fields.is_empty() { "" } else { "," };
        let line = format!("{{\"event\":\"{name}\"{pane_field}{sep}{fields}}}");
        self.list.retain(|s| {
            if !s.wants(name, pane) {
                return true;
            }
            s.offer(Event::Line(line.clone()), 0)
        });
    }
}

/// The subscriber's side, run by its call's thread: each event as a line
/// of JSON, until the client leaves or it is cut off.
fn stream(
    rx: Receiver<Event>,
    queued: Arc<AtomicUsize>,
    cut_off: Arc<AtomicBool>,
    escapes: bool,
) -> TextJob {
    Box::new(move |sink| {
        let mut plain: std::collections::HashMap<u32, Plain> = std::collections::HashMap::new();
        let mut line = String::new();
        let mut text = Vec::new();
        sink(b"{\"event\":\"subscribed\"}\n")?;
        loop {
            if cut_off.load(Ordering::Relaxed) {
                sink(b"{\"event\":\"overflow\"}\n")?;
                return Ok(());
            }
            let Ok(event) = rx.recv() else {
                // The workspace ended.
                return Ok(());
            };
            line.clear();
            match event {
                Event::Line(json) => line.push_str(&json),
                Event::Output { pane, bytes } => {
                    queued.fetch_sub(bytes.len(), Ordering::Relaxed);
                    text.clear();
                    if escapes {
                        text.extend_from_slice(&bytes);
                    } else {
                        plain.entry(pane).or_default().push(&bytes, &mut text);
                    }
                    let json = serde_json::to_string(&String::from_utf8_lossy(&text))
                        .map_err(io::Error::other)?;
                    line.push_str(&format!(
                        "{{\"event\":\"output\",\"pane\":{pane},\"text\":{json}}}"
                    ));
                }
            }
            line.push('\n');
            sink(line.as_bytes())?;
        }
    })
}
