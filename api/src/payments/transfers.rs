//! "Pay by InstaPay or bank transfer" (issue 22, item 3). InstaPay has no merchant API: the
//! order is opened at the server's price with a short reference the client writes in the
//! transfer's note, the client is told where to send the money, and nothing is credited until
//! an admin confirms the transfer arrived. Confirming credits the client through the ledger
//! exactly once (the order is locked, and the ledger's key is the order), issues the receipt and
//! sends it. An order nobody confirmed within the settings' `lapse_days` lapses, with an email;
//! the client may cancel it before, and an admin may reject it.

use chrono::{DateTime, Utc};
use rand::Rng;
use sqlx::AnyConnection;

use super::orders::{self, TransferOrder};
use crate::catalogue::Catalogues;
use crate::domain::accounts::language_of;
use crate::domain::credits::Applied;
use crate::domain::payments::{OnlinePurchase, record_transfer_purchase};
use crate::domain::validity::Validity;
use crate::domain::{Context, DomainError, Language, Mail, Money, PaymentStatus, ts};
use crate::email::{OutgoingEmail, enqueue_all, templates};
use crate::state::AppState;
use content_model::model::TransferSettings;

/// Letters and digits that cannot be mistaken for one another when typed from a screen into a
/// banking app (no 0/O, 1/I/L, U).
const REFERENCE_ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTVWXYZ";

/// A fresh reference such as `TR-7KQ2M9`: 30^6 (729 million) of them, checked unique.
async fn new_reference(conn: &mut AnyConnection) -> Result<String, sqlx::Error> {
    loop {
        let code: String = {
            let mut rng = rand::thread_rng();
            (0..6)
                .map(|_| REFERENCE_ALPHABET[rng.gen_range(0..REFERENCE_ALPHABET.len())] as char)
                .collect()
        };
        let reference = format!("TR-{code}");
        if !orders::transfer_reference_taken(conn, &reference).await? {
            return Ok(reference);
        }
    }
}

/// A transfer order just opened: what the client must send, and where.
pub struct Opened {
    pub cart_id: String,
    pub reference: String,
    pub expires_at: DateTime<Utc>,
}

/// Opens a transfer order for `order` (priced by the server) in the caller's transaction and
/// answers it with the instructions' email, in the client's language.
pub async fn open(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    order: &orders::NewOrder<'_>,
    transfer: &TransferSettings,
    package: &str,
) -> Result<(Opened, Mail), sqlx::Error> {
    let cart_id = orders::open(conn, order, ctx.now).await?;
    let reference = new_reference(conn).await?;
    let expires_at = ctx.now + chrono::Duration::days(i64::from(transfer.lapse_days));
    orders::make_transfer(conn, &cart_id, &reference, expires_at).await?;
    let lang = language_of(conn, order.client_id).await?;
    let details = details(
        transfer,
        package,
        order.amount,
        order.currency,
        &reference,
        expires_at,
        ctx,
    );
    let mail = templates::transfer_instructions(
        lang,
        &ctx.site.name,
        order.customer_email,
        order.customer_name,
        &details,
        ctx.base_url,
    );
    let opened = Opened {
        cart_id,
        reference,
        expires_at,
    };
    Ok((opened, vec![mail]))
}

/// What an email says about a transfer order.
fn details<'a>(
    transfer: &'a TransferSettings,
    package: &'a str,
    amount: i64,
    currency: &'a str,
    reference: &'a str,
    expires_at: DateTime<Utc>,
    ctx: &Context<'_>,
) -> templates::Transfer<'a> {
    let trimmed = |s: &'a Option<String>| s.as_deref().map(str::trim).filter(|s| !s.is_empty());
    templates::Transfer {
        package,
        amount,
        currency,
        reference,
        expires: expires_at.with_timezone(&ctx.site.time_zone).date_naive(),
        instapay: trimmed(&transfer.instapay),
        iban: trimmed(&transfer.iban),
        account_name: &transfer.account_name,
        bank: trimmed(&transfer.bank),
    }
}

/// Why a transfer order that is over can no longer change, in the words the admin or the
/// client reads.
fn over(order: &TransferOrder) -> DomainError {
    if order.status == PaymentStatus::Completed {
        return DomainError::Conflict("This transfer is already confirmed");
    }
    DomainError::Conflict(match order.provider_status.as_deref() {
        Some("cancelled") => "This order was cancelled",
        Some("rejected") => "This transfer was rejected",
        _ => "This order has lapsed",
    })
}

/// The transfer order `cart_id`, locked, while it still waits for its transfer; an order past
/// its day lapses here (the caller's transaction commits that) and is refused.
async fn waiting(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    cart_id: &str,
) -> Result<TransferOrder, DomainError> {
    let order = orders::lock_transfer(conn, ctx.backend, cart_id)
        .await?
        .ok_or(DomainError::NotFound("Transfer order not found"))?;
    still_waiting(&order, ctx)?;
    Ok(order)
}

/// Refuses an order that is over, or past its day.
fn still_waiting(order: &TransferOrder, ctx: &Context<'_>) -> Result<(), DomainError> {
    if order.status != PaymentStatus::Pending {
        return Err(over(order));
    }
    if order.expires_at < ts(ctx.now) {
        return Err(DomainError::Conflict("This order has lapsed"));
    }
    Ok(())
}

/// How the money arrived, as the record names the method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    Instapay,
    BankTransfer,
}

impl Via {
    pub fn parse(raw: Option<&str>) -> Option<Via> {
        match raw.map(str::trim).unwrap_or("instapay") {
            "" | "instapay" => Some(Via::Instapay),
            "bank_transfer" => Some(Via::BankTransfer),
            _ => None,
        }
    }

    fn method(self) -> &'static str {
        match self {
            Via::Instapay => "instapay",
            Via::BankTransfer => "bank_transfer",
        }
    }
}

/// The admin `admin_id` confirms the transfer of order `cart_id` arrived: the client's credits
/// through the ledger (once: the order is locked and the ledger's key is the order), the
/// payment record and its receipt, the receipt's email. Refused once the order is over.
pub async fn confirm(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    catalogue: &Catalogues,
    cart_id: &str,
    admin_id: &str,
    bank_reference: Option<&str>,
    via: Via,
) -> Result<Mail, DomainError> {
    let order = waiting(conn, ctx, cart_id).await?;
    let package = catalogue.package(&order.package_id);
    let months = package
        .as_ref()
        .map_or(ctx.site.default_validity_months, |p| p.validity_months);
    let validity = Validity::months_from(ctx.now, months, ctx.site.time_zone);
    let paid_at = ts(ctx.now);
    let purchase = OnlinePurchase {
        client_id: &order.client_id,
        amount: Money(order.amount),
        currency: &order.currency,
        sessions: order.sessions_purchased,
        paid_at: &paid_at,
        tran_ref: &order.transfer_reference,
        package_id: &order.package_id,
        validity: &validity,
        method: via.method(),
        discount: order
            .discount_code
            .as_deref()
            .map(|code| (code, order.discount_amount)),
    };
    let applied = record_transfer_purchase(conn, ctx.backend, &purchase, cart_id, admin_id).await?;
    let (Applied::Yes, Some(record_id)) = applied else {
        // The ledger already has this order (it cannot, with the order locked and pending).
        return Err(DomainError::Conflict("This transfer is already confirmed"));
    };
    crate::domain::receipts::issue(conn, &record_id).await?;
    if let Some(code_id) = &order.discount_code_id {
        super::discounts::count_use(
            conn,
            code_id,
            &order.client_id,
            cart_id,
            order.discount_amount,
            ctx.now,
        )
        .await?;
    }
    orders::end_transfer(
        conn,
        &order.id,
        PaymentStatus::Completed,
        "confirmed",
        Some((admin_id, bank_reference)),
        ctx.now,
    )
    .await?;
    let lang = language_of(conn, &order.client_id).await?;
    let name = package.map_or_else(
        || order.package_id.clone(),
        |p| crate::catalogue::package_name(&p, lang),
    );
    let mail = receipt_mail(conn, ctx, &order, &name, &record_id, lang).await?;
    Ok(vec![mail])
}

/// The receipt email of a confirmed transfer, as an online purchase's.
async fn receipt_mail(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    order: &TransferOrder,
    package: &str,
    record_id: &str,
    lang: Language,
) -> Result<OutgoingEmail, sqlx::Error> {
    let client = client_name(conn, &order.client_id).await?;
    Ok(templates::purchase_receipt(
        lang,
        &ctx.site.name,
        &order.customer_email,
        &client,
        &templates::Purchase {
            package,
            sessions: order.sessions_purchased,
            amount: order.amount,
            currency: &order.currency,
            order_id: &order.transfer_reference,
        },
        ctx.base_url,
        &crate::domain::receipts::page_url(ctx.base_url, record_id, lang),
    ))
}

/// The admin rejects the order (no transfer arrived, or the wrong amount): it is over, nothing
/// is credited.
pub async fn reject(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    cart_id: &str,
    admin_id: &str,
) -> Result<(), DomainError> {
    let order = waiting(conn, ctx, cart_id).await?;
    orders::end_transfer(
        conn,
        &order.id,
        PaymentStatus::Failed,
        "rejected",
        Some((admin_id, None)),
        ctx.now,
    )
    .await?;
    Ok(())
}

/// The client cancels their own order; another client's is not found.
pub async fn cancel(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    client_id: &str,
    cart_id: &str,
) -> Result<(), DomainError> {
    // Another client's order answers as if it did not exist, whatever its state.
    let order = orders::lock_transfer(conn, ctx.backend, cart_id)
        .await?
        .filter(|o| o.client_id == client_id)
        .ok_or(DomainError::NotFound("Transfer order not found"))?;
    still_waiting(&order, ctx)?;
    orders::end_transfer(
        conn,
        &order.id,
        PaymentStatus::Failed,
        "cancelled",
        None,
        ctx.now,
    )
    .await?;
    Ok(())
}

/// The client's name, as the emails greet them.
async fn client_name(conn: &mut AnyConnection, client_id: &str) -> Result<String, sqlx::Error> {
    let name: Option<String> =
        sqlx::query_scalar("SELECT full_name FROM profiles WHERE user_id = $1")
            .bind(client_id)
            .fetch_optional(conn)
            .await?;
    Ok(name.unwrap_or_default())
}

/// Lapses one order past its day, if it still waits, and answers its email.
pub async fn lapse(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    catalogue: &Catalogues,
    cart_id: &str,
) -> Result<Mail, DomainError> {
    let Some(order) = orders::lock_transfer(conn, ctx.backend, cart_id).await? else {
        return Ok(Vec::new());
    };
    if order.status != PaymentStatus::Pending || order.expires_at >= ts(ctx.now) {
        return Ok(Vec::new());
    }
    orders::end_transfer(
        conn,
        &order.id,
        PaymentStatus::Failed,
        "lapsed",
        None,
        ctx.now,
    )
    .await?;
    let Some(transfer) = ctx.site.transfer.as_ref() else {
        return Ok(Vec::new());
    };
    let lang = language_of(conn, &order.client_id).await?;
    let package = catalogue
        .package_name(&order.package_id, lang)
        .unwrap_or_else(|| order.package_id.clone());
    let name = client_name(conn, &order.client_id).await?;
    let expires =
        DateTime::parse_from_rfc3339(&order.expires_at).map_or(ctx.now, |t| t.with_timezone(&Utc));
    let d = details(
        transfer,
        &package,
        order.amount,
        &order.currency,
        &order.transfer_reference,
        expires,
        ctx,
    );
    let mail = templates::transfer_lapsed(
        lang,
        &ctx.site.name,
        &order.customer_email,
        &name,
        &d,
        ctx.base_url,
    );
    Ok(vec![mail])
}

/// Every transfer order past its day lapses, each in its own transaction (the reconciliation
/// job runs this): answers how many.
pub async fn lapse_due(state: &AppState, now: DateTime<Utc>) -> anyhow::Result<usize> {
    let due: Vec<String> = sqlx::query_scalar(
        "SELECT cart_id FROM payment_transactions
          WHERE provider = 'transfer' AND status = 'pending' AND expires_at < $1 ORDER BY expires_at LIMIT 100",
    )
    .bind(ts(now))
    .fetch_all(&state.db.pool)
    .await?;
    let site = state.site();
    let mut ctx = state.context(&site);
    ctx.now = now;
    for cart_id in &due {
        let mut tx = state.db.pool.begin().await?;
        let mail = lapse(&mut tx, &ctx, &state.catalogue, cart_id).await?;
        enqueue_all(&mut tx, &mail).await?;
        tx.commit().await?;
        state.wake_mail(&mail);
    }
    Ok(due.len())
}
