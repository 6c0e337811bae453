//! Pictures in panes: what programs draw with sixel and the kitty graphics
//! protocol, kept beside the pane's text and drawn to each user's terminal
//! in the protocol it speaks.
//!
//! - [`image`]: a decoded picture, the one form every protocol becomes.
//! - [`kitty`]: the kitty graphics protocol: commands read, pictures
//!   decoded, replies, and the encoder for terminals that speak it.
//! - [`picture_store`]: the workspace's pictures and placements, under the
//!   `image_memory` budget (one store per workspace, held by its pane
//!   table and handed to each pane: [`picture_store::PictureStore`]).
//! - [`anchor`]: where a placement is: an anchor in each cell it covers
//!   (placement, row, column), which the parser moves with the text.
//! - [`animation`]: a picture's frames (kitty's `a=f`, `a=a`, `a=c`),
//!   kept beside it in the store; drawing shows the current one.
//! - [`placement`]: placing a picture at a pane's cursor (checks, store,
//!   anchor bytes): every protocol's intake ends here.
//! - [`reach`]: what the attached terminals speak, their cell size, and so
//!   what programs are told.
//! - [`sixel`]: sixel decoding (a pane's `DCS q`) and encoding (drawing).
//!
//! This room imports nothing of `pane`, `render` or `client`: they use it.
//! The pane's intake is `pane::term::fidelity::sixel_images` (sixel); each client's
//! drawing is `render::pictures`.
//!
//! # The API the kitty graphics intake uses
//!
//! From the fidelity layer, at a parsed `APC G` (the follower stops there
//! like at any sequence it acts on; the parser gets CAN, then the anchor bytes):
//! - keep a picture: `store.lock().add_image(RgbaImage) -> Result<ImageId>`
//!   (`store`: the pane's [`picture_store::PictureStore`]; the budget may drop the oldest placements to make room; a picture
//!   over the whole budget is refused). Keep the program's `i=`/`I=` to
//!   [`picture_store::ImageId`] map on the kitty side.
//! - place it at the cursor: [`placement::place_kept`]`(&mut store, id, Request { source,
//!   cells: Some((c, r)) or None, z, origin: Origin::Kitty { image: i,
//!   placement: p }, cursor_after: CursorAfter::LastRowAfter or Stays (C=1)
//!   }, At { rows, cols, cursor_col })` gives the [`picture_store::PlacementId`] and
//!   the bytes to hand the parser (after a CAN) so the pane's cells carry it.
//!   [`placement::place_new`] keeps and places at once (`a=T`).
//! - delete: `store.lock()`: `delete_image(id)`,
//!   `delete_placement(pid)`, `delete_placements_where(|pid, p| ...)` (by
//!   `p.origin`'s kitty numbers, `p.z`, ...). "Visible" and "at a cell"
//!   need the pane's screen: `ScreenView::picture_anchors()` lists the
//!   anchors on it (row, column, [`anchor::Anchor`]: which placement, and
//!   which of its cells).
//! - what to answer (`a=q`): [`reach::Reach`]'s `pictures` (true only
//!   when an attached terminal shows pictures), the pane's own copy (its
//!   `AttachedFacts`, which the loop sets). The cell size in pixels (for
//!   `c=` and `r=` left out): [`reach::Reach::cell_pixels`].
//! - what each client speaks: `client.facts.pictures` ([`reach::Speaks`]:
//!   `sixel`, `kitty`).
//!
//! The drawer (`render::pictures`) draws each visible placement to each
//! client: sixel re-encoded from the picture ([`sixel::encode`]); to a
//! kitty terminal through the kitty helper's encoder, expected as
//! `graphics::kitty::encode::{transmit(id: u32, image: &RgbaImage, out:
//! &mut Vec<u8>), place(id: u32, placement: u32, source: PixelRect, cols:
//! u16, rows: u16, z: i32, out: &mut Vec<u8>), delete(id: u32, out: &mut
//! Vec<u8>)}` with the cursor already at the placement's top left cell.

pub mod anchor;
pub mod animation;
pub mod image;
pub mod kitty;
pub mod picture_store;
pub mod placement;
pub mod reach;
pub mod sixel;
