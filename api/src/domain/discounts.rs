//! Discount codes (issue 22, item 4): a percentage or a fixed amount off, for some packages or
//! all, between two days, for a number of uses in all and, if the admin says so, once per
//! client. This module holds the rules of a new code ([`NewDiscountCode::parse`]), every
//! statement on `discount_codes`, and [`apply`], the pure pricing a purchase calls.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Deserialize;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::error::FieldError;
use super::money::{AmountError, AmountInput, Money};
use super::{new_id, ts};
use crate::db::Backend;

/// The least a discounted package may cost: PayTabs refuses an amount of 0.00, and a package
/// for pennies is a mistake, so a code that would take the price under one pound (100
/// piastres) is refused rather than charged.
pub const MIN_PRICE: Money = Money(100);
/// The most uses a code may be given (a bound, so the number stays a number people type).
pub const MAX_USES: i64 = 1_000_000;
const CODE_MIN: usize = 3;
const CODE_MAX: usize = 32;

/// What a code takes off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Discount {
    /// 1 to 100 percent of the price.
    Percent(u8),
    /// An amount in minor units, more than 0.
    Fixed(Money),
}

impl Discount {
    /// `percent` or `fixed`, as the database and the API name the kind.
    pub fn kind(self) -> &'static str {
        match self {
            Discount::Percent(_) => "percent",
            Discount::Fixed(_) => "fixed",
        }
    }

    /// How much comes off `price`, at most the whole price. A percentage is rounded to whole
    /// piastres, half up (the client gets the half piastre): 10 % of 4,500.05 is 450.01.
    pub fn off(self, price: Money) -> Money {
        let off = match self {
            Discount::Percent(p) => {
                let exact = i128::from(price.minor()) * i128::from(p);
                i64::try_from((exact + 50) / 100).unwrap_or(i64::MAX)
            }
            Discount::Fixed(amount) => amount.minor(),
        };
        Money(off.clamp(0, price.minor().max(0)))
    }
}

/// A `discount_codes` row.
#[derive(Debug, Clone, sqlx_macros::FromRow)]
pub struct DiscountCode {
    pub id: String,
    /// Upper case.
    pub code: String,
    /// `percent` or `fixed`.
    pub kind: String,
    pub percent: Option<i64>,
    /// Minor units.
    pub amount_off: Option<i64>,
    /// Comma-separated package ids; empty for every package (see [`DiscountCode::package_ids`]).
    pub package_ids: String,
    /// First day it can be used (`YYYY-MM-DD`, the coach's time zone), inclusive.
    pub valid_from: Option<String>,
    /// Last day it can be used, inclusive.
    pub valid_to: Option<String>,
    /// `None`: unlimited.
    pub max_uses: Option<i64>,
    pub uses: i64,
    /// 0/1 (see migration 0001 on flags).
    pub once_per_client: i64,
    pub is_active: i64,
    pub created_by: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

const COLUMNS: &str =
    "id, code, kind, percent, amount_off, package_ids, valid_from, valid_to, max_uses, uses,
                       once_per_client, is_active, created_by, created_at, updated_at";

fn day(text: Option<&str>) -> Option<NaiveDate> {
    text.and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
}

impl DiscountCode {
    /// What it takes off; `None` only for a row the database's checks would not have let in.
    pub fn discount(&self) -> Option<Discount> {
        match (self.kind.as_str(), self.percent, self.amount_off) {
            ("percent", Some(p), _) => u8::try_from(p).ok().map(Discount::Percent),
            ("fixed", _, Some(a)) => Some(Discount::Fixed(Money(a))),
            _ => None,
        }
    }

    /// The packages it applies to; empty means every package.
    pub fn package_ids(&self) -> Vec<&str> {
        self.package_ids
            .split(',')
            .filter(|p| !p.is_empty())
            .collect()
    }

    pub fn applies_to(&self, package_id: &str) -> bool {
        let ids = self.package_ids();
        ids.is_empty() || ids.contains(&package_id)
    }

    /// Uses left; `None` when unlimited.
    pub fn remaining(&self) -> Option<i64> {
        self.max_uses.map(|max| (max - self.uses).max(0))
    }

    pub fn is_active(&self) -> bool {
        self.is_active == 1
    }

    pub fn once_per_client(&self) -> bool {
        self.once_per_client == 1
    }

    /// Why the code cannot be used on `today` at all (whatever the package), if it cannot.
    fn unusable(&self, today: NaiveDate) -> Option<CodeRefusal> {
        let from = day(self.valid_from.as_deref());
        let to = day(self.valid_to.as_deref());
        // A stored day that does not read (never written by `insert`) must not open the code.
        let unreadable = (self.valid_from.is_some() && from.is_none())
            || (self.valid_to.is_some() && to.is_none());
        if !self.is_active() || unreadable || self.discount().is_none() {
            Some(CodeRefusal::Inactive)
        } else if from.is_some_and(|from| today < from) {
            Some(CodeRefusal::NotYetValid)
        } else if to.is_some_and(|to| today > to) {
            Some(CodeRefusal::Expired)
        } else if self.remaining() == Some(0) {
            Some(CodeRefusal::NoUsesLeft)
        } else {
            None
        }
    }

    /// Its state on `today`, for the admin's list: `active`, `inactive` (switched off),
    /// `scheduled` (not valid yet), `expired` or `used_up`.
    pub fn status(&self, today: NaiveDate) -> &'static str {
        match self.unusable(today) {
            None => "active",
            Some(CodeRefusal::NotYetValid) => "scheduled",
            Some(CodeRefusal::Expired) => "expired",
            Some(CodeRefusal::NoUsesLeft) => "used_up",
            Some(_) => "inactive",
        }
    }
}

/// Why a code does not price a purchase; the text is what the client reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CodeRefusal {
    #[error("This discount code does not apply to this package")]
    NotThisPackage,
    #[error("This discount code is not valid yet")]
    NotYetValid,
    #[error("This discount code has expired")]
    Expired,
    #[error("This discount code is no longer active")]
    Inactive,
    #[error("This discount code has no uses left")]
    NoUsesLeft,
    /// For the purchase: a once-per-client code this client has used (see [`used_by`]).
    #[error("You have already used this discount code")]
    AlreadyUsed,
    #[error("This discount code would make the package free")]
    WouldBeFree,
}

/// The price of `package_id` at `price` with `code` on `today` (the coach's calendar day), or
/// why the code does not apply. Pure: the caller has read (and, for a purchase, locked) the
/// row, and checks once-per-client itself. `uses` against `max_uses` is checked here from
/// the row as read. The result is never below [`MIN_PRICE`]: a code that would take the price
/// under it (a 100 % code, or a fixed amount at or near the price) is refused with
/// [`CodeRefusal::WouldBeFree`] rather than charging 0.00, which PayTabs refuses.
pub fn apply(
    code: &DiscountCode,
    package_id: &str,
    price: Money,
    today: NaiveDate,
) -> Result<Money, CodeRefusal> {
    if let Some(refusal) = code.unusable(today) {
        return Err(refusal);
    }
    if !code.applies_to(package_id) {
        return Err(CodeRefusal::NotThisPackage);
    }
    let discount = code.discount().ok_or(CodeRefusal::Inactive)?;
    let new_price = Money(price.minor() - discount.off(price).minor());
    if new_price < MIN_PRICE {
        return Err(CodeRefusal::WouldBeFree);
    }
    Ok(new_price)
}

/// A new code as the admin's form sends it (`POST /api/admin/discount-codes`).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateDiscountCode {
    /// 3 to 32 letters A-Z, digits, `-` or `_`; stored upper case, unique whatever the case.
    pub code: Option<String>,
    /// `percent` or `fixed`.
    pub kind: Option<String>,
    /// For `percent`: a whole number from 1 to 100. Leave out for `fixed`.
    pub percent: Option<i64>,
    /// For `fixed`: in the currency's major unit (EGP), 2-decimal steps, more than 0. Leave
    /// out for `percent`.
    #[serde(default)]
    pub amount_off: AmountInput,
    /// The package ids it applies to; empty or left out for every package.
    pub package_ids: Option<Vec<String>>,
    /// First day (`YYYY-MM-DD`, the coach's time zone), inclusive; left out: no first day.
    pub valid_from: Option<String>,
    /// Last day, inclusive, not before `validFrom`; left out: no end.
    pub valid_to: Option<String>,
    /// Uses in all, 1 to 1,000,000; left out: unlimited.
    pub max_uses: Option<i64>,
    /// A client may use it once (default false).
    pub once_per_client: Option<bool>,
}

/// A new code whose every field passed the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewDiscountCode {
    /// Upper case.
    pub code: String,
    pub discount: Discount,
    /// Known package ids, each once, in the catalogue's order; empty for every package.
    pub package_ids: Vec<String>,
    pub valid_from: Option<NaiveDate>,
    pub valid_to: Option<NaiveDate>,
    pub max_uses: Option<i64>,
    pub once_per_client: bool,
}

/// The form of a code as stored and looked up: trimmed, upper case.
pub fn normalise_code(raw: &str) -> String {
    raw.trim().to_uppercase()
}

fn parse_code(raw: Option<&str>) -> Result<String, FieldError> {
    let code = normalise_code(raw.unwrap_or(""));
    if code.is_empty() {
        return Err(FieldError::new("code", "Enter a code"));
    }
    let shape_ok = (CODE_MIN..=CODE_MAX).contains(&code.chars().count())
        && code
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if !shape_ok {
        return Err(FieldError::new(
            "code",
            "Code must be 3 to 32 characters: letters A-Z, digits, - or _",
        ));
    }
    Ok(code)
}

fn parse_percent(percent: Option<i64>) -> Result<Discount, FieldError> {
    percent
        .filter(|p| (1..=100).contains(p))
        .and_then(|p| u8::try_from(p).ok())
        .map(Discount::Percent)
        .ok_or_else(|| FieldError::new("percent", "Percent must be a whole number from 1 to 100"))
}

fn parse_amount_off(amount: &AmountInput) -> Result<Discount, FieldError> {
    let message = "Amount off must be more than 0, in steps of 0.01";
    match amount.read() {
        Some(Ok(m)) if m.minor() > 0 => Ok(Discount::Fixed(m)),
        Some(Err(AmountError::TooLarge)) => Err(FieldError::new(
            "amountOff",
            "Amount off must be at most 10,000,000.00",
        )),
        _ => Err(FieldError::new("amountOff", message)),
    }
}

/// The kind and its value; the other kind's field must be left out, so a form that sent both
/// is told rather than half-read.
fn parse_discount(body: &CreateDiscountCode) -> Result<Discount, Vec<FieldError>> {
    let kind = body.kind.as_deref().map(str::trim).unwrap_or("");
    match kind {
        "percent" if !body.amount_off.is_missing() => Err(vec![FieldError::new(
            "amountOff",
            "Leave amountOff out for a percent discount",
        )]),
        "percent" => parse_percent(body.percent).map_err(|e| vec![e]),
        "fixed" if body.percent.is_some() => Err(vec![FieldError::new(
            "percent",
            "Leave percent out for a fixed discount",
        )]),
        "fixed" => parse_amount_off(&body.amount_off).map_err(|e| vec![e]),
        _ => Err(vec![FieldError::new(
            "kind",
            "Kind must be percent or fixed",
        )]),
    }
}

/// Known ids, each once, in the catalogue's order (so the stored list does not depend on the
/// order the form sent them in).
fn parse_packages(ids: Option<&[String]>, known: &[&str]) -> Result<Vec<String>, FieldError> {
    let asked: Vec<&str> = ids.unwrap_or(&[]).iter().map(|i| i.trim()).collect();
    if let Some(unknown) = asked.iter().find(|id| !known.contains(id)) {
        return Err(FieldError::new(
            "packageIds",
            &format!("Unknown package: {unknown}"),
        ));
    }
    Ok(known
        .iter()
        .filter(|k| asked.contains(k))
        .map(|k| k.to_string())
        .collect())
}

fn parse_day(field: &str, label: &str, raw: Option<&str>) -> Result<Option<NaiveDate>, FieldError> {
    match raw.map(str::trim).filter(|d| !d.is_empty()) {
        None => Ok(None),
        Some(d) => NaiveDate::parse_from_str(d, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| FieldError::new(field, &format!("{label} must be a date (YYYY-MM-DD)"))),
    }
}

fn parse_max_uses(max: Option<i64>) -> Result<Option<i64>, FieldError> {
    match max {
        Some(n) if n < 1 => Err(FieldError::new("maxUses", "Total uses must be at least 1")),
        Some(n) if n > MAX_USES => Err(FieldError::new(
            "maxUses",
            "Total uses must be at most 1,000,000",
        )),
        other => Ok(other),
    }
}

/// `r`'s value, or `None` with its error kept.
fn keep<T>(errors: &mut Vec<FieldError>, r: Result<T, FieldError>) -> Option<T> {
    r.map_err(|e| errors.push(e)).ok()
}

impl NewDiscountCode {
    /// Checks every field of `body` (each wrong field named, in the form's order) against the
    /// rules and `known_package_ids` (the catalogue's packages). Whether the code is taken is
    /// the database's to say ([`insert`]).
    pub fn parse(
        body: CreateDiscountCode,
        known_package_ids: &[&str],
    ) -> Result<NewDiscountCode, Vec<FieldError>> {
        let mut errors = Vec::new();
        let code = keep(&mut errors, parse_code(body.code.as_deref()));
        let discount = parse_discount(&body).map_err(|e| errors.extend(e)).ok();
        let packages = keep(
            &mut errors,
            parse_packages(body.package_ids.as_deref(), known_package_ids),
        );
        let from = keep(
            &mut errors,
            parse_day("validFrom", "Valid from", body.valid_from.as_deref()),
        );
        let to = keep(
            &mut errors,
            parse_day("validTo", "Valid to", body.valid_to.as_deref()),
        );
        if let (Some(Some(from)), Some(Some(to))) = (from, to)
            && to < from
        {
            errors.push(FieldError::new(
                "validTo",
                "Valid to must be on or after valid from",
            ));
        }
        let max_uses = keep(&mut errors, parse_max_uses(body.max_uses));
        match (code, discount, packages, from, to, max_uses) {
            (
                Some(code),
                Some(discount),
                Some(package_ids),
                Some(valid_from),
                Some(valid_to),
                Some(max_uses),
            ) if errors.is_empty() => Ok(NewDiscountCode {
                code,
                discount,
                package_ids,
                valid_from,
                valid_to,
                max_uses,
                once_per_client: body.once_per_client.unwrap_or(false),
            }),
            _ => Err(errors),
        }
    }
}

// ---------------------------------------------------------------------------------- storage

fn day_text(d: Option<NaiveDate>) -> Option<String> {
    d.map(|d| d.format("%Y-%m-%d").to_string())
}

/// Stores `new`; `None` when its code is taken (by any case of it: codes are stored upper
/// case). `ON CONFLICT DO NOTHING` decides on both databases, so two admins saving the same
/// code at once get one row and one "taken".
pub async fn insert(
    conn: &mut AnyConnection,
    new: &NewDiscountCode,
    created_by: &str,
    now: DateTime<Utc>,
) -> Result<Option<DiscountCode>, sqlx::Error> {
    let (percent, amount_off) = match new.discount {
        Discount::Percent(p) => (Some(i64::from(p)), None),
        Discount::Fixed(m) => (None, Some(m.minor())),
    };
    let id = new_id();
    let written = sqlx::query(
        "INSERT INTO discount_codes (id, code, kind, percent, amount_off, package_ids, valid_from, valid_to,
                                     max_uses, uses, once_per_client, is_active, created_by, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10, 1, $11, $12, $12)
         ON CONFLICT (code) DO NOTHING",
    )
    .bind(&id)
    .bind(&new.code)
    .bind(new.discount.kind())
    .bind(percent)
    .bind(amount_off)
    .bind(new.package_ids.join(","))
    .bind(day_text(new.valid_from))
    .bind(day_text(new.valid_to))
    .bind(new.max_uses)
    .bind(i64::from(new.once_per_client))
    .bind(created_by)
    .bind(ts(now))
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if written == 0 {
        return Ok(None);
    }
    by_id(conn, &id).await
}

/// Every code, newest first.
pub async fn list(conn: &mut AnyConnection) -> Result<Vec<DiscountCode>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM discount_codes ORDER BY created_at DESC, id"
    ))
    .fetch_all(conn)
    .await
}

pub async fn by_id(
    conn: &mut AnyConnection,
    id: &str,
) -> Result<Option<DiscountCode>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM discount_codes WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// Switches a code on or off (it is never deleted: its uses point at it); the row after, or
/// `None` when there is no such code.
pub async fn set_active(
    conn: &mut AnyConnection,
    id: &str,
    active: bool,
    now: DateTime<Utc>,
) -> Result<Option<DiscountCode>, sqlx::Error> {
    sqlx::query("UPDATE discount_codes SET is_active = $1, updated_at = $2 WHERE id = $3")
        .bind(i64::from(active))
        .bind(ts(now))
        .bind(id)
        .execute(&mut *conn)
        .await?;
    by_id(conn, id).await
}

/// The code a buyer typed, whatever its case and surrounding spaces.
pub async fn by_code(
    conn: &mut AnyConnection,
    raw: &str,
) -> Result<Option<DiscountCode>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM discount_codes WHERE code = $1"
    ))
    .bind(normalise_code(raw))
    .fetch_optional(conn)
    .await
}

/// [`by_code`], locked until the transaction ends: two purchases counting the last use of a
/// code run one after the other.
pub async fn lock_by_code(
    conn: &mut AnyConnection,
    backend: Backend,
    raw: &str,
) -> Result<Option<DiscountCode>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM discount_codes WHERE code = $1{}",
        backend.for_update()
    ))
    .bind(normalise_code(raw))
    .fetch_optional(conn)
    .await
}

/// Whether `client_id` has a use of the code (for once-per-client codes; run after the lock).
pub async fn used_by(
    conn: &mut AnyConnection,
    code_id: &str,
    client_id: &str,
) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM discount_code_uses WHERE code_id = $1 AND client_id = $2",
    )
    .bind(code_id)
    .bind(client_id)
    .fetch_one(conn)
    .await?;
    Ok(n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn percent(p: i64) -> DiscountCode {
        DiscountCode {
            id: "c1".into(),
            code: "SPRING".into(),
            kind: "percent".into(),
            percent: Some(p),
            amount_off: None,
            package_ids: String::new(),
            valid_from: None,
            valid_to: None,
            max_uses: None,
            uses: 0,
            once_per_client: 0,
            is_active: 1,
            created_by: None,
            created_at: "2026-01-01T00:00:00.000000Z".into(),
            updated_at: "2026-01-01T00:00:00.000000Z".into(),
        }
    }

    fn fixed(minor: i64) -> DiscountCode {
        DiscountCode {
            kind: "fixed".into(),
            percent: None,
            amount_off: Some(minor),
            ..percent(1)
        }
    }

    const TODAY: &str = "2026-05-10";

    fn price_of(code: &DiscountCode, price: i64) -> Result<Money, CodeRefusal> {
        apply(code, "individual-5", Money(price), d(TODAY))
    }

    #[test]
    fn a_percentage_is_rounded_to_whole_piastres_half_up() {
        assert_eq!(price_of(&percent(15), 450_000), Ok(Money(382_500)));
        // 10 % of 4,500.05 is 450.005: the half piastre goes to the client.
        assert_eq!(price_of(&percent(10), 450_005), Ok(Money(405_004)));
        // 10 % of 4,500.04 is 450.004: rounded down.
        assert_eq!(price_of(&percent(10), 450_004), Ok(Money(405_004)));
        // 33 % of 100.01 is 33.0033.
        assert_eq!(price_of(&percent(33), 10_001), Ok(Money(6_701)));
        assert_eq!(Discount::Percent(50).off(Money(3)), Money(2));
    }

    #[test]
    fn a_fixed_amount_comes_off_and_never_leaves_less_than_one_pound() {
        assert_eq!(price_of(&fixed(50_000), 450_000), Ok(Money(400_000)));
        assert_eq!(price_of(&fixed(449_900), 450_000), Ok(MIN_PRICE));
        assert_eq!(
            price_of(&fixed(449_901), 450_000),
            Err(CodeRefusal::WouldBeFree)
        );
        assert_eq!(
            price_of(&fixed(900_000), 450_000),
            Err(CodeRefusal::WouldBeFree)
        );
        assert_eq!(
            price_of(&percent(100), 450_000),
            Err(CodeRefusal::WouldBeFree)
        );
        assert_eq!(Discount::Fixed(Money(900)).off(Money(500)), Money(500));
    }

    #[test]
    fn the_days_are_inclusive() {
        let code = DiscountCode {
            valid_from: Some("2026-05-10".into()),
            valid_to: Some("2026-05-12".into()),
            ..percent(10)
        };
        let on = |day: &str| apply(&code, "individual-5", Money(10_000), d(day));
        assert_eq!(on("2026-05-09"), Err(CodeRefusal::NotYetValid));
        assert_eq!(on("2026-05-10"), Ok(Money(9_000)));
        assert_eq!(on("2026-05-12"), Ok(Money(9_000)));
        assert_eq!(on("2026-05-13"), Err(CodeRefusal::Expired));
        assert_eq!(code.status(d("2026-05-09")), "scheduled");
        assert_eq!(code.status(d("2026-05-11")), "active");
        assert_eq!(code.status(d("2026-05-13")), "expired");
        // Open ends.
        let open = DiscountCode {
            valid_to: None,
            ..code.clone()
        };
        assert_eq!(
            apply(&open, "individual-5", Money(10_000), d("2099-01-01")),
            Ok(Money(9_000))
        );
    }

    #[test]
    fn only_the_listed_packages_and_every_package_when_none_is_listed() {
        let some = DiscountCode {
            package_ids: "individual-1,group-5".into(),
            ..percent(10)
        };
        assert_eq!(some.package_ids(), ["individual-1", "group-5"]);
        let on = |code: &DiscountCode, package: &str| apply(code, package, Money(10_000), d(TODAY));
        assert_eq!(on(&some, "group-5"), Ok(Money(9_000)));
        assert_eq!(on(&some, "individual-5"), Err(CodeRefusal::NotThisPackage));
        // A prefix of a listed id is another package.
        assert_eq!(on(&some, "group"), Err(CodeRefusal::NotThisPackage));
        assert_eq!(on(&percent(10), "anything"), Ok(Money(9_000)));
    }

    #[test]
    fn a_switched_off_or_used_up_code_is_refused() {
        let off = DiscountCode {
            is_active: 0,
            ..percent(10)
        };
        assert_eq!(price_of(&off, 10_000), Err(CodeRefusal::Inactive));
        assert_eq!(off.status(d(TODAY)), "inactive");
        let used = DiscountCode {
            max_uses: Some(3),
            uses: 3,
            ..percent(10)
        };
        assert_eq!(price_of(&used, 10_000), Err(CodeRefusal::NoUsesLeft));
        assert_eq!(used.remaining(), Some(0));
        assert_eq!(used.status(d(TODAY)), "used_up");
        let left = DiscountCode { uses: 2, ..used };
        assert_eq!(price_of(&left, 10_000), Ok(Money(9_000)));
        assert_eq!(left.remaining(), Some(1));
        assert_eq!(
            CodeRefusal::AlreadyUsed.to_string(),
            "You have already used this discount code"
        );
    }

    const KNOWN: [&str; 3] = ["group-5", "individual-1", "individual-5"];

    fn body(json: serde_json::Value) -> CreateDiscountCode {
        serde_json::from_value(json).unwrap()
    }

    fn fields_of(json: serde_json::Value) -> Vec<(String, String)> {
        NewDiscountCode::parse(body(json), &KNOWN)
            .unwrap_err()
            .into_iter()
            .map(|e| (e.field, e.message))
            .collect()
    }

    fn field_names(json: serde_json::Value) -> Vec<String> {
        fields_of(json).into_iter().map(|(f, _)| f).collect()
    }

    #[test]
    fn a_new_code_is_read_and_normalised() {
        let new = NewDiscountCode::parse(
            body(serde_json::json!({
                "code": "  spring-26 ", "kind": "fixed", "amountOff": "250.50",
                "packageIds": ["individual-5", "group-5", "individual-5"],
                "validFrom": "2026-05-01", "validTo": "2026-05-01", "maxUses": 10, "oncePerClient": true
            })),
            &KNOWN,
        )
        .unwrap();
        assert_eq!(new.code, "SPRING-26");
        assert_eq!(new.discount, Discount::Fixed(Money(25_050)));
        assert_eq!(new.package_ids, ["group-5", "individual-5"]);
        assert_eq!(new.valid_from, Some(d("2026-05-01")));
        assert_eq!(new.max_uses, Some(10));
        assert!(new.once_per_client);
        let all = NewDiscountCode::parse(
            body(serde_json::json!({"code": "ALL10", "kind": "percent", "percent": 10})),
            &KNOWN,
        )
        .unwrap();
        assert_eq!(all.discount, Discount::Percent(10));
        assert!(all.package_ids.is_empty() && all.max_uses.is_none() && !all.once_per_client);
    }

    #[test]
    fn every_wrong_field_is_named() {
        for p in [0, -5, 101] {
            assert_eq!(
                field_names(serde_json::json!({"code": "ABC", "kind": "percent", "percent": p})),
                ["percent"]
            );
        }
        for a in [
            serde_json::json!(0),
            serde_json::json!("-3"),
            serde_json::json!(null),
        ] {
            assert_eq!(
                field_names(serde_json::json!({"code": "ABC", "kind": "fixed", "amountOff": a})),
                ["amountOff"]
            );
        }
        for c in ["AB", "SPRING 26", "خصم10", &"A".repeat(33)] {
            assert_eq!(
                field_names(serde_json::json!({"code": c, "kind": "percent", "percent": 5})),
                ["code"]
            );
        }
        assert_eq!(
            fields_of(
                serde_json::json!({"code": "ABC", "kind": "percent", "percent": 5, "packageIds": ["gold"]})
            ),
            [("packageIds".into(), "Unknown package: gold".into())]
        );
        assert_eq!(
            field_names(
                serde_json::json!({"code": "ABC", "kind": "percent", "percent": 5,
                "validFrom": "2026-05-02", "validTo": "2026-05-01"})
            ),
            ["validTo"]
        );
        assert_eq!(
            field_names(
                serde_json::json!({"code": "ABC", "kind": "percent", "percent": 5, "validFrom": "02/05/2026"})
            ),
            ["validFrom"]
        );
        assert_eq!(
            field_names(
                serde_json::json!({"code": "ABC", "kind": "percent", "percent": 5, "maxUses": 0})
            ),
            ["maxUses"]
        );
        assert_eq!(
            field_names(serde_json::json!({"kind": "half", "maxUses": 0})),
            ["code", "kind", "maxUses"]
        );
        assert_eq!(
            field_names(
                serde_json::json!({"code": "ABC", "kind": "percent", "percent": 5, "amountOff": 10})
            ),
            ["amountOff"]
        );
    }
}
