//! The pages a person uses: slot picker, booking page, cancel and reschedule.

use super::*;

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
    // Like Calendly's embed, the page tells the page around it what was scheduled.
    let invitee_uri = w["payload"]["uri"].as_str().unwrap();
    let event_uri = w["payload"]["event"].as_str().unwrap();
    assert!(
        booked.contains(&format!(
            "window.parent.postMessage({{\"event\":\"calendly.event_scheduled\",\"payload\":{{\"event\":{{\"uri\":\"{event_uri}\"}},\"invitee\":{{\"uri\":\"{invitee_uri}\"}}}}}}, \"*\")"
        )),
        "{booked}"
    );

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
