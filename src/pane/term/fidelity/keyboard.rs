//! The kitty keyboard protocol's flag stacks, one per screen.
//!
//! A program asks for richer key reports with `CSI > flags u` (push),
//! gives them back with `CSI < n u` (pop n), changes the top with
//! `CSI = flags ; mode u` and asks what is in force with `CSI ? u`. The
//! main and alternate screens keep separate stacks (the protocol says so:
//! a full-screen program's flags must not outlive it on the main screen).
//! The key encoder reads [`KeyboardFlags::current`] for the pane's screen.

/// Flag bits the protocol defines.
pub const DISAMBIGUATE: u8 = 1;
pub const REPORT_EVENT_TYPES: u8 = 2;
pub const REPORT_ALTERNATE_KEYS: u8 = 4;
pub const REPORT_ALL_KEYS: u8 = 8;
pub const REPORT_TEXT: u8 = 16;
const ALL_FLAGS: u8 = 31;

/// How deep a stack may grow; a deeper push drops the oldest entry (as
/// kitty does), so a program that only pushes cannot grow memory.
const MAX_DEPTH: usize = 16;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyboardFlags {
    stacks: [Vec<u8>; 2],
}

impl KeyboardFlags {
    /// The flags in force on the main or the alternate screen.
    pub fn current(&self, alternate: bool) -> u8 {
        self.stacks[usize::from(alternate)]
            .last()
            .copied()
            .unwrap_or(0)
    }

    pub fn push(&mut self, alternate: bool, flags: u16) {
        let stack = &mut self.stacks[usize::from(alternate)];
        if stack.len() == MAX_DEPTH {
            stack.remove(0);
        }
        stack.push(bits(flags));
    }

    pub fn pop(&mut self, alternate: bool, count: u16) {
        let stack = &mut self.stacks[usize::from(alternate)];
        let keep = stack.len().saturating_sub(usize::from(count.max(1)));
        stack.truncate(keep);
    }

    /// `mode` 1 sets the flags, 2 adds them, 3 takes them away.
    pub fn set(&mut self, alternate: bool, flags: u16, mode: u16) {
        let stack = &mut self.stacks[usize::from(alternate)];
        if stack.is_empty() {
            stack.push(0);
        }
        let flags = bits(flags);
        if let Some(top) = stack.last_mut() {
            *top = match mode {
                2 => *top | flags,
                3 => *top & !flags,
                _ => flags,
            };
        }
    }
}

fn bits(flags: u16) -> u8 {
    u8::try_from(flags & u16::from(ALL_FLAGS)).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushes_pops_and_sets_follow_the_protocol_per_screen() {
        let mut k = KeyboardFlags::default();
        assert_eq!(k.current(false), 0);
        k.push(false, 1);
        k.push(false, 1 | 8);
        assert_eq!(k.current(false), 9);
        assert_eq!(k.current(true), 0, "the alternate screen has its own");
        k.set(false, 2, 2);
        assert_eq!(k.current(false), 11);
        k.set(false, 8, 3);
        assert_eq!(k.current(false), 3);
        k.pop(false, 1);
        assert_eq!(k.current(false), 1);
        k.pop(false, 5);
        assert_eq!(k.current(false), 0);
        k.set(true, 0xff, 1);
        assert_eq!(k.current(true), 31);
    }

    #[test]
    fn endless_pushes_keep_a_bounded_stack() {
        let mut k = KeyboardFlags::default();
        for _ in 0..10_000 {
            k.push(false, 1);
        }
        assert_eq!(k.stacks[0].len(), MAX_DEPTH);
    }
}
