//! One code point of a cell's mark, read back: the marks of styles
//! (`cell_marks`) and of joined clusters (`cluster_marks`) each name an id
//! in one or two code points, the first (when there are two) carrying its
//! high bits.

/// What a mark's code point says of its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkPart {
    /// The id's high bits, in place: a [`MarkPart::Last`] follows.
    Lead(u32),
    /// The id's low bits: the mark ends here.
    Last(u32),
}
