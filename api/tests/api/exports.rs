//! The accounting CSV carries no live spreadsheet formula (issue 20, defect 3): names and
//! references that a spreadsheet would run come out quoted, while amounts stay numbers.

use serde_json::{Value, json};

use crate::payments::admin;
use crate::support::{TestApp, new_client, spawn_app};

/// The accounting CSV of yesterday to tomorrow (Cairo), without its header.
pub(crate) async fn export(app: &TestApp, boss: &reqwest::Client) -> Vec<csv::StringRecord> {
    let cairo = chrono::Utc::now().with_timezone(&chrono_tz::Africa::Cairo);
    let (from, to) = (
        (cairo - chrono::Duration::days(1)).format("%Y-%m-%d"),
        (cairo + chrono::Duration::days(1)).format("%Y-%m-%d"),
    );
    let r = app
        .get_as(
            boss,
            &format!("/api/admin/exports/payments?from={from}&to={to}"),
        )
        .await;
    assert_eq!(r.status(), 200);
    let text = r.text().await.unwrap();
    csv::Reader::from_reader(text.as_bytes())
        .records()
        .map(Result::unwrap)
        .collect()
}

#[tokio::test]
async fn names_and_references_that_a_spreadsheet_would_run_are_quoted() {
    let app = spawn_app().await;
    let boss = admin(&app).await;
    let names = [
        "=HYPERLINK(\"http://evil.example\",\"x\")",
        "+A1 Adel",
        "-2+3 Adel",
        "@SUM(A1) Adel",
        "＝1+1 Adel",
    ];
    let today = chrono::Utc::now()
        .with_timezone(&chrono_tz::Africa::Cairo)
        .format("%Y-%m-%d")
        .to_string();
    for (i, name) in names.iter().enumerate() {
        let email = format!("client{i}@example.com");
        let c = new_client();
        let r = app
            .post_as(&c, "/api/auth/sign-up", json!({
                "full_name": name, "email": email, "password": "nile-sunrise-42", "phone": "+20 100 123 4567"
            }))
            .await;
        assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
        let id: String = sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
            .bind(&email)
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
        let r = app
            .post_as(&boss, "/api/admin/payments", json!({
                "clientId": id, "amount": "1000", "sessionsPurchased": 1, "paymentDate": today,
                "paymentMethod": "bank_transfer", "referenceNumber": format!("=cmd|' /C calc'!A{i}")
            }))
            .await;
        assert_eq!(r.status(), 201);
        let payment: Value = r.json().await.unwrap();
        let refund = format!(
            "/api/admin/payments/{}/refund",
            payment["id"].as_str().unwrap()
        );
        let r = app
            .post_as(&boss, &refund, json!({"credits": 0, "amount": "250.50"}))
            .await;
        assert_eq!(r.status(), 201);
    }
    let rows = export(&app, &boss).await;
    assert_eq!(rows.len(), 2 * names.len());
    let runs = |cell: &str| {
        cell.trim_start_matches(' ')
            .starts_with(['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠'])
    };
    for row in &rows {
        // client_name, client_email, reference_number, recorded_by
        for i in [3, 4, 9, 10] {
            assert!(
                !runs(&row[i]),
                "cell {i} would run in a spreadsheet: {row:?}"
            );
        }
    }
    for name in names {
        assert!(
            rows.iter().any(|r| r[3] == format!("'{name}")),
            "{name} is kept, behind a quote"
        );
    }
    // Refunds keep real negative numbers.
    let refunds: Vec<(&str, &str)> = rows
        .iter()
        .filter(|r| &r[0] == "refund")
        .map(|r| (&r[5], &r[6]))
        .collect();
    assert_eq!(refunds, vec![("0", "-250.50"); names.len()]);
}
