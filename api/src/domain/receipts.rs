//! Receipts: every payment record (online or recorded by the admin) gets one number, 1, 2, 3…
//! in the order payments are recorded, issued in the payment's own transaction and never
//! changed. Migration 0005 numbered the payments recorded before receipts existed.

use sqlx::AnyConnection;

use super::{Language, now};

/// The receipt page of a payment, on the site at `public_base_url`, in `lang`
/// (`/receipt?id=…`, `/ar/receipt?id=…`).
pub fn page_url(public_base_url: &str, payment_id: &str, lang: Language) -> String {
    lang.page(public_base_url, &format!("/receipt?id={payment_id}"))
}

/// The receipt number of a payment record, issuing the next one if it has none yet.
pub async fn issue(conn: &mut AnyConnection, payment_record_id: &str) -> Result<i64, sqlx::Error> {
    let existing: Option<i64> =
        sqlx::query_scalar("SELECT number FROM receipts WHERE payment_record_id = $1")
            .bind(payment_record_id)
            .fetch_optional(&mut *conn)
            .await?;
    if let Some(number) = existing {
        return Ok(number);
    }
    // The counter row is the lock: two payments at once take 7 and 8, never 7 twice.
    let number: i64 = sqlx::query_scalar(
        "UPDATE counters SET value = value + 1 WHERE name = 'receipt' RETURNING value",
    )
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query("INSERT INTO receipts (number, payment_record_id, issued_at) VALUES ($1, $2, $3)")
        .bind(number)
        .bind(payment_record_id)
        .bind(now())
        .execute(&mut *conn)
        .await?;
    Ok(number)
}

/// How a receipt number is printed: `R-000042`.
pub fn display_number(number: i64) -> String {
    format!("R-{number:06}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn numbers_are_zero_padded_and_grow_past_six_digits() {
        assert_eq!(super::display_number(42), "R-000042");
        assert_eq!(super::display_number(1_234_567), "R-1234567");
    }
}
