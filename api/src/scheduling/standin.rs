//! A local Calendly for development and tests, served at /calendly-standin only when
//! CALENDLY_STANDIN=true (never in production). It behaves towards our API the way Calendly
//! does (integrations.md §2): bookings, cancellations and reschedules made on its pages (or
//! through the methods tests call) reach our webhook as signed `invitee.created` /
//! `invitee.canceled` deliveries with Calendly's payload shape, and it answers the two API calls
//! our client makes (get a scheduled event, cancel it) behind a Bearer token. Our client reaches
//! it only through its configured base URLs, so the production code path is what runs.
//!
//! State lives in memory: a restart forgets every booking, which is what a stand-in wants.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use chrono::{DateTime, Datelike, Days, NaiveDate, SecondsFormat, TimeZone, Utc, Weekday};
use chrono_tz::Tz;
use rand::Rng;
use serde::Deserialize;
use serde_json::{Value, json};

use super::calendly::{signature_header, uuid_of};
use crate::email::templates::escape;

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
}

impl CalendlyStandIn {
    pub fn new(config: StandInConfig) -> Arc<CalendlyStandIn> {
        Arc::new(CalendlyStandIn {
            config,
            calendar: Mutex::new(Calendar::default()),
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(10))
                .build()
                .expect("a TLS backend is available"),
            join_url_late: AtomicBool::new(false),
        })
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

    /// Adds an active event with one invitee; returns the invitee's UUID.
    fn insert_booking(
        &self,
        calendar: &mut Calendar,
        (name, email, utm_content): (&str, &str, Option<&str>),
        start: DateTime<Utc>,
        old_invitee: Option<String>,
        now: DateTime<Utc>,
    ) -> String {
        let (evt, inv) = (random_uuid(), random_uuid());
        let event_uri = format!("{}/api/scheduled_events/{evt}", self.base());
        calendar.events.insert(
            evt.clone(),
            Event {
                uri: event_uri.clone(),
                start,
                end: start + SESSION,
                join_url: meet_link(),
                join_url_pending: self.join_url_late.load(Ordering::Relaxed),
                invitees: vec![inv.clone()],
                cancellation: None,
                created_at: now,
                updated_at: now,
            },
        );
        calendar.invitees.insert(
            inv.clone(),
            Invitee {
                uuid: inv.clone(),
                uri: format!("{event_uri}/invitees/{inv}"),
                event: evt,
                name: name.to_string(),
                email: email.to_string(),
                utm_content: utm_content.map(str::to_string),
                rescheduled: false,
                old_invitee,
                new_invitee: None,
                cancellation: None,
                created_at: now,
                updated_at: now,
                last_body: None,
            },
        );
        inv
    }

    /// Marks an active invitee and its (one-on-one) event canceled.
    fn cancel_in(
        calendar: &mut Calendar,
        inv: &str,
        cancellation: &Cancellation,
    ) -> Result<(), Refusal> {
        let invitee = calendar
            .invitees
            .get_mut(inv)
            .ok_or(Refusal::UnknownInvitee)?;
        if invitee.cancellation.is_some() {
            return Err(Refusal::AlreadyCanceled);
        }
        invitee.cancellation = Some(cancellation.clone());
        invitee.updated_at = cancellation.created_at;
        if let Some(event) = calendar.events.get_mut(&invitee.event)
            && event.cancellation.is_none()
        {
            event.cancellation = Some(cancellation.clone());
            event.updated_at = cancellation.created_at;
        }
        Ok(())
    }

    fn record_booking(
        &self,
        name: &str,
        email: &str,
        utm_content: Option<&str>,
        start: DateTime<Utc>,
        require_free: bool,
    ) -> Result<(Booked, Vec<u8>), Refusal> {
        let now = Utc::now();
        let mut calendar = self.calendar();
        // Checked under the same lock as the insert so two browsers cannot take one slot.
        if require_free && !calendar.is_free(start, start + SESSION) {
            return Err(Refusal::SlotTaken);
        }
        let inv = self.insert_booking(&mut calendar, (name, email, utm_content), start, None, now);
        let body = self.webhook_body(&mut calendar, &inv, "invitee.created", now)?;
        Ok((self.booked(&calendar, &inv)?, body))
    }

    fn record_cancellation(
        &self,
        inv: &str,
        by_host: bool,
        reason: &str,
    ) -> Result<Vec<u8>, Refusal> {
        let now = Utc::now();
        let mut calendar = self.calendar();
        let invitee = calendar.invitees.get(inv).ok_or(Refusal::UnknownInvitee)?;
        let (canceled_by, canceler_type) = if by_host {
            (self.host_name(), "host")
        } else {
            (invitee.name.clone(), "invitee")
        };
        let cancellation = Cancellation {
            canceled_by,
            reason: reason.to_string(),
            canceler_type,
            created_at: now,
        };
        Self::cancel_in(&mut calendar, inv, &cancellation)?;
        self.webhook_body(&mut calendar, inv, "invitee.canceled", now)
    }

    /// Returns the new booking and the bodies of invitee.canceled (old) and invitee.created (new).
    fn record_reschedule(
        &self,
        old: &str,
        new_start: DateTime<Utc>,
        require_free: bool,
    ) -> Result<(Booked, Vec<u8>, Vec<u8>), Refusal> {
        let now = Utc::now();
        let mut calendar = self.calendar();
        let previous = calendar.invitees.get(old).ok_or(Refusal::UnknownInvitee)?;
        if previous.cancellation.is_some() {
            return Err(Refusal::AlreadyCanceled);
        }
        let (name, email, utm_content, old_uri) = (
            previous.name.clone(),
            previous.email.clone(),
            previous.utm_content.clone(),
            previous.uri.clone(),
        );
        if require_free && !calendar.is_free(new_start, new_start + SESSION) {
            return Err(Refusal::SlotTaken);
        }
        let cancellation = Cancellation {
            canceled_by: name.clone(),
            reason: String::new(),
            canceler_type: "invitee",
            created_at: now,
        };
        Self::cancel_in(&mut calendar, old, &cancellation)?;
        let new = self.insert_booking(
            &mut calendar,
            (&name, &email, utm_content.as_deref()),
            new_start,
            Some(old_uri),
            now,
        );
        let booked = self.booked(&calendar, &new)?;
        if let Some(previous) = calendar.invitees.get_mut(old) {
            previous.rescheduled = true;
            previous.new_invitee = Some(booked.invitee_uri.clone());
        }
        let canceled = self.webhook_body(&mut calendar, old, "invitee.canceled", now)?;
        let created = self.webhook_body(&mut calendar, &new, "invitee.created", now)?;
        Ok((booked, canceled, created))
    }

    fn booked(&self, calendar: &Calendar, inv: &str) -> Result<Booked, Refusal> {
        let invitee = calendar.invitees.get(inv).ok_or(Refusal::UnknownInvitee)?;
        let event = calendar
            .events
            .get(&invitee.event)
            .ok_or(Refusal::UnknownInvitee)?;
        Ok(Booked {
            invitee_uri: invitee.uri.clone(),
            event_uri: event.uri.clone(),
        })
    }

    /// The scheduled event resource, as in webhook payloads and `GET /scheduled_events/{uuid}`.
    fn event_json(&self, calendar: &Calendar, event: &Event) -> Value {
        let active = event
            .invitees
            .iter()
            .filter(|i| {
                calendar
                    .invitees
                    .get(*i)
                    .is_some_and(|i| i.cancellation.is_none())
            })
            .count();
        let location = if event.join_url_pending {
            json!({"type": "google_conference", "status": "processing", "join_url": null})
        } else {
            json!({"type": "google_conference", "status": "pushed", "join_url": event.join_url})
        };
        let mut resource = json!({
            "uri": event.uri,
            "name": self.config.event_name,
            "status": if event.cancellation.is_some() { "canceled" } else { "active" },
            "start_time": timestamp(event.start),
            "end_time": timestamp(event.end),
            "event_type": format!("{}/api/event_types/COACHING", self.base()),
            "location": location,
            "invitees_counter": {"total": event.invitees.len(), "active": active, "limit": 1},
            "event_memberships": [{
                "user": self.host_uri(),
                "user_email": self.config.host_email,
                "user_name": self.host_name(),
            }],
            "event_guests": [],
            "created_at": timestamp(event.created_at),
            "updated_at": timestamp(event.updated_at),
        });
        if let Some(c) = &event.cancellation {
            resource["cancellation"] = c.json();
        }
        resource
    }

    fn invitee_json(&self, calendar: &Calendar, invitee: &Invitee, event: &Event) -> Value {
        let base = self.base();
        json!({
            "uri": invitee.uri,
            "email": invitee.email,
            "first_name": null,
            "last_name": null,
            "name": invitee.name,
            "status": if invitee.cancellation.is_some() { "canceled" } else { "active" },
            "timezone": self.config.time_zone.name(),
            "event": event.uri,
            "created_at": timestamp(invitee.created_at),
            "updated_at": timestamp(invitee.updated_at),
            "text_reminder_number": null,
            "rescheduled": invitee.rescheduled,
            "old_invitee": invitee.old_invitee,
            "new_invitee": invitee.new_invitee,
            "cancel_url": format!("{base}/cancellations/{}", invitee.uuid),
            "reschedule_url": format!("{base}/reschedulings/{}", invitee.uuid),
            "questions_and_answers": [],
            "tracking": {
                "utm_campaign": null,
                "utm_source": null,
                "utm_medium": null,
                "utm_content": invitee.utm_content,
                "utm_term": null,
                "salesforce_uuid": null,
            },
            "cancellation": invitee.cancellation.as_ref().map(Cancellation::json),
            "no_show": null,
            "payment": null,
            "reconfirmation": null,
            "routing_form_submission": null,
            "scheduled_event": self.event_json(calendar, event),
        })
    }

    /// Serializes the envelope once (these exact bytes are signed and sent) and keeps a copy
    /// on the invitee for `last_webhook_body`.
    fn webhook_body(
        &self,
        calendar: &mut Calendar,
        inv: &str,
        kind: &str,
        now: DateTime<Utc>,
    ) -> Result<Vec<u8>, Refusal> {
        let invitee = calendar.invitees.get(inv).ok_or(Refusal::UnknownInvitee)?;
        let event = calendar
            .events
            .get(&invitee.event)
            .ok_or(Refusal::UnknownInvitee)?;
        let envelope = json!({
            "event": kind,
            "created_at": timestamp(now),
            "created_by": self.host_uri(),
            "payload": self.invitee_json(calendar, invitee, event),
        });
        let body = serde_json::to_vec(&envelope).expect("a JSON value serializes");
        if let Some(invitee) = calendar.invitees.get_mut(inv) {
            invitee.last_body = Some(body.clone());
        }
        Ok(body)
    }

    /// POSTs one webhook signed at send time, as Calendly does; Err on transport failure or non-2xx.
    async fn deliver(&self, body: Vec<u8>) -> anyhow::Result<()> {
        let signature = signature_header(&self.config.signing_key, Utc::now().timestamp(), &body);
        let response = self
            .http
            .post(&self.config.webhook_url)
            .header(header::CONTENT_TYPE, "application/json")
            .header("Calendly-Webhook-Signature", signature)
            .body(body)
            .send()
            .await
            .map_err(|e| {
                anyhow::anyhow!(
                    "Calendly stand-in webhook not delivered: {}",
                    e.without_url()
                )
            })?;
        let status = response.status();
        anyhow::ensure!(
            status.is_success(),
            "Calendly stand-in webhook refused with {status}: {}",
            response.text().await.unwrap_or_default()
        );
        Ok(())
    }

    /// Delivers the way Calendly does when nobody waits on the answer (integrations.md §2.7): a
    /// refused or failed delivery is tried again with exponential back-off. Calendly keeps trying
    /// for 24 hours; the stand-in gives up after `DELIVERY_ATTEMPTS` (about 8 s of waiting).
    async fn deliver_retrying(&self, body: Vec<u8>) -> anyhow::Result<()> {
        let (mut attempt, mut wait) = (1, FIRST_RETRY_WAIT);
        loop {
            match self.deliver(body.clone()).await {
                Err(e) if attempt < DELIVERY_ATTEMPTS => {
                    tracing::info!(attempt, error = %e, "Calendly stand-in: delivery failed, retrying");
                    tokio::time::sleep(wait).await;
                    (attempt, wait) = (attempt + 1, wait * 2);
                }
                result => return result,
            }
        }
    }

    /// Sends both reschedule webhooks even if the first fails (Calendly's deliveries are
    /// independent); reports the first failure.
    async fn deliver_in_order(
        &self,
        canceled: Vec<u8>,
        created: Vec<u8>,
        cancel_first: bool,
    ) -> anyhow::Result<()> {
        let (first, second) = if cancel_first {
            (canceled, created)
        } else {
            (created, canceled)
        };
        let first = self.deliver(first).await;
        let second = self.deliver(second).await;
        first.and(second)
    }
}

/// How often an asynchronous webhook is tried, and the first wait between tries (it doubles).
const DELIVERY_ATTEMPTS: u32 = 6;
const FIRST_RETRY_WAIT: Duration = Duration::from_millis(250);

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
        .route("/calendly-standin/book", get(book_page).post(book_submit))
        .route("/calendly-standin/booked/{inv}", get(booked_page))
        .route(
            "/calendly-standin/cancellations/{inv}",
            get(cancel_page).post(cancel_submit),
        )
        .route(
            "/calendly-standin/reschedulings/{inv}",
            get(reschedule_page).post(reschedule_submit),
        )
        .route(
            "/calendly-standin/api/scheduled_events/{evt}",
            get(api_event),
        )
        .route(
            "/calendly-standin/api/scheduled_events/{evt}/cancellation",
            post(api_cancel),
        )
        .with_state(standin)
}

// ---- Pages -------------------------------------------------------------------------------

const STYLE: &str = "body{font-family:system-ui,sans-serif;background:#f4f6fa;color:#1c2433;margin:0}\
main{max-width:42rem;margin:2rem auto;background:#fff;padding:2rem;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.08)}\
.note{color:#b45309;font-size:.85rem;margin-top:0}.notice{background:#fef2f2;color:#991b1b;padding:.75rem 1rem;border-radius:8px}\
h1{font-size:1.4rem;margin:.5rem 0}h2{font-size:1rem;margin:1.5rem 0 .5rem;color:#475569}\
label{display:block;margin:.75rem 0}input,textarea{display:block;width:100%;margin-top:.25rem;padding:.5rem;box-sizing:border-box;border:1px solid #cbd5e1;border-radius:6px;font:inherit}\
.slots{display:flex;flex-wrap:wrap;gap:.5rem}.slots button,.primary{padding:.5rem 1rem;border:1px solid #006bff;background:#fff;color:#006bff;border-radius:6px;cursor:pointer;font:inherit}\
.slots button:hover,.primary:hover{background:#006bff;color:#fff}.actions a{margin-right:1rem}.muted{color:#64748b}";

fn layout(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><link rel=\"icon\" href=\"data:,\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{title}</title><style>{STYLE}</style></head><body><main>\
<p class=\"note\">Local Calendly stand-in: no real calendar is used.</p>{body}</main></body></html>",
        title = escape(title)
    )
}

fn page(status: StatusCode, title: &str, body: &str) -> Response {
    (status, Html(layout(title, body))).into_response()
}

fn message_page(status: StatusCode, title: &str, message: &str) -> Response {
    page(
        status,
        title,
        &format!("<h1>{}</h1><p>{}</p>", escape(title), escape(message)),
    )
}

fn refusal_page(refusal: &Refusal) -> Response {
    let status = match refusal {
        Refusal::UnknownInvitee => StatusCode::NOT_FOUND,
        Refusal::AlreadyCanceled | Refusal::SlotTaken => StatusCode::CONFLICT,
    };
    message_page(status, "Not possible", &refusal.to_string())
}

/// The booking was made but our API did not take the webhook: say so loudly, this is what a
/// developer needs to see (Calendly would retry for 24 h; the stand-in does not).
fn delivery_failed_page(error: &anyhow::Error, inv: &str) -> Response {
    page(
        StatusCode::BAD_GATEWAY,
        "Webhook not delivered",
        &format!(
            "<h1>Webhook not delivered</h1><p>The change was recorded, but the webhook failed: {}</p>\
<p><a href=\"/calendly-standin/booked/{}\">See the booking</a></p>",
            escape(&format!("{error:#}")),
            escape(inv)
        ),
    )
}

/// "Sunday 12 July 2026, 15:00" in the coach's zone.
fn local_time(tz: Tz, t: DateTime<Utc>) -> String {
    t.with_timezone(&tz)
        .format("%A %-d %B %Y, %H:%M")
        .to_string()
}

fn parse_start(s: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s.trim())
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

impl CalendlyStandIn {
    /// The slot picker: one POST form whose submit buttons are the free slots, grouped by day,
    /// with `fields` (inputs) placed above them so one click books.
    fn slot_form(&self, action: &str, fields: &str) -> String {
        let tz = self.config.time_zone;
        let days: String = self
            .free_slots(Utc::now())
            .iter()
            .map(|(day, slots)| {
                let buttons: String = slots
                    .iter()
                    .map(|s| {
                        format!(
                            "<button type=\"submit\" name=\"start\" value=\"{}\">{}</button>",
                            escape(&s.to_rfc3339_opts(SecondsFormat::Secs, true)),
                            escape(&s.with_timezone(&tz).format("%H:%M").to_string())
                        )
                    })
                    .collect();
                format!(
                    "<section><h2>{}</h2><div class=\"slots\">{buttons}</div></section>",
                    escape(&day.format("%A, %-d %B %Y").to_string())
                )
            })
            .collect();
        let days = if days.is_empty() {
            "<p class=\"muted\">No free times in the next 14 days.</p>".to_string()
        } else {
            days
        };
        format!(
            "<form method=\"post\" action=\"{}\">{fields}<p class=\"muted\">Times are in {}. Choose a time to book it.</p>{days}</form>",
            escape(action),
            escape(tz.name())
        )
    }

    fn book_html(&self, prefill: &Prefill, notice: Option<&str>) -> String {
        let fields = format!(
            "<label>Name <input name=\"name\" value=\"{}\" required autocomplete=\"name\"></label>\
<label>Email <input type=\"email\" name=\"email\" value=\"{}\" required autocomplete=\"email\"></label>\
<input type=\"hidden\" name=\"utm_content\" value=\"{}\">",
            escape(&prefill.name),
            escape(&prefill.email),
            escape(&prefill.utm_content)
        );
        layout(
            &self.config.event_name,
            &format!(
                "<h1>{}</h1><p class=\"muted\">60 minutes · Google Meet · with {}</p>{}{}",
                escape(&self.config.event_name),
                escape(&self.host_name()),
                notice_html(notice),
                self.slot_form("/calendly-standin/book", &fields)
            ),
        )
    }

    fn reschedule_html(&self, inv: &str, notice: Option<&str>) -> Result<String, Refusal> {
        let current = {
            let calendar = self.calendar();
            let invitee = calendar.invitees.get(inv).ok_or(Refusal::UnknownInvitee)?;
            if invitee.cancellation.is_some() {
                return Err(Refusal::AlreadyCanceled);
            }
            let event = calendar
                .events
                .get(&invitee.event)
                .ok_or(Refusal::UnknownInvitee)?;
            event.start
        };
        Ok(layout(
            "Reschedule",
            &format!(
                "<h1>Reschedule: {}</h1><p>Currently booked for <strong>{}</strong>. Choose a new time.</p>{}{}",
                escape(&self.config.event_name),
                escape(&local_time(self.config.time_zone, current)),
                notice_html(notice),
                self.slot_form(&format!("/calendly-standin/reschedulings/{inv}"), "")
            ),
        ))
    }
}

fn notice_html(notice: Option<&str>) -> String {
    notice.map_or_else(String::new, |n| {
        format!("<p class=\"notice\">{}</p>", escape(n))
    })
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Prefill {
    name: String,
    email: String,
    utm_content: String,
}

async fn book_page(
    State(s): State<Arc<CalendlyStandIn>>,
    Query(prefill): Query<Prefill>,
) -> Html<String> {
    Html(s.book_html(&prefill, None))
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct BookForm {
    name: String,
    email: String,
    utm_content: String,
    start: String,
}

async fn book_submit(
    State(s): State<Arc<CalendlyStandIn>>,
    Form(form): Form<BookForm>,
) -> Response {
    let prefill = Prefill {
        name: form.name.trim().to_string(),
        email: form.email.trim().to_string(),
        utm_content: form.utm_content.trim().to_string(),
    };
    let again = |status: StatusCode, notice: &str| {
        (status, Html(s.book_html(&prefill, Some(notice)))).into_response()
    };
    if prefill.name.is_empty() || !prefill.email.contains('@') {
        return again(
            StatusCode::BAD_REQUEST,
            "Please enter your name and email address.",
        );
    }
    // Only a slot the page offers, and one still free (checked again under the lock).
    let Some(start) = parse_start(&form.start).filter(|t| s.offered_slots(Utc::now()).contains(t))
    else {
        return again(
            StatusCode::CONFLICT,
            "That time is not available. Please choose another.",
        );
    };
    let utm = Some(prefill.utm_content.as_str()).filter(|u| !u.is_empty());
    let (booked, body) = match s.record_booking(&prefill.name, &prefill.email, utm, start, true) {
        Ok(done) => done,
        Err(_) => {
            return again(
                StatusCode::CONFLICT,
                "That time was just taken. Please choose another.",
            );
        }
    };
    let inv = uuid_of(&booked.invitee_uri).to_string();
    if let Err(e) = s.deliver(body).await {
        tracing::warn!(error = %e, "Calendly stand-in: invitee.created not delivered");
        return delivery_failed_page(&e, &inv);
    }
    Redirect::to(&format!("/calendly-standin/booked/{inv}")).into_response()
}

async fn booked_page(State(s): State<Arc<CalendlyStandIn>>, Path(inv): Path<String>) -> Response {
    let tz = s.config.time_zone;
    let calendar = s.calendar();
    let Some(invitee) = calendar.invitees.get(&inv) else {
        return refusal_page(&Refusal::UnknownInvitee);
    };
    let Some(event) = calendar.events.get(&invitee.event) else {
        return refusal_page(&Refusal::UnknownInvitee);
    };
    let when = format!(
        "{} – {} ({})",
        local_time(tz, event.start),
        event.end.with_timezone(&tz).format("%H:%M"),
        tz.name()
    );
    if let Some(c) = &invitee.cancellation {
        let next = invitee
            .new_invitee
            .as_deref()
            .map_or_else(String::new, |uri| {
                format!(
                    "<p><a href=\"/calendly-standin/booked/{}\">See the new booking</a></p>",
                    escape(uuid_of(uri))
                )
            });
        let title = if invitee.rescheduled {
            "Rescheduled"
        } else {
            "Canceled"
        };
        return page(
            StatusCode::OK,
            title,
            &format!(
                "<h1>{title}</h1><p>{} on <strong>{}</strong> was canceled by {}.</p>{next}",
                escape(&s.config.event_name),
                escape(&when),
                escape(&c.canceled_by)
            ),
        );
    }
    let link = if event.join_url_pending {
        "<p class=\"muted\">The Google Meet link is being created.</p>".to_string()
    } else {
        format!(
            "<p>Meeting link: <a href=\"{0}\">{0}</a></p>",
            escape(&event.join_url)
        )
    };
    page(
        StatusCode::OK,
        "You are scheduled",
        &format!(
            "<h1>You are scheduled</h1><p>{} with {}</p><p><strong>{}</strong></p>\
<p>A calendar invitation has been sent to {}.</p>{link}\
<p class=\"actions\"><a href=\"{}/cancellations/{inv}\">Cancel</a><a href=\"{}/reschedulings/{inv}\">Reschedule</a></p>",
            escape(&s.config.event_name),
            escape(&s.host_name()),
            escape(&when),
            escape(&invitee.email),
            escape(s.base()),
            escape(s.base()),
            inv = escape(&invitee.uuid),
        ),
    )
}

async fn cancel_page(State(s): State<Arc<CalendlyStandIn>>, Path(inv): Path<String>) -> Response {
    let when = {
        let calendar = s.calendar();
        let Some(invitee) = calendar.invitees.get(&inv) else {
            return refusal_page(&Refusal::UnknownInvitee);
        };
        if invitee.cancellation.is_some() {
            return refusal_page(&Refusal::AlreadyCanceled);
        }
        let Some(event) = calendar.events.get(&invitee.event) else {
            return refusal_page(&Refusal::UnknownInvitee);
        };
        local_time(s.config.time_zone, event.start)
    };
    page(
        StatusCode::OK,
        "Cancel event",
        &format!(
            "<h1>Cancel event</h1><p>{} on <strong>{}</strong></p>\
<form method=\"post\"><label>Reason for canceling <textarea name=\"reason\" rows=\"3\"></textarea></label>\
<button type=\"submit\" class=\"primary\">Cancel event</button></form>",
            escape(&s.config.event_name),
            escape(&when)
        ),
    )
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct CancelForm {
    reason: String,
}

async fn cancel_submit(
    State(s): State<Arc<CalendlyStandIn>>,
    Path(inv): Path<String>,
    Form(form): Form<CancelForm>,
) -> Response {
    let body = match s.record_cancellation(&inv, false, form.reason.trim()) {
        Ok(body) => body,
        Err(refusal) => return refusal_page(&refusal),
    };
    if let Err(e) = s.deliver(body).await {
        tracing::warn!(error = %e, "Calendly stand-in: invitee.canceled not delivered");
        return delivery_failed_page(&e, &inv);
    }
    message_page(
        StatusCode::OK,
        "Cancellation confirmed",
        &format!("Your {} has been canceled.", s.config.event_name),
    )
}

async fn reschedule_page(
    State(s): State<Arc<CalendlyStandIn>>,
    Path(inv): Path<String>,
) -> Response {
    match s.reschedule_html(&inv, None) {
        Ok(html) => Html(html).into_response(),
        Err(refusal) => refusal_page(&refusal),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct RescheduleForm {
    start: String,
}

async fn reschedule_submit(
    State(s): State<Arc<CalendlyStandIn>>,
    Path(inv): Path<String>,
    Form(form): Form<RescheduleForm>,
) -> Response {
    let again = |notice: &str| match s.reschedule_html(&inv, Some(notice)) {
        Ok(html) => (StatusCode::CONFLICT, Html(html)).into_response(),
        Err(refusal) => refusal_page(&refusal),
    };
    let Some(start) = parse_start(&form.start).filter(|t| s.offered_slots(Utc::now()).contains(t))
    else {
        return again("That time is not available. Please choose another.");
    };
    let (booked, canceled, created) = match s.record_reschedule(&inv, start, true) {
        Ok(done) => done,
        Err(Refusal::SlotTaken) => {
            return again("That time was just taken. Please choose another.");
        }
        Err(refusal) => return refusal_page(&refusal),
    };
    let new = uuid_of(&booked.invitee_uri).to_string();
    if let Err(e) = s.deliver_in_order(canceled, created, true).await {
        tracing::warn!(error = %e, "Calendly stand-in: reschedule webhooks not delivered");
        return delivery_failed_page(&e, &new);
    }
    Redirect::to(&format!("/calendly-standin/booked/{new}")).into_response()
}

// ---- API ---------------------------------------------------------------------------------

fn api_error(status: StatusCode, title: &str, message: &str) -> Response {
    (status, Json(json!({"title": title, "message": message}))).into_response()
}

fn not_found() -> Response {
    api_error(
        StatusCode::NOT_FOUND,
        "Resource Not Found",
        "The server could not find the requested resource.",
    )
}

/// Whether the request carries our Bearer token; handlers check it before even parsing the
/// body, as Calendly does, so a bad token always gets the 401 below.
fn authorised(s: &CalendlyStandIn, headers: &HeaderMap) -> bool {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    token.is_some_and(|t| !s.config.token.is_empty() && t == s.config.token)
}

fn unauthenticated() -> Response {
    api_error(
        StatusCode::UNAUTHORIZED,
        "Unauthenticated",
        "The access token is invalid",
    )
}

async fn api_event(
    State(s): State<Arc<CalendlyStandIn>>,
    headers: HeaderMap,
    Path(evt): Path<String>,
) -> Response {
    if !authorised(&s, &headers) {
        return unauthenticated();
    }
    let mut calendar = s.calendar();
    let Some(event) = calendar.events.get_mut(&evt) else {
        return not_found();
    };
    // The late Meet link "appears" by the time anyone asks for it.
    if event.join_url_pending {
        event.join_url_pending = false;
        event.updated_at = Utc::now();
    }
    let Some(event) = calendar.events.get(&evt) else {
        return not_found();
    };
    Json(json!({"resource": s.event_json(&calendar, event)})).into_response()
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct CancelBody {
    reason: String,
}

async fn api_cancel(
    State(s): State<Arc<CalendlyStandIn>>,
    headers: HeaderMap,
    Path(evt): Path<String>,
    body: Bytes,
) -> Response {
    if !authorised(&s, &headers) {
        return unauthenticated();
    }
    let request: CancelBody = if body.iter().all(u8::is_ascii_whitespace) {
        CancelBody::default()
    } else {
        match serde_json::from_slice(&body) {
            Ok(r) => r,
            Err(_) => {
                return api_error(
                    StatusCode::BAD_REQUEST,
                    "Invalid Argument",
                    "The supplied parameters are invalid.",
                );
            }
        }
    };
    let now = Utc::now();
    let cancellation = Cancellation {
        canceled_by: s.host_name(),
        reason: request.reason,
        canceler_type: "host",
        created_at: now,
    };
    let bodies = {
        let mut calendar = s.calendar();
        let Some(event) = calendar.events.get(&evt) else {
            return not_found();
        };
        if event.start <= now {
            return api_error(
                StatusCode::FORBIDDEN,
                "Permission Denied",
                "Event in the past",
            );
        }
        if event.cancellation.is_some() {
            return api_error(
                StatusCode::FORBIDDEN,
                "Permission Denied",
                "Event is already canceled",
            );
        }
        let invitees = event.invitees.clone();
        let mut bodies = Vec::new();
        for inv in &invitees {
            if CalendlyStandIn::cancel_in(&mut calendar, inv, &cancellation).is_ok()
                && let Ok(body) = s.webhook_body(&mut calendar, inv, "invitee.canceled", now)
            {
                bodies.push(body);
            }
        }
        if let Some(event) = calendar.events.get_mut(&evt)
            && event.cancellation.is_none()
        {
            event.cancellation = Some(cancellation.clone());
            event.updated_at = now;
        }
        bodies
    };
    // Calendly answers the API call and delivers the webhook on its own schedule; delivering
    // inline could deadlock a caller that holds a database transaction while it asks.
    let standin = Arc::clone(&s);
    tokio::spawn(async move {
        for body in bodies {
            if let Err(e) = standin.deliver_retrying(body).await {
                tracing::warn!(error = %e, "Calendly stand-in: invitee.canceled not delivered");
            }
        }
    });
    (
        StatusCode::CREATED,
        Json(json!({"resource": cancellation.json()})),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configuration::Secret;
    use crate::scheduling::calendly::{CalendlyConfig, Client, verify};
    use tokio::sync::mpsc;

    const KEY: &str = "standin-test-signing-key";
    const TOKEN: &str = "standin-test-token";

    /// Each delivery, verified like our webhook handler verifies it: the parsed JSON, or why not.
    type Delivery = Result<Value, String>;

    async fn serve(listener: tokio::net::TcpListener, app: Router) {
        tokio::spawn(async move { axum::serve(listener, app).await.expect("serve") });
    }

    async fn listener() -> (tokio::net::TcpListener, String) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        (listener, format!("http://{addr}"))
    }

    /// A webhook receiver that checks the signature with `key`; returns its URL.
    async fn receiver(key: &'static str) -> (String, mpsc::UnboundedReceiver<Delivery>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let app = Router::new().route(
            "/webhook",
            post(move |headers: HeaderMap, body: Bytes| {
                let tx = tx.clone();
                async move {
                    let header = headers
                        .get("Calendly-Webhook-Signature")
                        .and_then(|v| v.to_str().ok());
                    let verdict = verify(
                        header,
                        &body,
                        &[Secret::new(key)],
                        180,
                        Utc::now().timestamp(),
                    )
                    .map_err(|e| format!("{e:?}"))
                    .and_then(|()| {
                        serde_json::from_slice::<Value>(&body).map_err(|e| e.to_string())
                    });
                    let status = if verdict.is_ok() {
                        StatusCode::OK
                    } else {
                        StatusCode::UNAUTHORIZED
                    };
                    let _ = tx.send(verdict);
                    status
                }
            }),
        );
        let (l, url) = listener().await;
        serve(l, app).await;
        (format!("{url}/webhook"), rx)
    }

    fn config(public_base: String, webhook_url: String) -> StandInConfig {
        StandInConfig {
            public_base,
            webhook_url,
            signing_key: KEY.to_string(),
            token: TOKEN.to_string(),
            time_zone: chrono_tz::Africa::Cairo,
            host_email: "mona.coach@example.com".to_string(),
            event_name: "Executive Coaching Session (60 min)".to_string(),
        }
    }

    /// A stand-in whose router is served, and the receiver of its webhooks.
    async fn setup() -> (
        Arc<CalendlyStandIn>,
        String,
        mpsc::UnboundedReceiver<Delivery>,
    ) {
        let (webhook_url, rx) = receiver(KEY).await;
        let (l, origin) = listener().await;
        let standin =
            CalendlyStandIn::new(config(format!("{origin}/calendly-standin"), webhook_url));
        serve(l, router(Arc::clone(&standin))).await;
        (standin, origin, rx)
    }

    async fn next(rx: &mut mpsc::UnboundedReceiver<Delivery>) -> Value {
        tokio::time::timeout(Duration::from_secs(5), rx.recv())
            .await
            .expect("a webhook within 5 s")
            .expect("receiver open")
            .expect("the webhook verifies")
    }

    /// Noon UTC `days` from now: in the future, and on the hour.
    fn future(days: u64) -> DateTime<Utc> {
        let date = Utc::now()
            .date_naive()
            .checked_add_days(Days::new(days))
            .unwrap();
        Utc.from_utc_datetime(&date.and_hms_opt(12, 0, 0).unwrap())
    }

    fn client(origin: &str) -> Client {
        Client::new(CalendlyConfig {
            signing_keys: vec![Secret::new(KEY)],
            tolerance_seconds: 180,
            api_base: format!("{origin}/calendly-standin/api"),
            token: Some(Secret::new(TOKEN)),
            scheduling_url: format!("{origin}/calendly-standin/book"),
        })
    }

    fn no_redirects() -> reqwest::Client {
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap()
    }

    #[tokio::test]
    async fn book_sends_a_signed_invitee_created() {
        let (s, origin, mut rx) = setup().await;
        let start = future(3);
        let booked = s
            .book("Mona Ahmed", "mona@example.com", Some("ref-1"), start)
            .await
            .unwrap();
        let base = format!("{origin}/calendly-standin");
        assert!(
            booked
                .event_uri
                .starts_with(&format!("{base}/api/scheduled_events/"))
        );
        assert!(
            booked
                .invitee_uri
                .starts_with(&format!("{}/invitees/", booked.event_uri))
        );

        let w = next(&mut rx).await;
        assert_eq!(w["event"], "invitee.created");
        assert_eq!(w["created_by"], format!("{base}/api/users/HOST"));
        let p = &w["payload"];
        assert_eq!(p["uri"], booked.invitee_uri.as_str());
        assert_eq!(p["event"], booked.event_uri.as_str());
        assert_eq!(p["email"], "mona@example.com");
        assert_eq!(p["name"], "Mona Ahmed");
        assert_eq!(p["status"], "active");
        assert_eq!(p["timezone"], "Africa/Cairo");
        assert_eq!(p["rescheduled"], false);
        assert!(
            p["old_invitee"].is_null() && p["new_invitee"].is_null() && p["cancellation"].is_null()
        );
        assert_eq!(p["tracking"]["utm_content"], "ref-1");
        let inv = uuid_of(&booked.invitee_uri);
        assert_eq!(p["cancel_url"], format!("{base}/cancellations/{inv}"));
        assert_eq!(p["reschedule_url"], format!("{base}/reschedulings/{inv}"));
        let e = &p["scheduled_event"];
        assert_eq!(e["uri"], booked.event_uri.as_str());
        assert_eq!(e["status"], "active");
        assert_eq!(e["name"], "Executive Coaching Session (60 min)");
        assert_eq!(
            e["start_time"],
            start.format("%Y-%m-%dT%H:%M:%S.000000Z").to_string()
        );
        assert_eq!(
            e["end_time"],
            (start + SESSION)
                .format("%Y-%m-%dT%H:%M:%S.000000Z")
                .to_string()
        );
        assert_eq!(e["event_type"], format!("{base}/api/event_types/COACHING"));
        assert_eq!(e["location"]["type"], "google_conference");
        assert_eq!(e["location"]["status"], "pushed");
        let link = e["location"]["join_url"].as_str().unwrap();
        let code = link.strip_prefix("https://meet.google.com/").unwrap();
        let parts: Vec<usize> = code.split('-').map(str::len).collect();
        assert_eq!(parts, [3, 4, 3], "{link}");
        assert_eq!(
            e["event_memberships"][0]["user_email"],
            "mona.coach@example.com"
        );
        assert_eq!(e["event_memberships"][0]["user_name"], "Mona Coach");
        assert_eq!(e["invitees_counter"]["active"], 1);
        assert!(e.get("cancellation").is_none());

        let replay: Value =
            serde_json::from_slice(&s.last_webhook_body(&booked.invitee_uri).unwrap()).unwrap();
        assert_eq!(replay, w, "the replay body is what was sent");
    }

    #[tokio::test]
    async fn book_reports_a_refused_delivery() {
        let (webhook_url, mut rx) = receiver("another-key").await;
        let s = CalendlyStandIn::new(config(
            "http://127.0.0.1:9/calendly-standin".into(),
            webhook_url,
        ));
        let err = s
            .book("A", "a@example.com", None, future(2))
            .await
            .unwrap_err();
        assert!(err.to_string().contains("401"), "{err}");
        assert!(rx.recv().await.unwrap().is_err());
    }

    #[tokio::test]
    async fn a_refused_asynchronous_delivery_is_retried_until_it_is_accepted() {
        // A receiver that answers 503 twice (busy), then 200.
        let (tx, mut rx) = mpsc::unbounded_channel::<Value>();
        let refusals = Arc::new(std::sync::atomic::AtomicU32::new(2));
        let app = Router::new().route(
            "/webhook",
            post(move |body: Bytes| {
                let (tx, refusals) = (tx.clone(), Arc::clone(&refusals));
                async move {
                    if refusals
                        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                        .is_ok()
                    {
                        return StatusCode::SERVICE_UNAVAILABLE;
                    }
                    let _ = tx.send(serde_json::from_slice(&body).unwrap());
                    StatusCode::OK
                }
            }),
        );
        let (l, url) = listener().await;
        serve(l, app).await;
        let s = CalendlyStandIn::new(config(
            "http://127.0.0.1:9/calendly-standin".into(),
            format!("{url}/webhook"),
        ));
        let (_, body) = s
            .record_booking("A", "a@example.com", None, future(2), false)
            .unwrap();
        s.deliver_retrying(body).await.unwrap();
        let w = rx.try_recv().expect("delivered on the third try");
        assert_eq!(w["event"], "invitee.created");
        assert!(rx.try_recv().is_err(), "delivered once");
    }

    #[tokio::test]
    async fn cancel_sends_invitee_canceled() {
        let (s, _, mut rx) = setup().await;
        let booked = s
            .book("Mona Ahmed", "mona@example.com", None, future(4))
            .await
            .unwrap();
        next(&mut rx).await;

        s.cancel(&booked.invitee_uri, false, "Travelling")
            .await
            .unwrap();
        let w = next(&mut rx).await;
        assert_eq!(w["event"], "invitee.canceled");
        let p = &w["payload"];
        assert_eq!(p["status"], "canceled");
        assert_eq!(p["rescheduled"], false);
        assert!(p["tracking"]["utm_content"].is_null());
        assert_eq!(p["cancellation"]["canceler_type"], "invitee");
        assert_eq!(p["cancellation"]["canceled_by"], "Mona Ahmed");
        assert_eq!(p["cancellation"]["reason"], "Travelling");
        assert_eq!(p["scheduled_event"]["status"], "canceled");
        assert_eq!(p["scheduled_event"]["cancellation"], p["cancellation"]);
        assert_eq!(p["scheduled_event"]["invitees_counter"]["active"], 0);
        assert!(
            s.cancel(&booked.invitee_uri, true, "again").await.is_err(),
            "already canceled"
        );

        let other = s
            .book("Ali", "ali@example.com", None, future(5))
            .await
            .unwrap();
        next(&mut rx).await;
        s.cancel(&other.invitee_uri, true, "Coach unwell")
            .await
            .unwrap();
        let w = next(&mut rx).await;
        assert_eq!(w["payload"]["cancellation"]["canceler_type"], "host");
        assert_eq!(w["payload"]["cancellation"]["canceled_by"], "Mona Coach");
    }

    #[tokio::test]
    async fn reschedule_sends_both_events_in_either_order() {
        let (s, _, mut rx) = setup().await;
        for cancel_first in [true, false] {
            let old = s
                .book("Mona Ahmed", "mona@example.com", Some("ref-9"), future(3))
                .await
                .unwrap();
            next(&mut rx).await;
            let new_start = future(6);
            let new = s
                .reschedule(&old.invitee_uri, new_start, cancel_first)
                .await
                .unwrap();
            assert_ne!(new.event_uri, old.event_uri);

            let (a, b) = (next(&mut rx).await, next(&mut rx).await);
            let (canceled, created) = if cancel_first { (a, b) } else { (b, a) };
            assert_eq!(
                canceled["event"], "invitee.canceled",
                "cancel_first = {cancel_first}"
            );
            assert_eq!(
                created["event"], "invitee.created",
                "cancel_first = {cancel_first}"
            );

            let c = &canceled["payload"];
            assert_eq!(c["uri"], old.invitee_uri.as_str());
            assert_eq!(c["status"], "canceled");
            assert_eq!(c["rescheduled"], true);
            assert_eq!(c["new_invitee"], new.invitee_uri.as_str());
            assert_eq!(c["cancellation"]["canceler_type"], "invitee");

            let n = &created["payload"];
            assert_eq!(n["uri"], new.invitee_uri.as_str());
            assert_eq!(n["status"], "active");
            assert_eq!(n["rescheduled"], false);
            assert_eq!(n["old_invitee"], old.invitee_uri.as_str());
            assert_eq!(n["email"], "mona@example.com");
            assert_eq!(n["tracking"]["utm_content"], "ref-9");
            assert_eq!(n["scheduled_event"]["start_time"], timestamp(new_start));
        }
    }

    #[tokio::test]
    async fn the_api_needs_the_token_and_returns_the_event() {
        let (s, origin, mut rx) = setup().await;
        let booked = s
            .book("Mona Ahmed", "mona@example.com", None, future(3))
            .await
            .unwrap();
        next(&mut rx).await;
        let url = format!(
            "{origin}/calendly-standin/api/scheduled_events/{}",
            uuid_of(&booked.event_uri)
        );
        let http = reqwest::Client::new();

        for auth in [None, Some("Bearer wrong"), Some(TOKEN)] {
            let mut request = http.get(&url);
            if let Some(a) = auth {
                request = request.header("authorization", a);
            }
            let r = request.send().await.unwrap();
            assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
            let body: Value = r.json().await.unwrap();
            assert_eq!(
                body,
                json!({"title": "Unauthenticated", "message": "The access token is invalid"})
            );
        }

        let r = http.get(&url).bearer_auth(TOKEN).send().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["resource"]["uri"], booked.event_uri.as_str());
        assert_eq!(body["resource"]["status"], "active");

        let missing = http
            .get(format!("{url}X"))
            .bearer_auth(TOKEN)
            .send()
            .await
            .unwrap();
        assert_eq!(missing.status(), StatusCode::NOT_FOUND);
        assert_eq!(
            missing.json::<Value>().await.unwrap()["title"],
            "Resource Not Found"
        );

        // Our own client reads it the same way.
        let resource = client(&origin)
            .scheduled_event(&booked.event_uri)
            .await
            .unwrap();
        assert_eq!(resource["uri"], booked.event_uri.as_str());
    }

    #[tokio::test]
    async fn the_api_cancels_and_sends_the_webhook() {
        let (s, origin, mut rx) = setup().await;
        let booked = s
            .book("Mona Ahmed", "mona@example.com", None, future(3))
            .await
            .unwrap();
        next(&mut rx).await;
        let url = format!(
            "{origin}/calendly-standin/api/scheduled_events/{}/cancellation",
            uuid_of(&booked.event_uri)
        );
        let http = reqwest::Client::new();
        let r = http
            .post(&url)
            .json(&json!({"reason": "No remaining sessions"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED);

        let r = http
            .post(&url)
            .bearer_auth(TOKEN)
            .json(&json!({"reason": "No remaining sessions"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::CREATED);
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["resource"]["canceler_type"], "host");
        assert_eq!(body["resource"]["canceled_by"], "Mona Coach");
        assert_eq!(body["resource"]["reason"], "No remaining sessions");

        let w = next(&mut rx).await;
        assert_eq!(w["event"], "invitee.canceled");
        assert_eq!(w["payload"]["uri"], booked.invitee_uri.as_str());
        assert_eq!(w["payload"]["status"], "canceled");
        assert_eq!(w["payload"]["rescheduled"], false);
        assert_eq!(w["payload"]["cancellation"]["canceler_type"], "host");
        assert_eq!(
            w["payload"]["cancellation"]["reason"],
            "No remaining sessions"
        );

        let again = http
            .post(&url)
            .bearer_auth(TOKEN)
            .json(&json!({"reason": "x"}))
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), StatusCode::FORBIDDEN);
        assert_eq!(
            again.json::<Value>().await.unwrap()["message"],
            "Event is already canceled"
        );

        // Through our client, and for an event that already started.
        let past = s
            .book(
                "Ali",
                "ali@example.com",
                None,
                Utc::now() - chrono::TimeDelta::minutes(5),
            )
            .await
            .unwrap();
        next(&mut rx).await;
        let err = client(&origin)
            .cancel_event(&past.event_uri, "late")
            .await
            .unwrap_err();
        assert!(err.to_string().contains("Event in the past"), "{err}");
        let upcoming = s
            .book("Sara", "sara@example.com", None, future(8))
            .await
            .unwrap();
        next(&mut rx).await;
        client(&origin)
            .cancel_event(&upcoming.event_uri, "No remaining sessions")
            .await
            .unwrap();
        assert_eq!(
            next(&mut rx).await["payload"]["uri"],
            upcoming.invitee_uri.as_str()
        );
    }

    #[tokio::test]
    async fn a_late_join_url_appears_on_the_api() {
        let (s, origin, mut rx) = setup().await;
        s.join_url_late.store(true, Ordering::Relaxed);
        let booked = s
            .book("Mona Ahmed", "mona@example.com", None, future(3))
            .await
            .unwrap();
        let w = next(&mut rx).await;
        let location = &w["payload"]["scheduled_event"]["location"];
        assert!(location["join_url"].is_null());
        assert_eq!(location["status"], "processing");

        let resource = client(&origin)
            .scheduled_event(&booked.event_uri)
            .await
            .unwrap();
        assert_eq!(resource["location"]["status"], "pushed");
        assert!(
            resource["location"]["join_url"]
                .as_str()
                .unwrap()
                .starts_with("https://meet.google.com/"),
            "{resource}"
        );
    }

    fn slot_values(html: &str) -> Vec<DateTime<Utc>> {
        html.split("name=\"start\" value=\"")
            .skip(1)
            .map(|rest| parse_start(&rest[..rest.find('"').unwrap()]).unwrap())
            .collect()
    }

    #[tokio::test]
    async fn the_scheduling_page_offers_working_day_slots_and_books() {
        let (_s, origin, mut rx) = setup().await;
        let http = no_redirects();
        let page = http
            .get(format!(
                "{origin}/calendly-standin/book?name=Mona%20%3Cb%3EAhmed&email=mona%40example.com&utm_content=ref-7"
            ))
            .send()
            .await
            .unwrap();
        assert_eq!(page.status(), StatusCode::OK);
        let html = page.text().await.unwrap();
        assert!(html.contains("Local Calendly stand-in: no real calendar is used."));
        assert!(html.contains("Executive Coaching Session (60 min)"));
        assert!(
            html.contains("value=\"Mona &lt;b&gt;Ahmed\""),
            "prefilled and escaped"
        );
        assert!(html.contains("value=\"mona@example.com\""));
        assert!(html.contains("name=\"utm_content\" value=\"ref-7\""));
        let slots = slot_values(&html);
        assert!(
            slots.len() >= 40,
            "two working weeks of hourly slots: {}",
            slots.len()
        );
        let tz = chrono_tz::Africa::Cairo;
        let today = Utc::now().with_timezone(&tz).date_naive();
        for slot in &slots {
            let local = slot.with_timezone(&tz);
            assert!(
                !matches!(local.weekday(), Weekday::Fri | Weekday::Sat),
                "{local}"
            );
            assert!(
                (10..=15).contains(&chrono::Timelike::hour(&local)),
                "{local}"
            );
            assert!(local.date_naive() > today, "{local}");
        }

        let form = [
            ("name", "Mona Ahmed"),
            ("email", "mona@example.com"),
            ("utm_content", "ref-7"),
            ("start", &slots[0].to_rfc3339()),
        ];
        let r = http
            .post(format!("{origin}/calendly-standin/book"))
            .form(&form)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::SEE_OTHER);
        let location = r.headers()["location"].to_str().unwrap().to_string();
        let inv = location
            .strip_prefix("/calendly-standin/booked/")
            .unwrap()
            .to_string();
        let w = next(&mut rx).await;
        assert_eq!(w["event"], "invitee.created");
        assert!(
            w["payload"]["uri"]
                .as_str()
                .unwrap()
                .ends_with(&format!("/invitees/{inv}"))
        );
        assert_eq!(w["payload"]["tracking"]["utm_content"], "ref-7");
        assert_eq!(
            w["payload"]["scheduled_event"]["start_time"],
            timestamp(slots[0])
        );

        let booked = http
            .get(format!("{origin}{location}"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(booked.contains("You are scheduled"));
        assert!(booked.contains("https://meet.google.com/"));
        assert!(booked.contains(&format!("/calendly-standin/cancellations/{inv}\">Cancel")));
        assert!(booked.contains(&format!(
            "/calendly-standin/reschedulings/{inv}\">Reschedule"
        )));

        // The slot is gone from the page and cannot be taken twice; a Friday is never offered.
        let html = http
            .get(format!("{origin}/calendly-standin/book"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(!slot_values(&html).contains(&slots[0]));
        let r = http
            .post(format!("{origin}/calendly-standin/book"))
            .form(&form)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::CONFLICT);
        let friday = slots
            .iter()
            .map(|s| *s + chrono::TimeDelta::days(1))
            .find(|s| s.with_timezone(&tz).weekday() == Weekday::Fri)
            .unwrap();
        let odd = [
            ("name", "A"),
            ("email", "a@example.com"),
            ("start", &friday.to_rfc3339()),
        ];
        let r = http
            .post(format!("{origin}/calendly-standin/book"))
            .form(&odd)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::CONFLICT);
        let r = http
            .post(format!("{origin}/calendly-standin/book"))
            .form(&[("start", "garbage")])
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    }

    #[tokio::test]
    async fn the_pages_reschedule_and_cancel() {
        let (s, origin, mut rx) = setup().await;
        let http = no_redirects();
        let slots = s.offered_slots(Utc::now());
        let booked = s
            .book("Mona Ahmed", "mona@example.com", None, slots[0])
            .await
            .unwrap();
        next(&mut rx).await;
        let inv = uuid_of(&booked.invitee_uri);

        let html = http
            .get(format!("{origin}/calendly-standin/reschedulings/{inv}"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(html.contains("Currently booked for"));
        assert!(
            !slot_values(&html).contains(&slots[0]),
            "the booked slot is not free"
        );
        let r = http
            .post(format!("{origin}/calendly-standin/reschedulings/{inv}"))
            .form(&[("start", slots[1].to_rfc3339())])
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::SEE_OTHER);
        let location = r.headers()["location"].to_str().unwrap().to_string();
        let (canceled, created) = (next(&mut rx).await, next(&mut rx).await);
        assert_eq!(canceled["event"], "invitee.canceled");
        assert_eq!(canceled["payload"]["rescheduled"], true);
        assert_eq!(created["event"], "invitee.created");
        assert_eq!(
            created["payload"]["old_invitee"],
            booked.invitee_uri.as_str()
        );
        let new = location.strip_prefix("/calendly-standin/booked/").unwrap();
        assert!(created["payload"]["uri"].as_str().unwrap().ends_with(new));

        let confirm = http
            .get(format!("{origin}/calendly-standin/cancellations/{new}"))
            .send()
            .await
            .unwrap();
        assert!(
            confirm
                .text()
                .await
                .unwrap()
                .contains("<textarea name=\"reason\"")
        );
        let r = http
            .post(format!("{origin}/calendly-standin/cancellations/{new}"))
            .form(&[("reason", "Something came up")])
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        assert!(r.text().await.unwrap().contains("Cancellation confirmed"));
        let w = next(&mut rx).await;
        assert_eq!(w["event"], "invitee.canceled");
        assert_eq!(w["payload"]["cancellation"]["canceler_type"], "invitee");
        assert_eq!(w["payload"]["cancellation"]["reason"], "Something came up");

        let r = http
            .post(format!("{origin}/calendly-standin/cancellations/{new}"))
            .form(&[("reason", "")])
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::CONFLICT);
        let r = http
            .get(format!("{origin}/calendly-standin/booked/NOPE"))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::NOT_FOUND);
    }
}
