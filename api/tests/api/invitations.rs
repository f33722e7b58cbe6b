//! The calendar invitations attached to booking emails, as a calendar reads them: every
//! message about a booking (its confirmation, a reschedule, a cancellation by the client, the
//! admin or on Calendly) carries the same UID and a SEQUENCE that grows, so the client's
//! calendar moves or removes the event it has instead of keeping a stale one.

use chrono::{DateTime, Duration, Utc};
use icalendar::Component;
use serde_json::json;

use crate::bookings::{balance, client_with_credits, deliver, from_book_session, payload};
use crate::support::{TestApp, admin_client, spawn_app};

/// One invitation as the client's calendar gets it.
#[derive(Debug)]
struct Invite {
    method: String,
    uid: String,
    sequence: u32,
    start: String,
    organizer: String,
    attendee: String,
}

/// Every invitation queued for `to`, in SEQUENCE order, read back with icalendar's parser.
async fn invitations(app: &TestApp, to: &str) -> Vec<Invite> {
    let rows: Vec<String> = sqlx::query_scalar(
        "SELECT attachments_json FROM email_outbox WHERE to_address = $1 AND attachments_json <> '[]'",
    )
    .bind(to)
    .fetch_all(&app.state.db.pool)
    .await
    .unwrap();
    let mut out: Vec<Invite> = rows
        .iter()
        .flat_map(|json| serde_json::from_str::<Vec<serde_json::Value>>(json).unwrap())
        .map(|a| {
            let text = a["content"].as_str().unwrap().to_string();
            for line in text.split("\r\n") {
                assert!(line.len() <= 75, "folded at 75 octets: {line:?}");
            }
            let unfolded = icalendar::parser::unfold(&text);
            let cal: icalendar::Calendar = icalendar::parser::read_calendar(&unfolded)
                .unwrap_or_else(|e| panic!("{e}\n{text}"))
                .into();
            let event = cal.events().next().expect("a VEVENT").clone();
            let method = cal.property_value("METHOD").unwrap().to_string();
            assert!(
                a["contentType"]
                    .as_str()
                    .or(a["content_type"].as_str())
                    .unwrap()
                    .ends_with(&format!("method={method}")),
                "{a}"
            );
            Invite {
                method,
                uid: event.get_uid().unwrap().to_string(),
                sequence: event.get_sequence().expect("a SEQUENCE"),
                start: event.property_value("DTSTART").unwrap().to_string(),
                organizer: event.properties()["ORGANIZER"].value().to_string(),
                attendee: event.multi_properties()["ATTENDEE"][0].value().to_string(),
            }
        })
        .collect();
    out.sort_by_key(|i| i.sequence);
    out
}

async fn booking_id(app: &TestApp, invitee: &str) -> String {
    sqlx::query_scalar("SELECT id FROM bookings WHERE calendly_invitee_uri = $1")
        .bind(crate::bookings::invitee_uri(invitee))
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

fn utc(t: DateTime<Utc>) -> String {
    t.format("%Y%m%dT%H%M%SZ").to_string()
}

/// `booking-<id>@<host of PUBLIC_BASE_URL>`.
fn uid_of(app: &TestApp, booking: &str) -> String {
    let host = app
        .state
        .config
        .public_base_url
        .split("://")
        .nth(1)
        .unwrap()
        .split([':', '/'])
        .next()
        .unwrap()
        .to_string();
    format!("booking-{booking}@{host}")
}

/// Waits (up to 10 s) for `n` invitations to `to`.
async fn wait_for_invitations(app: &TestApp, to: &str, n: usize) -> Vec<Invite> {
    for _ in 0..200 {
        let found = invitations(app, to).await;
        if found.len() >= n {
            return found;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!(
        "expected {n} invitations to {to}: {:?}",
        invitations(app, to).await
    );
}

#[tokio::test]
async fn a_reschedule_and_a_cancel_update_the_same_event_with_a_growing_sequence() {
    for cancel_first in [false, true] {
        let app = spawn_app().await;
        let (_, user) = client_with_credits(&app, "mona@example.com", 1).await;
        let first = Utc::now() + Duration::days(3);
        let moved = first + Duration::days(1);
        let booked = payload(
            "invitee.created",
            "old",
            "mona@example.com",
            first,
            from_book_session(&user, json!({})),
        );
        assert_eq!(deliver(&app, &booked).await, 200);
        let original = booking_id(&app, "old").await;

        let cancel = payload(
            "invitee.canceled",
            "old",
            "mona@example.com",
            first,
            json!({"rescheduled": true, "new_invitee": crate::bookings::invitee_uri("new")}),
        );
        let create = payload(
            "invitee.created",
            "new",
            "mona@example.com",
            moved,
            json!({"old_invitee": crate::bookings::invitee_uri("old")}),
        );
        let order = if cancel_first {
            [&cancel, &create]
        } else {
            [&create, &cancel]
        };
        for body in order {
            assert_eq!(deliver(&app, body).await, 200);
        }
        // The client cancels the moved session on Calendly.
        let gone = payload(
            "invitee.canceled",
            "new",
            "mona@example.com",
            moved,
            json!({}),
        );
        assert_eq!(deliver(&app, &gone).await, 200);
        assert_eq!(balance(&app, &user).await, (1, 0, 1), "the credit is back");

        let sent = invitations(&app, "mona@example.com").await;
        let seen: Vec<(&str, u32, &str)> = sent
            .iter()
            .map(|i| (i.method.as_str(), i.sequence, i.start.as_str()))
            .collect();
        assert_eq!(
            seen,
            [
                ("REQUEST", 0, utc(first).as_str()),
                ("REQUEST", 1, utc(moved).as_str()),
                ("CANCEL", 2, utc(moved).as_str()),
            ],
            "booked, moved, cancelled: cancel_first={cancel_first}"
        );
        let uid = uid_of(&app, &original);
        for invite in &sent {
            assert_eq!(invite.uid, uid, "one event in the client's calendar");
            assert_eq!(
                invite.organizer,
                format!("mailto:{}", app.state.site().coach_email)
            );
            assert_eq!(invite.attendee, "mailto:mona@example.com");
        }
    }
}

#[tokio::test]
async fn a_cancel_by_the_client_or_the_admin_sends_the_next_sequence() {
    let app = spawn_app().await;
    let (client, user) = client_with_credits(&app, "mona@example.com", 2).await;
    let boss = admin_client(&app, "boss@coach.example.com").await;
    // Two phone bookings (no Calendly event: the API itself sends every message about them).
    let mut ids = Vec::new();
    for days in [3, 4] {
        let day = (Utc::now() + Duration::days(days))
            .with_timezone(&app.state.site().time_zone)
            .format("%Y-%m-%d")
            .to_string();
        let r = app
            .post_as(
                &boss,
                "/api/admin/bookings",
                json!({"clientId": user, "sessionDate": day, "sessionTime": "15:00"}),
            )
            .await;
        assert_eq!(r.status(), 201, "{:?}", r.text().await);
        let booking: serde_json::Value = r.json().await.unwrap();
        ids.push(booking["id"].as_str().unwrap().to_string());
    }
    let by_client = app
        .post_as(
            &client,
            &format!("/api/bookings/{}/cancel", ids[0]),
            json!({}),
        )
        .await;
    assert_eq!(by_client.status(), 200);
    let by_admin = app
        .post_as(
            &boss,
            &format!("/api/admin/bookings/{}/cancel", ids[1]),
            json!({}),
        )
        .await;
    assert_eq!(by_admin.status(), 200);

    let sent = wait_for_invitations(&app, "mona@example.com", 4).await;
    for id in &ids {
        let uid = uid_of(&app, id);
        let mut of_booking: Vec<(&str, u32)> = sent
            .iter()
            .filter(|i| i.uid == uid)
            .map(|i| (i.method.as_str(), i.sequence))
            .collect();
        of_booking.sort();
        assert_eq!(
            of_booking,
            [("CANCEL", 1), ("REQUEST", 0)],
            "booking {id}: {sent:?}"
        );
    }
}
