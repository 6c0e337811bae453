use super::*;
use crate::config::colour::Rgb;
use ratatui::crossterm::event::{
    KeyEventKind, KeyEventState, KeyModifiers, MediaKeyCode, ModifierKeyCode, MouseButton,
    MouseEvent, MouseEventKind,
};

const NONE: KeyModifiers = KeyModifiers::NONE;
const SHIFT: KeyModifiers = KeyModifiers::SHIFT;
const CTRL: KeyModifiers = KeyModifiers::CONTROL;
const ALT: KeyModifiers = KeyModifiers::ALT;

fn k(code: KeyCode, mods: KeyModifiers) -> Event {
    Event::Key(KeyEvent::new(code, mods))
}

fn c(ch: char, mods: KeyModifiers) -> Event {
    k(KeyCode::Char(ch), mods)
}

fn kind(code: KeyCode, mods: KeyModifiers, kind: KeyEventKind) -> Event {
    Event::Key(KeyEvent::new_with_kind(code, mods, kind))
}

fn mouse(kind: MouseEventKind, column: u16, row: u16, modifiers: KeyModifiers) -> Event {
    Event::Mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers,
    })
}

/// Feeds `reads` one after the other at the same instant, then lets
/// every wait pass.
fn parse_reads(reads: &[&[u8]]) -> (Vec<Event>, Vec<Reply>) {
    let mut parser = InputParser::new();
    let t0 = Instant::now();
    let mut out = Vec::new();
    for read in reads {
        parser.feed(read, t0, &mut out);
    }
    parser.flush(t0 + Duration::from_secs(3600), &mut out);
    assert!(!parser.holding());
    let events = out.into_iter().map(|(_, e)| e).collect();
    (events, parser.take_replies())
}

fn parse(bytes: &[u8]) -> Vec<Event> {
    parse_reads(&[bytes]).0
}

/// What a terminal sends, and the events it stands for.
fn table() -> Vec<(&'static [u8], Vec<Event>)> {
    use KeyCode::*;
    vec![
        // Text and control keys.
        (b"a", vec![c('a', NONE)]),
        (b"A", vec![c('A', SHIFT)]),
        ("é".as_bytes(), vec![c('é', NONE)]),
        ("É".as_bytes(), vec![c('É', SHIFT)]),
        ("€".as_bytes(), vec![c('€', NONE)]),
        ("🦀".as_bytes(), vec![c('🦀', NONE)]),
        (b"\x01", vec![c('a', CTRL)]),
        (b"\x02", vec![c('b', CTRL)]),
        (b"\x1a", vec![c('z', CTRL)]),
        (b"\x00", vec![c(' ', CTRL)]),
        (b"\x1c", vec![c('4', CTRL)]),
        (b"\x1d", vec![c('5', CTRL)]),
        (b"\x1f", vec![c('7', CTRL)]),
        (b"\x7f", vec![k(Backspace, NONE)]),
        (b"\x08", vec![c('h', CTRL)]),
        (b"\t", vec![k(Tab, NONE)]),
        (b"\r", vec![k(Enter, NONE)]),
        (b"\n", vec![c('j', CTRL)]),
        (b" ", vec![c(' ', NONE)]),
        // Esc and Alt.
        (b"\x1b", vec![k(Esc, NONE)]),
        (b"\x1b\x1b", vec![k(Esc, NONE), k(Esc, NONE)]),
        (b"\x1bx", vec![c('x', ALT)]),
        (b"\x1bX", vec![c('X', ALT | SHIFT)]),
        (b"\x1b\x01", vec![c('a', CTRL | ALT)]),
        (b"\x1b\x7f", vec![k(Backspace, ALT)]),
        (b"\x1b\r", vec![k(Enter, ALT)]),
        ("\x1bé".as_bytes(), vec![c('é', ALT)]),
        (b"\x1b[", vec![c('[', ALT)]),
        (b"\x1bO", vec![c('O', ALT | SHIFT)]),
        (b"\x1b]", vec![c(']', ALT)]),
        (b"\x1bP", vec![c('P', ALT | SHIFT)]),
        (b"\x1bOx", vec![c('O', ALT | SHIFT), c('x', NONE)]),
        (b"\x1b]x", vec![c(']', ALT), c('x', NONE)]),
        (b"\x1bPx", vec![c('P', ALT | SHIFT), c('x', NONE)]),
        (b"\x1b[\x1b", vec![c('[', ALT), k(Esc, NONE)]),
        // Cursor and function keys, xterm's modifiers.
        (b"\x1b[A", vec![k(Up, NONE)]),
        (b"\x1b[B", vec![k(Down, NONE)]),
        (b"\x1b[C", vec![k(Right, NONE)]),
        (b"\x1b[D", vec![k(Left, NONE)]),
        (b"\x1b[H", vec![k(Home, NONE)]),
        (b"\x1b[F", vec![k(End, NONE)]),
        (b"\x1bOA", vec![k(Up, NONE)]),
        (b"\x1bOH", vec![k(Home, NONE)]),
        (b"\x1bOP", vec![k(F(1), NONE)]),
        (b"\x1bOS", vec![k(F(4), NONE)]),
        (b"\x1b[1;5A", vec![k(Up, CTRL)]),
        (b"\x1b[1;2D", vec![k(Left, SHIFT)]),
        (b"\x1b[1;3C", vec![k(Right, ALT)]),
        (b"\x1b[1;8B", vec![k(Down, SHIFT | ALT | CTRL)]),
        (b"\x1b[1;5P", vec![k(F(1), CTRL)]),
        (b"\x1b[1;2R", vec![k(F(3), SHIFT)]),
        (b"\x1b[Z", vec![k(BackTab, SHIFT)]),
        (b"\x1b[2~", vec![k(Insert, NONE)]),
        (b"\x1b[3~", vec![k(Delete, NONE)]),
        (b"\x1b[3;5~", vec![k(Delete, CTRL)]),
        (b"\x1b[5~", vec![k(PageUp, NONE)]),
        (b"\x1b[6;2~", vec![k(PageDown, SHIFT)]),
        (b"\x1b[1~", vec![k(Home, NONE)]),
        (b"\x1b[4~", vec![k(End, NONE)]),
        (b"\x1b[15~", vec![k(F(5), NONE)]),
        (b"\x1b[15;2~", vec![k(F(5), SHIFT)]),
        (b"\x1b[24;5~", vec![k(F(12), CTRL)]),
        (b"\x1b[E", vec![k(KeypadBegin, NONE)]),
        // The kitty keyboard protocol.
        (b"\x1b[27u", vec![k(Esc, NONE)]),
        (b"\x1b[120;3u", vec![c('x', ALT)]),
        (b"\x1b[105;5u", vec![c('i', CTRL)]),
        (b"\x1b[109;5u", vec![c('m', CTRL)]),
        (b"\x1b[91;5u", vec![c('[', CTRL)]),
        (b"\x1b[97;6u", vec![c('a', CTRL | SHIFT)]),
        (b"\x1b[13;2u", vec![k(Enter, SHIFT)]),
        (b"\x1b[9;2u", vec![k(BackTab, SHIFT)]),
        (b"\x1b[127;5u", vec![k(Backspace, CTRL)]),
        (
            b"\x1b[97;2:3u",
            vec![kind(Char('a'), SHIFT, KeyEventKind::Release)],
        ),
        (
            b"\x1b[97;1:2u",
            vec![kind(Char('a'), NONE, KeyEventKind::Repeat)],
        ),
        (b"\x1b[97:65;2u", vec![c('A', NONE)]),
        (b"\x1b[97;;97u", vec![c('a', NONE)]),
        (b"\x1b[1;5:3A", vec![kind(Up, CTRL, KeyEventKind::Release)]),
        (b"\x1b[57376u", vec![k(F(13), NONE)]),
        (b"\x1b[57428u", vec![k(Media(MediaKeyCode::Play), NONE)]),
        (
            b"\x1b[57441;2u",
            vec![k(Modifier(ModifierKeyCode::LeftShift), SHIFT)],
        ),
        (
            b"\x1b[57399u",
            vec![Event::Key(KeyEvent::new_with_kind_and_state(
                Char('0'),
                NONE,
                KeyEventKind::Press,
                KeyEventState::KEYPAD,
            ))],
        ),
        (
            b"\x1b[97;65u",
            vec![Event::Key(KeyEvent::new_with_kind_and_state(
                Char('a'),
                NONE,
                KeyEventKind::Press,
                KeyEventState::CAPS_LOCK,
            ))],
        ),
        // SGR mouse.
        (
            b"\x1b[<0;4;2M",
            vec![mouse(MouseEventKind::Down(MouseButton::Left), 3, 1, NONE)],
        ),
        (
            b"\x1b[<0;4;2m",
            vec![mouse(MouseEventKind::Up(MouseButton::Left), 3, 1, NONE)],
        ),
        (
            b"\x1b[<2;1;1M",
            vec![mouse(MouseEventKind::Down(MouseButton::Right), 0, 0, NONE)],
        ),
        (
            b"\x1b[<1;10;20m",
            vec![mouse(MouseEventKind::Up(MouseButton::Middle), 9, 19, NONE)],
        ),
        (
            b"\x1b[<32;60;2M",
            vec![mouse(MouseEventKind::Drag(MouseButton::Left), 59, 1, NONE)],
        ),
        (
            b"\x1b[<35;5;5M",
            vec![mouse(MouseEventKind::Moved, 4, 4, NONE)],
        ),
        (
            b"\x1b[<64;10;10M",
            vec![mouse(MouseEventKind::ScrollUp, 9, 9, NONE)],
        ),
        (
            b"\x1b[<65;10;10M",
            vec![mouse(MouseEventKind::ScrollDown, 9, 9, NONE)],
        ),
        (
            b"\x1b[<66;1;1M",
            vec![mouse(MouseEventKind::ScrollLeft, 0, 0, NONE)],
        ),
        (
            b"\x1b[<20;3;3M",
            vec![mouse(
                MouseEventKind::Down(MouseButton::Left),
                2,
                2,
                SHIFT | CTRL,
            )],
        ),
        (
            b"\x1b[<72;300;400M",
            vec![mouse(MouseEventKind::ScrollUp, 299, 399, ALT)],
        ),
        (
            b"\x1b[M \x21\x22",
            vec![mouse(MouseEventKind::Down(MouseButton::Left), 0, 1, NONE)],
        ),
        // Focus and paste.
        (b"\x1b[I", vec![Event::FocusGained]),
        (b"\x1b[O", vec![Event::FocusLost]),
        (
            b"\x1b[200~hello\r\x1b[Aworld\x1b[201~",
            vec![Event::Paste("hello\r\x1b[Aworld".into())],
        ),
        (b"\x1b[200~\x1b[201~", vec![Event::Paste(String::new())]),
        (
            "\x1b[200~é€🦀\x1b[201~x".as_bytes(),
            vec![Event::Paste("é€🦀".into()), c('x', NONE)],
        ),
        // Sequences tilework does not know are dropped whole.
        (b"\x1b[99~a", vec![c('a', NONE)]),
        (b"\x1b[5;5;5;5Xa", vec![c('a', NONE)]),
        (b"\x1b[201~a", vec![c('a', NONE)]),
        // Several in one read.
        (
            b"ab\x1b[Ac\x01",
            vec![
                c('a', NONE),
                c('b', NONE),
                k(Up, NONE),
                c('c', NONE),
                c('a', CTRL),
            ],
        ),
    ]
}

#[test]
fn every_sequence_in_the_table_gives_its_events() {
    for (bytes, expected) in table() {
        assert_eq!(
            parse(bytes),
            expected,
            "{:?}",
            String::from_utf8_lossy(bytes)
        );
    }
}

#[test]
fn every_split_point_gives_the_same_events() {
    for (bytes, expected) in table() {
        for at in 1..bytes.len() {
            let (a, b) = bytes.split_at(at);
            assert_eq!(
                parse_reads(&[a, b]).0,
                expected,
                "{:?} split at {at}",
                String::from_utf8_lossy(bytes)
            );
        }
        let one_by_one: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(
            parse_reads(&one_by_one).0,
            expected,
            "{bytes:?} byte by byte"
        );
    }
}

#[test]
fn the_whole_table_in_one_read_gives_every_event_in_order() {
    // A lone ESC or an unfinished intro at the end of a case would join
    // the next case: those are left out.
    let cases: Vec<_> = table()
        .into_iter()
        .filter(|(bytes, _)| !matches!(bytes.last(), Some(0x1b | b'[' | b'O' | b']' | b'P')))
        .filter(|(bytes, _)| bytes.first() != Some(&0x1b) || bytes.len() > 2)
        .collect();
    let all: Vec<u8> = cases.iter().flat_map(|(b, _)| b.iter().copied()).collect();
    let expected: Vec<Event> = cases.into_iter().flat_map(|(_, e)| e).collect();
    assert_eq!(parse(&all), expected);
}

#[test]
fn a_lone_esc_waits_for_esc_wait_then_is_the_esc_key() {
    let mut parser = InputParser::new();
    let t0 = Instant::now();
    let mut out = Vec::new();
    parser.feed(b"\x1b", t0, &mut out);
    assert!(out.is_empty());
    assert_eq!(parser.deadline(), Some(t0 + ESC_WAIT));
    parser.flush(t0 + ESC_WAIT - Duration::from_micros(1), &mut out);
    assert!(out.is_empty(), "too early");
    parser.flush(t0 + ESC_WAIT, &mut out);
    // Stamped when it was read.
    assert_eq!(out, [(t0, k(KeyCode::Esc, NONE))]);
    assert_eq!(parser.deadline(), None);
}

#[test]
fn the_rest_of_a_sequence_in_the_next_read_completes_it() {
    let mut parser = InputParser::new();
    let t0 = Instant::now();
    let mut out = Vec::new();
    parser.feed(b"\x1b", t0, &mut out);
    let t1 = t0 + Duration::from_millis(1);
    parser.feed(b"[1;5", t1, &mut out);
    assert!(out.is_empty());
    // A sequence under way waits longer than a lone ESC.
    assert_eq!(parser.deadline(), Some(t0 + SEQUENCE_WAIT));
    parser.flush(t0 + ESC_WAIT, &mut out);
    assert!(out.is_empty());
    parser.feed(b"A", t1, &mut out);
    assert_eq!(out, [(t1, k(KeyCode::Up, CTRL))]);
    // Only its intro so far: the same.
    out.clear();
    parser.feed(b"\x1b[", t0, &mut out);
    assert_eq!(parser.deadline(), Some(t0 + SEQUENCE_WAIT));
    parser.flush(t0 + ESC_WAIT, &mut out);
    parser.feed(b"D", t1, &mut out);
    assert_eq!(out, [(t1, k(KeyCode::Left, NONE))]);
    out.clear();
    // Alt-[ typed alone goes out once the wait is over.
    parser.feed(b"\x1b[", t0, &mut out);
    parser.flush(t0 + SEQUENCE_WAIT, &mut out);
    assert_eq!(out, [(t0, c('[', ALT))]);
    out.clear();
    parser.feed(b"\x1b[1;5", t0, &mut out);
    parser.feed(b"A", t1, &mut out);
    assert_eq!(out, [(t1, k(KeyCode::Up, CTRL))]);
}

#[test]
fn a_sequence_left_unfinished_is_what_the_user_typed() {
    let mut parser = InputParser::new();
    let t0 = Instant::now();
    let mut out = Vec::new();
    parser.feed(b"\x1b[1;5", t0, &mut out);
    parser.flush(t0 + SEQUENCE_WAIT, &mut out);
    let events: Vec<Event> = out.into_iter().map(|(_, e)| e).collect();
    assert_eq!(
        events,
        [c('[', ALT), c('1', NONE), c(';', NONE), c('5', NONE)]
    );
    assert!(!parser.holding());
}

#[test]
fn a_sequence_broken_by_a_control_byte_is_typed_and_the_byte_follows() {
    assert_eq!(
        parse(b"\x1b[1\r"),
        [c('[', ALT), c('1', NONE), k(KeyCode::Enter, NONE)]
    );
    assert_eq!(parse(b"\x1b]1x"), [c(']', ALT), c('1', NONE), c('x', NONE)]);
    // Alt-_ and keys that cannot begin a kitty graphics answer are typed.
    assert_eq!(parse(b"\x1b_x"), [c('_', ALT), c('x', NONE)]);
    assert_eq!(
        parse(b"\x1b_G\r"),
        [c('_', ALT), c('G', NONE), k(KeyCode::Enter, NONE)]
    );
    // An OSC cut by an ESC that is no string terminator.
    assert_eq!(
        parse(b"\x1b]11;a\x1b[A"),
        [
            c(']', ALT),
            c('1', NONE),
            c('1', NONE),
            c(';', NONE),
            c('a', NONE),
            k(KeyCode::Up, NONE)
        ]
    );
}

#[test]
fn answers_to_tilework_s_questions_are_never_keys() {
    let cases: &[(&[u8], Reply)] = &[
        (
            b"\x1b]11;rgb:1e1e/1e1e/2e2e\x1b\\",
            Reply::Colour {
                slot: 1,
                colour: Rgb(0x1e1e, 0x1e1e, 0x2e2e),
            },
        ),
        (
            b"\x1b]10;rgb:ffff/ffff/ffff\x07",
            Reply::Colour {
                slot: 0,
                colour: Rgb(0xffff, 0xffff, 0xffff),
            },
        ),
        (
            b"\x1b]12;#ff0000\x07",
            Reply::Colour {
                slot: 2,
                colour: Rgb(0xffff, 0, 0),
            },
        ),
        (
            b"\x1b]52;c;aGk=\x07",
            Reply::Osc {
                number: 52,
                text: "c;aGk=".into(),
            },
        ),
        (b"\x1b[?62;22c", Reply::PrimaryAttributes),
        (b"\x1b[>1;4000;29c", Reply::SecondaryAttributes),
        (
            b"\x1b[?2026;2$y",
            Reply::Mode {
                mode: 2026,
                setting: 2,
            },
        ),
        (b"\x1b[?1u", Reply::KittyFlags(1)),
        (b"\x1b[?0u", Reply::KittyFlags(0)),
        (
            b"\x1b[12;40R",
            Reply::CursorPosition {
                row: 12,
                column: 40,
            },
        ),
        (
            b"\x1bP1+r524742=382F382F38\x1b\\",
            Reply::Dcs("1+r524742=382F382F38".into()),
        ),
        (b"\x1bP0+r\x1b\\", Reply::Dcs("0+r".into())),
        (
            b"\x1bP>|kitty(0.35)\x1b\\",
            Reply::Dcs(">|kitty(0.35)".into()),
        ),
        // A kitty graphics answer, late or not, is never typed into a pane.
        (b"\x1b_Gi=31;OK\x1b\\", Reply::Graphics("Gi=31;OK".into())),
        (
            b"\x1b_Gi=1;ENOENT:no such file\x1b\\",
            Reply::Graphics("Gi=1;ENOENT:no such file".into()),
        ),
    ];
    for (bytes, reply) in cases {
        let mut with_keys = b"a".to_vec();
        with_keys.extend_from_slice(bytes);
        with_keys.push(b'b');
        let expected_events = vec![c('a', NONE), c('b', NONE)];
        let (events, replies) = parse_reads(&[&with_keys]);
        assert_eq!(events, expected_events, "{bytes:?}");
        assert_eq!(replies, std::slice::from_ref(reply), "{bytes:?}");
        for at in 1..with_keys.len() {
            let (a, b) = with_keys.split_at(at);
            let (events, replies) = parse_reads(&[a, b]);
            assert_eq!(events, expected_events, "{bytes:?} split at {at}");
            assert_eq!(
                replies,
                std::slice::from_ref(reply),
                "{bytes:?} split at {at}"
            );
        }
    }
}

#[test]
fn a_paste_over_many_reads_is_one_paste() {
    let mut reads: Vec<Vec<u8>> = vec![b"x\x1b[200~".to_vec()];
    let mut text = String::new();
    for i in 0..1000 {
        let line = format!("line {i}\n");
        text.push_str(&line);
        reads.push(line.into_bytes());
    }
    reads.push(b"\x1b[20".to_vec());
    reads.push(b"1~y".to_vec());
    let reads: Vec<&[u8]> = reads.iter().map(Vec::as_slice).collect();
    assert_eq!(
        parse_reads(&reads).0,
        [c('x', NONE), Event::Paste(text), c('y', NONE)]
    );
}

#[test]
fn a_paste_bigger_than_a_piece_comes_in_pieces_and_keeps_every_byte() {
    let body: String = "ab€🦀\n".repeat(PASTE_PIECE / 4);
    let mut bytes = b"\x1b[200~".to_vec();
    bytes.extend_from_slice(body.as_bytes());
    bytes.extend_from_slice(b"\x1b[201~z");
    let mut parser = InputParser::new();
    let mut out = Vec::new();
    let now = Instant::now();
    for chunk in bytes.chunks(65536) {
        parser.feed(chunk, now, &mut out);
        // Bounded: never more than a piece and a read held.
        assert!(parser.paste_held() <= PASTE_PIECE + 65536 + 16);
    }
    let mut pieces = String::new();
    let mut count = 0;
    for (_, event) in &out[..out.len() - 1] {
        let Event::Paste(piece) = event else {
            panic!("{event:?}")
        };
        assert!(piece.len() <= PASTE_PIECE);
        pieces.push_str(piece);
        count += 1;
    }
    assert!(count >= 2, "{count} pieces");
    assert!(pieces == body, "every byte, in order, no character cut");
    assert_eq!(out.last().map(|(_, e)| e.clone()), Some(c('z', NONE)));
}

#[test]
fn a_paste_whose_end_never_comes_is_handed_out_after_the_idle_wait() {
    let mut parser = InputParser::new();
    let t0 = Instant::now();
    let mut out = Vec::new();
    parser.feed(b"\x1b[200~half a paste", t0, &mut out);
    assert_eq!(parser.deadline(), Some(t0 + PASTE_IDLE));
    let t1 = t0 + Duration::from_secs(1);
    parser.feed(b" and more", t1, &mut out);
    assert_eq!(parser.deadline(), Some(t1 + PASTE_IDLE));
    parser.flush(t1 + PASTE_IDLE, &mut out);
    parser.feed(b"k", t1 + PASTE_IDLE, &mut out);
    let events: Vec<Event> = out.into_iter().map(|(_, e)| e).collect();
    assert_eq!(
        events,
        [Event::Paste("half a paste and more".into()), c('k', NONE)]
    );
}

#[test]
fn endless_and_malformed_sequences_are_cut_off_with_bounded_memory() {
    let mut parser = InputParser::new();
    let now = Instant::now();
    let mut out = Vec::new();
    // An endless CSI: parameters forever, then a key.
    parser.feed(b"\x1b[", now, &mut out);
    for _ in 0..10_000 {
        parser.feed(b"1;2;3;4;5;6;7;8;9;", now, &mut out);
        assert!(parser.held.len() <= MAX_CSI);
    }
    parser.feed(b"Aq", now, &mut out);
    assert_eq!(out.pop().map(|(_, e)| e), Some(c('q', NONE)));
    assert!(out.is_empty(), "{out:?}");
    // An endless OSC answer, then a key after its end.
    parser.feed(b"\x1b]11;", now, &mut out);
    for _ in 0..10_000 {
        parser.feed(b"rgb:ffff/ffff/ffff", now, &mut out);
        assert!(parser.held.len() <= MAX_STRING);
    }
    parser.feed(b"\x1b\\q", now, &mut out);
    assert_eq!(out.pop().map(|(_, e)| e), Some(c('q', NONE)));
    assert!(out.is_empty(), "{out:?}");
    assert!(parser.take_replies().is_empty());
    // One that never ends is let go at the deadline: keys work again.
    parser.feed(b"\x1bP1+r", now, &mut out);
    parser.feed(&[b'a'; 4096], now, &mut out);
    parser.flush(now + SEQUENCE_WAIT, &mut out);
    out.clear();
    parser.feed(b"q", now, &mut out);
    assert_eq!(out.pop().map(|(_, e)| e), Some(c('q', NONE)));
}

#[test]
fn invalid_utf8_is_dropped_and_what_follows_is_read() {
    assert_eq!(parse(b"\x80\xbfa"), [c('a', NONE)]);
    assert_eq!(parse(b"\xe2\x82a"), [c('a', NONE)]);
    assert_eq!(parse(b"\xc0\xafa"), [c('a', NONE)]);
    assert_eq!(parse(b"\xed\xa0\x80a"), [c('a', NONE)]);
    assert_eq!(parse(b"\xe2\x82\x1b[A"), [k(KeyCode::Up, NONE)]);
    assert_eq!(parse(b"\xff\xfe"), []);
}

/// Any bytes at all: no panic, nothing held past the deadline, memory
/// bounded, and keys read again afterwards.
#[test]
fn random_bytes_never_wedge_the_parser() {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let alphabet = b"\x1b[]OP;:<?>$~uMm0123456789\x07\\\x18 aA\r\x7f\xe2\x82\xac";
    for _ in 0..2000 {
        let mut parser = InputParser::new();
        let now = Instant::now();
        let mut out = Vec::new();
        let len = usize::try_from(next() % 64).unwrap_or(0);
        let bytes: Vec<u8> = (0..len)
            .map(|_| alphabet[usize::try_from(next()).unwrap_or(0) % alphabet.len()])
            .collect();
        for chunk in bytes.chunks(1 + usize::try_from(next() % 7).unwrap_or(0)) {
            parser.feed(chunk, now, &mut out);
            assert!(parser.held.len() <= MAX_STRING);
        }
        parser.flush(now + PASTE_IDLE, &mut out);
        assert!(!parser.holding(), "{bytes:?}");
        out.clear();
        parser.feed(b"q", now, &mut out);
        assert_eq!(out, [(now, c('q', NONE))], "{bytes:?}");
    }
}
