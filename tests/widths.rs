//! Grapheme clusters (ZWJ sequences, VS15, VS16, skin tones) take the
//! widths Unicode gives the whole cluster, in the pane and on the user's
//! terminal, with the cursor where the program expects it.

mod common;

use common::Tilework;

const FAMILY: &str = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}";
const WATCH_TEXT: &str = "\u{231A}\u{FE0E}";
const HEART_EMOJI: &str = "\u{2764}\u{FE0F}";
const THUMB_TONE: &str = "\u{1F44D}\u{1F3FD}";

/// A `printf` format that prints `text` (octal escapes: the test's shell
/// is dash, whose printf has no `\u`).
fn printf_format(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                char::from(b).to_string()
            } else {
                format!("\\{b:03o}")
            }
        })
        .collect()
}

#[test]
fn clusters_take_their_unicode_widths_and_the_cursor_follows() {
    let mut tw = Tilework::start(&[], 24, 80);
    tw.wait_for_text("$ ");
    // The letters after each cluster sit where its Unicode width puts them:
    // family 2, text-presentation watch 1, emoji heart 2, thumb 2.
    let line = format!("X{FAMILY}Y{WATCH_TEXT}Z{HEART_EMOJI}W{THUMB_TONE}V");
    tw.type_line(&format!("clear; printf '{}'; read x", printf_format(&line)));
    tw.wait_for("the clusters and the letters after them", |s| {
        let Some((row, x)) = find(s, "X") else {
            return false;
        };
        let at = |col: u16| s.cell(row, x + col).map(|c| c.contents().to_string());
        at(3).as_deref() == Some("Y")
            && at(5).as_deref() == Some("Z")
            && at(8).as_deref() == Some("W")
            && at(11).as_deref() == Some("V")
            && at(1).is_some_and(|c| c.starts_with('\u{1F468}'))
            && at(6).is_some_and(|c| c.starts_with('\u{2764}'))
            && at(9).is_some_and(|c| c.starts_with('\u{1F44D}'))
            && s.cursor_position() == (row, x + 12)
    });
    tw.send("\r");
}

#[test]
fn a_vs16_in_the_last_column_wraps_the_emoji_and_the_pane_lives_on() {
    let mut tw = Tilework::start(&[], 24, 80);
    tw.wait_for_text("$ ");
    // A heart made wide in the bottom-right cell, then text over that
    // cell: vt100 alone panics on this, and the pane used to be reset.
    tw.type_line(
        "clear; printf '\\033[999;999H\\342\\235\\244\\357\\270\\217\\033[A\\033[999Gx\\033[Hok!'; read x",
    );
    tw.wait_for("ok, the heart wrapped to the bottom row, x above it", |s| {
        let Some((top, left)) = find(s, "ok!") else {
            return false;
        };
        let heart = (top..s.size().0.get()).find(|&row| {
            s.cell(row, left)
                .is_some_and(|c| c.contents() == "\u{2764}\u{FE0F}")
        });
        heart.is_some_and(|row| find(s, "x\u{2503}").is_some_and(|(x_row, _)| x_row + 1 == row))
    });
    let text = tw.screen_text();
    assert!(
        !text.contains("parser failed"),
        "the pane was reset:\n{text}"
    );
    tw.send("\r");
}

/// Where `needle` starts on the screen: (row, column).
fn find(s: &vt100::Screen, needle: &str) -> Option<(u16, u16)> {
    let (rows, cols) = (s.size().0.get(), s.size().1.get());
    (0..rows).find_map(|row| {
        (0..cols).find_map(|col| {
            let text: String = (col..cols)
                .take(needle.chars().count())
                .map(|c| {
                    s.cell(row, c)
                        .map_or(String::new(), |c| c.contents().to_string())
                })
                .collect();
            (text == needle).then_some((row, col))
        })
    })
}
