//! Tilework's own reader of what a terminal sends: bytes in, crossterm
//! [`Event`]s out (the types the rest of tilework handles), one parser per
//! attached terminal. crossterm's reader is one per process and reads only
//! fd 0; this one holds no descriptor and no global state.
//!
//! It reads UTF-8 text and control keys, Alt as an ESC before a key,
//! xterm's cursor and function keys with modifiers (`CSI 1;5A`, `CSI
//! 15;2~`, `ESC O P`), the kitty keyboard protocol (`CSI code;mods:event
//! u`), SGR (and X10) mouse reports, bracketed paste (see [`paste`]) and
//! focus. Answers to tilework's own questions (OSC colours, device
//! attributes, DECRPM, the kitty flags, DCS answers such as XTGETTCAP,
//! kitty graphics answers)
//! never become keys: they go to a side list ([`InputParser::take_replies`]).
//!
//! A sequence cut at the end of a read is held until its rest comes. A
//! lone ESC is the Esc key once [`ESC_WAIT`] passed with nothing after it
//! (tmux's `escape-time`, whose default is 10 ms since tmux 3.5; crossterm
//! decides at once, from what one read holds). A sequence that has begun
//! (`ESC [` and on) and is left unfinished for [`SEQUENCE_WAIT`], or one
//! broken by a byte that cannot be in it, is taken for what the user
//! typed: Alt and its intro key, then its bytes as keys (as tmux does;
//! crossterm waited for ever, so Alt-[ alone stayed unread until the next
//! key). Memory is bounded whatever comes: a
//! sequence longer than any real one is skipped to its end without being
//! kept.
//!
//! The loop feeds each read with when it was read ([`InputParser::feed`]),
//! wakes at [`InputParser::deadline`] and then, when nothing more came,
//! calls [`InputParser::flush`].

pub mod answer;
mod csi;
mod keys;
mod paste;

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent};

pub use answer::Reply;
pub use paste::PASTE_PIECE;

/// How long a lone ESC waits for the rest of a sequence before it is the
/// Esc key.
pub const ESC_WAIT: Duration = Duration::from_millis(10);

/// How long a sequence that has begun (ESC and an intro byte: `[`, `O`,
/// `]`, `P`) may take to arrive whole: its rest may come in another read,
/// later over a slow link. Only Alt-[, Alt-O, Alt-] and Alt-P typed alone
/// wait this long.
pub const SEQUENCE_WAIT: Duration = Duration::from_millis(100);

/// A paste whose end marker does not come while nothing arrives for this
/// long is handed out as it is, and what follows is keys again.
pub const PASTE_IDLE: Duration = Duration::from_secs(3);

/// Longer than any key or mouse sequence (kitty's longest, with alternate
/// keys and text, is about 40 bytes): a longer CSI is skipped.
const MAX_CSI: usize = 64;

/// Longer than any answer tilework asks for (a colour is 24 bytes, a
/// termcap entry a few dozen): a longer OSC or DCS is skipped.
const MAX_STRING: usize = 512;

/// A clipboard's contents (`OSC 52 ; c ; base64`, asked for a program
/// the user let read it) may be as long as a program may write.
const MAX_CLIPBOARD_ANSWER: usize = crate::pane::term::terminal_queries::MAX_CLIPBOARD_BASE64 + 16;

/// How long the string being read may grow.
fn max_string(osc: bool, body: &[u8]) -> usize {
    if osc && body.starts_with(b"52;") {
        MAX_CLIPBOARD_ANSWER
    } else {
        MAX_STRING
    }
}

/// Answers kept for the loop at most (it takes them every turn).
const MAX_REPLIES: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Ground,
    /// `held` is ESC.
    Escape,
    /// A multi-byte character, `left` bytes to come (after an ESC: Alt).
    Char {
        left: u8,
        alt: bool,
    },
    Csi,
    Ss3,
    Osc,
    Dcs,
    /// `ESC _ G`: a kitty graphics answer (one that came after tilework
    /// stopped waiting for it must not be typed into a pane).
    Apc,
    /// An ESC inside an OSC, DCS or APC (`held`): `\` ends it.
    StringEnd,
    /// `CSI M` and three raw bytes.
    X10Mouse,
    /// A CSI too long to be real, skipped to its final byte.
    SkipCsi,
    /// An OSC or DCS too long to be an answer, skipped to its end.
    SkipString,
    SkipStringEnd,
    Paste,
}

/// See the module's doc.
#[derive(Debug)]
pub struct InputParser {
    state: State,
    /// The bytes of the sequence being read (bounded by [`MAX_CSI`] and
    /// [`MAX_STRING`]).
    held: Vec<u8>,
    /// When the sequence being read began.
    since: Instant,
    paste: paste::Paste,
    replies: Vec<Reply>,
}

impl Default for InputParser {
    fn default() -> Self {
        Self::new()
    }
}

fn emit(out: &mut impl Extend<(Instant, Event)>, at: Instant, event: Event) {
    out.extend(Some((at, event)));
}

impl InputParser {
    pub fn new() -> Self {
        let now = Instant::now();
        Self {
            state: State::Ground,
            held: Vec::with_capacity(MAX_CSI),
            since: now,
            paste: paste::Paste::new(now),
            replies: Vec::new(),
        }
    }

    /// Parses `bytes`, read at `now`: the events they complete go to
    /// `out`, in order, stamped `now` (or when their sequence began).
    pub fn feed(&mut self, bytes: &[u8], now: Instant, out: &mut impl Extend<(Instant, Event)>) {
        let mut rest = bytes;
        while !rest.is_empty() {
            if self.state == State::Paste {
                let (used, ended) = self.paste.take(rest, now, out);
                rest = &rest[used..];
                if ended {
                    self.state = State::Ground;
                }
                continue;
            }
            let Some((&byte, tail)) = rest.split_first() else {
                break;
            };
            rest = tail;
            self.step(byte, now, out);
        }
    }

    /// When [`Self::flush`] must be called if nothing more arrives: a lone
    /// ESC, an unfinished sequence or paste is held.
    pub fn deadline(&self) -> Option<Instant> {
        let wait = match self.state {
            State::Ground => return None,
            State::Paste => return Some(self.paste.last + PASTE_IDLE),
            State::Escape => ESC_WAIT,
            // `ESC [` is far more often a key's sequence split between two
            // reads than Alt-[ typed: it waits as long as any sequence.
            _ => SEQUENCE_WAIT,
        };
        Some(self.since + wait)
    }

    /// Resolves what is held once its [`Self::deadline`] has passed (call
    /// it after reading whatever arrived): a lone ESC is the Esc key, an
    /// unfinished sequence the keys the user typed, a paste without its
    /// end what it holds.
    pub fn flush(&mut self, now: Instant, out: &mut impl Extend<(Instant, Event)>) {
        if self.deadline().is_none_or(|d| d > now) {
            return;
        }
        let since = self.since;
        match self.state {
            State::Ground => {}
            State::Escape => emit(out, since, Event::Key(KeyEvent::from(KeyCode::Esc))),
            State::Csi | State::Ss3 | State::Osc | State::Dcs | State::Apc => {
                self.as_keys(since, out);
            }
            State::StringEnd => {
                self.as_keys(since, out);
                emit(out, since, Event::Key(KeyEvent::from(KeyCode::Esc)));
            }
            State::Paste => {
                tracing::warn!("a paste's end did not come: handed out as it is");
                self.paste.finish(now, out);
            }
            State::Char { .. } | State::X10Mouse | State::SkipCsi | State::SkipString => {}
            State::SkipStringEnd => {}
        }
        self.state = State::Ground;
        self.held.clear();
    }

    /// Whether anything is held (a deadline is set).
    pub fn holding(&self) -> bool {
        self.state != State::Ground
    }

    #[cfg(test)]
    fn paste_held(&self) -> usize {
        self.paste.held()
    }

    /// The terminal's answers since the last call, in order.
    pub fn take_replies(&mut self) -> Vec<Reply> {
        std::mem::take(&mut self.replies)
    }

    fn step(&mut self, byte: u8, now: Instant, out: &mut impl Extend<(Instant, Event)>) {
        match self.state {
            State::Ground => self.ground(byte, now, out),
            State::Escape => self.after_escape(byte, now, out),
            State::Char { left, alt } => self.char_byte(byte, left, alt, now, out),
            State::Csi => match byte {
                0x20..=0x3f if self.held.len() >= MAX_CSI => self.skip(State::SkipCsi),
                0x20..=0x3f => self.held.push(byte),
                b'M' if self.held.len() == 2 => {
                    self.held.push(byte);
                    self.state = State::X10Mouse;
                }
                0x40..=0x7e => self.dispatch_csi(byte, now, out),
                _ => self.cut_short(byte, now, out),
            },
            State::Ss3 => match csi::ss3_key(byte) {
                Some(key) => {
                    emit(out, now, Event::Key(key));
                    self.back_to_ground();
                }
                None => self.cut_short(byte, now, out),
            },
            State::Osc | State::Dcs | State::Apc => self.string_byte(byte, now, out),
            State::StringEnd => {
                if byte == b'\\' {
                    self.finish_string();
                } else {
                    // Not a string terminator: what was held was typed,
                    // and this ESC begins something new.
                    self.as_keys(self.since, out);
                    self.begin(State::Escape, 0x1b, now);
                    self.step(byte, now, out);
                }
            }
            State::X10Mouse => {
                self.held.push(byte);
                if let [_, _, _, cb, column, row] = self.held[..] {
                    if let Some(event) = csi::x10_mouse([cb, column, row]) {
                        emit(out, now, event);
                    }
                    self.back_to_ground();
                }
            }
            State::SkipCsi => match byte {
                0x20..=0x3f => {}
                0x40..=0x7e => self.back_to_ground(),
                _ => {
                    self.back_to_ground();
                    self.step(byte, now, out);
                }
            },
            State::SkipString => match byte {
                // BEL ends an OSC; CAN and SUB cancel any string.
                0x07 | 0x18 | 0x1a => self.back_to_ground(),
                0x1b => self.state = State::SkipStringEnd,
                _ => {}
            },
            State::SkipStringEnd => {
                self.back_to_ground();
                if byte != b'\\' {
                    self.begin(State::Escape, 0x1b, now);
                    self.step(byte, now, out);
                }
            }
            // Paste text is taken in `feed`, not byte by byte.
            State::Paste => {}
        }
    }

    fn ground(&mut self, byte: u8, now: Instant, out: &mut impl Extend<(Instant, Event)>) {
        match byte {
            0x1b => self.begin(State::Escape, byte, now),
            0x00..=0x7f => {
                if let Some(key) = keys::from_byte(byte) {
                    emit(out, now, Event::Key(key));
                }
            }
            _ => self.char_start(byte, false, now),
        }
    }

    fn after_escape(&mut self, byte: u8, now: Instant, out: &mut impl Extend<(Instant, Event)>) {
        match byte {
            b'[' => self.intro(State::Csi, byte),
            b'O' => self.intro(State::Ss3, byte),
            b']' => self.intro(State::Osc, byte),
            b'P' => self.intro(State::Dcs, byte),
            b'_' => self.intro(State::Apc, byte),
            0x1b => {
                // Esc, and this ESC may begin a sequence of its own.
                emit(out, self.since, Event::Key(KeyEvent::from(KeyCode::Esc)));
                self.since = now;
            }
            0x00..=0x7f => {
                self.back_to_ground();
                if let Some(key) = keys::from_byte(byte) {
                    emit(out, now, Event::Key(keys::with_alt(key)));
                }
            }
            _ => self.char_start(byte, true, now),
        }
    }

    /// A character's first byte (`alt`: after an ESC).
    fn char_start(&mut self, byte: u8, alt: bool, now: Instant) {
        let left = match byte {
            0xc2..=0xdf => 1,
            0xe0..=0xef => 2,
            0xf0..=0xf4 => 3,
            // Not the first byte of any character: dropped.
            _ => return self.back_to_ground(),
        };
        self.begin(State::Char { left, alt }, byte, now);
    }

    fn char_byte(
        &mut self,
        byte: u8,
        left: u8,
        alt: bool,
        now: Instant,
        out: &mut impl Extend<(Instant, Event)>,
    ) {
        if !(0x80..0xc0).contains(&byte) {
            // The character was cut short: dropped.
            self.back_to_ground();
            return self.step(byte, now, out);
        }
        self.held.push(byte);
        if left > 1 {
            self.state = State::Char {
                left: left - 1,
                alt,
            };
            return;
        }
        // Overlong forms and surrogates fail here and are dropped.
        if let Some(c) = std::str::from_utf8(&self.held)
            .ok()
            .and_then(|s| s.chars().next())
        {
            let key = keys::from_char(c);
            emit(
                out,
                now,
                Event::Key(if alt { keys::with_alt(key) } else { key }),
            );
        }
        self.back_to_ground();
    }

    fn string_byte(&mut self, byte: u8, now: Instant, out: &mut impl Extend<(Instant, Event)>) {
        let osc = self.state == State::Osc;
        let body = &self.held[2..];
        let fits = match self.state {
            State::Osc => answer::fits_osc(body, byte),
            State::Apc => answer::fits_apc(body, byte),
            _ => answer::fits_dcs(body, byte),
        };
        match byte {
            0x07 if osc && !body.is_empty() => self.finish_string(),
            0x1b => self.state = State::StringEnd,
            _ if fits => {
                if self.held.len() >= max_string(osc, body) {
                    self.skip(State::SkipString);
                } else {
                    self.held.push(byte);
                }
            }
            _ => self.cut_short(byte, now, out),
        }
    }

    fn finish_string(&mut self) {
        let body = &self.held[2..];
        let reply = match self.held.get(1) {
            Some(b']') => answer::from_osc(body),
            Some(b'_') => Some(answer::from_apc(body)),
            _ => Some(answer::from_dcs(body)),
        };
        if let Some(reply) = reply {
            self.keep(reply);
        }
        self.back_to_ground();
    }

    fn dispatch_csi(
        &mut self,
        final_byte: u8,
        now: Instant,
        out: &mut impl Extend<(Instant, Event)>,
    ) {
        match csi::meaning(&self.held[2..], final_byte) {
            csi::Meaning::Event(event) => emit(out, now, event),
            csi::Meaning::Reply(reply) => self.keep(reply),
            csi::Meaning::PasteStart => {
                self.held.clear();
                self.paste = paste::Paste::new(now);
                self.state = State::Paste;
                return;
            }
            csi::Meaning::Nothing => tracing::debug!(
                sequence = ?String::from_utf8_lossy(&self.held[1..]),
                final_byte,
                "an escape sequence tilework does not know, dropped"
            ),
        }
        self.back_to_ground();
    }

    fn keep(&mut self, reply: Reply) {
        tracing::debug!(?reply, "the terminal answered");
        if self.replies.len() >= MAX_REPLIES {
            self.replies.remove(0);
        }
        self.replies.push(reply);
    }

    /// A byte that cannot continue the sequence held: the sequence was
    /// typed (see [`Self::as_keys`]), and the byte begins what follows.
    fn cut_short(&mut self, byte: u8, now: Instant, out: &mut impl Extend<(Instant, Event)>) {
        self.as_keys(self.since, out);
        self.step(byte, now, out);
    }

    /// What is held (ESC, an intro byte, and plain bytes after it) as the
    /// keys the user typed: Alt and the intro key, then each byte's key.
    fn as_keys(&mut self, at: Instant, out: &mut impl Extend<(Instant, Event)>) {
        let held = std::mem::take(&mut self.held);
        self.state = State::Ground;
        if let Some(key) = held.get(1).and_then(|&intro| keys::from_byte(intro)) {
            emit(out, at, Event::Key(keys::with_alt(key)));
        }
        for &byte in held.get(2..).unwrap_or_default() {
            // Only bytes a sequence's body may hold are here (printable,
            // never ESC): none begins a sequence.
            self.step(byte, at, out);
        }
        self.held = held;
        self.held.clear();
    }

    fn begin(&mut self, state: State, byte: u8, now: Instant) {
        self.held.clear();
        self.held.push(byte);
        self.since = now;
        self.state = state;
    }

    /// ESC was followed by an intro byte: a sequence begins.
    fn intro(&mut self, state: State, byte: u8) {
        self.held.push(byte);
        self.state = state;
    }

    fn skip(&mut self, state: State) {
        tracing::debug!(?state, "an escape sequence too long to be real, skipped");
        self.held.clear();
        self.state = state;
    }

    fn back_to_ground(&mut self) {
        self.held.clear();
        self.state = State::Ground;
    }
}

#[cfg(test)]
mod parser_tests;
