//! Payments that add credits, each written by one function: a payment the admin records
//! (spec /admin/add-payment, and Add User with a payment amount) and an online purchase that
//! PayTabs approved. Both write the `payment_records` row the client's history shows and the
//! ledger row that adds the credits as a lot (whose id is the payment record's), in the
//! caller's transaction.

use sqlx::AnyConnection;

use super::credits::{self, Applied, NewLot};
use super::validity::Validity;
use super::{Money, new_id, now};
use crate::db::Backend;

/// A payment recorded by an admin.
pub struct OfflinePayment<'a> {
    pub client_id: &'a str,
    pub amount: Money,
    pub currency: &'a str,
    pub sessions: i64,
    /// When it was paid (UTC timestamp text).
    pub payment_date: &'a str,
    pub method: &'a str,
    pub reference: Option<&'a str>,
    pub notes: Option<&'a str>,
    pub recorded_by: &'a str,
    /// How long its credits last (the admin picks; settings give the default).
    pub validity: &'a Validity,
}

/// Records the payment and adds its credits; the new record's id, or `None` when the client
/// has no account (then nothing was written).
pub async fn record_offline_payment(
    conn: &mut AnyConnection,
    backend: Backend,
    payment: &OfflinePayment<'_>,
) -> Result<Option<String>, sqlx::Error> {
    let id = new_id();
    let lot = NewLot {
        id: &id,
        validity: payment.validity,
        payment_record_id: Some(&id),
    };
    let applied = credits::add_offline_payment(
        conn,
        backend,
        payment.client_id,
        payment.sessions,
        &id,
        payment.payment_date,
        &lot,
    )
    .await?;
    if applied != Applied::Yes {
        return Ok(None);
    }
    sqlx::query(
        "INSERT INTO payment_records (id, client_id, amount, currency, sessions_purchased, payment_date, payment_method, reference_number, notes, recorded_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(&id)
    .bind(payment.client_id)
    .bind(payment.amount.minor())
    .bind(payment.currency)
    .bind(payment.sessions)
    .bind(payment.payment_date)
    .bind(payment.method)
    .bind(payment.reference)
    .bind(payment.notes)
    .bind(payment.recorded_by)
    .bind(now())
    .execute(&mut *conn)
    .await?;
    Ok(Some(id))
}

/// An online purchase PayTabs approved.
pub struct OnlinePurchase<'a> {
    pub client_id: &'a str,
    pub amount: Money,
    pub currency: &'a str,
    pub sessions: i64,
    pub paid_at: &'a str,
    /// PayTabs' transaction reference: the ledger's key, so a replay credits nothing.
    pub tran_ref: &'a str,
    pub package_id: &'a str,
    /// The package's `validity_months` from the purchase.
    pub validity: &'a Validity,
    /// How the client paid, as the provider reported it ([`Transaction::method`]: `card`,
    /// `meeza`, `meezaqr`, `applepay`, `valu`…): the record's `payment_method`.
    ///
    /// [`Transaction::method`]: crate::providers::paytabs::Transaction::method
    pub method: &'a str,
}

/// Adds the purchase's credits and its history record, once per `tran_ref`: what the ledger
/// did, and the id of the record written (when it was, `Applied::Yes`).
pub async fn record_online_purchase(
    conn: &mut AnyConnection,
    backend: Backend,
    purchase: &OnlinePurchase<'_>,
) -> Result<(Applied, Option<String>), sqlx::Error> {
    let id = new_id();
    let lot = NewLot {
        id: &id,
        validity: purchase.validity,
        payment_record_id: Some(&id),
    };
    let applied = credits::add_purchased(
        conn,
        backend,
        purchase.client_id,
        purchase.sessions,
        &format!("paytabs:{}", purchase.tran_ref),
        purchase.paid_at,
        &lot,
    )
    .await?;
    if applied == Applied::Yes {
        sqlx::query(
            "INSERT INTO payment_records (id, client_id, amount, currency, sessions_purchased, payment_date, payment_method, reference_number, notes, recorded_by, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $9, $7, $8, NULL, $6)",
        )
        .bind(&id)
        .bind(purchase.client_id)
        .bind(purchase.amount.minor())
        .bind(purchase.currency)
        .bind(purchase.sessions)
        .bind(purchase.paid_at)
        .bind(purchase.tran_ref)
        .bind(format!("Online purchase, package {}", purchase.package_id))
        .bind(purchase.method)
        .execute(&mut *conn)
        .await?;
        return Ok((applied, Some(id)));
    }
    Ok((applied, None))
}
