//! The pages a person sees: the slot picker (embedded on /book-session), the booking's own page,
//! and the cancel and reschedule pages its links lead to.

use std::sync::Arc;

use api::email::templates::escape;
use api::scheduling::calendly::uuid_of;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::{Form, Router};
use chrono::{DateTime, SecondsFormat, Utc};
use chrono_tz::Tz;
use serde::Deserialize;

use super::{CalendlyStandIn, Refusal};

pub(super) fn routes() -> Router<Arc<CalendlyStandIn>> {
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
}

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

pub(super) fn parse_start(s: &str) -> Option<DateTime<Utc>> {
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
<p class=\"actions\"><a href=\"{}/cancellations/{inv}\">Cancel</a><a href=\"{}/reschedulings/{inv}\">Reschedule</a></p>{}",
            escape(&s.config.event_name),
            escape(&s.host_name()),
            escape(&when),
            escape(&invitee.email),
            escape(s.base()),
            escape(s.base()),
            scheduled_message(&event.uri, &invitee.uri),
            inv = escape(&invitee.uuid),
        ),
    )
}

/// What Calendly's embed tells the page around it once someone has booked: a `postMessage`
/// of `{event: "calendly.event_scheduled", payload: {event: {uri}, invitee: {uri}}}` to the
/// parent window (any origin: the parent checks ours). /book-session listens for it.
fn scheduled_message(event_uri: &str, invitee_uri: &str) -> String {
    let message = serde_json::json!({
        "event": "calendly.event_scheduled",
        "payload": {"event": {"uri": event_uri}, "invitee": {"uri": invitee_uri}},
    });
    // JSON inside <script>: `</` must not close the element.
    let message = message.to_string().replace("</", "<\\/");
    format!(
        "<script>if (window.parent !== window) window.parent.postMessage({message}, \"*\");</script>"
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
