//! Deactivation races nothing (issue 20, defect 4): sign-ins racing a deactivation answer
//! 200 (before) or 403 (after), never 500, and no session outlives the deactivation; a
//! deactivated client's own signed booking link spends no credit and waits for the admin.

use chrono::{Duration, Utc};
use serde_json::json;

use crate::bookings::{balance, client_with_credits, deliver, from_book_session, payload};
use crate::support::{TestApp, admin_client, new_client, spawn_app};

async fn sessions_of(app: &TestApp, user: &str) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM sessions WHERE user_id = $1")
        .bind(user)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn sign_ins_racing_a_deactivation_answer_200_or_403_and_leave_no_session() {
    let app = spawn_app().await;
    let boss = admin_client(&app, "boss@coach.example.com").await;
    let (_, mona) = client_with_credits(&app, "mona@example.com", 1).await;
    for round in 0..3 {
        let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(21));
        let sign_ins: Vec<_> = (0..20)
            .map(|_| {
                let (url, origin, barrier) =
                    (app.url("/api/auth/sign-in"), app.url(""), barrier.clone());
                tokio::spawn(async move {
                    let c = new_client();
                    barrier.wait().await;
                    c.post(url)
                        .header("Origin", origin)
                        .json(&json!({"email": "mona@example.com", "password": "nile-sunrise-42"}))
                        .send()
                        .await
                        .unwrap()
                        .status()
                        .as_u16()
                })
            })
            .collect();
        let deactivate = {
            let (boss, url, origin, barrier) = (
                boss.clone(),
                app.url(&format!("/api/admin/clients/{mona}/deactivate")),
                app.url(""),
                barrier.clone(),
            );
            tokio::spawn(async move {
                barrier.wait().await;
                boss.post(url)
                    .header("Origin", origin)
                    .json(&json!({}))
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .as_u16()
            })
        };
        let mut statuses = Vec::new();
        for s in sign_ins {
            statuses.push(s.await.unwrap());
        }
        assert_eq!(deactivate.await.unwrap(), 200);
        assert!(
            statuses.iter().all(|s| *s == 200 || *s == 403),
            "round {round}: every sign-in is 200 before or 403 after: {statuses:?}"
        );
        assert_eq!(
            sessions_of(&app, &mona).await,
            0,
            "round {round}: no session outlives the deactivation"
        );
        let r = app
            .post_as(
                &boss,
                &format!("/api/admin/clients/{mona}/reactivate"),
                json!({}),
            )
            .await;
        assert_eq!(r.status(), 200);
    }
}

#[tokio::test]
async fn a_deactivated_clients_signed_booking_link_spends_no_credit_and_waits_for_the_admin() {
    let app = spawn_app().await;
    let boss = admin_client(&app, "boss@coach.example.com").await;
    let (_, mona) = client_with_credits(&app, "mona@example.com", 2).await;
    let r = app
        .post_as(
            &boss,
            &format!("/api/admin/clients/{mona}/deactivate"),
            json!({}),
        )
        .await;
    assert_eq!(r.status(), 200);
    let body = payload(
        "invitee.created",
        "deact",
        "mona@example.com",
        Utc::now() + Duration::days(3),
        from_book_session(&mona, json!({})),
    );
    assert_eq!(deliver(&app, &body).await, 200);
    let (status, client, debited): (String, Option<String>, i64) = sqlx::query_as(
        "SELECT status, client_id, credit_debited FROM bookings WHERE calendly_invitee_uri = $1",
    )
    .bind(crate::bookings::invitee_uri("deact"))
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap();
    assert_eq!((status.as_str(), client, debited), ("pending", None, 0));
    assert_eq!(balance(&app, &mona).await, (2, 0, 2), "no credit was spent");
    crate::support::assert_ledger_verifies(&app).await;
}
