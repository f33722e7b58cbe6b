//! The sponsor's usage report: a link that needs no account, signed with the API's secret,
//! revocable by the admin and expiring after the days the admin chose. It shows, for this
//! sponsor's engagements only, each executive's credits, used and remaining, and the dates of
//! the sessions those credits paid for: never notes, titles, meeting links, another sponsor's
//! executives, or the sessions an executive paid for themselves.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::invoices::{sign, verify};
use crate::domain::text::text_cell;
use crate::domain::{new_id, parse_ts, ts};

/// A report link as the admin sees it (the token only when it is created).
#[derive(Debug, Clone, Serialize, ToSchema, sqlx_macros::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct ReportLink {
    pub id: String,
    #[serde(skip)]
    pub sponsor_id: String,
    pub created_at: String,
    pub expires_at: String,
    pub revoked_at: Option<String>,
}

const COLUMNS: &str = "id, sponsor_id, created_at, expires_at, revoked_at";

/// The token of a report link.
pub fn token(secret: &str, link_id: &str) -> String {
    sign(secret, "sponsor-report", link_id)
}

pub async fn create(
    conn: &mut AnyConnection,
    sponsor_id: &str,
    days: i64,
    admin_id: &str,
    now: DateTime<Utc>,
) -> Result<ReportLink, sqlx::Error> {
    let id = new_id();
    sqlx::query(
        "INSERT INTO sponsor_report_links (id, sponsor_id, expires_at, created_by, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&id)
    .bind(sponsor_id)
    .bind(ts(now + chrono::Duration::days(days)))
    .bind(admin_id)
    .bind(ts(now))
    .execute(&mut *conn)
    .await?;
    Ok(get(conn, &id).await?.expect("just inserted"))
}

pub async fn get(conn: &mut AnyConnection, id: &str) -> Result<Option<ReportLink>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM sponsor_report_links WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(conn)
    .await
}

pub async fn list(
    conn: &mut AnyConnection,
    sponsor_id: &str,
) -> Result<Vec<ReportLink>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM sponsor_report_links WHERE sponsor_id = $1 ORDER BY created_at DESC, id"
    ))
    .bind(sponsor_id)
    .fetch_all(conn)
    .await
}

/// Revokes the link (once; revoking again keeps the first moment).
pub async fn revoke(
    conn: &mut AnyConnection,
    id: &str,
    now: DateTime<Utc>,
) -> Result<Option<ReportLink>, sqlx::Error> {
    sqlx::query(
        "UPDATE sponsor_report_links SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2",
    )
    .bind(ts(now))
    .bind(id)
    .execute(&mut *conn)
    .await?;
    get(conn, id).await
}

/// The live link a token names: its signature holds, it is not revoked and not expired.
pub async fn live_link(
    conn: &mut AnyConnection,
    secret: &str,
    token: &str,
    now: DateTime<Utc>,
) -> Result<Option<ReportLink>, sqlx::Error> {
    let Some(id) = verify(secret, "sponsor-report", token) else {
        return Ok(None);
    };
    let link = get(conn, &id).await?;
    Ok(link
        .filter(|l| l.revoked_at.is_none() && parse_ts(&l.expires_at).is_some_and(|at| at > now)))
}

/// One executive's line of the report.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExecutiveUsage {
    pub name: String,
    /// The engagement's title.
    pub engagement: String,
    /// The engagement's credits given to this executive.
    pub credits: i64,
    pub used: i64,
    pub remaining: i64,
    /// Days (`YYYY-MM-DD`, the coach's time zone) of the sessions these credits paid for.
    pub past_sessions: Vec<String>,
    pub upcoming_sessions: Vec<String>,
}

#[derive(sqlx_macros::FromRow)]
struct MemberRow {
    client_id: String,
    name: String,
    engagement_id: String,
    title: String,
    credits: i64,
}

/// The report of the link's sponsor, as of `now`.
pub async fn usage(
    conn: &mut AnyConnection,
    sponsor_id: &str,
    now: DateTime<Utc>,
    tz: chrono_tz::Tz,
) -> Result<Vec<ExecutiveUsage>, sqlx::Error> {
    let members: Vec<MemberRow> = sqlx::query_as(
        "SELECT m.client_id, p.full_name AS name, e.id AS engagement_id, e.title, m.credits
           FROM engagement_members m JOIN engagements e ON e.id = m.engagement_id
           JOIN profiles p ON p.user_id = m.client_id
          WHERE e.sponsor_id = $1 AND m.client_id IS NOT NULL
          ORDER BY e.created_at, p.full_name, m.client_id",
    )
    .bind(sponsor_id)
    .fetch_all(&mut *conn)
    .await?;
    let usage = super::engagements::usage(conn, now).await?;
    let mut out = Vec::with_capacity(members.len());
    for m in members {
        let u = usage
            .iter()
            .find(|u| u.client_id == m.client_id && u.engagement_id == m.engagement_id);
        // Only the sessions this engagement's credits paid for, never cancelled ones.
        let sessions: Vec<String> = sqlx::query_scalar(
            "SELECT b.session_date FROM bookings b JOIN credit_lots k ON k.id = b.credit_lot_id
              WHERE k.engagement_id = $1 AND b.client_id = $2 AND b.status <> 'cancelled' AND b.disowned_at IS NULL
              ORDER BY b.session_date",
        )
        .bind(&m.engagement_id)
        .bind(&m.client_id)
        .fetch_all(&mut *conn)
        .await?;
        let (mut past, mut upcoming) = (Vec::new(), Vec::new());
        for at in sessions.iter().filter_map(|s| parse_ts(s)) {
            let day = at.with_timezone(&tz).date_naive().to_string();
            if at < now {
                past.push(day)
            } else {
                upcoming.push(day)
            }
        }
        out.push(ExecutiveUsage {
            name: m.name,
            engagement: m.title,
            credits: m.credits,
            used: u.map_or(0, |u| u.used),
            remaining: u.map_or(0, |u| u.remaining),
            past_sessions: past,
            upcoming_sessions: upcoming,
        });
    }
    Ok(out)
}

/// The report as CSV: one row per executive and engagement; the dates joined with spaces.
pub fn csv(rows: &[ExecutiveUsage]) -> anyhow::Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "executive",
        "engagement",
        "credits",
        "used",
        "remaining",
        "past_sessions",
        "upcoming_sessions",
    ])?;
    for r in rows {
        w.write_record([
            text_cell(r.name.clone()),
            text_cell(r.engagement.clone()),
            r.credits.to_string(),
            r.used.to_string(),
            r.remaining.to_string(),
            r.past_sessions.join(" "),
            r.upcoming_sessions.join(" "),
        ])?;
    }
    Ok(String::from_utf8(w.into_inner()?)?)
}
