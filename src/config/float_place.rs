//! Where a profile's floating pane sits: `x`, `y`, `width` and `height`,
//! each in cells or as a percentage of the panes' area (`"50%"`), like
//! zellij's floating panes. Any left out is where a new floating pane
//! would have it. Saved profiles write cells.

use ratatui::layout::Rect;
use serde::Deserialize;

/// One coordinate or length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extent {
    Cells(u16),
    /// Of the area's width (for `x` and `width`) or height; 0 to 100.
    Percent(u16),
}

impl Extent {
    /// In cells, out of `total`.
    pub fn of(self, total: u16) -> u16 {
        match self {
            Extent::Cells(n) => n,
            Extent::Percent(p) => {
                u16::try_from(u32::from(total) * u32::from(p.min(100)) / 100).unwrap_or(total)
            }
        }
    }
}

/// A floating pane's box as the profile gives it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FloatPlace {
    pub x: Option<Extent>,
    pub y: Option<Extent>,
    pub width: Option<Extent>,
    pub height: Option<Extent>,
}

impl FloatPlace {
    pub fn is_empty(&self) -> bool {
        *self == FloatPlace::default()
    }

    /// The box in `area` (screen coordinates): what is given, else
    /// `default`'s. The caller keeps it inside the area.
    pub fn resolve(&self, area: Rect, default: Rect) -> Rect {
        Rect {
            x: self.x.map_or(default.x, |x| area.x + x.of(area.width)),
            y: self.y.map_or(default.y, |y| area.y + y.of(area.height)),
            width: self.width.map_or(default.width, |w| w.of(area.width)),
            height: self.height.map_or(default.height, |h| h.of(area.height)),
        }
    }
}

/// An extent as written: a whole number of cells or `"N%"`.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(
    untagged,
    expecting = "a number of cells or a percentage such as \"50%\""
)]
pub enum RawExtent {
    Cells(i64),
    Text(String),
}

impl RawExtent {
    /// Checks the value; a length (`width`, `height`) must be at least 1.
    pub fn check(&self, key: &str, length: bool) -> Result<Extent, String> {
        let min = i64::from(length);
        match self {
            RawExtent::Cells(n) if (min..=i64::from(u16::MAX)).contains(n) => {
                Ok(Extent::Cells(u16::try_from(*n).unwrap_or(u16::MAX)))
            }
            RawExtent::Cells(n) => Err(format!(
                "`{key} = {n}` is out of range: {min} to {} cells, or a percentage such as \"50%\"",
                u16::MAX
            )),
            RawExtent::Text(text) => {
                let percent = text
                    .trim()
                    .strip_suffix('%')
                    .and_then(|n| n.trim().parse::<u16>().ok())
                    .filter(|p| (min..=100).contains(&i64::from(*p)));
                percent.map(Extent::Percent).ok_or_else(|| {
                    format!(
                        "`{key} = {text:?}`: expected a number of cells or a percentage from \
                         {min}% to 100%, such as \"50%\""
                    )
                })
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn percentages_are_of_the_area_and_missing_values_default() {
        let area = Rect::new(0, 1, 200, 50);
        let default = Rect::new(20, 6, 160, 40);
        let place = FloatPlace {
            x: Some(Extent::Percent(50)),
            y: Some(Extent::Cells(3)),
            width: Some(Extent::Cells(60)),
            height: None,
        };
        assert_eq!(place.resolve(area, default), Rect::new(100, 4, 60, 40));
        assert_eq!(FloatPlace::default().resolve(area, default), default);
    }

    #[test]
    fn written_values_are_checked() {
        let cells = |n| RawExtent::Cells(n).check("width", true);
        let text = |t: &str| RawExtent::Text(t.into()).check("x", false);
        assert_eq!(cells(30), Ok(Extent::Cells(30)));
        assert!(cells(0).unwrap_err().contains("out of range"));
        assert!(cells(-4).is_err() && cells(70_000).is_err());
        assert_eq!(text("25%"), Ok(Extent::Percent(25)));
        assert_eq!(text("0%"), Ok(Extent::Percent(0)));
        assert!(text("150%").is_err() && text("half").is_err() && text("10").is_err());
        assert_eq!(
            RawExtent::Cells(0).check("x", false),
            Ok(Extent::Cells(0)),
            "a position may be 0"
        );
    }
}
