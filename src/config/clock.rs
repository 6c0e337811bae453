//! The status bar's clock: its text in the user's time zone, and when that
//! text next changes, so the loop wakes once per change (once a minute for
//! `%H:%M`) and never per frame.

use std::time::Duration;

use jiff::ZonedDateTime as Zoned;
use jiff::fmt::strtime;

/// How often a format's text can change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Granularity {
    Second,
    Minute,
}

/// Directives that show seconds (or finer): `%S`, `%T` (`%H:%M:%S`), `%s`
/// (epoch seconds), `%r`, `%X` and `%c` (locale times with seconds), `%f`
/// and `%N` (fractions, shown at one-second steps).
const SECOND_DIRECTIVES: &[char] = &['S', 'T', 's', 'r', 'X', 'c', 'f', 'N'];

pub fn granularity(format: &str) -> Granularity {
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            continue;
        }
        // Flags and widths (`%-S`, `%3f`) come between `%` and the letter.
        for d in chars.by_ref() {
            if d == '%' {
                break;
            }
            if d.is_ascii_alphabetic() {
                if SECOND_DIRECTIVES.contains(&d) {
                    return Granularity::Second;
                }
                break;
            }
        }
    }
    Granularity::Minute
}

/// Refuses a format jiff cannot render (typo'd directive, dangling `%`),
/// or one that prints control characters into the status bar.
pub fn check_format(format: &str) -> Result<(), String> {
    if format.chars().any(char::is_control) {
        return Err("the clock format cannot hold control characters".into());
    }
    strtime::format(format, &Zoned::now())
        .map(|_| ())
        .map_err(|e| format!("bad clock format `{format}`: {e}"))
}

/// The clock's text now.
pub fn text_now(format: &str) -> String {
    text_at(format, &Zoned::now())
}

fn text_at(format: &str, at: &Zoned) -> String {
    // Checked when the config was read; a failure here shows as `?`
    // rather than breaking the frame.
    strtime::format(format, at).unwrap_or_else(|_| "?".into())
}

/// A little after the text changes, so the wake-up finds it changed even
/// if the timer fires a hair early.
const MARGIN: Duration = Duration::from_millis(20);

/// How long from `now` until the clock's text next changes.
pub fn until_next_change(granularity: Granularity, now: &Zoned) -> Duration {
    let into_second = Duration::from_nanos(u64::try_from(now.subsec_nanosecond()).unwrap_or(0));
    let second = Duration::from_secs(1);
    let left = match granularity {
        Granularity::Second => second.saturating_sub(into_second),
        Granularity::Minute => {
            let secs = u64::try_from(now.second()).unwrap_or(0);
            Duration::from_secs(60 - secs.min(59)).saturating_sub(into_second)
        }
    };
    left + MARGIN
}

/// [`until_next_change`] from the current time.
pub fn until_next_change_now(granularity: Granularity) -> Duration {
    until_next_change(granularity, &Zoned::now())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn at(text: &str) -> Zoned {
        text.parse().unwrap()
    }

    #[test]
    fn granularity_follows_the_format() {
        assert_eq!(granularity("%H:%M"), Granularity::Minute);
        assert_eq!(granularity("%a %d %b %H:%M"), Granularity::Minute);
        assert_eq!(granularity("%H:%M:%S"), Granularity::Second);
        assert_eq!(granularity("%T"), Granularity::Second);
        assert_eq!(granularity("%-S"), Granularity::Second);
        assert_eq!(granularity("100%% %M"), Granularity::Minute);
    }

    /// A minute clock sleeps to the next minute, whatever second it is.
    #[test]
    fn a_minute_clock_wakes_at_the_next_minute() {
        let now = at("2026-11-23T12:00:17.5+00:00[UTC]");
        assert_eq!(
            until_next_change(Granularity::Minute, &now),
            Duration::from_millis(42_500) + MARGIN
        );
        let now = at("2026-11-23T12:00:59.999+00:00[UTC]");
        assert_eq!(
            until_next_change(Granularity::Minute, &now),
            Duration::from_millis(1) + MARGIN
        );
        let now = at("2026-11-23T12:00:00.25+00:00[UTC]");
        assert_eq!(
            until_next_change(Granularity::Second, &now),
            Duration::from_millis(750) + MARGIN
        );
    }

    #[test]
    fn text_and_format_checks() {
        let now = at("2026-11-23T09:05:07+01:00[+01:00]");
        assert_eq!(text_at("%H:%M", &now), "09:05");
        assert_eq!(text_at("%H:%M:%S", &now), "09:05:07");
        assert!(check_format("%H:%M").is_ok());
        assert!(check_format("%H %").is_err());
        assert!(check_format("%H\x1b[31m").is_err());
    }
}
