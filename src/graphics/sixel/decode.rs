//! Decodes sixel data as it arrives, a byte at a time (the pane's intake
//! hands each byte of the DCS body over as the parser reads it, within
//! the loop's time slice): no byte is kept, only the pixels drawn so far.
//!
//! The picture grows as sixels land past its edge, up to the limits given
//! at the start (the pane's size in pixels, and never past
//! [`MAX_SIDE`]); a sixel past them spoils the picture, which is then
//! refused at the end. Pixels no sixel set stay transparent (as `P2=1`
//! asks; for `P2=0` terminals fill them with the background, which the
//! blank cells under a placement show anyway).

use crate::graphics::image::{MAX_SIDE, RgbaImage};

/// Colour registers a program can set (xterm's and foot's count).
const REGISTERS: usize = 1024;
/// The most numeric parameters a command takes (`#Pc;Pu;Px;Py;Pz`).
const MAX_PARAMS: usize = 5;

/// The VT340's default colours, in percent.
const VT340: [(u8, u8, u8); 16] = [
    (0, 0, 0),
    (20, 20, 80),
    (80, 13, 13),
    (20, 80, 20),
    (80, 20, 80),
    (20, 80, 80),
    (80, 80, 20),
    (53, 53, 53),
    (26, 26, 26),
    (33, 33, 60),
    (60, 26, 26),
    (33, 60, 33),
    (60, 33, 60),
    (33, 60, 60),
    (60, 60, 33),
    (80, 80, 80),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Command {
    /// Sixel characters, `$` and `-`.
    Data,
    /// `"Pan;Pad;Ph;Pv`.
    Raster,
    /// `!Pn` and the sixel it repeats.
    Repeat,
    /// `#Pc` or `#Pc;Pu;Px;Py;Pz`.
    Colour,
}

/// Why a sixel picture was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SixelError {
    /// Pixels past the pane or [`MAX_SIDE`].
    TooLarge,
    /// Nothing was drawn.
    Empty,
}

impl std::fmt::Display for SixelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SixelError::TooLarge => write!(f, "the sixel picture is larger than allowed"),
            SixelError::Empty => write!(f, "the sixel picture has no pixels"),
        }
    }
}

/// One sixel picture being decoded.
#[derive(Debug)]
pub struct Decoder {
    command: Command,
    params: [u32; MAX_PARAMS],
    count: usize,
    palette: Vec<[u8; 4]>,
    colour: usize,
    /// The graphics cursor: column, and the top of the current band.
    x: u32,
    y: u32,
    /// The picture's size: the raster attributes' or as far as sixels
    /// landed, whichever is more.
    width: u32,
    height: u32,
    /// RGBA pixels, `stride` wide, `rows` tall (grown as needed).
    pixels: Vec<u8>,
    stride: u32,
    rows: u32,
    limit: (u32, u32),
    too_large: bool,
}

impl Decoder {
    /// A decoder for a picture at most `max_width` x `max_height` pixels.
    pub fn new(max_width: u32, max_height: u32) -> Self {
        let mut palette = vec![[0, 0, 0, 255]; REGISTERS];
        for (slot, &(r, g, b)) in palette.iter_mut().zip(VT340.iter()) {
            *slot = [percent(r.into()), percent(g.into()), percent(b.into()), 255];
        }
        Self {
            command: Command::Data,
            params: [0; MAX_PARAMS],
            count: 0,
            palette,
            colour: 0,
            x: 0,
            y: 0,
            width: 0,
            height: 0,
            pixels: Vec::new(),
            stride: 0,
            rows: 0,
            limit: (max_width.min(MAX_SIDE), max_height.min(MAX_SIDE)),
            too_large: false,
        }
    }

    /// Takes the next bytes of the DCS body (after the `q`).
    pub fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.byte(b);
        }
    }

    /// Takes one byte of the DCS body.
    #[inline]
    pub fn byte(&mut self, b: u8) {
        match b {
            b'0'..=b'9' if self.command != Command::Data => {
                if let Some(p) = self.params.get_mut(self.count) {
                    *p = p.saturating_mul(10).saturating_add(u32::from(b - b'0'));
                }
            }
            b';' if self.command != Command::Data => self.count += 1,
            _ => {
                self.finish_command();
                match b {
                    b'?'..=b'~' => {
                        let repeat = if self.command == Command::Repeat {
                            self.params[0].max(1)
                        } else {
                            1
                        };
                        self.command = Command::Data;
                        self.sixel(b - b'?', repeat);
                    }
                    b'$' => self.x = 0,
                    b'-' => {
                        self.x = 0;
                        self.y = self.y.saturating_add(6);
                    }
                    b'"' => self.start(Command::Raster),
                    b'!' => self.start(Command::Repeat),
                    b'#' => self.start(Command::Colour),
                    _ => {}
                }
            }
        }
    }

    fn start(&mut self, command: Command) {
        self.command = command;
        self.params = [0; MAX_PARAMS];
        self.count = 0;
    }

    /// Acts on a raster or colour command whose parameters just ended.
    fn finish_command(&mut self) {
        let p = self.params;
        match self.command {
            Command::Raster => {
                let (w, h) = (p[2], p[3]);
                if w > self.limit.0 || h > self.limit.1 {
                    self.too_large = true;
                } else {
                    self.width = self.width.max(w);
                    self.height = self.height.max(h);
                    self.grow(w, h);
                }
                self.command = Command::Data;
            }
            Command::Colour => {
                self.colour = p[0] as usize % REGISTERS;
                if self.count >= 4 {
                    self.palette[self.colour] = match p[1] {
                        1 => hls(p[2], p[3], p[4]),
                        _ => [percent(p[2]), percent(p[3]), percent(p[4]), 255],
                    };
                }
                self.command = Command::Data;
            }
            Command::Data | Command::Repeat => {}
        }
    }

    /// Draws `bits` (bit 0 on top) `repeat` columns wide at the cursor.
    fn sixel(&mut self, bits: u8, repeat: u32) {
        let (x, y) = (self.x, self.y);
        self.x = x.saturating_add(repeat);
        if bits == 0 {
            return;
        }
        let bottom = y + 6 - bits.leading_zeros().saturating_sub(2);
        let right = self.x;
        if right > self.limit.0 || bottom > self.limit.1 {
            self.too_large = true;
            return;
        }
        if self.too_large {
            return;
        }
        self.grow(right, bottom);
        self.width = self.width.max(right);
        self.height = self.height.max(bottom);
        let colour = self.palette[self.colour];
        for bit in 0..6 {
            if bits & (1 << bit) == 0 {
                continue;
            }
            let row = (y + bit) as usize;
            let start = (row * self.stride as usize + x as usize) * 4;
            let end = start + repeat as usize * 4;
            for px in self.pixels[start..end].chunks_exact_mut(4) {
                px.copy_from_slice(&colour);
            }
        }
    }

    /// Makes room for pixels up to `width` x `height`.
    fn grow(&mut self, width: u32, height: u32) {
        if width <= self.stride && height <= self.rows {
            return;
        }
        let stride = if width > self.stride {
            width.max(self.stride * 2).min(self.limit.0)
        } else {
            self.stride
        };
        let rows = if height > self.rows {
            height.max(self.rows * 2).min(self.limit.1)
        } else {
            self.rows
        };
        let mut pixels = vec![0; stride as usize * rows as usize * 4];
        let old_row = self.stride as usize * 4;
        if old_row > 0 {
            for (row, line) in self.pixels.chunks_exact(old_row).enumerate() {
                let at = row * stride as usize * 4;
                pixels[at..at + old_row].copy_from_slice(line);
            }
        }
        self.pixels = pixels;
        self.stride = stride;
        self.rows = rows;
    }

    /// The picture, once the DCS ended.
    pub fn finish(mut self) -> Result<RgbaImage, SixelError> {
        self.finish_command();
        if self.too_large {
            return Err(SixelError::TooLarge);
        }
        if self.width == 0 || self.height == 0 {
            return Err(SixelError::Empty);
        }
        let (w, h) = (self.width as usize, self.height as usize);
        let pixels = if w == self.stride as usize && h == self.rows as usize {
            self.pixels
        } else {
            let mut out = Vec::with_capacity(w * h * 4);
            for row in self.pixels.chunks_exact(self.stride as usize * 4).take(h) {
                out.extend_from_slice(&row[..w * 4]);
            }
            out
        };
        RgbaImage::new(self.width, self.height, pixels).map_err(|_| SixelError::TooLarge)
    }
}

fn percent(v: u32) -> u8 {
    u8::try_from(v.min(100) * 255 / 100).unwrap_or(255)
}

/// DEC's HLS (hue 0 is blue, 120 red, 240 green; percent) as RGBA.
fn hls(hue: u32, lightness: u32, saturation: u32) -> [u8; 4] {
    let h = f64::from((hue + 240) % 360) / 360.0;
    let l = f64::from(lightness.min(100)) / 100.0;
    let s = f64::from(saturation.min(100)) / 100.0;
    if s == 0.0 {
        let v = (l * 255.0).round() as u8;
        return [v, v, v, 255];
    }
    let q = if l < 0.5 {
        l * (1.0 + s)
    } else {
        l + s - l * s
    };
    let p = 2.0 * l - q;
    let channel = |t: f64| {
        let t = t.rem_euclid(1.0);
        let v = if t < 1.0 / 6.0 {
            p + (q - p) * 6.0 * t
        } else if t < 0.5 {
            q
        } else if t < 2.0 / 3.0 {
            p + (q - p) * (2.0 / 3.0 - t) * 6.0
        } else {
            p
        };
        (v * 255.0).round() as u8
    };
    [
        channel(h + 1.0 / 3.0),
        channel(h),
        channel(h - 1.0 / 3.0),
        255,
    ]
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;

    fn decode(body: &[u8]) -> Result<RgbaImage, SixelError> {
        let mut d = Decoder::new(1000, 1000);
        d.feed(body);
        d.finish()
    }

    fn pixel(image: &RgbaImage, x: u32, y: u32) -> [u8; 4] {
        let at = ((y * image.width() + x) * 4) as usize;
        image.pixels()[at..at + 4].try_into().unwrap()
    }

    #[test]
    fn colours_repeats_and_bands_land_where_they_say() {
        // Red 3 columns of the top pixel only, then a new band with a
        // green full column.
        let image = decode(b"#1;2;100;0;0#1!3@-#2;2;0;100;0~").unwrap();
        assert_eq!((image.width(), image.height()), (3, 12));
        assert_eq!(pixel(&image, 2, 0), [255, 0, 0, 255]);
        assert_eq!(pixel(&image, 2, 1), [0, 0, 0, 0]);
        assert_eq!(pixel(&image, 0, 11), [0, 255, 0, 255]);
        assert_eq!(pixel(&image, 1, 11), [0, 0, 0, 0]);
    }

    #[test]
    fn raster_attributes_set_the_size_and_hls_colours_convert() {
        let image = decode(b"\"1;1;8;7#3;1;120;50;100#3$?").unwrap();
        assert_eq!((image.width(), image.height()), (8, 7));
        let mut d = Decoder::new(10, 10);
        d.feed(b"#3;1;120;50;100#3@");
        assert_eq!(pixel(&d.finish().unwrap(), 0, 0), [255, 0, 0, 255]);
    }

    #[test]
    fn pictures_past_the_limits_or_empty_are_refused() {
        let mut d = Decoder::new(10, 10);
        d.feed(b"!11~");
        assert_eq!(d.finish().unwrap_err(), SixelError::TooLarge);
        let mut d = Decoder::new(10, 10);
        d.feed(b"\"1;1;5000;5000");
        assert_eq!(d.finish().unwrap_err(), SixelError::TooLarge);
        assert_eq!(decode(b"$-$").unwrap_err(), SixelError::Empty);
    }
}
