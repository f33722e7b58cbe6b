//! A local Calendly for development and tests, served at /calendly-standin by `devserver`
//! (unless CALENDLY_STANDIN=false) and by the API's tests; never by the `api` binary. It behaves
//! towards our API the way Calendly does (docs/integrations.md §2): bookings, cancellations and
//! reschedules made on its pages (or through the methods tests call) reach our webhook as signed
//! `invitee.created` / `invitee.canceled` deliveries with Calendly's payload shape, and it
//! answers the API calls our client makes (get a scheduled event, cancel it; `api doctor`'s
//! `/users/me` and webhook subscriptions) behind a Bearer token. Our client reaches it only through its configured base URLs, so the production code
//! path is what runs.
//!
//! State lives in memory: a restart forgets every booking, which is what a stand-in wants.
//! `calendar` records changes, `webhooks` builds and delivers what Calendly sends, `pages` and
//! `rest` serve what a person and our client see.

mod calendar;
mod pages;
mod rest;
#[cfg(test)]
mod tests;
mod webhooks;

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::Router;
use chrono::{DateTime, Datelike, Days, NaiveDate, SecondsFormat, TimeZone, Utc, Weekday};
use chrono_tz::Tz;
use rand::Rng;
use serde_json::{Value, json};

use api::configuration::Config;
use api::scheduling::calendly::uuid_of;
use api::site::SiteInfo;

/// Every session is one hour; the slot grid below assumes it.
const SESSION: chrono::TimeDelta = chrono::TimeDelta::hours(1);
/// Offered start hours, local time: 10:00 to 15:00 so the last session ends at 16:00.
const FIRST_HOUR: u32 = 10;
const LAST_HOUR: u32 = 15;
/// How far ahead the scheduling page offers slots, starting tomorrow.
const DAYS_AHEAD: u64 = 14;

pub struct StandInConfig {
    /// Where the stand-in is served, e.g. "http://127.0.0.1:8080/calendly-standin" (no trailing slash).
    pub public_base: String,
    /// Our webhook endpoint, e.g. "http://127.0.0.1:8080/api/webhooks/calendly".
    pub webhook_url: String,
    pub signing_key: String,
    /// Bearer token the API routes require.
    pub token: String,
    /// The coach's zone (Africa/Cairo): slots are laid out and pages show times in it.
    pub time_zone: Tz,
    pub host_email: String,
    /// e.g. "Executive Coaching Session (60 min)".
    pub event_name: String,
}

/// What a booking created: the URIs our API keys bookings on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Booked {
    pub invitee_uri: String,
    pub event_uri: String,
}

/// Who canceled and why; the same shape on the invitee and on its scheduled event.
#[derive(Clone)]
struct Cancellation {
    canceled_by: String,
    reason: String,
    canceler_type: &'static str,
    created_at: DateTime<Utc>,
}

impl Cancellation {
    fn json(&self) -> Value {
        json!({
            "canceled_by": self.canceled_by,
            "reason": self.reason,
            "canceler_type": self.canceler_type,
            "created_at": timestamp(self.created_at),
        })
    }
}

struct Event {
    uri: String,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    join_url: String,
    /// Google Meet links can appear after `invitee.created`: while true the location reads
    /// `processing` with a null link, until the first API read "finds" it.
    join_url_pending: bool,
    /// Invitee UUIDs (always one: coaching sessions are one-on-one).
    invitees: Vec<String>,
    cancellation: Option<Cancellation>,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
}

struct Invitee {
    uuid: String,
    uri: String,
    /// The UUID of its scheduled event.
    event: String,
    name: String,
    email: String,
    utm_content: Option<String>,
    rescheduled: bool,
    old_invitee: Option<String>,
    new_invitee: Option<String>,
    cancellation: Option<Cancellation>,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
    /// The bytes of the last webhook built for this invitee, kept for replay tests.
    last_body: Option<Vec<u8>>,
}

/// Events and invitees by UUID (the last segment of their URIs).
#[derive(Default)]
struct Calendar {
    events: HashMap<String, Event>,
    invitees: HashMap<String, Invitee>,
}

impl Calendar {
    /// No active event overlaps `[start, end)`: the coach has a single calendar.
    fn is_free(&self, start: DateTime<Utc>, end: DateTime<Utc>) -> bool {
        !self
            .events
            .values()
            .any(|e| e.cancellation.is_none() && e.start < end && start < e.end)
    }
}

/// Why a booking change was refused; the pages map these to 404 / 409.
#[derive(Debug, thiserror::Error)]
enum Refusal {
    #[error("no such booking")]
    UnknownInvitee,
    #[error("this booking is already canceled")]
    AlreadyCanceled,
    #[error("that time is not available")]
    SlotTaken,
}

pub struct CalendlyStandIn {
    config: StandInConfig,
    calendar: Mutex<Calendar>,
    http: reqwest::Client,
    /// When true, invitee.created carries location.join_url = null (status "processing") and the
    /// API's GET scheduled event returns the join_url only afterwards (as Google Meet links appear late).
    pub join_url_late: AtomicBool,
    /// The state of the webhook subscription for our webhook URL, as `GET
    /// /webhook_subscriptions` lists it: `active` (from the start: the stand-in delivers to it),
    /// `disabled` (what Calendly does after a day of failed deliveries), or none.
    subscription: Mutex<Option<&'static str>>,
}

impl CalendlyStandIn {
    /// The Calendly of `config`: it signs webhooks with the first of CALENDLY_SIGNING_KEYS,
    /// accepts CALENDLY_TOKEN, is served where CALENDLY_API_BASE must point
    /// (`{API}/calendly-standin/api`), and lays out slots in the coach's time zone.
    pub fn for_api(config: &Config) -> anyhow::Result<Arc<CalendlyStandIn>> {
        crate::guard::ensure_development(config, "CALENDLY_STANDIN")?;
        let c = &config.calendly;
        let (Some(key), Some(token)) = (c.signing_keys.first(), &c.token) else {
            anyhow::bail!(
                "CALENDLY_STANDIN needs CALENDLY_SIGNING_KEYS, CALENDLY_TOKEN and CALENDLY_API_BASE pointing at it"
            );
        };
        let site = SiteInfo::load(&config.content_dir)?;
        Ok(CalendlyStandIn::new(StandInConfig {
            public_base: c
                .api_base
                .trim_end_matches('/')
                .trim_end_matches("/api")
                .to_string(),
            webhook_url: format!("{}/api/webhooks/calendly", config.public_base_url),
            signing_key: key.expose().to_string(),
            token: token.expose().to_string(),
            time_zone: site.time_zone,
            host_email: site.coach_email,
            event_name: "Executive Coaching Session (60 min)".into(),
        }))
    }

    pub fn new(config: StandInConfig) -> Arc<CalendlyStandIn> {
        Arc::new(CalendlyStandIn {
            config,
            calendar: Mutex::new(Calendar::default()),
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(10))
                .build()
                .expect("a TLS backend is available"),
            join_url_late: AtomicBool::new(false),
            subscription: Mutex::new(Some("active")),
        })
    }

    /// Sets the webhook subscription's state (`Some("disabled")`), or removes it (`None`), for
    /// tests of what `api doctor` says about it. Deliveries are not affected.
    pub fn set_subscription(&self, state: Option<&'static str>) {
        *self
            .subscription
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = state;
    }

    /// Books `start` (UTC; 60 minutes) for name/email with optional utm_content; sends invitee.created
    /// and returns once the webhook POST got an answer (Err if delivery failed or was non-2xx).
    /// The booking stands even when delivery fails, as it would at Calendly; no slot rules are
    /// applied here so tests can book any time (the scheduling page applies them).
    pub async fn book(
        &self,
        name: &str,
        email: &str,
        utm_content: Option<&str>,
        start: DateTime<Utc>,
    ) -> anyhow::Result<Booked> {
        let (booked, body) = self.record_booking(name, email, utm_content, start, false)?;
        self.deliver(body).await?;
        Ok(booked)
    }

    /// Cancels an invitee (by the invitee, or the host when by_host); sends invitee.canceled.
    pub async fn cancel(
        &self,
        invitee_uri: &str,
        by_host: bool,
        reason: &str,
    ) -> anyhow::Result<()> {
        let body = self.record_cancellation(uuid_of(invitee_uri), by_host, reason)?;
        self.deliver(body).await
    }

    /// Reschedules: a new invitee (payload.old_invitee = old URI) on a new event at new_start, and the old
    /// invitee canceled with payload.rescheduled = true and payload.new_invitee = new URI. Sends both
    /// webhooks, canceled first when `cancel_first`, else created first. Returns the new booking.
    /// Calendly does not document the arrival order, so tests drive both.
    pub async fn reschedule(
        &self,
        old_invitee_uri: &str,
        new_start: DateTime<Utc>,
        cancel_first: bool,
    ) -> anyhow::Result<Booked> {
        let (booked, canceled, created) =
            self.record_reschedule(uuid_of(old_invitee_uri), new_start, false)?;
        self.deliver_in_order(canceled, created, cancel_first)
            .await?;
        Ok(booked)
    }

    /// The exact JSON body that was (or would be) sent for the last event of this invitee, for replay tests:
    pub fn last_webhook_body(&self, invitee_uri: &str) -> Option<Vec<u8>> {
        self.calendar()
            .invitees
            .get(uuid_of(invitee_uri))
            .and_then(|i| i.last_body.clone())
    }

    /// The calendar, even after a panic elsewhere poisoned the lock: the maps stay consistent
    /// because every change is made in one short critical section.
    fn calendar(&self) -> MutexGuard<'_, Calendar> {
        self.calendar.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn base(&self) -> &str {
        self.config.public_base.trim_end_matches('/')
    }

    fn host_uri(&self) -> String {
        format!("{}/api/users/HOST", self.base())
    }

    fn organization_uri(&self) -> String {
        format!("{}/api/organizations/ORG", self.base())
    }

    /// The configuration has no host name, so one is made from the email's local part
    /// (`mona.ahmed@…` → "Mona Ahmed"); it shows as `canceled_by` and `user_name`.
    fn host_name(&self) -> String {
        let local = self.config.host_email.split('@').next().unwrap_or_default();
        let words: Vec<String> = local
            .split(['.', '_', '-', '+'])
            .filter(|w| !w.is_empty())
            .map(|w| {
                let mut chars = w.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_uppercase().chain(chars).collect()
                })
            })
            .collect();
        if words.is_empty() {
            "Host".to_string()
        } else {
            words.join(" ")
        }
    }

    /// The start times the scheduling page offers, ignoring bookings: Sunday to Thursday
    /// (Egypt's working week), hourly 10:00–15:00 in the coach's zone, from tomorrow for
    /// `DAYS_AHEAD` days.
    fn offered_slots(&self, now: DateTime<Utc>) -> Vec<DateTime<Utc>> {
        let tz = self.config.time_zone;
        let today = now.with_timezone(&tz).date_naive();
        (1..=DAYS_AHEAD)
            .filter_map(|d| today.checked_add_days(Days::new(d)))
            .filter(|date| {
                matches!(
                    date.weekday(),
                    Weekday::Sun | Weekday::Mon | Weekday::Tue | Weekday::Wed | Weekday::Thu
                )
            })
            .flat_map(|date| {
                (FIRST_HOUR..=LAST_HOUR).filter_map(move |h| date.and_hms_opt(h, 0, 0))
            })
            // `single` skips a local time a DST change makes ambiguous or nonexistent.
            .filter_map(|local| tz.from_local_datetime(&local).single())
            .map(|t| t.with_timezone(&Utc))
            .filter(|t| *t > now)
            .collect()
    }

    /// Offered slots not taken by an active booking, grouped by local day for the page.
    fn free_slots(&self, now: DateTime<Utc>) -> Vec<(NaiveDate, Vec<DateTime<Utc>>)> {
        let offered = self.offered_slots(now);
        let calendar = self.calendar();
        let mut days: Vec<(NaiveDate, Vec<DateTime<Utc>>)> = Vec::new();
        for slot in offered
            .into_iter()
            .filter(|s| calendar.is_free(*s, *s + SESSION))
        {
            let day = slot.with_timezone(&self.config.time_zone).date_naive();
            match days.last_mut() {
                Some((d, slots)) if *d == day => slots.push(slot),
                _ => days.push((day, vec![slot])),
            }
        }
        days
    }
}

/// Calendly's timestamp format: RFC 3339 in UTC with microseconds and `Z`.
fn timestamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Micros, true)
}

/// 16 random bytes in upper-case hex: as opaque as Calendly's UUIDs.
fn random_uuid() -> String {
    hex::encode_upper(rand::random::<[u8; 16]>())
}

/// A link shaped like Google Meet's `abc-defg-hij`.
fn meet_link() -> String {
    let mut rng = rand::thread_rng();
    let mut letters = |n: usize| -> String {
        (0..n)
            .map(|_| char::from(rng.gen_range(b'a'..=b'z')))
            .collect()
    };
    format!(
        "https://meet.google.com/{}-{}-{}",
        letters(3),
        letters(4),
        letters(3)
    )
}

pub fn router(standin: Arc<CalendlyStandIn>) -> Router {
    Router::new()
        .merge(pages::routes())
        .merge(rest::routes())
        .with_state(standin)
}
