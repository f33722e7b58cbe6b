//! The calendar's changes: bookings, cancellations and reschedules recorded under one lock,
//! each returning the webhook bodies it produced for the caller to deliver.

use std::sync::atomic::Ordering;

use chrono::{DateTime, Utc};

use super::{
    Booked, Calendar, CalendlyStandIn, Cancellation, Event, Invitee, Refusal, SESSION, meet_link,
    random_uuid,
};

impl CalendlyStandIn {
    pub(super) fn insert_booking(
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
    pub(super) fn cancel_in(
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

    pub(super) fn record_booking(
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

    pub(super) fn record_cancellation(
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
    pub(super) fn record_reschedule(
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

    pub(super) fn booked(&self, calendar: &Calendar, inv: &str) -> Result<Booked, Refusal> {
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
}
