#![allow(clippy::unwrap_used)]

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use super::*;
use crate::graphics::kitty::decode::tests::png_bytes;

const AT: Cursor = Cursor {
    row: 2,
    col: 3,
    rows: 24,
    cols: 80,
};

fn body(control: &str, data: &[u8]) -> Vec<u8> {
    format!("G{control};{}", STANDARD.encode(data)).into_bytes()
}

fn done(intake: &mut KittyIntake, body: &[u8]) -> Outcome {
    match intake.handle(body, AT) {
        Some(Handled::Done(out)) => out,
        other => panic!("not done: {other:?}"),
    }
}

fn reply(out: &Outcome) -> String {
    String::from_utf8(out.reply.clone()).unwrap()
}

fn intake() -> KittyIntake {
    KittyIntake {
        reaches_terminal: true,
        cell_pixels: (10, 20),
        ..KittyIntake::default()
    }
}

#[test]
fn an_rgba_picture_is_stored_placed_at_the_cursor_and_the_cursor_moves_past_it() {
    let mut k = intake();
    let out = done(&mut k, &body("a=T,i=1,s=25,v=30", &[7; 25 * 30 * 4]));
    assert_eq!(reply(&out), "\x1b_Gi=1;OK\x1b\\");
    let KittyOp::Store { id: 1, image } = &out.ops[0] else {
        panic!("{:?}", out.ops)
    };
    assert_eq!((image.width(), image.height()), (25, 30));
    let KittyOp::Place(p) = &out.ops[1] else {
        panic!("{:?}", out.ops)
    };
    // 25x30 pixels over 10x20 cells: 3 columns, 2 rows.
    assert_eq!((p.image, p.row, p.col, p.cols, p.rows), (1, 2, 3, 3, 2));
    assert_eq!(out.cursor_moves, (3, 1));
}

#[test]
fn a_png_in_chunks_is_taken_only_when_the_last_one_arrives() {
    let mut k = intake();
    let png = png_bytes(2, 2, png::ColorType::Rgb, &[9; 12]);
    let text = STANDARD.encode(&png);
    let chunks: Vec<&[u8]> = text.as_bytes().chunks(8).collect();
    let last = chunks.len() - 1;
    let mut outs = Vec::new();
    for (n, chunk) in chunks.iter().enumerate() {
        let control = match n {
            0 => "a=T,f=100,i=4,C=1,m=1".to_string(),
            n if n == last => "m=0".to_string(),
            _ => "m=1".to_string(),
        };
        let mut b = format!("G{control};").into_bytes();
        b.extend_from_slice(chunk);
        outs.push(done(&mut k, &b));
    }
    assert!(outs[..last].iter().all(|o| *o == Outcome::default()));
    let out = &outs[last];
    assert_eq!(reply(out), "\x1b_Gi=4;OK\x1b\\");
    assert_eq!(out.ops.len(), 2);
    assert_eq!(out.cursor_moves, (0, 0), "C=1 keeps the cursor");
}

#[test]
fn a_query_is_answered_by_whether_pictures_reach_a_terminal_and_keeps_nothing() {
    let query = body("i=31,s=1,v=1,a=q,t=d,f=24", &[0, 0, 0]);
    let mut k = intake();
    let out = done(&mut k, &query);
    assert_eq!(reply(&out), "\x1b_Gi=31;OK\x1b\\");
    assert!(out.ops.is_empty());
    k.reaches_terminal = false;
    let out = done(&mut k, &query);
    assert!(
        reply(&out).starts_with("\x1b_Gi=31;ENOTSUP:"),
        "{}",
        reply(&out)
    );
    // A query whose data is bad says so whoever is attached.
    let out = done(&mut intake(), &body("i=2,s=2,v=1,a=q,f=24", &[0, 0, 0]));
    assert!(
        reply(&out).starts_with("\x1b_Gi=2;ENODATA:"),
        "{}",
        reply(&out)
    );
    // Nothing was stored: placing the queried id finds nothing.
    let out = done(&mut k, b"Ga=p,i=31");
    assert!(reply(&out).starts_with("\x1b_Gi=31;ENOENT:"));
}

#[test]
fn a_stored_picture_is_placed_later_with_its_placement_id() {
    let mut k = intake();
    let out = done(&mut k, b"Ga=p,i=9,p=2");
    assert!(reply(&out).starts_with("\x1b_Gi=9,p=2;ENOENT:"));
    done(&mut k, &body("a=t,i=9,s=40,v=40,q=1", &[1; 40 * 40 * 4]));
    let out = done(&mut k, b"Ga=p,i=9,p=2,x=10,y=20,w=100,c=5,z=-3");
    assert_eq!(reply(&out), "\x1b_Gi=9,p=2;OK\x1b\\");
    let KittyOp::Place(p) = &out.ops[0] else {
        panic!()
    };
    assert_eq!(p.placement, 2);
    // The rectangle is clipped to the picture; 5 columns keep its shape.
    assert_eq!(
        p.source,
        PixelRect {
            x: 10,
            y: 20,
            width: 30,
            height: 20
        }
    );
    assert_eq!((p.cols, p.rows, p.z), (5, 2, -3));
    let out = done(&mut k, b"Ga=p,i=9,x=40");
    assert!(reply(&out).starts_with("\x1b_Gi=9;EINVAL:"));
}

#[test]
fn a_picture_named_by_number_gets_an_id_of_tileworks_and_is_placed_by_number() {
    let mut k = intake();
    let out = done(&mut k, &body("a=t,I=13,s=1,v=1", &[0; 4]));
    let text = reply(&out);
    assert!(
        text.starts_with("\x1b_Gi=") && text.ends_with(",I=13;OK\x1b\\"),
        "{text}"
    );
    let out = done(&mut k, b"Ga=p,I=13");
    assert!(matches!(out.ops[0], KittyOp::Place(_)));
    let out = done(&mut k, b"Ga=p,i=1,I=13");
    assert!(reply(&out).contains("EINVAL"));
}

#[test]
fn deletes_name_the_placements_they_take() {
    let mut k = intake();
    let del = |k: &mut KittyIntake, control: &str| {
        let out = done(k, format!("G{control}").as_bytes());
        match out.ops.as_slice() {
            [KittyOp::Delete { which, free }] => (*which, *free),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(del(&mut k, "a=d"), (Deletion::Visible, false));
    assert_eq!(
        del(&mut k, "a=d,d=p,x=3,y=4"),
        (
            Deletion::Cell {
                row: 3,
                col: 2,
                z: None
            },
            false
        )
    );
    assert_eq!(
        del(&mut k, "a=d,d=C"),
        (
            Deletion::Cell {
                row: 2,
                col: 3,
                z: None
            },
            true
        )
    );
    assert_eq!(del(&mut k, "a=d,d=Z,z=-1"), (Deletion::Z(-1), true));
    assert_eq!(del(&mut k, "a=d,d=x,x=1"), (Deletion::Column(0), false));
    done(&mut k, &body("a=t,i=5,s=1,v=1", &[0; 4]));
    assert_eq!(
        del(&mut k, "a=d,d=I,i=5"),
        (
            Deletion::Image {
                image: 5,
                placement: None
            },
            true
        )
    );
    let out = done(&mut k, b"Ga=p,i=5");
    assert!(reply(&out).contains("ENOENT"), "freed pictures are gone");
}

#[test]
fn a_delete_aborts_a_transmission_in_progress() {
    let mut k = intake();
    done(&mut k, &body("a=T,i=6,s=1,v=1,m=1", &[0; 2]));
    let out = done(&mut k, b"Ga=d");
    assert!(matches!(out.ops[0], KittyOp::Delete { .. }));
    // The end of the aborted one is not a continuation any more.
    let out = done(&mut k, b"Gm=0;AAAA");
    assert!(out.ops.is_empty());
}

#[test]
fn what_tilework_does_not_do_is_refused_with_a_reason() {
    let mut k = intake();
    for control in [
        "a=f,i=1",
        "a=a,i=1",
        "a=T,i=1,U=1,s=1,v=1",
        "a=p,i=1,P=2,Q=3",
    ] {
        let out = done(&mut k, &body(control, &[0; 4]));
        assert!(
            reply(&out).contains(";EINVAL:"),
            "{control}: {}",
            reply(&out)
        );
        assert!(out.ops.is_empty());
    }
    // A refused transmission in chunks is answered once, at its end.
    let out = done(&mut k, &body("a=f,i=2,m=1", &[0; 3]));
    assert_eq!(out, Outcome::default());
    let out = done(&mut k, b"Ga=f,m=1;AAAA");
    assert_eq!(out, Outcome::default());
    let out = done(&mut k, b"Ga=f,m=0;AAAA");
    assert!(reply(&out).starts_with("\x1b_Gi=2;EINVAL:"));
}

#[test]
fn malformed_commands_are_answered_when_their_id_can_be_read() {
    let mut k = intake();
    let out = done(&mut k, b"Gi=8,s=oops");
    assert!(reply(&out).starts_with("\x1b_Gi=8;EINVAL:"));
    assert_eq!(done(&mut k, b"Gs=oops"), Outcome::default());
    assert!(k.handle(b"Xnot graphics", AT).is_none());
}

#[test]
fn quiet_commands_hear_nothing() {
    let mut k = intake();
    let out = done(&mut k, &body("a=T,i=1,s=1,v=1,q=2", &[0; 3]));
    assert!(out.reply.is_empty());
    let out = done(&mut k, b"Ga=p,i=77,q=2");
    assert!(out.reply.is_empty());
}

#[test]
fn file_transmissions_come_back_to_be_read_off_the_loop() {
    let mut k = intake();
    let name = b"/tmp/tty-graphics-protocol-x.png";
    let handled = k.handle(&body("a=T,t=t,f=100,i=3", name), AT);
    let Some(Handled::Load { command, name: got }) = handled else {
        panic!("{handled:?}")
    };
    assert_eq!(got, name);
    let png = png_bytes(1, 1, png::ColorType::Rgba, &[1, 2, 3, 4]);
    let out = k.loaded(command.clone(), Ok(png), AT);
    assert_eq!(reply(&out), "\x1b_Gi=3;OK\x1b\\");
    assert_eq!(out.ops.len(), 2);
    let out = k.loaded(
        command,
        Err(KittyError::new("EBADF", "not a regular file")),
        AT,
    );
    assert_eq!(reply(&out), "\x1b_Gi=3;EBADF:not a regular file\x1b\\");
}
