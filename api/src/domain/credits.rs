//! The credit ledger (ARCHITECTURE decision 4): every change of a client's credits is a
//! `credit_ledger` row with a unique external reference, and the account's totals change in the
//! same transaction. Replaying an event hits the unique reference and changes nothing; the
//! database refuses `available_credits < 0`.

use sqlx::AnyConnection;

use super::{new_id, now};

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
    /// Not enough available credits; nothing was written.
    Insufficient,
}

async fn record(
    conn: &mut AnyConnection,
    user_id: &str,
    kind: Kind,
    delta_total: i64,
    delta_used: i64,
    external_ref: &str,
    note: Option<&str>,
) -> Result<bool, sqlx::Error> {
    let inserted = sqlx::query(
        "INSERT INTO credit_ledger (id, user_id, kind, delta_total, delta_used, external_ref, note, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (external_ref) DO NOTHING",
    )
    .bind(new_id())
    .bind(user_id)
    .bind(kind.as_str())
    .bind(delta_total)
    .bind(delta_used)
    .bind(external_ref)
    .bind(note)
    .bind(now())
    .execute(&mut *conn)
    .await?;
    Ok(inserted.rows_affected() == 1)
}

/// Adds bought credits (a purchase or an offline payment) and sets the last payment date.
pub async fn add_purchased(
    conn: &mut AnyConnection,
    user_id: &str,
    sessions: i64,
    kind: Kind,
    external_ref: &str,
    payment_date: &str,
) -> Result<Applied, sqlx::Error> {
    if !record(conn, user_id, kind, sessions, 0, external_ref, None).await? {
        return Ok(Applied::AlreadyApplied);
    }
    sqlx::query(
        "UPDATE client_accounts
            SET total_credits = total_credits + $1, available_credits = available_credits + $1,
                last_payment_date = CASE WHEN last_payment_date IS NULL OR last_payment_date < $2 THEN $2 ELSE last_payment_date END,
                updated_at = $3
          WHERE user_id = $4",
    )
    .bind(sessions)
    .bind(payment_date)
    .bind(now())
    .bind(user_id)
    .execute(&mut *conn)
    .await?;
    Ok(Applied::Yes)
}

/// Uses one credit for a booking.
pub async fn debit_one(
    conn: &mut AnyConnection,
    user_id: &str,
    external_ref: &str,
) -> Result<Applied, sqlx::Error> {
    if !record(conn, user_id, Kind::BookingDebit, 0, 1, external_ref, None).await? {
        return Ok(Applied::AlreadyApplied);
    }
    let updated = sqlx::query(
        "UPDATE client_accounts SET used_credits = used_credits + 1, available_credits = available_credits - 1, updated_at = $1
          WHERE user_id = $2 AND available_credits >= 1",
    )
    .bind(now())
    .bind(user_id)
    .execute(&mut *conn)
    .await?;
    Ok(if updated.rows_affected() == 1 {
        Applied::Yes
    } else {
        Applied::Insufficient
    })
}

/// Gives back the credit of a cancelled booking.
pub async fn refund_one(
    conn: &mut AnyConnection,
    user_id: &str,
    external_ref: &str,
) -> Result<Applied, sqlx::Error> {
    if !record(
        conn,
        user_id,
        Kind::BookingRefund,
        0,
        -1,
        external_ref,
        None,
    )
    .await?
    {
        return Ok(Applied::AlreadyApplied);
    }
    sqlx::query(
        "UPDATE client_accounts SET used_credits = used_credits - 1, available_credits = available_credits + 1, updated_at = $1
          WHERE user_id = $2",
    )
    .bind(now())
    .bind(user_id)
    .execute(&mut *conn)
    .await?;
    Ok(Applied::Yes)
}
