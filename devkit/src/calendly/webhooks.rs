//! What Calendly sends and answers: the scheduled event and invitee resources, the webhook
//! envelope (serialized once, signed at send time) and its delivery.

use std::time::Duration;

use api::scheduling::calendly::signature_header;
use axum::http::header;
use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use super::{Calendar, CalendlyStandIn, Cancellation, Event, Invitee, Refusal, timestamp};

impl CalendlyStandIn {
    pub(super) fn event_json(&self, calendar: &Calendar, event: &Event) -> Value {
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

    pub(super) fn invitee_json(
        &self,
        calendar: &Calendar,
        invitee: &Invitee,
        event: &Event,
    ) -> Value {
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
    pub(super) fn webhook_body(
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
    pub(super) async fn deliver(&self, body: Vec<u8>) -> anyhow::Result<()> {
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

    /// Delivers the way Calendly does when nobody waits on the answer (docs/integrations.md §2.7): a
    /// refused or failed delivery is tried again with exponential back-off. Calendly keeps trying
    /// for 24 hours; the stand-in gives up after `DELIVERY_ATTEMPTS` (about 8 s of waiting).
    pub(super) async fn deliver_retrying(&self, body: Vec<u8>) -> anyhow::Result<()> {
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
    pub(super) async fn deliver_in_order(
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
