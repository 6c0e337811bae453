//! Sixel: [`decode`] reads what a program in a pane sends (the body of a
//! `DCS P1;P2;P3 q ... ST`, byte by byte as it arrives), [`encode`] writes a
//! picture for a user's terminal that speaks sixel.

pub mod decode;
pub mod encode;
