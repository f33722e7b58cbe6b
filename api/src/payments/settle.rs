//! Applying a provider's result (PayTabs' or Paymob's, as a [`PaymentResult`]) to a
//! `payment_transactions` row: the callbacks, the browser returns (after a query), and the
//! reconciliation job all call [`apply`], so an order is credited once whoever gets there first.

use serde_json::Value;
use sqlx::AnyConnection;

use super::orders::{self, Noted, Order};
use super::result::PaymentResult;
use crate::catalogue::Catalogues;
use crate::domain::accounts::language_of;
use crate::domain::credits::Applied;
use crate::domain::payments::{OnlinePurchase, record_online_purchase};
use crate::domain::validity::Validity;
use crate::domain::{Context, Mail, Money, PaymentStatus, ts};
use crate::email::{OutgoingEmail, enqueue_all, templates};
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

impl Outcome {
    /// Its name in `/metrics` (`webhooks_total`'s `outcome`).
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::UnknownCart => "unknown_order",
            Outcome::Completed => "completed",
            Outcome::Pending => "pending",
            Outcome::Failed => "failed",
            Outcome::Flagged(_) => "flagged",
        }
    }
}

/// Applies a provider's result for an order (see [`settle`]) in one transaction, and sends its email.
pub async fn apply(
    state: &AppState,
    tx_result: &PaymentResult,
    payload: &Value,
) -> anyhow::Result<Outcome> {
    let site = state.site();
    let ctx = state.context(&site);
    let mut db_tx = state.db.pool.begin().await?;
    let (outcome, mail) = settle(&mut db_tx, &ctx, &state.catalogue, tx_result, payload).await?;
    enqueue_all(&mut db_tx, &mail).await?;
    db_tx.commit().await?;
    state.wake_mail(&mail);
    Ok(outcome)
}

/// Applies a provider's result for an order, once: the order is locked, a completed one stays
/// completed, an authorised payment that does not match the order (amount, currency, kind, or
/// another provider than the order's) is flagged and credits nothing, and a matching one
/// credits the client (through the ledger, once per provider transaction), issues the receipt
/// and answers its email, in the caller's transaction.
pub async fn settle(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    catalogue: &Catalogues,
    tx_result: &PaymentResult,
    payload: &Value,
) -> anyhow::Result<(Outcome, Mail)> {
    let Some(order) = orders::lock(conn, ctx.backend, &tx_result.cart_id).await? else {
        return Ok((Outcome::UnknownCart, Vec::new()));
    };
    // A completed purchase never goes back: later notifications are recorded, nothing else.
    if order.credited_at.is_some() || order.status == PaymentStatus::Completed {
        return Ok((Outcome::Completed, Vec::new()));
    }
    // Nothing about this order is believed from a result that belongs to another one.
    if let Some(reason) = foreign(tx_result, &order) {
        tracing::warn!(cart_id = %tx_result.cart_id, reference = %tx_result.reference, reason, "a payment result for another order; ignored");
        return Ok((Outcome::Flagged(reason), Vec::new()));
    }
    let noted = Noted {
        letter: &tx_result.provider_status,
        tran_ref: &tx_result.reference,
        payload: payload.to_string(),
        at: ts(ctx.now),
    };
    let status = tx_result.status;
    let mut mail = Vec::new();
    if status == PaymentStatus::Completed {
        if let Some(reason) = mismatch(tx_result, &order) {
            tracing::error!(cart_id = %tx_result.cart_id, reference = %tx_result.reference, reason, "authorised payment does not match the order; nothing credited");
            orders::flag(conn, &order, &noted, &reason).await?;
            return Ok((Outcome::Flagged(reason), mail));
        }
        mail.extend(credit(conn, ctx, catalogue, &order, tx_result, &noted.at).await?);
    }
    orders::record_status(conn, &order, &noted, status).await?;
    let outcome = match status {
        PaymentStatus::Completed => {
            tracing::info!(cart_id = %tx_result.cart_id, sessions = order.sessions_purchased, "purchase completed and credited");
            Outcome::Completed
        }
        PaymentStatus::Pending => Outcome::Pending,
        PaymentStatus::Failed => Outcome::Failed,
    };
    Ok((outcome, mail))
}

/// Why a result is about another order than the one it names: another provider, or (Paymob,
/// which does not sign our order id) another order of the provider's.
fn foreign(tx_result: &PaymentResult, order: &Order) -> Option<String> {
    if tx_result.provider.as_str() != order.provider {
        return Some(format!(
            "a result from {} for an order sent to {}",
            tx_result.provider.name(),
            order.provider
        ));
    }
    match (&order.provider_order_id, &tx_result.provider_order) {
        (Some(ours), Some(theirs)) if ours != theirs => Some(format!(
            "the provider's order {theirs} is not this order's ({ours})"
        )),
        _ => None,
    }
}

/// Why an authorised payment is not the order's: another amount, currency or kind.
fn mismatch(tx_result: &PaymentResult, order: &Order) -> Option<String> {
    if tx_result.amount != Some(order.amount) {
        Some(format!(
            "amount {:?} differs from the {} piastres asked",
            tx_result.amount_text, order.amount
        ))
    } else if !tx_result.currency.eq_ignore_ascii_case(&order.currency) {
        Some(format!(
            "currency `{}` differs from `{}`",
            tx_result.currency, order.currency
        ))
    } else if !tx_result.is_sale {
        Some("the transaction is not a sale".to_string())
    } else {
        None
    }
}

/// Credits a matching payment: the lot and its ledger row (once per `tran_ref`), the payment
/// record and its receipt number, and the purchase email with the receipt's link.
async fn credit(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    catalogue: &Catalogues,
    order: &Order,
    tx_result: &PaymentResult,
    paid_at: &str,
) -> anyhow::Result<Option<OutgoingEmail>> {
    let package = catalogue.package(&order.package_id);
    // A package no catalogue since the start has (an older process priced it): the admin's
    // default.
    let months = package
        .as_ref()
        .map_or(ctx.site.default_validity_months, |p| p.validity_months);
    let validity = Validity::months_from(ctx.now, months, ctx.site.time_zone);
    let method = &tx_result.method;
    let purchase = OnlinePurchase {
        client_id: &order.client_id,
        amount: Money(order.amount),
        currency: &order.currency,
        sessions: order.sessions_purchased,
        paid_at,
        tran_ref: &tx_result.reference,
        package_id: &order.package_id,
        validity: &validity,
        method,
        discount: order
            .discount_code
            .as_deref()
            .map(|code| (code, order.discount_amount)),
    };
    let record_id =
        match record_online_purchase(conn, ctx.backend, tx_result.provider, &purchase).await? {
            (Applied::NoAccount, _) => {
                anyhow::bail!("the paying client {} has no account", order.client_id)
            }
            (Applied::Yes, Some(record_id)) => record_id,
            // The ledger already has this payment: nothing more to do.
            _ => return Ok(None),
        };
    if let Some(code_id) = &order.discount_code_id {
        super::discounts::count_use(
            conn,
            code_id,
            &order.client_id,
            &tx_result.cart_id,
            order.discount_amount,
            ctx.now,
        )
        .await?;
    }
    crate::domain::receipts::issue(conn, &record_id).await?;
    let name: Option<String> =
        sqlx::query_scalar("SELECT full_name FROM profiles WHERE user_id = $1")
            .bind(&order.client_id)
            .fetch_optional(&mut *conn)
            .await?;
    let lang = language_of(conn, &order.client_id).await?;
    let package = package.map_or_else(
        || order.package_id.clone(),
        |p| crate::catalogue::package_name(&p, lang),
    );
    let base_url = ctx.base_url;
    let mail = templates::purchase_receipt(
        lang,
        &ctx.site.name,
        &order.customer_email,
        name.as_deref().unwrap_or(""),
        &templates::Purchase {
            package: &package,
            sessions: order.sessions_purchased,
            amount: order.amount,
            currency: &order.currency,
            order_id: &tx_result.cart_id,
        },
        base_url,
        &crate::domain::receipts::page_url(base_url, &record_id, lang),
    );
    Ok(Some(mail))
}
