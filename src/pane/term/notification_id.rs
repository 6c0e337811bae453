//! A kitty notification's id and wish for a click's report, as its
//! program said them (`OSC 99`'s `i=` and `a=`), kept clean: what is
//! sent on under it (`kitty_notify`) carries nothing else.

/// The longest id kept (kitty's ids are short names).
const MAX_ID: usize = 64;

/// What a kitty notification said besides its text: its id and whether
/// its program wants to hear of a click.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KittyId {
    /// Only kitty's id characters (`A-Z a-z 0-9 - _ + .`).
    pub id: String,
    /// `a=report` (among its actions).
    pub report: bool,
}

impl KittyId {
    /// From an `OSC 99`'s metadata (`i=build:a=focus,report:d=0`).
    pub fn read(metadata: &[u8]) -> Self {
        let mut told = Self::default();
        for pair in metadata.split(|&b| b == b':') {
            match pair {
                [b'i', b'=', value @ ..] => told.id = clean_id(value),
                [b'a', b'=', actions @ ..] => {
                    told.report = actions.split(|&b| b == b',').any(|a| a == b"report");
                }
                _ => {}
            }
        }
        told
    }
}

/// `value` if it is a kitty id, else empty.
pub fn clean_id(value: &[u8]) -> String {
    let kept = value.len() <= MAX_ID
        && value
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'+' | b'.'));
    if kept {
        String::from_utf8_lossy(value).into_owned()
    } else {
        String::new()
    }
}
