//! A picture's animation (kitty's `a=f`, `a=a`, `a=c`): its frames, each
//! a whole picture composed as the program asked, the gap after each, the
//! current frame and whether it plays. The store keeps one beside each
//! picture that has frames; drawing reads the current frame, and a
//! terminal that speaks kitty graphics is sent the frames and the state so
//! it plays them itself.

use crate::graphics::image::RgbaImage;

/// Frames a picture keeps at most (the pixels are bounded by the store's
/// budget too).
pub const MAX_FRAMES: usize = 1024;

/// One frame: a whole picture the size of the first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub image: RgbaImage,
    /// Milliseconds before the next frame (0: unset, below 0: gapless).
    pub gap: i32,
    /// Bumped at each change of its pixels (a drawer that sent it sends it
    /// again).
    pub version: u32,
    /// Names it for its animation's life, whatever its number becomes
    /// once frames before it are deleted (a drawer tells which it sent).
    pub id: u32,
}

/// Whether the animation plays (`s`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Playing {
    /// `s=1` (and before any `s`).
    #[default]
    Stopped,
    /// `s=2`: plays, waiting at the last frame for more.
    Loading,
    /// `s=3`: plays, looping.
    Looping,
}

impl Playing {
    /// The state the protocol's number `n` names.
    pub fn from_number(n: u32) -> Option<Self> {
        match n {
            1 => Some(Playing::Stopped),
            2 => Some(Playing::Loading),
            3 => Some(Playing::Looping),
            _ => None,
        }
    }

    /// The protocol's number for it.
    pub fn number(self) -> u32 {
        match self {
            Playing::Stopped => 1,
            Playing::Loading => 2,
            Playing::Looping => 3,
        }
    }
}

/// What a program asks of a picture's frames.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrameOp {
    /// `a=f`: `data` composed at (`x`, `y`) onto a canvas: frame `edit`
    /// itself (1-based; 0: a new frame), else frame `base`, else the colour
    /// `background` (RGBA); replacing the pixels or blending over them.
    Frame {
        data: RgbaImage,
        x: u32,
        y: u32,
        base: u32,
        edit: u32,
        background: u32,
        replace: bool,
        gap: i32,
    },
    /// `a=a`: each `Some` changes that much.
    Control {
        playing: Option<Playing>,
        /// 1-based.
        current: Option<u32>,
        /// The gap of frame `.0` (1-based).
        gap: Option<(u32, i32)>,
        loops: Option<u32>,
    },
    /// `a=c`: a `width` x `height` rectangle of frame `from` at
    /// (`from_x`, `from_y`) composed onto frame `to` at (`x`, `y`).
    Compose {
        from: u32,
        to: u32,
        from_x: u32,
        from_y: u32,
        x: u32,
        y: u32,
        width: u32,
        height: u32,
        replace: bool,
    },
}

/// Why a frame operation was refused: kitty's error names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrameError {
    /// No such picture (`ENOENT`).
    NoImage,
    /// No such frame (`ENOENT`).
    NoFrame(u32),
    /// A rectangle outside the picture, or overlapping itself (`EINVAL`).
    Invalid(&'static str),
    /// Too many frames, or over the memory budget (`ENOSPC`).
    NoSpace,
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrameError::NoImage => write!(f, "ENOENT:no such image"),
            FrameError::NoFrame(n) => write!(f, "ENOENT:no frame {n}"),
            FrameError::Invalid(why) => write!(f, "EINVAL:{why}"),
            FrameError::NoSpace => write!(f, "ENOSPC:no room for more frames"),
        }
    }
}

/// A picture's frames and how they play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Animation {
    /// The first is the picture itself (the root frame).
    frames: Vec<Frame>,
    /// 0-based.
    current: usize,
    pub playing: Playing,
    /// `v`: 0 unset, 1 forever, n: n - 1 loops.
    pub loops: u32,
    /// Bumped at every change a drawer may show.
    version: u64,
    /// The id the next frame gets.
    next_id: u32,
}

impl Animation {
    /// An animation whose root frame is `root`.
    pub fn new(root: RgbaImage) -> Self {
        Self {
            frames: vec![Frame {
                image: root,
                gap: 0,
                version: 0,
                id: 0,
            }],
            current: 0,
            playing: Playing::Stopped,
            loops: 0,
            version: 0,
            next_id: 1,
        }
    }

    /// An animation carried over (an upgrade): `frames` (at least the
    /// root), the current one (0-based) and how they play.
    pub fn carried(
        mut frames: Vec<Frame>,
        current: usize,
        playing: Playing,
        loops: u32,
    ) -> Option<Self> {
        if frames.is_empty() || frames.len() > MAX_FRAMES {
            return None;
        }
        for (n, frame) in frames.iter_mut().enumerate() {
            frame.id = u32::try_from(n).unwrap_or(u32::MAX);
        }
        Some(Self {
            current: current.min(frames.len() - 1),
            next_id: u32::try_from(frames.len()).unwrap_or(u32::MAX),
            frames,
            playing,
            loops,
            version: 0,
        })
    }

    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// The frame shown now, 0-based.
    pub fn current(&self) -> usize {
        self.current
    }

    pub fn current_image(&self) -> &RgbaImage {
        &self.frames[self.current.min(self.frames.len() - 1)].image
    }

    /// Changes with every change a drawer may show.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Bytes of pixels its frames past the root hold.
    pub fn extra_bytes(&self) -> usize {
        self.frames
            .iter()
            .skip(1)
            .map(|f| f.image.byte_size())
            .sum()
    }

    /// Carries out `op`; `room` is how many more bytes of pixels may be
    /// kept. Returns how many bytes the frames grew by.
    pub fn apply(&mut self, op: FrameOp, room: usize) -> Result<usize, FrameError> {
        let grew = match op {
            FrameOp::Frame {
                data,
                x,
                y,
                base,
                edit,
                background,
                replace,
                gap,
            } => self.frame(&data, (x, y), base, edit, background, replace, gap, room)?,
            FrameOp::Control {
                playing,
                current,
                gap,
                loops,
            } => {
                if let Some((n, gap)) = gap {
                    self.frame_mut(n)?.gap = gap;
                }
                if let Some(n) = current {
                    self.frame_mut(n)?;
                    self.current = n as usize - 1;
                }
                if let Some(playing) = playing {
                    self.playing = playing;
                }
                if let Some(loops) = loops {
                    self.loops = loops;
                }
                0
            }
            FrameOp::Compose {
                from,
                to,
                from_x,
                from_y,
                x,
                y,
                width,
                height,
                replace,
            } => {
                let source = self.frame_mut(from)?.image.clone();
                let (w, h) = (source.width(), source.height());
                let width = if width == 0 { w } else { width };
                let height = if height == 0 { h } else { height };
                let inside = |x: u32, y: u32| {
                    x.checked_add(width).is_some_and(|r| r <= w)
                        && y.checked_add(height).is_some_and(|b| b <= h)
                };
                if !inside(from_x, from_y) || !inside(x, y) {
                    return Err(FrameError::Invalid("the rectangle is outside the picture"));
                }
                let overlaps = from_x < x + width
                    && x < from_x + width
                    && from_y < y + height
                    && y < from_y + height;
                if from == to && overlaps {
                    return Err(FrameError::Invalid("the rectangles overlap"));
                }
                let part = crop(&source, from_x, from_y, width, height);
                let target = self.frame_mut(to)?;
                target.image = paint(&target.image, &part, x, y, replace);
                target.version = target.version.wrapping_add(1);
                0
            }
        };
        self.version = self.version.wrapping_add(1);
        Ok(grew)
    }

    #[allow(clippy::too_many_arguments)] // the protocol's keys, one each
    fn frame(
        &mut self,
        data: &RgbaImage,
        (x, y): (u32, u32),
        base: u32,
        edit: u32,
        background: u32,
        replace: bool,
        gap: i32,
        room: usize,
    ) -> Result<usize, FrameError> {
        let root = &self.frames[0].image;
        let (w, h) = (root.width(), root.height());
        if x >= w || y >= h {
            return Err(FrameError::Invalid(
                "the frame's data is outside the picture",
            ));
        }
        if edit > 0 {
            let target = self.frame_mut(edit)?;
            target.image = paint(&target.image, data, x, y, replace);
            target.version = target.version.wrapping_add(1);
            if gap != 0 {
                target.gap = gap;
            }
            return Ok(0);
        }
        let bytes = root.byte_size();
        if self.frames.len() >= MAX_FRAMES || bytes > room {
            return Err(FrameError::NoSpace);
        }
        let canvas = if base > 0 {
            self.frame_mut(base)?.image.clone()
        } else {
            let [r, g, b, a] = background.to_be_bytes();
            let pixels = [r, g, b, a].repeat(w as usize * h as usize);
            RgbaImage::new(w, h, pixels).map_err(|_| FrameError::NoSpace)?
        };
        self.frames.push(Frame {
            image: paint(&canvas, data, x, y, replace),
            gap,
            version: 0,
            id: self.next_id,
        });
        self.next_id = self.next_id.wrapping_add(1);
        Ok(bytes)
    }

    /// Deletes frame `n` (1-based; 0 is the first, past the last is the
    /// last), as kitty's `a=d,d=f` does: the one after it takes its number
    /// (the second becomes the picture's first), the current frame stays
    /// the one shown unless it is the one deleted (then the next, or the
    /// last). A picture's only frame is not deleted: `None`. Returns the
    /// bytes of pixels freed.
    pub fn delete_frame(&mut self, n: u32) -> Option<usize> {
        if self.frames.len() < 2 {
            return None;
        }
        let at = (n as usize).clamp(1, self.frames.len()) - 1;
        let gone = self.frames.remove(at);
        if at < self.current {
            self.current -= 1;
        }
        self.current = self.current.min(self.frames.len() - 1);
        self.version = self.version.wrapping_add(1);
        Some(gone.image.byte_size())
    }

    /// Frame `n` (1-based).
    fn frame_mut(&mut self, n: u32) -> Result<&mut Frame, FrameError> {
        let at = (n as usize).checked_sub(1).ok_or(FrameError::NoFrame(n))?;
        self.frames.get_mut(at).ok_or(FrameError::NoFrame(n))
    }
}

/// `width` x `height` pixels of `image` from (`x`, `y`), inside it.
fn crop(image: &RgbaImage, x: u32, y: u32, width: u32, height: u32) -> RgbaImage {
    let stride = image.width() as usize * 4;
    let mut pixels = Vec::with_capacity(width as usize * height as usize * 4);
    for row in y..y + height {
        let start = row as usize * stride + x as usize * 4;
        pixels.extend_from_slice(&image.pixels()[start..start + width as usize * 4]);
    }
    RgbaImage::new(width, height, pixels).unwrap_or_else(|_| image.clone())
}

/// `canvas` with `data` put at (`x`, `y`) (cut at the canvas's edges):
/// its pixels replacing the canvas's, or blended over them by their alpha.
fn paint(canvas: &RgbaImage, data: &RgbaImage, x: u32, y: u32, replace: bool) -> RgbaImage {
    let (w, h) = (canvas.width(), canvas.height());
    let mut pixels = canvas.pixels().to_vec();
    let cols = data.width().min(w.saturating_sub(x)) as usize;
    let rows = data.height().min(h.saturating_sub(y));
    for row in 0..rows {
        let from = row as usize * data.width() as usize * 4;
        let to = ((y + row) as usize * w as usize + x as usize) * 4;
        let src = &data.pixels()[from..from + cols * 4];
        let dst = &mut pixels[to..to + cols * 4];
        if replace {
            dst.copy_from_slice(src);
            continue;
        }
        for (d, s) in dst.chunks_exact_mut(4).zip(src.chunks_exact(4)) {
            blend(d, s);
        }
    }
    RgbaImage::new(w, h, pixels).unwrap_or_else(|_| canvas.clone())
}

/// `src` over `dst` (straight alpha).
fn blend(dst: &mut [u8], src: &[u8]) {
    let sa = u32::from(src[3]);
    if sa == 255 {
        dst.copy_from_slice(src);
        return;
    }
    if sa == 0 {
        return;
    }
    let da = u32::from(dst[3]) * (255 - sa) / 255;
    let out_a = sa + da;
    for i in 0..3 {
        let c = (u32::from(src[i]) * sa + u32::from(dst[i]) * da) / out_a.max(1);
        dst[i] = u8::try_from(c).unwrap_or(u8::MAX);
    }
    dst[3] = u8::try_from(out_a).unwrap_or(u8::MAX);
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;

    fn solid(w: u32, h: u32, rgba: [u8; 4]) -> RgbaImage {
        RgbaImage::new(w, h, rgba.repeat((w * h) as usize)).unwrap()
    }

    fn pixel(image: &RgbaImage, x: u32, y: u32) -> [u8; 4] {
        let at = ((y * image.width() + x) * 4) as usize;
        image.pixels()[at..at + 4].try_into().unwrap()
    }

    fn frame(data: RgbaImage, x: u32, base: u32, edit: u32) -> FrameOp {
        FrameOp::Frame {
            data,
            x,
            y: 0,
            base,
            edit,
            background: 0,
            replace: false,
            gap: 40,
        }
    }

    #[test]
    fn frames_are_composed_on_their_canvas_and_the_current_one_is_chosen() {
        let red = [255, 0, 0, 255];
        let blue = [0, 0, 255, 255];
        let mut a = Animation::new(solid(4, 2, red));
        // Frame 2: blue on its right half, over frame 1.
        assert_eq!(a.apply(frame(solid(2, 2, blue), 2, 1, 0), 1 << 20), Ok(32));
        // Frame 3: on a transparent canvas.
        a.apply(frame(solid(1, 1, blue), 0, 0, 0), 1 << 20).unwrap();
        assert_eq!(a.frames().len(), 3);
        let second = &a.frames()[1].image;
        assert_eq!((pixel(second, 0, 0), pixel(second, 3, 1)), (red, blue));
        assert_eq!(pixel(&a.frames()[2].image, 1, 0), [0, 0, 0, 0]);
        assert_eq!(a.current_image(), &a.frames()[0].image);
        let control = |current| FrameOp::Control {
            playing: Some(Playing::Looping),
            current: Some(current),
            gap: None,
            loops: None,
        };
        a.apply(control(2), 0).unwrap();
        assert_eq!(a.current(), 1);
        assert_eq!(a.playing, Playing::Looping);
        assert_eq!(a.apply(control(9), 0), Err(FrameError::NoFrame(9)));
        // Editing frame 1 in place; no room for a new frame.
        a.apply(frame(solid(1, 1, blue), 0, 0, 1), 0).unwrap();
        assert_eq!(pixel(&a.frames()[0].image, 0, 0), blue);
        assert_eq!(
            a.apply(frame(solid(1, 1, blue), 0, 0, 0), 0),
            Err(FrameError::NoSpace)
        );
    }

    #[test]
    fn composing_copies_a_rectangle_and_refuses_one_outside_or_overlapping() {
        let mut a = Animation::new(solid(4, 4, [9, 9, 9, 255]));
        a.apply(frame(solid(4, 4, [1, 2, 3, 255]), 0, 0, 0), 1 << 20)
            .unwrap();
        let compose = |from, to, x, width| FrameOp::Compose {
            from,
            to,
            from_x: 0,
            from_y: 0,
            x,
            y: 0,
            width,
            height: 2,
            replace: true,
        };
        a.apply(compose(2, 1, 2, 2), 0).unwrap();
        let root = &a.frames()[0].image;
        assert_eq!(pixel(root, 3, 1), [1, 2, 3, 255]);
        assert_eq!(pixel(root, 1, 1), [9, 9, 9, 255]);
        assert!(matches!(
            a.apply(compose(2, 1, 3, 2), 0),
            Err(FrameError::Invalid(_))
        ));
        assert!(matches!(
            a.apply(compose(1, 1, 1, 2), 0),
            Err(FrameError::Invalid(_))
        ));
        assert_eq!(a.apply(compose(5, 1, 0, 1), 0), Err(FrameError::NoFrame(5)));
    }

    #[test]
    fn deleting_a_frame_renumbers_the_rest_and_keeps_the_frame_shown() {
        let colours = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]];
        let mut a = Animation::new(solid(2, 2, colours[0]));
        for c in &colours[1..] {
            a.apply(frame(solid(2, 2, *c), 0, 0, 0), 1 << 20).unwrap();
        }
        let current = |a: &Animation| pixel(a.current_image(), 0, 0);
        let control = FrameOp::Control {
            playing: None,
            current: Some(3),
            gap: None,
            loops: None,
        };
        a.apply(control, 0).unwrap();
        let version = a.version();
        // Frame 2 (green): blue, the one shown, is frame 2 now.
        assert_eq!(a.delete_frame(2), Some(16));
        assert_eq!((a.frames().len(), a.current()), (2, 1));
        assert_eq!(current(&a), colours[2]);
        assert_ne!(a.version(), version);
        // The one shown (past the last: the last): the one before shows.
        assert_eq!(a.delete_frame(9), Some(16));
        assert_eq!(current(&a), colours[0]);
        // The only frame stays.
        assert_eq!(a.delete_frame(1), None);
        assert_eq!(a.frames().len(), 1);
        // The first (0: the first): the second becomes it; ids stay.
        a.apply(frame(solid(2, 2, colours[1]), 0, 0, 0), 1 << 20)
            .unwrap();
        let id = a.frames()[1].id;
        assert_eq!(a.delete_frame(0), Some(16));
        assert_eq!((a.frames()[0].id, current(&a)), (id, colours[1]));
        assert_eq!(a.extra_bytes(), 0);
    }
}
