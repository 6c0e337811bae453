//! Drawing to a user's terminal that speaks kitty graphics: the bytes that
//! send a picture once under an id, place it at the cursor's cell with a
//! source rectangle and a size in cells, and take placements away. Pure
//! functions appending to a frame's buffer; the drawer decides when.
//!
//! Every command carries `q=2`: the user's terminal answers nothing, so no
//! reply can reach tilework's input as if typed.

use std::fmt::Write as _;
use std::io::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use crate::graphics::image::RgbaImage;
use crate::graphics::picture_store::PixelRect;

/// Base64 bytes per escape sequence (the spec's limit).
pub const CHUNK: usize = 4096;

/// Sends `image` to the terminal under `id` (not shown yet): RGBA
/// (`f=32`), zlib-compressed (`o=z`), in chunks of [`CHUNK`] base64 bytes.
/// Sending again under the same id replaces the picture and its
/// placements.
pub fn transmit(id: u32, image: &RgbaImage, out: &mut Vec<u8>) {
    let keys = format!(
        "a=t,q=2,f=32,o=z,i={id},s={},v={}",
        image.width(),
        image.height()
    );
    chunked(&keys, "q=2", image, out);
}

/// Sends a frame of picture `id` (sent before): a new one after the
/// frames sent so far, or with `edit` frame `edit` (1-based) replaced
/// whole. `gap`: milliseconds before the next frame (0: left unset).
pub fn frame(id: u32, image: &RgbaImage, edit: Option<u32>, gap: i32, out: &mut Vec<u8>) {
    let mut keys = format!(
        "a=f,q=2,f=32,o=z,i={id},s={},v={},X=1",
        image.width(),
        image.height()
    );
    if let Some(edit) = edit {
        let _ = write!(keys, ",r={edit}");
    }
    if gap != 0 {
        let _ = write!(keys, ",z={gap}");
    }
    // Every chunk of a frame says `a=f`.
    chunked(&keys, "a=f,q=2", image, out);
}

/// Sets the gap after frame `frame` (1-based) of picture `id`.
pub fn gap(id: u32, frame: u32, gap: i32, out: &mut Vec<u8>) {
    let _ = write!(out, "\x1b_Ga=a,q=2,i={id},r={frame},z={gap}\x1b\\");
}

/// How picture `id`'s frames play: `playing` (kitty's `s`), the current
/// frame (1-based), and `loops` (kitty's `v`; 0: left unset).
pub fn control(id: u32, playing: u32, current: u32, loops: u32, out: &mut Vec<u8>) {
    let _ = write!(out, "\x1b_Ga=a,q=2,i={id},s={playing},c={current}");
    if loops != 0 {
        let _ = write!(out, ",v={loops}");
    }
    out.extend_from_slice(b"\x1b\\");
}

/// `image`'s pixels zlib-compressed, in base64 chunks of [`CHUNK`] bytes:
/// the first after `keys`, the rest after `continued`.
fn chunked(keys: &str, continued: &str, image: &RgbaImage, out: &mut Vec<u8>) {
    let compressed = compress(image.pixels());
    let text = STANDARD.encode(compressed);
    let mut chunks = text.as_bytes().chunks(CHUNK).peekable();
    let mut first = true;
    // An image has pixels, so there is at least one chunk.
    while let Some(chunk) = chunks.next() {
        let more = u8::from(chunks.peek().is_some());
        out.extend_from_slice(b"\x1b_G");
        // Writing to a Vec cannot fail.
        let _ = write!(out, "{},m={more}", if first { keys } else { continued });
        first = false;
        out.push(b';');
        out.extend_from_slice(chunk);
        out.extend_from_slice(b"\x1b\\");
    }
}

fn compress(pixels: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(pixels.len() / 4),
        flate2::Compression::fast(),
    );
    // Writing to a Vec cannot fail.
    let _ = enc.write_all(pixels);
    enc.finish().unwrap_or_default()
}

/// Shows the part `source` of picture `id` at the cursor's cell, over
/// `cols` x `rows` cells, as placement `placement` (placing again under
/// the same pair moves it without flicker). The cursor stays (`C=1`); `z`
/// below 0 puts it under the text.
pub fn place(
    id: u32,
    placement: u32,
    source: PixelRect,
    cols: u16,
    rows: u16,
    z: i32,
    out: &mut Vec<u8>,
) {
    // Writing to a Vec cannot fail.
    let _ = write!(
        out,
        "\x1b_Ga=p,q=2,C=1,i={id},p={placement},x={},y={},w={},h={},c={cols},r={rows},z={z}\x1b\\",
        source.x, source.y, source.width, source.height
    );
}

/// Deletes frame `number` (1-based) of picture `id`'s animation; the
/// frames after it take the numbers one lower.
pub fn delete_frame(id: u32, number: u32, out: &mut Vec<u8>) {
    let _ = write!(out, "\x1b_Ga=d,d=f,q=2,i={id},r={number}\x1b\\");
}

/// Takes placement `placement` of picture `id` off the screen, keeping the
/// picture for later placements.
pub fn delete_placement(id: u32, placement: u32, out: &mut Vec<u8>) {
    let _ = write!(out, "\x1b_Ga=d,d=i,q=2,i={id},p={placement}\x1b\\");
}

/// Forgets picture `id` and takes its placements off the screen.
pub fn delete(id: u32, out: &mut Vec<u8>) {
    let _ = write!(out, "\x1b_Ga=d,d=I,q=2,i={id}\x1b\\");
}

/// Takes every placement off the screen and frees the pictures (a
/// terminal tilework lets go of, or a full redraw).
pub fn delete_all(out: &mut Vec<u8>) {
    out.extend_from_slice(b"\x1b_Ga=d,d=A,q=2\x1b\\");
}

/// Asks whether the terminal speaks kitty graphics: it answers
/// `ESC _ G i=<id>;OK ESC \` if so (send a DA1 after it: a terminal that
/// answers that alone does not).
pub fn query(id: u32, out: &mut Vec<u8>) {
    let _ = write!(out, "\x1b_Gi={id},s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\");
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::graphics::kitty::command::{Action, Command, split_body};
    use crate::graphics::kitty::decode::decode;
    use crate::graphics::kitty::transfer::Transfer;

    /// The APC bodies in `bytes`.
    fn bodies(bytes: &[u8]) -> Vec<&[u8]> {
        let text = bytes;
        let mut out = Vec::new();
        let mut rest = text;
        while let Some(start) = rest.windows(3).position(|w| w == b"\x1b_G") {
            let from = start + 2;
            let len = rest[from..]
                .windows(2)
                .position(|w| w == b"\x1b\\")
                .unwrap();
            out.push(&rest[from..from + len]);
            rest = &rest[from + len + 2..];
        }
        out
    }

    fn noisy_image(width: u32, height: u32) -> RgbaImage {
        let mut seed = 12345u32;
        let pixels = (0..width * height * 4)
            .map(|_| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                (seed >> 16) as u8
            })
            .collect();
        RgbaImage::new(width, height, pixels).unwrap()
    }

    #[test]
    fn a_transmitted_picture_reads_back_the_same_through_tileworks_own_decoder() {
        let image = noisy_image(64, 48);
        let mut out = Vec::new();
        transmit(7, &image, &mut out);
        let bodies = bodies(&out);
        assert!(bodies.len() > 1, "noise does not compress into one chunk");
        let (control, payload) = split_body(bodies[0]).unwrap();
        let first = Command::parse(control).unwrap();
        assert_eq!(first.action, Action::Transmit);
        assert_eq!((first.image_id, first.quiet), (7, 2));
        let mut transfer = Transfer::new(first);
        transfer.push(payload).unwrap();
        for (n, body) in bodies[1..].iter().enumerate() {
            let (control, payload) = split_body(body).unwrap();
            assert!(payload.len() <= CHUNK);
            let cmd = Command::parse(control).unwrap();
            assert_eq!(cmd.more, n + 2 < bodies.len());
            assert_eq!(cmd.keys, b"qm", "continuations carry only q and m");
            transfer.push(payload).unwrap();
        }
        let (cmd, data) = transfer.finish().unwrap();
        assert_eq!(decode(&cmd, data).unwrap(), image);
    }

    #[test]
    fn a_placement_names_its_source_cells_and_keeps_the_cursor() {
        let mut out = Vec::new();
        let source = PixelRect {
            x: 10,
            y: 20,
            width: 30,
            height: 40,
        };
        place(3, 9, source, 4, 2, -1, &mut out);
        let body = bodies(&out)[0];
        let cmd = Command::parse(split_body(body).unwrap().0).unwrap();
        assert_eq!(cmd.action, Action::Place);
        assert_eq!((cmd.image_id, cmd.placement_id), (3, 9));
        assert_eq!((cmd.x, cmd.y, cmd.w, cmd.h), (10, 20, 30, 40));
        assert_eq!((cmd.cols, cmd.rows, cmd.z), (4, 2, -1));
        assert!(cmd.cursor_stays);
        assert_eq!(cmd.quiet, 2);
    }

    #[test]
    fn deletes_free_what_they_say() {
        let mut out = Vec::new();
        delete_placement(3, 9, &mut out);
        delete(3, &mut out);
        delete_all(&mut out);
        let cmds: Vec<Command> = bodies(&out)
            .iter()
            .map(|b| Command::parse(split_body(b).unwrap().0).unwrap())
            .collect();
        assert_eq!(cmds[0].delete.what, b'i');
        assert!(!cmds[0].delete.free);
        assert_eq!(cmds[0].placement_id, 9);
        assert!(cmds[1].delete.free);
        assert_eq!((cmds[2].delete.what, cmds[2].delete.free), (b'a', true));
        assert!(
            cmds.iter()
                .all(|c| c.action == Action::Delete && c.quiet == 2)
        );
    }

    #[test]
    fn the_query_is_a_one_pixel_test_load() {
        let mut out = Vec::new();
        query(31, &mut out);
        let (control, payload) = split_body(bodies(&out)[0]).unwrap();
        let cmd = Command::parse(control).unwrap();
        assert_eq!(cmd.action, Action::Query);
        let (cmd, data) = crate::graphics::kitty::transfer::decode_whole(cmd, payload).unwrap();
        assert_eq!(decode(&cmd, data).unwrap().pixels(), [0, 0, 0, 255]);
    }
}
