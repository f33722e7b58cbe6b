//! Applying a PayTabs result to a `payment_transactions` row: the callback, the browser return
//! (after a query), and the reconciliation job all call [`apply`], so a cart is credited once
//! whoever gets there first.

use serde_json::Value;
use sqlx::AnyConnection;

use crate::domain::credits::Applied;
use crate::domain::now;
use crate::domain::payments::{OnlinePurchase, record_online_purchase};
use crate::domain::validity::Validity;
use crate::domain::{Money, PaymentStatus};
use crate::email::{enqueue, templates};
use crate::providers::paytabs::{Transaction, parse_amount};
use crate::state::AppState;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// No transaction has this cart id.
    UnknownCart,
    Completed,
    Pending,
    Failed,
    /// Authorised, but amount, currency or type differ from what we asked: nothing credited.
    Flagged(String),
}

/// The order a notification is about, locked until it is settled.
#[derive(sqlx::FromRow)]
struct Order {
    id: String,
    client_id: String,
    #[sqlx(try_from = "String")]
    status: PaymentStatus,
    amount: i64,
    sessions_purchased: i64,
    currency: String,
    credited_at: Option<String>,
    package_id: String,
    customer_email: String,
}

/// Maps PayTabs' status letter to ours (docs/integrations.md §1.6).
fn status_for(letter: &str) -> PaymentStatus {
    match letter {
        "A" => PaymentStatus::Completed,
        "H" | "P" => PaymentStatus::Pending,
        _ => PaymentStatus::Failed,
    }
}

/// Applies PayTabs' result for a cart, once: the order is locked, a completed one stays
/// completed, an authorised payment that does not match the order is flagged and credits
/// nothing, and a matching one credits the client (through the ledger, once per `tran_ref`),
/// issues the receipt and queues the email, in one transaction.
pub async fn apply(
    state: &AppState,
    tx_result: &Transaction,
    payload: &Value,
) -> anyhow::Result<Outcome> {
    let lock = state.db.backend.for_update();
    let mut db_tx = state.db.pool.begin().await?;
    let row: Option<Order> = sqlx::query_as(&format!(
        "SELECT id, client_id, status, amount, sessions_purchased, currency, credited_at, package_id, customer_email
           FROM payment_transactions WHERE cart_id = $1{lock}"
    ))
    .bind(&tx_result.cart_id)
    .fetch_optional(&mut *db_tx)
    .await?;
    let Some(order) = row else {
        return Ok(Outcome::UnknownCart);
    };
    // A completed purchase never goes back: later notifications are recorded, nothing else.
    if order.credited_at.is_some() || order.status == PaymentStatus::Completed {
        return Ok(Outcome::Completed);
    }
    let letter = tx_result
        .payment_result
        .response_status
        .trim()
        .to_uppercase();
    let noted = Noted {
        letter: &letter,
        tran_ref: &tx_result.tran_ref,
        payload: payload.to_string(),
        at: now(),
    };
    let status = status_for(&letter);
    if status == PaymentStatus::Completed {
        if let Some(reason) = mismatch(tx_result, &order) {
            tracing::error!(cart_id = %tx_result.cart_id, tran_ref = %tx_result.tran_ref, reason, "authorised payment does not match the order; nothing credited");
            flag(&mut db_tx, &order, &noted, &reason).await?;
            db_tx.commit().await?;
            return Ok(Outcome::Flagged(reason));
        }
        credit(&mut db_tx, state, &order, tx_result, &noted.at).await?;
    }
    record_status(&mut db_tx, &order, &noted, status).await?;
    db_tx.commit().await?;
    Ok(match status {
        PaymentStatus::Completed => {
            state.mail_wake.notify_one();
            tracing::info!(cart_id = %tx_result.cart_id, sessions = order.sessions_purchased, "purchase completed and credited");
            Outcome::Completed
        }
        PaymentStatus::Pending => Outcome::Pending,
        _ => Outcome::Failed,
    })
}

/// What PayTabs said, as the order records it.
struct Noted<'a> {
    letter: &'a str,
    tran_ref: &'a str,
    payload: String,
    at: String,
}

/// Why an authorised payment is not the order's: another amount, currency or type.
fn mismatch(tx_result: &Transaction, order: &Order) -> Option<String> {
    let paid_text = tx_result
        .tran_total
        .as_ref()
        .or(tx_result.cart_amount.as_ref());
    let paid_currency = tx_result
        .tran_currency
        .as_deref()
        .or(tx_result.cart_currency.as_deref())
        .unwrap_or("");
    let is_sale = tx_result
        .tran_type
        .as_deref()
        .is_none_or(|t| t.eq_ignore_ascii_case("sale"));
    if paid_text.and_then(|t| parse_amount(t)) != Some(order.amount) {
        Some(format!(
            "amount {paid_text:?} differs from the {} piastres asked",
            order.amount
        ))
    } else if !paid_currency.eq_ignore_ascii_case(&order.currency) {
        Some(format!(
            "currency `{paid_currency}` differs from `{}`",
            order.currency
        ))
    } else if !is_sale {
        Some(format!(
            "transaction type {:?} is not a sale",
            tx_result.tran_type
        ))
    } else {
        None
    }
}

/// Keeps an authorised payment that does not match its order aside: nothing is credited.
async fn flag(
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
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Credits a matching payment: the lot and its ledger row (once per `tran_ref`), the payment
/// record and its receipt number, and the purchase email with the receipt's link.
async fn credit(
    conn: &mut AnyConnection,
    state: &AppState,
    order: &Order,
    tx_result: &Transaction,
    paid_at: &str,
) -> anyhow::Result<()> {
    let package = state.catalogue.package(&order.package_id);
    // A package no catalogue since the start has (an older process priced it): the admin's
    // default.
    let months = package
        .as_ref()
        .map_or(state.site().default_validity_months, |p| p.validity_months);
    let validity = Validity::months_from(chrono::Utc::now(), months, state.site().time_zone);
    let purchase = OnlinePurchase {
        client_id: &order.client_id,
        amount: Money(order.amount),
        currency: &order.currency,
        sessions: order.sessions_purchased,
        paid_at,
        tran_ref: &tx_result.tran_ref,
        package_id: &order.package_id,
        validity: &validity,
    };
    let record_id = match record_online_purchase(conn, state.db.backend, &purchase).await? {
        (Applied::NoAccount, _) => {
            anyhow::bail!("the paying client {} has no account", order.client_id)
        }
        (Applied::Yes, Some(record_id)) => record_id,
        // The ledger already has this payment: nothing more to do.
        _ => return Ok(()),
    };
    crate::domain::receipts::issue(conn, &record_id).await?;
    let name: Option<String> =
        sqlx::query_scalar("SELECT full_name FROM profiles WHERE user_id = $1")
            .bind(&order.client_id)
            .fetch_optional(&mut *conn)
            .await?;
    let package = package.map_or_else(|| order.package_id.clone(), |p| p.name);
    let base_url = &state.config.public_base_url;
    let mail = templates::purchase_receipt(
        &state.site().name,
        &order.customer_email,
        name.as_deref().unwrap_or(""),
        &package,
        order.sessions_purchased,
        order.amount,
        &order.currency,
        &tx_result.cart_id,
        base_url,
        &crate::domain::receipts::page_url(base_url, &record_id),
    );
    enqueue(conn, &mail).await?;
    Ok(())
}

/// The order's new status and PayTabs' latest word on it.
async fn record_status(
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
    .execute(&mut *conn)
    .await?;
    Ok(())
}
