//! What a sponsor's billing contact opens without an account (issue 23): the invoice (view,
//! print, pay through the invoice PayTabs keeps for it) and the usage report (and its CSV). Each link carries
//! a token signed with the API's secret; a report link also expires and can be revoked. A
//! token that does not verify gets the same 404 as one for nothing.

use axum::body::Body;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Form, Json};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::admin::InvoiceView;
use super::payments::RedirectView;
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AppPath, AppQuery, ClientIp};
use crate::payments::result::PaymentResult;
use crate::providers::paytabs::{self, InvoiceLine, InvoiceRequest, PageRequest};
use crate::sponsors::invoices::{self, InvoiceRefused, PayOnline, Recorded};
use crate::sponsors::reports::{self, ExecutiveUsage};
use crate::sponsors::{engagements, records};
use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(invoice_by_token))
        .routes(routes!(pay_invoice))
        .routes(routes!(invoice_return))
        .routes(routes!(report))
        .routes(routes!(report_csv))
}

const INVOICE_NOT_FOUND: &str = "Invoice not found";
const REPORT_NOT_FOUND: &str = "This report link is not valid, has expired or was revoked";

/// The invoice a link's token names.
async fn invoice_of_token(state: &AppState, token: &str) -> AppResult<invoices::Invoice> {
    let id = invoices::verify_token(state.config.app_secret.expose(), token)
        .ok_or_else(|| AppError::NotFound(INVOICE_NOT_FOUND.into()))?;
    let mut conn = state.db.pool.acquire().await?;
    invoices::get(&mut conn, &id)
        .await?
        .ok_or_else(|| AppError::NotFound(INVOICE_NOT_FOUND.into()))
}

#[utoipa::path(get, path = "/api/invoices/by-token/{token}", tag = "sponsors", params(("token" = String, Path)),
    responses((status = 200, body = InvoiceView), (status = 404, body = ErrorBody, description = "Invoice not found")))]
pub async fn invoice_by_token(
    State(state): State<AppState>,
    AppPath(token): AppPath,
) -> AppResult<Json<InvoiceView>> {
    let invoice = invoice_of_token(&state, &token).await?;
    let mut conn = state.db.pool.acquire().await?;
    Ok(Json(
        super::admin::invoice_view(&state, &mut conn, invoice).await?,
    ))
}

/// The link of the invoice PayTabs keeps for this one (its Invoices API), made on the first
/// ask and the same afterwards; PayTabs' signed callback settles it.
#[utoipa::path(post, path = "/api/invoices/by-token/{token}/pay", tag = "sponsors", params(("token" = String, Path)),
    responses((status = 200, body = RedirectView), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody, description = "Already paid, void, or not sent yet"),
              (status = 502, body = ErrorBody, description = "'Failed to initiate payment. Please try again.'")))]
pub async fn pay_invoice(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppPath(token): AppPath,
) -> AppResult<Json<RedirectView>> {
    let invoice = invoice_of_token(&state, &token).await?;
    let Some(paytabs) = &state.paytabs else {
        return Err(AppError::BadGateway(
            "Failed to initiate payment. Please try again.".into(),
        ));
    };
    let refused = |r| match r {
        InvoiceRefused::NotFound => AppError::NotFound(INVOICE_NOT_FOUND.into()),
        InvoiceRefused::Conflict(m) => AppError::Conflict(m.into()),
    };
    let site = state.site();
    let ctx = state.context(&site);
    let mut tx = state.db.pool.begin().await?;
    let (cart_id, invoice) = match invoices::pay_online(&mut tx, &ctx, &invoice.id)
        .await?
        .map_err(refused)?
    {
        PayOnline::Link(link) => return Ok(Json(RedirectView::new(link))),
        PayOnline::Create { cart_id, invoice } => (cart_id, invoice),
    };
    let engagement = engagements::get(&mut tx, &invoice.engagement_id)
        .await?
        .ok_or_else(|| AppError::NotFound(INVOICE_NOT_FOUND.into()))?;
    let sponsor = records::get(&mut tx, &engagement.sponsor_id)
        .await?
        .ok_or_else(|| AppError::NotFound(INVOICE_NOT_FOUND.into()))?;
    tx.commit().await?;
    let base = &state.config.public_base_url;
    let number = invoices::display_number(invoice.number);
    let description = format!("Invoice {number} ({})", engagement.title);
    let line = format!(
        "{} coaching sessions: {}",
        engagement.credits, engagement.title
    );
    let request = InvoiceRequest {
        page: PageRequest {
            cart_id: &cart_id,
            currency: &invoice.currency,
            amount: invoice.total,
            description: &description,
            customer_name: &sponsor.contact_name,
            customer_email: &sponsor.contact_email,
            customer_phone: sponsor
                .contact_phone
                .as_deref()
                .unwrap_or("+20 100 000 0000"),
            customer_ip: &ip,
            callback_url: &format!("{base}/api/payments/paytabs/callback"),
            return_url: &format!("{base}/api/invoices/paytabs-return?token={token}"),
            payment_methods: &[],
            lang: sponsor.language.as_str(),
        },
        lines: &[InvoiceLine {
            sku: &number,
            description: &line,
            unit_cost: invoice.subtotal,
            quantity: 1,
            tax_rate: invoice.vat_rate_bp.map_or(0.0, |bp| bp as f64 / 100.0),
            tax_total: invoice.vat,
        }],
    };
    let created = match paytabs.create_invoice(&request).await {
        Ok(created) => created,
        Err(e) => {
            tracing::error!(invoice = %invoice.id, error = format!("{e:#}"), "PayTabs invoice not created");
            return Err(AppError::BadGateway(e.to_string()));
        }
    };
    let mut tx = state.db.pool.begin().await?;
    let recorded = invoices::record_paytabs_invoice(
        &mut tx,
        &ctx,
        &invoice.id,
        &cart_id,
        created.invoice_id,
        &created.invoice_link,
    )
    .await?;
    tx.commit().await?;
    match recorded {
        Ok(Recorded::Kept(link)) => Ok(Json(RedirectView::new(link))),
        // Another ask made the invoice's link first, or the invoice was paid or voided
        // meanwhile: PayTabs' invoice made here must not take a payment.
        other => {
            if let Err(e) = paytabs.cancel_invoice(created.invoice_id).await {
                tracing::warn!(invoice = %invoice.id, error = format!("{e:#}"), "a spare PayTabs invoice was not cancelled");
            }
            match other.map_err(refused)? {
                Recorded::Kept(link) | Recorded::Other(link) => Ok(Json(RedirectView::new(link))),
            }
        }
    }
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TokenQuery {
    token: Option<String>,
}

/// The browser back from PayTabs after paying an invoice: the signature is checked, PayTabs is
/// asked for the result (the return alone proves nothing) and the same settlement as the
/// callback applies; then the invoice's page.
#[utoipa::path(post, path = "/api/invoices/paytabs-return", tag = "sponsors", params(TokenQuery),
    request_body(content = String, content_type = "application/x-www-form-urlencoded", description = "PayTabs' signed return fields"),
    responses((status = 303, description = "To /invoice?token=…&paid=1 (or without paid=1 when it is not paid; to /invoice for a link that is not valid)"),
              (status = 400, body = ErrorBody, description = "The body is not a form"),
              (status = 413, body = ErrorBody), (status = 415, body = ErrorBody, description = "Not application/x-www-form-urlencoded")))]
pub async fn invoice_return(
    State(state): State<AppState>,
    AppQuery(q): AppQuery<TokenQuery>,
    Form(fields): Form<Vec<(String, String)>>,
) -> AppResult<Redirect> {
    let base = &state.config.public_base_url;
    let token = q.token.unwrap_or_default();
    // A browser coming back is always sent to a page; an invalid link's page says so.
    let Ok(invoice) = invoice_of_token(&state, &token).await else {
        return Ok(Redirect::to(&format!("{base}/invoice")));
    };
    let page = |paid: bool| {
        let encoded: String = token
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '.')
            .collect();
        Redirect::to(&format!(
            "{base}/invoice?token={encoded}{}",
            if paid { "&paid=1" } else { "" }
        ))
    };
    let Some(paytabs) = &state.paytabs else {
        return Ok(page(false));
    };
    let field = |name: &str| {
        fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    if !paytabs::verify_return(paytabs.config.server_key.expose(), &fields)
        || invoice.cart_id.as_deref() != Some(field("cartId").as_str())
    {
        tracing::warn!(invoice = %invoice.id, "invoice return with an invalid signature or another cart; nothing changed");
        return Ok(page(invoice.status == "paid"));
    }
    if invoice.status == "paid" {
        return Ok(page(true));
    }
    match paytabs.query(&field("tranRef")).await {
        Ok((tx, _)) if Some(tx.cart_id.as_str()) == invoice.cart_id.as_deref() => {
            let settled = invoices::apply_paytabs(&state, &PaymentResult::from(&tx)).await?;
            Ok(page(matches!(
                settled,
                invoices::Settled::Paid | invoices::Settled::AlreadyPaid
            )))
        }
        Ok(_) => Ok(page(false)),
        Err(e) => {
            tracing::warn!(invoice = %invoice.id, error = format!("{e:#}"), "PayTabs query failed; the callback will settle");
            Ok(page(false))
        }
    }
}

/// The sponsor's usage report.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SponsorReport {
    sponsor: String,
    generated_at: String,
    expires_at: String,
    executives: Vec<ExecutiveUsage>,
}

async fn report_of(state: &AppState, token: &str) -> AppResult<SponsorReport> {
    let now = chrono::Utc::now();
    let mut conn = state.db.pool.acquire().await?;
    let link = reports::live_link(&mut conn, state.config.app_secret.expose(), token, now)
        .await?
        .ok_or_else(|| AppError::NotFound(REPORT_NOT_FOUND.into()))?;
    let sponsor = records::get(&mut conn, &link.sponsor_id)
        .await?
        .ok_or_else(|| AppError::NotFound(REPORT_NOT_FOUND.into()))?;
    let executives = reports::usage(&mut conn, &sponsor.id, now, state.site().time_zone).await?;
    Ok(SponsorReport {
        sponsor: sponsor.name,
        generated_at: crate::domain::ts(now),
        expires_at: link.expires_at,
        executives,
    })
}

#[utoipa::path(get, path = "/api/sponsor-reports/{token}", tag = "sponsors", params(("token" = String, Path)),
    responses((status = 200, body = SponsorReport),
              (status = 404, body = ErrorBody, description = "Not a valid link, expired, or revoked")))]
pub async fn report(
    State(state): State<AppState>,
    AppPath(token): AppPath,
) -> AppResult<Json<SponsorReport>> {
    Ok(Json(report_of(&state, &token).await?))
}

#[utoipa::path(get, path = "/api/sponsor-reports/{token}/csv", tag = "sponsors", params(("token" = String, Path)),
    responses((status = 200, content_type = "text/csv", body = String),
              (status = 404, body = ErrorBody, description = "Not a valid link, expired, or revoked")))]
pub async fn report_csv(
    State(state): State<AppState>,
    AppPath(token): AppPath,
) -> AppResult<Response> {
    let report = report_of(&state, &token).await?;
    let body = reports::csv(&report.executives)?;
    Ok((
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"coaching-usage.csv\"",
            ),
            (header::CACHE_CONTROL, "no-store"),
        ],
        Body::from(body),
    )
        .into_response())
}
