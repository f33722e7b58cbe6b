//! What several admin routes share: the coach's day as a UTC instant, and the validity the
//! admin picks for granted credits.

use chrono::{NaiveDate, NaiveTime, TimeZone, Utc};

use crate::domain::validity::MAX_VALIDITY_MONTHS;
use crate::domain::{now, ts};
use crate::error::AppError;
use crate::state::AppState;

/// A day in the coach's time zone, as the UTC timestamp of its first instant.
pub fn start_of_local_day(state: &AppState, day: NaiveDate) -> String {
    state
        .site()
        .time_zone
        .from_local_datetime(&day.and_time(NaiveTime::MIN))
        .earliest()
        .map(|d| ts(d.with_timezone(&Utc)))
        .unwrap_or_else(now)
}

/// The validity the admin picked for granted credits, or the settings' default.
pub fn validity_months(state: &AppState, picked: Option<i64>) -> Result<u32, AppError> {
    validity_months_in_range(picked)?;
    Ok(picked.map_or(state.site().default_validity_months, |m| m as u32))
}

/// The refusal of a validity the admin picked outside 1 to 60 months.
pub fn validity_months_in_range(picked: Option<i64>) -> Result<(), AppError> {
    match picked {
        Some(m) if !(1..=i64::from(MAX_VALIDITY_MONTHS)).contains(&m) => Err(AppError::field(
            "validityMonths",
            "Credits must be valid for 1 to 60 months",
        )),
        _ => Ok(()),
    }
}
