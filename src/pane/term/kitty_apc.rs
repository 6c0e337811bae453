//! Kitty graphics commands in a pane's output, carried out where the
//! parser reaches them: the [`EscapeScanner`](crate::pane::term::escape_scanner)
//! takes each `APC G … ST` out of the output (bounded, and leaving a short
//! reference in its place), and the fast-forward hands it here once
//! everything before it is parsed, so the cursor is where the program put
//! it. The protocol's rules are [`KittyIntake`]'s; this side keeps
//! pictures in the image store, anchors placements in the pane's cells
//! (`crate::graphics::anchor`: written straight to vt100, as sixel's are),
//! deletes by what the pane's screen shows, and puts the reply among the
//! pane's other answers.
//!
//! The reference left in the output names the placement the command made:
//! when the pane's output is replayed (a resize reflows it), the reference
//! anchors that placement again, as the same sixel data does.

use std::collections::HashSet;
use std::time::Duration;

use crossbeam_channel::{Receiver, TryRecvError};

use crate::graphics::anchor::{self, CursorAfter};
use crate::graphics::animation::FrameOp;
use crate::graphics::image::RgbaImage;
use crate::graphics::kitty::command::Command;
use crate::graphics::kitty::intake::{
    Cursor, Deletion, Handled, KittyIntake, Pictures, Placement, Seen,
};
use crate::graphics::kitty::reply::KittyError;
use crate::graphics::kitty::{frames, medium, placeholder};
use crate::graphics::picture_store::{
    self, ImageId, Origin, PictureStore, PixelRect, PlacementId, StoreError,
};
use crate::graphics::placement::{self, At, PlaceError, Request};
use crate::graphics::reach::{CellPixels, Reach};
use crate::pane::term::escape_scanner::{ApcBody, is_reference};
use crate::pane::term::fidelity::answers::Answers;
use crate::pane::term::parse_guard::{self, ParserPanicked};
use crate::pane::term::screen::ScreenView;

/// How long a file may take to read before the command is answered with
/// an error and the pane goes on (a file on a stalled network mount).
const LOAD_TIMEOUT: Duration = Duration::from_secs(2);

/// A pane's kitty graphics: the pictures its program named, and the
/// command that waits on a file read, if one does.
#[derive(Debug, Default)]
pub struct KittyState {
    pub intake: KittyIntake,
    /// Nothing after the command is parsed until its file is in.
    pub loading: Option<Loading>,
}

/// A file being read for a command, on a thread: the pane parses nothing
/// past the command until it is in (so the picture lands where the
/// program put it, and the reply comes before the answers to what
/// follows), while the loop goes on with everything else.
#[derive(Debug)]
pub struct Loading {
    command: Command,
    reference: Vec<u8>,
    data: Receiver<Result<Vec<u8>, KittyError>>,
}

/// Carries out one graphics command at the parser's cursor, with the
/// pictures in `store`, as `reach` (what the pane's program is told of
/// pictures) says. Returns the file read it waits on, if it reads one.
pub fn handle<C: vt100::Callbacks + Answers>(
    intake: &mut KittyIntake,
    store: &PictureStore,
    parser: &mut vt100::Parser<C>,
    apc: ApcBody,
    reach: Reach,
) -> Result<Option<Loading>, ParserPanicked> {
    if is_reference(&apc.body) {
        replay(store, parser, &apc.body)?;
        return Ok(None);
    }
    let seen = seen(reach);
    let cursor = cursor_of(parser);
    let mut pictures = PanePictures {
        store,
        parser,
        cell: reach.cell_pixels(),
        token: reference_key(&apc.reference),
        failed: None,
    };
    let mut loading = None;
    let reply = if apc.overflow {
        intake.refuse_oversized(&apc.body)
    } else {
        match intake.handle(&apc.body, cursor, seen, &mut pictures) {
            None => Vec::new(),
            Some(Handled::Done(reply)) => reply,
            Some(Handled::Load { command, name }) => match start_load(command.clone(), name) {
                Ok(data) => {
                    loading = Some(Loading {
                        command,
                        reference: apc.reference,
                        data,
                    });
                    Vec::new()
                }
                Err(e) => intake.loaded(command, Err(e), cursor, seen, &mut pictures),
            },
        }
    };
    if let Some(failure) = pictures.failed.take() {
        return Err(failure);
    }
    if !reply.is_empty() {
        pictures.parser.callbacks_mut().answer(&reply);
    }
    Ok(loading)
}

/// Finishes the command `loading` waits on if its file is read. Returns
/// it back while it is not.
pub fn resume<C: vt100::Callbacks + Answers>(
    intake: &mut KittyIntake,
    store: &PictureStore,
    parser: &mut vt100::Parser<C>,
    loading: Loading,
    reach: Reach,
) -> Result<Option<Loading>, ParserPanicked> {
    let data = match loading.data.try_recv() {
        Ok(data) => data,
        Err(TryRecvError::Empty) => return Ok(Some(loading)),
        Err(TryRecvError::Disconnected) => Err(KittyError::new("EBADF", "the file was not read")),
    };
    let seen = seen(reach);
    let cursor = cursor_of(parser);
    let mut pictures = PanePictures {
        store,
        parser,
        cell: reach.cell_pixels(),
        token: reference_key(&loading.reference),
        failed: None,
    };
    let reply = intake.loaded(loading.command, data, cursor, seen, &mut pictures);
    if let Some(failure) = pictures.failed.take() {
        return Err(failure);
    }
    if !reply.is_empty() {
        pictures.parser.callbacks_mut().answer(&reply);
    }
    Ok(None)
}

/// Reads a command's file on a thread of its own, given up after
/// [`LOAD_TIMEOUT`] (the reading thread then ends whenever its read does);
/// the loop is woken when the result is in.
fn start_load(
    command: Command,
    name: Vec<u8>,
) -> Result<Receiver<Result<Vec<u8>, KittyError>>, KittyError> {
    let (done, data) = crossbeam_channel::bounded(1);
    let spawn_failed =
        |e: std::io::Error| KittyError::new("EBADF", format!("no thread to read the file: {e}"));
    crate::jobs::named("kitty-file", move || {
        let (read, result) = crossbeam_channel::bounded(1);
        let reader = crate::jobs::named("kitty-file-read", move || {
            let _ = read.send(medium::read_medium(&command, &name));
        });
        let data = match reader {
            Ok(_) => result.recv_timeout(LOAD_TIMEOUT).unwrap_or_else(|_| {
                Err(KittyError::new("EBADF", "reading the file took too long"))
            }),
            Err(e) => Err(KittyError::new(
                "EBADF",
                format!("no thread to read the file: {e}"),
            )),
        };
        if done.send(data).is_ok() {
            crate::wake::wake_loop();
        }
    })
    .map_err(spawn_failed)?;
    Ok(data)
}

/// What the attached terminals told, as the intake reads it.
fn seen(reach: Reach) -> Seen {
    let cell = reach.cell_pixels();
    Seen {
        reaches_terminal: reach.pictures,
        cell_pixels: (u32::from(cell.width), u32::from(cell.height)),
    }
}

fn cursor_of<C: vt100::Callbacks>(parser: &vt100::Parser<C>) -> Cursor {
    let screen = parser.screen();
    let (row, col) = screen.cursor_position();
    let (rows, cols) = screen.size();
    Cursor {
        row,
        col,
        rows: rows.get(),
        cols: cols.get(),
    }
}

/// The store's key for a reference: its hex number.
fn reference_key(reference: &[u8]) -> Option<u64> {
    let hex = std::str::from_utf8(reference.get(2..18)?).ok()?;
    u64::from_str_radix(hex, 16).ok()
}

/// A replayed reference: the placement its command made, anchored again
/// at the cursor if the store still has it.
fn replay<C: vt100::Callbacks>(
    store: &PictureStore,
    parser: &mut vt100::Parser<C>,
    reference: &[u8],
) -> Result<(), ParserPanicked> {
    let Some(key) = reference_key(reference) else {
        return Ok(());
    };
    let Some((id, placement)) = store.lock().reuse_content(key) else {
        return Ok(());
    };
    let cursor = cursor_of(parser);
    let after = if reference.ends_with(b"s") {
        CursorAfter::Stays
    } else {
        CursorAfter::LastRowAfter
    };
    let bytes = anchor::anchor_bytes(
        id,
        placement.cols,
        placement.rows,
        cursor.col,
        cursor.cols,
        after,
    );
    parse_guard::process(parser, &bytes)
}

/// The origin of the placement that holds a kept picture (see
/// `PanePictures::keep`).
const KEEPER: Origin = Origin::Kitty {
    image: 0,
    placement: u32::MAX,
};

/// Frees those of `images` that only their keeper still holds (kitty's
/// upper-case deletes).
fn free_unplaced(store: &mut picture_store::Store, images: impl Iterator<Item = ImageId>) {
    for image in images {
        let shown = store
            .placements()
            .any(|(_, p)| p.image == image && p.origin != KEEPER);
        if !shown {
            store.delete_image(image);
        }
    }
}

/// The store and the pane's cells, as the intake uses them.
struct PanePictures<'p, C: vt100::Callbacks> {
    store: &'p PictureStore,
    parser: &'p mut vt100::Parser<C>,
    /// A cell's size in pixels, as the pane's program was told.
    cell: CellPixels,
    /// The reference's key, under which a placement made is remembered.
    token: Option<u64>,
    /// vt100 panicked on anchor bytes: the pane starts its parser over.
    failed: Option<ParserPanicked>,
}

fn store_error(e: StoreError) -> KittyError {
    match e {
        StoreError::OverBudget { .. } => KittyError::new("EFBIG", e.to_string()),
        StoreError::NoSuchImage => KittyError::new("ENOENT", e.to_string()),
    }
}

impl<C: vt100::Callbacks> Pictures for PanePictures<'_, C> {
    fn keep(&mut self, image: RgbaImage) -> Result<ImageId, KittyError> {
        let mut store = self.store.lock();
        let source = PixelRect::whole(&image);
        let id = store.add_image(image).map_err(store_error)?;
        // The store frees a picture with its last placement; kitty keeps
        // it until the program deletes it (a placement moved, or deleted
        // in lower case, is shown again without sending the data again).
        // A placement never anchored holds it: no cell shows it.
        store
            .place(picture_store::Placement {
                image: id,
                source,
                cols: 1,
                rows: 1,
                z: 0,
                origin: KEEPER,
            })
            .map_err(store_error)?;
        Ok(id)
    }

    fn size(&self, image: ImageId) -> Option<(u32, u32)> {
        self.store
            .lock()
            .image(image)
            .map(|picture| (picture.width(), picture.height()))
    }

    fn place(&mut self, placement: &Placement) -> Result<(), KittyError> {
        if placement.kitty_placement != 0 {
            // The same numbers again: the old placement moves (kitty's way
            // to move or resize one without flicker).
            let same = Origin::Kitty {
                image: placement.kitty_image,
                placement: placement.kitty_placement,
            };
            self.store
                .lock()
                .delete_placements_where(|_, p| p.image == placement.image && p.origin == same);
        }
        let cursor = cursor_of(self.parser);
        let request = Request {
            source: Some(placement.source),
            cells: Some((placement.cols, placement.rows)),
            z: placement.z,
            origin: Origin::Kitty {
                image: placement.kitty_image,
                placement: placement.kitty_placement,
            },
            cursor_after: if placement.cursor_stays {
                CursorAfter::Stays
            } else {
                CursorAfter::LastRowAfter
            },
        };
        let at = At {
            rows: cursor.rows,
            cols: cursor.cols,
            cursor_col: cursor.col,
            cell: self.cell,
        };
        let mut store = self.store.lock();
        let placed = placement::place_kept(&mut store, placement.image, request, at).map_err(
            |e| match e {
                PlaceError::Store(e) => store_error(e),
                PlaceError::LargerThanPane => KittyError::new("EFBIG", e.to_string()),
                PlaceError::BadSource => KittyError::invalid(e.to_string()),
            },
        )?;
        if let Some(token) = self.token {
            store.remember_content(token, placed.placement);
        }
        drop(store);
        if let Err(failure) = parse_guard::process(self.parser, &placed.anchor_bytes) {
            self.failed = Some(failure);
        }
        Ok(())
    }

    fn place_virtual(
        &mut self,
        placement: &Placement,
        replacing: Option<PlacementId>,
    ) -> Result<PlacementId, KittyError> {
        let origin = Origin::Kitty {
            image: placement.kitty_image,
            placement: placement.kitty_placement,
        };
        let (cols, rows) = (
            placement.cols.clamp(1, anchor::MAX_COLS),
            placement.rows.clamp(1, anchor::MAX_ROWS),
        );
        let mut store = self.store.lock();
        if let Some(old) = replacing
            && store.placement(old).is_some_and(|p| p.origin == origin)
        {
            store.delete_placement(old);
        }
        let cell = self.cell;
        let fitted = store.image(placement.image).and_then(|image| {
            placeholder::fitted(
                image,
                placement.source,
                (cols, rows),
                (u32::from(cell.width), u32::from(cell.height)),
            )
        });
        let (image, source) = match fitted {
            Some(fitted) => {
                let source = PixelRect::whole(&fitted);
                // Freed with its placement: nothing else holds it.
                (store.add_image(fitted).map_err(store_error)?, source)
            }
            None => (placement.image, placement.source),
        };
        // No anchor: the program's placeholder cells say where it shows.
        store
            .place(picture_store::Placement {
                image,
                source,
                cols,
                rows,
                z: placement.z,
                origin,
            })
            .map_err(store_error)
    }

    fn unplace(&mut self, placement: PlacementId) {
        self.store.lock().delete_placement(placement);
    }

    fn delete(&mut self, which: &Deletion, free: bool) {
        let mut store = self.store.lock();
        if let Deletion::Images { images, placement } = which {
            store.delete_placements_where(|_, p| {
                images.contains(&p.image)
                    && p.origin != KEEPER
                    && placement.is_none_or(|wanted| {
                        matches!(p.origin, Origin::Kitty { placement, .. } if placement == wanted)
                    })
            });
            if free {
                free_unplaced(&mut store, images.iter().copied());
            }
            return;
        }
        // The rest are about the pane's screen: the placements whose cells
        // it shows, by where they are.
        let screen = ScreenView::new(self.parser.screen());
        let doomed: HashSet<PlacementId> = screen
            .picture_anchors()
            .into_iter()
            .filter(|(row, col, anchor)| {
                let z = || store.placement(anchor.placement).map(|p| p.z);
                match *which {
                    Deletion::Visible => true,
                    Deletion::Cell {
                        row: r,
                        col: c,
                        z: None,
                    } => (r, c) == (*row, *col),
                    Deletion::Cell {
                        row: r,
                        col: c,
                        z: Some(wanted),
                    } => (r, c) == (*row, *col) && z() == Some(wanted),
                    Deletion::Column(c) => c == *col,
                    Deletion::Row(r) => r == *row,
                    Deletion::Z(wanted) => z() == Some(wanted),
                    Deletion::Images { .. } => false,
                }
            })
            .map(|(_, _, anchor)| anchor.placement)
            .filter(|id| {
                // Only kitty's: a delete never takes a sixel picture.
                store
                    .placement(*id)
                    .is_some_and(|p| matches!(p.origin, Origin::Kitty { .. }))
            })
            .collect();
        let images: HashSet<ImageId> = doomed
            .iter()
            .filter_map(|id| store.placement(*id).map(|p| p.image))
            .collect();
        store.delete_placements_where(|id, _| doomed.contains(&id));
        if free {
            free_unplaced(&mut store, images.into_iter());
        }
    }

    fn forget(&mut self, image: ImageId) {
        self.store.lock().delete_image(image);
    }

    fn animate(&mut self, image: ImageId, op: FrameOp) -> Result<(), KittyError> {
        self.store
            .lock()
            .animate(image, op)
            .map_err(|e| frames::error(&e))
    }

    fn delete_frame(&mut self, image: ImageId, frame: u32) -> bool {
        self.store.lock().delete_frame(image, frame)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;

    use crate::pane::term::fast_forward::FastForward;
    use crate::pane::term::screen::ScreenView;
    use crate::pane::term::terminal_queries::PaneEvents;

    fn parser(rows: u16, cols: u16) -> vt100::Parser<PaneEvents> {
        let nz = |n| std::num::NonZeroU16::new(n).unwrap();
        vt100::Parser::new_with_callbacks(nz(rows), nz(cols), 0, PaneEvents::default())
    }

    /// An RGB picture of 20 x 40 pixels (2 x 2 cells at the assumed 10 x
    /// 20), of a shade of its own.
    fn rgb(control: &str, shade: u8) -> Vec<u8> {
        let data = STANDARD.encode(vec![shade; 20 * 40 * 3]);
        format!("\x1b_Ga=T,f=24,s=20,v=40,{control};{data}\x1b\\").into_bytes()
    }

    /// (row, column) of each anchored cell, with the placement's row and
    /// column in it.
    fn anchors(p: &vt100::Parser<PaneEvents>) -> Vec<(u16, u16, u16, u16)> {
        ScreenView::new(p.screen())
            .picture_anchors()
            .iter()
            .map(|(r, c, a)| (*r, *c, a.row, a.col))
            .collect()
    }

    #[test]
    fn a_picture_is_anchored_at_the_cursor_answered_and_kept_out_of_the_history() {
        let mut p = parser(6, 10);
        let mut ff = FastForward::default();
        let mut ring = Vec::new();
        for piece in [&b"ab\r\n "[..], &rgb("i=101", 1), b"x"] {
            ring.extend_from_slice(ff.accept(piece));
            ff.parse_accepted(&mut p).unwrap();
        }
        ff.settle(&mut p).unwrap();
        assert_eq!(
            anchors(&p),
            [(1, 1, 0, 0), (1, 2, 0, 1), (2, 1, 1, 0), (2, 2, 1, 1)]
        );
        // kitty's cursor: after the picture, on its last row.
        assert_eq!(p.screen().cursor_position(), (2, 4));
        assert_eq!(p.callbacks().replies, b"\x1b_Gi=101;OK\x1b\\");
        assert!(
            ring.len() < 40,
            "the ring keeps a reference, not the pixels"
        );

        // The output replayed (a resize reflows the ring) with the pane's
        // store anchors the same placement again.
        let mut again = parser(6, 10);
        let pictures = ff.fidelity().pictures().clone();
        let mut ff = FastForward::default();
        ff.fidelity_mut().set_pictures(pictures);
        ff.push(&mut again, &ring).unwrap();
        ff.settle(&mut again).unwrap();
        assert_eq!(anchors(&again), anchors(&p));
        assert!(again.callbacks().replies.is_empty());
    }

    #[test]
    fn a_virtual_placement_is_fitted_in_its_cells_moves_no_cursor_and_goes_by_its_id() {
        let mut p = parser(6, 10);
        let mut ff = FastForward::default();
        // 20 x 40 pixels in 4 x 2 cells (40 x 40): centred, margins left
        // and right.
        for piece in [&b"ab"[..], &rgb("i=131,U=1,c=4,r=2,q=2", 3)] {
            ff.accept(piece);
            ff.parse_accepted(&mut p).unwrap();
        }
        ff.settle(&mut p).unwrap();
        assert_eq!(p.screen().cursor_position(), (0, 2));
        assert!(anchors(&p).is_empty(), "anchored in no cell");
        let id = ff.kitty.intake.virtual_placements().find(131, 0).unwrap();
        let fitted = {
            let store = ff.fidelity().pictures().lock();
            let placement = store.placement(id).unwrap().clone();
            let image = store.image(placement.image).unwrap();
            assert_eq!((placement.cols, placement.rows), (4, 2));
            assert_eq!((image.width(), image.height()), (40, 40));
            let alpha = |x: usize| image.pixels()[x * 4 + 3];
            assert_eq!(
                (alpha(9), alpha(10), alpha(29), alpha(30)),
                (0, 255, 255, 0)
            );
            placement.image
        };
        ff.accept(b"\x1b_Ga=d,d=i,i=131,q=2\x1b\\");
        ff.parse_accepted(&mut p).unwrap();
        ff.settle(&mut p).unwrap();
        let store = ff.fidelity().pictures().lock();
        assert!(store.placement(id).is_none());
        assert!(store.image(fitted).is_none(), "the fitted copy is freed");
    }

    #[test]
    fn a_picture_placed_again_under_its_numbers_moves_and_deletes_take_it() {
        let mut p = parser(8, 20);
        let mut ff = FastForward::default();
        ff.push(&mut p, &rgb("i=102,p=1,C=1,q=2", 2)).unwrap();
        ff.push(&mut p, b"\x1b[5;11H\x1b_Ga=p,i=102,p=1,C=1\x1b\\")
            .unwrap();
        ff.settle(&mut p).unwrap();
        let found = ScreenView::new(p.screen()).picture_anchors();
        let ids: std::collections::HashSet<_> = found.iter().map(|a| a.2.placement).collect();
        assert_eq!(ids.len(), 2, "the old cells keep a stale anchor");
        let live: Vec<_> = ids
            .iter()
            .filter(|id| ff.fidelity().pictures().lock().placement(**id).is_some())
            .collect();
        assert_eq!(live.len(), 1, "one placement: it moved");
        assert_eq!(p.callbacks().replies, b"\x1b_Gi=102,p=1;OK\x1b\\");
        // A delete at a cell the picture covers (1-based) takes it.
        ff.push(&mut p, b"\x1b_Ga=d,d=p,x=12,y=6\x1b\\").unwrap();
        ff.settle(&mut p).unwrap();
        assert!(
            ff.fidelity()
                .pictures()
                .lock()
                .placement(*live[0])
                .is_none()
        );
    }

    #[test]
    fn queries_say_no_while_no_terminal_shows_pictures() {
        let mut p = parser(4, 10);
        let mut ff = FastForward::default();
        ff.push(&mut p, b"\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\\x1b[c")
            .unwrap();
        let replies = String::from_utf8(p.callbacks().replies.clone()).unwrap();
        // Answered before the DA1 that follows it, as programs expect.
        assert!(
            replies.starts_with("\x1b_Gi=31;ENOTSUP:") && replies.ends_with("\x1b[?1;2c"),
            "{replies:?}"
        );
    }

    /// Parses on until no file read holds the pane (each is given up
    /// after `LOAD_TIMEOUT` at the latest).
    fn wait_for_loads(ff: &mut FastForward, p: &mut vt100::Parser<PaneEvents>) {
        let give_up = std::time::Instant::now() + super::LOAD_TIMEOUT * 5;
        while ff.loading() {
            assert!(
                std::time::Instant::now() < give_up,
                "a file read never ended"
            );
            std::thread::yield_now();
            ff.parse_accepted(p).unwrap();
        }
    }

    #[test]
    fn a_file_picture_lands_where_the_command_was_and_what_follows_waits_for_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tty-graphics-protocol-picture.rgb");
        std::fs::write(&path, vec![3; 20 * 40 * 3]).unwrap();
        let name = STANDARD.encode(path.to_str().unwrap());
        let mut p = parser(6, 10);
        let mut ff = FastForward::default();
        let cmd = format!("\x1b_Ga=T,t=t,f=24,s=20,v=40,i=103;{name}\x1b\\\r\n\n\nafter\x1b[c");
        ff.push(&mut p, cmd.as_bytes()).unwrap();
        wait_for_loads(&mut ff, &mut p);
        ff.settle(&mut p).unwrap();
        assert_eq!(anchors(&p)[0], (0, 0, 0, 0), "at the cursor of the command");
        let replies = String::from_utf8(p.callbacks().replies.clone()).unwrap();
        assert_eq!(replies, "\x1b_Gi=103;OK\x1b\\\x1b[?1;2c", "in order");
        assert!(!path.exists(), "a temporary file is deleted once read");
    }

    #[test]
    fn a_fifo_or_a_device_is_refused_and_the_pane_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let mut p = parser(4, 10);
        let mut ff = FastForward::default();
        for (id, path) in [(1, fifo.to_str().unwrap()), (2, "/dev/zero")] {
            let name = STANDARD.encode(path);
            let cmd = format!("\x1b_Ga=T,t=f,f=100,i={id};{name}\x1b\\o");
            ff.push(&mut p, cmd.as_bytes()).unwrap();
        }
        ff.push(&mut p, b"k").unwrap();
        wait_for_loads(&mut ff, &mut p);
        ff.settle(&mut p).unwrap();
        let replies = String::from_utf8(p.callbacks().replies.clone()).unwrap();
        assert!(replies.contains("i=1;EBADF:"), "{replies:?}");
        assert!(replies.contains("i=2;EPERM:"), "{replies:?}");
        assert_eq!(ScreenView::new(p.screen()).contents(), "ook");
        assert!(fifo.exists());
    }
}
