//! Encodes a picture (or a rectangle of it) as sixel for a user's
//! terminal.
//!
//! The palette is fixed, 3 bits of red, 3 of green and 2 of blue (256
//! registers): a colour's register is a few shifts, with no search and no
//! second pass, which keeps a frame's encoding cheap; the price is banding
//! in smooth gradients. Pixels more than half transparent are left unset
//! (`P2=1`: the terminal shows what is under them, the blank cells).

use std::io::Write as _;

use crate::graphics::image::RgbaImage;
use crate::graphics::picture_store::PixelRect;

/// The register of an RGB colour.
#[inline]
fn register(r: u8, g: u8, b: u8) -> u8 {
    (r & 0xE0) | ((g & 0xE0) >> 3) | (b >> 6)
}

/// The colour of a register, in percent (what `#Pc;2;r;g;b` takes).
fn register_colour(reg: u8) -> (u32, u32, u32) {
    let r = u32::from(reg >> 5) * 100 / 7;
    let g = u32::from((reg >> 2) & 7) * 100 / 7;
    let b = u32::from(reg & 3) * 100 / 3;
    (r, g, b)
}

/// Writes `source` of `image` as one sixel DCS, from the terminal's cursor.
pub fn encode(image: &RgbaImage, source: PixelRect, out: &mut Vec<u8>) {
    let x0 = source.x.min(image.width());
    let y0 = source.y.min(image.height());
    let w = source.width.min(image.width() - x0) as usize;
    let h = source.height.min(image.height() - y0) as usize;
    let _ = write!(out, "\x1bP0;1;0q\"1;1;{w};{h}");
    if w == 0 || h == 0 {
        out.extend_from_slice(b"\x1b\\");
        return;
    }
    let stride = image.width() as usize * 4;
    let pixels = image.pixels();
    // Each pixel's register, or None when transparent.
    let mut regs = vec![None::<u8>; w * h];
    let mut used = [false; 256];
    for row in 0..h {
        let line = &pixels[(y0 as usize + row) * stride + x0 as usize * 4..][..w * 4];
        for (col, px) in line.chunks_exact(4).enumerate() {
            if px[3] >= 128 {
                let reg = register(px[0], px[1], px[2]);
                used[usize::from(reg)] = true;
                regs[row * w + col] = Some(reg);
            }
        }
    }
    for (reg, _) in used.iter().enumerate().filter(|(_, u)| **u) {
        let (r, g, b) = register_colour(reg as u8);
        let _ = write!(out, "#{reg};2;{r};{g};{b}");
    }
    // Per band: each register's six-pixel masks across the band (one row
    // of `w` per register, cleared after use), the registers in the band
    // in the order first seen, and each one's first and last column. The
    // work is one pass over the band's pixels and one over what is
    // written.
    let mut masks = vec![0u8; 256 * w];
    let mut span = [(usize::MAX, 0usize); 256];
    let mut seen: Vec<u8> = Vec::with_capacity(256);
    for band in (0..h).step_by(6) {
        let rows = (h - band).min(6);
        seen.clear();
        for dy in 0..rows {
            let line = &regs[(band + dy) * w..][..w];
            for (col, reg) in line.iter().enumerate() {
                let Some(reg) = *reg else { continue };
                let r = usize::from(reg);
                let s = &mut span[r];
                if s.0 == usize::MAX {
                    seen.push(reg);
                    *s = (col, col);
                } else {
                    s.0 = s.0.min(col);
                    s.1 = s.1.max(col);
                }
                masks[r * w + col] |= 1 << dy;
            }
        }
        seen.sort_unstable();
        for (i, &reg) in seen.iter().enumerate() {
            let r = usize::from(reg);
            let (from, to) = span[r];
            span[r] = (usize::MAX, 0);
            if i > 0 {
                out.push(b'$');
            }
            out.push(b'#');
            push_decimal(out, usize::from(reg));
            if from > 0 {
                push_run(out, 0, from);
            }
            let row = &mut masks[r * w..][..w];
            let mut col = from;
            while col <= to {
                let mask = row[col];
                let run = row[col..=to].iter().take_while(|&&m| m == mask).count();
                push_run(out, mask, run);
                col += run;
            }
            row[from..=to].fill(0);
        }
        if band + 6 < h {
            out.push(b'-');
        }
    }
    out.extend_from_slice(b"\x1b\\");
}

/// `run` columns of the sixel `mask`.
fn push_run(out: &mut Vec<u8>, mask: u8, run: usize) {
    let c = b'?' + mask;
    if run > 3 {
        out.push(b'!');
        push_decimal(out, run);
        out.push(c);
    } else {
        out.extend(std::iter::repeat_n(c, run));
    }
}

/// `n` in decimal (`write!` costs more than the rest of the encoding on
/// pictures of many short runs).
#[inline]
fn push_decimal(out: &mut Vec<u8>, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;
    use crate::graphics::sixel::decode::Decoder;

    #[test]
    fn what_is_encoded_decodes_to_the_same_picture_in_palette_colours() {
        // 5x8: a red left half, a transparent column, a blue right half.
        let (w, h) = (5u32, 8u32);
        let mut pixels = Vec::new();
        for _ in 0..h {
            for x in 0..w {
                pixels.extend_from_slice(match x {
                    0 | 1 => &[255, 0, 0, 255],
                    2 => &[0, 0, 0, 0],
                    _ => &[0, 0, 255, 255],
                });
            }
        }
        let image = RgbaImage::new(w, h, pixels).unwrap();
        let mut out = Vec::new();
        encode(&image, PixelRect::whole(&image), &mut out);
        let body = &out[b"\x1bP0;1;0q".len()..out.len() - 2];
        let mut d = Decoder::new(100, 100);
        d.feed(body);
        let back = d.finish().unwrap();
        assert_eq!((back.width(), back.height()), (5, 8));
        let px = |x: u32, y: u32| &back.pixels()[((y * w + x) * 4) as usize..][..4];
        assert_eq!(px(0, 7), [255, 0, 0, 255]);
        assert_eq!(px(2, 3), [0, 0, 0, 0]);
        assert_eq!(px(4, 0), [0, 0, 255, 255]);
    }

    #[test]
    fn a_rectangle_of_the_picture_is_encoded_alone() {
        let image = RgbaImage::new(4, 4, vec![255; 64]).unwrap();
        let mut out = Vec::new();
        let source = PixelRect {
            x: 1,
            y: 2,
            width: 2,
            height: 2,
        };
        encode(&image, source, &mut out);
        assert!(out.starts_with(b"\x1bP0;1;0q\"1;1;2;2"));
        assert!(out.ends_with(b"\x1b\\"));
    }
}
