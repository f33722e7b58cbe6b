//! A discount code in the purchase dialog (issue 22, item 4): the server's price with the code,
//! before the client pays. It holds no use: the purchase itself prices the order again, under
//! the code's lock (`payments::discounts`).

use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::common::optional;
use crate::domain::{AmountInput, MoneyView};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AppJson, AuthUser};
use crate::payments::{catalogue, discounts};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(preview_discount))
}

/// The package the dialog shows and the code the client typed.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiscountPreviewRequest {
    /// `individual` or `group`.
    package_type: Option<String>,
    sessions: Option<u32>,
    /// The price the page showed, in EGP: compared with the catalogue's, as for a purchase.
    #[serde(default)]
    amount: AmountInput,
    #[schema(max_length = 64)]
    catalogue_version: Option<String>,
    #[schema(max_length = 64)]
    discount_code: Option<String>,
}

/// What the client would pay with the code.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiscountPreview {
    /// The code as the server knows it (upper case).
    code: String,
    /// The package's price without the code.
    list_price: MoneyView,
    /// What the code takes off.
    discount: MoneyView,
    /// What the client pays.
    price: MoneyView,
}

#[utoipa::path(post, path = "/api/payments/discount/preview", tag = "payments", request_body = DiscountPreviewRequest,
    responses((status = 200, body = DiscountPreview), (status = 401, body = ErrorBody),
              (status = 409, body = ErrorBody, description = "The package is gone or changed"),
              (status = 422, body = ErrorBody, description = "discountCode: unknown, expired, not yet valid, inactive, used up, already used by this client, not for this package")))]
pub async fn preview_discount(
    State(state): State<AppState>,
    user: AuthUser,
    AppJson(body): AppJson<DiscountPreviewRequest>,
) -> AppResult<Json<DiscountPreview>> {
    let code = optional(body.discount_code)
        .ok_or_else(|| AppError::field("discountCode", "Enter a discount code"))?;
    let package_type = optional(body.package_type)
        .ok_or_else(|| AppError::field("packageType", "packageType is required"))?;
    let sessions = body
        .sessions
        .ok_or_else(|| AppError::field("sessions", "sessions is required"))?;
    let version = optional(body.catalogue_version);
    let asked = catalogue::Asked {
        package_type: &package_type,
        sessions,
        shown: body.amount.read().and_then(Result::ok),
        version: version.as_deref(),
    };
    let package = catalogue::price(&state, &asked).await?;
    let site = state.site();
    let ctx = state.context(&site);
    let mut conn = state.db.pool.acquire().await?;
    let priced = discounts::preview(
        &mut conn,
        &ctx,
        &user.user_id,
        &package.id,
        package.price,
        &code,
    )
    .await??;
    let (_, code, off) = priced
        .code
        .ok_or_else(|| AppError::field("discountCode", "Unknown discount code"))?;
    Ok(Json(DiscountPreview {
        code,
        list_price: MoneyView::new(package.price.minor(), &site.currency),
        discount: MoneyView::new(off.minor(), &site.currency),
        price: MoneyView::new(priced.price.minor(), &site.currency),
    }))
}
