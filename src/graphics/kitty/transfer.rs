//! Gathering a transmission's chunks (`m=1` … `m=0`): each chunk's base64
//! is decoded as it comes, so at most three characters wait between
//! chunks, and the whole is bounded before anything is kept.

use base64::Engine as _;
use base64::engine::DecodePaddingMode;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};

use super::command::Command;
use super::reply::KittyError;

/// The most data one transmission may carry after base64 (and, for files,
/// the most read): a picture this large would fill the default image
/// budget alone.
pub const MAX_DATA: usize = 64 * 1024 * 1024;

/// Base64 as kitty reads it: the bits after the data's last byte need not
/// be zero (`chafa -f kitty` 1.12 leaves them set at the end of about one
/// chunk in four; a strict decoder refused the picture).
const KITTY: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_allow_trailing_bits(true),
);

/// As [`KITTY`], and padding may be there or not: the last chunk of a
/// stream cut anywhere.
const LENIENT: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_allow_trailing_bits(true)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// A transmission whose chunks are still arriving: the first chunk's
/// command, and the data so far.
#[derive(Debug)]
pub struct Transfer {
    pub command: Command,
    data: Vec<u8>,
    /// Base64 characters not yet a whole group of four.
    carry: Vec<u8>,
}

impl Transfer {
    pub fn new(command: Command) -> Self {
        Transfer {
            command,
            data: Vec::new(),
            carry: Vec::new(),
        }
    }

    /// Adds one chunk's payload. Whitespace is skipped (some programs wrap
    /// their base64).
    pub fn push(&mut self, payload: &[u8]) -> Result<(), KittyError> {
        let mut text = std::mem::take(&mut self.carry);
        text.extend(payload.iter().filter(|b| !b.is_ascii_whitespace()));
        let whole = text.len() - text.len() % 4;
        // Padding can only end the data; a chunk cut after it is the end.
        let decoded_len = whole / 4 * 3;
        if self.data.len().saturating_add(decoded_len) > MAX_DATA + 3 {
            return Err(too_big());
        }
        KITTY
            .decode_vec(&text[..whole], &mut self.data)
            .map_err(|e| KittyError::invalid(format!("bad base64 data: {e}")))?;
        if self.data.len() > MAX_DATA {
            return Err(too_big());
        }
        self.carry = text[whole..].to_vec();
        Ok(())
    }

    /// The data once the last chunk is in.
    pub fn finish(mut self) -> Result<(Command, Vec<u8>), KittyError> {
        if !self.carry.is_empty() {
            LENIENT
                .decode_vec(&self.carry, &mut self.data)
                .map_err(|e| KittyError::invalid(format!("bad base64 data: {e}")))?;
        }
        Ok((self.command, self.data))
    }

    /// Bytes held so far.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

fn too_big() -> KittyError {
    KittyError::new(
        "EFBIG",
        format!("the data is over tilework's {MAX_DATA} byte limit"),
    )
}

/// The payload of a command that fits in one chunk, decoded.
pub fn decode_whole(command: Command, payload: &[u8]) -> Result<(Command, Vec<u8>), KittyError> {
    let mut transfer = Transfer::new(command);
    transfer.push(payload)?;
    transfer.finish()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use base64::engine::general_purpose;

    fn b64(bytes: &[u8]) -> Vec<u8> {
        general_purpose::STANDARD.encode(bytes).into_bytes()
    }

    #[test]
    fn chunks_cut_anywhere_come_together() {
        let data: Vec<u8> = (0..=255).collect();
        let text = b64(&data);
        for cut in [1, 3, 4, 5, 100, 341] {
            let mut t = Transfer::new(Command::default());
            for chunk in text.chunks(cut) {
                t.push(chunk).unwrap();
            }
            assert_eq!(t.finish().unwrap().1, data, "chunks of {cut}");
        }
    }

    #[test]
    fn unpadded_and_wrapped_base64_is_read() {
        let (_, data) = decode_whole(Command::default(), b"AQID\nBA").unwrap();
        assert_eq!(data, [1, 2, 3, 4]);
    }

    /// `AR==` and `AQN=` end in set bits past the data (`AQ==`, `AQI=`
    /// without them); kitty reads them, as chafa 1.12 writes them.
    #[test]
    fn set_bits_after_the_last_byte_are_read_as_kitty_reads_them() {
        for (chunks, data) in [
            (&[&b"AR=="[..]][..], &[1u8][..]),
            (&[b"AQN=", b"AQID"], &[1, 3, 1, 2, 3]),
            (&[b"AQID", b"AR"], &[1, 2, 3, 1]),
        ] {
            let mut t = Transfer::new(Command::default());
            for chunk in chunks {
                t.push(chunk).unwrap();
            }
            assert_eq!(t.finish().unwrap().1, data, "{chunks:?}");
        }
    }

    #[test]
    fn bad_base64_is_an_einval() {
        let err = decode_whole(Command::default(), b"!!!!").unwrap_err();
        assert_eq!(err.code, "EINVAL");
    }

    #[test]
    fn data_past_the_limit_is_refused_before_it_is_kept() {
        let mut t = Transfer::new(Command::default());
        let chunk = vec![b'A'; 4096];
        let mut refused = false;
        for _ in 0..(MAX_DATA / 3072 + 2) {
            if let Err(e) = t.push(&chunk) {
                assert_eq!(e.code, "EFBIG");
                refused = true;
                break;
            }
        }
        assert!(refused);
        assert!(t.len() <= MAX_DATA);
    }
}
