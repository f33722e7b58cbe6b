//! An engagement's invoice: numbered in its own series (`INV-000001`, distinct from receipts),
//! in the site's currency, with a VAT line when the settings give a rate. The billing contact
//! opens it through a signed link (no account), prints it, and pays it through the invoice
//! PayTabs' Invoices API keeps for it (its `invoice_link`; cart id `inv_…`, settled by PayTabs'
//! signed callback, once) or by bank transfer, which the admin records. Paying it releases the engagement's credits and emails the receipt. Every
//! write of `invoices` is here.

use chrono::{Days, NaiveDate};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use sqlx::AnyConnection;

use super::engagements::{self, Engagement};
use super::records::{self, Sponsor};
use crate::domain::{Context, Mail, PaymentStatus, new_id, ts};
use crate::email::OutgoingEmail;
use crate::email::sponsor_templates::{self, InvoiceMail};
use crate::payments::result::PaymentResult;

/// An invoice as stored.
#[derive(Debug, Clone, sqlx_macros::FromRow)]
pub struct Invoice {
    pub id: String,
    pub engagement_id: String,
    pub number: i64,
    pub status: String,
    pub subtotal: i64,
    pub vat_rate_bp: Option<i64>,
    pub vat: i64,
    pub total: i64,
    pub currency: String,
    pub issued_on: String,
    pub due_on: String,
    pub cart_id: Option<String>,
    pub tran_ref: Option<String>,
    pub paid_at: Option<String>,
    pub paid_via: Option<String>,
    pub bank_reference: Option<String>,
    pub sent_at: Option<String>,
    /// PayTabs' invoice for this one (Invoices API), once the payer first asked to pay online.
    pub paytabs_invoice_id: Option<i64>,
    pub paytabs_invoice_link: Option<String>,
}

const COLUMNS: &str = "id, engagement_id, number, status, subtotal, vat_rate_bp, vat, total, currency, issued_on, due_on,
                       cart_id, tran_ref, paid_at, paid_via, bank_reference, sent_at, paytabs_invoice_id, paytabs_invoice_link";

/// How an invoice number is printed: `INV-000042`.
pub fn display_number(number: i64) -> String {
    format!("INV-{number:06}")
}

/// The token of the invoice's public link: its id, signed with the API's secret, so the link
/// can be shown again to the admin and cannot be guessed or altered.
pub fn token(secret: &str, invoice_id: &str) -> String {
    sign(secret, "invoice", invoice_id)
}

/// The invoice id a link's token names, when its signature holds.
pub fn verify_token(secret: &str, token: &str) -> Option<String> {
    verify(secret, "invoice", token)
}

/// `{id}.{hex HMAC-SHA256(secret, purpose:id)}`.
pub(super) fn sign(secret: &str, purpose: &str, id: &str) -> String {
    format!(
        "{id}.{}",
        hex::encode(mac(secret, purpose, id).finalize().into_bytes())
    )
}

/// The id of a token signed for `purpose`, checked in constant time.
pub(super) fn verify(secret: &str, purpose: &str, token: &str) -> Option<String> {
    let (id, signature) = token.trim().split_once('.')?;
    if id.is_empty() || id.len() > 64 || !id.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let expected = hex::decode(signature).ok()?;
    mac(secret, purpose, id)
        .verify_slice(&expected)
        .ok()
        .map(|()| id.to_string())
}

fn mac(secret: &str, purpose: &str, id: &str) -> Hmac<Sha256> {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(purpose.as_bytes());
    mac.update(b":");
    mac.update(id.as_bytes());
    mac
}

/// The coach's calendar day now.
fn today(ctx: &Context<'_>) -> NaiveDate {
    ctx.now.with_timezone(&ctx.site.time_zone).date_naive()
}

/// The engagement's draft invoice: the next number, the price, VAT at the settings' rate.
pub async fn create(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    engagement: &Engagement,
    due_days: i64,
) -> Result<String, sqlx::Error> {
    // The counter row is the lock: two invoices at once take 7 and 8, never 7 twice.
    let number: i64 = sqlx::query_scalar(
        "UPDATE counters SET value = value + 1 WHERE name = 'invoice' RETURNING value",
    )
    .fetch_one(&mut *conn)
    .await?;
    let rate_bp = ctx.site.vat_percent.map(|p| i64::from(p) * 100);
    // Rounded half up to the piastre.
    let vat = rate_bp.map_or(0, |bp| (engagement.price * bp + 5_000) / 10_000);
    let issued = today(ctx);
    let due = issued
        .checked_add_days(Days::new(u64::try_from(due_days).unwrap_or(14)))
        .unwrap_or(issued);
    let id = new_id();
    sqlx::query(
        "INSERT INTO invoices (id, engagement_id, number, status, subtotal, vat_rate_bp, vat, total, currency, issued_on, due_on, created_at)
         VALUES ($1, $2, $3, 'draft', $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(&id)
    .bind(&engagement.id)
    .bind(number)
    .bind(engagement.price)
    .bind(rate_bp)
    .bind(vat)
    .bind(engagement.price + vat)
    .bind(&engagement.currency)
    .bind(issued.to_string())
    .bind(due.to_string())
    .bind(ts(ctx.now))
    .execute(conn)
    .await?;
    Ok(id)
}

pub async fn get(conn: &mut AnyConnection, id: &str) -> Result<Option<Invoice>, sqlx::Error> {
    sqlx::query_as(&format!("SELECT {COLUMNS} FROM invoices WHERE id = $1"))
        .bind(id)
        .fetch_optional(conn)
        .await
}

pub async fn of_engagement(
    conn: &mut AnyConnection,
    engagement_id: &str,
) -> Result<Option<Invoice>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM invoices WHERE engagement_id = $1"
    ))
    .bind(engagement_id)
    .fetch_optional(conn)
    .await
}

/// The invoice `id` locked until the caller's transaction ends.
async fn lock(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    column: &str,
    value: &str,
) -> Result<Option<Invoice>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM invoices WHERE {column} = $1{}",
        ctx.backend.for_update()
    ))
    .bind(value)
    .fetch_optional(conn)
    .await
}

/// Why an invoice change was refused.
#[derive(Debug)]
pub enum InvoiceRefused {
    NotFound,
    /// 409 with this message.
    Conflict(&'static str),
}

/// The invoice's link, for the admin and the emails.
pub fn link(ctx: &Context<'_>, secret: &str, invoice_id: &str, sponsor: &Sponsor) -> String {
    sponsor.language.page(
        ctx.base_url,
        &format!("/invoice?token={}", token(secret, invoice_id)),
    )
}

/// What the emails say about an invoice.
async fn mail_about(
    conn: &mut AnyConnection,
    invoice: &Invoice,
) -> Result<(Sponsor, Engagement), sqlx::Error> {
    let engagement = engagements::get(conn, &invoice.engagement_id)
        .await?
        .ok_or(sqlx::Error::RowNotFound)?;
    let sponsor = records::get(conn, &engagement.sponsor_id)
        .await?
        .ok_or(sqlx::Error::RowNotFound)?;
    Ok((sponsor, engagement))
}

/// One of the invoice emails to the billing contact.
async fn email(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    secret: &str,
    invoice: &Invoice,
    which: Which,
) -> Result<OutgoingEmail, sqlx::Error> {
    let (sponsor, engagement) = mail_about(conn, invoice).await?;
    let link = link(ctx, secret, &invoice.id, &sponsor);
    let number = display_number(invoice.number);
    let due_on = NaiveDate::parse_from_str(&invoice.due_on, "%Y-%m-%d").unwrap_or(today(ctx));
    let about = InvoiceMail {
        number: &number,
        sponsor: &sponsor.name,
        engagement: &engagement.title,
        total: invoice.total,
        currency: &invoice.currency,
        due_on,
        link: &link,
    };
    let (lang, site, to, name) = (
        sponsor.language,
        ctx.site.name.as_str(),
        sponsor.contact_email.as_str(),
        sponsor.contact_name.as_str(),
    );
    Ok(match which {
        Which::Sent => sponsor_templates::invoice_sent(lang, site, to, name, &about),
        Which::Paid => sponsor_templates::invoice_paid(lang, site, to, name, &about, today(ctx)),
        Which::Overdue => sponsor_templates::invoice_overdue(lang, site, to, name, &about),
    })
}

#[derive(Clone, Copy)]
enum Which {
    Sent,
    Paid,
    Overdue,
}

/// Sends the invoice to the billing contact (a draft becomes `sent`; sending again re-sends).
pub async fn send(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    secret: &str,
    id: &str,
) -> Result<Result<Mail, InvoiceRefused>, sqlx::Error> {
    let Some(invoice) = lock(conn, ctx, "id", id).await? else {
        return Ok(Err(InvoiceRefused::NotFound));
    };
    match invoice.status.as_str() {
        "paid" => {
            return Ok(Err(InvoiceRefused::Conflict(
                "This invoice is already paid",
            )));
        }
        "void" => return Ok(Err(InvoiceRefused::Conflict("This invoice is void"))),
        _ => {}
    }
    sqlx::query(
        "UPDATE invoices SET status = CASE WHEN status = 'draft' THEN 'sent' ELSE status END, sent_at = $1 WHERE id = $2",
    )
    .bind(ts(ctx.now))
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(Ok(vec![
        email(conn, ctx, secret, &invoice, Which::Sent).await?,
    ]))
}

/// Voids an unpaid invoice; answers PayTabs' invoice for it, which the caller cancels once
/// this is committed.
pub async fn void(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    id: &str,
) -> Result<Result<Option<i64>, InvoiceRefused>, sqlx::Error> {
    let Some(invoice) = lock(conn, ctx, "id", id).await? else {
        return Ok(Err(InvoiceRefused::NotFound));
    };
    match invoice.status.as_str() {
        "paid" => {
            return Ok(Err(InvoiceRefused::Conflict(
                "A paid invoice cannot be voided",
            )));
        }
        "void" => return Ok(Err(InvoiceRefused::Conflict("This invoice is void"))),
        _ => {}
    }
    sqlx::query("UPDATE invoices SET status = 'void', voided_at = $1 WHERE id = $2")
        .bind(ts(ctx.now))
        .bind(id)
        .execute(&mut *conn)
        .await?;
    Ok(Ok(invoice.paytabs_invoice_id))
}

/// How an invoice was paid.
pub enum PaidBy<'a> {
    /// A bank transfer the admin saw arrive, with the bank's reference if given.
    Transfer { bank_reference: Option<&'a str> },
    /// PayTabs' approved sale.
    PayTabs { tran_ref: &'a str },
}

/// Marks the locked, unpaid `invoice` paid, releases its engagement's credits (once) and
/// answers the receipt email.
async fn settle_paid(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    secret: &str,
    invoice: &Invoice,
    by: &PaidBy<'_>,
) -> Result<Mail, sqlx::Error> {
    let (via, tran_ref, bank_reference) = match by {
        PaidBy::Transfer { bank_reference } => ("transfer", None, *bank_reference),
        PaidBy::PayTabs { tran_ref } => ("paytabs", Some(*tran_ref), None),
    };
    sqlx::query(
        "UPDATE invoices SET status = 'paid', paid_at = $1, paid_via = $2, tran_ref = COALESCE($3, tran_ref), bank_reference = $4
          WHERE id = $5",
    )
    .bind(ts(ctx.now))
    .bind(via)
    .bind(tran_ref)
    .bind(bank_reference)
    .bind(&invoice.id)
    .execute(&mut *conn)
    .await?;
    match engagements::release(conn, ctx, &invoice.engagement_id).await {
        Ok(_) => {}
        Err(engagements::Refused::Db(e)) => return Err(e),
        Err(e) => {
            tracing::error!(?e, invoice = %invoice.id, "a paid invoice's credits were not released")
        }
    }
    Ok(vec![email(conn, ctx, secret, invoice, Which::Paid).await?])
}

/// The admin records a bank transfer that paid the invoice.
pub async fn mark_paid(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    secret: &str,
    id: &str,
    bank_reference: Option<&str>,
) -> Result<Result<Mail, InvoiceRefused>, sqlx::Error> {
    let Some(invoice) = lock(conn, ctx, "id", id).await? else {
        return Ok(Err(InvoiceRefused::NotFound));
    };
    match invoice.status.as_str() {
        "paid" => {
            return Ok(Err(InvoiceRefused::Conflict(
                "This invoice is already paid",
            )));
        }
        "void" => return Ok(Err(InvoiceRefused::Conflict("This invoice is void"))),
        _ => {}
    }
    let mail = settle_paid(
        conn,
        ctx,
        secret,
        &invoice,
        &PaidBy::Transfer { bank_reference },
    )
    .await?;
    Ok(Ok(mail))
}

/// Where the payer pays an invoice online.
pub enum PayOnline {
    /// PayTabs' invoice made before: its link again.
    Link(String),
    /// None yet: the caller asks PayTabs for one with this new cart id (`inv_…`), then
    /// [`record_paytabs_invoice`].
    Create {
        cart_id: String,
        invoice: Box<Invoice>,
    },
}

/// Whether the locked invoice can be paid now.
fn payable(invoice: &Invoice) -> Result<(), InvoiceRefused> {
    match invoice.status.as_str() {
        "paid" => Err(InvoiceRefused::Conflict("This invoice is already paid")),
        "void" => Err(InvoiceRefused::Conflict("This invoice is void")),
        "draft" => Err(InvoiceRefused::Conflict(
            "This invoice has not been sent yet",
        )),
        _ => Ok(()),
    }
}

/// The invoice's PayTabs link, or what to create it with. Nothing is written: PayTabs is asked
/// outside any transaction, and [`record_paytabs_invoice`] keeps the first link made.
pub async fn pay_online(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    id: &str,
) -> Result<Result<PayOnline, InvoiceRefused>, sqlx::Error> {
    let Some(invoice) = lock(conn, ctx, "id", id).await? else {
        return Ok(Err(InvoiceRefused::NotFound));
    };
    if let Err(refused) = payable(&invoice) {
        return Ok(Err(refused));
    }
    Ok(Ok(match invoice.paytabs_invoice_link.clone() {
        Some(link) => PayOnline::Link(link),
        None => PayOnline::Create {
            cart_id: format!("inv_{}", new_id()),
            invoice: Box::new(invoice),
        },
    }))
}

/// What [`record_paytabs_invoice`] kept.
pub enum Recorded {
    /// This PayTabs invoice is now the invoice's.
    Kept(String),
    /// Another was recorded first (two payers at once): its link; the caller cancels its own.
    Other(String),
}

/// Keeps PayTabs' invoice, made for `cart_id`, as the invoice's way to pay online, unless one
/// was kept first or the invoice was paid or voided meanwhile.
pub async fn record_paytabs_invoice(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    id: &str,
    cart_id: &str,
    paytabs_id: i64,
    link: &str,
) -> Result<Result<Recorded, InvoiceRefused>, sqlx::Error> {
    let Some(invoice) = lock(conn, ctx, "id", id).await? else {
        return Ok(Err(InvoiceRefused::NotFound));
    };
    if let Err(refused) = payable(&invoice) {
        return Ok(Err(refused));
    }
    if let Some(other) = invoice.paytabs_invoice_link {
        return Ok(Ok(Recorded::Other(other)));
    }
    sqlx::query(
        "UPDATE invoices SET cart_id = $1, paytabs_invoice_id = $2, paytabs_invoice_link = $3 WHERE id = $4",
    )
    .bind(cart_id)
    .bind(paytabs_id)
    .bind(link)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(Ok(Recorded::Kept(link.to_string())))
}

/// Whether a PayTabs cart is an invoice's.
pub fn is_invoice_cart(cart_id: &str) -> bool {
    cart_id.starts_with("inv_")
}

/// What PayTabs' verified result did to an invoice.
#[derive(Debug, PartialEq, Eq)]
pub enum Settled {
    UnknownCart,
    /// Paid now: its credits released and its receipt emailed.
    Paid,
    /// Paid before: nothing changed (a replay, or the return after the callback).
    AlreadyPaid,
    /// Not approved: nothing changed.
    NotPaid,
    /// Approved, but not the invoice's amount, currency or a sale: nothing credited.
    Flagged(String),
}

/// Applies PayTabs' verified result for an invoice's cart, once (the invoice row is the lock).
pub async fn settle_paytabs(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    secret: &str,
    result: &PaymentResult,
) -> Result<(Settled, Mail), sqlx::Error> {
    let Some(invoice) = lock(conn, ctx, "cart_id", &result.cart_id).await? else {
        return Ok((Settled::UnknownCart, Vec::new()));
    };
    if invoice.status == "paid" {
        return Ok((Settled::AlreadyPaid, Vec::new()));
    }
    if result.status != PaymentStatus::Completed {
        return Ok((Settled::NotPaid, Vec::new()));
    }
    let problem = if invoice.status == "void" {
        Some("the invoice is void: refund the payment".to_string())
    } else if result.amount != Some(invoice.total) {
        Some(format!(
            "amount {:?} differs from the invoice's {} piastres",
            result.amount_text, invoice.total
        ))
    } else if !result.currency.eq_ignore_ascii_case(&invoice.currency) {
        Some(format!(
            "currency `{}` differs from `{}`",
            result.currency, invoice.currency
        ))
    } else if !result.is_sale {
        Some("the transaction is not a sale".to_string())
    } else {
        None
    };
    if let Some(reason) = problem {
        tracing::error!(invoice = %invoice.id, reference = %result.reference, reason, "an invoice payment does not match; nothing released");
        return Ok((Settled::Flagged(reason), Vec::new()));
    }
    let mail = settle_paid(
        conn,
        ctx,
        secret,
        &invoice,
        &PaidBy::PayTabs {
            tran_ref: &result.reference,
        },
    )
    .await?;
    Ok((Settled::Paid, mail))
}

/// Applies PayTabs' verified result to the invoice of its cart, in one transaction, and sends
/// the receipt (the PayTabs callback and the invoice's browser return both call this).
pub async fn apply_paytabs(
    state: &crate::state::AppState,
    result: &PaymentResult,
) -> anyhow::Result<Settled> {
    let site = state.site();
    let ctx = state.context(&site);
    let mut tx = state.db.pool.begin().await?;
    let (settled, mail) =
        settle_paytabs(&mut tx, &ctx, state.config.app_secret.expose(), result).await?;
    crate::email::enqueue_all(&mut tx, &mail).await?;
    tx.commit().await?;
    state.wake_mail(&mail);
    tracing::info!(cart_id = %result.cart_id, ?settled, "invoice payment result applied");
    Ok(settled)
}

/// Sent invoices past their due date become overdue, and their contact is reminded once.
/// Answers the reminders to queue.
pub async fn remind_overdue(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    secret: &str,
) -> Result<Mail, sqlx::Error> {
    let due: Vec<Invoice> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM invoices WHERE status IN ('sent', 'overdue') AND reminded_at IS NULL AND due_on < $1
          ORDER BY due_on LIMIT 50"
    ))
    .bind(today(ctx).to_string())
    .fetch_all(&mut *conn)
    .await?;
    let mut mail = Vec::new();
    for invoice in due {
        let done = sqlx::query(
            "UPDATE invoices SET status = 'overdue', reminded_at = $1
              WHERE id = $2 AND reminded_at IS NULL AND status IN ('sent', 'overdue')",
        )
        .bind(ts(ctx.now))
        .bind(&invoice.id)
        .execute(&mut *conn)
        .await?;
        if done.rows_affected() == 1 {
            mail.push(email(conn, ctx, secret, &invoice, Which::Overdue).await?);
        }
    }
    Ok(mail)
}
