//! A window of history whose output was printed at other sizes than the
//! pane's now, replayed as a terminal that reflows its grid shows it, and
//! as the live screen is reflowed (see `reflow`): each stretch of output
//! at the size it was printed at, its lines rewrapped where the size
//! changed. Replaying it all at the size now instead put a copy of every
//! in-place redraw (a `\r` progress bar, a right prompt) wherever the new
//! width moved it: ~20 rows of `downloading [` in copy mode (issue 30).
//!
//! A replay parser of each stretch's size keeps only the rows a rewrap can
//! still pull back onto its screen (`reflow::kept_rows`); rows that leave
//! them are final, and the parser hands each one over as it goes
//! ([`RowStream`]), as text that the window's own parser, of the pane's
//! size and with the window's scrollback, reads and so wraps at its width.
//! Where the size changed, the replay parser's grid is rewrapped into a
//! fresh one of the next size (`rewrap`); at the end, into the window's
//! parser, after the rows streamed. Each row is thus streamed once and
//! rewrapped at most a few times, so a window costs about twice its plain
//! replay, however many sizes it went through.
//!
//! Anchors found while a stretch is replayed name rows of its replay
//! parser; they are carried to the row their line begins on in the next
//! parser, or in the window's parser when their row is streamed.

use crate::pane::term::replay::{BasicFormattedCaptureState, ReplayParser, RowContents};

use super::{Mark, ReplayRequest, RowsDropped, Window, new_parser, size};
use crate::diag::panic_guard::contain;
use crate::pane::history::reflow::kept_rows;
use crate::pane::term::parse_guard::{self, ParserPanicked};
use crate::pane::term::rewrap::{self, Continuing, LaidOut};

/// Rows a rewrap keeps: all of them (the replay parser streams what it
/// cannot hold).
const ALL_ROWS: usize = usize::MAX / 4;

/// Rows a replay parser let go above what it keeps, as the parser's "basic
/// formatted" text (text and SGR, a newline where a line ends), not yet
/// read by the window's parser.
#[derive(Debug, Default)]
pub struct RowStream {
    text: String,
    /// The looks and line end of the last row written.
    state: BasicFormattedCaptureState,
    /// The replay parser's number of the row `row_starts[0]` begins.
    first_row: usize,
    /// Where each row's text begins in `text`.
    row_starts: Vec<usize>,
}

impl RowStream {
    /// Row number `index` of the replay parser leaves it.
    pub fn push(&mut self, row: &RowContents<'_>, index: usize) {
        if self.row_starts.is_empty() {
            self.first_row = index;
        }
        let before = self.text.len();
        // Writing to a String cannot fail.
        let _ = row.write_formatted_basic(&mut self.text, &mut self.state);
        let newline = self.text.as_bytes().get(before) == Some(&b'\n');
        self.row_starts.push(before + usize::from(newline));
    }
}

/// Whether the window's output must be replayed at the sizes it was
/// printed at: some of it printed at another size than the view's does
/// more than flow (see [`flows`]).
pub fn needed(req: &ReplayRequest) -> bool {
    let now = (size(req.rows), size(req.cols));
    let end = req.start + req.bytes.len() as u64;
    req.sizes.iter().any(|s| {
        let (from, to) = (s.start.max(req.start), s.end.min(end));
        let bytes = usize::try_from(from - req.start)
            .ok()
            .zip(usize::try_from(to.max(from) - req.start).ok())
            .and_then(|(from, to)| req.bytes.get(from..to));
        from < to && (size(s.rows), size(s.cols)) != now && !bytes.is_some_and(flows)
    })
}

/// Whether `bytes` only flow: text, SGR, OSC strings, BEL and CR LF line
/// ends, nothing that moves the cursor but the text itself. Such output
/// printed at one width and rewrapped at another is what it is printed at
/// the other at once (tmux's reflow keeps each line's text and the
/// cursor's place in its line), so it is replayed at the view's size as a
/// window all printed there is, at half the cost: a log or a build's
/// output. A `\r` redraw, `CSI K`, a cursor move or a tab is not.
fn flows(bytes: &[u8]) -> bool {
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        i += match b {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => 2,
            0x07 | 0x20..=0x7e | 0x80.. => 1,
            0x1b => match bytes.get(i + 1) {
                Some(b'[') => {
                    let rest = bytes.get(i + 2..).unwrap_or_default();
                    match rest.iter().position(|b| (0x40..=0x7e).contains(b)) {
                        Some(at) if rest[at] == b'm' => at + 3,
                        _ => return false,
                    }
                }
                Some(b']') => {
                    let rest = bytes.get(i + 2..).unwrap_or_default();
                    match memchr::memchr2(0x07, 0x1b, rest) {
                        Some(at) if rest[at] == 0x07 => at + 3,
                        Some(at) if rest.get(at + 1) == Some(&b'\\') => at + 4,
                        _ => return false,
                    }
                }
                _ => return false,
            },
            _ => return false,
        };
    }
    true
}

/// The window's own parser, of the view's size, and the anchors found in
/// it so far.
struct Target {
    parser: ReplayParser<RowsDropped>,
    marks: Vec<Mark>,
}

/// The row a parser's cursor is on, counted from its first row ever
/// (rows it dropped included), as `History::mark_here` counts.
fn cursor_row(parser: &ReplayParser<RowsDropped>) -> usize {
    let screen = parser.screen();
    parser.callbacks().count + screen.scrollback_len() + usize::from(screen.cursor_position().0)
}

/// `bytes` to `parser`; a bare newline (the stream's line end) as CR LF.
fn put(
    parser: &mut ReplayParser<RowsDropped>,
    bytes: &[u8],
    newlines: bool,
) -> Result<(), ParserPanicked> {
    if !newlines || memchr::memchr(b'\n', bytes).is_none() {
        return parse_guard::process(parser, bytes);
    }
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 16);
    for piece in bytes.split_inclusive(|&b| b == b'\n') {
        match piece.strip_suffix(b"\n") {
            Some(line) => {
                out.extend_from_slice(line);
                out.extend_from_slice(b"\r\n");
            }
            None => out.extend_from_slice(piece),
        }
    }
    parse_guard::process(parser, &out)
}

/// Feeds `bytes` to `parser`, noting for each `(pos, offset)` of `at`
/// (offsets in order) an anchor at `pos` on the row the cursor is on once
/// the bytes before `offset` are in.
fn feed_marking(
    parser: &mut ReplayParser<RowsDropped>,
    bytes: &[u8],
    at: &[(u64, usize)],
    marks: &mut Vec<Mark>,
    newlines: bool,
) -> Result<(), ParserPanicked> {
    let mut fed = 0;
    for &(pos, offset) in at {
        let offset = offset.clamp(fed, bytes.len());
        put(parser, &bytes[fed..offset], newlines)?;
        fed = offset;
        marks.push(Mark {
            pos,
            row: cursor_row(parser),
        });
    }
    put(parser, &bytes[fed..], newlines)
}

/// Hands the rows the replay parser let go to the window's parser, with
/// the anchors on them.
fn drain(history: &mut Window, target: &mut Target) -> Result<(), ParserPanicked> {
    let Some(stream) = history.parser.callbacks_mut().stream.as_mut() else {
        return Ok(());
    };
    let streamed_end = stream.first_row + stream.row_starts.len();
    let mut at = Vec::new();
    history.marks.retain(|mark| {
        if mark.row >= streamed_end {
            return true;
        }
        if let Some(&offset) = mark
            .row
            .checked_sub(stream.first_row)
            .and_then(|i| stream.row_starts.get(i))
        {
            at.push((mark.pos, offset));
        }
        false
    });
    at.sort_by_key(|&(_, offset)| offset);
    let text = std::mem::take(&mut stream.text);
    stream.row_starts.clear();
    feed_marking(
        &mut target.parser,
        text.as_bytes(),
        &at,
        &mut target.marks,
        true,
    )
}

/// Where in `laid`'s bytes the line of each anchor's row begins (rows
/// numbered in the replay parser, which had let `dropped` go).
fn line_offsets(marks: &[Mark], dropped: usize, laid: &LaidOut) -> Vec<(u64, usize)> {
    let mut line_of = Vec::with_capacity(laid.wrapped.len());
    let mut line = 0;
    for &wrapped in &laid.wrapped {
        line_of.push(line);
        line += usize::from(!wrapped);
    }
    let mut at: Vec<(u64, usize)> = marks
        .iter()
        .filter_map(|mark| {
            let line = *line_of.get(mark.row.checked_sub(dropped)?)?;
            Some((mark.pos, *laid.line_starts.get(line)?))
        })
        .collect();
    at.sort_by_key(|&(_, offset)| offset);
    at
}

/// The replay parser's height as the parser changes it, what that pushes above
/// the rows it keeps handed to the window's parser.
fn change_height(
    history: &mut Window,
    rows: u16,
    target: &mut Target,
) -> Result<(), ParserPanicked> {
    let cols = history.parser.screen().size().1;
    contain(|| history.parser.set_size(size(rows), cols))
        .map_err(|message| ParserPanicked { message })?;
    drain(history, target)
}

/// The replay goes on at `rows` x `cols`: the grid so far rewrapped into
/// a fresh replay parser of that size that keeps `kept` rows.
fn change_size(
    history: &mut Window,
    (rows, cols): (u16, u16),
    kept: usize,
    target: &mut Target,
) -> Result<(), ParserPanicked> {
    let old_rows = history.parser.screen().size().0.get();
    change_height(history, rows, target)?;
    let mut fresh = BasicFormattedCaptureState::new();
    let continuing = Continuing {
        state: &mut fresh,
        cursor_row: 0,
    };
    let laid = rewrap::lay_out(
        &mut history.parser,
        size(rows),
        size(cols),
        ALL_ROWS,
        Some(continuing),
    )?;
    let at = line_offsets(&history.marks, history.dropped(), &laid);
    let mut next = new_parser(rows, cols, kept);
    next.callbacks_mut().stream = history.parser.callbacks_mut().stream.take();
    let mut marks = Vec::new();
    feed_marking(&mut next, laid.bytes.as_bytes(), &at, &mut marks, false)?;
    history.marks = marks;
    history.parser = next;
    history.rep.grid_resized(old_rows, u16::MAX);
    Ok(())
}

/// The replay parser's grid rewrapped into the window's parser, after the
/// rows streamed; the window's parser becomes the history's.
fn finish(mut history: Window, mut target: Target) -> Result<Window, ParserPanicked> {
    let (rows, cols) = target.parser.screen().size();
    let old_rows = history.parser.screen().size().0.get();
    change_height(&mut history, rows.get(), &mut target)?;
    let Some(mut stream) = history.parser.callbacks_mut().stream.take() else {
        return Err(ParserPanicked {
            message: "the replay lost its stream".into(),
        });
    };
    let continuing = Continuing {
        state: &mut stream.state,
        cursor_row: cursor_row(&target.parser),
    };
    let laid = rewrap::lay_out(&mut history.parser, rows, cols, ALL_ROWS, Some(continuing))?;
    let at = line_offsets(&history.marks, history.dropped(), &laid);
    let bytes = laid.bytes.as_bytes();
    feed_marking(&mut target.parser, bytes, &at, &mut target.marks, false)?;
    history.parser = target.parser;
    history.marks = target.marks;
    history.rep.grid_resized(old_rows, u16::MAX);
    Ok(history)
}

/// Replays `req` stretch by stretch at the sizes it was printed at, into
/// a window of the view's size; `None` when the parser failed on the way (the
/// caller replays it all at the view's size instead).
pub fn replay(req: &ReplayRequest) -> Option<Window> {
    let now = (req.rows, req.cols);
    let sizes = req.sizes.iter().map(|s| (s.rows.max(2), s.cols.max(2)));
    let kept = kept_rows(sizes.chain([(now.0.max(2), now.1.max(2))]));
    let first = req.sizes.first().map_or(now, |s| (s.rows, s.cols));
    let mut history = Window::empty(req.start, first, kept, req.reach);
    history.rep.set_pictures(req.pictures.clone());
    history.at_top = req.at_top;
    history.is_tail = req.is_tail;
    history.add_stops(req.stops.iter().copied());
    history.parser.callbacks_mut().stream = Some(Box::default());
    let mut target = Target {
        parser: new_parser(req.rows, req.cols, req.history_rows),
        marks: Vec::new(),
    };
    let end = req.start + req.bytes.len() as u64;
    for stretch in &req.sizes {
        let (from, to) = (stretch.start.max(req.start), stretch.end.min(end));
        if from >= to {
            continue;
        }
        let here = (size(stretch.rows), size(stretch.cols));
        if history.parser.screen().size() != here {
            let wanted = (stretch.rows, stretch.cols);
            change_size(&mut history, wanted, kept, &mut target).ok()?;
        }
        let bytes = req
            .bytes
            .get(usize::try_from(from - req.start).ok()?..usize::try_from(to - req.start).ok()?)?;
        history.feed_tracked(bytes);
        // A parser that failed started over without the stream.
        history.parser.callbacks().stream.as_ref()?;
        drain(&mut history, &mut target).ok()?;
    }
    let mut history = finish(history, target).ok()?;
    history.history_rows = req.history_rows;
    Some(history)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_colours_and_line_ends_flow_redraws_do_not() {
        assert!(flows(b"a log line\r\n\x1b[1;31merror\x1b[m: x\r\n\x07"));
        assert!(flows(
            "\x1b]7;file://h/tmp\x07\x1b]8;;u\x1b\\link\r\nwide \u{4e16}".as_bytes()
        ));
        for redraw in [
            &b"50%\r60%"[..],
            b"line\x1b[K",
            b"% \x1b[20Cright\x1b[25D",
            b"a\tb",
            b"bare\nfeed",
            b"cut at the end\r",
            b"\x1b[?25l",
            b"\x1b]0;title",
        ] {
            assert!(!flows(redraw), "{redraw:?}");
        }
    }
}
