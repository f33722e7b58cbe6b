//! Discount codes, the admin's half (issue 22, item 4): the admin creates percent and fixed
//! codes and lists them with their uses, every wrong field is refused with a 422 naming it and
//! nothing written (the same on SQLite and PostgreSQL), a code is unique whatever its case,
//! only an admin may do any of it, and a code is switched off and on, which the purchase's
//! lookup and `apply` then see.

use serde_json::{Value, json};

use crate::support::{TestApp, admin_client, cairo_day, error_of, new_client, spawn_app};
use api::domain::Money;
use api::domain::discounts::{self, CodeRefusal, apply};

const CODES: &str = "/api/admin/discount-codes";

async fn count(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM discount_codes")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

async fn create(app: &TestApp, boss: &reqwest::Client, body: Value) -> Value {
    let r = app.post_as(boss, CODES, body).await;
    assert_eq!(r.status(), 201);
    r.json().await.unwrap()
}

#[tokio::test]
async fn the_admin_creates_percent_and_fixed_codes_and_lists_them() {
    let app = spawn_app().await;
    let boss = admin_client(&app, "boss@example.com").await;
    let (from, to) = (cairo_day(0), cairo_day(30));
    let spring = create(
        &app,
        &boss,
        json!({
            "code": " spring10 ", "kind": "percent", "percent": 10, "amountOff": null,
            "packageIds": ["individual-5", "individual-1"], "validFrom": from, "validTo": to,
            "maxUses": 5, "oncePerClient": true
        }),
    )
    .await;
    assert_eq!(spring["code"], "SPRING10");
    assert_eq!(spring["kind"], "percent");
    assert_eq!(spring["percent"], 10);
    assert_eq!(spring["amountOff"], Value::Null);
    // In the catalogue's order, whatever the form's.
    assert_eq!(
        spring["packageIds"],
        json!(["individual-1", "individual-5"])
    );
    assert_eq!(
        (&spring["validFrom"], &spring["validTo"]),
        (&json!(from), &json!(to))
    );
    assert_eq!(
        (&spring["uses"], &spring["remaining"]),
        (&json!(0), &json!(5))
    );
    assert_eq!(spring["oncePerClient"], true);
    assert_eq!(
        (&spring["isActive"], &spring["status"]),
        (&json!(true), &json!("active"))
    );

    let fixed = create(
        &app,
        &boss,
        json!({"code": "WELCOME-500", "kind": "fixed", "amountOff": "500.50"}),
    )
    .await;
    assert_eq!(
        fixed["amountOff"],
        json!({"minor": 50050, "currency": "EGP"})
    );
    assert_eq!(fixed["percent"], Value::Null);
    assert_eq!(fixed["packageIds"], json!([]));
    assert_eq!(
        (&fixed["maxUses"], &fixed["remaining"]),
        (&Value::Null, &Value::Null)
    );
    assert_eq!(fixed["oncePerClient"], false);

    let list: Vec<Value> = app.get_as(&boss, CODES).await.json().await.unwrap();
    let codes: Vec<&str> = list.iter().map(|c| c["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["WELCOME-500", "SPRING10"], "newest first");
    assert_eq!(list[1], spring);

    // A code that starts tomorrow is listed as scheduled.
    let later = create(
        &app,
        &boss,
        json!({"code": "LATER", "kind": "percent", "percent": 5, "validFrom": cairo_day(1)}),
    )
    .await;
    assert_eq!(later["status"], "scheduled");
}

/// A valid percent code with `extra` over it.
fn percent(extra: Value) -> Value {
    let mut body = json!({"code": "GOOD10", "kind": "percent", "percent": 10});
    body.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    body
}

/// One wrong body per rule, and the field its 422 must name.
fn wrong_bodies() -> Vec<(Value, &'static str)> {
    let fixed = |amount: Value| json!({"code": "GOOD10", "kind": "fixed", "amountOff": amount});
    vec![
        (percent(json!({"percent": 101})), "percent"),
        (percent(json!({"percent": 0})), "percent"),
        (percent(json!({"percent": -10})), "percent"),
        (percent(json!({"percent": null})), "percent"),
        (fixed(json!(0)), "amountOff"),
        (fixed(json!("-5")), "amountOff"),
        (fixed(json!(10.005)), "amountOff"),
        (fixed(Value::Null), "amountOff"),
        (percent(json!({"kind": "half"})), "kind"),
        (
            percent(json!({"packageIds": ["individual-5", "platinum-99"]})),
            "packageIds",
        ),
        (
            percent(json!({"validFrom": cairo_day(10), "validTo": cairo_day(9)})),
            "validTo",
        ),
        (percent(json!({"validTo": "31/12/2026"})), "validTo"),
        (percent(json!({"validFrom": "2026-02-30"})), "validFrom"),
        (percent(json!({"maxUses": 0})), "maxUses"),
        (percent(json!({"maxUses": -3})), "maxUses"),
        (percent(json!({"code": "ab"})), "code"),
        (percent(json!({"code": "SPRING SALE"})), "code"),
        (percent(json!({"code": "خصم-عشرة"})), "code"),
        (percent(json!({"code": ""})), "code"),
    ]
}

#[tokio::test]
async fn every_wrong_field_is_a_422_naming_it_and_nothing_is_written() {
    let app = spawn_app().await;
    let boss = admin_client(&app, "boss@example.com").await;
    let cases = wrong_bodies();
    for (body, field) in cases {
        let (status, error) = error_of(app.post_as(&boss, CODES, body.clone()).await).await;
        assert_eq!(status, 422, "{body}: {error}");
        assert_eq!(error["code"], "validation_error");
        let fields = error["fields"].as_object().unwrap();
        assert_eq!(
            fields.keys().collect::<Vec<_>>(),
            [field],
            "{body}: {error}"
        );
        assert_eq!(error["message"], fields[field], "{body}");
    }
    assert_eq!(
        error_of(
            app.post_as(&boss, CODES, percent(json!({"percent": 101})))
                .await
        )
        .await
        .1["fields"]["percent"],
        "Percent must be a whole number from 1 to 100"
    );
    // Several wrong fields: each named.
    let (_, error) = error_of(
        app.post_as(
            &boss,
            CODES,
            json!({"code": "x", "kind": "fixed", "amountOff": 0, "maxUses": 0}),
        )
        .await,
    )
    .await;
    let named: Vec<&String> = error["fields"].as_object().unwrap().keys().collect();
    assert_eq!(named, ["amountOff", "code", "maxUses"]);
    assert_eq!(count(&app).await, 0, "nothing written");
}

#[tokio::test]
async fn a_code_is_taken_whatever_its_case() {
    let app = spawn_app().await;
    let boss = admin_client(&app, "boss@example.com").await;
    create(
        &app,
        &boss,
        json!({"code": "Ramadan", "kind": "percent", "percent": 20}),
    )
    .await;
    for taken in ["RAMADAN", "ramadan", " Ramadan "] {
        let (status, error) = error_of(
            app.post_as(
                &boss,
                CODES,
                json!({"code": taken, "kind": "fixed", "amountOff": 100}),
            )
            .await,
        )
        .await;
        assert_eq!(status, 422);
        assert_eq!(error["fields"]["code"], "This code is already taken");
    }
    assert_eq!(count(&app).await, 1);
}

#[tokio::test]
async fn only_the_admin_sees_and_changes_codes() {
    let app = spawn_app().await;
    let boss = admin_client(&app, "boss@example.com").await;
    let id = create(
        &app,
        &boss,
        json!({"code": "STAFF", "kind": "percent", "percent": 50}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let client = new_client();
    assert_eq!(app.sign_up(&client, "mona@example.com").await.status(), 201);
    let body = json!({"code": "MINE", "kind": "percent", "percent": 100});
    let deactivate = format!("{CODES}/{id}/deactivate");
    for (who, status) in [(&client, 403), (&new_client(), 401)] {
        assert_eq!(error_of(app.get_as(who, CODES).await).await.0, status);
        assert_eq!(
            error_of(app.post_as(who, CODES, body.clone()).await)
                .await
                .0,
            status
        );
        assert_eq!(
            error_of(app.post_as(who, &deactivate, json!({})).await)
                .await
                .0,
            status
        );
    }
    assert_eq!(count(&app).await, 1);
    let list: Vec<Value> = app.get_as(&boss, CODES).await.json().await.unwrap();
    assert_eq!(list[0]["isActive"], true);
}

#[tokio::test]
async fn a_code_is_switched_off_and_on_and_the_purchase_sees_it() {
    let app = spawn_app().await;
    let boss = admin_client(&app, "boss@example.com").await;
    let code = create(&app, &boss, json!({"code": "AUTUMN", "kind": "fixed", "amountOff": 250, "packageIds": ["individual-5"]})).await;
    let id = code["id"].as_str().unwrap();
    let today = chrono::NaiveDate::parse_from_str(&cairo_day(0), "%Y-%m-%d").unwrap();
    let db = &app.state.db;
    let price = |row: &discounts::DiscountCode| apply(row, "individual-5", Money(2_025_000), today);

    let off = app
        .post_as(&boss, &format!("{CODES}/{id}/deactivate"), json!({}))
        .await;
    assert_eq!(off.status(), 200);
    let off: Value = off.json().await.unwrap();
    assert_eq!(
        (&off["isActive"], &off["status"]),
        (&json!(false), &json!("inactive"))
    );
    // The purchase looks the code up whatever the buyer's case, under its lock.
    let mut tx = db.pool.begin().await.unwrap();
    let row = discounts::lock_by_code(&mut tx, db.backend, " autumn ")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(price(&row), Err(CodeRefusal::Inactive));
    tx.commit().await.unwrap();

    let on: Value = app
        .post_as(&boss, &format!("{CODES}/{id}/activate"), json!({}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        (&on["isActive"], &on["status"]),
        (&json!(true), &json!("active"))
    );
    let mut conn = db.pool.acquire().await.unwrap();
    let row = discounts::by_code(&mut conn, "Autumn")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(price(&row), Ok(Money(2_000_000)));
    assert_eq!(
        apply(&row, "individual-1", Money(450_000), today),
        Err(CodeRefusal::NotThisPackage)
    );
    assert!(
        discounts::by_code(&mut conn, "WINTER")
            .await
            .unwrap()
            .is_none()
    );
    // SQLite has one writer connection: give it back before the next requests.
    drop(conn);

    let missing = app
        .post_as(
            &boss,
            &format!("{CODES}/{}/activate", "0".repeat(32)),
            json!({}),
        )
        .await;
    assert_eq!(error_of(missing).await.0, 404);
    let malformed = app
        .post_as(&boss, &format!("{CODES}/not-an-id/deactivate"), json!({}))
        .await;
    assert_eq!(error_of(malformed).await.0, 404);
}
