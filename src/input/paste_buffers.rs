//! tilework's paste buffers (tmux's): the last [`MAX_BUFFERS`] copies,
//! newest first. `C-b ]` pastes the newest; `C-b =` opens a chooser over
//! them (`popups::buffer_chooser`); `tilework buffers` lists them.
//!
//! As in tmux, the copies are the workspace's: every attached terminal
//! pastes what any of them copied (each router holds the same
//! [`SharedCopies`]); only the chooser is a terminal's own.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

/// How many copies are kept.
pub const MAX_BUFFERS: usize = 10;

/// The copies themselves, one list for the whole workspace.
#[derive(Debug, Default, Clone)]
pub struct SharedCopies(Arc<Mutex<VecDeque<String>>>);

impl SharedCopies {
    fn list(&self) -> MutexGuard<'_, VecDeque<String>> {
        // Only the loop's thread takes it, and no step under it can panic
        // half-way; a poisoned list is still a whole list.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The copies kept.
#[derive(Debug, Default)]
pub struct PasteBuffers {
    copies: SharedCopies,
}

impl PasteBuffers {
    /// Buffers over `copies`, kept with other terminals'.
    pub fn sharing(copies: SharedCopies) -> Self {
        Self { copies }
    }

    /// Keeps `text` as the newest; the oldest beyond [`MAX_BUFFERS`] goes.
    /// The same text copied again moves to the front instead of taking a
    /// second place.
    pub fn push(&mut self, text: &str) {
        let mut list = self.copies.list();
        list.retain(|kept| kept != text);
        list.push_front(text.to_string());
        list.truncate(MAX_BUFFERS);
    }

    /// Adds `text` to the end of the newest copy (a copy of its own when
    /// there is none); returns the whole copy.
    pub fn append_to_newest(&mut self, text: &str) -> String {
        let mut list = self.copies.list();
        let mut whole = list.pop_front().unwrap_or_default();
        whole.push_str(text);
        list.retain(|kept| *kept != whole);
        list.push_front(whole.clone());
        whole
    }

    /// The newest copy.
    pub fn newest(&self) -> Option<String> {
        self.get(0)
    }

    /// Copy `index` (0: the newest).
    pub fn get(&self, index: usize) -> Option<String> {
        self.copies.list().get(index).cloned()
    }

    /// Every copy, newest first.
    pub fn all(&self) -> Vec<String> {
        self.copies.list().iter().cloned().collect()
    }

    pub fn len(&self) -> usize {
        self.copies.list().len()
    }

    pub fn is_empty(&self) -> bool {
        self.copies.list().is_empty()
    }
}

/// One line about a buffer, for the chooser and `tilework buffers`: its
/// size and its start, control characters shown as `^X` and line breaks
/// as `⏎`, cut to `width` characters.
pub fn preview(text: &str, width: usize) -> String {
    let mut out = format!("{} chars: ", text.chars().count());
    for c in text.chars() {
        if out.chars().count() >= width {
            out.push('…');
            break;
        }
        match c {
            '\n' => out.push('⏎'),
            c if c.is_control() => {
                out.push('^');
                out.push(char::from_u32(u32::from(c) ^ 0x40).unwrap_or('?'));
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_copies_are_kept_newest_first_and_a_copy_again_moves_up() {
        let mut buffers = PasteBuffers::default();
        for n in 0..12 {
            buffers.push(&format!("copy {n}"));
        }
        assert_eq!(buffers.len(), MAX_BUFFERS);
        assert_eq!(buffers.newest().as_deref(), Some("copy 11"));
        assert_eq!(buffers.get(9).as_deref(), Some("copy 2"));
        buffers.push("copy 5");
        assert_eq!(buffers.newest().as_deref(), Some("copy 5"));
        assert_eq!(buffers.len(), MAX_BUFFERS);
    }

    #[test]
    fn terminals_sharing_copies_paste_each_others() {
        let copies = SharedCopies::default();
        let mut one = PasteBuffers::sharing(copies.clone());
        let two = PasteBuffers::sharing(copies);
        one.push("from one");
        assert_eq!(two.newest().as_deref(), Some("from one"));
    }

    #[test]
    fn a_preview_shows_controls_and_line_breaks_harmlessly() {
        assert_eq!(preview("a\nb\x1b", 40), "4 chars: a⏎b^[");
        assert!(preview(&"x".repeat(100), 20).ends_with('…'));
    }
}
