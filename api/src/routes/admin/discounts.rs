//! Discount codes for the admin (issue 22, item 4): the list with their uses, a new code, and
//! switching a code off and on. The rules are `domain::discounts`'; a purchase prices a code
//! with `domain::discounts::apply`.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::NaiveDate;
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::discounts::{self, CreateDiscountCode, DiscountCode, NewDiscountCode};
use crate::domain::{FieldError, MoneyView, RecordId};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AdminUser, AppJson, AppPath};
use crate::state::AppState;

/// One discount code as the admin sees it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiscountCodeView {
    id: String,
    /// Upper case.
    code: String,
    /// `percent` or `fixed`.
    kind: String,
    /// For `percent`: 1 to 100.
    percent: Option<i64>,
    /// For `fixed`: the amount off.
    amount_off: Option<MoneyView>,
    /// The packages it applies to; empty for every package.
    package_ids: Vec<String>,
    /// First day (`YYYY-MM-DD`, the coach's time zone), inclusive; `null`: open.
    valid_from: Option<String>,
    /// Last day, inclusive; `null`: no end.
    valid_to: Option<String>,
    /// Uses in all; `null`: unlimited.
    max_uses: Option<i64>,
    /// Purchases that used it.
    uses: i64,
    /// Uses left; `null`: unlimited.
    remaining: Option<i64>,
    once_per_client: bool,
    /// Switched on (the admin can switch it off and on again).
    is_active: bool,
    /// Today, in the coach's time zone: `active`, `inactive` (switched off), `scheduled` (not
    /// valid yet), `expired` or `used_up`.
    status: String,
    created_at: String,
}

impl DiscountCodeView {
    fn of(code: DiscountCode, currency: &str, today: NaiveDate) -> DiscountCodeView {
        DiscountCodeView {
            percent: code.percent,
            amount_off: code.amount_off.map(|m| MoneyView::new(m, currency)),
            package_ids: code.package_ids().into_iter().map(String::from).collect(),
            remaining: code.remaining(),
            once_per_client: code.once_per_client(),
            is_active: code.is_active(),
            status: code.status(today).to_string(),
            id: code.id,
            code: code.code,
            kind: code.kind,
            valid_from: code.valid_from,
            valid_to: code.valid_to,
            max_uses: code.max_uses,
            uses: code.uses,
            created_at: code.created_at,
        }
    }
}

/// The coach's calendar day now: a code's days are the coach's.
fn today(state: &AppState) -> NaiveDate {
    chrono::Utc::now()
        .with_timezone(&state.site().time_zone)
        .date_naive()
}

/// The domain's field errors as the one 422: every field named, the first message on top.
fn invalid(errors: Vec<FieldError>) -> AppError {
    let message = errors.first().map_or_else(
        || "Please check the form".to_string(),
        |e| e.message.clone(),
    );
    let mut fields = BTreeMap::new();
    for e in errors {
        fields.entry(e.field).or_insert(e.message);
    }
    AppError::Validation { message, fields }
}

#[utoipa::path(get, path = "/api/admin/discount-codes", tag = "admin",
    responses((status = 200, body = [DiscountCodeView], description = "Newest first"), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody)))]
pub async fn list_codes(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> AppResult<Json<Vec<DiscountCodeView>>> {
    let mut conn = state.db.reader().acquire().await?;
    let codes = discounts::list(&mut conn).await?;
    let (site, today) = (state.site(), today(&state));
    Ok(Json(
        codes
            .into_iter()
            .map(|c| DiscountCodeView::of(c, &site.currency, today))
            .collect(),
    ))
}

#[utoipa::path(post, path = "/api/admin/discount-codes", tag = "admin", request_body = CreateDiscountCode,
    responses((status = 201, body = DiscountCodeView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 413, body = ErrorBody), (status = 415, body = ErrorBody),
              (status = 422, body = ErrorBody, description = "Each wrong field named, or the code is already taken (`code`)")))]
pub async fn create_code(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppJson(body): AppJson<CreateDiscountCode>,
) -> AppResult<(StatusCode, Json<DiscountCodeView>)> {
    // Every package of the catalogue the API sells from, retired ones too (one may return).
    let catalogue = state.catalogue.current();
    let known: Vec<&str> = catalogue.packages.iter().map(|p| p.id.as_str()).collect();
    let new = NewDiscountCode::parse(body, &known).map_err(invalid)?;
    let mut tx = state.db.pool.begin().await?;
    let code = discounts::insert(&mut tx, &new, &admin.user_id, chrono::Utc::now())
        .await?
        .ok_or_else(|| AppError::field("code", "This code is already taken"))?;
    tx.commit().await?;
    tracing::info!(code = %code.code, by = %admin.user_id, "discount code created");
    let view = DiscountCodeView::of(code, &state.site().currency, today(&state));
    Ok((StatusCode::CREATED, Json(view)))
}

/// Switches the code `raw_id` on or off and answers it.
async fn switch(state: &AppState, raw_id: &str, active: bool) -> AppResult<Json<DiscountCodeView>> {
    let not_found = || AppError::NotFound("Discount code not found".into());
    let id = RecordId::parse(raw_id).ok_or_else(not_found)?;
    let mut tx = state.db.pool.begin().await?;
    let code = discounts::set_active(&mut tx, id.as_str(), active, chrono::Utc::now())
        .await?
        .ok_or_else(not_found)?;
    tx.commit().await?;
    let view = DiscountCodeView::of(code, &state.site().currency, today(state));
    Ok(Json(view))
}

#[utoipa::path(post, path = "/api/admin/discount-codes/{id}/deactivate", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = DiscountCodeView, description = "Switched off: purchases can no longer use it"),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn deactivate_code(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppPath(raw_id): AppPath,
) -> AppResult<Json<DiscountCodeView>> {
    let view = switch(&state, &raw_id, false).await?;
    tracing::info!(code = %view.code, by = %admin.user_id, "discount code deactivated");
    Ok(view)
}

#[utoipa::path(post, path = "/api/admin/discount-codes/{id}/activate", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = DiscountCodeView, description = "Switched on again (its days and uses still apply)"),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn activate_code(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppPath(raw_id): AppPath,
) -> AppResult<Json<DiscountCodeView>> {
    let view = switch(&state, &raw_id, true).await?;
    tracing::info!(code = %view.code, by = %admin.user_id, "discount code activated");
    Ok(view)
}
