//! Kitty's animation commands read into what the store does with a
//! picture's frames ([`FrameOp`]): `a=f` (a frame's data), `a=a` (how the
//! frames play, which is current, gaps) and `a=c` (a rectangle of one
//! frame composed onto another). The keys mean other things here than in
//! a transmission (`c` and `r` are frame numbers, `X` a composition mode,
//! `Y` a colour), as the protocol says.

use super::command::{Action, Command};
use super::reply::KittyError;
use crate::graphics::animation::{FrameError, FrameOp, Playing};
use crate::graphics::image::RgbaImage;

/// `a=f` with its data decoded.
pub fn frame(cmd: &Command, data: RgbaImage) -> FrameOp {
    FrameOp::Frame {
        data,
        x: cmd.x,
        y: cmd.y,
        base: cmd.cols,
        edit: cmd.rows,
        background: cmd.cell_y,
        replace: cmd.cell_x == 1,
        gap: cmd.z,
    }
}

/// `a=a` or `a=c` (`None` for any other command).
pub fn control_or_compose(cmd: &Command) -> Option<FrameOp> {
    match cmd.action {
        Action::Animation(b'a') => Some(FrameOp::Control {
            playing: cmd
                .has(b's')
                .then(|| Playing::from_number(cmd.data_width))
                .flatten(),
            current: (cmd.cols > 0).then_some(cmd.cols),
            // `z=0` is as if left out.
            gap: (cmd.rows > 0 && cmd.z != 0).then_some((cmd.rows, cmd.z)),
            loops: (cmd.data_height > 0).then_some(cmd.data_height),
        }),
        Action::Animation(b'c') => Some(FrameOp::Compose {
            from: cmd.rows,
            to: cmd.cols,
            from_x: cmd.cell_x,
            from_y: cmd.cell_y,
            x: cmd.x,
            y: cmd.y,
            width: cmd.w,
            height: cmd.h,
            replace: cmd.cursor_stays,
        }),
        _ => None,
    }
}

/// The reply for a refused frame operation.
pub fn error(e: &FrameError) -> KittyError {
    let code = match e {
        FrameError::NoImage | FrameError::NoFrame(_) => "ENOENT",
        FrameError::Invalid(_) => "EINVAL",
        FrameError::NoSpace => "ENOSPC",
    };
    let text = e.to_string();
    let message = text.split_once(':').map_or(text.as_str(), |(_, m)| m);
    KittyError::new(code, message)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
    use super::*;

    #[test]
    fn control_keys_read_as_the_protocol_says() {
        let cmd = Command::parse(b"a=a,i=3,c=7,s=3,v=1,r=2,z=48").unwrap();
        assert_eq!(
            control_or_compose(&cmd),
            Some(FrameOp::Control {
                playing: Some(Playing::Looping),
                current: Some(7),
                gap: Some((2, 48)),
                loops: Some(1),
            })
        );
        let cmd = Command::parse(b"a=c,i=1,r=7,c=9,w=23,h=27,X=4,Y=8,x=1,y=3").unwrap();
        assert_eq!(
            control_or_compose(&cmd),
            Some(FrameOp::Compose {
                from: 7,
                to: 9,
                from_x: 4,
                from_y: 8,
                x: 1,
                y: 3,
                width: 23,
                height: 27,
                replace: false,
            })
        );
        assert_eq!(
            error(&FrameError::NoFrame(4)).to_string(),
            "ENOENT:no frame 4"
        );
    }
}
