//! Refunds of payments (issue 14, point 3). The admin refunds a payment: up to its lot's
//! unused credits leave through the ledger, and up to what was paid minus earlier refunds goes
//! back. An online payment's refund goes back through the provider that took it (its
//! [`Gateway`]): PayTabs' follow-up `refund` on the sale's `tran_ref` (docs/integrations.md
//! §1.3, §1.5), or Paymob's refund API on its transaction id. The credits leave when it is
//! asked for, so they cannot be booked meanwhile, and come back if the provider declines. The
//! provider's answer and its signed notification both go through [`settle`], so whichever
//! comes first decides and a replay changes nothing. An offline payment's refund is recorded
//! as done.

use serde::Serialize;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use crate::db::Backend;
use crate::domain::credits::{self, Applied};
use crate::domain::{Context, FieldError, Language, Mail, MoneyView, new_id, ts};
use crate::email::{OutgoingEmail, credit_templates, enqueue_all};
use crate::payments::gateway::{Gateway, RefundCall, RefundReply};
use crate::providers::paytabs::Transaction;
use crate::state::AppState;

/// What can still be refunded of one payment, as the admin's dialog shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Refundable {
    pub payment_id: String,
    pub client_id: String,
    /// `paytabs` or `paymob` (sent to the provider that took the payment) or `offline` (the
    /// admin records it).
    pub method: String,
    pub paid: MoneyView,
    /// Refunds done or waiting for PayTabs.
    pub refunded: MoneyView,
    /// Paid minus earlier refunds: the most a refund may be.
    pub max_amount: MoneyView,
    pub sessions_purchased: i64,
    /// The payment's credits not used (nor expired): the most a refund removes.
    pub unused_credits: i64,
    /// The suggested amount: the paid price of the unused credits, within `max_amount`.
    pub suggested_amount: MoneyView,
    #[serde(skip)]
    lot_id: Option<String>,
    #[serde(skip)]
    sale_tran_ref: Option<String>,
}

/// The admin's offline methods that no online payment is recorded with.
const OFFLINE_ONLY_METHODS: [&str; 6] = [
    "cash",
    "bank_transfer",
    "check",
    "paypal",
    "other",
    "credit_card",
];

#[derive(sqlx_macros::FromRow)]
struct PaymentRow {
    id: String,
    client_id: String,
    amount: i64,
    currency: String,
    sessions_purchased: i64,
    payment_method: String,
    reference_number: Option<String>,
    notes: Option<String>,
    lot_id: Option<String>,
    remaining: Option<i64>,
    refunded: i64,
    /// 1 when the ledger credited this payment as Paymob's.
    via_paymob: i64,
}

/// An online purchase's record is written by `record_online_purchase`: the method PayTabs
/// reported (never one of the admin's offline methods but `card`), the sale's `tran_ref` as
/// reference and "Online purchase, …" as note.
fn is_online(row: &PaymentRow) -> bool {
    !OFFLINE_ONLY_METHODS.contains(&row.payment_method.as_str())
        && row.reference_number.is_some()
        && row
            .notes
            .as_deref()
            .is_some_and(|n| n.starts_with("Online purchase"))
}

/// Locks a payment for a refund, inside the caller's transaction, and answers whether it
/// exists. On PostgreSQL the client's account is locked first (the ledger's own lock, so a
/// booking cannot take the payment's credits meanwhile), then the payment row; each
/// concurrent refund of the payment waits here for the one before it to commit. [`refundable`]
/// must then be read as a statement of its own: in PostgreSQL's READ COMMITTED a statement
/// sees what was committed before it started, so a sum read in the statement that waited for
/// the lock would miss the refund it waited for (12 racing refunds of 400.00 recorded 3,600.00).
/// SQLite's one writer connection runs transactions one at a time and needs no lock.
pub async fn lock_payment(
    conn: &mut AnyConnection,
    backend: Backend,
    payment_id: &str,
) -> Result<bool, sqlx::Error> {
    let client: Option<String> =
        sqlx::query_scalar("SELECT client_id FROM payment_records WHERE id = $1")
            .bind(payment_id)
            .fetch_optional(&mut *conn)
            .await?;
    let Some(client) = client else {
        return Ok(false);
    };
    if backend == Backend::Postgres {
        sqlx::query("SELECT user_id FROM client_accounts WHERE user_id = $1 FOR UPDATE")
            .bind(&client)
            .fetch_optional(&mut *conn)
            .await?;
        sqlx::query("SELECT id FROM payment_records WHERE id = $1 FOR UPDATE")
            .bind(payment_id)
            .fetch_optional(&mut *conn)
            .await?;
    }
    Ok(true)
}

/// Reads a payment and what is left to refund of it. Before a refund, call [`lock_payment`]
/// first in the same transaction.
pub async fn refundable(
    conn: &mut AnyConnection,
    payment_id: &str,
) -> Result<Option<Refundable>, sqlx::Error> {
    let row: Option<PaymentRow> = sqlx::query_as(
        "SELECT r.id, r.client_id, r.amount, r.currency, r.sessions_purchased, r.payment_method,
                r.reference_number, r.notes, l.id AS lot_id, l.remaining,
                CAST(COALESCE((SELECT SUM(f.amount) FROM payment_refunds f
                                WHERE f.payment_record_id = r.id AND f.status <> 'failed'), 0) AS BIGINT) AS refunded,
                CAST((SELECT COUNT(*) FROM credit_ledger g WHERE g.external_ref = 'paymob:' || r.reference_number) AS BIGINT) AS via_paymob
           FROM payment_records r LEFT JOIN credit_lots l ON l.payment_record_id = r.id
          WHERE r.id = $1",
    )
    .bind(payment_id)
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|r| {
        let online = is_online(&r);
        let unused = r.remaining.unwrap_or(0);
        let max = (r.amount - r.refunded).max(0);
        let share = if r.sessions_purchased > 0 {
            r.amount * unused / r.sessions_purchased
        } else {
            0
        };
        Refundable {
            payment_id: r.id,
            client_id: r.client_id,
            method: match (online, r.via_paymob > 0) {
                (false, _) => "offline",
                (true, true) => "paymob",
                (true, false) => "paytabs",
            }
            .into(),
            paid: MoneyView::new(r.amount, &r.currency),
            refunded: MoneyView::new(r.refunded, &r.currency),
            max_amount: MoneyView::new(max, &r.currency),
            sessions_purchased: r.sessions_purchased,
            unused_credits: unused,
            suggested_amount: MoneyView::new(share.min(max), &r.currency),
            lot_id: r.lot_id,
            sale_tran_ref: online.then_some(r.reference_number).flatten(),
        }
    }))
}

impl Refundable {
    /// The sale an online payment's refund follows up.
    /// Whether a refund of `credits` and `amount` (minor units) fits what is left of this
    /// payment, with the message the admin's dialog shows on the field when it does not.
    pub fn check(&self, credits: i64, amount: i64) -> Result<(), FieldError> {
        if !(0..=self.unused_credits).contains(&credits) {
            let most = self.unused_credits;
            return Err(FieldError::new(
                "credits",
                &format!("At most {most} unused credits can be removed"),
            ));
        }
        if amount > self.max_amount.minor {
            let most = with_cents(self.max_amount.minor);
            let currency = &self.max_amount.currency;
            return Err(FieldError::new(
                "amount",
                &format!("At most {most} {currency} can be refunded"),
            ));
        }
        if amount == 0 && credits == 0 {
            return Err(FieldError::new(
                "amount",
                "Refund an amount, credits, or both",
            ));
        }
        Ok(())
    }

    pub fn sale_tran_ref(&self) -> Option<&str> {
        self.sale_tran_ref.as_deref()
    }
}

/// A refund the admin asked for, checked against [`Refundable`] by the route.
pub struct RefundAsked<'a> {
    pub credits: i64,
    pub amount: i64,
    pub reason: Option<&'a str>,
    pub admin_id: &'a str,
}

/// The refund as the admin and the client's history see it.
#[derive(Debug, Clone, Serialize, ToSchema, sqlx_macros::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct RefundRow {
    pub id: String,
    pub payment_record_id: String,
    pub amount: i64,
    pub currency: String,
    pub credits: i64,
    /// `paytabs` or `offline`.
    pub method: String,
    /// `pending` (waiting for PayTabs), `completed` or `failed` (PayTabs declined; the
    /// credits came back).
    pub status: String,
    pub created_at: String,
    pub completed_at: Option<String>,
}

const REFUND_COLUMNS: &str =
    "id, payment_record_id, amount, currency, credits, method, status, created_at, completed_at";

/// A client's refunds, newest first (the admin's client page lists them as their own lines).
pub async fn of_client(
    conn: &mut AnyConnection,
    client_id: &str,
) -> Result<Vec<RefundRow>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {REFUND_COLUMNS} FROM payment_refunds WHERE client_id = $1 ORDER BY created_at DESC, id"
    ))
    .bind(client_id)
    .fetch_all(conn)
    .await
}

async fn refund_row(conn: &mut AnyConnection, id: &str) -> Result<RefundRow, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {REFUND_COLUMNS} FROM payment_refunds WHERE id = $1"
    ))
    .bind(id)
    .fetch_one(conn)
    .await
}

/// Writes the refund and removes its credits, in the caller's transaction (which holds the
/// payment from [`refundable`]). An offline refund is complete at once and its email queued;
/// an online one waits for [`send`] after the commit.
pub async fn record(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    payment: &Refundable,
    asked: &RefundAsked<'_>,
) -> anyhow::Result<(RefundRow, Mail)> {
    let id = new_id();
    let online = payment.method != "offline";
    let now = ts(ctx.now);
    sqlx::query(
        "INSERT INTO payment_refunds (id, payment_record_id, client_id, amount, currency, credits, method, status, cart_id, reason, requested_by, created_at, completed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
    )
    .bind(&id)
    .bind(&payment.payment_id)
    .bind(&payment.client_id)
    .bind(asked.amount)
    .bind(&payment.paid.currency)
    .bind(asked.credits)
    .bind(&payment.method)
    .bind(if online { "pending" } else { "completed" })
    .bind(online.then(|| format!("rf_{id}")))
    .bind(asked.reason)
    .bind(asked.admin_id)
    .bind(&now)
    .bind((!online).then_some(now.clone()))
    .execute(&mut *conn)
    .await?;
    if asked.credits > 0 {
        let lot = payment
            .lot_id
            .as_deref()
            .ok_or_else(|| anyhow::anyhow!("payment {} has no lot", payment.payment_id))?;
        let applied = credits::remove_for_refund(
            conn,
            ctx.backend,
            &payment.client_id,
            lot,
            asked.credits,
            &id,
            asked.reason,
        )
        .await?;
        anyhow::ensure!(
            applied == Applied::Yes,
            "refund credits not removed: {applied:?}"
        );
    }
    let mut mail = Vec::new();
    if !online {
        mail.push(refund_email(conn, ctx, &id).await?);
    }
    Ok((refund_row(conn, &id).await?, mail))
}

/// What became of a refund sent to its provider.
pub enum Sent {
    /// The provider answered with a transaction (approved, declined or pending), or did not
    /// answer at all (the refund stays pending until its notification).
    Row(RefundRow),
    /// The provider refused the request outright: the refund failed, its credits are back,
    /// and this is the provider's reason.
    Refused(String),
}

/// Sends an online refund to the provider that took the sale, and settles it with the
/// provider's answer. A refund left pending is settled by its notification.
pub async fn send(
    state: &AppState,
    gateway: &dyn Gateway,
    refund_id: &str,
    sale_reference: &str,
) -> anyhow::Result<Sent> {
    let (cart_id, amount, currency): (String, i64, String) =
        sqlx::query_as("SELECT cart_id, amount, currency FROM payment_refunds WHERE id = $1")
            .bind(refund_id)
            .fetch_one(&state.db.pool)
            .await?;
    let answer = gateway
        .refund(&RefundCall {
            refund_cart_id: &cart_id,
            sale_reference,
            amount,
            currency: &currency,
            base_url: &state.config.public_base_url,
        })
        .await;
    let key = RefundKey::Cart(&cart_id);
    match answer {
        Ok(RefundReply::Answered { reference, letter }) => {
            settle(state, key, Some(&reference), &letter).await?;
        }
        Ok(RefundReply::Refused(message)) => {
            tracing::warn!(
                refund_id,
                message,
                provider = gateway.provider().name(),
                "the provider refused a refund request"
            );
            settle(state, key, None, REFUSED).await?;
            return Ok(Sent::Refused(message));
        }
        // No answer: the provider may still have done it. The refund stays pending; its
        // notification (or the admin asking again later) settles it.
        Err(e) => tracing::error!(
            refund_id,
            provider = gateway.provider().name(),
            error = format!("{e:#}"),
            "refund request failed"
        ),
    }
    let mut conn = state.db.pool.acquire().await?;
    Ok(Sent::Row(refund_row(&mut conn, refund_id).await?))
}

/// The provider status recorded for a refund a provider refused outright (HTTP 4xx, no
/// transaction): settled like a decline.
const REFUSED: &str = "REFUSED";

/// How a provider's refund notification names the refund: PayTabs by our refund's cart id,
/// Paymob by its refund transaction's id (which its answer gave).
#[derive(Clone, Copy)]
pub enum RefundKey<'a> {
    Cart(&'a str),
    Reference(&'a str),
}

/// A PayTabs notification of a refund: `true` when it named one of ours.
pub async fn settle_notification(state: &AppState, tx: &Transaction) -> anyhow::Result<bool> {
    settle(
        state,
        RefundKey::Cart(&tx.cart_id),
        Some(&tx.tran_ref),
        &tx.payment_result.response_status,
    )
    .await
}

/// A Paymob notification of a refund transaction: `true` when it named one of ours.
pub async fn settle_paymob_notification(
    state: &AppState,
    tx: &crate::providers::paymob::PaymobTransaction,
) -> anyhow::Result<bool> {
    let reference = tx.id.to_string();
    let letter = crate::payments::gateway::refund_letter(tx);
    settle(
        state,
        RefundKey::Reference(&reference),
        Some(&reference),
        letter,
    )
    .await
}

/// Applies a provider's result (as PayTabs' letter) to a pending refund, once: approved
/// completes it (and emails the client); declined fails it and gives the credits back;
/// anything else leaves it pending.
/// A refund already completed or failed is left as it is, so a replay changes nothing.
async fn settle(
    state: &AppState,
    key: RefundKey<'_>,
    tran_ref: Option<&str>,
    letter: &str,
) -> anyhow::Result<bool> {
    let site = state.site();
    let ctx = state.context(&site);
    let mut db_tx = state.db.pool.begin().await?;
    let (known, mail) = settle_in(&mut db_tx, &ctx, key, tran_ref, letter).await?;
    enqueue_all(&mut db_tx, &mail).await?;
    db_tx.commit().await?;
    state.wake_mail(&mail);
    Ok(known)
}

/// [`settle`] in the caller's transaction: whether the refund is one of ours, and the email.
async fn settle_in(
    db_tx: &mut AnyConnection,
    ctx: &Context<'_>,
    key: RefundKey<'_>,
    tran_ref: Option<&str>,
    letter: &str,
) -> anyhow::Result<(bool, Mail)> {
    let letter = letter.trim().to_uppercase();
    let (column, value) = match key {
        RefundKey::Cart(cart_id) => ("cart_id", cart_id),
        RefundKey::Reference(reference) => ("tran_ref", reference),
    };
    let row: Option<(String, String, String, i64)> = sqlx::query_as(&format!(
        "SELECT id, status, client_id, credits FROM payment_refunds WHERE {column} = $1 AND method <> 'offline'{}",
        ctx.backend.for_update()
    ))
    .bind(value)
    .fetch_optional(&mut *db_tx)
    .await?;
    let Some((id, status, client_id, credits_removed)) = row else {
        return Ok((false, Vec::new()));
    };
    if status != "pending" {
        tracing::info!(
            refund = id,
            status,
            "refund notification for a settled refund ignored"
        );
        return Ok((true, Vec::new()));
    }
    let now = ts(ctx.now);
    let mut mail = Vec::new();
    match letter.as_str() {
        "A" => {
            record_answer(db_tx, &id, Some("completed"), tran_ref, &letter, Some(&now)).await?;
            mail.push(refund_email(db_tx, ctx, &id).await?);
        }
        "H" | "P" => record_answer(db_tx, &id, None, tran_ref, &letter, None).await?,
        _ => {
            record_answer(db_tx, &id, Some("failed"), tran_ref, &letter, Some(&now)).await?;
            give_credits_back(db_tx, ctx, &id, &client_id, credits_removed).await?;
            tracing::warn!(
                refund = id,
                letter,
                "the provider declined a refund; its credits are back"
            );
        }
    }
    Ok((true, mail))
}

/// PayTabs' word on a refund: its transaction and status letter, and, once it is settled
/// (`completed` or `failed`), the new status and when.
async fn record_answer(
    conn: &mut AnyConnection,
    id: &str,
    settled: Option<&str>,
    tran_ref: Option<&str>,
    letter: &str,
    at: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE payment_refunds SET status = COALESCE($1, status), tran_ref = $2, provider_status = $3,
                completed_at = COALESCE($4, completed_at)
          WHERE id = $5",
    )
    .bind(settled)
    .bind(tran_ref)
    .bind(letter)
    .bind(at)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// A declined refund's credits return to the lot of the payment they left.
async fn give_credits_back(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    refund_id: &str,
    client_id: &str,
    credits_removed: i64,
) -> Result<(), sqlx::Error> {
    let lot: Option<String> = sqlx::query_scalar(
        "SELECT l.id FROM payment_refunds f JOIN credit_lots l ON l.payment_record_id = f.payment_record_id WHERE f.id = $1",
    )
    .bind(refund_id)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(lot) = lot {
        credits::restore_after_declined_refund(
            conn,
            ctx.backend,
            client_id,
            &lot,
            credits_removed,
            refund_id,
        )
        .await?;
    }
    Ok(())
}

/// `2025000` → `20,250.00`: an amount of money always with its two decimals.
pub fn with_cents(minor: i64) -> String {
    let grouped = content_model::model::Money(minor - minor % 100).display();
    format!("{grouped}.{:02}", minor % 100)
}

/// A refund as its email tells it.
#[derive(sqlx_macros::FromRow)]
struct RefundMail {
    email: String,
    full_name: String,
    preferred_language: Language,
    amount: i64,
    currency: String,
    credits: i64,
    method: String,
    payment_date: String,
}

/// The client's email about a completed refund, in the client's language.
async fn refund_email(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    refund_id: &str,
) -> anyhow::Result<OutgoingEmail> {
    let r: RefundMail = sqlx::query_as(
        "SELECT p.email, p.full_name, u.preferred_language, f.amount, f.currency, f.credits, f.method, r.payment_date
               FROM payment_refunds f JOIN profiles p ON p.user_id = f.client_id
               JOIN users u ON u.id = f.client_id
               JOIN payment_records r ON r.id = f.payment_record_id
              WHERE f.id = $1",
    )
    .bind(refund_id)
    .fetch_one(&mut *conn)
    .await?;
    // The payment's day in the coach's time zone (a stored day as it is, should one be bare).
    let paid_on = crate::domain::parse_ts(&r.payment_date)
        .map(|t| t.with_timezone(&ctx.site.time_zone).date_naive())
        .or_else(|| {
            let day: String = r.payment_date.chars().take(10).collect();
            chrono::NaiveDate::parse_from_str(&day, "%Y-%m-%d").ok()
        })
        .unwrap_or_else(|| ctx.now.with_timezone(&ctx.site.time_zone).date_naive());
    Ok(credit_templates::payment_refunded(
        r.preferred_language,
        &ctx.site.name,
        &r.email,
        &r.full_name,
        &credit_templates::Refund {
            amount: r.amount,
            currency: &r.currency,
            credits_removed: r.credits,
            paid_on,
            online: r.method != "offline",
        },
    ))
}
