//! A payment transaction's rows (`payment_transactions`: an online order at PayTabs): every
//! statement that writes them. `open` records the order at the server's price before PayTabs
//! hears of it; `settle` (through [`lock`], [`flag`] and [`record_status`]) applies PayTabs'
//! word, once.

use chrono::{DateTime, Utc};
use sqlx::AnyConnection;

use crate::db::Backend;
use crate::domain::{PaymentStatus, new_id, ts};

/// An order about to be sent to PayTabs, priced by the server.
pub struct NewOrder<'a> {
    pub client_id: &'a str,
    pub package_id: &'a str,
    /// `individual` or `group`.
    pub package_type: &'a str,
    pub sessions: i64,
    /// In minor units (piastres).
    pub amount: i64,
    pub currency: &'a str,
    pub customer_name: &'a str,
    pub customer_email: &'a str,
    pub customer_phone: &'a str,
}

/// Records a pending order with a fresh unguessable cart id, and answers the cart id.
pub async fn open(
    conn: &mut AnyConnection,
    order: &NewOrder<'_>,
    now: DateTime<Utc>,
) -> Result<String, sqlx::Error> {
    let cart_id = format!("ec_{}", new_id());
    sqlx::query(
        "INSERT INTO payment_transactions (id, client_id, cart_id, status, package_id, package_type, sessions_purchased, amount, currency,
                                           customer_name, customer_email, customer_phone, is_guest, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 0, $13, $13)",
    )
    .bind(new_id())
    .bind(order.client_id)
    .bind(&cart_id)
    .bind(PaymentStatus::Pending.as_str())
    .bind(order.package_id)
    .bind(order.package_type)
    .bind(order.sessions)
    .bind(order.amount)
    .bind(order.currency)
    .bind(order.customer_name)
    .bind(order.customer_email)
    .bind(order.customer_phone)
    .bind(ts(now))
    .execute(conn)
    .await?;
    Ok(cart_id)
}

/// PayTabs made the hosted page: its transaction reference.
pub async fn page_created(
    conn: &mut AnyConnection,
    cart_id: &str,
    tran_ref: &str,
    now: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE payment_transactions SET tran_ref = $1, updated_at = $2 WHERE cart_id = $3",
    )
    .bind(tran_ref)
    .bind(ts(now))
    .bind(cart_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// PayTabs made no page: the order failed before anyone paid.
pub async fn page_failed(
    conn: &mut AnyConnection,
    cart_id: &str,
    now: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE payment_transactions SET status = $1, updated_at = $2 WHERE cart_id = $3")
        .bind(PaymentStatus::Failed.as_str())
        .bind(ts(now))
        .bind(cart_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Orders that never reached PayTabs' page (no transaction reference) a day after they were
/// opened: failed. Answers how many.
pub async fn fail_abandoned(
    conn: &mut AnyConnection,
    now: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE payment_transactions SET status = $1, updated_at = $2
          WHERE status = $3 AND tran_ref IS NULL AND created_at < $4",
    )
    .bind(PaymentStatus::Failed.as_str())
    .bind(ts(now))
    .bind(PaymentStatus::Pending.as_str())
    .bind(ts(now - chrono::Duration::hours(24)))
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// The order a result is about, locked until it is settled.
#[derive(sqlx::FromRow)]
pub struct Order {
    pub id: String,
    pub client_id: String,
    #[sqlx(try_from = "String")]
    pub status: PaymentStatus,
    pub amount: i64,
    pub sessions_purchased: i64,
    pub currency: String,
    pub credited_at: Option<String>,
    pub package_id: String,
    pub customer_email: String,
}

/// The order of `cart_id`, locked.
pub async fn lock(
    conn: &mut AnyConnection,
    backend: Backend,
    cart_id: &str,
) -> Result<Option<Order>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT id, client_id, status, amount, sessions_purchased, currency, credited_at, package_id, customer_email
           FROM payment_transactions WHERE cart_id = $1{}",
        backend.for_update()
    ))
    .bind(cart_id)
    .fetch_optional(conn)
    .await
}

/// What PayTabs said, as the order records it.
pub struct Noted<'a> {
    /// PayTabs' status letter (A, H, P, D, E, …).
    pub letter: &'a str,
    pub tran_ref: &'a str,
    pub payload: String,
    pub at: String,
}

/// Keeps an authorised payment that does not match its order aside: nothing is credited.
pub async fn flag(
    conn: &mut AnyConnection,
    order: &Order,
    noted: &Noted<'_>,
    reason: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE payment_transactions SET flagged_reason = $1, provider_status = $2, tran_ref = COALESCE(tran_ref, $3), provider_payload = $4, updated_at = $5 WHERE id = $6")
        .bind(reason)
        .bind(noted.letter)
        .bind(noted.tran_ref)
        .bind(&noted.payload)
        .bind(&noted.at)
        .bind(&order.id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The order's new status and PayTabs' latest word on it.
pub async fn record_status(
    conn: &mut AnyConnection,
    order: &Order,
    noted: &Noted<'_>,
    status: PaymentStatus,
) -> Result<(), sqlx::Error> {
    let credited = (status == PaymentStatus::Completed).then_some(noted.at.as_str());
    sqlx::query(
        "UPDATE payment_transactions SET status = $1, provider_status = $2, tran_ref = COALESCE(tran_ref, $3), provider_payload = $4,
                credited_at = COALESCE(credited_at, $5), updated_at = $6 WHERE id = $7",
    )
    .bind(status.as_str())
    .bind(noted.letter)
    .bind(noted.tran_ref)
    .bind(&noted.payload)
    .bind(credited)
    .bind(&noted.at)
    .bind(&order.id)
    .execute(conn)
    .await?;
    Ok(())
}
