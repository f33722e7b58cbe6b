//! The REST API our Calendly client calls: token, event, cancellation.

use super::*;

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
