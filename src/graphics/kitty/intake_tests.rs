#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

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

const SEEN: Seen = Seen {
    reaches_terminal: true,
    cell_pixels: (10, 20),
};

/// A store that remembers what was asked of it.
#[derive(Default)]
struct Fake {
    images: BTreeMap<u32, RgbaImage>,
    next: u32,
    placed: Vec<Placement>,
    deleted: Vec<(Deletion, bool)>,
    virtual_placed: Vec<(Placement, Option<PlacementId>)>,
    animated: Vec<(ImageId, FrameOp)>,
    /// Frames deleted, and how many frames each picture has past the first.
    frames_deleted: Vec<(ImageId, u32)>,
    extra_frames: BTreeMap<u32, u32>,
    unplaced: Vec<PlacementId>,
    refuse: Option<KittyError>,
}

impl Pictures for Fake {
    fn keep(&mut self, image: RgbaImage) -> Result<ImageId, KittyError> {
        if let Some(e) = self.refuse.clone() {
            return Err(e);
        }
        self.next += 1;
        self.images.insert(self.next, image);
        Ok(ImageId(self.next))
    }
    fn size(&self, image: ImageId) -> Option<(u32, u32)> {
        self.images.get(&image.0).map(|i| (i.width(), i.height()))
    }
    fn place(&mut self, placement: &Placement) -> Result<(), KittyError> {
        self.placed.push(placement.clone());
        Ok(())
    }
    fn place_virtual(
        &mut self,
        placement: &Placement,
        replacing: Option<PlacementId>,
    ) -> Result<PlacementId, KittyError> {
        self.virtual_placed.push((placement.clone(), replacing));
        Ok(PlacementId(
            u32::try_from(self.virtual_placed.len()).unwrap_or(0),
        ))
    }
    fn unplace(&mut self, placement: PlacementId) {
        self.unplaced.push(placement);
    }
    fn delete(&mut self, which: &Deletion, free: bool) {
        if free && let Deletion::Images { images, .. } = which {
            for i in images {
                self.images.remove(&i.0);
            }
        }
        self.deleted.push((which.clone(), free));
    }
    fn forget(&mut self, image: ImageId) {
        self.images.remove(&image.0);
    }
    fn animate(&mut self, image: ImageId, op: FrameOp) -> Result<(), KittyError> {
        self.animated.push((image, op));
        Ok(())
    }
    fn delete_frame(&mut self, image: ImageId, frame: u32) -> bool {
        let Some(extra) = self.extra_frames.get_mut(&image.0).filter(|n| **n > 0) else {
            return false;
        };
        *extra -= 1;
        self.frames_deleted.push((image, frame));
        true
    }
}

fn body(control: &str, data: &[u8]) -> Vec<u8> {
    format!("G{control};{}", STANDARD.encode(data)).into_bytes()
}

fn run(k: &mut KittyIntake, fake: &mut Fake, body: &[u8]) -> String {
    run_seen(k, fake, body, SEEN)
}

fn run_seen(k: &mut KittyIntake, fake: &mut Fake, body: &[u8], seen: Seen) -> String {
    match k.handle(body, AT, seen, fake) {
        Some(Handled::Done(reply)) => String::from_utf8(reply).unwrap(),
        other => panic!("not done: {other:?}"),
    }
}

#[test]
fn an_rgba_picture_is_kept_and_placed_over_the_cells_its_pixels_take() {
    let (mut k, mut f) = (KittyIntake::default(), Fake::default());
    let reply = run(
        &mut k,
        &mut f,
        &body("a=T,i=1,s=25,v=30", &[7; 25 * 30 * 4]),
    );
    assert_eq!(reply, "\x1b_Gi=1;OK\x1b\\");
    assert_eq!(f.images.len(), 1);
    let p = &f.placed[0];
    // 25x30 pixels over 10x20 cells: 3 columns, 2 rows.
    assert_eq!((p.kitty_image, p.cols, p.rows), (1, 3, 2));
    assert!(!p.cursor_stays);
}

#[test]
fn a_png_in_chunks_is_taken_only_when_the_last_one_arrives() {
    let (mut k, mut f) = (KittyIntake::default(), Fake::default());
    let png = png_bytes(2, 2, png::ColorType::Rgb, &[9; 12]);
    let text = STANDARD.encode(&png);
    let chunks: Vec<&[u8]> = text.as_bytes().chunks(8).collect();
    let last = chunks.len() - 1;
    for (n, chunk) in chunks.iter().enumerate() {
        let control = match n {
            0 => "a=T,f=100,i=4,C=1,m=1",
            n if n == last => "m=0",
            _ => "m=1",
        };
        let mut b = format!("G{control};").into_bytes();
        b.extend_from_slice(chunk);
        let reply = run(&mut k, &mut f, &b);
        if n < last {
            assert_eq!(reply, "");
            assert!(f.images.is_empty() && f.placed.is_empty());
        } else {
            assert_eq!(reply, "\x1b_Gi=4;OK\x1b\\");
        }
    }
    assert_eq!(f.placed.len(), 1);
    assert!(f.placed[0].cursor_stays, "C=1 keeps the cursor");
}

#[test]
fn a_query_is_answered_by_whether_pictures_reach_a_terminal_and_keeps_nothing() {
    let query = body("i=31,s=1,v=1,a=q,t=d,f=24", &[0, 0, 0]);
    let (mut k, mut f) = (KittyIntake::default(), Fake::default());
    assert_eq!(run(&mut k, &mut f, &query), "\x1b_Gi=31;OK\x1b\\");
    assert!(f.images.is_empty());
    let unseen = Seen {
        reaches_terminal: false,
        ..SEEN
    };
    let reply = run_seen(&mut k, &mut f, &query, unseen);
    assert!(reply.starts_with("\x1b_Gi=31;ENOTSUP:"), "{reply}");
    // A query whose data is bad says so whoever is attached.
    let reply = run(&mut k, &mut f, &body("i=2,s=2,v=1,a=q,f=24", &[0, 0, 0]));
    assert!(reply.starts_with("\x1b_Gi=2;ENODATA:"), "{reply}");
    // Nothing was kept: placing the queried id finds nothing.
    let reply = run(&mut k, &mut f, b"Ga=p,i=31");
    assert!(reply.starts_with("\x1b_Gi=31;ENOENT:"), "{reply}");
}

#[test]
fn a_kept_picture_is_placed_later_with_its_placement_id() {
    let (mut k, mut f) = (KittyIntake::default(), Fake::default());
    let reply = run(&mut k, &mut f, b"Ga=p,i=9,p=2");
    assert!(reply.starts_with("\x1b_Gi=9,p=2;ENOENT:"), "{reply}");
    let reply = run(
        &mut k,
        &mut f,
        &body("a=t,i=9,s=40,v=40,q=1", &[1; 40 * 40 * 4]),
    );
    assert_eq!(reply, "");
    assert!(f.placed.is_empty(), "a=t only keeps");
    let reply = run(&mut k, &mut f, b"Ga=p,i=9,p=2,x=10,y=20,w=100,c=5,z=-3");
    assert_eq!(reply, "\x1b_Gi=9,p=2;OK\x1b\\");
    let p = &f.placed[0];
    assert_eq!((p.kitty_image, p.kitty_placement), (9, 2));
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
    let reply = run(&mut k, &mut f, b"Ga=p,i=9,x=40");
    assert!(reply.starts_with("\x1b_Gi=9;EINVAL:"), "{reply}");
}

#[test]
fn sending_a_picture_again_under_its_id_replaces_it() {
    let (mut k, mut f) = (KittyIntake::default(), Fake::default());
    run(&mut k, &mut f, &body("a=t,i=3,s=1,v=1", &[0; 4]));
    run(&mut k, &mut f, &body("a=t,i=3,s=2,v=1", &[0; 8]));
    assert_eq!(f.images.len(), 1);
    assert_eq!(f.images.values().next().unwrap().width(), 2);
}

#[test]
fn a_picture_the_store_dropped_is_not_found() {
    let (mut k, mut f) = (KittyIntake::default(), Fake::default());
    run(&mut k, &mut f, &body("a=t,i=3,s=1,v=1", &[0; 4]));
    f.images.clear();
    let reply = run(&mut k, &mut f, b"Ga=p,i=3");
    assert!(reply.starts_with("\x1b_Gi=3;ENOENT:"), "{reply}");
    f.refuse = Some(KittyError::new("EFBIG", "over budget"));
    let reply = run(&mut k, &mut f, &body("a=t,i=4,s=1,v=1", &[0; 4]));
    assert_eq!(reply, "\x1b_Gi=4;EFBIG:over budget\x1b\\");
}

#[test]
fn a_picture_named_by_number_gets_an_id_of_tileworks_and_is_placed_by_number() {
    let (mut k, mut f) = (KittyIntake::default(), Fake::default());
    let reply = run(&mut k, &mut f, &body("a=t,I=13,s=1,v=1", &[0; 4]));
    assert!(
        reply.starts_with("\x1b_Gi=") && reply.ends_with(",I=13;OK\x1b\\"),
        "{reply}"
    );
    assert!(!reply.starts_with("\x1b_Gi=0,"));
    run(&mut k, &mut f, b"Ga=p,I=13");
    assert_eq!(f.placed.len(), 1);
    let reply = run(&mut k, &mut f, b"Ga=p,i=1,I=13");
    assert!(reply.contains("EINVAL"), "{reply}");
}

#[test]
fn deletes_name_the_placements_they_take() {
    let (mut k, mut f) = (KittyIntake::default(), Fake::default());
    for control in [
        "a=d",
        "a=d,d=p,x=3,y=4",
        "a=d,d=C",
        "a=d,d=Z,z=-1",
        "a=d,d=x,x=1",
        "a=d,d=y,y=2",
        "a=d,d=q,x=1,y=1,z=5",
    ] {
        assert_eq!(run(&mut k, &mut f, format!("G{control}").as_bytes()), "");
    }
    let cell = |row, col, z| Deletion::Cell { row, col, z };
    assert_eq!(
        f.deleted,
        [
            (Deletion::Visible, false),
            (cell(3, 2, None), false),
            (cell(2, 3, None), true),
            (Deletion::Z(-1), true),
            (Deletion::Column(0), false),
            (Deletion::Row(1), false),
            (cell(0, 0, Some(5)), false),
        ]
    );
}

#[test]
fn deleting_by_id_frees_the_picture_only_in_capitals() {
    let (mut k, mut f) = (KittyIntake::default(), Fake::default());
    run(&mut k, &mut f, &body("a=T,i=5,s=1,v=1", &[0; 4]));
    run(&mut k, &mut f, b"Ga=d,d=i,i=5,p=7");
    let kept = ImageId(1);
    assert_eq!(
        f.deleted[0],
        (
            Deletion::Images {
                images: vec![kept],
                placement: Some(7)
            },
            false
        )
    );
    assert_eq!(run(&mut k, &mut f, b"Ga=p,i=5,q=1"), "", "still there");
    run(&mut k, &mut f, b"Ga=d,d=I,i=5");
    let reply = run(&mut k, &mut f, b"Ga=p,i=5");
    assert!(reply.contains("ENOENT"), "freed pictures are gone: {reply}");
    run(&mut k, &mut f, &body("a=t,i=20,s=1,v=1", &[0; 4]));
    run(&mut k, &mut f, &body("a=t,i=30,s=1,v=1", &[0; 4]));
    run(&mut k, &mut f, b"Ga=d,d=R,x=10,y=25");
    assert_eq!(f.images.len(), 1, "only 20 was in the range");
}

#[test]
fn a_delete_aborts_a_transmission_in_progress() {
    let (mut k, mut f) = (KittyIntake::default(), Fake::default());
    run(&mut k, &mut f, &body("a=T,i=6,s=1,v=1,m=1", &[0; 2]));
    run(&mut k, &mut f, b"Ga=d");
    assert_eq!(f.deleted.len(), 1);
    // The end of the aborted one is not a continuation any more: a fresh
    // transmission of no size, refused.
    let reply = run(&mut k, &mut f, b"Gm=0;AAAA");
    assert_eq!(reply, "");
    assert!(f.images.is_empty());
}

#[test]
fn what_tilework_does_not_do_is_refused_with_a_reason() {
    let (mut k, mut f) = (KittyIntake::default(), Fake::default());
    for control in ["a=T,i=1,U=1,s=1,v=1,P=2", "a=p,i=1,P=2,Q=3"] {
        let reply = run(&mut k, &mut f, &body(control, &[0; 4]));
        assert!(reply.contains(";EINVAL:"), "{control}: {reply}");
    }
    assert!(f.images.is_empty() && f.placed.is_empty());
    // A refused transmission in chunks is answered once, at its end.
    assert_eq!(run(&mut k, &mut f, &body("a=f,i=2,m=1,P=1", &[0; 3])), "");
    assert_eq!(run(&mut k, &mut f, b"Ga=f,m=1;AAAA"), "");
    let reply = run(&mut k, &mut f, b"Ga=f,m=0;AAAA");
    assert!(reply.starts_with("\x1b_Gi=2;EINVAL:"), "{reply}");
}

#[test]
fn malformed_commands_are_answered_when_their_id_can_be_read() {
    let (mut k, mut f) = (KittyIntake::default(), Fake::default());
    let reply = run(&mut k, &mut f, b"Gi=8,s=oops");
    assert!(reply.starts_with("\x1b_Gi=8;EINVAL:"), "{reply}");
    assert_eq!(run(&mut k, &mut f, b"Gs=oops"), "");
    assert!(k.handle(b"Xnot graphics", AT, SEEN, &mut f).is_none());
}

#[test]
fn quiet_commands_hear_nothing() {
    let (mut k, mut f) = (KittyIntake::default(), Fake::default());
    assert_eq!(
        run(&mut k, &mut f, &body("a=T,i=1,s=1,v=1,q=2", &[0; 3])),
        ""
    );
    assert_eq!(run(&mut k, &mut f, b"Ga=p,i=77,q=2"), "");
}

#[test]
fn file_transmissions_come_back_to_be_read_off_the_loop() {
    let (mut k, mut f) = (KittyIntake::default(), Fake::default());
    let name = b"/tmp/tty-graphics-protocol-x.png";
    let handled = k.handle(&body("a=T,t=t,f=100,i=3", name), AT, SEEN, &mut f);
    let Some(Handled::Load { command, name: got }) = handled else {
        panic!("{handled:?}")
    };
    assert_eq!(got, name);
    let png = png_bytes(1, 1, png::ColorType::Rgba, &[1, 2, 3, 4]);
    let reply = k.loaded(command.clone(), Ok(png), AT, SEEN, &mut f);
    assert_eq!(reply, b"\x1b_Gi=3;OK\x1b\\");
    assert_eq!(f.placed.len(), 1);
    let failed = Err(KittyError::new("EBADF", "not a regular file"));
    let reply = k.loaded(command, failed, AT, SEEN, &mut f);
    assert_eq!(reply, b"\x1b_Gi=3;EBADF:not a regular file\x1b\\");
}

#[test]
fn a_pictures_names_carried_to_a_new_intake_place_it_there() {
    let (mut old, mut f) = (KittyIntake::default(), Fake::default());
    assert_eq!(old.names(), None, "nothing named: nothing to carry");
    let reply = run(
        &mut old,
        &mut f,
        &body("a=t,i=9,s=2,v=2,q=1", &[1; 2 * 2 * 4]),
    );
    assert_eq!(reply, "");
    let reply = run(
        &mut old,
        &mut f,
        &body("a=t,I=4,s=2,v=2,q=1", &[2; 2 * 2 * 4]),
    );
    assert_eq!(reply, "");
    let names = old.names().unwrap();
    let mut new = KittyIntake::default();
    new.adopt_names(names.clone());
    assert_eq!(new.names(), Some(names));
    let reply = run(&mut new, &mut f, b"Ga=p,i=9");
    assert_eq!(reply, "\x1b_Gi=9;OK\x1b\\");
    let reply = run(&mut new, &mut f, b"Ga=p,I=4");
    assert!(reply.contains(";OK"), "{reply}");
    // A virtual placement's number comes across too.
    run(&mut new, &mut f, b"Ga=p,U=1,i=9,p=2,c=1,r=1");
    let names = new.names().unwrap();
    assert_eq!(names.virtuals.len(), 1);
    let mut newer = KittyIntake::default();
    newer.adopt_names(names);
    let carried = new.virtual_placements().find(9, 2);
    assert_eq!(newer.virtual_placements().find(9, 0), carried);
}

#[test]
fn a_virtual_placement_is_kept_under_its_numbers_and_moves_no_cursor() {
    let (mut k, mut f) = (KittyIntake::default(), Fake::default());
    let reply = run(
        &mut k,
        &mut f,
        &body("a=T,U=1,i=42,c=4,r=2,s=40,v=40,f=32", &[7; 40 * 40 * 4]),
    );
    assert_eq!(reply, "\x1b_Gi=42;OK\x1b\\");
    assert!(f.placed.is_empty(), "anchored in no cell");
    let (p, replacing) = &f.virtual_placed[0];
    assert_eq!(
        (p.kitty_image, p.cols, p.rows, *replacing),
        (42, 4, 2, None)
    );
    assert_eq!(k.virtual_placements().find(42, 0), Some(PlacementId(1)));
    // The same numbers again replace it.
    let reply = run(&mut k, &mut f, b"Ga=p,U=1,i=42,c=2,r=1");
    assert_eq!(reply, "\x1b_Gi=42;OK\x1b\\");
    assert_eq!(f.virtual_placed[1].1, Some(PlacementId(1)));
    assert_eq!(k.virtual_placements().find(42, 0), Some(PlacementId(2)));
    // Deleted by its picture's id (a delete of what is visible leaves it).
    run(&mut k, &mut f, b"Ga=d,d=a");
    assert!(f.unplaced.is_empty());
    run(&mut k, &mut f, b"Ga=d,d=i,i=42");
    assert_eq!(f.unplaced, [PlacementId(2)]);
    assert_eq!(k.virtual_placements().find(42, 0), None);
    // Placed again, then the picture sent again under its id: it goes.
    run(&mut k, &mut f, b"Ga=p,U=1,i=42,c=2,r=1");
    run(&mut k, &mut f, &body("a=t,i=42,s=1,v=1,f=32", &[7; 4]));
    assert_eq!(k.virtual_placements().find(42, 0), None);
    assert_eq!(f.unplaced, [PlacementId(2), PlacementId(3)]);
}

#[test]
fn frames_in_chunks_and_controls_reach_their_picture() {
    use crate::graphics::animation::{FrameOp, Playing};
    let (mut k, mut f) = (KittyIntake::default(), Fake::default());
    run(&mut k, &mut f, &body("a=t,i=5,s=2,v=2,f=32", &[1; 16]));
    // A frame in two chunks, each saying a=f.
    let data = STANDARD.encode([9u8; 8]);
    let (first, rest) = data.split_at(4);
    let first = format!("Ga=f,i=5,s=2,v=1,f=32,y=1,c=1,z=50,m=1;{first}");
    assert_eq!(run(&mut k, &mut f, first.as_bytes()), "");
    let reply = run(&mut k, &mut f, format!("Ga=f,m=0;{rest}").as_bytes());
    assert_eq!(reply, "\x1b_Gi=5;OK\x1b\\");
    let Some((
        image,
        FrameOp::Frame {
            data, y, base, gap, ..
        },
    )) = f.animated.first()
    else {
        panic!("no frame: {:?}", f.animated);
    };
    assert_eq!((image.0, data.width(), *y, *base, *gap), (1, 2, 1, 1, 50));
    let reply = run(&mut k, &mut f, b"Ga=a,i=5,c=2,s=3");
    assert_eq!(reply, "\x1b_Gi=5;OK\x1b\\");
    assert!(matches!(
        f.animated[1].1,
        FrameOp::Control {
            current: Some(2),
            playing: Some(Playing::Looping),
            ..
        }
    ));
    let reply = run(&mut k, &mut f, b"Ga=a,i=6,c=2");
    assert!(reply.starts_with("\x1b_Gi=6;ENOENT:"), "{reply}");
}

#[test]
fn deleting_frames_names_the_frame_and_frees_a_lone_frame_only_with_f_uppercase() {
    let (mut k, mut f) = (KittyIntake::default(), Fake::default());
    run(&mut k, &mut f, &body("a=t,i=5,s=1,v=1,f=32", &[1; 4]));
    run(&mut k, &mut f, &body("a=t,I=8,s=1,v=1,f=32", &[1; 4]));
    f.extra_frames.insert(1, 1);
    f.extra_frames.insert(2, 1);
    // Frame 2 of the first; then its only frame left: kept.
    assert_eq!(run(&mut k, &mut f, b"Ga=d,d=f,i=5,r=2"), "");
    assert_eq!(run(&mut k, &mut f, b"Ga=d,d=f,i=5"), "");
    // By number (`I`), the frame left out (0: the first).
    run(&mut k, &mut f, b"Ga=d,d=f,I=8");
    assert_eq!(f.frames_deleted, vec![(ImageId(1), 2), (ImageId(2), 0)]);
    assert!(f.deleted.is_empty(), "{:?}", f.deleted);
    // `d=F` on the only frame deletes the picture and frees it.
    run(&mut k, &mut f, b"Ga=d,d=F,i=5");
    assert_eq!(
        f.deleted,
        vec![(
            Deletion::Images {
                images: vec![ImageId(1)],
                placement: None
            },
            true
        )]
    );
    // An unknown picture: nothing.
    assert_eq!(run(&mut k, &mut f, b"Ga=d,d=F,i=6"), "");
    assert_eq!(f.deleted.len(), 1);
}
