//! What a terminal told about itself when it attached: its colours (a
//! program's OSC 10/11/12 query is answered with them) and whether it
//! speaks the kitty keyboard protocol.
//!
//! They are asked at every attach, by the process that brings the terminal
//! (`tilework` or `tilework attach`, see `session::attach_process`), before it
//! hands the terminal over: that process waits for the answers, the loop
//! never does. A terminal attached later may be another terminal
//! altogether (another emulator, another theme), so nothing learnt from
//! an earlier one is kept.

use crate::config::colour::Rgb;
pub use crate::terminal::outer_terminal::OuterTerminal as TerminalFacts;

/// The colours programs are told: the config's override first, then what
/// the terminal answered.
pub fn answered_colours(configured: [Option<Rgb>; 3], facts: &TerminalFacts) -> [Option<Rgb>; 3] {
    let mut colours = configured;
    for (have, told) in colours.iter_mut().zip(facts.colours) {
        *have = have.or(told);
    }
    colours
}

/// What programs are told of pictures (`graphics::reach`): they reach a
/// user when some attached terminal shows them (a read-only one too); the
/// cell size is the first terminal's that told one, of those that are not
/// read-only (their sizes are not the programs' business).
pub fn picture_reach<'a>(
    attached: impl Iterator<Item = (&'a TerminalFacts, bool)>,
) -> crate::graphics::reach::Reach {
    let mut reach = crate::graphics::reach::Reach::default();
    for (facts, read_only) in attached {
        reach.pictures |= facts.pictures.any();
        if !read_only {
            reach.cell = reach.cell.or(facts.cell);
        }
    }
    reach
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_wins_over_the_terminal_and_the_terminal_fills_the_rest() {
        let facts = TerminalFacts {
            colours: [Some(Rgb(1, 1, 1)), Some(Rgb(2, 2, 2)), None],
            ..TerminalFacts::default()
        };
        assert_eq!(
            answered_colours([None, Some(Rgb(9, 9, 9)), None], &facts),
            [Some(Rgb(1, 1, 1)), Some(Rgb(9, 9, 9)), None]
        );
    }
}
