//! One kitty graphics command read from its APC body (`G<keys>;<payload>`):
//! the control keys as typed values, with kitty's defaults for the ones
//! left out, and the payload still base64 (chunks are decoded as they are
//! gathered, see [`super::transfer`]).

use std::fmt;

/// What the command does (`a`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Action {
    /// `t`: store the picture.
    #[default]
    Transmit,
    /// `T`: store it and place it at the cursor.
    TransmitAndPlace,
    /// `q`: load it and say whether that worked, keeping nothing.
    Query,
    /// `p`: place a picture stored before.
    Place,
    /// `d`: delete placements (and maybe pictures).
    Delete,
    /// `f`, `a`, `c`: animation frames, control and composition.
    Animation(u8),
}

/// The pixel format (`f`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// `24`: three bytes per pixel.
    Rgb,
    /// `32`: four bytes per pixel.
    #[default]
    Rgba,
    /// `100`: a PNG file.
    Png,
}

/// Where the data is (`t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Medium {
    /// `d`: in the payload.
    #[default]
    Direct,
    /// `f`: the payload names a file.
    File,
    /// `t`: the payload names a temporary file, deleted after reading.
    TempFile,
    /// `s`: the payload names a POSIX shared memory object.
    SharedMemory,
}

/// What a delete removes (`d`): the letter, lowercase or not. The
/// uppercase forms also free the pictures left without placements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delete {
    pub what: u8,
    pub free: bool,
}

impl Default for Delete {
    fn default() -> Self {
        Delete {
            what: b'a',
            free: false,
        }
    }
}

/// A command's control keys. Numbers kitty leaves out are 0.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Command {
    pub action: Action,
    /// `q`: 1 leaves out OK replies, 2 every reply.
    pub quiet: u8,
    pub format: Format,
    pub medium: Medium,
    /// `s`, `v`: the size of RGB or RGBA data, in pixels.
    pub data_width: u32,
    pub data_height: u32,
    /// `S`, `O`: how much to read from a file and from where; `S` is also
    /// the size of compressed PNG data.
    pub data_size: u32,
    pub data_offset: u32,
    /// `i`: the program's id for the picture.
    pub image_id: u32,
    /// `I`: a number naming the newest picture given it.
    pub image_number: u32,
    /// `p`: the program's id for a placement of the picture.
    pub placement_id: u32,
    /// `o=z`: the data is zlib-compressed.
    pub compressed: bool,
    /// `m=1`: more chunks follow.
    pub more: bool,
    /// `x`, `y`, `w`, `h`: the part of the picture shown, in pixels (0
    /// width or height: all of it). For deletes, `x` and `y` are a cell.
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
    /// `X`, `Y`: where in the first cell the picture starts, in pixels.
    pub cell_x: u32,
    pub cell_y: u32,
    /// `c`, `r`: the cells the picture is shown over (0: from its size).
    pub cols: u32,
    pub rows: u32,
    /// `C=1`: the cursor stays where it is.
    pub cursor_stays: bool,
    /// `U=1`: a virtual placement for Unicode placeholders.
    pub virtual_placement: bool,
    /// `z`: the stacking order; below 0 is under the text.
    pub z: i32,
    /// `P`, `Q`: a placement relative to another one.
    pub parent_image: u32,
    pub parent_placement: u32,
    pub delete: Delete,
    /// The keys given, as their letters (continuation chunks may give only
    /// `m` and `q`).
    pub keys: Vec<u8>,
}

/// Why control data could not be read: kitty answers these with `EINVAL`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EINVAL:{}", self.0)
    }
}

impl std::error::Error for ParseError {}

/// The longest control data read; real commands use a few dozen bytes.
pub const MAX_CONTROL: usize = 1024;

/// An APC body split into its control data and its payload (still base64).
/// `None` when the APC is not a graphics command (no leading `G`).
pub fn split_body(body: &[u8]) -> Option<(&[u8], &[u8])> {
    let rest = body.strip_prefix(b"G")?;
    Some(match memchr::memchr(b';', rest) {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, &[][..]),
    })
}

impl Command {
    /// Reads comma-separated `key=value` pairs. Keys tilework does not know
    /// are skipped, as a newer program's extra hints should be; a value that
    /// is not of its key's kind refuses the command.
    pub fn parse(control: &[u8]) -> Result<Command, ParseError> {
        if control.len() > MAX_CONTROL {
            return Err(ParseError("control data too long".into()));
        }
        let mut cmd = Command::default();
        for pair in control.split(|&b| b == b',') {
            if pair.is_empty() {
                // Leading, trailing or doubled commas: kitty leaves these
                // to the terminal; skipping them is the kind reading.
                continue;
            }
            let (&key, value) = match pair {
                [key, b'=', value @ ..] => (key, value),
                _ => return Err(ParseError(format!("malformed key {:?}", lossy(pair)))),
            };
            cmd.set(key, value)?;
            cmd.keys.push(key);
        }
        Ok(cmd)
    }

    fn set(&mut self, key: u8, value: &[u8]) -> Result<(), ParseError> {
        match key {
            b'a' => {
                self.action = match letter(key, value)? {
                    b't' => Action::Transmit,
                    b'T' => Action::TransmitAndPlace,
                    b'q' => Action::Query,
                    b'p' => Action::Place,
                    b'd' => Action::Delete,
                    other @ (b'f' | b'a' | b'c') => Action::Animation(other),
                    other => return Err(bad(key, &[other])),
                }
            }
            b'f' => {
                self.format = match unsigned(key, value)? {
                    24 => Format::Rgb,
                    32 => Format::Rgba,
                    100 => Format::Png,
                    _ => return Err(bad(key, value)),
                }
            }
            b't' => {
                self.medium = match letter(key, value)? {
                    b'd' => Medium::Direct,
                    b'f' => Medium::File,
                    b't' => Medium::TempFile,
                    b's' => Medium::SharedMemory,
                    other => return Err(bad(key, &[other])),
                }
            }
            b'o' => {
                self.compressed = match letter(key, value)? {
                    b'z' => true,
                    other => return Err(bad(key, &[other])),
                }
            }
            b'd' => {
                let what = letter(key, value)?;
                if !b"aAcCfFiInNpPqQrRxXyYzZ".contains(&what) {
                    return Err(bad(key, &[what]));
                }
                self.delete = Delete {
                    what: what.to_ascii_lowercase(),
                    free: what.is_ascii_uppercase(),
                };
            }
            b'q' => self.quiet = unsigned(key, value)?.min(2) as u8,
            b'm' => self.more = unsigned(key, value)? == 1,
            b'C' => self.cursor_stays = unsigned(key, value)? == 1,
            b'U' => self.virtual_placement = unsigned(key, value)? == 1,
            b'z' => self.z = signed(key, value)?,
            b'H' | b'V' => {
                signed(key, value)?;
            }
            _ => {
                let Some(field) = self.number(key) else {
                    return Ok(());
                };
                *field = unsigned(key, value)?;
            }
        }
        Ok(())
    }

    /// The unsigned field a key sets.
    fn number(&mut self, key: u8) -> Option<&mut u32> {
        Some(match key {
            b's' => &mut self.data_width,
            b'v' => &mut self.data_height,
            b'S' => &mut self.data_size,
            b'O' => &mut self.data_offset,
            b'i' => &mut self.image_id,
            b'I' => &mut self.image_number,
            b'p' => &mut self.placement_id,
            b'x' => &mut self.x,
            b'y' => &mut self.y,
            b'w' => &mut self.w,
            b'h' => &mut self.h,
            b'X' => &mut self.cell_x,
            b'Y' => &mut self.cell_y,
            b'c' => &mut self.cols,
            b'r' => &mut self.rows,
            b'P' => &mut self.parent_image,
            b'Q' => &mut self.parent_placement,
            // `N` (usage hints) is read and has no effect here.
            b'N' => return None,
            _ => return None,
        })
    }

    /// Whether the command gives this key.
    pub fn has(&self, key: u8) -> bool {
        self.keys.contains(&key)
    }

    /// Whether it stores or shows data it carries (and so may come in
    /// chunks).
    pub fn transmits(&self) -> bool {
        matches!(
            self.action,
            Action::Transmit | Action::TransmitAndPlace | Action::Query | Action::Animation(b'f')
        )
    }
}

fn letter(key: u8, value: &[u8]) -> Result<u8, ParseError> {
    match value {
        [one] => Ok(*one),
        _ => Err(bad(key, value)),
    }
}

fn unsigned(key: u8, value: &[u8]) -> Result<u32, ParseError> {
    std::str::from_utf8(value)
        .ok()
        .filter(|s| s.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad(key, value))
}

fn signed(key: u8, value: &[u8]) -> Result<i32, ParseError> {
    std::str::from_utf8(value)
        .ok()
        .filter(|s| !s.starts_with('+'))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad(key, value))
}

fn bad(key: u8, value: &[u8]) -> ParseError {
    ParseError(format!(
        "bad value {:?} for key {}",
        lossy(value),
        char::from(key)
    ))
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(32)]).into_owned()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn keys_left_out_take_kittys_defaults() {
        let cmd = Command::parse(b"").unwrap();
        assert_eq!(cmd.action, Action::Transmit);
        assert_eq!(cmd.format, Format::Rgba);
        assert_eq!(cmd.medium, Medium::Direct);
        assert_eq!(cmd.delete, Delete::default());
        assert!(!cmd.more && !cmd.compressed);
    }

    #[test]
    fn every_key_a_program_sends_is_read() {
        let cmd = Command::parse(
            b"a=T,f=100,t=f,s=10,v=20,S=3,O=4,i=7,p=9,o=z,m=1,x=1,y=2,w=3,h=4,X=5,Y=6,c=8,r=9,C=1,z=-5,q=2,N=1",
        )
        .unwrap();
        assert_eq!(cmd.action, Action::TransmitAndPlace);
        assert_eq!(cmd.format, Format::Png);
        assert_eq!(cmd.medium, Medium::File);
        assert_eq!((cmd.data_width, cmd.data_height), (10, 20));
        assert_eq!((cmd.data_size, cmd.data_offset), (3, 4));
        assert_eq!((cmd.image_id, cmd.placement_id), (7, 9));
        assert!(cmd.compressed && cmd.more && cmd.cursor_stays);
        assert_eq!((cmd.x, cmd.y, cmd.w, cmd.h), (1, 2, 3, 4));
        assert_eq!((cmd.cell_x, cmd.cell_y, cmd.cols, cmd.rows), (5, 6, 8, 9));
        assert_eq!((cmd.z, cmd.quiet), (-5, 2));
        assert!(cmd.has(b'N') && !cmd.has(b'I'));
    }

    #[test]
    fn deletes_read_their_letter_and_case() {
        let cmd = Command::parse(b"a=d,d=Z,z=-1").unwrap();
        assert_eq!(cmd.action, Action::Delete);
        assert_eq!(
            cmd.delete,
            Delete {
                what: b'z',
                free: true
            }
        );
        assert!(Command::parse(b"a=d,d=k").is_err());
    }

    #[test]
    fn malformed_values_are_refused_and_unknown_keys_skipped() {
        assert!(Command::parse(b"s=ten").is_err());
        assert!(Command::parse(b"s=-1").is_err());
        assert!(Command::parse(b"f=16").is_err());
        assert!(Command::parse(b"a=Tx").is_err());
        assert!(Command::parse(b"i=99999999999").is_err());
        assert!(Command::parse(b"noequals").is_err());
        let cmd = Command::parse(b",W=4,i=3,").unwrap();
        assert_eq!(cmd.image_id, 3);
        assert!(Command::parse(&vec![b'a'; MAX_CONTROL + 1]).is_err());
    }

    #[test]
    fn animation_is_recognised() {
        let cmd = Command::parse(b"a=f,i=1").unwrap();
        assert_eq!(cmd.action, Action::Animation(b'f'));
    }

    #[test]
    fn an_apc_body_splits_at_the_first_semicolon() {
        assert_eq!(
            split_body(b"Ga=q,i=1;AAAA;x"),
            Some((&b"a=q,i=1"[..], &b"AAAA;x"[..]))
        );
        assert_eq!(split_body(b"Ga=d"), Some((&b"a=d"[..], &b""[..])));
        assert_eq!(split_body(b"Xa=d"), None);
    }
}
