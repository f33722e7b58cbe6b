//! Bookings, cancellations and reschedules made through the methods the API tests call.

use super::*;

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
