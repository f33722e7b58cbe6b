//! Applying a PayTabs result to a `payment_transactions` row: the callback, the browser return
//! (after a query), and the reconciliation job all call [`apply`], so a cart is credited once
//! whoever gets there first.

use serde_json::Value;

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
    let Order {
        id,
        client_id,
        status,
        amount,
        sessions_purchased: sessions,
        currency,
        credited_at,
        package_id,
        customer_email,
    } = order;
    let letter = tx_result
        .payment_result
        .response_status
        .trim()
        .to_uppercase();
    let now = now();
    let payload_text = payload.to_string();

    // A completed purchase never goes back: later notifications are recorded, nothing else.
    if credited_at.is_some() || status == PaymentStatus::Completed {
        return Ok(Outcome::Completed);
    }
    let mut outcome = match status_for(&letter) {
        PaymentStatus::Completed => Outcome::Completed,
        PaymentStatus::Pending => Outcome::Pending,
        PaymentStatus::Failed => Outcome::Failed,
    };
    if outcome == Outcome::Completed {
        let paid = tx_result
            .tran_total
            .as_deref()
            .or(tx_result.cart_amount.as_deref())
            .and_then(parse_amount);
        let paid_currency = tx_result
            .tran_currency
            .as_deref()
            .or(tx_result.cart_currency.as_deref())
            .unwrap_or("");
        let is_sale = tx_result
            .tran_type
            .as_deref()
            .is_none_or(|t| t.eq_ignore_ascii_case("sale"));
        let problem = if paid != Some(amount) {
            Some(format!(
                "amount {:?} differs from the {amount} piastres asked",
                tx_result
                    .tran_total
                    .as_ref()
                    .or(tx_result.cart_amount.as_ref())
            ))
        } else if !paid_currency.eq_ignore_ascii_case(&currency) {
            Some(format!(
                "currency `{paid_currency}` differs from `{currency}`"
            ))
        } else if !is_sale {
            Some(format!(
                "transaction type {:?} is not a sale",
                tx_result.tran_type
            ))
        } else {
            None
        };
        if let Some(reason) = problem {
            tracing::error!(cart_id = %tx_result.cart_id, tran_ref = %tx_result.tran_ref, reason, "authorised payment does not match the order; nothing credited");
            sqlx::query("UPDATE payment_transactions SET flagged_reason = $1, provider_status = $2, tran_ref = COALESCE(tran_ref, $3), provider_payload = $4, updated_at = $5 WHERE id = $6")
                .bind(&reason)
                .bind(&letter)
                .bind(&tx_result.tran_ref)
                .bind(&payload_text)
                .bind(&now)
                .bind(&id)
                .execute(&mut *db_tx)
                .await?;
            db_tx.commit().await?;
            return Ok(Outcome::Flagged(reason));
        }
        let package = state.catalogue.package(&package_id);
        // A package no catalogue since the start has (an older process priced it): the admin's
        // default.
        let months = package
            .as_ref()
            .map_or(state.site().default_validity_months, |p| p.validity_months);
        let validity = Validity::months_from(chrono::Utc::now(), months, state.site().time_zone);
        let applied = record_online_purchase(
            &mut db_tx,
            state.db.backend,
            &OnlinePurchase {
                client_id: &client_id,
                amount: Money(amount),
                currency: &currency,
                sessions,
                paid_at: &now,
                tran_ref: &tx_result.tran_ref,
                package_id: &package_id,
                validity: &validity,
            },
        )
        .await?;
        if applied == Applied::NoAccount {
            anyhow::bail!("the paying client {client_id} has no account");
        }
        if applied == Applied::Yes {
            // The record `record_online_purchase` just wrote is the one with this reference.
            let record_id: String = sqlx::query_scalar(
                "SELECT id FROM payment_records WHERE client_id = $1 AND reference_number = $2 AND recorded_by IS NULL",
            )
            .bind(&client_id)
            .bind(&tx_result.tran_ref)
            .fetch_one(&mut *db_tx)
            .await?;
            crate::domain::receipts::issue(&mut db_tx, &record_id).await?;
            let name: Option<String> =
                sqlx::query_scalar("SELECT full_name FROM profiles WHERE user_id = $1")
                    .bind(&client_id)
                    .fetch_optional(&mut *db_tx)
                    .await?;
            let package = package.map(|p| p.name).unwrap_or(package_id.clone());
            enqueue(
                &mut db_tx,
                &templates::purchase_receipt(
                    &state.site().name,
                    &customer_email,
                    name.as_deref().unwrap_or(""),
                    &package,
                    sessions,
                    amount,
                    &currency,
                    &tx_result.cart_id,
                    &state.config.public_base_url,
                    &crate::domain::receipts::page_url(&state.config.public_base_url, &record_id),
                ),
            )
            .await?;
        } else {
            outcome = Outcome::Completed; // the ledger already has it
        }
    }
    let new_status = match outcome {
        Outcome::Completed => PaymentStatus::Completed,
        Outcome::Pending => PaymentStatus::Pending,
        _ => PaymentStatus::Failed,
    };
    let credited = (new_status == PaymentStatus::Completed).then_some(now.clone());
    sqlx::query(
        "UPDATE payment_transactions SET status = $1, provider_status = $2, tran_ref = COALESCE(tran_ref, $3), provider_payload = $4,
                credited_at = COALESCE(credited_at, $5), updated_at = $6 WHERE id = $7",
    )
    .bind(new_status.as_str())
    .bind(&letter)
    .bind(&tx_result.tran_ref)
    .bind(&payload_text)
    .bind(&credited)
    .bind(&now)
    .bind(&id)
    .execute(&mut *db_tx)
    .await?;
    db_tx.commit().await?;
    if outcome == Outcome::Completed {
        state.mail_wake.notify_one();
        tracing::info!(cart_id = %tx_result.cart_id, sessions, "purchase completed and credited");
    }
    Ok(outcome)
}
