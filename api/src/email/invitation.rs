//! The calendar invitation attached to booking emails (RFC 5545, with the iTIP methods of
//! RFC 5546), built with the `icalendar` crate, which escapes text values and folds every line
//! at 75 octets without splitting a UTF-8 character.
//!
//! Every message about a booking carries the same UID, `booking-<id>@<site host>`, and a
//! SEQUENCE that grows with each change, so a calendar updates the event it has (a
//! reschedule) or removes it (a cancellation) instead of adding another or ignoring it. Both
//! are stored on the booking (`bookings.ics_uid`, `bookings.ics_sequence`): a booking that a
//! reschedule made takes over the UID of the booking it replaces, with the next SEQUENCE.
//!
//! What a person reads in it (SUMMARY, DESCRIPTION) is in the recipient's language; an Arabic
//! one says so with `LANGUAGE=ar` (RFC 5545 §3.2.10). The English invitation is unchanged.

use chrono::{DateTime, Utc};
use icalendar::{Calendar, Component, Event, EventLike, EventStatus, Property};

use super::Attachment;
use super::locale;
use crate::domain::Language;

/// What an invitation asks of the calendar (RFC 5546 §1.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Add the event, or update it when the UID is known and the SEQUENCE higher.
    Request,
    /// Remove the event.
    Cancel,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Request => "REQUEST",
            Method::Cancel => "CANCEL",
        }
    }
}

/// Who sends a booking's invitations and how a calendar recognises them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitation {
    /// The booking whose id the UID carries (this one, or the one a reschedule replaced).
    pub uid_booking: String,
    /// The site's host, the UID's right-hand side.
    pub host: String,
    pub sequence: i64,
    /// ORGANIZER: the coach, as settings name the site and its contact email.
    pub organizer_name: String,
    pub organizer_email: String,
}

impl Invitation {
    /// A booking's first invitation: its own UID, SEQUENCE 0.
    pub fn new(
        booking_id: &str,
        base_url: &str,
        organizer_name: &str,
        organizer_email: &str,
    ) -> Invitation {
        Invitation {
            uid_booking: booking_id.into(),
            host: host_of(base_url),
            sequence: 0,
            organizer_name: organizer_name.into(),
            organizer_email: organizer_email.into(),
        }
    }

    /// `booking-<id>@<host>`.
    pub fn uid(&self) -> String {
        format!("booking-{}@{}", self.uid_booking, self.host)
    }

    /// Takes a stored UID and SEQUENCE (`bookings::store` reads and moves them on).
    pub fn set_stored(&mut self, stored: Option<(String, i64)>) {
        if let Some((uid_booking, sequence)) = stored {
            self.uid_booking = uid_booking;
            self.sequence = sequence;
        }
    }
}

/// `https://coach.example.com:8443/x` → `coach.example.com`.
fn host_of(base_url: &str) -> String {
    let rest = base_url.split_once("://").map_or(base_url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host.rsplit_once(':') {
        Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) && !h.ends_with(']') => h,
        _ => host,
    };
    if host.is_empty() {
        "localhost".into()
    } else {
        host.to_ascii_lowercase()
    }
}

/// A parameter value (a CN) cannot hold a double quote or a control character (RFC 5545 §3.1).
fn param_text(s: &str) -> String {
    s.chars()
        .filter(|c| *c != '"' && !c.is_control())
        .collect::<String>()
        .trim()
        .to_string()
}

/// ORGANIZER or ATTENDEE: `mailto:` the address, the name as CN.
fn cal_address(key: &str, name: &str, email: &str) -> Property {
    // A CAL-ADDRESS is written as it is (not TEXT-escaped): a line break in it would start
    // a property of its own.
    let email: String = email.chars().filter(|c| !c.is_control()).collect();
    let mut p = Property::new(key, format!("mailto:{email}"));
    let name = param_text(name);
    if !name.is_empty() {
        p.add_parameter("CN", &name);
    }
    p
}

/// A text property a person reads, marked with its language unless it is the default.
fn text_property(key: &str, value: &str, lang: Language) -> Property {
    let mut p = Property::new(key, value);
    if lang != Language::En {
        p.add_parameter("LANGUAGE", lang.as_str());
    }
    p
}

/// The `.ics` text: one VEVENT, times in UTC, CRLF line ends, folded at 75 octets.
/// `attendee` is the client, `(name, email)`; `stamp` is DTSTAMP (when it was written);
/// SUMMARY and DESCRIPTION are in `lang`.
pub fn ics(
    lang: Language,
    s: &SessionDetails,
    site: &str,
    method: Method,
    attendee: (&str, &str),
    stamp: DateTime<Utc>,
) -> String {
    let inv = &s.invitation;
    let organizer = cal_address("ORGANIZER", &inv.organizer_name, &inv.organizer_email);
    let mut attendee = cal_address("ATTENDEE", attendee.0, attendee.1);
    attendee
        .add_parameter("ROLE", "REQ-PARTICIPANT")
        .add_parameter("PARTSTAT", "ACCEPTED")
        .add_parameter("RSVP", "FALSE");
    let mut event = Event::new();
    event
        .uid(&inv.uid())
        .timestamp(stamp)
        .sequence(u32::try_from(inv.sequence).unwrap_or(u32::MAX))
        .starts(s.start)
        .ends(s.end)
        .append_property(text_property(
            "SUMMARY",
            locale::session_title(lang, s.title),
            lang,
        ))
        .status(match method {
            Method::Request => EventStatus::Confirmed,
            Method::Cancel => EventStatus::Cancelled,
        })
        .append_property(organizer)
        .append_multi_property(attendee);
    if let Some(link) = s.meet_link {
        let description = match lang {
            Language::En => format!("Join the meeting: {link}"),
            Language::Ar => format!("رابط الانضمام إلى الاجتماع: {link}"),
        };
        event
            .location(link)
            .append_property(text_property("DESCRIPTION", &description, lang));
    }
    let mut calendar = Calendar::empty();
    calendar
        .append_property(("PRODID", format!("-//{site}//Client Portal//EN").as_str()))
        .append_property(("VERSION", "2.0"))
        .append_property(("CALSCALE", "GREGORIAN"))
        .append_property(("METHOD", method.as_str()))
        .push(event.done());
    calendar.done().to_string()
}

/// The invitation as an email attachment.
pub fn attachment(
    lang: Language,
    s: &SessionDetails,
    site: &str,
    method: Method,
    attendee: (&str, &str),
    stamp: DateTime<Utc>,
) -> Attachment {
    Attachment {
        filename: "session.ics".into(),
        content_type: format!("text/calendar; charset=utf-8; method={}", method.as_str()),
        content: ics(lang, s, site, method, attendee, stamp),
    }
}

/// What a booking email says about the session.
pub struct SessionDetails<'a> {
    pub booking_id: &'a str,
    pub title: &'a str,
    pub start: chrono::DateTime<chrono::Utc>,
    pub end: chrono::DateTime<chrono::Utc>,
    pub meet_link: Option<&'a str>,
    pub time_zone: chrono_tz::Tz,
    /// The attached invitation's organizer, UID and SEQUENCE.
    pub invitation: Invitation,
}

impl SessionDetails<'_> {
    /// As a person writes it, the zone named plainly, the same as the portal shows it:
    /// `Thursday, December 3, 2026 at 3:00 PM (Cairo time)`.
    pub fn when(&self) -> String {
        self.when_in(Language::En)
    }

    /// [`SessionDetails::when`] in `lang`: `الخميس 3 ديسمبر 2026 الساعة 3:00 م (بتوقيت القاهرة)`.
    pub fn when_in(&self, lang: Language) -> String {
        locale::session_time(lang, self.start, self.time_zone)
    }
}

/// A time zone as a person names it: `Africa/Cairo` → "Cairo time", UTC as "UTC" (the
/// islands' `zoneName` says the same). Other languages: `locale::zone_name`.
pub fn zone_name(tz: chrono_tz::Tz) -> String {
    locale::zone_name(Language::En, tz)
}
