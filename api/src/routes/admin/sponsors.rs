//! Sponsors, their engagements, invoices and report links, for the admin (issue 23). The
//! rules are `sponsors::*`'; this module reads the bodies once and shapes the answers.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::domain::text::short_text;
use crate::domain::{AmountInput, Email, FieldError, Mail, MoneyView, RecordId};
use crate::email::enqueue_all;
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AdminUser, AppJson, AppPath, AppQuery};
use crate::sponsors::engagements::{self, Engagement, NewEngagement, NewMember, Refused, Who};
use crate::sponsors::invoices::{self, InvoiceRefused};
use crate::sponsors::records::{self, Sponsor, SponsorForm};
use crate::sponsors::reports::{self, ReportLink};
use crate::state::AppState;

// ----------------------------------------------------------------------------------- views

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExecutiveRef {
    client_id: String,
    name: String,
    email: String,
}

/// A sponsor as the admin sees it, with the executives it pays for.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SponsorView {
    id: String,
    name: String,
    contact_name: String,
    contact_email: String,
    contact_phone: Option<String>,
    address: Option<String>,
    tax_id: Option<String>,
    /// The admin's own notes.
    notes: Option<String>,
    /// `en` or `ar`: the language of its emails.
    language: String,
    archived_at: Option<String>,
    created_at: String,
    executives: Vec<ExecutiveRef>,
    engagement_count: i64,
}

#[derive(Serialize, ToSchema)]
pub struct SponsorList {
    sponsors: Vec<SponsorView>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemberView {
    id: String,
    client_id: Option<String>,
    name: Option<String>,
    email: String,
    /// Their share of the engagement's credits.
    credits: i64,
    /// What reached their account as lots.
    granted: i64,
    used: i64,
    remaining: i64,
    joined: bool,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MoveView {
    id: String,
    from_name: String,
    to_name: String,
    credits: i64,
    reason: String,
    created_at: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceLine {
    description: String,
    quantity: i64,
    unit_price: MoneyView,
    amount: MoneyView,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PartyView {
    name: String,
    contact_name: Option<String>,
    contact_email: Option<String>,
    contact_phone: Option<String>,
    address: Option<String>,
    tax_id: Option<String>,
}

/// An invoice, as the admin and the billing contact see it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceView {
    id: String,
    /// `INV-000001`.
    number: String,
    /// `draft`, `sent`, `paid`, `overdue` or `void`.
    status: String,
    issued_on: String,
    due_on: String,
    currency: String,
    lines: Vec<InvoiceLine>,
    subtotal: MoneyView,
    /// In percent; `null`: no VAT.
    vat_rate: Option<f64>,
    vat: Option<MoneyView>,
    total: MoneyView,
    paid_at: Option<String>,
    /// `paytabs` or `transfer`.
    paid_via: Option<String>,
    bank_reference: Option<String>,
    /// The billing contact's link: view, print, pay (no account).
    pay_url: String,
    sponsor: PartyView,
    business: PartyView,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EngagementView {
    id: String,
    sponsor_id: String,
    sponsor_name: String,
    title: String,
    credits: i64,
    allocated: i64,
    pool: i64,
    price: MoneyView,
    validity_months: i64,
    starts_on: String,
    released: bool,
    released_at: Option<String>,
    created_at: String,
    members: Vec<MemberView>,
    moves: Vec<MoveView>,
    /// Every engagement has one, created with it.
    invoice: InvoiceView,
}

#[derive(Serialize, ToSchema)]
pub struct EngagementList {
    engagements: Vec<EngagementView>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedReportLink {
    #[serde(flatten)]
    link: ReportLink,
    /// The report's address, with its token: shown once.
    url: String,
}

#[derive(Serialize, ToSchema)]
pub struct ReportLinks {
    links: Vec<ReportLink>,
}

// ---------------------------------------------------------------------------- shaping

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

fn refused(r: Refused) -> AppError {
    match r {
        Refused::NotFound(m) => AppError::NotFound(m.into()),
        Refused::Conflict(m) => AppError::Conflict(m),
        Refused::Field(e) => AppError::field(&e.field, &e.message),
        Refused::Db(e) => AppError::from(e),
    }
}

fn invoice_refused(r: InvoiceRefused) -> AppError {
    match r {
        InvoiceRefused::NotFound => AppError::NotFound("Invoice not found".into()),
        InvoiceRefused::Conflict(m) => AppError::Conflict(m.into()),
    }
}

fn id_of(raw: &str, what: &str) -> AppResult<String> {
    RecordId::parse(raw)
        .map(|id| id.as_str().to_string())
        .ok_or_else(|| AppError::NotFound(format!("{what} not found")))
}

async fn sponsor_views(
    conn: &mut sqlx::AnyConnection,
    sponsors: Vec<Sponsor>,
) -> AppResult<Vec<SponsorView>> {
    let executives = records::executives(conn).await?;
    let counts: Vec<(String, i64)> = sqlx::query_as(
        "SELECT sponsor_id, CAST(COUNT(*) AS BIGINT) FROM engagements GROUP BY sponsor_id",
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(sponsors
        .into_iter()
        .map(|s| SponsorView {
            executives: executives
                .iter()
                .filter(|e| e.sponsor_id == s.id)
                .map(|e| ExecutiveRef {
                    client_id: e.client_id.clone(),
                    name: e.name.clone(),
                    email: e.email.clone(),
                })
                .collect(),
            engagement_count: counts
                .iter()
                .find(|(id, _)| *id == s.id)
                .map_or(0, |(_, n)| *n),
            language: s.language.as_str().to_string(),
            id: s.id,
            name: s.name,
            contact_name: s.contact_name,
            contact_email: s.contact_email,
            contact_phone: s.contact_phone,
            address: s.address,
            tax_id: s.tax_id,
            notes: s.notes,
            archived_at: s.archived_at,
            created_at: s.created_at,
        })
        .collect())
}

async fn one_sponsor(
    conn: &mut sqlx::AnyConnection,
    sponsor: Sponsor,
) -> AppResult<Json<SponsorView>> {
    let mut views = sponsor_views(conn, vec![sponsor]).await?;
    Ok(Json(views.remove(0)))
}

/// The invoice as its readers see it; `pay_url` carries its signed token.
pub(crate) async fn invoice_view(
    state: &AppState,
    conn: &mut sqlx::AnyConnection,
    invoice: invoices::Invoice,
) -> AppResult<InvoiceView> {
    let engagement = engagements::get(conn, &invoice.engagement_id)
        .await?
        .ok_or_else(|| AppError::NotFound("Invoice not found".into()))?;
    let sponsor = records::get(conn, &engagement.sponsor_id)
        .await?
        .ok_or_else(|| AppError::NotFound("Invoice not found".into()))?;
    let site = state.site();
    let ctx = state.context(&site);
    let money = |minor| MoneyView::new(minor, &invoice.currency);
    let unit = if engagement.credits > 0 {
        invoice.subtotal / engagement.credits
    } else {
        0
    };
    Ok(InvoiceView {
        number: invoices::display_number(invoice.number),
        pay_url: invoices::link(
            &ctx,
            state.config.app_secret.expose(),
            &invoice.id,
            &sponsor,
        ),
        lines: vec![InvoiceLine {
            description: format!(
                "{}: {} coaching sessions",
                engagement.title, engagement.credits
            ),
            quantity: engagement.credits,
            unit_price: money(unit),
            amount: money(invoice.subtotal),
        }],
        subtotal: money(invoice.subtotal),
        vat_rate: invoice.vat_rate_bp.map(|bp| bp as f64 / 100.0),
        vat: invoice.vat_rate_bp.map(|_| money(invoice.vat)),
        total: money(invoice.total),
        sponsor: PartyView {
            name: sponsor.name,
            contact_name: Some(sponsor.contact_name),
            contact_email: Some(sponsor.contact_email),
            contact_phone: sponsor.contact_phone,
            address: sponsor.address,
            tax_id: sponsor.tax_id,
        },
        business: PartyView {
            name: site.business_name.clone(),
            contact_name: None,
            contact_email: Some(site.coach_email.clone()),
            contact_phone: None,
            address: Some(site.business_address.clone()),
            tax_id: site.tax_id.clone(),
        },
        id: invoice.id,
        status: invoice.status,
        issued_on: invoice.issued_on,
        due_on: invoice.due_on,
        currency: invoice.currency.clone(),
        paid_at: invoice.paid_at,
        paid_via: invoice.paid_via,
        bank_reference: invoice.bank_reference,
    })
}

#[derive(sqlx_macros::FromRow)]
struct MoveRow {
    id: String,
    from_name: Option<String>,
    to_name: Option<String>,
    credits: i64,
    reason: String,
    created_at: String,
}

async fn engagement_view(
    state: &AppState,
    conn: &mut sqlx::AnyConnection,
    e: Engagement,
) -> AppResult<EngagementView> {
    let sponsor = records::get(conn, &e.sponsor_id).await?;
    let members = engagements::members(conn, &e.id).await?;
    let usage = engagements::usage(conn, chrono::Utc::now()).await?;
    let moves: Vec<MoveRow> = sqlx::query_as(
        "SELECT v.id, pf.full_name AS from_name, pt.full_name AS to_name, v.credits, v.reason, v.created_at
           FROM engagement_moves v LEFT JOIN profiles pf ON pf.user_id = v.from_client
           LEFT JOIN profiles pt ON pt.user_id = v.to_client
          WHERE v.engagement_id = $1 ORDER BY v.created_at",
    )
    .bind(&e.id)
    .fetch_all(&mut *conn)
    .await?;
    let invoice = invoices::of_engagement(conn, &e.id)
        .await?
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("engagement {} has no invoice", e.id)))?;
    let invoice = invoice_view(state, conn, invoice).await?;
    let allocated: i64 = members.iter().map(|m| m.credits).sum();
    Ok(EngagementView {
        sponsor_name: sponsor.map(|s| s.name).unwrap_or_default(),
        allocated,
        pool: e.credits - allocated,
        price: MoneyView::new(e.price, &e.currency),
        released: e.released_at.is_some(),
        members: members
            .into_iter()
            .map(|m| {
                let u = m.client_id.as_ref().and_then(|c| {
                    usage
                        .iter()
                        .find(|u| &u.client_id == c && u.engagement_id == e.id)
                });
                MemberView {
                    joined: m.client_id.is_some(),
                    used: u.map_or(0, |u| u.used),
                    remaining: u.map_or(0, |u| u.remaining),
                    id: m.id,
                    client_id: m.client_id,
                    name: m.name,
                    email: m.email,
                    credits: m.credits,
                    granted: m.granted,
                }
            })
            .collect(),
        moves: moves
            .into_iter()
            .map(|m| MoveView {
                id: m.id,
                from_name: m.from_name.unwrap_or_default(),
                to_name: m.to_name.unwrap_or_default(),
                credits: m.credits,
                reason: m.reason,
                created_at: m.created_at,
            })
            .collect(),
        invoice,
        id: e.id,
        sponsor_id: e.sponsor_id,
        title: e.title,
        credits: e.credits,
        validity_months: e.validity_months,
        starts_on: e.starts_on,
        released_at: e.released_at,
        created_at: e.created_at,
    })
}

async fn one_engagement(state: &AppState, id: &str) -> AppResult<Json<EngagementView>> {
    let mut conn = state.db.pool.acquire().await?;
    let e = engagements::get(&mut conn, id)
        .await?
        .ok_or_else(|| AppError::NotFound("Engagement not found".into()))?;
    Ok(Json(engagement_view(state, &mut conn, e).await?))
}

/// Queues the change's mail in its transaction, commits, and wakes the mail worker.
async fn commit(
    state: &AppState,
    mut tx: sqlx::Transaction<'static, sqlx::Any>,
    mail: Mail,
) -> AppResult<()> {
    enqueue_all(&mut tx, &mail).await?;
    tx.commit().await?;
    state.wake_mail(&mail);
    Ok(())
}

// ------------------------------------------------------------------------------ sponsors

#[utoipa::path(get, path = "/api/admin/sponsors", tag = "admin",
    responses((status = 200, body = SponsorList), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn list_sponsors(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> AppResult<Json<SponsorList>> {
    let mut conn = state.db.pool.acquire().await?;
    let sponsors = records::list(&mut conn).await?;
    Ok(Json(SponsorList {
        sponsors: sponsor_views(&mut conn, sponsors).await?,
    }))
}

#[utoipa::path(post, path = "/api/admin/sponsors", tag = "admin", request_body = SponsorForm,
    responses((status = 201, body = SponsorView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 422, body = ErrorBody, description = "Each wrong field named"),
              (status = 400, body = ErrorBody, description = "The body is not JSON"), (status = 413, body = ErrorBody), (status = 415, body = ErrorBody, description = "Not JSON")))]
pub async fn create_sponsor(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppJson(body): AppJson<SponsorForm>,
) -> AppResult<(StatusCode, Json<SponsorView>)> {
    let fields = body.parse().map_err(invalid)?;
    let mut conn = state.db.pool.acquire().await?;
    let sponsor = records::insert(&mut conn, &fields, chrono::Utc::now()).await?;
    tracing::info!(sponsor = %sponsor.id, by = %admin.user_id, "sponsor created");
    Ok((StatusCode::CREATED, one_sponsor(&mut conn, sponsor).await?))
}

#[utoipa::path(patch, path = "/api/admin/sponsors/{id}", tag = "admin", params(("id" = String, Path)), request_body = SponsorForm,
    responses((status = 200, body = SponsorView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody),
              (status = 400, body = ErrorBody, description = "The body is not JSON"), (status = 413, body = ErrorBody), (status = 415, body = ErrorBody, description = "Not JSON")))]
pub async fn edit_sponsor(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppPath(raw): AppPath,
    AppJson(body): AppJson<SponsorForm>,
) -> AppResult<Json<SponsorView>> {
    let id = id_of(&raw, "Sponsor")?;
    let fields = body.parse().map_err(invalid)?;
    let mut conn = state.db.pool.acquire().await?;
    let sponsor = records::update(&mut conn, &id, &fields, chrono::Utc::now())
        .await?
        .ok_or_else(|| AppError::NotFound("Sponsor not found".into()))?;
    one_sponsor(&mut conn, sponsor).await
}

#[utoipa::path(post, path = "/api/admin/sponsors/{id}/archive", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = SponsorView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "Already archived")))]
pub async fn archive_sponsor(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppPath(raw): AppPath,
) -> AppResult<Json<SponsorView>> {
    let id = id_of(&raw, "Sponsor")?;
    let mut conn = state.db.pool.acquire().await?;
    let sponsor = records::get(&mut conn, &id)
        .await?
        .ok_or_else(|| AppError::NotFound("Sponsor not found".into()))?;
    if !records::archive(&mut conn, &id, chrono::Utc::now()).await? {
        return Err(AppError::Conflict(
            "This sponsor is already archived".into(),
        ));
    }
    let sponsor = records::get(&mut conn, &id).await?.unwrap_or(sponsor);
    one_sponsor(&mut conn, sponsor).await
}

// --------------------------------------------------------------------------- engagements

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct EngagementFilter {
    sponsor_id: Option<String>,
}

#[utoipa::path(get, path = "/api/admin/engagements", tag = "admin", params(EngagementFilter),
    responses((status = 200, body = EngagementList), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 400, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn list_engagements(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppQuery(filter): AppQuery<EngagementFilter>,
) -> AppResult<Json<EngagementList>> {
    let mut conn = state.db.pool.acquire().await?;
    let sponsor = filter.sponsor_id.as_deref().and_then(RecordId::parse);
    if filter.sponsor_id.is_some() && sponsor.is_none() {
        return Ok(Json(EngagementList {
            engagements: vec![],
        }));
    }
    let list = engagements::list(&mut conn, sponsor.as_ref().map(RecordId::as_str)).await?;
    let mut out = Vec::with_capacity(list.len());
    for e in list {
        out.push(engagement_view(&state, &mut conn, e).await?);
    }
    Ok(Json(EngagementList { engagements: out }))
}

#[utoipa::path(get, path = "/api/admin/engagements/{id}", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = EngagementView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn engagement(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppPath(raw): AppPath,
) -> AppResult<Json<EngagementView>> {
    one_engagement(&state, &id_of(&raw, "Engagement")?).await
}

/// An executive of a new engagement: an existing client, or an email to invite.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemberInput {
    client_id: Option<String>,
    email: Option<String>,
    credits: Option<i64>,
}

impl MemberInput {
    fn parse(self, field: &str) -> Result<NewMember, FieldError> {
        let credits = self.credits.unwrap_or(0);
        if !(1..=engagements::MAX_CREDITS).contains(&credits) {
            return Err(FieldError::new(
                field,
                "Each executive's credits must be 1 to 1000",
            ));
        }
        let who = match (
            self.client_id.as_deref().map(str::trim),
            self.email.as_deref(),
        ) {
            (Some(id), _) if !id.is_empty() => Who::Client(
                RecordId::parse(id)
                    .ok_or_else(|| FieldError::new(field, "This client does not exist"))?
                    .as_str()
                    .to_string(),
            ),
            (_, Some(email)) => Who::Invite(
                Email::parse(email)
                    .ok_or_else(|| FieldError::new(field, "Invalid email address"))?,
            ),
            _ => return Err(FieldError::new(field, "Choose a client or give an email")),
        };
        Ok(NewMember { who, credits })
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateEngagement {
    sponsor_id: Option<String>,
    #[schema(max_length = 120)]
    title: Option<String>,
    credits: Option<i64>,
    /// The whole engagement's price in EGP (e.g. `60000` or `"60000.00"`), before VAT.
    #[serde(default)]
    price: AmountInput,
    validity_months: Option<i64>,
    /// `YYYY-MM-DD`.
    starts_on: Option<String>,
    /// Days from today to the invoice's due date (default 14).
    due_days: Option<i64>,
    #[serde(default)]
    members: Vec<MemberInput>,
}

impl CreateEngagement {
    fn parse(self) -> Result<NewEngagement, Vec<FieldError>> {
        let mut errors = Vec::new();
        let title = match short_text("title", self.title.as_deref(), 120) {
            Ok(Some(t)) => t,
            Ok(None) => {
                errors.push(FieldError::new("title", "Title is required"));
                String::new()
            }
            Err(e) => {
                errors.push(e);
                String::new()
            }
        };
        let credits = self.credits.unwrap_or(0);
        if !(1..=engagements::MAX_CREDITS).contains(&credits) {
            errors.push(FieldError::new("credits", "Credits must be 1 to 1000"));
        }
        let price = match self.price.read() {
            Some(Ok(p)) => p,
            _ => {
                errors.push(FieldError::new(
                    "price",
                    "Price must be 0 or more, in steps of 0.01",
                ));
                crate::domain::Money(0)
            }
        };
        let validity = self.validity_months.unwrap_or(12);
        if !(1..=60).contains(&validity) {
            errors.push(FieldError::new(
                "validityMonths",
                "Validity must be 1 to 60 months",
            ));
        }
        let starts_on = self
            .starts_on
            .as_deref()
            .and_then(|d| NaiveDate::parse_from_str(d.trim(), "%Y-%m-%d").ok());
        if starts_on.is_none() {
            errors.push(FieldError::new("startsOn", "Give a start date"));
        }
        let due_days = self.due_days.unwrap_or(14);
        if !(0..=365).contains(&due_days) {
            errors.push(FieldError::new("dueDays", "Due in 0 to 365 days"));
        }
        let sponsor_id = self.sponsor_id.as_deref().and_then(RecordId::parse);
        if sponsor_id.is_none() {
            errors.push(FieldError::new("sponsorId", "Choose a sponsor"));
        }
        let mut members = Vec::new();
        for (i, m) in self.members.into_iter().enumerate() {
            match m.parse(&format!("members[{i}]")) {
                Ok(m) => members.push(m),
                Err(e) => errors.push(e),
            }
        }
        match (sponsor_id, starts_on) {
            (Some(sponsor_id), Some(starts_on)) if errors.is_empty() => Ok(NewEngagement {
                sponsor_id: sponsor_id.as_str().to_string(),
                title,
                credits,
                price,
                validity_months: u32::try_from(validity).unwrap_or(12),
                starts_on,
                due_days,
                members,
            }),
            _ => Err(errors),
        }
    }
}

#[utoipa::path(post, path = "/api/admin/engagements", tag = "admin", request_body = CreateEngagement,
    responses((status = 201, body = EngagementView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody, description = "No such sponsor"),
              (status = 409, body = ErrorBody, description = "This sponsor is archived"),
              (status = 422, body = ErrorBody, description = "Each wrong field named; members' credits over the engagement's"),
              (status = 400, body = ErrorBody, description = "The body is not JSON"), (status = 413, body = ErrorBody), (status = 415, body = ErrorBody, description = "Not JSON")))]
pub async fn create_engagement(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppJson(body): AppJson<CreateEngagement>,
) -> AppResult<(StatusCode, Json<EngagementView>)> {
    let new = body.parse().map_err(invalid)?;
    let site = state.site();
    let ctx = state.context(&site);
    let mut tx = state.db.pool.begin().await?;
    let (id, mail) = engagements::create(&mut tx, &ctx, &new, &admin.user_id)
        .await
        .map_err(refused)?;
    let engagement = engagements::get(&mut tx, &id)
        .await?
        .ok_or_else(|| AppError::NotFound("Engagement not found".into()))?;
    invoices::create(&mut tx, &ctx, &engagement, new.due_days).await?;
    commit(&state, tx, mail).await?;
    tracing::info!(engagement = %id, by = %admin.user_id, "engagement created");
    Ok((StatusCode::CREATED, one_engagement(&state, &id).await?))
}

#[utoipa::path(post, path = "/api/admin/engagements/{id}/release", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = EngagementView, description = "The credits reached the executives, on credit"),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody, description = "Already released")))]
pub async fn release_engagement(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppPath(raw): AppPath,
) -> AppResult<Json<EngagementView>> {
    let id = id_of(&raw, "Engagement")?;
    let site = state.site();
    let ctx = state.context(&site);
    let mut tx = state.db.pool.begin().await?;
    let released = engagements::release(&mut tx, &ctx, &id)
        .await
        .map_err(refused)?;
    commit(&state, tx, Vec::new()).await?;
    if !released {
        return Err(AppError::Conflict(
            "The credits are already released".into(),
        ));
    }
    one_engagement(&state, &id).await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Allocate {
    client_id: Option<String>,
    email: Option<String>,
    credits: Option<i64>,
}

#[utoipa::path(post, path = "/api/admin/engagements/{id}/allocate", tag = "admin", params(("id" = String, Path)), request_body = Allocate,
    responses((status = 200, body = EngagementView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody, description = "More than the pool holds"),
              (status = 400, body = ErrorBody, description = "The body is not JSON"), (status = 413, body = ErrorBody), (status = 415, body = ErrorBody, description = "Not JSON")))]
pub async fn allocate(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppPath(raw): AppPath,
    AppJson(body): AppJson<Allocate>,
) -> AppResult<Json<EngagementView>> {
    let id = id_of(&raw, "Engagement")?;
    let member = MemberInput {
        client_id: body.client_id,
        email: body.email,
        credits: body.credits,
    };
    let credits_field = |e: FieldError| {
        let field = if e.message.contains("credits") {
            "credits"
        } else {
            "clientId"
        };
        AppError::field(field, &e.message)
    };
    let member = member.parse("member").map_err(credits_field)?;
    let site = state.site();
    let ctx = state.context(&site);
    let mut tx = state.db.pool.begin().await?;
    let mail = engagements::allocate(&mut tx, &ctx, &id, &member.who, member.credits)
        .await
        .map_err(refused)?;
    commit(&state, tx, mail).await?;
    one_engagement(&state, &id).await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MoveCredits {
    from_client_id: Option<String>,
    to_client_id: Option<String>,
    credits: Option<i64>,
    /// Required: the ledger keeps it.
    #[schema(max_length = 500)]
    reason: Option<String>,
}

#[utoipa::path(post, path = "/api/admin/engagements/{id}/move", tag = "admin", params(("id" = String, Path)), request_body = MoveCredits,
    responses((status = 200, body = EngagementView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody, description = "No reason, a client outside the engagement, or more than the giver's unused credits"),
              (status = 400, body = ErrorBody, description = "The body is not JSON"), (status = 413, body = ErrorBody), (status = 415, body = ErrorBody, description = "Not JSON")))]
pub async fn move_credits(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppPath(raw): AppPath,
    AppJson(body): AppJson<MoveCredits>,
) -> AppResult<Json<EngagementView>> {
    let id = id_of(&raw, "Engagement")?;
    let reason = crate::domain::Notes::parse_optional("reason", body.reason.as_deref(), 500)?
        .ok_or_else(|| AppError::field("reason", "A reason is required"))?;
    let credits = body.credits.unwrap_or(0);
    if !(1..=engagements::MAX_CREDITS).contains(&credits) {
        return Err(AppError::field("credits", "Credits must be 1 to 1000"));
    }
    let client = |raw: Option<String>, field: &str| {
        raw.as_deref()
            .and_then(RecordId::parse)
            .map(|r| r.as_str().to_string())
            .ok_or_else(|| AppError::field(field, "This client is not in the engagement"))
    };
    let from = client(body.from_client_id, "fromClientId")?;
    let to = client(body.to_client_id, "toClientId")?;
    let mv = engagements::Move {
        from_client: &from,
        to_client: &to,
        credits,
        reason: reason.as_str(),
        admin_id: &admin.user_id,
    };
    let site = state.site();
    let ctx = state.context(&site);
    let mut tx = state.db.pool.begin().await?;
    engagements::move_credits(&mut tx, &ctx, &id, &mv)
        .await
        .map_err(refused)?;
    commit(&state, tx, Vec::new()).await?;
    tracing::info!(engagement = %id, credits, by = %admin.user_id, "engagement credits moved");
    one_engagement(&state, &id).await
}

// ------------------------------------------------------------------------------ invoices

/// The invoice `raw`, after `change`.
async fn invoice_after(state: &AppState, id: &str) -> AppResult<Json<InvoiceView>> {
    let mut conn = state.db.pool.acquire().await?;
    let invoice = invoices::get(&mut conn, id)
        .await?
        .ok_or_else(|| AppError::NotFound("Invoice not found".into()))?;
    Ok(Json(invoice_view(state, &mut conn, invoice).await?))
}

#[utoipa::path(post, path = "/api/admin/invoices/{id}/send", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = InvoiceView, description = "Emailed to the billing contact"), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn send_invoice(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppPath(raw): AppPath,
) -> AppResult<Json<InvoiceView>> {
    let id = id_of(&raw, "Invoice")?;
    let secret = state.config.app_secret.expose().to_string();
    let site = state.site();
    let ctx = state.context(&site);
    let mut tx = state.db.pool.begin().await?;
    let mail = invoices::send(&mut tx, &ctx, &secret, &id)
        .await?
        .map_err(invoice_refused)?;
    commit(&state, tx, mail).await?;
    invoice_after(&state, &id).await
}

#[utoipa::path(post, path = "/api/admin/invoices/{id}/void", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = InvoiceView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "A paid invoice cannot be voided")))]
pub async fn void_invoice(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppPath(raw): AppPath,
) -> AppResult<Json<InvoiceView>> {
    let id = id_of(&raw, "Invoice")?;
    let site = state.site();
    let ctx = state.context(&site);
    let mut tx = state.db.pool.begin().await?;
    let paytabs_invoice = invoices::void(&mut tx, &ctx, &id)
        .await?
        .map_err(invoice_refused)?;
    commit(&state, tx, Vec::new()).await?;
    // PayTabs' invoice stops taking payments too. Should PayTabs not answer, a payment made on
    // it anyway finds a void invoice and releases nothing.
    if let (Some(paytabs_id), Some(paytabs)) = (paytabs_invoice, &state.paytabs)
        && let Err(e) = paytabs.cancel_invoice(paytabs_id).await
    {
        tracing::warn!(invoice = %id, error = format!("{e:#}"), "PayTabs' invoice was not cancelled");
    }
    invoice_after(&state, &id).await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarkPaid {
    /// The bank's or InstaPay's reference, if any.
    #[schema(max_length = 100)]
    bank_reference: Option<String>,
}

#[utoipa::path(post, path = "/api/admin/invoices/{id}/mark-paid", tag = "admin", params(("id" = String, Path)), request_body = MarkPaid,
    responses((status = 200, body = InvoiceView, description = "Paid by bank transfer: the credits reach the executives"),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody, description = "Already paid, or void"), (status = 422, body = ErrorBody),
              (status = 400, body = ErrorBody, description = "The body is not JSON"), (status = 413, body = ErrorBody), (status = 415, body = ErrorBody, description = "Not JSON")))]
pub async fn mark_invoice_paid(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppPath(raw): AppPath,
    AppJson(body): AppJson<MarkPaid>,
) -> AppResult<Json<InvoiceView>> {
    let id = id_of(&raw, "Invoice")?;
    let reference = short_text("bankReference", body.bank_reference.as_deref(), 100)?;
    let secret = state.config.app_secret.expose().to_string();
    let site = state.site();
    let ctx = state.context(&site);
    let mut tx = state.db.pool.begin().await?;
    let mail = invoices::mark_paid(&mut tx, &ctx, &secret, &id, reference.as_deref())
        .await?
        .map_err(invoice_refused)?;
    commit(&state, tx, mail).await?;
    tracing::info!(invoice = %id, by = %admin.user_id, "invoice marked paid by transfer");
    invoice_after(&state, &id).await
}

// --------------------------------------------------------------------------- report links

#[derive(Deserialize, ToSchema)]
pub struct NewReportLink {
    /// Days until it expires: 1 to 365 (default 30).
    days: Option<i64>,
}

#[utoipa::path(post, path = "/api/admin/sponsors/{id}/report-links", tag = "admin", params(("id" = String, Path)), request_body = NewReportLink,
    responses((status = 201, body = CreatedReportLink), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody),
              (status = 400, body = ErrorBody, description = "The body is not JSON"), (status = 413, body = ErrorBody), (status = 415, body = ErrorBody, description = "Not JSON")))]
pub async fn create_report_link(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppPath(raw): AppPath,
    AppJson(body): AppJson<NewReportLink>,
) -> AppResult<(StatusCode, Json<CreatedReportLink>)> {
    let id = id_of(&raw, "Sponsor")?;
    let days = body.days.unwrap_or(30);
    if !(1..=365).contains(&days) {
        return Err(AppError::field("days", "The link lasts 1 to 365 days"));
    }
    let mut conn = state.db.pool.acquire().await?;
    let sponsor = records::get(&mut conn, &id)
        .await?
        .ok_or_else(|| AppError::NotFound("Sponsor not found".into()))?;
    let link = reports::create(&mut conn, &id, days, &admin.user_id, chrono::Utc::now()).await?;
    let token = reports::token(state.config.app_secret.expose(), &link.id);
    let url = sponsor.language.page(
        &state.config.public_base_url,
        &format!("/sponsor-report?token={token}"),
    );
    Ok((StatusCode::CREATED, Json(CreatedReportLink { link, url })))
}

#[utoipa::path(get, path = "/api/admin/sponsors/{id}/report-links", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = ReportLinks), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody, description = "Not a sponsor's id")))]
pub async fn report_links(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppPath(raw): AppPath,
) -> AppResult<Json<ReportLinks>> {
    let id = id_of(&raw, "Sponsor")?;
    let mut conn = state.db.pool.acquire().await?;
    Ok(Json(ReportLinks {
        links: reports::list(&mut conn, &id).await?,
    }))
}

#[utoipa::path(post, path = "/api/admin/report-links/{id}/revoke", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = ReportLink), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn revoke_report_link(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppPath(raw): AppPath,
) -> AppResult<Json<ReportLink>> {
    let id = id_of(&raw, "Report link")?;
    let mut conn = state.db.pool.acquire().await?;
    let link = reports::revoke(&mut conn, &id, chrono::Utc::now())
        .await?
        .ok_or_else(|| AppError::NotFound("Report link not found".into()))?;
    Ok(Json(link))
}
