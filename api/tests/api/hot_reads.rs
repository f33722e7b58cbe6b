//! The cached hot reads (`api::read_cache`, on both databases): the session lookup and the
//! client's dashboard are served from memory while nothing is written, and every write shows
//! on the very next request, as if nothing were cached. Several processes on one PostgreSQL
//! database: `replicas.rs`.

use chrono::Utc;
use serde_json::{Value, json};

use crate::bookings::client_with_credits;
use crate::support::{TestApp, admin_client, spawn_app};

async fn dashboard(app: &TestApp, client: &reqwest::Client) -> (u16, Value) {
    let r = client.get(app.url("/api/dashboard")).send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn the_dashboard_is_served_from_memory_until_a_write() {
    let app = spawn_app().await;
    let (mona, id) = client_with_credits(&app, "mona@example.com", 2).await;
    // On SQLite the mail worker is still sending the sign-up's email (a write): read until it
    // is done.
    let mut cached = false;
    for _ in 0..100 {
        let (status, first) = dashboard(&app, &mona).await;
        assert_eq!(status, 200);
        let generation = app.state.db.read_generation().await;
        if generation
            .and_then(|g| app.state.dashboards.get(&(id.clone(), "all"), g))
            .is_some()
        {
            assert_eq!(
                dashboard(&app, &mona).await.1,
                first,
                "the cached answer is the same"
            );
            cached = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(cached, "every read went to the database");
}

#[tokio::test]
async fn every_write_shows_on_the_next_dashboard_read() {
    let app = spawn_app().await;
    let boss = admin_client(&app, "boss@coach.example.com").await;
    let (mona, id) = client_with_credits(&app, "mona@example.com", 0).await;
    let today = Utc::now()
        .with_timezone(&chrono_tz::Africa::Cairo)
        .format("%Y-%m-%d")
        .to_string();
    // Readers keep the cache warm the whole time, as a busy dashboard would.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut readers = Vec::new();
    for _ in 0..4 {
        let (app_base, mona, stop) = (app.url("/api/dashboard"), mona.clone(), stop.clone());
        readers.push(tokio::spawn(async move {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = mona.get(&app_base).send().await;
            }
        }));
    }
    for expected in 1..=15 {
        let r = app
            .post_as(
                &boss,
                "/api/admin/payments",
                json!({"clientId": id, "amount": 100, "sessionsPurchased": 1, "paymentDate": today}),
            )
            .await;
        assert_eq!(r.status(), 201);
        let (status, view) = dashboard(&app, &mona).await;
        assert_eq!(status, 200);
        assert_eq!(
            view["account"]["availableCredits"], expected,
            "after payment {expected}"
        );
        assert_eq!(
            view["payments"].as_array().unwrap().len(),
            expected.min(10) as usize
        );
    }
    // A change of name made straight in the database (as an admin tool would) shows too.
    sqlx::query("UPDATE profiles SET full_name = 'Mona A.' WHERE user_id = $1")
        .bind(&id)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(dashboard(&app, &mona).await.1["fullName"], "Mona A.");
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for r in readers {
        r.await.unwrap();
    }
}

#[tokio::test]
async fn a_signed_out_session_is_refused_on_the_very_next_request() {
    let app = spawn_app().await;
    let plain = reqwest::Client::new();
    for round in 0..10 {
        let browser = crate::support::new_client();
        let r = app
            .sign_up(&browser, &format!("mona{round}@example.com"))
            .await;
        assert_eq!(r.status(), 201);
        // The session cookie as a thief who copied it would send it.
        let cookie = r.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_string();
        let read = || {
            plain
                .get(app.url("/api/dashboard"))
                .header("Cookie", &cookie)
                .send()
        };
        for _ in 0..3 {
            assert_eq!(read().await.unwrap().status(), 200);
        }
        let r = app.post_as(&browser, "/api/auth/sign-out", json!({})).await;
        assert_eq!(r.status(), 204);
        assert_eq!(read().await.unwrap().status(), 401, "round {round}");
    }
}

/// The data generation behind the caches on PostgreSQL (`api::data_generation`): a commit that
/// changes a watched table moves it once, however many rows and tables it changed; a
/// rollback, a change that changes no row and a change to an unwatched table do not; a table
/// added later is watched from the next start on.
#[tokio::test]
async fn on_postgresql_each_commit_that_changes_data_moves_the_generation_once() {
    if !crate::support::using_postgres() {
        return; // SQLite counts its one writer's uses instead (db::tests)
    }
    let app = spawn_app().await;
    let db = &app.state.db;
    let (_mona, id) = client_with_credits(&app, "mona@example.com", 0).await;
    let generation = || async { db.read_generation().await.expect("the counter reads") };
    let start = generation().await;

    let mut tx = db.pool.begin().await.unwrap();
    for name in ["Mona A.", "Mona B."] {
        sqlx::query("UPDATE profiles SET full_name = $1 WHERE user_id = $2")
            .bind(name)
            .bind(&id)
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    sqlx::query("UPDATE client_accounts SET show_payment_history = 0 WHERE user_id = $1")
        .bind(&id)
        .execute(&mut *tx)
        .await
        .unwrap();
    assert_eq!(generation().await, start, "not before the commit");
    tx.commit().await.unwrap();
    assert_eq!(generation().await, start + 1, "once for the transaction");

    let mut tx = db.pool.begin().await.unwrap();
    sqlx::query("DELETE FROM sessions WHERE user_id = $1")
        .bind(&id)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.rollback().await.unwrap();
    sqlx::query("UPDATE profiles SET full_name = 'nobody' WHERE user_id = 'no-such-user'")
        .execute(&db.pool)
        .await
        .unwrap();
    sqlx::query("DELETE FROM rate_limits")
        .execute(&db.pool)
        .await
        .unwrap();
    assert_eq!(generation().await, start + 1);

    sqlx::query("DELETE FROM sessions WHERE user_id = $1")
        .bind(&id)
        .execute(&db.pool)
        .await
        .unwrap();
    assert_eq!(generation().await, start + 2, "a sign-out everywhere");

    sqlx::query("CREATE TABLE later_notes (id TEXT PRIMARY KEY)")
        .execute(&db.pool)
        .await
        .unwrap();
    db.migrate().await.unwrap();
    sqlx::query("INSERT INTO later_notes (id) VALUES ('a')")
        .execute(&db.pool)
        .await
        .unwrap();
    assert_eq!(generation().await, start + 3, "a new table, after a start");
}
