//! A transmission's data made into a picture: inflated when `o=z`, then
//! read as RGB, RGBA or PNG. Sizes are checked before anything the size
//! of the picture is allocated, and inflating stops at the size expected.

use std::io::Read as _;

use super::command::{Command, Format};
use super::reply::KittyError;
use super::transfer::MAX_DATA;
use crate::graphics::image::{RgbaImage, check_size};

/// The picture a transmission's data holds.
pub fn decode(cmd: &Command, data: Vec<u8>) -> Result<RgbaImage, KittyError> {
    let raw_len = match cmd.format {
        Format::Rgb | Format::Rgba => {
            check_size(cmd.data_width, cmd.data_height)
                .map_err(|e| KittyError::invalid(format!("RGB data needs its size (s, v): {e}")))?;
            check_bytes(cmd.data_width, cmd.data_height)?;
            let bytes_per_pixel = if cmd.format == Format::Rgb { 3 } else { 4 };
            Some(cmd.data_width as usize * cmd.data_height as usize * bytes_per_pixel)
        }
        Format::Png => None,
    };
    let data = if cmd.compressed {
        let bound = match (raw_len, cmd.data_size) {
            (Some(len), _) => len,
            (None, 0) => MAX_DATA,
            (None, size) => (size as usize).min(MAX_DATA),
        };
        inflate(&data, bound)?
    } else {
        data
    };
    match cmd.format {
        Format::Rgb => from_rgb(cmd.data_width, cmd.data_height, &data),
        Format::Rgba => from_rgba(cmd.data_width, cmd.data_height, data),
        Format::Png => from_png(&data),
    }
}

/// zlib data inflated, refused when it would come out longer than `bound`.
fn inflate(data: &[u8], bound: usize) -> Result<Vec<u8>, KittyError> {
    let mut out = Vec::new();
    flate2::read::ZlibDecoder::new(data)
        .take(bound as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| KittyError::invalid(format!("bad zlib data: {e}")))?;
    if out.len() > bound {
        return Err(KittyError::new(
            "EFBIG",
            "the compressed data inflates to more than the picture holds",
        ));
    }
    Ok(out)
}

/// Refuses a picture whose pixels alone would be over [`MAX_DATA`], before
/// they are allocated.
fn check_bytes(width: u32, height: u32) -> Result<(), KittyError> {
    if width as usize * height as usize * 4 > MAX_DATA {
        return Err(KittyError::new(
            "EFBIG",
            format!("a {width}x{height} picture is over tilework's {MAX_DATA} byte limit"),
        ));
    }
    Ok(())
}

fn short(expected: usize, got: usize) -> KittyError {
    KittyError::new(
        "ENODATA",
        format!("insufficient image data: {got} bytes for {expected}"),
    )
}

fn from_rgb(width: u32, height: u32, data: &[u8]) -> Result<RgbaImage, KittyError> {
    let pixels = width as usize * height as usize;
    if data.len() < pixels * 3 {
        return Err(short(pixels * 3, data.len()));
    }
    let mut rgba = Vec::with_capacity(pixels * 4);
    for px in data[..pixels * 3].chunks_exact(3) {
        rgba.extend_from_slice(px);
        rgba.push(255);
    }
    RgbaImage::new(width, height, rgba).map_err(|e| KittyError::invalid(e.to_string()))
}

fn from_rgba(width: u32, height: u32, mut data: Vec<u8>) -> Result<RgbaImage, KittyError> {
    let len = width as usize * height as usize * 4;
    if data.len() < len {
        return Err(short(len, data.len()));
    }
    // Extra bytes are left over, as kitty leaves them.
    data.truncate(len);
    RgbaImage::new(width, height, data).map_err(|e| KittyError::invalid(e.to_string()))
}

fn from_png(data: &[u8]) -> Result<RgbaImage, KittyError> {
    let bad = |e: png::DecodingError| KittyError::invalid(format!("bad PNG data: {e}"));
    let mut decoder = png::Decoder::new_with_limits(
        std::io::Cursor::new(data),
        png::Limits {
            bytes: MAX_DATA * 2,
        },
    );
    // Palettes, low bit depths and transparency chunks come out as 8-bit
    // channels.
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(bad)?;
    let (width, height) = {
        let info = reader.info();
        (info.width, info.height)
    };
    check_size(width, height).map_err(|e| KittyError::invalid(e.to_string()))?;
    check_bytes(width, height)?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| KittyError::new("EFBIG", "the PNG is too large"))?;
    let mut buf = vec![0; size];
    let frame = reader.next_frame(&mut buf).map_err(bad)?;
    buf.truncate(frame.buffer_size());
    let pixels = width as usize * height as usize;
    let rgba = match frame.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        png::ColorType::GrayscaleAlpha => buf
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::Indexed => {
            return Err(KittyError::invalid("PNG palette left unexpanded"));
        }
    };
    if rgba.len() != pixels * 4 {
        return Err(short(pixels * 4, rgba.len()));
    }
    RgbaImage::new(width, height, rgba).map_err(|e| KittyError::invalid(e.to_string()))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
pub(crate) mod tests {
    use std::io::Write as _;

    use super::*;

    /// A PNG of `width` x `height` pixels of the given colour type, for
    /// tests here and elsewhere.
    pub(crate) fn png_bytes(width: u32, height: u32, color: png::ColorType, raw: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, width, height);
            enc.set_color(color);
            enc.set_depth(png::BitDepth::Eight);
            let mut writer = enc.write_header().unwrap();
            writer.write_image_data(raw).unwrap();
        }
        out
    }

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(data).unwrap();
        enc.finish().unwrap()
    }

    fn cmd(control: &[u8]) -> Command {
        Command::parse(control).unwrap()
    }

    #[test]
    fn rgb_gains_an_opaque_alpha() {
        let img = decode(&cmd(b"f=24,s=2,v=1"), vec![1, 2, 3, 4, 5, 6]).unwrap();
        assert_eq!(img.pixels(), [1, 2, 3, 255, 4, 5, 6, 255]);
    }

    #[test]
    fn rgba_needs_its_size_and_enough_bytes() {
        let img = decode(&cmd(b"s=1,v=1"), vec![9, 8, 7, 6, 0]).unwrap();
        assert_eq!(img.pixels(), [9, 8, 7, 6]);
        assert_eq!(
            decode(&cmd(b"s=2,v=1"), vec![0; 4]).unwrap_err().code,
            "ENODATA"
        );
        assert_eq!(decode(&cmd(b""), vec![0; 4]).unwrap_err().code, "EINVAL");
        assert_eq!(
            decode(&cmd(b"s=20000,v=1"), vec![]).unwrap_err().code,
            "EINVAL"
        );
        assert_eq!(
            decode(&cmd(b"s=10000,v=10000,o=z"), vec![])
                .unwrap_err()
                .code,
            "EFBIG"
        );
    }

    #[test]
    fn compressed_data_is_inflated_up_to_the_size_expected() {
        let raw = [10u8, 20, 30, 40, 50, 60];
        let img = decode(&cmd(b"f=24,s=2,v=1,o=z"), zlib(&raw)).unwrap();
        assert_eq!(img.pixels(), [10, 20, 30, 255, 40, 50, 60, 255]);
        // A bomb: a megabyte of zeros claimed to be one pixel.
        let bomb = zlib(&vec![0; 1 << 20]);
        assert_eq!(
            decode(&cmd(b"f=24,s=1,v=1,o=z"), bomb).unwrap_err().code,
            "EFBIG"
        );
        assert_eq!(
            decode(&cmd(b"f=24,s=1,v=1,o=z"), vec![1, 2, 3])
                .unwrap_err()
                .code,
            "EINVAL"
        );
    }

    #[test]
    fn pngs_of_every_colour_type_become_rgba() {
        let rgba = png_bytes(1, 1, png::ColorType::Rgba, &[1, 2, 3, 4]);
        assert_eq!(decode(&cmd(b"f=100"), rgba).unwrap().pixels(), [1, 2, 3, 4]);
        let rgb = png_bytes(2, 1, png::ColorType::Rgb, &[1, 2, 3, 4, 5, 6]);
        let img = decode(&cmd(b"f=100"), rgb).unwrap();
        assert_eq!((img.width(), img.height()), (2, 1));
        assert_eq!(img.pixels(), [1, 2, 3, 255, 4, 5, 6, 255]);
        let grey = png_bytes(1, 1, png::ColorType::Grayscale, &[7]);
        assert_eq!(
            decode(&cmd(b"f=100"), grey).unwrap().pixels(),
            [7, 7, 7, 255]
        );
        let compressed = zlib(&png_bytes(1, 1, png::ColorType::GrayscaleAlpha, &[7, 9]));
        let img = decode(&cmd(b"f=100,o=z"), compressed).unwrap();
        assert_eq!(img.pixels(), [7, 7, 7, 9]);
    }

    #[test]
    fn a_broken_png_is_an_error_not_a_panic() {
        let mut png = png_bytes(4, 4, png::ColorType::Rgba, &[0; 64]);
        png.truncate(png.len() / 2);
        assert_eq!(decode(&cmd(b"f=100"), png).unwrap_err().code, "EINVAL");
        assert!(decode(&cmd(b"f=100"), b"not a png".to_vec()).is_err());
    }
}
