//! Discount codes on purchases (issue 22, item 4): the server prices an order again with the
//! code the client typed, and counts its use once, when the payment settles.
//!
//! While an order priced with a code is pending it holds one of the code's uses: a purchase
//! locks the code's row and refuses the code when its settled uses and the pending orders
//! holding one reach its total. So a code with N uses never prices more than N orders, and the
//! client pays exactly the price the provider confirmed for their order. An order that fails
//! (declined, abandoned, cancelled, lapsed) gives its use back; one that settles turns it into
//! a counted use, once per order.

use chrono::NaiveDate;
use sqlx::AnyConnection;

use crate::domain::discounts::{self, CodeRefusal, DiscountCode};
use crate::domain::{Context, FieldError, Money, new_id, ts};

/// A price with the code that made it.
pub struct Priced {
    /// What the client pays.
    pub price: Money,
    /// The code's row id, its text and what it took off.
    pub code: Option<(String, String, Money)>,
}

/// The client's calendar day, as the code's `valid_from` and `valid_to` count days.
fn today(ctx: &Context<'_>) -> NaiveDate {
    ctx.now.with_timezone(&ctx.site.time_zone).date_naive()
}

fn refused(refusal: CodeRefusal) -> FieldError {
    FieldError::new("discountCode", &refusal.to_string())
}

/// Pending orders of the code that hold one of its uses (of `client_id` only, when given).
async fn holding(
    conn: &mut AnyConnection,
    code_id: &str,
    client_id: Option<&str>,
) -> Result<i64, sqlx::Error> {
    const ALL: &str = "SELECT COUNT(*) FROM payment_transactions WHERE discount_code_id = $1 AND status = 'pending'";
    match client_id {
        None => sqlx::query_scalar(ALL).bind(code_id).fetch_one(conn).await,
        Some(client) => {
            sqlx::query_scalar(&format!("{ALL} AND client_id = $2"))
                .bind(code_id)
                .bind(client)
                .fetch_one(conn)
                .await
        }
    }
}

/// The code's checks for this client: the pure rules (active, days, package, price), then its
/// uses (settled ones and the pending orders holding one) and once per client.
async fn check(
    conn: &mut AnyConnection,
    code: &DiscountCode,
    client_id: &str,
    package_id: &str,
    price: Money,
    today: NaiveDate,
) -> Result<Result<Money, CodeRefusal>, sqlx::Error> {
    let new_price = match discounts::apply(code, package_id, price, today) {
        Ok(p) => p,
        Err(refusal) => return Ok(Err(refusal)),
    };
    if let Some(max) = code.max_uses
        && code.uses + holding(conn, &code.id, None).await? >= max
    {
        return Ok(Err(CodeRefusal::NoUsesLeft));
    }
    if code.once_per_client()
        && (discounts::used_by(conn, &code.id, client_id).await?
            || holding(conn, &code.id, Some(client_id)).await? > 0)
    {
        return Ok(Err(CodeRefusal::AlreadyUsed));
    }
    Ok(Ok(new_price))
}

/// What `raw` makes of `price` for this client, without holding a use (the dialog's preview).
pub async fn preview(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    client_id: &str,
    package_id: &str,
    price: Money,
    raw: &str,
) -> Result<Result<Priced, FieldError>, sqlx::Error> {
    let code = discounts::by_code(conn, raw).await?;
    priced_with(conn, ctx, code, client_id, package_id, price).await
}

/// The price of an order about to be opened in the caller's transaction: the code's row is
/// locked until the transaction ends, so the order (opened pending with the code) holds its
/// use before another purchase counts them.
pub async fn reserve(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    client_id: &str,
    package_id: &str,
    price: Money,
    raw: Option<&str>,
) -> Result<Result<Priced, FieldError>, sqlx::Error> {
    let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(Ok(Priced { price, code: None }));
    };
    let code = discounts::lock_by_code(conn, ctx.backend, raw).await?;
    priced_with(conn, ctx, code, client_id, package_id, price).await
}

/// `price` with `code` (as read or locked), or why not.
async fn priced_with(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    code: Option<DiscountCode>,
    client_id: &str,
    package_id: &str,
    price: Money,
) -> Result<Result<Priced, FieldError>, sqlx::Error> {
    let Some(code) = code else {
        return Ok(Err(FieldError::new(
            "discountCode",
            "Unknown discount code",
        )));
    };
    Ok(check(conn, &code, client_id, package_id, price, today(ctx))
        .await?
        .map(|new_price| priced(&code, price, new_price))
        .map_err(refused))
}

fn priced(code: &DiscountCode, price: Money, new_price: Money) -> Priced {
    Priced {
        price: new_price,
        code: Some((
            code.id.clone(),
            code.code.clone(),
            Money(price.minor() - new_price.minor()),
        )),
    }
}

/// Counts the use of a settled order's code, once per order (the caller's transaction).
pub async fn count_use(
    conn: &mut AnyConnection,
    code_id: &str,
    client_id: &str,
    cart_id: &str,
    amount_off: i64,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<(), sqlx::Error> {
    let inserted = sqlx::query(
        "INSERT INTO discount_code_uses (id, code_id, client_id, cart_id, amount_off, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (code_id, cart_id) DO NOTHING",
    )
    .bind(new_id())
    .bind(code_id)
    .bind(client_id)
    .bind(cart_id)
    .bind(amount_off)
    .bind(ts(now))
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if inserted == 1 {
        sqlx::query("UPDATE discount_codes SET uses = uses + 1, updated_at = $1 WHERE id = $2")
            .bind(ts(now))
            .bind(code_id)
            .execute(conn)
            .await?;
    }
    Ok(())
}
