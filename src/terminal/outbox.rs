//! Side effects on the user's terminal besides the picture: the clipboard
//! (OSC 52), the bell, programs' notifications and the cursor's shape and
//! colour. They are collected between
//! frames and written inside the next frame's synchronized update, so they
//! cost no `write(2)` of their own.

use std::io::{self, Write};

/// The loop's own sequences waiting for one frame, at most.
const MAX_SIGNAL_BYTES: usize = 4096;

/// Notifications passed on with one frame, at most.
const MAX_NOTIFICATIONS: usize = 4;

#[derive(Default)]
pub struct Outbox {
    /// OSC 52 sequences to write: a program's clipboard write the config
    /// allows, then a copy by the user. One of each at most: a later one
    /// replaces an earlier one, as it would on the clipboard anyway, so a
    /// program writing its clipboard in a loop cannot pile up memory.
    from_program: Option<Vec<u8>>,
    from_user: Option<Vec<u8>>,
    bell: bool,
    /// Programs' notifications to pass on (sanitized, see
    /// `pane::term::notifications`), the newest few.
    notifications: Vec<Vec<u8>>,
    /// Sequences of the loop's own for the terminal (a clipboard read the
    /// user allowed, a program's progress), in order; bounded.
    signals: Vec<u8>,
    /// Turn on the kitty keyboard flags tilework wants (a terminal that
    /// speaks the protocol just attached).
    kitty_keyboard: bool,
    /// The cursor shape wanted (DECSCUSR) and the one last written.
    cursor_style: &'static [u8],
    written_cursor_style: &'static [u8],
    /// The cursor colour the focused pane's program set (OSC 12), and the
    /// one last written (`None`: the terminal's own).
    cursor_colour: Option<(u8, u8, u8)>,
    written_cursor_colour: Option<(u8, u8, u8)>,
    /// The terminal's title wanted (`set_titles`) and the one last written.
    title: Option<String>,
    written_title: Option<String>,
}

impl Outbox {
    /// A whole OSC 52 sequence (see `clipboard::osc52`).
    pub fn set_clipboard(&mut self, osc52: Vec<u8>) {
        self.from_user = Some(osc52);
    }

    /// A program's OSC 52 write: its base64 payload, already validated.
    pub fn set_clipboard_from_program(&mut self, base64: &[u8]) {
        let mut osc52 = Vec::with_capacity(base64.len() + 8);
        osc52.extend_from_slice(b"\x1b]52;c;");
        osc52.extend_from_slice(base64);
        osc52.push(b'\x07');
        self.from_program = Some(osc52);
    }

    /// A whole sequence for the terminal (see `app::signals_from_programs`);
    /// dropped if [`MAX_SIGNAL_BYTES`] are already waiting.
    pub fn signal(&mut self, sequence: &[u8]) {
        if self.signals.len() + sequence.len() <= MAX_SIGNAL_BYTES {
            self.signals.extend_from_slice(sequence);
        }
    }

    pub fn ring_bell(&mut self) {
        self.bell = true;
    }

    /// A program's notification, written anew from its sanitized text. A
    /// program sending them in a loop passes on the newest few per frame.
    pub fn notify(&mut self, sequence: Vec<u8>) {
        if self.notifications.len() >= MAX_NOTIFICATIONS {
            self.notifications.remove(0);
        }
        self.notifications.push(sequence);
    }

    /// With the next frame, turn on the kitty keyboard flags tilework wants
    /// (see `outer_terminal::push_kitty_flags`).
    pub fn push_kitty_keyboard(&mut self) {
        self.kitty_keyboard = true;
    }

    /// Another terminal is attached (or the same one again, reset by the
    /// detach): nothing written to the last one is there.
    pub fn terminal_changed(&mut self) {
        self.written_cursor_style = b"";
        self.written_cursor_colour = None;
        self.written_title = None;
        self.kitty_keyboard = false;
    }

    /// The cursor shape the focused pane asks for; written only when it
    /// differs from the last one written.
    pub fn cursor_style(&mut self, sequence: &'static [u8]) {
        self.cursor_style = sequence;
    }

    /// The cursor colour the focused pane's program set, if any; written
    /// (or reset, OSC 112) only when it differs from the last one written.
    pub fn cursor_colour(&mut self, colour: Option<(u8, u8, u8)>) {
        self.cursor_colour = colour;
    }

    /// The terminal's title (sanitized; `None`: left alone); written only
    /// when it differs from the last one written.
    pub fn title(&mut self, title: Option<String>) {
        self.title = title;
    }

    /// Writes and forgets everything pending.
    pub fn write_to(&mut self, out: &mut impl Write) -> io::Result<()> {
        if std::mem::take(&mut self.kitty_keyboard) {
            crate::terminal::outer_terminal::push_kitty_flags(out)?;
        }
        if self.cursor_style != self.written_cursor_style {
            out.write_all(self.cursor_style)?;
            self.written_cursor_style = self.cursor_style;
        }
        if self.cursor_colour != self.written_cursor_colour {
            match self.cursor_colour {
                Some((r, g, b)) => write!(out, "\x1b]12;#{r:02x}{g:02x}{b:02x}\x07")?,
                None => out.write_all(b"\x1b]112\x07")?,
            }
            self.written_cursor_colour = self.cursor_colour;
        }
        if self.title.is_some() && self.title != self.written_title {
            let title = self.title.clone().unwrap_or_default();
            // Sanitized by whoever made it: no control character ends
            // the sequence early.
            write!(out, "\x1b]2;{title}\x07")?;
            self.written_title = Some(title);
        }
        for osc52 in [self.from_program.take(), self.from_user.take()]
            .into_iter()
            .flatten()
        {
            out.write_all(&osc52)?;
        }
        for notification in self.notifications.drain(..) {
            out.write_all(&notification)?;
        }
        if !self.signals.is_empty() {
            out.write_all(&self.signals)?;
            self.signals.clear();
        }
        if std::mem::take(&mut self.bell) {
            out.write_all(b"\x07")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(outbox: &mut Outbox) -> Vec<u8> {
        let mut out = Vec::new();
        outbox.write_to(&mut out).expect("writing to a Vec");
        out
    }

    #[test]
    fn nothing_pending_writes_nothing() {
        assert_eq!(written(&mut Outbox::default()), b"");
    }

    #[test]
    fn each_effect_is_written_once_in_order() {
        let mut outbox = Outbox::default();
        outbox.cursor_style(b"\x1b[5 q");
        outbox.set_clipboard_from_program(b"aGk=");
        outbox.set_clipboard(b"\x1b]52;c;eW8=\x07".to_vec());
        outbox.ring_bell();
        assert_eq!(
            written(&mut outbox),
            b"\x1b[5 q\x1b]52;c;aGk=\x07\x1b]52;c;eW8=\x07\x07"
        );
        assert_eq!(written(&mut outbox), b"");
    }

    #[test]
    fn a_flood_of_notifications_passes_on_the_newest_few() {
        let mut outbox = Outbox::default();
        for i in 0..10 {
            outbox.notify(format!("<{i}>").into_bytes());
        }
        assert_eq!(written(&mut outbox), b"<6><7><8><9>");
        assert_eq!(written(&mut outbox), b"");
    }

    #[test]
    fn the_cursor_colour_is_written_when_it_changes_and_reset_after() {
        let mut outbox = Outbox::default();
        outbox.cursor_colour(None);
        assert_eq!(written(&mut outbox), b"");
        outbox.cursor_colour(Some((255, 0, 16)));
        assert_eq!(written(&mut outbox), b"\x1b]12;#ff0010\x07");
        assert_eq!(written(&mut outbox), b"");
        outbox.cursor_colour(None);
        assert_eq!(written(&mut outbox), b"\x1b]112\x07");
    }

    #[test]
    fn the_kitty_flags_are_pushed_once_per_attach() {
        let mut outbox = Outbox::default();
        outbox.push_kitty_keyboard();
        assert_eq!(written(&mut outbox), b"\x1b[>1u");
        assert_eq!(written(&mut outbox), b"");
        outbox.push_kitty_keyboard();
        assert_eq!(written(&mut outbox), b"\x1b[>1u");
    }

    #[test]
    fn a_later_clipboard_write_replaces_an_earlier_one() {
        let mut outbox = Outbox::default();
        outbox.set_clipboard_from_program(b"MQ==");
        outbox.set_clipboard_from_program(b"Mg==");
        assert_eq!(written(&mut outbox), b"\x1b]52;c;Mg==\x07");
    }

    #[test]
    fn the_title_is_written_when_it_changes_and_again_after_an_attach() {
        let mut outbox = Outbox::default();
        outbox.title(Some("work:1".into()));
        assert_eq!(written(&mut outbox), b"\x1b]2;work:1\x07");
        assert_eq!(written(&mut outbox), b"");
        outbox.terminal_changed();
        assert_eq!(written(&mut outbox), b"\x1b]2;work:1\x07");
        outbox.title(None);
        assert_eq!(written(&mut outbox), b"");
    }

    #[test]
    fn the_cursor_shape_is_written_only_when_it_changes() {
        let mut outbox = Outbox::default();
        outbox.cursor_style(b"\x1b[2 q");
        assert_eq!(written(&mut outbox), b"\x1b[2 q");
        outbox.cursor_style(b"\x1b[2 q");
        assert_eq!(written(&mut outbox), b"");
        outbox.cursor_style(b"\x1b[0 q");
        assert_eq!(written(&mut outbox), b"\x1b[0 q");
    }
}
