//! How work on other threads reports back without knowing who listens.
//!
//! A pane's exit watcher, a history replay and a search each post their own
//! message type to a [`Mailbox`]; the loop (in `app`) builds the mailboxes so
//! that each message lands on its one channel, wrapped in its own event
//! type. The parts that post never name the loop's event type, so the loop
//! imports them and nothing imports the loop.

use std::fmt;
use std::sync::Arc;

use crossbeam_channel::Sender;

/// Where messages of type `T` go. Cloning shares the destination.
pub struct Mailbox<T>(Arc<dyn Fn(T) -> bool + Send + Sync>);

impl<T> Mailbox<T> {
    /// Messages go through `deliver`, which says whether anyone still
    /// listens.
    pub fn new(deliver: impl Fn(T) -> bool + Send + Sync + 'static) -> Self {
        Self(Arc::new(deliver))
    }

    /// A mailbox nobody reads: for tests and benchmarks whose background
    /// work's results do not matter.
    pub fn discarding() -> Self {
        Self::new(|_| false)
    }

    /// Delivers `message`; false once the receiving end is gone (the loop
    /// has quit, so the message no longer matters).
    pub fn post(&self, message: T) -> bool {
        (self.0)(message)
    }
}

impl<T: Send + 'static> Mailbox<T> {
    /// Messages go to `tx`, wrapped by `wrap` into the channel's type.
    pub fn wrapping<E: Send + 'static>(tx: Sender<E>, wrap: fn(T) -> E) -> Self {
        Self::new(move |message| tx.send(wrap(message)).is_ok())
    }
}

/// A mailbox straight onto a channel of its own type (tests, mostly).
impl<T: Send + 'static> From<Sender<T>> for Mailbox<T> {
    fn from(tx: Sender<T>) -> Self {
        Self::new(move |message| tx.send(message).is_ok())
    }
}

impl<T> Clone for Mailbox<T> {
    fn clone(&self) -> Self {
        Self(Arc::clone(&self.0))
    }
}

impl<T> fmt::Debug for Mailbox<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Mailbox")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrapping_mailbox_delivers_onto_the_wider_channel() {
        #[derive(Debug, PartialEq)]
        enum Wide {
            Number(u32),
        }
        let (tx, rx) = crossbeam_channel::unbounded();
        let mailbox = Mailbox::wrapping(tx, Wide::Number);
        assert!(mailbox.clone().post(7));
        assert_eq!(rx.try_recv().ok(), Some(Wide::Number(7)));
    }

    #[test]
    fn posting_after_the_receiver_is_gone_says_so() {
        let (tx, rx) = crossbeam_channel::unbounded::<u8>();
        let mailbox = Mailbox::from(tx);
        drop(rx);
        assert!(!mailbox.post(1));
    }
}
