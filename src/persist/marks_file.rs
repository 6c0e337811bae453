//! A pane's commands (OSC 133 marks, `pane::history::command_marks`) saved beside
//! its history, in a small file of its own, `PREFIX.marks`, replaced whole
//! with each snapshot in which they changed, as `size_file` is. After a
//! crash and `tilework attach`, the restored history has its commands:
//! copy mode jumps between their prompts and `capture --command` finds
//! their output.
//!
//! One checksummed record (`block_file`'s) whose bytes are `TWM1` (the
//! version: a later layout takes another magic, and this one stays
//! readable), the ring's block length (u64 LE), the number of commands
//! (u32 LE), then per command: the positions of its prompt, its prompt's
//! line, its command line, its output, its output's line, its end and its
//! end's line (u64 LE each, `u64::MAX` for none), its status (a byte 0/1 for none/some, i32 LE),
//! its start and finish times (u64 LE milliseconds, `u64::MAX` for none),
//! and its command line as sent (u16 LE length, UTF-8). Positions are the
//! saving ring's, as in `size_file`. A damaged file is the same as none.

use std::path::Path;

use crate::pane::history::command_marks::{Command, MAX_COMMANDS};
use crate::persist::block_file;
use crate::persist::dirs;

const MAGIC: &[u8; 4] = b"TWM1";
const NONE: u64 = u64::MAX;
/// The largest marks file read back: tens of thousands of commands. A
/// larger one is not one tilework wrote (and is not read whole).
const MAX_FILE_BYTES: usize = 8 << 20;

/// The file of the pane whose files start with `prefix`.
pub fn path(dir: &Path, prefix: &str) -> std::path::PathBuf {
    dir.join(format!("{prefix}.marks"))
}

/// The saved commands of a ring of blocks of `block_len` bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedMarks {
    pub block_len: u64,
    pub commands: Vec<Command>,
}

fn put_opt(out: &mut Vec<u8>, v: Option<u64>) {
    out.extend_from_slice(&v.unwrap_or(NONE).to_le_bytes());
}

/// Reads what `encode` wrote, field by field.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn bytes(&mut self, n: usize) -> Option<&[u8]> {
        if self.0.len() < n {
            return None;
        }
        let (now, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(now)
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.bytes(8)?.try_into().ok()?))
    }

    fn opt(&mut self) -> Option<Option<u64>> {
        self.u64().map(|v| (v != NONE).then_some(v))
    }
}

impl SavedMarks {
    pub fn encode(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(16 + self.commands.len() * 80);
        payload.extend_from_slice(MAGIC);
        payload.extend_from_slice(&self.block_len.to_le_bytes());
        let count = u32::try_from(self.commands.len()).unwrap_or(u32::MAX);
        payload.extend_from_slice(&count.to_le_bytes());
        for c in self.commands.iter().take(count as usize) {
            payload.extend_from_slice(&c.prompt.to_le_bytes());
            payload.extend_from_slice(&c.prompt_line.to_le_bytes());
            put_opt(&mut payload, c.input);
            put_opt(&mut payload, c.output);
            put_opt(&mut payload, c.output_line);
            put_opt(&mut payload, c.end);
            put_opt(&mut payload, c.end_line);
            payload.push(u8::from(c.status.is_some()));
            payload.extend_from_slice(&c.status.unwrap_or(0).to_le_bytes());
            put_opt(&mut payload, c.started_ms);
            put_opt(&mut payload, c.finished_ms);
            let line = c.command_line.as_deref().unwrap_or_default().as_bytes();
            let len = line.len().min(usize::from(u16::MAX));
            payload.extend_from_slice(&u16::try_from(len).unwrap_or(u16::MAX).to_le_bytes());
            payload.extend_from_slice(&line[..len]);
        }
        let mut out = Vec::new();
        block_file::encode(0, payload.len(), false, &payload, &mut out);
        out
    }

    /// `None` when `bytes` is not a whole, undamaged file of marks.
    pub fn decode(bytes: &[u8]) -> Option<Self> {
        let (records, _) = block_file::decode_all(bytes);
        let payload = records.into_iter().next()?.plain;
        let mut r = Reader(payload.strip_prefix(MAGIC)?);
        let block_len = r.u64()?;
        let count = u32::from_le_bytes(r.bytes(4)?.try_into().ok()?) as usize;
        if count > MAX_COMMANDS {
            return None;
        }
        let mut commands = Vec::with_capacity(count);
        for _ in 0..count {
            let prompt = r.u64()?;
            let prompt_line = r.u64()?;
            let (input, output, output_line) = (r.opt()?, r.opt()?, r.opt()?);
            let (end, end_line) = (r.opt()?, r.opt()?);
            let has_status = r.bytes(1)?[0] == 1;
            let status = i32::from_le_bytes(r.bytes(4)?.try_into().ok()?);
            let (started_ms, finished_ms) = (r.opt()?, r.opt()?);
            let len = usize::from(u16::from_le_bytes(r.bytes(2)?.try_into().ok()?));
            let line = String::from_utf8(r.bytes(len)?.to_vec()).ok()?;
            commands.push(Command {
                prompt,
                prompt_line,
                input,
                output,
                output_line,
                end,
                end_line,
                status: has_status.then_some(status),
                started_ms,
                finished_ms,
                command_line: (!line.is_empty()).then_some(line),
            });
        }
        r.0.is_empty().then_some(Self {
            block_len,
            commands,
        })
    }

    /// The commands of a restored history whose first byte was in block
    /// `first_block` and that holds `len` bytes, in its positions (those
    /// whose prompt is no longer held are left out).
    pub fn restored(&self, first_block: u64, len: u64) -> Vec<Command> {
        let Some(origin) = first_block.checked_mul(self.block_len) else {
            return Vec::new();
        };
        let at = |p: u64| p.checked_sub(origin).filter(|&p| p <= len);
        self.commands
            .iter()
            .filter_map(|c| {
                Some(Command {
                    prompt: at(c.prompt)?,
                    prompt_line: at(c.prompt_line)?,
                    input: c.input.and_then(at),
                    output: c.output.and_then(at),
                    output_line: c.output_line.and_then(at),
                    end: c.end.and_then(at),
                    end_line: c.end_line.and_then(at),
                    ..c.clone()
                })
            })
            .collect()
    }
}

/// Replaces the pane's file of marks.
pub fn write(dir: &Path, prefix: &str, marks: &SavedMarks) -> std::io::Result<()> {
    dirs::write_atomically(&path(dir, prefix), &marks.encode())
}

/// The pane's saved marks, if it has a readable file of them.
pub fn read(dir: &Path, prefix: &str) -> Option<SavedMarks> {
    let path = path(dir, prefix);
    let bytes = dirs::read(&path, MAX_FILE_BYTES).ok()?;
    let marks = SavedMarks::decode(&bytes);
    if marks.is_none() {
        tracing::warn!("{}: damaged; its commands are not restored", path.display());
    }
    marks
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn marks_read_back_moved_to_the_restored_ring_and_a_damaged_file_is_none() {
        let commands = vec![
            Command {
                prompt: 70_000,
                prompt_line: 69_990,
                input: Some(70_010),
                output: Some(70_020),
                output_line: Some(70_019),
                end: Some(70_100),
                end_line: Some(70_100),
                status: Some(1),
                started_ms: Some(5),
                finished_ms: Some(9),
                command_line: Some("false".into()),
            },
            Command {
                prompt: 70_100,
                prompt_line: 70_100,
                ..Command::default()
            },
        ];
        let saved = SavedMarks {
            block_len: 65_536,
            commands,
        };
        let bytes = saved.encode();
        assert_eq!(SavedMarks::decode(&bytes), Some(saved.clone()));
        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        assert_eq!(SavedMarks::decode(&damaged), None);
        let back = saved.restored(1, 10_000);
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].output, Some(70_020 - 65_536));
        assert_eq!(back[0].status, Some(1));
        // A ring restored from a later block no longer holds the first.
        assert_eq!(saved.restored(2, 10_000).len(), 0);
    }
}
