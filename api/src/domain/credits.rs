//! The credit ledger (docs/ARCHITECTURE.md, decision 4). Every change of a client's credits is one
//! `credit_ledger` row with a unique external reference, and the account's totals change with
//! it in the same transaction. There is one public function per kind of change; each goes
//! through [`apply`], which locks the account, refuses a replayed reference, refuses a change
//! the balance cannot take **before writing anything**, then writes the row and the totals.
//!
//! Credits live in lots (`credit_lots`): each grant is a lot with an expiry date, a booking
//! uses the live lot that expires first, a cancelled booking's credit goes back to the lot it
//! came from, and [`expire_lot`] removes a lot's unused credits once, at its expiry. Every
//! ledger row records the lots it moved (`credit_lot_moves`). [`verify`] recomputes every
//! account and every lot from the ledger (`api ledger verify`).

use sqlx::{AnyConnection, AnyPool};

use super::validity::Validity;
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
    /// A lot's unused credits leaving at its expiry.
    Expiry,
    /// A refunded payment's unused credits leaving (or coming back if PayTabs declines).
    PaymentRefund,
    /// A sponsor's engagement credits reaching one of its executives.
    EngagementGrant,
    /// Unused engagement credits moved from one executive of the engagement to another.
    EngagementMove,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Purchase => "purchase",
            Kind::OfflinePayment => "offline_payment",
            Kind::BookingDebit => "booking_debit",
            Kind::BookingRefund => "booking_refund",
            Kind::AdminAdjustment => "admin_adjustment",
            Kind::Expiry => "expiry",
            Kind::PaymentRefund => "payment_refund",
            Kind::EngagementGrant => "engagement_grant",
            Kind::EngagementMove => "engagement_move",
        }
    }

    /// The `source` of the lot a grant of this kind creates.
    fn lot_source(self) -> &'static str {
        match self {
            Kind::EngagementGrant | Kind::EngagementMove => "engagement",
            other => other.as_str(),
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

/// Where a grant's new lot comes from and how long it lasts.
pub struct NewLot<'a> {
    pub id: &'a str,
    pub validity: &'a Validity,
    /// The payment this lot was bought with (refunds start from it).
    pub payment_record_id: Option<&'a str>,
    /// The sponsor's engagement whose credits these are.
    pub engagement_id: Option<&'a str>,
}

/// Which lots a change moves.
enum Lots<'a> {
    /// A grant: a new lot holding exactly the credits granted.
    New(&'a NewLot<'a>),
    /// Taken from the live lots, the one that expires first first.
    FirstToExpire,
    /// Given to or taken from this one lot.
    One(&'a str),
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

#[derive(sqlx_macros::FromRow)]
struct Totals {
    total_credits: i64,
    used_credits: i64,
}

#[derive(sqlx_macros::FromRow)]
struct LotBalance {
    id: String,
    remaining: i64,
}

async fn apply(
    conn: &mut AnyConnection,
    backend: Backend,
    change: Change<'_>,
    lots: Lots<'_>,
) -> Result<Applied, sqlx::Error> {
    Ok(apply_moving(conn, backend, change, lots).await?.0)
}

/// [`apply`], also answering the lots it moved and by how much (empty unless `Applied::Yes`).
async fn apply_moving(
    conn: &mut AnyConnection,
    backend: Backend,
    change: Change<'_>,
    lots: Lots<'_>,
) -> Result<(Applied, Vec<(String, i64)>), sqlx::Error> {
    let refused = |applied| Ok((applied, Vec::new()));
    // The account row is the lock: two changes to one account (and to its lots) run one after
    // the other.
    let totals: Option<Totals> = sqlx::query_as(&format!(
        "SELECT total_credits, used_credits FROM client_accounts WHERE user_id = $1{}",
        backend.for_update()
    ))
    .bind(change.user_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(totals) = totals else {
        return refused(Applied::NoAccount);
    };
    let seen: Option<String> =
        sqlx::query_scalar("SELECT id FROM credit_ledger WHERE external_ref = $1")
            .bind(change.external_ref)
            .fetch_optional(&mut *conn)
            .await?;
    if seen.is_some() {
        return refused(Applied::AlreadyApplied);
    }
    let (Some(total), Some(used)) = (
        totals.total_credits.checked_add(change.delta_total),
        totals.used_credits.checked_add(change.delta_used),
    ) else {
        return refused(Applied::Insufficient);
    };
    if used < 0 || total < used {
        return refused(Applied::Insufficient);
    }
    let now = now();
    // What each lot gives or gets; the available credits change by exactly their sum.
    let delta_available = change.delta_total - change.delta_used;
    let Some(moves) = pick_lots(conn, &change, &lots, delta_available, &now).await? else {
        return refused(Applied::Insufficient);
    };
    let written = Totals {
        total_credits: total,
        used_credits: used,
    };
    write(conn, &change, &lots, &moves, &written, &now).await?;
    Ok((Applied::Yes, moves))
}

/// The lots a change moves and by how much, or `None` when they cannot take it.
async fn pick_lots(
    conn: &mut AnyConnection,
    change: &Change<'_>,
    lots: &Lots<'_>,
    delta_available: i64,
    now: &str,
) -> Result<Option<Vec<(String, i64)>>, sqlx::Error> {
    Ok(match lots {
        Lots::New(lot) => Some(vec![(lot.id.to_string(), delta_available)]),
        Lots::One(lot_id) => {
            let remaining: Option<i64> = sqlx::query_scalar(
                "SELECT remaining FROM credit_lots WHERE id = $1 AND user_id = $2",
            )
            .bind(lot_id)
            .bind(change.user_id)
            .fetch_optional(&mut *conn)
            .await?;
            remaining
                .filter(|r| r + delta_available >= 0)
                .map(|_| vec![(lot_id.to_string(), delta_available)])
        }
        Lots::FirstToExpire => {
            let live: Vec<LotBalance> = sqlx::query_as(
                "SELECT id, remaining FROM credit_lots
                  WHERE user_id = $1 AND expired_at IS NULL AND expires_at > $2 AND remaining > 0
                  ORDER BY expires_at, created_at, id",
            )
            .bind(change.user_id)
            .bind(now)
            .fetch_all(&mut *conn)
            .await?;
            let mut needed = -delta_available;
            let mut taken = Vec::new();
            for lot in live {
                if needed <= 0 {
                    break;
                }
                let take = lot.remaining.min(needed);
                taken.push((lot.id, -take));
                needed -= take;
            }
            (needed <= 0).then_some(taken)
        }
    })
}

/// Writes a change the account can take: its ledger row, a new lot for a grant, the lots'
/// moves and the account's new totals.
async fn write(
    conn: &mut AnyConnection,
    change: &Change<'_>,
    lots: &Lots<'_>,
    moves: &[(String, i64)],
    totals: &Totals,
    now: &str,
) -> Result<(), sqlx::Error> {
    let (total, used) = (totals.total_credits, totals.used_credits);
    let ledger_id = new_id();
    sqlx::query(
        "INSERT INTO credit_ledger (id, user_id, kind, delta_total, delta_used, external_ref, note, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&ledger_id)
    .bind(change.user_id)
    .bind(change.kind.as_str())
    .bind(change.delta_total)
    .bind(change.delta_used)
    .bind(change.external_ref)
    .bind(change.note)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    if let Lots::New(lot) = lots {
        let granted = change.delta_total - change.delta_used;
        sqlx::query(
            "INSERT INTO credit_lots (id, user_id, source, source_ref, payment_record_id, engagement_id, granted, remaining, expires_on, expires_at, created_at)
             VALUES ($1, $2, $3, $4, $5, $10, $6, 0, $7, $8, $9)",
        )
        .bind(lot.id)
        .bind(change.user_id)
        .bind(change.kind.lot_source())
        .bind(change.external_ref)
        .bind(lot.payment_record_id)
        .bind(granted)
        .bind(lot.validity.expires_on_text())
        .bind(&lot.validity.expires_at)
        .bind(now)
        .bind(lot.engagement_id)
        .execute(&mut *conn)
        .await?;
    }
    for (lot_id, delta) in moves {
        move_lot(conn, Some(&ledger_id), lot_id, *delta, now).await?;
    }
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
    .bind(now)
    .bind(change.user_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

async fn move_lot(
    conn: &mut AnyConnection,
    ledger_id: Option<&str>,
    lot_id: &str,
    delta: i64,
    now: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE credit_lots SET remaining = remaining + $1 WHERE id = $2")
        .bind(delta)
        .bind(lot_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO credit_lot_moves (id, ledger_id, lot_id, delta, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(new_id())
    .bind(ledger_id)
    .bind(lot_id)
    .bind(delta)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Credits bought online (PayTabs), referenced by the provider's transaction, as a new lot.
pub async fn add_purchased(
    conn: &mut AnyConnection,
    backend: Backend,
    user_id: &str,
    sessions: i64,
    external_ref: &str,
    payment_date: &str,
    lot: &NewLot<'_>,
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
    apply(conn, backend, change, Lots::New(lot)).await
}

/// Credits of a payment the admin recorded (cash, transfer...), referenced by its record, as
/// a new lot.
pub async fn add_offline_payment(
    conn: &mut AnyConnection,
    backend: Backend,
    user_id: &str,
    sessions: i64,
    record_id: &str,
    payment_date: &str,
    lot: &NewLot<'_>,
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
    apply(conn, backend, change, Lots::New(lot)).await
}

/// Credits the admin grants or takes back without a payment (not revenue). A positive
/// `delta` is a new lot lasting `validity`; a negative one takes from the lots that expire
/// first, never below what the client has available.
pub async fn adjust(
    conn: &mut AnyConnection,
    backend: Backend,
    user_id: &str,
    delta: i64,
    validity: &Validity,
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
    if delta > 0 {
        let id = new_id();
        let lot = NewLot {
            id: &id,
            validity,
            payment_record_id: None,
            engagement_id: None,
        };
        apply(conn, backend, change, Lots::New(&lot)).await
    } else {
        apply(conn, backend, change, Lots::FirstToExpire).await
    }
}

/// An engagement's credits reaching one executive, as a new lot of the engagement lasting
/// `validity`. `external_ref` names the grant (its member and how much it had before), so a
/// grant applied twice adds nothing.
pub async fn grant_engagement(
    conn: &mut AnyConnection,
    backend: Backend,
    user_id: &str,
    credits: i64,
    external_ref: &str,
    note: &str,
    lot: &NewLot<'_>,
) -> Result<Applied, sqlx::Error> {
    let change = Change {
        user_id,
        kind: Kind::EngagementGrant,
        delta_total: credits,
        delta_used: 0,
        external_ref,
        note: Some(note),
        payment_date: None,
    };
    apply(conn, backend, change, Lots::New(lot)).await
}

/// One side of an engagement move: `delta` credits leaving one lot of the giving executive
/// (negative, `lot` Some) or arriving as a new lot of the receiving one (positive, `new_lot`).
pub async fn move_engagement(
    conn: &mut AnyConnection,
    backend: Backend,
    user_id: &str,
    delta: i64,
    external_ref: &str,
    reason: &str,
    lot: Result<&str, &NewLot<'_>>,
) -> Result<Applied, sqlx::Error> {
    let change = Change {
        user_id,
        kind: Kind::EngagementMove,
        delta_total: delta,
        delta_used: 0,
        external_ref,
        note: Some(reason),
        payment_date: None,
    };
    let lots = match lot {
        Ok(id) => Lots::One(id),
        Err(new) => Lots::New(new),
    };
    apply(conn, backend, change, lots).await
}

/// Uses one credit for a booking, from the live lot that expires first. Without an available
/// credit in a live lot nothing is written.
pub async fn debit_one(
    conn: &mut AnyConnection,
    backend: Backend,
    user_id: &str,
    external_ref: &str,
) -> Result<Applied, sqlx::Error> {
    Ok(debit_for_booking(conn, backend, user_id, external_ref)
        .await?
        .applied)
}

/// What a booking's debit did, and the lot its credit came from: what the booking stores in
/// `credit_lot_id`, so a cancel gives the credit back there.
#[derive(Debug)]
pub struct Debit {
    pub applied: Applied,
    /// The lot, when the credit was used (now, or by an earlier debit with this reference).
    pub lot: Option<String>,
}

/// [`debit_one`], answering the lot the credit came from.
pub async fn debit_for_booking(
    conn: &mut AnyConnection,
    backend: Backend,
    user_id: &str,
    external_ref: &str,
) -> Result<Debit, sqlx::Error> {
    let change = Change {
        user_id,
        kind: Kind::BookingDebit,
        delta_total: 0,
        delta_used: 1,
        external_ref,
        note: None,
        payment_date: None,
    };
    let (applied, moves) = apply_moving(conn, backend, change, Lots::FirstToExpire).await?;
    let lot =
        match applied {
            Applied::Yes => moves.into_iter().next().map(|(lot, _)| lot),
            // A replay: the lot the first debit took.
            Applied::AlreadyApplied => sqlx::query_scalar(
                "SELECT m.lot_id FROM credit_lot_moves m JOIN credit_ledger l ON l.id = m.ledger_id
              WHERE l.external_ref = $1 ORDER BY m.created_at, m.id LIMIT 1",
            )
            .bind(external_ref)
            .fetch_optional(conn)
            .await?,
            Applied::Insufficient | Applied::NoAccount => None,
        };
    Ok(Debit { applied, lot })
}

/// Gives back the credit of cancelled booking `booking_id` to the lot it came from. If that
/// lot has expired meanwhile, the credit comes back and leaves again at once through an
/// expiry row (both visible in the ledger): a returned credit never outlives its lot.
pub async fn refund_one(
    conn: &mut AnyConnection,
    backend: Backend,
    user_id: &str,
    booking_id: &str,
    external_ref: &str,
) -> Result<Applied, sqlx::Error> {
    let stored: Option<Option<String>> =
        sqlx::query_scalar("SELECT credit_lot_id FROM bookings WHERE id = $1")
            .bind(booking_id)
            .fetch_optional(&mut *conn)
            .await?;
    // A booking from before lots existed: its credit came from the account's oldest credits,
    // which the migration gathered into the lot that expires last.
    let lot_id = match stored.flatten() {
        Some(lot) => Some(lot),
        None => sqlx::query_scalar(
            "SELECT id FROM credit_lots WHERE user_id = $1 ORDER BY expires_at DESC, id LIMIT 1",
        )
        .bind(user_id)
        .fetch_optional(&mut *conn)
        .await?,
    };
    let Some(lot_id) = lot_id else {
        tracing::error!(
            user_id,
            booking_id,
            "a booking credit to give back, but the account has no lot"
        );
        return Ok(Applied::Insufficient);
    };
    let change = Change {
        user_id,
        kind: Kind::BookingRefund,
        delta_total: 0,
        delta_used: -1,
        external_ref,
        note: None,
        payment_date: None,
    };
    let applied = apply(conn, backend, change, Lots::One(&lot_id)).await?;
    if applied == Applied::Yes {
        leave_if_expired(conn, backend, user_id, &lot_id, 1, external_ref).await?;
    }
    Ok(applied)
}

/// After credits came back to a lot that has already expired: they leave again at once.
async fn leave_if_expired(
    conn: &mut AnyConnection,
    backend: Backend,
    user_id: &str,
    lot_id: &str,
    credits: i64,
    external_ref: &str,
) -> Result<(), sqlx::Error> {
    let expired: Option<Option<String>> =
        sqlx::query_scalar("SELECT expired_at FROM credit_lots WHERE id = $1")
            .bind(lot_id)
            .fetch_optional(&mut *conn)
            .await?;
    if expired.flatten().is_some() {
        let change = Change {
            user_id,
            kind: Kind::Expiry,
            delta_total: -credits,
            delta_used: 0,
            external_ref: &format!("{external_ref}:expired"),
            note: Some("returned to a lot that had expired"),
            payment_date: None,
        };
        apply(conn, backend, change, Lots::One(lot_id)).await?;
    }
    Ok(())
}

/// Removes up to `credits` unused credits of one payment's lot for a refund (never more than
/// the lot has left), with the admin's reason as the ledger's note. `credits` = 0 writes
/// nothing.
pub async fn remove_for_refund(
    conn: &mut AnyConnection,
    backend: Backend,
    user_id: &str,
    lot_id: &str,
    credits: i64,
    refund_id: &str,
    reason: Option<&str>,
) -> Result<Applied, sqlx::Error> {
    if credits == 0 {
        return Ok(Applied::Yes);
    }
    let change = Change {
        user_id,
        kind: Kind::PaymentRefund,
        delta_total: -credits,
        delta_used: 0,
        external_ref: &format!("refund:{refund_id}"),
        note: reason,
        payment_date: None,
    };
    apply(conn, backend, change, Lots::One(lot_id)).await
}

/// Gives back the credits a refund removed, when the provider declined the refund. If the
/// lot has expired meanwhile they leave again at once.
pub async fn restore_after_declined_refund(
    conn: &mut AnyConnection,
    backend: Backend,
    user_id: &str,
    lot_id: &str,
    credits: i64,
    refund_id: &str,
) -> Result<Applied, sqlx::Error> {
    if credits == 0 {
        return Ok(Applied::Yes);
    }
    let external_ref = format!("refund:{refund_id}:declined");
    let change = Change {
        user_id,
        kind: Kind::PaymentRefund,
        delta_total: credits,
        delta_used: 0,
        external_ref: &external_ref,
        note: Some("the refund was declined"),
        payment_date: None,
    };
    let applied = apply(conn, backend, change, Lots::One(lot_id)).await?;
    if applied == Applied::Yes {
        leave_if_expired(conn, backend, user_id, lot_id, credits, &external_ref).await?;
    }
    Ok(applied)
}

/// What expiring one lot did.
#[derive(Debug, PartialEq, Eq)]
pub enum Expired {
    /// Its unused credits (maybe none) left; it is marked expired.
    Now { credits: i64 },
    /// Another sweep got there first, it is not due, or it does not exist: nothing changed.
    NotThisTime,
}

/// Expires one due lot, in the caller's transaction: its unused credits leave through one
/// `expiry` ledger row (referenced `expiry:{lot}`, so it happens once whoever sweeps), and
/// the lot is marked expired.
pub async fn expire_lot(
    conn: &mut AnyConnection,
    backend: Backend,
    lot_id: &str,
) -> Result<Expired, sqlx::Error> {
    let now = now();
    let user_id: Option<String> = sqlx::query_scalar(
        "SELECT user_id FROM credit_lots WHERE id = $1 AND expired_at IS NULL AND expires_at <= $2",
    )
    .bind(lot_id)
    .bind(&now)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(user_id) = user_id else {
        return Ok(Expired::NotThisTime);
    };
    // Lock the account first (every change takes this lock first), then re-read the lot.
    sqlx::query(&format!(
        "SELECT user_id FROM client_accounts WHERE user_id = $1{}",
        backend.for_update()
    ))
    .bind(&user_id)
    .fetch_optional(&mut *conn)
    .await?;
    let remaining: Option<i64> = sqlx::query_scalar(
        "SELECT remaining FROM credit_lots WHERE id = $1 AND expired_at IS NULL",
    )
    .bind(lot_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(remaining) = remaining else {
        return Ok(Expired::NotThisTime);
    };
    let claimed =
        sqlx::query("UPDATE credit_lots SET expired_at = $1 WHERE id = $2 AND expired_at IS NULL")
            .bind(&now)
            .bind(lot_id)
            .execute(&mut *conn)
            .await?;
    if claimed.rows_affected() != 1 {
        return Ok(Expired::NotThisTime);
    }
    if remaining > 0 {
        let external_ref = format!("expiry:{lot_id}");
        let change = Change {
            user_id: &user_id,
            kind: Kind::Expiry,
            delta_total: -remaining,
            delta_used: 0,
            external_ref: &external_ref,
            note: None,
            payment_date: None,
        };
        if apply(conn, backend, change, Lots::One(lot_id)).await? != Applied::Yes {
            return Ok(Expired::NotThisTime);
        }
    }
    Ok(Expired::Now { credits: remaining })
}

/// Moves a live lot's expiry to a later day; the reason is kept. `false` when the lot does
/// not exist, has expired, or the new day is not later.
pub async fn extend_lot(
    conn: &mut AnyConnection,
    backend: Backend,
    lot_id: &str,
    validity: &Validity,
    reason: &str,
    admin_id: &str,
) -> Result<Extended, sqlx::Error> {
    let lot: Option<(String, Option<String>, String)> = sqlx::query_as(&format!(
        "SELECT expires_on, expired_at, user_id FROM credit_lots WHERE id = $1{}",
        backend.for_update()
    ))
    .bind(lot_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((old_on, expired_at, _user)) = lot else {
        return Ok(Extended::NoSuchLot);
    };
    if expired_at.is_some() {
        return Ok(Extended::AlreadyExpired);
    }
    let new_on = validity.expires_on_text();
    if new_on <= old_on {
        return Ok(Extended::NotLater);
    }
    let now = now();
    sqlx::query(
        "UPDATE credit_lots SET expires_on = $1, expires_at = $2, reminded_at = NULL WHERE id = $3 AND expired_at IS NULL",
    )
    .bind(&new_on)
    .bind(&validity.expires_at)
    .bind(lot_id)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "INSERT INTO credit_lot_extensions (id, lot_id, old_expires_on, new_expires_on, reason, extended_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(new_id())
    .bind(lot_id)
    .bind(&old_on)
    .bind(&new_on)
    .bind(reason)
    .bind(admin_id)
    .bind(&now)
    .execute(&mut *conn)
    .await?;
    Ok(Extended::Yes)
}

#[derive(Debug, PartialEq, Eq)]
pub enum Extended {
    Yes,
    NoSuchLot,
    AlreadyExpired,
    NotLater,
}

/// Accounts that had credits before lots existed get one lot holding their available
/// credits, lasting `validity`; their debited bookings point at it. Runs after the
/// migrations on every start and does nothing once every account with credits has a lot.
pub async fn adopt_credits_without_lot(
    pool: &AnyPool,
    validity: &Validity,
) -> Result<u64, sqlx::Error> {
    let orphans: Vec<(String, i64)> = sqlx::query_as(
        "SELECT a.user_id, a.available_credits FROM client_accounts a
          WHERE (a.total_credits > 0 OR a.used_credits > 0)
            AND NOT EXISTS (SELECT 1 FROM credit_lots l WHERE l.user_id = a.user_id)",
    )
    .fetch_all(pool)
    .await?;
    let mut adopted = 0;
    for (user_id, available) in orphans {
        let mut tx = pool.begin().await?;
        let now = now();
        let lot_id = new_id();
        let inserted = sqlx::query(
            "INSERT INTO credit_lots (id, user_id, source, source_ref, granted, remaining, expires_on, expires_at, created_at)
             VALUES ($1, $2, 'migrated', $3, $4, 0, $5, $6, $7) ON CONFLICT (source_ref) DO NOTHING",
        )
        .bind(&lot_id)
        .bind(&user_id)
        .bind(format!("migrated:{user_id}"))
        .bind(available)
        .bind(validity.expires_on_text())
        .bind(&validity.expires_at)
        .bind(&now)
        .execute(&mut *tx)
        .await?;
        if inserted.rows_affected() == 1 {
            if available > 0 {
                move_lot(&mut tx, None, &lot_id, available, &now).await?;
            }
            sqlx::query(
                "UPDATE bookings SET credit_lot_id = $1 WHERE client_id = $2 AND credit_debited = 1 AND credit_lot_id IS NULL",
            )
            .bind(&lot_id)
            .bind(&user_id)
            .execute(&mut *tx)
            .await?;
            adopted += 1;
        }
        tx.commit().await?;
    }
    Ok(adopted)
}

/// An account whose totals are not what its ledger rows add up to, or whose lots do not hold
/// exactly its available credits.
#[derive(Debug, Clone, PartialEq, Eq, sqlx_macros::FromRow)]
pub struct Mismatch {
    pub user_id: String,
    pub total_credits: i64,
    pub used_credits: i64,
    pub available_credits: i64,
    pub ledger_total: i64,
    pub ledger_used: i64,
    /// The sum of the account's lots' remaining credits.
    pub lots_remaining: i64,
}

/// A lot whose remaining credits are not the sum of its moves, or negative.
#[derive(Debug, Clone, PartialEq, Eq, sqlx_macros::FromRow)]
pub struct LotMismatch {
    pub lot_id: String,
    pub user_id: String,
    pub remaining: i64,
    pub moved: i64,
}

/// Recomputes every account from the ledger and every lot from its moves; empty when all agree.
pub async fn verify(pool: &AnyPool) -> Result<(Vec<Mismatch>, Vec<LotMismatch>), sqlx::Error> {
    let accounts = sqlx::query_as(
        "SELECT a.user_id, a.total_credits, a.used_credits, a.available_credits,
                CAST(COALESCE(l.total, 0) AS BIGINT) AS ledger_total,
                CAST(COALESCE(l.used, 0) AS BIGINT) AS ledger_used,
                CAST(COALESCE(k.remaining, 0) AS BIGINT) AS lots_remaining
           FROM client_accounts a
           LEFT JOIN (SELECT user_id, SUM(delta_total) AS total, SUM(delta_used) AS used
                        FROM credit_ledger GROUP BY user_id) l ON l.user_id = a.user_id
           LEFT JOIN (SELECT user_id, SUM(remaining) AS remaining
                        FROM credit_lots GROUP BY user_id) k ON k.user_id = a.user_id
          WHERE a.total_credits <> CAST(COALESCE(l.total, 0) AS BIGINT)
             OR a.used_credits <> CAST(COALESCE(l.used, 0) AS BIGINT)
             OR a.available_credits <> a.total_credits - a.used_credits
             OR a.available_credits <> CAST(COALESCE(k.remaining, 0) AS BIGINT)
          ORDER BY a.user_id",
    )
    .fetch_all(pool)
    .await?;
    let lots = sqlx::query_as(
        "SELECT k.id AS lot_id, k.user_id, k.remaining, CAST(COALESCE(m.moved, 0) AS BIGINT) AS moved
           FROM credit_lots k
           LEFT JOIN (SELECT lot_id, SUM(delta) AS moved FROM credit_lot_moves GROUP BY lot_id) m
                  ON m.lot_id = k.id
          WHERE k.remaining <> CAST(COALESCE(m.moved, 0) AS BIGINT) OR k.remaining < 0
             OR (k.expired_at IS NOT NULL AND k.remaining <> 0)
          ORDER BY k.id",
    )
    .fetch_all(pool)
    .await?;
    Ok((accounts, lots))
}
