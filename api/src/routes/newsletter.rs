//! Newsletter with double opt-in (docs/integrations.md §4.1): subscribe → an emailed link to a page
//! that POSTs the token (mail scanners prefetch GET links) → subscribed. The answer to
//! subscribe is the same whether or not the address is known. One-click unsubscribe
//! (RFC 8058) with the token every email carries. The subscriber's language (the page's, which
//! the form sends) is kept with the address: the confirmation email, its link and the
//! unsubscribe pages are in it.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Html;
use chrono::Utc;
use serde::Deserialize;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::common::{Status, optional};
use crate::domain::{Email, Language, hash_token, new_id, new_token, now, ts};
use crate::email::templates::escape;
use crate::email::{enqueue, templates};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AppJson, AppQuery, ClientIp};
use crate::rate_limit::limits;
use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Each route once: its path and method come from the handler's `#[utoipa::path]`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(subscribe))
        .routes(routes!(confirm))
        .routes(routes!(unsubscribe, unsubscribe_page))
}

const CONFIRM_HOURS: i64 = 72;

#[derive(Deserialize, ToSchema)]
pub struct Subscribe {
    email: Option<String>,
    /// Where the form was (e.g. `footer`), kept as consent evidence.
    source: Option<String>,
    /// The language of the page the form is on: `en` (default) or `ar`.
    #[schema(value_type = Option<Language>)]
    language: Option<String>,
}

/// A subscription request: the address (required, valid), where the form was and its
/// language.
struct Subscription {
    email: Email,
    /// At most 40 characters.
    source: Option<String>,
    language: Language,
}

impl TryFrom<Subscribe> for Subscription {
    type Error = AppError;

    fn try_from(body: Subscribe) -> Result<Subscription, AppError> {
        let raw = optional(body.email)
            .ok_or_else(|| AppError::field("email", "Email address is required to subscribe."))?;
        let email = Email::parse(&raw)
            .ok_or_else(|| AppError::field("email", "Please enter a valid email address."))?;
        let source = optional(body.source).map(|s| s.chars().take(40).collect::<String>());
        let language =
            Language::parse_field("language", body.language.as_deref())?.unwrap_or_default();
        Ok(Subscription {
            email,
            source,
            language,
        })
    }
}

#[utoipa::path(post, path = "/api/newsletter/subscribe", tag = "newsletter", request_body = Subscribe,
    responses((status = 202, body = Status, description = "check_your_email, whatever the address's state"),
              (status = 422, body = ErrorBody, description = "'Email address is required to subscribe.' or 'Please enter a valid email address.'"),
              (status = 429, body = ErrorBody)))]
pub async fn subscribe(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<Subscribe>,
) -> AppResult<(StatusCode, Json<Status>)> {
    let subscription = Subscription::try_from(body)?;
    state
        .limiter
        .check("newsletter_ip", &ip, limits::NEWSLETTER_IP)
        .await?;
    let accepted = (
        StatusCode::ACCEPTED,
        Json(Status {
            status: "check_your_email",
        }),
    );
    let email = subscription.email.as_str();
    if state
        .limiter
        .check("newsletter_email", email, limits::NEWSLETTER_EMAIL)
        .await
        .is_err()
    {
        return Ok(accepted);
    }
    let (token, token_hash) = new_token();
    let pending = Pending {
        email,
        token_hash: &token_hash,
        expires: ts(Utc::now() + chrono::Duration::hours(CONFIRM_HOURS)),
        ip: &ip,
        source: subscription.source.as_deref(),
        language: subscription.language,
        now: now(),
    };
    let mut tx = state.db.pool.begin().await?;
    let Some(unsubscribe_token) = mark_pending(&mut tx, &pending).await? else {
        return Ok(accepted); // nothing visible changes for a subscriber
    };
    let mail = confirmation(
        &state,
        subscription.language,
        email,
        &token,
        &unsubscribe_token,
    );
    enqueue(&mut tx, &mail).await?;
    tx.commit().await?;
    state.mail_wake.notify_one();
    Ok(accepted)
}

/// The email with the confirmation link (and, like every newsletter email, the unsubscribe
/// link), in `lang`: the link leads to the confirmation page in it.
fn confirmation(
    state: &AppState,
    lang: Language,
    email: &str,
    token: &str,
    unsubscribe_token: &str,
) -> crate::email::OutgoingEmail {
    let base = &state.config.public_base_url;
    let confirm_link = lang.page(base, &format!("/newsletter/confirm?token={token}"));
    let unsubscribe_link = format!("{base}/api/newsletter/unsubscribe?t={unsubscribe_token}");
    templates::newsletter_confirmation(
        lang,
        &state.site().name,
        email,
        &confirm_link,
        &unsubscribe_link,
    )
}

/// An address waiting for its confirmation, with the consent evidence.
struct Pending<'a> {
    email: &'a str,
    token_hash: &'a str,
    expires: String,
    ip: &'a str,
    source: Option<&'a str>,
    language: Language,
    now: String,
}

/// Makes the address pending with a new confirmation token (a new row, or a known address
/// that is not subscribed); its unsubscribe token, or `None` for an address already subscribed.
async fn mark_pending(
    conn: &mut AnyConnection,
    p: &Pending<'_>,
) -> Result<Option<String>, sqlx::Error> {
    let existing: Option<(String, String)> = sqlx::query_as(
        "SELECT status, unsubscribe_token FROM newsletter_subscribers WHERE email = $1",
    )
    .bind(p.email)
    .fetch_optional(&mut *conn)
    .await?;
    match existing {
        Some((status, _)) if status == "subscribed" => Ok(None),
        Some((_, unsubscribe_token)) => {
            sqlx::query(
                "UPDATE newsletter_subscribers SET status = 'pending', confirm_token_hash = $1, confirm_expires_at = $2,
                        consent_ip = $3, consent_source = $4, updated_at = $5, language = $7 WHERE email = $6",
            )
            .bind(p.token_hash)
            .bind(&p.expires)
            .bind(p.ip)
            .bind(p.source)
            .bind(&p.now)
            .bind(p.email)
            .bind(p.language.as_str())
            .execute(&mut *conn)
            .await?;
            Ok(Some(unsubscribe_token))
        }
        None => insert_pending(conn, p).await.map(Some),
    }
}

/// A new pending row with a new unsubscribe token, which it returns.
async fn insert_pending(conn: &mut AnyConnection, p: &Pending<'_>) -> Result<String, sqlx::Error> {
    let unsubscribe_token = new_token().0;
    sqlx::query(
        "INSERT INTO newsletter_subscribers (id, email, status, confirm_token_hash, confirm_expires_at, unsubscribe_token,
                consent_ip, consent_source, created_at, updated_at, language)
         VALUES ($1, $2, 'pending', $3, $4, $5, $6, $7, $8, $8, $9)",
    )
    .bind(new_id())
    .bind(p.email)
    .bind(p.token_hash)
    .bind(&p.expires)
    .bind(&unsubscribe_token)
    .bind(p.ip)
    .bind(p.source)
    .bind(&p.now)
    .bind(p.language.as_str())
    .execute(&mut *conn)
    .await?;
    Ok(unsubscribe_token)
}

#[derive(Deserialize, ToSchema)]
pub struct Confirm {
    token: Option<String>,
}

/// Called by the /newsletter/confirm page's button. Idempotent for a used link's subscriber.
#[utoipa::path(post, path = "/api/newsletter/confirm", tag = "newsletter", request_body = Confirm,
    responses((status = 200, body = Status, description = "subscribed"), (status = 400, body = ErrorBody, description = "Invalid or expired link")))]
pub async fn confirm(
    State(state): State<AppState>,
    AppJson(body): AppJson<Confirm>,
) -> AppResult<Json<Status>> {
    let invalid =
        || AppError::BadRequest("This confirmation link is invalid or has expired.".into());
    let token = optional(body.token).ok_or_else(invalid)?;
    let now = now();
    let updated = sqlx::query(
        "UPDATE newsletter_subscribers
            SET status = 'subscribed', confirmed_at = $1, consent_at = $1, confirm_token_hash = NULL,
                confirm_expires_at = NULL, unsubscribed_at = NULL, updated_at = $1
          WHERE confirm_token_hash = $2 AND confirm_expires_at > $1",
    )
    .bind(&now)
    .bind(hash_token(&token))
    .execute(&state.db.pool)
    .await?;
    if updated.rows_affected() == 0 {
        return Err(invalid());
    }
    Ok(Json(Status {
        status: "subscribed",
    }))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UnsubscribeQuery {
    t: Option<String>,
}

/// The language of the subscriber whose unsubscribe token this is; the default for an unknown
/// token (or when the database cannot say: the page is still served).
async fn subscriber_language(state: &AppState, t: Option<&str>) -> Language {
    let Some(t) = t.filter(|t| !t.is_empty()) else {
        return Language::En;
    };
    let stored: Option<String> = sqlx::query_scalar(
        "SELECT language FROM newsletter_subscribers WHERE unsubscribe_token = $1",
    )
    .bind(t)
    .fetch_optional(state.db.reader())
    .await
    .ok()
    .flatten();
    stored.and_then(|s| Language::parse(&s)).unwrap_or_default()
}

/// The unsubscribe pages' words, in each language.
struct PageWords {
    unsubscribe: &'static str,
    question: &'static str,
    done_title: &'static str,
    done_body: &'static str,
}

fn words(lang: Language) -> PageWords {
    match lang {
        Language::En => PageWords {
            unsubscribe: "Unsubscribe",
            question: "Stop receiving leadership insights by email?",
            done_title: "You have been unsubscribed",
            done_body: "You will not receive further newsletters. You can subscribe again at any time from the website.",
        },
        Language::Ar => PageWords {
            unsubscribe: "إلغاء الاشتراك",
            question: "إيقاف تلقي رؤى القيادة عبر البريد الإلكتروني؟",
            done_title: "تم إلغاء اشتراكك",
            done_body: "لن تصلك رسائل النشرة بعد الآن، ويمكنك الاشتراك من جديد في أي وقت من خلال الموقع الإلكتروني.",
        },
    }
}

fn page(lang: Language, site: &str, title: &str, body: &str) -> Html<String> {
    if lang == Language::Ar {
        return Html(format!(
            "<!doctype html><html lang=\"ar\" dir=\"rtl\"><head><meta charset=\"utf-8\"><link rel=\"icon\" href=\"data:,\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"robots\" content=\"noindex\">\
<title>{title} | {site}</title></head><body style=\"font-family:Tahoma,system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1c2433\">\
<h1 style=\"font-family:Georgia,Tahoma,serif\">{title}</h1>{body}</body></html>",
            site = escape(site),
            title = escape(title)
        ));
    }
    Html(format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><link rel=\"icon\" href=\"data:,\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"robots\" content=\"noindex\">\
<title>{title} | {site}</title></head><body style=\"font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1c2433\">\
<h1 style=\"font-family:Georgia,serif\">{title}</h1>{body}</body></html>",
        site = escape(site),
        title = escape(title)
    ))
}

/// The link in every email: a page with one button, so a prefetching scanner unsubscribes no one.
#[utoipa::path(get, path = "/api/newsletter/unsubscribe", tag = "newsletter", params(UnsubscribeQuery),
    responses((status = 200, description = "HTML page with an Unsubscribe button")))]
pub async fn unsubscribe_page(
    State(state): State<AppState>,
    AppQuery(q): AppQuery<UnsubscribeQuery>,
) -> Html<String> {
    let lang = subscriber_language(&state, q.t.as_deref()).await;
    let w = words(lang);
    let t = escape(q.t.as_deref().unwrap_or(""));
    page(
        lang,
        &state.site().name,
        w.unsubscribe,
        &format!(
            "<p>{question}</p><form method=\"post\" action=\"/api/newsletter/unsubscribe?t={t}\">\
<input type=\"hidden\" name=\"List-Unsubscribe\" value=\"One-Click\"><button type=\"submit\" style=\"font-size:1rem;padding:.6rem 1.2rem\">{button}</button></form>",
            question = w.question,
            button = w.unsubscribe,
        ),
    )
}

/// RFC 8058 one-click unsubscribe (mail clients POST `List-Unsubscribe=One-Click`), and the
/// page's button. The token in the link is the authority; no cookie or Origin is involved.
#[utoipa::path(post, path = "/api/newsletter/unsubscribe", tag = "newsletter", params(UnsubscribeQuery),
    responses((status = 200, description = "Unsubscribed (also for an unknown token, revealing nothing)")))]
pub async fn unsubscribe(
    State(state): State<AppState>,
    AppQuery(q): AppQuery<UnsubscribeQuery>,
) -> AppResult<Html<String>> {
    let lang = subscriber_language(&state, q.t.as_deref()).await;
    if let Some(t) = q.t.filter(|t| !t.is_empty()) {
        let now = now();
        sqlx::query(
            "UPDATE newsletter_subscribers SET status = 'unsubscribed', unsubscribed_at = $1, confirm_token_hash = NULL, updated_at = $1
              WHERE unsubscribe_token = $2 AND status <> 'unsubscribed'",
        )
        .bind(&now)
        .bind(&t)
        .execute(&state.db.pool)
        .await?;
    }
    let w = words(lang);
    Ok(page(
        lang,
        &state.site().name,
        w.done_title,
        &format!("<p>{}</p>", w.done_body),
    ))
}
