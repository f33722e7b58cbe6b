//! The credit ledger (ARCHITECTURE decision 4). Every change of a client's credits is one
//! `credit_ledger` row with a unique external reference, and the account's totals change with
//! it in the same transaction. There is one public function per kind of change; each goes
//! through [`apply`], which locks the account, refuses a replayed reference, refuses a change
//! the balance cannot take **before writing anything**, then writes the row and the totals.
//! [`verify`] recomputes every account from the ledger (`api ledger verify`).

use sqlx::{AnyConnection, AnyPool};

use super::{new_id, now};
use crate::db::Backend;

/// The most credits one payment or grant may add (the boundary refuses more).
pub const MAX_CREDITS_PER_CHANGE: i64 = 1_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Purchase,
    OfflinePayment,
    BookingDebit,
    BookingRefund,
    AdminAdjustment,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Purchase => "purchase",
            Kind::OfflinePayment => "offline_payment",
            Kind::BookingDebit => "booking_debit",
            Kind::BookingRefund => "booking_refund",
            Kind::AdminAdjustment => "admin_adjustment",
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
pub enum Applied {
    Yes,
    /// This external reference was applied before: nothing changed.
    AlreadyApplied,
    /// The balance cannot take the change (no available credit to use, or fewer used credits
    /// than a refund gives back); nothing was written.
    Insufficient,
    /// The user has no client account; nothing was written.
    NoAccount,
}

/// One change to one account, as the ledger records it.
struct Change<'a> {
    user_id: &'a str,
    kind: Kind,
    delta_total: i64,
    delta_used: i64,
    external_ref: &'a str,
    note: Option<&'a str>,
    /// Purchases move the account's last payment date forward to this.
    payment_date: Option<&'a str>,
}

#[derive(sqlx::FromRow)]
struct Totals {
    total_credits: i64,
    used_credits: i64,
}

async fn apply(
    conn: &mut AnyConnection,
    backend: Backend,
    change: Change<'_>,
) -> Result<Applied, sqlx::Error> {
    // The account row is the lock: two changes to one account run one after the other.
    let totals: Option<Totals> = sqlx::query_as(&format!(
        "SELECT total_credits, used_credits FROM client_accounts WHERE user_id = $1{}",
        backend.for_update()
    ))
    .bind(change.user_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(totals) = totals else {
        return Ok(Applied::NoAccount);
    };
    let seen: Option<String> =
        sqlx::query_scalar("SELECT id FROM credit_ledger WHERE external_ref = $1")
            .bind(change.external_ref)
            .fetch_optional(&mut *conn)
            .await?;
    if seen.is_some() {
        return Ok(Applied::AlreadyApplied);
    }
    let (Some(total), Some(used)) = (
        totals.total_credits.checked_add(change.delta_total),
        totals.used_credits.checked_add(change.delta_used),
    ) else {
        return Ok(Applied::Insufficient);
    };
    if used < 0 || total < used {
        return Ok(Applied::Insufficient);
    }
    let now = now();
    sqlx::query(
        "INSERT INTO credit_ledger (id, user_id, kind, delta_total, delta_used, external_ref, note, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(new_id())
    .bind(change.user_id)
    .bind(change.kind.as_str())
    .bind(change.delta_total)
    .bind(change.delta_used)
    .bind(change.external_ref)
    .bind(change.note)
    .bind(&now)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "UPDATE client_accounts
            SET total_credits = $1, used_credits = $2, available_credits = $3,
                last_payment_date = CASE WHEN $4 IS NOT NULL AND (last_payment_date IS NULL OR last_payment_date < $4)
                                         THEN $4 ELSE last_payment_date END,
                updated_at = $5
          WHERE user_id = $6",
    )
    .bind(total)
    .bind(used)
    .bind(total - used)
    .bind(change.payment_date)
    .bind(&now)
    .bind(change.user_id)
    .execute(&mut *conn)
    .await?;
    Ok(Applied::Yes)
}

/// Credits bought online (PayTabs), referenced by the provider's transaction.
pub async fn add_purchased(
    conn: &mut AnyConnection,
    backend: Backend,
    user_id: &str,
    sessions: i64,
    external_ref: &str,
    payment_date: &str,
) -> Result<Applied, sqlx::Error> {
    let change = Change {
        user_id,
        kind: Kind::Purchase,
        delta_total: sessions,
        delta_used: 0,
        external_ref,
        note: None,
        payment_date: Some(payment_date),
    };
    apply(conn, backend, change).await
}

/// Credits of a payment the admin recorded (cash, transfer...), referenced by its record.
pub async fn add_offline_payment(
    conn: &mut AnyConnection,
    backend: Backend,
    user_id: &str,
    sessions: i64,
    record_id: &str,
    payment_date: &str,
) -> Result<Applied, sqlx::Error> {
    let external_ref = format!("offline:{record_id}");
    let change = Change {
        user_id,
        kind: Kind::OfflinePayment,
        delta_total: sessions,
        delta_used: 0,
        external_ref: &external_ref,
        note: None,
        payment_date: Some(payment_date),
    };
    apply(conn, backend, change).await
}

/// Credits the admin grants or takes back without a payment (not revenue). `delta` may be
/// negative, never below what the client has available.
pub async fn adjust(
    conn: &mut AnyConnection,
    backend: Backend,
    user_id: &str,
    delta: i64,
    external_ref: &str,
    reason: &str,
) -> Result<Applied, sqlx::Error> {
    let change = Change {
        user_id,
        kind: Kind::AdminAdjustment,
        delta_total: delta,
        delta_used: 0,
        external_ref,
        note: Some(reason),
        payment_date: None,
    };
    apply(conn, backend, change).await
}

/// Uses one credit for a booking. Without an available credit nothing is written.
pub async fn debit_one(
    conn: &mut AnyConnection,
    backend: Backend,
    user_id: &str,
    external_ref: &str,
) -> Result<Applied, sqlx::Error> {
    let change = Change {
        user_id,
        kind: Kind::BookingDebit,
        delta_total: 0,
        delta_used: 1,
        external_ref,
        note: None,
        payment_date: None,
    };
    apply(conn, backend, change).await
}

/// Gives back the credit of a cancelled booking.
pub async fn refund_one(
    conn: &mut AnyConnection,
    backend: Backend,
    user_id: &str,
    external_ref: &str,
) -> Result<Applied, sqlx::Error> {
    let change = Change {
        user_id,
        kind: Kind::BookingRefund,
        delta_total: 0,
        delta_used: -1,
        external_ref,
        note: None,
        payment_date: None,
    };
    apply(conn, backend, change).await
}

/// An account whose totals are not what its ledger rows add up to.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Mismatch {
    pub user_id: String,
    pub total_credits: i64,
    pub used_credits: i64,
    pub available_credits: i64,
    pub ledger_total: i64,
    pub ledger_used: i64,
}

/// Recomputes every account from the ledger; empty when the ledger equals the totals.
pub async fn verify(pool: &AnyPool) -> Result<Vec<Mismatch>, sqlx::Error> {
    sqlx::query_as(
        "SELECT a.user_id, a.total_credits, a.used_credits, a.available_credits,
                CAST(COALESCE(l.total, 0) AS BIGINT) AS ledger_total,
                CAST(COALESCE(l.used, 0) AS BIGINT) AS ledger_used
           FROM client_accounts a
           LEFT JOIN (SELECT user_id, SUM(delta_total) AS total, SUM(delta_used) AS used
                        FROM credit_ledger GROUP BY user_id) l ON l.user_id = a.user_id
          WHERE a.total_credits <> CAST(COALESCE(l.total, 0) AS BIGINT)
             OR a.used_credits <> CAST(COALESCE(l.used, 0) AS BIGINT)
             OR a.available_credits <> a.total_credits - a.used_credits
          ORDER BY a.user_id",
    )
    .fetch_all(pool)
    .await
}
