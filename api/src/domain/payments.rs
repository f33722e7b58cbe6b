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
        engagement_id: None,
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

/// An online purchase a provider approved.
pub struct OnlinePurchase<'a> {
    pub client_id: &'a str,
    pub amount: Money,
    pub currency: &'a str,
    pub sessions: i64,
    pub paid_at: &'a str,
    /// The provider's transaction (PayTabs' `tran_ref`, Paymob's id): the ledger's key, so a
    /// replay credits nothing.
    pub tran_ref: &'a str,
    pub package_id: &'a str,
    /// The package's `validity_months` from the purchase.
    pub validity: &'a Validity,
    /// How the client paid, as the provider reported it ([`Transaction::method`]: `card`,
    /// `meeza`, `meezaqr`, `applepay`, `valu`…): the record's `payment_method`.
    ///
    /// [`Transaction::method`]: crate::providers::paytabs::Transaction::method
    pub method: &'a str,
    /// The discount code that priced it (as typed, upper case) and what it took off.
    pub discount: Option<(&'a str, i64)>,
}

/// Adds the purchase's credits and its history record, once per `tran_ref`: what the ledger
/// did, and the id of the record written (when it was, `Applied::Yes`). The ledger's key
/// names the provider who took it (`paytabs:…`, `paymob:…`): a refund goes back through it.
pub async fn record_online_purchase(
    conn: &mut AnyConnection,
    backend: Backend,
    provider: content_model::payments::Provider,
    purchase: &OnlinePurchase<'_>,
) -> Result<(Applied, Option<String>), sqlx::Error> {
    let source = Source {
        ledger_ref: format!("{}:{}", provider.as_str(), purchase.tran_ref),
        reference: purchase.tran_ref,
        notes: format!("Online purchase, package {}", purchase.package_id),
        recorded_by: None,
    };
    record_purchase(conn, backend, purchase, &source).await
}

/// Adds the credits and the history record of a transfer order the admin `confirmed_by`
/// confirmed, once per order (`cart_id`, the ledger's key). `purchase.tran_ref` is the
/// order's transfer reference; the record is an offline one (a refund is recorded, not sent).
pub async fn record_transfer_purchase(
    conn: &mut AnyConnection,
    backend: Backend,
    purchase: &OnlinePurchase<'_>,
    cart_id: &str,
    confirmed_by: &str,
) -> Result<(Applied, Option<String>), sqlx::Error> {
    let source = Source {
        ledger_ref: format!("transfer:{cart_id}"),
        reference: purchase.tran_ref,
        notes: format!("Transfer, package {}", purchase.package_id),
        recorded_by: Some(confirmed_by),
    };
    record_purchase(conn, backend, purchase, &source).await
}

/// Where a purchase's money came from, as its ledger row and record say.
struct Source<'a> {
    /// The ledger's unique reference: a second credit for it is refused.
    ledger_ref: String,
    reference: &'a str,
    notes: String,
    recorded_by: Option<&'a str>,
}

async fn record_purchase(
    conn: &mut AnyConnection,
    backend: Backend,
    purchase: &OnlinePurchase<'_>,
    source: &Source<'_>,
) -> Result<(Applied, Option<String>), sqlx::Error> {
    let id = new_id();
    let lot = NewLot {
        id: &id,
        validity: purchase.validity,
        payment_record_id: Some(&id),
        engagement_id: None,
    };
    let applied = credits::add_purchased(
        conn,
        backend,
        purchase.client_id,
        purchase.sessions,
        &source.ledger_ref,
        purchase.paid_at,
        &lot,
    )
    .await?;
    if applied != Applied::Yes {
        return Ok((applied, None));
    }
    sqlx::query(
        "INSERT INTO payment_records (id, client_id, amount, currency, sessions_purchased, payment_date, payment_method, reference_number, notes, recorded_by, created_at,
                                      discount_code, discount_amount)
         VALUES ($1, $2, $3, $4, $5, $6, $9, $7, $8, $10, $6, $11, $12)",
    )
    .bind(&id)
    .bind(purchase.client_id)
    .bind(purchase.amount.minor())
    .bind(purchase.currency)
    .bind(purchase.sessions)
    .bind(purchase.paid_at)
    .bind(source.reference)
    .bind(&source.notes)
    .bind(purchase.method)
    .bind(source.recorded_by)
    .bind(purchase.discount.map(|(code, _)| code))
    .bind(purchase.discount.map_or(0, |(_, off)| off))
    .execute(&mut *conn)
    .await?;
    Ok((applied, Some(id)))
}
