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
    /// The discount code that priced it (its row id) and what it took off, in minor units:
    /// the order holds one of the code's uses while it is pending.
    pub discount: Option<(&'a str, i64)>,
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
                                           customer_name, customer_email, customer_phone, is_guest, created_at, updated_at,
                                           discount_code_id, discount_amount)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 0, $13, $13, $14, $15)",
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
    .bind(order.discount.map(|(id, _)| id))
    .bind(order.discount.map_or(0, |(_, off)| off))
    .execute(conn)
    .await?;
    Ok(cart_id)
}

/// Who the order goes to (`paytabs` unless said otherwise).
pub async fn set_provider(
    conn: &mut AnyConnection,
    cart_id: &str,
    provider: content_model::payments::Provider,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE payment_transactions SET provider = $1 WHERE cart_id = $2")
        .bind(provider.as_str())
        .bind(cart_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The provider made the hosted page: its transaction reference, when it gives one at once
/// (PayTabs does; Paymob's comes with its callback), and its own order id (Paymob's).
pub async fn page_created(
    conn: &mut AnyConnection,
    cart_id: &str,
    started: &crate::payments::gateway::Started,
    now: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE payment_transactions SET tran_ref = COALESCE($1, tran_ref), provider_order_id = $2, updated_at = $3 WHERE cart_id = $4",
    )
    .bind(started.reference.as_deref())
    .bind(started.provider_order.as_deref())
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
          WHERE status = $3 AND provider <> 'transfer' AND tran_ref IS NULL AND created_at < $4",
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
#[derive(sqlx_macros::FromRow)]
pub struct Order {
    pub id: String,
    /// `paytabs` or `paymob`: who was asked for the payment.
    pub provider: String,
    /// The provider's own order for it, when it gave one (Paymob's).
    pub provider_order_id: Option<String>,
    pub client_id: String,
    pub status: PaymentStatus,
    pub amount: i64,
    pub sessions_purchased: i64,
    pub currency: String,
    pub credited_at: Option<String>,
    pub package_id: String,
    pub customer_email: String,
    pub discount_code_id: Option<String>,
    /// The code as typed (upper case), while the code exists.
    pub discount_code: Option<String>,
    pub discount_amount: i64,
}

/// The discount columns of an order, with the code's text.
const DISCOUNT_COLUMNS: &str = "discount_code_id, discount_amount,
       (SELECT code FROM discount_codes WHERE discount_codes.id = payment_transactions.discount_code_id) AS discount_code";

/// The order of `cart_id`, locked.
pub async fn lock(
    conn: &mut AnyConnection,
    backend: Backend,
    cart_id: &str,
) -> Result<Option<Order>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT id, provider, provider_order_id, client_id, status, amount, sessions_purchased, currency, credited_at, package_id, customer_email,
                {DISCOUNT_COLUMNS}
           FROM payment_transactions WHERE cart_id = $1 AND provider <> 'transfer'{}",
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

/// Makes the order `cart_id` just opened a transfer order: its reference and when it lapses.
pub async fn make_transfer(
    conn: &mut AnyConnection,
    cart_id: &str,
    reference: &str,
    expires_at: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE payment_transactions SET provider = 'transfer', transfer_reference = $1, expires_at = $2 WHERE cart_id = $3",
    )
    .bind(reference)
    .bind(ts(expires_at))
    .bind(cart_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether a transfer order already has this reference.
pub async fn transfer_reference_taken(
    conn: &mut AnyConnection,
    reference: &str,
) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM payment_transactions WHERE transfer_reference = $1",
    )
    .bind(reference)
    .fetch_one(conn)
    .await?;
    Ok(n > 0)
}

/// A transfer order, locked until it is confirmed, rejected, cancelled or lapsed.
#[derive(sqlx_macros::FromRow)]
pub struct TransferOrder {
    pub id: String,
    pub cart_id: String,
    pub client_id: String,
    pub status: PaymentStatus,
    /// `confirmed`, `rejected`, `cancelled` or `lapsed` once it is over.
    pub provider_status: Option<String>,
    pub amount: i64,
    pub currency: String,
    pub sessions_purchased: i64,
    pub package_id: String,
    pub customer_email: String,
    pub transfer_reference: String,
    pub expires_at: String,
    pub discount_code_id: Option<String>,
    pub discount_code: Option<String>,
    pub discount_amount: i64,
}

/// The transfer order `cart_id`, locked.
pub async fn lock_transfer(
    conn: &mut AnyConnection,
    backend: Backend,
    cart_id: &str,
) -> Result<Option<TransferOrder>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT id, cart_id, client_id, status, provider_status, amount, currency, sessions_purchased, package_id,
                customer_email, transfer_reference, expires_at, {DISCOUNT_COLUMNS}
           FROM payment_transactions WHERE cart_id = $1 AND provider = 'transfer'{}",
        backend.for_update()
    ))
    .bind(cart_id)
    .fetch_optional(conn)
    .await
}

/// A transfer order's end: `completed` (confirmed by `admin`, with the bank's reference if
/// given) or `failed` with why (`rejected`, `cancelled`, `lapsed`).
pub async fn end_transfer(
    conn: &mut AnyConnection,
    order_id: &str,
    status: PaymentStatus,
    why: &str,
    admin: Option<(&str, Option<&str>)>,
    now: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    let credited = (status == PaymentStatus::Completed).then(|| ts(now));
    sqlx::query(
        "UPDATE payment_transactions SET status = $1, provider_status = $2, credited_at = COALESCE(credited_at, $3),
                confirmed_by = $4, bank_reference = $5, updated_at = $6 WHERE id = $7",
    )
    .bind(status.as_str())
    .bind(why)
    .bind(credited)
    .bind(admin.map(|(id, _)| id))
    .bind(admin.and_then(|(_, r)| r))
    .bind(ts(now))
    .bind(order_id)
    .execute(conn)
    .await?;
    Ok(())
}
