//! What passes from the old process to the new one, besides descriptors:
//! a header (JSON) and a body of bytes, in the formats the crash-restore
//! code writes to disk, so there is one format of each thing:
//! - the layout as a profile's text (`persist::manifest`'s `layout`);
//! - each pane's history as `persist::block_file` records of the ring's
//!   sealed blocks, still compressed, then a record of the tail;
//! - the sizes it was printed at (`persist::size_file`) and its commands
//!   (`persist::marks_file`);
//! - its live screen and modes as bytes a fresh parser draws them from
//!   (`Pane::screen_state`), and its program's unread input;
//! - the workspace's pictures (`graphics::picture_store::carry`), their
//!   pixels last.
//!
//! The header says the state format ([`crate::release::state_format`]);
//! a reader refuses a format it does not read before it changes anything.

use anyhow::{Context, Result, bail, ensure};
use serde::{Deserialize, Serialize};

use crate::config::profile::{self, Profile, StartMode};
use crate::graphics::kitty::intake::KittyNames;
use crate::graphics::picture_store::carry::CarriedStore;
use crate::pane::PaneId;
use crate::pane::history::command_marks::Command;
use crate::pane::history::ring_block::SealedBlock;
use crate::pane::history::size_log::SizeLog;
use crate::pane::term::carried_marks::CarriedMarks;
use crate::persist::block_file;
use crate::persist::marks_file::SavedMarks;
use crate::persist::size_file::SavedSizes;
use crate::persist::tap::panes_in_order;
use crate::workspace::Workspace;

/// The header's most bytes: the layout and a line per pane and terminal.
pub const MAX_HEADER: usize = 4 << 20;

/// The body's most bytes: every pane's history at the largest scrollback,
/// plain, with room for its screen and its program's unread input.
pub fn max_body(panes: usize) -> usize {
    panes.saturating_mul(
        crate::config::MAX_SCROLLBACK_BYTES
            + (4 << 20)
            + crate::pane::program::input_queue::INPUT_QUEUE_BUDGET * 2,
    )
}

/// The most bytes of the header the panes' screens' marks take (links may
/// be 2 KiB each, one per cell): a quarter of it.
const SCREEN_MARKS_BUDGET: usize = MAX_HEADER / 4;

/// The pictures' pixels' most bytes.
const MAX_PICTURE_BYTES: usize = 1 << 30;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Header {
    /// The state format (see `crate::release`).
    pub format: u32,
    /// The old binary's version, for the log.
    pub version: String,
    /// The workspace as a profile's text.
    pub layout: String,
    pub active_tab: usize,
    pub zoomed_tabs: Vec<usize>,
    /// The size the workspace was laid out at (rows, columns of its
    /// terminals' frames): a workspace no terminal shows keeps it.
    #[serde(default)]
    pub size: Option<(u16, u16)>,
    /// The panes in the order the profile opens them.
    pub panes: Vec<PaneHeader>,
    /// Each attached terminal's attach request (its descriptors come
    /// over the socket in this order).
    pub terminals: Vec<String>,
    /// The pictures and placements the panes' cells name (state format 2
    /// on); their pixels end the body.
    #[serde(default)]
    pub pictures: Option<CarriedStore>,
}

/// Where a pane's parts are in the body, in this order.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PaneHeader {
    /// The program, when it runs on a PTY handed over (its master comes
    /// over the socket, in the panes' order).
    pub pid: Option<u32>,
    pub block_len: usize,
    /// Bytes of block records: the sealed blocks, then the tail.
    pub history: usize,
    pub sizes: usize,
    pub marks: usize,
    pub screen: usize,
    /// Input not yet written to the program (a paste it has not read),
    /// to write first (state format 2 on).
    #[serde(default)]
    pub input: usize,
    /// What the program calls its kitty pictures (state format 2 on).
    #[serde(default)]
    pub kitty: Option<KittyNames>,
    /// What the marks in its screen's cells stand for (links, styles,
    /// joined clusters), by the old process's ids: the new process's
    /// tables number them otherwise. Older binaries did not tell.
    #[serde(default)]
    pub screen_marks: Option<CarriedMarks>,
}

/// A pane's part of the state, read back.
pub struct PaneState {
    pub pid: Option<u32>,
    pub block_len: usize,
    pub blocks: Vec<SealedBlock>,
    pub tail: Vec<u8>,
    pub sizes: Option<SizeLog>,
    pub commands: Vec<Command>,
    pub screen: Vec<u8>,
    pub input: Vec<u8>,
    pub kitty: Option<KittyNames>,
    pub screen_marks: Option<CarriedMarks>,
}

/// The input taken from each pane's program (see [`capture`]), to give
/// back when the handoff fails.
pub type TakenInput = Vec<(PaneId, Vec<u8>)>;

/// Writes workspace `ws` (named `name`) as a header and a body. Each pane's
/// output must be held first (`Pane::hold_output`), so nothing is read
/// after its history is taken. The input not yet written to each program
/// is taken (nothing more is written): it is in the body, and returned to
/// give back if the handoff fails.
pub fn capture(
    ws: &mut Workspace,
    name: &str,
    size: (u16, u16),
    terminals: Vec<String>,
) -> (Header, Vec<u8>, TakenInput) {
    let layout = crate::workspace::profile_save::to_toml_from_lookups(ws, name);
    let zoomed_tabs = (ws.tabs().iter().enumerate())
        .filter(|(_, tab)| tab.zoomed)
        .map(|(i, _)| i)
        .collect();
    let mut header = Header {
        format: crate::release::state_format(),
        version: crate::release::version(),
        layout,
        active_tab: ws.tabs().active(),
        zoomed_tabs,
        size: Some(size),
        panes: Vec::new(),
        terminals,
        pictures: None,
    };
    let mut body = Vec::new();
    let mut taken = TakenInput::new();
    let mut marks_budget = SCREEN_MARKS_BUDGET;
    for id in panes_in_order(ws) {
        let Some(pane) = ws.panes_mut().get_mut(id) else {
            continue;
        };
        let pid = pane
            .pty_master()
            .and(pane.program().pid())
            .filter(|_| pane.program().exit().is_none());
        let screen = pane.screen_state();
        let ring = pane.history().ring();
        let block_len = ring.block_bytes().max(1);
        let first = ring.start() / block_len as u64;
        let at = body.len();
        for k in first..ring.sealed_end() {
            if let Some(block) = ring.sealed_block(k) {
                let (packed, stored): (bool, &[u8]) = match &block {
                    SealedBlock::Lz4(b) => (true, b),
                    SealedBlock::Plain(b) => (false, b),
                };
                block_file::encode(k, block_len, packed, stored, &mut body);
            }
        }
        block_file::encode(
            ring.sealed_end(),
            ring.tail().len(),
            false,
            ring.tail(),
            &mut body,
        );
        let history = body.len() - at;
        let at = body.len();
        body.extend(SavedSizes::of(pane.history().size_log(), block_len).encode());
        let sizes = body.len() - at;
        let at = body.len();
        let saved = SavedMarks {
            block_len: block_len as u64,
            commands: pane.history().command_marks().commands().cloned().collect(),
        };
        body.extend(saved.encode());
        let marks = body.len() - at;
        body.extend_from_slice(&screen);
        let input = match pid {
            Some(_) if header.format >= 2 => pane.program().take_input_for_handoff(),
            _ => Vec::new(),
        };
        body.extend_from_slice(&input);
        header.panes.push(PaneHeader {
            pid,
            block_len,
            history,
            sizes,
            marks,
            screen: screen.len(),
            input: input.len(),
            kitty: pane.kitty_names(),
            screen_marks: Some(CarriedMarks::of(&screen, &mut marks_budget)),
        });
        if !input.is_empty() {
            taken.push((id, input));
        }
    }
    if header.format >= 2 {
        header.pictures = Some(ws.panes().spawner().pictures().lock().carry(&mut body));
    }
    (header, body, taken)
}

/// The handoff failed: each program's input taken by [`capture`] is
/// written again, first.
pub fn give_back(ws: &Workspace, taken: TakenInput) {
    for (id, input) in taken {
        if let Some(pane) = ws.panes().get(id) {
            pane.program().give_back_input(input);
        }
    }
}

impl Header {
    /// The layout as a profile whose panes all start at once (their
    /// programs run already: they are taken over, not started).
    pub fn profile(&self, name: &str) -> Result<Profile> {
        let mut profile = profile::parse(&self.layout, std::path::Path::new(name))
            .map_err(|err| anyhow::anyhow!("{err}"))
            .context("the handed-over layout")?;
        for pane in crate::persist::restore::profile_panes(&mut profile) {
            pane.start = StartMode::Auto;
        }
        Ok(profile)
    }

    /// The most bytes a body with this header may have.
    pub fn max_body(&self) -> usize {
        let pictures = self
            .pictures
            .as_ref()
            .map_or(0, |p| p.pixel_bytes().min(MAX_PICTURE_BYTES));
        max_body(self.panes.len()).saturating_add(pictures)
    }

    /// The pictures' pixels: the end of `body`.
    pub fn picture_pixels<'a>(&self, body: &'a [u8]) -> &'a [u8] {
        let len = self.pictures.as_ref().map_or(0, CarriedStore::pixel_bytes);
        &body[body.len().saturating_sub(len)..]
    }

    /// Splits `body` into each pane's part.
    pub fn panes(&self, body: &[u8]) -> Result<Vec<PaneState>> {
        let mut rest = body;
        let mut take = |n: usize| -> Result<&[u8]> {
            ensure!(n <= rest.len(), "the handed-over state is cut short");
            let (now, later) = rest.split_at(n);
            rest = later;
            Ok(now)
        };
        let mut panes = Vec::with_capacity(self.panes.len());
        for pane in &self.panes {
            let (records, skipped) = block_file::decode_all_stored(take(pane.history)?);
            if skipped > 0 {
                bail!("{skipped} damaged history records in the handed-over state");
            }
            let Some((tail, sealed)) = records.split_last() else {
                bail!("a handed-over history without its tail");
            };
            let first = sealed.first().map_or(tail.index, |b| b.index);
            let mut scratch = Vec::new();
            let tail_bytes = tail
                .block
                .read(tail.plain_len, &mut scratch, <[u8]>::to_vec);
            let len = sealed.len() as u64 * pane.block_len as u64 + tail_bytes.len() as u64;
            let sizes = SavedSizes::decode(take(pane.sizes)?).and_then(|s| s.restored(first, len));
            let commands = SavedMarks::decode(take(pane.marks)?)
                .map(|m| m.restored(first, len))
                .unwrap_or_default();
            let screen = take(pane.screen)?.to_vec();
            let input = take(pane.input)?.to_vec();
            panes.push(PaneState {
                input,
                pid: pane.pid,
                block_len: pane.block_len,
                blocks: sealed.iter().map(|b| b.block.clone()).collect(),
                tail: tail_bytes,
                sizes,
                commands,
                screen,
                kitty: pane.kitty.clone(),
                screen_marks: pane.screen_marks.clone(),
            });
        }
        Ok(panes)
    }
}

/// Opens the handed-over workspace in `ws` (empty, its launcher taking the
/// programs over in the panes' order) and puts each pane's history and
/// screen back. Returns the input each program is still to be written,
/// once the old process has let go ([`write_input`]).
pub fn open(
    ws: &mut Workspace,
    header: &Header,
    profile: &Profile,
    panes: Vec<PaneState>,
) -> TakenInput {
    ws.open_profile(profile);
    let mut input = TakenInput::new();
    for (id, state) in panes_in_order(ws).into_iter().zip(panes) {
        if !state.input.is_empty() {
            input.push((id, state.input));
        }
        let Some(pane) = ws.panes_mut().get_mut(id) else {
            continue;
        };
        let screen = match &state.screen_marks {
            Some(marks) => marks.renumber(&state.screen),
            None => state.screen,
        };
        let taken = pane.take_over(
            state.block_len,
            state.blocks,
            &state.tail,
            state.sizes,
            state.commands,
            &screen,
        );
        if !taken {
            tracing::warn!(?id, "a handed-over history did not fit the ring");
        }
        if let Some(names) = state.kitty {
            pane.adopt_kitty_names(names);
        }
    }
    for &tab in &header.zoomed_tabs {
        if ws.tabs_mut().select(tab) || ws.tabs().active() == tab {
            ws.apply(crate::config::action::Action::ToggleZoom);
        }
    }
    ws.tabs_mut().select(header.active_tab);
    input
}

/// Writes each program the input the old process had not written yet (a
/// paste's backlog), before any typed here.
pub fn write_input(ws: &Workspace, input: TakenInput) {
    for (id, bytes) in input {
        let sent = ws
            .panes()
            .get(id)
            .is_some_and(|pane| pane.program().send_owned(bytes));
        if !sent {
            tracing::warn!(?id, "a program's handed-over input was not taken");
        }
    }
}
