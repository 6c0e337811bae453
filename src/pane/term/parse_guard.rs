//! Program output reaches a vt100 parser only through [`process`].
//!
//! vt100 0.18.1 panics on some output. For example, a VS16 (U+FE0F) that
//! widens a character in the last column leaves a wide cell with no
//! continuation cell, and later text over that cell unwraps `None`
//! (screen.rs:985). The live parser runs on the render loop, so the panic
//! would end the whole workspace. Here it is caught instead, and the caller
//! must replace the parser: a panic in the middle of an update can leave
//! its grid inconsistent.

use crate::diag::panic_guard::contain;

/// What a pane shows, on a line of its own, where its parser failed and
/// was replaced.
pub const RESET_NOTICE: &[u8] =
    b"\x1b[m\x1b[31mtilework: the terminal parser failed on this output; the screen was reset\x1b[m\r\n";

/// Output that makes a bare vt100 0.18.1 panic at any grid size, for tests:
/// a heart and VS16 in the bottom-right cell (the widened cell wraps and
/// scrolls up with no continuation cell), then text over that cell. The
/// fidelity layer never lets a VS16 reach vt100 (it writes the widened
/// heart as a wide cell of its own, `fidelity::clusters`), so through a
/// pane this no longer panics.
#[doc(hidden)]
pub const VT100_PANIC: &[u8] = "\x1b[999;999H\u{2764}\u{fe0f}\x1b[A\x1b[999Gx".as_bytes();

/// Output on which [`process`] panics, in debug builds only (the ones
/// `cargo test` runs), as vt100 itself panicked on `VT100_PANIC` before
/// the fidelity layer kept that away from it: the containment, the reset
/// and the notice are tested with it. U+10FFFD, the last private-use code
/// point, which no program has a reason to print; a release build parses
/// it as any other character.
#[doc(hidden)]
pub const DEBUG_FAULT: &[u8] = "\u{10FFFD}".as_bytes();

/// The parser panicked while it processed output. Its state can no longer
/// be trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParserPanicked {
    /// The panic message, for the log.
    pub message: String,
}

impl std::fmt::Display for ParserPanicked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the vt100 parser panicked: {}", self.message)
    }
}

/// `parser.process(bytes)`, with a panic caught and reported instead of
/// unwinding into the caller. Nothing is printed to the terminal; the panic
/// hook logs it.
pub fn process<C: vt100::Callbacks>(
    parser: &mut vt100::Parser<C>,
    bytes: &[u8],
) -> Result<(), ParserPanicked> {
    contain(|| {
        if cfg!(debug_assertions) && memchr::memmem::find(bytes, DEBUG_FAULT).is_some() {
            panic!("the debug build's parser fault (U+10FFFD) was printed");
        }
        parser.process(bytes)
    })
    .map_err(|message| ParserPanicked { message })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;

    const CRASH: &[u8] = VT100_PANIC;

    #[test]
    fn a_panic_in_the_parser_is_reported() {
        for (rows, cols) in [(2, 2), (6, 3), (24, 80), (50, 200)] {
            let mut parser = vt100::Parser::new(
                std::num::NonZeroU16::new(rows).unwrap(),
                std::num::NonZeroU16::new(cols).unwrap(),
                0,
            );
            let failed = process(&mut parser, CRASH).unwrap_err();
            assert!(failed.message.contains("unwrap"), "{failed}");
        }
    }

    #[test]
    fn the_debug_fault_panics_in_the_parser_and_is_reported() {
        let mut parser = vt100::Parser::new(
            std::num::NonZeroU16::new(3).unwrap(),
            std::num::NonZeroU16::new(20).unwrap(),
            0,
        );
        let bytes = [b"before ".as_slice(), DEBUG_FAULT, b" after"].concat();
        let failed = process(&mut parser, &bytes).unwrap_err();
        assert!(failed.message.contains("U+10FFFD"), "{failed}");
    }

    #[test]
    fn output_that_parses_is_parsed() {
        let mut parser = vt100::Parser::new(
            std::num::NonZeroU16::new(3).unwrap(),
            std::num::NonZeroU16::new(20).unwrap(),
            0,
        );
        process(&mut parser, b"hello").unwrap();
        assert_eq!(parser.screen().contents(), "hello");
    }
}
