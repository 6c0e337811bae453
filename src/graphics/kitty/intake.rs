//! One pane's side of the kitty graphics protocol: the pictures it named
//! (`i`, `I`), a chunked transmission in progress, and what each command
//! does, carried out on [`Pictures`] (the image store and the pane's
//! cells, which the pane gives), with the reply for the program. The
//! protocol's rules live here; the pane's side only keeps, places and
//! deletes.
//!
//! Virtual placements (`U=1`) are kept in the store like any placement but
//! anchored in no cell: the pane's Unicode placeholder cells show them
//! (see [`super::placeholder`]). Animation frames (`a=f`, composed with
//! `a=c`, played as `a=a` says) are kept with their picture
//! ([`super::frames`]). Not done, answered with an error: placements
//! relative to another (`P`, `Q`). `X` and `Y` (an offset inside the
//! first cell) are read and not applied. Data by file, temporary file or
//! shared memory is not read here (that may wait on the file system, and
//! this runs on the render loop): such a command comes back as
//! [`Handled::Load`], for the caller to read with [`super::medium`] off
//! the loop and hand back to [`KittyIntake::loaded`].

use std::collections::HashMap;

use super::command::{Action, Command, Medium, split_body};
use super::decode::decode;
use super::frames;
use super::placeholder::VirtualPlacements;
use super::reply::{KittyError, reply_for};
use super::transfer::{Transfer, decode_whole};
use crate::graphics::animation::FrameOp;
use crate::graphics::image::RgbaImage;
use crate::graphics::picture_store::{ImageId, PixelRect, PlacementId};

/// The pane's screen where a command arrives, 0-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    pub row: u16,
    pub col: u16,
    pub rows: u16,
    pub cols: u16,
}

/// A picture to show at the cursor's cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    pub image: ImageId,
    /// The program's numbers for it (`i`, `p`; 0: none given).
    pub kitty_image: u32,
    pub kitty_placement: u32,
    /// The part of the picture shown, inside it.
    pub source: PixelRect,
    /// The cells it covers.
    pub cols: u16,
    pub rows: u16,
    pub z: i32,
    /// `C=1`: the cursor stays; otherwise it goes past the picture, on
    /// its last row (kitty's rule).
    pub cursor_stays: bool,
}

/// Which placements a delete takes (`d`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Deletion {
    /// Every placement on the pane's screen.
    Visible,
    /// The placements of these pictures, or of one of them the one the
    /// program numbered so (`p`).
    Images {
        images: Vec<ImageId>,
        placement: Option<u32>,
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

/// What the intake needs of the image store and the pane.
pub trait Pictures {
    /// Keeps a picture.
    fn keep(&mut self, image: RgbaImage) -> Result<ImageId, KittyError>;
    /// A kept picture's size; `None` once it is gone (deleted, or dropped
    /// for the memory budget).
    fn size(&self, image: ImageId) -> Option<(u32, u32)>;
    /// Shows a picture at the cursor; one with the same program numbers
    /// (`i` and a `p` other than 0) is replaced.
    fn place(&mut self, placement: &Placement) -> Result<(), KittyError>;
    /// Keeps a virtual placement (`U=1`): in no cell, shown where the
    /// pane's placeholder cells name it; `replacing` (the one made before
    /// under the same numbers) goes.
    fn place_virtual(
        &mut self,
        placement: &Placement,
        replacing: Option<PlacementId>,
    ) -> Result<PlacementId, KittyError>;
    /// Deletes a virtual placement.
    fn unplace(&mut self, placement: PlacementId);
    /// Takes placements away; `free`: their pictures too, when nothing else
    /// shows them.
    fn delete(&mut self, which: &Deletion, free: bool);
    /// Forgets a picture and its placements.
    fn forget(&mut self, image: ImageId);
    /// Adds or changes a picture's frames, or how they play.
    fn animate(&mut self, image: ImageId, op: FrameOp) -> Result<(), KittyError>;
    /// Deletes frame `frame` (1-based) of a picture's animation; `false`
    /// when it has only one frame (then nothing is deleted).
    fn delete_frame(&mut self, image: ImageId, frame: u32) -> bool;
}

/// A command [`KittyIntake::handle`] read.
#[derive(Debug)]
pub enum Handled {
    /// Carried out; the bytes are the reply for the program (often none),
    /// in order with its other answers.
    Done(Vec<u8>),
    /// Data to read from a file: read `name` with
    /// [`super::medium::read_medium`] off the loop, then give the result
    /// to [`KittyIntake::loaded`].
    Load { command: Command, name: Vec<u8> },
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
#[derive(Debug, Default)]
pub struct KittyIntake {
    pending: Option<Pending>,
    /// The pane's pictures by the program's id, or by one of tilework's
    /// for those it did not name.
    images: HashMap<u32, ImageId>,
    /// The newest picture given each number (`I`).
    numbers: HashMap<u32, u32>,
    /// The next id for a picture the program did not give one (0: the
    /// first, [`OWN_IDS`]).
    next_own_id: u32,
    /// The virtual placements (`U=1`) by the program's numbers.
    virtuals: VirtualPlacements,
}

/// A pane's names for its pictures, carried to a newer tilework (an
/// upgrade carries the picture store under the same ids): a picture sent
/// before can be placed or deleted by its name after.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct KittyNames {
    /// The program's id (or tilework's own) and the store's.
    pub images: Vec<(u32, u32)>,
    /// Each number (`I`) and the id of the newest picture given it.
    pub numbers: Vec<(u32, u32)>,
    pub next_own_id: u32,
    /// The virtual placements (`U=1`): the picture's name, the placement's
    /// number and the store's placement (carried under the same id).
    #[serde(default)]
    pub virtuals: Vec<(u32, u32, u32)>,
}

/// What the intake is told of the users' terminals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seen {
    /// Some attached terminal shows pictures: what `a=q` is answered by.
    pub reaches_terminal: bool,
    /// A cell's size in pixels: how many cells a picture covers when the
    /// program does not say.
    pub cell_pixels: (u32, u32),
}

/// Ids tilework gives pictures start here, well above the small ones
/// programs pick.
const OWN_IDS: u32 = 1 << 31;

/// At most this many pictures named per pane.
const MAX_NAMED: usize = 4096;

impl KittyIntake {
    /// Reads one APC body (everything between `ESC _` and `ESC \`); `None`
    /// when it is not a graphics command.
    pub fn handle(
        &mut self,
        body: &[u8],
        cursor: Cursor,
        seen: Seen,
        pictures: &mut dyn Pictures,
    ) -> Option<Handled> {
        let (control, payload) = split_body(body)?;
        let cmd = match Command::parse(control) {
            Ok(cmd) => cmd,
            Err(e) => {
                // Answered under the `i` it gave, if that much can be read.
                self.pending = None;
                let named = Command {
                    image_id: id_in(control),
                    ..Command::default()
                };
                let mut out = Vec::new();
                reply_for(
                    &named,
                    named.image_id,
                    &Err(KittyError::invalid(e.0)),
                    &mut out,
                );
                return Some(Handled::Done(out));
            }
        };
        let mut ctx = Ctx {
            cursor,
            seen,
            pictures,
        };
        Some(self.command(cmd, payload, &mut ctx))
    }

    fn command(&mut self, cmd: Command, payload: &[u8], ctx: &mut Ctx<'_>) -> Handled {
        // Anything but a continuation ends a transmission in progress (a
        // delete must, the spec says); it is dropped unanswered.
        if let Some(pending) = self.pending.take()
            && cmd.action != Action::Delete
            && continuation(&cmd)
        {
            return self.next_chunk(pending, &cmd, payload, ctx);
        }
        if let Err(e) = refused(&cmd) {
            if cmd.more {
                self.pending = Some(Pending::Refused(cmd, e));
                return Handled::Done(Vec::new());
            }
            return Handled::Done(answer(&cmd, cmd.image_id, Err(e)));
        }
        match cmd.action {
            Action::Place => Handled::Done(self.place_stored(&cmd, ctx)),
            Action::Delete => Handled::Done(self.delete(&cmd, ctx)),
            Action::Animation(b'a' | b'c') => Handled::Done(self.animate(&cmd, None, ctx.pictures)),
            Action::Transmit | Action::TransmitAndPlace | Action::Query | Action::Animation(_) => {
                if cmd.more {
                    let mut transfer = Transfer::new(cmd);
                    self.pending = Some(match transfer.push(payload) {
                        Ok(()) => Pending::Gathering(transfer),
                        Err(e) => Pending::Refused(transfer.command, e),
                    });
                    return Handled::Done(Vec::new());
                }
                match decode_whole(cmd.clone(), payload) {
                    Ok((cmd, data)) => self.data_complete(cmd, data, ctx),
                    Err(e) => Handled::Done(answer(&cmd, cmd.image_id, Err(e))),
                }
            }
        }
    }

    fn next_chunk(
        &mut self,
        pending: Pending,
        chunk: &Command,
        payload: &[u8],
        ctx: &mut Ctx<'_>,
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
                        return Handled::Done(Vec::new());
                    }
                    return Handled::Done(answer(&cmd, cmd.image_id, Err(e)));
                }
                if chunk.more {
                    self.pending = Some(Pending::Gathering(transfer));
                    return Handled::Done(Vec::new());
                }
                let first = transfer.command.clone();
                match transfer.finish() {
                    Ok((cmd, data)) => self.data_complete(cmd, data, ctx),
                    Err(e) => Handled::Done(answer(&first, first.image_id, Err(e))),
                }
            }
            Pending::Refused(mut cmd, e) => {
                if chunk.has(b'q') {
                    cmd.quiet = chunk.quiet;
                }
                if chunk.more {
                    self.pending = Some(Pending::Refused(cmd, e));
                    return Handled::Done(Vec::new());
                }
                Handled::Done(answer(&cmd, cmd.image_id, Err(e)))
            }
        }
    }

    /// All of a transmission's payload is in: direct data is decoded now;
    /// a file's name goes back to the caller to read.
    fn data_complete(&mut self, cmd: Command, data: Vec<u8>, ctx: &mut Ctx<'_>) -> Handled {
        if cmd.medium != Medium::Direct {
            return Handled::Load {
                command: cmd,
                name: data,
            };
        }
        Handled::Done(self.loaded(cmd, Ok(data), ctx.cursor, ctx.seen, ctx.pictures))
    }

    /// Carries out a transmission whose data is in (or could not be read).
    /// Returns the reply.
    pub fn loaded(
        &mut self,
        cmd: Command,
        data: Result<Vec<u8>, KittyError>,
        cursor: Cursor,
        seen: Seen,
        pictures: &mut dyn Pictures,
    ) -> Vec<u8> {
        let image = match data.and_then(|data| decode(&cmd, data)) {
            Ok(image) => image,
            Err(e) => return answer(&cmd, cmd.image_id, Err(e)),
        };
        if cmd.action == Action::Animation(b'f') {
            return self.animate(&cmd, Some(image), pictures);
        }
        if cmd.action == Action::Query {
            // Loaded, kept nowhere; OK only if it could be seen.
            let result = if seen.reaches_terminal {
                Ok(())
            } else {
                Err(KittyError::new(
                    "ENOTSUP",
                    "no terminal attached to tilework shows pictures",
                ))
            };
            return answer(&cmd, cmd.image_id, result);
        }
        let key = match cmd.image_id {
            0 => self.own_id(),
            id => id,
        };
        // Sent again under its id: the old picture and its placements go.
        if let Some(old) = self.images.remove(&key) {
            pictures.forget(old);
            for gone in self.virtuals.take_where(|image, _| image == key) {
                pictures.unplace(gone);
            }
        }
        if self.images.len() >= MAX_NAMED {
            self.drop_gone(pictures);
            if self.images.len() >= MAX_NAMED {
                return answer(
                    &cmd,
                    key,
                    Err(KittyError::new("ENOSPC", "too many pictures")),
                );
            }
        }
        let image = match pictures.keep(image) {
            Ok(image) => image,
            Err(e) => return answer(&cmd, key, Err(e)),
        };
        self.images.insert(key, image);
        if cmd.image_number != 0 {
            self.numbers.insert(cmd.image_number, key);
        }
        let mut ctx = Ctx {
            cursor,
            seen,
            pictures,
        };
        let result = if cmd.action == Action::TransmitAndPlace {
            self.place(&cmd, key, &mut ctx)
        } else {
            Ok(())
        };
        answer(&cmd, key, result)
    }

    /// `a=p`: a picture stored before, placed at the cursor.
    fn place_stored(&mut self, cmd: &Command, ctx: &mut Ctx<'_>) -> Vec<u8> {
        let key = match (cmd.image_id, cmd.image_number) {
            (0, 0) => return Vec::new(),
            (0, number) => self.numbers.get(&number).copied().unwrap_or(0),
            (id, _) => id,
        };
        let result = self.place(cmd, key, ctx);
        answer(cmd, key, result)
    }

    /// Places the pane's picture `key` as `cmd` says.
    fn place(&mut self, cmd: &Command, key: u32, ctx: &mut Ctx<'_>) -> Result<(), KittyError> {
        let no_such = || KittyError::new("ENOENT", "no such image");
        let image = *self.images.get(&key).ok_or_else(no_such)?;
        let Some((width, height)) = ctx.pictures.size(image) else {
            self.images.remove(&key);
            return Err(no_such());
        };
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
        let (cols, rows) = cells(cmd, source, ctx.seen.cell_pixels);
        let mut placement = Placement {
            image,
            kitty_image: cmd.image_id,
            kitty_placement: if cmd.image_id == 0 {
                0
            } else {
                cmd.placement_id
            },
            source,
            cols,
            rows,
            z: cmd.z,
            cursor_stays: cmd.cursor_stays,
        };
        if cmd.virtual_placement {
            // Named by the numbers the placeholder cells give: the
            // picture's key (its `i`, or the id it was told) and `p`.
            placement.kitty_image = key;
            placement.kitty_placement = cmd.placement_id;
            let old = self.virtuals.get(key, cmd.placement_id);
            let id = ctx.pictures.place_virtual(&placement, old)?;
            if !self.virtuals.insert(key, cmd.placement_id, id) {
                return Err(KittyError::new("ENOSPC", "too many virtual placements"));
            }
            return Ok(());
        }
        ctx.pictures.place(&placement)
    }

    /// The pane's virtual placements, which its placeholder cells show.
    pub fn virtual_placements(&self) -> &VirtualPlacements {
        &self.virtuals
    }

    /// `a=f` (with its data), `a=a`, `a=c`: a picture's frames. Returns
    /// the reply.
    fn animate(
        &mut self,
        cmd: &Command,
        data: Option<RgbaImage>,
        pictures: &mut dyn Pictures,
    ) -> Vec<u8> {
        let key = match (cmd.image_id, cmd.image_number) {
            (0, 0) => {
                let e = KittyError::invalid("no image named (i or I)");
                return answer(cmd, 0, Err(e));
            }
            (0, number) => self.numbers.get(&number).copied().unwrap_or(0),
            (id, _) => id,
        };
        let op = match data {
            Some(data) => Some(frames::frame(cmd, data)),
            None => frames::control_or_compose(cmd),
        };
        let result = match (self.images.get(&key), op) {
            (None, _) => Err(KittyError::new("ENOENT", "no such image")),
            (Some(_), None) => Ok(()),
            (Some(image), Some(op)) => pictures.animate(*image, op),
        };
        answer(cmd, key, result)
    }

    /// `a=d`: which placements go.
    fn delete(&mut self, cmd: &Command, ctx: &mut Ctx<'_>) -> Vec<u8> {
        let free = cmd.delete.free;
        let cursor = ctx.cursor;
        // Cells in deletes are 1-based, like cursor positions.
        let cell = |n: u32| u16::try_from(n.saturating_sub(1)).unwrap_or(u16::MAX);
        let placement = (cmd.placement_id != 0).then_some(cmd.placement_id);
        let named = |keys: Vec<u32>| Deletion::Images {
            images: keys
                .iter()
                .filter_map(|k| self.images.get(k).copied())
                .collect(),
            placement,
        };
        let which = match cmd.delete.what {
            b'a' => Deletion::Visible,
            b'i' => named(vec![cmd.image_id]),
            b'n' => named(
                self.numbers
                    .get(&cmd.image_number)
                    .copied()
                    .into_iter()
                    .collect(),
            ),
            b'r' => named(
                self.images
                    .keys()
                    .copied()
                    .filter(|id| (cmd.x..=cmd.y).contains(id))
                    .collect(),
            ),
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
            b'f' => {
                let key = match (cmd.image_id, cmd.image_number) {
                    (0, number) => self.numbers.get(&number).copied().unwrap_or(0),
                    (id, _) => id,
                };
                let Some(image) = self.images.get(&key).copied() else {
                    return Vec::new();
                };
                // `r`: the frame; `d=F` on a picture's only frame deletes
                // the picture, as `d=I` would (kitty's rule).
                if ctx.pictures.delete_frame(image, cmd.rows) || !free {
                    return Vec::new();
                }
                named(vec![key])
            }
            _ => return Vec::new(),
        };
        ctx.pictures.delete(&which, free);
        if let Deletion::Images { images, .. } = &which {
            // Virtual placements go only by their picture's name (kitty's
            // rule), and are deleted by theirs: their picture may be a
            // fitted copy.
            let keys: Vec<u32> = self
                .images
                .iter()
                .filter(|(_, image)| images.contains(image))
                .map(|(key, _)| *key)
                .collect();
            let doomed = |image, p| keys.contains(&image) && placement.is_none_or(|w| w == p);
            for gone in self.virtuals.take_where(doomed) {
                ctx.pictures.unplace(gone);
            }
        }
        if free {
            self.drop_gone(ctx.pictures);
        }
        Vec::new()
    }

    /// Forgets the names of pictures the store no longer has.
    fn drop_gone(&mut self, pictures: &mut dyn Pictures) {
        self.images
            .retain(|_, image| pictures.size(*image).is_some());
        let images = &self.images;
        self.numbers.retain(|_, key| images.contains_key(key));
        for gone in self
            .virtuals
            .take_where(|key, _| !images.contains_key(&key))
        {
            pictures.unplace(gone);
        }
    }

    /// The answer to a command longer than the pane's intake keeps (its
    /// control data comes first, so its `i` is still known). A
    /// transmission in progress ends with it.
    pub fn refuse_oversized(&mut self, body: &[u8]) -> Vec<u8> {
        self.pending = None;
        let control = split_body(body).map_or(&[][..], |(control, _)| control);
        let Ok(cmd) = Command::parse(control) else {
            return Vec::new();
        };
        let e = KittyError::new(
            "EFBIG",
            "the command is longer than tilework takes; send it in chunks",
        );
        answer(&cmd, cmd.image_id, Err(e))
    }

    /// The pictures' names, to carry (see [`KittyNames`]); `None` when the
    /// program named none.
    pub fn names(&self) -> Option<KittyNames> {
        if self.images.is_empty() && self.numbers.is_empty() && self.virtuals.is_empty() {
            return None;
        }
        let mut names = KittyNames {
            images: self
                .images
                .iter()
                .map(|(&id, image)| (id, image.0))
                .collect(),
            numbers: self.numbers.iter().map(|(&n, &id)| (n, id)).collect(),
            next_own_id: self.next_own_id,
            virtuals: self.virtuals.listed(),
        };
        names.images.sort_unstable();
        names.numbers.sort_unstable();
        Some(names)
    }

    /// Takes the names an older tilework carried (at most as many as a
    /// pane keeps).
    pub fn adopt_names(&mut self, names: KittyNames) {
        let images = names.images.into_iter().take(MAX_NAMED);
        self.images = images.map(|(id, image)| (id, ImageId(image))).collect();
        self.numbers = names.numbers.into_iter().take(MAX_NAMED).collect();
        self.next_own_id = names.next_own_id;
        self.virtuals = VirtualPlacements::default();
        for (image, placement, id) in names.virtuals {
            self.virtuals.insert(image, placement, PlacementId(id));
        }
    }

    /// Every picture's name forgotten (the pane's parser started over).
    pub fn clear(&mut self) {
        *self = KittyIntake::default();
    }

    fn own_id(&mut self) -> u32 {
        loop {
            let id = self.next_own_id.max(OWN_IDS);
            self.next_own_id = id.checked_add(1).unwrap_or(OWN_IDS);
            if !self.images.contains_key(&id) {
                return id;
            }
        }
    }
}

/// What one command is carried out with.
struct Ctx<'a> {
    cursor: Cursor,
    seen: Seen,
    pictures: &'a mut dyn Pictures,
}

/// The cells a placement covers: `c` and `r`, or the picture's size in
/// cells; one of them given, the other keeps the picture's proportions.
fn cells(cmd: &Command, source: PixelRect, (cell_w, cell_h): (u32, u32)) -> (u16, u16) {
    let (cell_w, cell_h) = (u64::from(cell_w.max(1)), u64::from(cell_h.max(1)));
    let (w, h) = (u64::from(source.width), u64::from(source.height));
    let (cols, rows) = match (u64::from(cmd.cols), u64::from(cmd.rows)) {
        (0, 0) => (
            (w + u64::from(cmd.cell_x)).div_ceil(cell_w),
            (h + u64::from(cmd.cell_y)).div_ceil(cell_h),
        ),
        (0, r) => ((r * cell_h * w).div_ceil(h * cell_w), r),
        (c, 0) => (c, (c * cell_w * h).div_ceil(w * cell_h)),
        (c, r) => (c, r),
    };
    let cells = |n: u64| u16::try_from(n.max(1)).unwrap_or(u16::MAX);
    (cells(cols), cells(rows))
}

/// The reply to `cmd` for the pane's picture `key`: a picture named only
/// by number hears the id tilework gave it.
fn answer(cmd: &Command, key: u32, result: Result<(), KittyError>) -> Vec<u8> {
    let mut out = Vec::new();
    let id = if cmd.image_id == 0 && cmd.image_number == 0 {
        0
    } else {
        key
    };
    if let Err(e) = &result {
        // Said in the log too: a program told `q=2` hears nothing, and
        // the user only sees no picture.
        tracing::info!("kitty graphics: command refused (image {key}): {e}");
    }
    reply_for(cmd, id, &result, &mut out);
    out
}

/// Whether a command is the next chunk of the transmission in progress:
/// it carries nothing but `m` and `q` (and, for frames, `a`).
fn continuation(cmd: &Command) -> bool {
    cmd.keys.iter().all(|k| matches!(k, b'm' | b'q' | b'a'))
}

/// What tilework does not do, refused before any data is read.
fn refused(cmd: &Command) -> Result<(), KittyError> {
    if cmd.image_id != 0 && cmd.image_number != 0 {
        return Err(KittyError::invalid("both i and I given"));
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
