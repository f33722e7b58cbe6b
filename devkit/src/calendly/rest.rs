//! The calls of Calendly's REST API our client makes: get a scheduled event, and cancel it
//! (which, as at Calendly, answers at once and delivers `invitee.canceled` on its own schedule);
//! and what `api doctor` asks: the token's user (`/users/me`) and the webhook subscriptions.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chrono::Utc;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{CalendlyStandIn, Cancellation, timestamp};

pub(super) fn routes() -> Router<Arc<CalendlyStandIn>> {
    Router::new()
        .route(
            "/calendly-standin/api/scheduled_events/{evt}",
            get(api_event),
        )
        .route(
            "/calendly-standin/api/scheduled_events/{evt}/cancellation",
            post(api_cancel),
        )
        .route("/calendly-standin/api/users/me", get(api_me))
        .route(
            "/calendly-standin/api/webhook_subscriptions",
            get(api_subscriptions),
        )
}

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
    let bodies = match cancel_event(&s, &evt, &cancellation) {
        Ok(bodies) => bodies,
        Err(refusal) => return *refusal,
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

/// Cancels event `evt` and each of its invitees, as Calendly's API does, and answers the
/// `invitee.canceled` webhooks to deliver; Calendly's refusal (unknown, past, cancelled) as is.
fn cancel_event(
    s: &CalendlyStandIn,
    evt: &str,
    cancellation: &Cancellation,
) -> Result<Vec<Vec<u8>>, Box<Response>> {
    let now = cancellation.created_at;
    let mut calendar = s.calendar();
    let Some(event) = calendar.events.get(evt) else {
        return Err(Box::new(not_found()));
    };
    if event.start <= now {
        return Err(Box::new(api_error(
            StatusCode::FORBIDDEN,
            "Permission Denied",
            "Event in the past",
        )));
    }
    if event.cancellation.is_some() {
        return Err(Box::new(api_error(
            StatusCode::FORBIDDEN,
            "Permission Denied",
            "Event is already canceled",
        )));
    }
    let invitees = event.invitees.clone();
    let mut bodies = Vec::new();
    for inv in &invitees {
        if CalendlyStandIn::cancel_in(&mut calendar, inv, cancellation).is_ok()
            && let Ok(body) = s.webhook_body(&mut calendar, inv, "invitee.canceled", now)
        {
            bodies.push(body);
        }
    }
    if let Some(event) = calendar.events.get_mut(evt)
        && event.cancellation.is_none()
    {
        event.cancellation = Some(cancellation.clone());
        event.updated_at = now;
    }
    Ok(bodies)
}

/// `GET /users/me`: the host, as Calendly describes the token's user.
async fn api_me(State(s): State<Arc<CalendlyStandIn>>, headers: HeaderMap) -> Response {
    if !authorised(&s, &headers) {
        return unauthenticated();
    }
    Json(json!({"resource": {
        "uri": s.host_uri(),
        "name": s.host_name(),
        "slug": "host",
        "email": s.config.host_email,
        "scheduling_url": format!("{}/book", s.base()),
        "timezone": s.config.time_zone.name(),
        "avatar_url": null,
        "created_at": "2026-01-05T09:00:00.000000Z",
        "updated_at": "2026-01-05T09:00:00.000000Z",
        "current_organization": s.organization_uri(),
        "resource_type": "User",
        "locale": "en"
    }}))
    .into_response()
}

#[derive(Deserialize)]
struct SubscriptionQuery {
    organization: Option<String>,
    scope: Option<String>,
    user: Option<String>,
}

/// `GET /webhook_subscriptions?organization=…&scope=user&user=…`: the one subscription the
/// stand-in delivers to (a `user` one, for our webhook URL), in the state tests set. As at
/// Calendly, `organization` and `scope` are required, and `user` with the `user` scope.
async fn api_subscriptions(
    State(s): State<Arc<CalendlyStandIn>>,
    headers: HeaderMap,
    Query(q): Query<SubscriptionQuery>,
) -> Response {
    if !authorised(&s, &headers) {
        return unauthenticated();
    }
    let invalid = || {
        api_error(
            StatusCode::BAD_REQUEST,
            "Invalid Argument",
            "The supplied parameters are invalid.",
        )
    };
    let (Some(organization), Some(scope)) = (q.organization.as_deref(), q.scope.as_deref()) else {
        return invalid();
    };
    if organization != s.organization_uri() {
        return api_error(
            StatusCode::FORBIDDEN,
            "Permission Denied",
            "You do not have permission to access this resource.",
        );
    }
    let ours = match scope {
        "user" => match q.user.as_deref() {
            None => return invalid(),
            Some(user) => user == s.host_uri(),
        },
        "organization" => false,
        _ => return invalid(),
    };
    let state = *s
        .subscription
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let collection: Vec<Value> = state
        .filter(|_| ours)
        .map(|state| {
            let created = timestamp(Utc::now() - chrono::Duration::days(30));
            json!({
                "uri": format!("{}/api/webhook_subscriptions/SUB", s.base()),
                "callback_url": s.config.webhook_url,
                "created_at": created,
                "updated_at": created,
                "retry_started_at": null,
                "state": state,
                "events": ["invitee.created", "invitee.canceled"],
                "scope": "user",
                "organization": s.organization_uri(),
                "user": s.host_uri(),
                "group": null,
                "creator": s.host_uri()
            })
        })
        .into_iter()
        .collect();
    Json(json!({
        "collection": collection,
        "pagination": {"count": collection.len(), "next_page": null, "previous_page": null, "next_page_token": null, "previous_page_token": null}
    }))
    .into_response()
}
