//! One pane's side of the kitty graphics protocol: the pictures it named
//! (`i`, `I`), a chunked transmission in progress, and what each command
//! does, as [`KittyOp`]s for the image store, a reply for the program and
//! how far the cursor moves. Pure: the pane hands in each command's APC
//! body with its cursor and screen size, and carries out what comes back.
//!
//! Not done, answered with an error: animation (`a=f`, `a=a`, `a=c`),
//! virtual placements for Unicode placeholders (`U=1`) and placements
//! relative to another (`P`, `Q`). Data by file, temporary file or shared
//! memory is not read here (that may wait on the file system, and this
//! runs on the render loop): such a command comes back as
//! [`Handled::Load`], for the caller to read with [`super::medium`] off
//! the loop and hand back to [`KittyIntake::loaded`].

use std::collections::HashMap;

use super::command::{Action, Command, split_body};
use super::decode::decode;
use super::encode::PixelRect;
use super::reply::{KittyError, reply_for};
use super::transfer::{Transfer, decode_whole};
use crate::graphics::image::RgbaImage;

/// The pane's screen where a command arrives, 0-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    pub row: u16,
    pub col: u16,
    pub rows: u16,
    pub cols: u16,
}

/// A picture shown at a cell of the pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The pane's id for the picture (tilework's own for one the program
    /// did not name).
    pub image: u32,
    /// The program's placement id (0: none; a new placement each time).
    pub placement: u32,
    /// The cell its top left corner is in.
    pub row: u16,
    pub col: u16,
    /// The cells it covers.
    pub cols: u16,
    pub rows: u16,
    /// The part of the picture shown.
    pub source: PixelRect,
    /// Where in the first cell it starts, in pixels (`X`, `Y`).
    pub cell_offset: (u32, u32),
    pub z: i32,
}

/// Which placements a delete takes (`d`); `free`: the pictures left
/// without placements go too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deletion {
    /// Every placement on the screen.
    Visible,
    /// The placements of a picture, or one of them.
    Image {
        image: u32,
        placement: Option<u32>,
    },
    /// Those pictures whose ids are in the range.
    IdRange {
        first: u32,
        last: u32,
    },
    /// Those covering a cell (0-based), of one stacking order if given.
    Cell {
        row: u16,
        col: u16,
        z: Option<i32>,
    },
    Column(u16),
    Row(u16),
    Z(i32),
}

/// What a command asks of the image store.
#[derive(Debug, Clone, PartialEq)]
pub enum KittyOp {
    /// Keep `image` under the pane's id `id`: a picture kept under it
    /// before goes, with its placements.
    Store {
        id: u32,
        image: RgbaImage,
    },
    Place(Placement),
    Delete {
        which: Deletion,
        free: bool,
    },
}

/// What the pane does after a command.
#[derive(Debug, Default, PartialEq)]
pub struct Outcome {
    pub ops: Vec<KittyOp>,
    /// Bytes for the program, in order with the other answers.
    pub reply: Vec<u8>,
    /// Cells the cursor moves right and rows down (kitty's rule: past the
    /// picture, on its last row); (0, 0) stays.
    pub cursor_moves: (u16, u16),
}

/// A command [`KittyIntake::handle`] read.
#[derive(Debug)]
pub enum Handled {
    Done(Outcome),
    /// Data to read from a file: read `name` with
    /// [`super::medium::read_medium`] off the loop and give the result to
    /// [`KittyIntake::loaded`] with the cursor then.
    Load {
        command: Command,
        name: Vec<u8>,
    },
}

/// How a transmission in chunks stands.
#[derive(Debug)]
enum Pending {
    Gathering(Transfer),
    /// The first chunk was refused: the rest are read and dropped, and the
    /// last one says why.
    Refused(Command, KittyError),
}

/// A pane's kitty graphics state.
#[derive(Debug)]
pub struct KittyIntake {
    pending: Option<Pending>,
    /// The pane's pictures by id, with their sizes (the pixels are the
    /// store's).
    images: HashMap<u32, (u32, u32)>,
    /// The newest picture given each number (`I`).
    numbers: HashMap<u32, u32>,
    /// The next id for a picture the program did not give one.
    next_own_id: u32,
    /// Whether pictures reach a user's terminal: what `a=q` is answered by.
    pub reaches_terminal: bool,
    /// The size of a cell of the user's terminal in pixels: how many cells
    /// a picture covers when the program does not say.
    pub cell_pixels: (u32, u32),
}

impl Default for KittyIntake {
    fn default() -> Self {
        KittyIntake {
            pending: None,
            images: HashMap::new(),
            numbers: HashMap::new(),
            next_own_id: OWN_IDS,
            reaches_terminal: false,
            cell_pixels: (10, 20),
        }
    }
}

/// Ids tilework gives pictures start here, well above the small ones
/// programs pick.
const OWN_IDS: u32 = 1 << 31;

/// At most this many pictures named per pane: each one's size is kept.
const MAX_NAMED: usize = 4096;

impl KittyIntake {
    /// Reads one APC body (everything between `ESC _` and `ESC \`); `None`
    /// when it is not a graphics command.
    pub fn handle(&mut self, body: &[u8], cursor: Cursor) -> Option<Handled> {
        let (control, payload) = split_body(body)?;
        let cmd = match Command::parse(control) {
            Ok(cmd) => cmd,
            Err(e) => {
                // Which picture it named cannot be trusted: kitty answers
                // only when it can read `i`; so does this, best effort.
                self.pending = None;
                let named = Command::parse(b"").ok().map(|mut c| {
                    c.image_id = id_in(control);
                    c
                });
                let mut out = Outcome::default();
                if let Some(c) = named {
                    reply_for(
                        &c,
                        c.image_id,
                        &Err(KittyError::invalid(e.0)),
                        &mut out.reply,
                    );
                }
                return Some(Handled::Done(out));
            }
        };
        Some(self.command(cmd, payload, cursor))
    }

    fn command(&mut self, cmd: Command, payload: &[u8], cursor: Cursor) -> Handled {
        if let Some(pending) = self.pending.take() {
            let continues = cmd.action != Action::Delete && continuation(&cmd);
            if continues {
                return self.next_chunk(pending, &cmd, payload, cursor);
            }
            // Anything else ends the transmission (a delete must, the spec
            // says); it is dropped unanswered.
        }
        if let Err(e) = refused(&cmd) {
            if cmd.more {
                self.pending = Some(Pending::Refused(cmd, e));
                return Handled::Done(Outcome::default());
            }
            return Handled::Done(self.answer(&cmd, cmd.image_id, Err(e)));
        }
        match cmd.action {
            Action::Place => Handled::Done(self.place_stored(&cmd, cursor)),
            Action::Delete => Handled::Done(self.delete(&cmd, cursor)),
            Action::Animation(_) => Handled::Done(Outcome::default()),
            Action::Transmit | Action::TransmitAndPlace | Action::Query => {
                if cmd.more {
                    let mut transfer = Transfer::new(cmd);
                    self.pending = Some(match transfer.push(payload) {
                        Ok(()) => Pending::Gathering(transfer),
                        Err(e) => Pending::Refused(transfer.command, e),
                    });
                    return Handled::Done(Outcome::default());
                }
                match decode_whole(cmd.clone(), payload) {
                    Ok((cmd, data)) => self.data_complete(cmd, data, cursor),
                    Err(e) => Handled::Done(self.answer(&cmd, cmd.image_id, Err(e))),
                }
            }
        }
    }

    fn next_chunk(
        &mut self,
        pending: Pending,
        chunk: &Command,
        payload: &[u8],
        cursor: Cursor,
    ) -> Handled {
        match pending {
            Pending::Gathering(mut transfer) => {
                // A continuation's own `q` counts (the spec lets it send one).
                if chunk.has(b'q') {
                    transfer.command.quiet = chunk.quiet;
                }
                if let Err(e) = transfer.push(payload) {
                    let cmd = transfer.command;
                    if chunk.more {
                        self.pending = Some(Pending::Refused(cmd, e));
                        return Handled::Done(Outcome::default());
                    }
                    return Handled::Done(self.answer(&cmd, cmd.image_id, Err(e)));
                }
                if chunk.more {
                    self.pending = Some(Pending::Gathering(transfer));
                    return Handled::Done(Outcome::default());
                }
                let first = transfer.command.clone();
                match transfer.finish() {
                    Ok((cmd, data)) => self.data_complete(cmd, data, cursor),
                    Err(e) => Handled::Done(self.answer(&first, first.image_id, Err(e))),
                }
            }
            Pending::Refused(cmd, e) => {
                if chunk.more {
                    self.pending = Some(Pending::Refused(cmd, e));
                    return Handled::Done(Outcome::default());
                }
                Handled::Done(self.answer(&cmd, cmd.image_id, Err(e)))
            }
        }
    }

    /// All of a transmission's payload is in: direct data is decoded now;
    /// a file name goes back to the caller to read.
    fn data_complete(&mut self, cmd: Command, data: Vec<u8>, cursor: Cursor) -> Handled {
        if cmd.medium != super::command::Medium::Direct {
            return Handled::Load {
                command: cmd,
                name: data,
            };
        }
        Handled::Done(self.loaded(cmd, Ok(data), cursor))
    }

    /// Carries out a transmission whose data is in (or could not be read).
    pub fn loaded(
        &mut self,
        cmd: Command,
        data: Result<Vec<u8>, KittyError>,
        cursor: Cursor,
    ) -> Outcome {
        let image = match data.and_then(|data| decode(&cmd, data)) {
            Ok(image) => image,
            Err(e) => return self.answer(&cmd, cmd.image_id, Err(e)),
        };
        if cmd.action == Action::Query {
            // Loaded, kept nowhere; OK only if it could be seen.
            let result = if self.reaches_terminal {
                Ok(())
            } else {
                Err(KittyError::new(
                    "ENOTSUP",
                    "no terminal attached to tilework shows pictures",
                ))
            };
            return self.answer(&cmd, cmd.image_id, result);
        }
        let id = match cmd.image_id {
            0 => self.own_id(),
            id => id,
        };
        if !self.images.contains_key(&id) && self.images.len() >= MAX_NAMED {
            return self.answer(
                &cmd,
                id,
                Err(KittyError::new("ENOSPC", "too many pictures")),
            );
        }
        if cmd.image_number != 0 {
            self.numbers.insert(cmd.image_number, id);
        }
        self.images.insert(id, (image.width(), image.height()));
        let mut out = Outcome {
            ops: vec![KittyOp::Store { id, image }],
            ..Outcome::default()
        };
        if cmd.action == Action::TransmitAndPlace {
            match self.placement(&cmd, id, cursor) {
                Ok((placement, moves)) => {
                    out.ops.push(KittyOp::Place(placement));
                    out.cursor_moves = moves;
                }
                Err(e) => {
                    let mut failed = self.answer(&cmd, id, Err(e));
                    failed.ops = out.ops;
                    return failed;
                }
            }
        }
        let reply = self.answer(&cmd, id, Ok(())).reply;
        out.reply = reply;
        out
    }

    /// `a=p`: a picture stored before, placed at the cursor.
    fn place_stored(&mut self, cmd: &Command, cursor: Cursor) -> Outcome {
        let id = match (cmd.image_id, cmd.image_number) {
            (0, 0) => {
                return Outcome::default();
            }
            (0, number) => self.numbers.get(&number).copied().unwrap_or(0),
            (id, _) => id,
        };
        if !self.images.contains_key(&id) {
            return self.answer(cmd, id, Err(KittyError::new("ENOENT", "no such image")));
        }
        match self.placement(cmd, id, cursor) {
            Ok((placement, moves)) => {
                let mut out = self.answer(cmd, id, Ok(()));
                out.ops.push(KittyOp::Place(placement));
                out.cursor_moves = moves;
                out
            }
            Err(e) => self.answer(cmd, id, Err(e)),
        }
    }

    /// Where and how large picture `id` shows, and how the cursor moves.
    fn placement(
        &self,
        cmd: &Command,
        id: u32,
        cursor: Cursor,
    ) -> Result<(Placement, (u16, u16)), KittyError> {
        let &(width, height) = self
            .images
            .get(&id)
            .ok_or_else(|| KittyError::new("ENOENT", "no such image"))?;
        if cmd.x >= width || cmd.y >= height {
            return Err(KittyError::invalid(
                "the source rectangle is outside the image",
            ));
        }
        let clip = |start: u32, len: u32, whole: u32| match len {
            0 => whole - start,
            len => len.min(whole - start),
        };
        let source = PixelRect {
            x: cmd.x,
            y: cmd.y,
            width: clip(cmd.x, cmd.w, width),
            height: clip(cmd.y, cmd.h, height),
        };
        let (cell_w, cell_h) = (self.cell_pixels.0.max(1), self.cell_pixels.1.max(1));
        let shown_w = u64::from(source.width) + u64::from(cmd.cell_x);
        let shown_h = u64::from(source.height) + u64::from(cmd.cell_y);
        let (cols, rows) = match (cmd.cols, cmd.rows) {
            (0, 0) => (
                shown_w.div_ceil(u64::from(cell_w)),
                shown_h.div_ceil(u64::from(cell_h)),
            ),
            // One given: the other keeps the picture's proportions.
            (0, r) => (
                (u64::from(r) * u64::from(cell_h) * u64::from(source.width))
                    .div_ceil(u64::from(source.height) * u64::from(cell_w)),
                u64::from(r),
            ),
            (c, 0) => (
                u64::from(c),
                (u64::from(c) * u64::from(cell_w) * u64::from(source.height))
                    .div_ceil(u64::from(source.width) * u64::from(cell_h)),
            ),
            (c, r) => (u64::from(c), u64::from(r)),
        };
        let cells = |n: u64| u16::try_from(n.max(1)).unwrap_or(u16::MAX);
        let (cols, rows) = (cells(cols), cells(rows));
        let placement = Placement {
            image: id,
            placement: cmd.placement_id,
            row: cursor.row,
            col: cursor.col,
            cols,
            rows,
            source,
            cell_offset: (cmd.cell_x, cmd.cell_y),
            z: cmd.z,
        };
        let moves = if cmd.cursor_stays {
            (0, 0)
        } else {
            (cols, rows - 1)
        };
        Ok((placement, moves))
    }

    /// `a=d`: which placements go, as the store reads them.
    fn delete(&mut self, cmd: &Command, cursor: Cursor) -> Outcome {
        let free = cmd.delete.free;
        // Cells in deletes are 1-based, like cursor positions.
        let cell = |n: u32| u16::try_from(n.saturating_sub(1)).unwrap_or(u16::MAX);
        let which = match cmd.delete.what {
            b'a' => Deletion::Visible,
            b'i' => Deletion::Image {
                image: cmd.image_id,
                placement: (cmd.placement_id != 0).then_some(cmd.placement_id),
            },
            b'n' => match self.numbers.get(&cmd.image_number) {
                Some(&image) => Deletion::Image {
                    image,
                    placement: (cmd.placement_id != 0).then_some(cmd.placement_id),
                },
                None => return Outcome::default(),
            },
            b'r' => Deletion::IdRange {
                first: cmd.x,
                last: cmd.y,
            },
            b'c' => Deletion::Cell {
                row: cursor.row,
                col: cursor.col,
                z: None,
            },
            b'p' => Deletion::Cell {
                row: cell(cmd.y),
                col: cell(cmd.x),
                z: None,
            },
            b'q' => Deletion::Cell {
                row: cell(cmd.y),
                col: cell(cmd.x),
                z: Some(cmd.z),
            },
            b'x' => Deletion::Column(cell(cmd.x)),
            b'y' => Deletion::Row(cell(cmd.y)),
            b'z' => Deletion::Z(cmd.z),
            // Animation frames: there are none to delete.
            _ => return Outcome::default(),
        };
        if free {
            // Forgotten here only when the delete names them; the store
            // frees others left without placements on its own.
            match which {
                Deletion::Image {
                    image,
                    placement: None,
                } => self.forget(|id| id == image),
                Deletion::IdRange { first, last } => {
                    self.forget(|id| (first..=last).contains(&id));
                }
                _ => {}
            }
        }
        Outcome {
            ops: vec![KittyOp::Delete { which, free }],
            ..Outcome::default()
        }
    }

    fn forget(&mut self, gone: impl Fn(u32) -> bool) {
        self.images.retain(|&id, _| !gone(id));
        self.numbers.retain(|_, id| !gone(*id));
    }

    /// Every picture forgotten (a reset, the screen it was on gone).
    pub fn clear(&mut self) {
        self.pending = None;
        self.images.clear();
        self.numbers.clear();
    }

    fn own_id(&mut self) -> u32 {
        loop {
            let id = self.next_own_id;
            self.next_own_id = self.next_own_id.checked_add(1).unwrap_or(OWN_IDS);
            if !self.images.contains_key(&id) {
                return id;
            }
        }
    }

    fn answer(&self, cmd: &Command, id: u32, result: Result<(), KittyError>) -> Outcome {
        let mut out = Outcome::default();
        // A picture named only by number hears the id it was given; one
        // that was not found is answered under the number alone.
        let id = if cmd.image_id == 0 && id >= OWN_IDS && cmd.image_number == 0 {
            0
        } else {
            id
        };
        reply_for(cmd, id, &result, &mut out.reply);
        out
    }
}

/// Whether a command is the next chunk of the transmission in progress:
/// it carries nothing but `m` and `q` (and, for frames, `a`).
fn continuation(cmd: &Command) -> bool {
    cmd.keys.iter().all(|k| matches!(k, b'm' | b'q' | b'a'))
}

/// What tilework does not do, refused before any data is read.
fn refused(cmd: &Command) -> Result<(), KittyError> {
    if let Action::Animation(_) = cmd.action {
        return Err(KittyError::invalid("tilework does not do animation"));
    }
    if cmd.image_id != 0 && cmd.image_number != 0 {
        return Err(KittyError::invalid("both i and I given"));
    }
    if cmd.virtual_placement {
        return Err(KittyError::invalid(
            "tilework does not do Unicode placeholder placements (U=1)",
        ));
    }
    if cmd.parent_image != 0 || cmd.parent_placement != 0 {
        return Err(KittyError::invalid(
            "tilework does not do relative placements",
        ));
    }
    Ok(())
}

/// The `i` of control data that could not be read whole.
fn id_in(control: &[u8]) -> u32 {
    control
        .split(|&b| b == b',')
        .find_map(|pair| pair.strip_prefix(b"i="))
        .and_then(|v| std::str::from_utf8(v).ok()?.parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
#[path = "intake_tests.rs"]
mod tests;
