//! Online purchases through PayTabs' hosted page (docs/integrations.md §1.9), and the result lookup
//! for /payment/success.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Redirect;
use axum::{Form, Json};
use chrono::Utc;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::common::optional;
use crate::domain::{AmountInput, Email, Language, Money, MoneyView, PaymentStatus, ts};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AppJson, AppPath, AuthUser, ClientIp};
use crate::operations::webhooks::{self as deliveries, Delivery, Reason};
use crate::payments::gateway::Checkout;
use crate::payments::result::PaymentResult;
use crate::payments::{catalogue, discounts, orders, settle};
use crate::providers::paytabs::{self, CreateError, Transaction};
use crate::state::AppState;
use content_model::payments::{PaymentMethod, Provider};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Each route once: its path and method come from the handler's `#[utoipa::path]`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create))
        .routes(routes!(callback))
        .routes(routes!(browser_return))
        .routes(routes!(by_cart))
        .routes(routes!(latest))
}

/// The purchase request of spec §3, as the purchase dialog sends it.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseRequest {
    /// `individual` or `group`.
    package_type: Option<String>,
    sessions: Option<u32>,
    /// The price the page showed, in EGP (e.g. 20250): compared, never charged.
    #[serde(default)]
    amount: AmountInput,
    customer_name: Option<String>,
    customer_email: Option<String>,
    customer_phone: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    is_guest: Option<bool>,
    /// The `version` of the site's `/catalogue.json` the page was built with. A version the API
    /// has not seen makes it load the site's catalogue first; one the site does not publish is
    /// refused (409). Without it, the newest catalogue the API has prices the purchase.
    #[schema(max_length = 64, pattern = "^[A-Za-z0-9_-]+$")]
    catalogue_version: Option<String>,
    /// How the client will pay: a PayTabs method code the package offers (its
    /// `payment_methods` in `/catalogue.json`: `creditcard`, `meezaqr`, `applepay`, `valu`…).
    /// Without it, PayTabs' page offers every method the package has.
    #[schema(max_length = 32)]
    payment_method: Option<String>,
    /// A discount code the client typed: the server prices the order again with it.
    #[schema(max_length = 64)]
    discount_code: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct RedirectView {
    #[serde(rename = "redirectUrl")]
    redirect_url: String,
}

impl RedirectView {
    pub fn new(redirect_url: String) -> RedirectView {
        RedirectView { redirect_url }
    }
}

/// A purchase as the dialog sent it, checked: who pays and what they ask for.
pub(super) struct Purchase {
    pub(super) name: String,
    pub(super) email: Email,
    pub(super) phone: String,
    pub(super) package_type: String,
    pub(super) sessions: u32,
    pub(super) shown: Option<Money>,
    pub(super) version: Option<String>,
    pub(super) method: Option<PaymentMethod>,
    pub(super) discount_code: Option<String>,
}

impl TryFrom<PurchaseRequest> for Purchase {
    type Error = AppError;

    fn try_from(body: PurchaseRequest) -> Result<Purchase, AppError> {
        let name = optional(body.customer_name);
        let raw_email = optional(body.customer_email);
        let phone = optional(body.customer_phone);
        let (Some(name), Some(raw_email), Some(phone)) =
            (name.clone(), raw_email.clone(), phone.clone())
        else {
            let missing = [
                ("customerName", name.is_none()),
                ("customerEmail", raw_email.is_none()),
                ("customerPhone", phone.is_none()),
            ];
            let fields = missing
                .iter()
                .filter(|(_, absent)| *absent)
                .map(|(f, _)| (f.to_string(), "This field is required.".to_string()))
                .collect();
            return Err(AppError::Validation {
                message: "Please fill in all required fields".into(),
                fields,
            });
        };
        let email = Email::parse(&raw_email)
            .ok_or_else(|| AppError::field("customerEmail", "Invalid email address"))?;
        let package_type = optional(body.package_type)
            .ok_or_else(|| AppError::field("packageType", "packageType is required"))?;
        let sessions = body
            .sessions
            .ok_or_else(|| AppError::field("sessions", "sessions is required"))?;
        let method = match optional(body.payment_method) {
            None => None,
            Some(code) => Some(
                PaymentMethod::parse(&code)
                    .ok_or_else(|| AppError::field("paymentMethod", "Unknown payment method"))?,
            ),
        };
        Ok(Purchase {
            name,
            email,
            phone,
            package_type,
            sessions,
            shown: body.amount.read().and_then(Result::ok),
            version: optional(body.catalogue_version),
            method,
            discount_code: optional(body.discount_code),
        })
    }
}

/// Who takes the payment and the methods its page may offer: the one chosen, which the
/// package must offer (Paymob's when the settings list it under `payments.paymob`), or, with
/// none chosen, every one of the package's that PayTabs takes.
fn methods_for(
    package: &content_model::catalogue::CataloguePackage,
    site: &crate::site::SiteInfo,
    chosen: Option<PaymentMethod>,
) -> Result<(Provider, Vec<PaymentMethod>), AppError> {
    let provider_of = |m: &PaymentMethod| {
        if site.paymob_methods.contains(m) {
            Provider::Paymob
        } else {
            Provider::Paytabs
        }
    };
    match chosen {
        Some(m) if !package.payment_methods.contains(&m) => Err(AppError::field(
            "paymentMethod",
            "This payment method is not offered for this package",
        )),
        Some(m) => Ok((provider_of(&m), vec![m])),
        None => Ok((
            Provider::Paytabs,
            package
                .payment_methods
                .iter()
                .filter(|m| provider_of(m) == Provider::Paytabs)
                .copied()
                .collect(),
        )),
    }
}

/// The order of `purchase`, at the price with its code (`priced`).
pub(super) fn new_order<'a>(
    user_id: &'a str,
    package: &'a content_model::catalogue::CataloguePackage,
    site: &'a crate::site::SiteInfo,
    purchase: &'a Purchase,
    priced: &'a discounts::Priced,
) -> orders::NewOrder<'a> {
    orders::NewOrder {
        client_id: user_id,
        package_id: &package.id,
        package_type: package.package_type.as_str(),
        sessions: i64::from(package.sessions),
        amount: priced.price.minor(),
        currency: &site.currency,
        customer_name: &purchase.name,
        customer_email: purchase.email.as_str(),
        customer_phone: &purchase.phone,
        discount: priced
            .code
            .as_ref()
            .map(|(id, _, off)| (id.as_str(), off.minor())),
    }
}

/// Opens the order for `provider` at the server's price, with the discount code the client
/// typed (whose row stays locked until the order that holds its use is written): its cart id
/// and amount.
async fn open_order(
    state: &AppState,
    site: &crate::site::SiteInfo,
    user_id: &str,
    package: &content_model::catalogue::CataloguePackage,
    purchase: &Purchase,
    provider: Provider,
) -> AppResult<(String, i64)> {
    let ctx = state.context(site);
    let mut tx = state.db.pool.begin().await?;
    let priced = discounts::reserve(
        &mut tx,
        &ctx,
        user_id,
        &package.id,
        package.price,
        purchase.discount_code.as_deref(),
    )
    .await??;
    let order = new_order(user_id, package, site, purchase, &priced);
    let cart_id = orders::open(&mut tx, &order, ctx.now).await?;
    orders::set_provider(&mut tx, &cart_id, provider).await?;
    tx.commit().await?;
    Ok((cart_id, order.amount))
}

/// Starts a payment: prices the package from the catalogue the site publishes (the version the
/// page was built with, loaded from the site if new), records a pending transaction with a
/// fresh unguessable cart id, and opens the hosted page of the provider that takes the chosen
/// method (PayTabs, or Paymob for the methods the settings give it). The path keeps the
/// spec's name.
#[utoipa::path(post, path = "/api/payments/paytabs/create", tag = "payments", request_body = PurchaseRequest,
    responses((status = 200, body = RedirectView),
              (status = 401, body = ErrorBody, description = "Authentication required"),
              (status = 409, body = ErrorBody, description = "The price shown is stale, the package is gone or changed, or the page's catalogue version is not the site's"),
              (status = 422, body = ErrorBody), (status = 502, body = ErrorBody, description = "'Failed to initiate payment. Please try again.', 'No redirect URL received', or the site's catalogue could not be loaded")))]
pub async fn create(
    State(state): State<AppState>,
    user: AuthUser,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<PurchaseRequest>,
) -> AppResult<Json<RedirectView>> {
    let purchase = Purchase::try_from(body)?;
    let asked = catalogue::Asked {
        package_type: &purchase.package_type,
        sessions: purchase.sessions,
        shown: purchase.shown,
        version: purchase.version.as_deref(),
    };
    let package = catalogue::price(&state, &asked).await?;
    let site = state.site();
    let (provider, methods) = methods_for(&package, &site, purchase.method)?;
    let Some(gateway) = state.gateway(provider) else {
        tracing::error!(
            provider = provider.name(),
            "a purchase was attempted but its provider is not configured"
        );
        return Err(AppError::BadGateway(
            CreateError::Failed(anyhow::anyhow!("not configured")).to_string(),
        ));
    };
    let (cart_id, amount) =
        open_order(&state, &site, &user.user_id, &package, &purchase, provider).await?;
    let mut conn = state.db.pool.acquire().await?;
    let unit = if package.package_type.as_str() == "group" {
        "hours"
    } else {
        "sessions"
    };
    let description = format!("{} ({} {unit})", package.name, package.sessions);
    let checkout = Checkout {
        cart_id: &cart_id,
        amount,
        currency: &site.currency,
        description: &description,
        customer_name: &purchase.name,
        customer_email: purchase.email.as_str(),
        customer_phone: &purchase.phone,
        customer_ip: &ip,
        methods: &methods,
        // The hosted page speaks the client's language.
        language: crate::domain::accounts::language_of(&mut conn, &user.user_id).await?,
        base_url: &state.config.public_base_url,
    };
    match gateway.start(&checkout).await {
        Ok(started) => {
            orders::page_created(&mut conn, &cart_id, &started, Utc::now()).await?;
            Ok(Json(RedirectView {
                redirect_url: started.redirect_url,
            }))
        }
        Err(failed) => {
            tracing::error!(
                cart_id,
                provider = provider.name(),
                error = format!("{:#}", failed.detail),
                "hosted payment page not created"
            );
            orders::page_failed(&mut conn, &cart_id, Utc::now()).await?;
            Err(AppError::BadGateway(failed.message))
        }
    }
}

/// PayTabs' server-to-server notification: JSON signed over the raw bytes in `Signature`.
#[utoipa::path(post, path = "/api/payments/paytabs/callback", tag = "payments",
    request_body(content = String, content_type = "application/json", description = "PayTabs' transaction JSON; header `Signature` = hex HMAC-SHA256(server key, raw body)"),
    responses((status = 200, description = "Applied, already applied, or an unknown cart (logged)"),
              (status = 400, body = ErrorBody, description = "Missing or invalid signature: nothing changes")))]
pub async fn callback(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> AppResult<StatusCode> {
    let delivery = Delivery::start(&state, deliveries::Provider::Paytabs);
    let Some(paytabs) = &state.paytabs else {
        delivery.refused(Reason::NotConfigured).await;
        return Err(AppError::NotFound("Payments are not configured".into()));
    };
    let signature = headers
        .get("signature")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !paytabs::verify_callback(paytabs.config.server_key.expose(), &body, signature) {
        tracing::warn!("PayTabs callback with a missing or invalid signature refused");
        delivery.refused(Reason::BadSignature).await;
        return Err(AppError::BadRequest("Invalid signature".into()));
    }
    let Ok(payload) = serde_json::from_slice::<serde_json::Value>(&body) else {
        delivery.refused(Reason::NotJson).await;
        return Err(AppError::BadRequest("The body is not JSON".into()));
    };
    let tx: Transaction = match serde_json::from_value(payload.clone()) {
        Ok(tx) => tx,
        Err(e) => {
            delivery.refused(Reason::UnexpectedShape).await;
            return Err(AppError::BadRequest(format!(
                "Unexpected callback shape: {e}"
            )));
        }
    };
    if crate::sponsors::invoices::is_invoice_cart(&tx.cart_id) {
        // A sponsor's invoice, paid on PayTabs' page.
        crate::sponsors::invoices::apply_paytabs(&state, &PaymentResult::from(&tx)).await?;
        delivery.applied("invoice").await;
        return Ok(StatusCode::OK);
    }
    if tx.is_refund() {
        // A refund we asked for; one made in PayTabs' dashboard is only logged.
        if !crate::payments::refunds::settle_notification(&state, &tx).await? {
            tracing::warn!(cart_id = %tx.cart_id, previous = ?tx.previous_tran_ref, "PayTabs refund notification for an unknown refund");
            delivery.ignored(Reason::UnknownCart, &tx.cart_id).await;
            return Ok(StatusCode::OK);
        }
        delivery.applied("refund").await;
        return Ok(StatusCode::OK);
    }
    match settle::apply(&state, &PaymentResult::from(&tx), &payload).await? {
        settle::Outcome::UnknownCart => {
            tracing::warn!(cart_id = %tx.cart_id, "PayTabs callback for an unknown cart");
            delivery.ignored(Reason::UnknownCart, &tx.cart_id).await;
        }
        outcome => {
            tracing::info!(cart_id = %tx.cart_id, ?outcome, "PayTabs callback applied");
            delivery.applied(outcome.label()).await;
        }
    }
    Ok(StatusCode::OK)
}

/// The browser coming back from PayTabs (a form POST). The signature is checked; if the
/// callback has not arrived yet, PayTabs is queried and the same settlement applies. The
/// pages it leads to are in the paying client's language.
#[utoipa::path(post, path = "/api/payments/paytabs/return", tag = "payments",
    request_body(content = String, content_type = "application/x-www-form-urlencoded", description = "PayTabs' signed return fields"),
    responses((status = 303, description = "To /payment/success?cart_id=… or /payment/failed?cart_id=… (under /ar for an Arabic client)"),
              (status = 400, body = ErrorBody, description = "The body is not a form"),
              (status = 413, body = ErrorBody), (status = 415, body = ErrorBody, description = "Not application/x-www-form-urlencoded")))]
pub async fn browser_return(
    State(state): State<AppState>,
    Form(fields): Form<Vec<(String, String)>>,
) -> AppResult<Redirect> {
    let base = &state.config.public_base_url;
    let field = |name: &str| {
        fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let cart_id = field("cartId");
    let encoded_cart: String = cart_id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    let failed = Redirect::to(&format!("{base}/payment/failed?cart_id={encoded_cart}"));
    let Some(paytabs) = &state.paytabs else {
        return Ok(failed);
    };
    if !paytabs::verify_return(paytabs.config.server_key.expose(), &fields) {
        tracing::warn!(
            cart_id,
            "PayTabs return with an invalid signature; nothing changed"
        );
        return Ok(failed);
    }
    let found: Option<(String, String)> = sqlx::query_as(
        "SELECT t.status, u.preferred_language FROM payment_transactions t JOIN users u ON u.id = t.client_id
          WHERE t.cart_id = $1",
    )
    .bind(&cart_id)
    .fetch_optional(&state.db.pool)
    .await?;
    let Some((status, language)) = found else {
        return Ok(failed);
    };
    let language = Language::parse(&language).unwrap_or_default();
    let failed =
        Redirect::to(&language.page(base, &format!("/payment/failed?cart_id={encoded_cart}")));
    let Some(mut status) = PaymentStatus::parse(&status) else {
        return Ok(failed);
    };
    if status == PaymentStatus::Pending {
        // The return alone proves nothing; ask PayTabs, then apply what it says.
        match paytabs.query(&field("tranRef")).await {
            Ok((tx, payload)) if tx.cart_id == cart_id => {
                status = match settle::apply(&state, &PaymentResult::from(&tx), &payload).await? {
                    settle::Outcome::Completed => PaymentStatus::Completed,
                    settle::Outcome::Failed => PaymentStatus::Failed,
                    _ => PaymentStatus::Pending,
                };
            }
            Ok((tx, _)) => {
                tracing::error!(cart_id, queried = %tx.cart_id, "PayTabs query answered for another cart")
            }
            Err(e) => tracing::warn!(
                cart_id,
                error = format!("{e:#}"),
                "PayTabs query failed; the callback or reconciliation will settle"
            ),
        }
    }
    Ok(if status == PaymentStatus::Failed {
        failed
    } else {
        Redirect::to(&language.page(base, &format!("/payment/success?cart_id={encoded_cart}")))
    })
}

/// What /payment/success shows.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentView {
    cart_id: String,
    status: PaymentStatus,
    /// `individual` or `group`.
    package_type: String,
    /// In the signed-in reader's language.
    package_name: String,
    sessions: i64,
    amount: MoneyView,
    /// The order id shown to the customer (the cart id).
    order_id: String,
    created_at: String,
}

#[derive(sqlx_macros::FromRow)]
struct TxRow {
    cart_id: String,
    client_id: String,
    status: PaymentStatus,
    package_type: String,
    sessions_purchased: i64,
    amount: i64,
    currency: String,
    created_at: String,
    package_id: String,
}

async fn view(state: &AppState, row: TxRow, user: &AuthUser) -> AppResult<Json<PaymentView>> {
    if row.client_id != user.user_id && !user.is_admin() {
        // The same answer as for a cart that does not exist.
        return Err(AppError::NotFound("Payment not found".into()));
    }
    // In the reader's language.
    let package_name = state
        .catalogue
        .package_name(&row.package_id, user.language)
        .unwrap_or(row.package_id);
    Ok(Json(PaymentView {
        order_id: row.cart_id.clone(),
        cart_id: row.cart_id,
        status: row.status,
        package_type: row.package_type,
        package_name,
        sessions: row.sessions_purchased,
        amount: MoneyView::new(row.amount, &row.currency),
        created_at: row.created_at,
    }))
}

const TX_COLUMNS: &str = "cart_id, client_id, status, package_type, sessions_purchased, amount, currency, created_at, package_id";

/// A transaction by cart id, for its owner or an admin.
#[utoipa::path(get, path = "/api/payments/by-cart/{cart_id}", tag = "payments", params(("cart_id" = String, Path)),
    responses((status = 200, body = PaymentView), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)))]
pub async fn by_cart(
    State(state): State<AppState>,
    user: AuthUser,
    AppPath(cart_id): AppPath,
) -> AppResult<Json<PaymentView>> {
    let row: Option<TxRow> = sqlx::query_as(&format!(
        "SELECT {TX_COLUMNS} FROM payment_transactions WHERE cart_id = $1"
    ))
    .bind(&cart_id)
    .fetch_optional(state.db.reader())
    .await?;
    let row = row.ok_or_else(|| AppError::NotFound("Payment not found".into()))?;
    view(&state, row, &user).await
}

/// The signed-in user's latest transaction of the last 10 minutes (spec §7's fallback when
/// /payment/success has no cart id).
#[utoipa::path(get, path = "/api/payments/latest", tag = "payments",
    responses((status = 200, body = PaymentView), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn latest(State(state): State<AppState>, user: AuthUser) -> AppResult<Json<PaymentView>> {
    let since = ts(Utc::now() - chrono::Duration::minutes(10));
    let row: Option<TxRow> = sqlx::query_as(&format!(
        "SELECT {TX_COLUMNS} FROM payment_transactions WHERE client_id = $1 AND created_at >= $2 ORDER BY created_at DESC LIMIT 1"
    ))
    .bind(&user.user_id)
    .bind(&since)
    .fetch_optional(state.db.reader())
    .await?;
    let row = row.ok_or_else(|| AppError::NotFound("No recent payment".into()))?;
    view(&state, row, &user).await
}
