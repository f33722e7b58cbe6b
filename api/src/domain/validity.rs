//! How long a lot of credits lasts. A lot bought (or granted) on day D, in the coach's time
//! zone, for N months can be used through day D + N months (calendar months; the 31st becomes
//! the month's last day), and its unused credits leave at the start of the following local
//! day. The dashboard and the emails name that last day.

use chrono::{DateTime, Days, Months, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;

use super::ts;

/// The longest validity a grant may have (the same bound as a package's `validity_months`).
pub const MAX_VALIDITY_MONTHS: u32 = content_model::model::MAX_VALIDITY_MONTHS;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validity {
    /// The last day the credits can be used, in the coach's time zone.
    pub expires_on: NaiveDate,
    /// The UTC instant they leave (storage format of [`ts`]).
    pub expires_at: String,
}

impl Validity {
    /// Credits granted at `from` lasting `months` calendar months.
    pub fn months_from(from: DateTime<Utc>, months: u32, tz: Tz) -> Validity {
        let start = from.with_timezone(&tz).date_naive();
        let last = start
            .checked_add_months(Months::new(months))
            .unwrap_or(NaiveDate::MAX);
        Validity::through(last, tz)
    }

    /// Credits that can be used through `last_day` (local).
    pub fn through(last_day: NaiveDate, tz: Tz) -> Validity {
        let next = last_day.checked_add_days(Days::new(1)).unwrap_or(last_day);
        let midnight = next.and_hms_opt(0, 0, 0).expect("midnight exists");
        // A day may start at 01:00 where the clocks jump forward at midnight (Cairo has).
        let leaves = tz
            .from_local_datetime(&midnight)
            .earliest()
            .or_else(|| {
                tz.from_local_datetime(&(midnight + chrono::Duration::hours(1)))
                    .earliest()
            })
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or_else(|| midnight.and_utc());
        Validity {
            expires_on: last_day,
            expires_at: ts(leaves),
        }
    }

    /// `2027-05-23`, as stored.
    pub fn expires_on_text(&self) -> String {
        self.expires_on.format("%Y-%m-%d").to_string()
    }
}

/// `2027-05-23` → `May 23, 2027`, the spec's MMM dd, yyyy.
pub fn display_day(day: &str) -> String {
    NaiveDate::parse_from_str(day, "%Y-%m-%d")
        .map(|d| d.format("%b %d, %Y").to_string())
        .unwrap_or_else(|_| day.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn six_months_run_to_the_same_local_day_and_leave_at_the_next_local_midnight() {
        // 23:30 UTC on Jan 14 is already Jan 15 in Cairo (UTC+2).
        let v = Validity::months_from(at("2026-01-14T23:30:00Z"), 6, chrono_tz::Africa::Cairo);
        assert_eq!(v.expires_on_text(), "2026-07-15");
        // Cairo is on summer time (UTC+3) in July.
        assert_eq!(v.expires_at, "2026-07-15T21:00:00.000000Z");
        assert_eq!(display_day("2026-07-15"), "Jul 15, 2026");
    }

    #[test]
    fn the_31st_ends_on_the_last_day_of_a_shorter_month() {
        let v = Validity::months_from(at("2026-08-31T10:00:00Z"), 6, chrono_tz::UTC);
        assert_eq!(v.expires_on_text(), "2027-02-28");
    }
}
