//! The accounting export (issue 14 point 6): payments and completed refunds between
//! two days in the coach's time zone, as CSV, one row per money movement, amounts in the
//! currency's major unit with two decimals (refunds negative). Written with the `csv` crate, so
//! names with commas, quotes or line breaks are quoted as RFC 4180 says.
//!
//! Each kind of row is one SELECT of the same columns in `ROWS`: a refund is a row of its own
//! (`kind = 'refund'`, dated when it completed, negative sessions and amount, the refunded
//! payment's receipt number).

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use serde::Deserialize;

use super::common::start_of_local_day;
use crate::domain::parse_ts;
use crate::domain::receipts::display_number;
use crate::domain::text::text_cell;
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AdminUser, AppQuery};
use crate::state::AppState;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportRange {
    /// First day, YYYY-MM-DD (coach's time zone), included.
    from: Option<String>,
    /// Last day, YYYY-MM-DD, included.
    to: Option<String>,
}

#[derive(sqlx_macros::FromRow)]
struct ExportRow {
    kind: String,
    happened_at: String,
    receipt: Option<i64>,
    client_name: String,
    client_email: String,
    sessions: i64,
    amount: i64,
    currency: String,
    method: String,
    reference_number: Option<String>,
    recorded_by: Option<String>,
    id: String,
    discount_code: Option<String>,
    discount_amount: i64,
    /// A sponsor's invoice (its number), for the payments of invoices.
    invoice: Option<i64>,
}

/// Every money movement between $1 and $2 (UTC timestamps, [from, to)).
const ROWS: &str = "
    SELECT 'payment' AS kind, pr.payment_date AS happened_at, r.number AS receipt,
           p.full_name AS client_name, p.email AS client_email, pr.sessions_purchased AS sessions,
           pr.amount AS amount, pr.currency AS currency,
           CASE WHEN pr.recorded_by IS NULL THEN 'online_' || pr.payment_method ELSE pr.payment_method END AS method,
           pr.reference_number AS reference_number, a.full_name AS recorded_by, pr.id AS id,
           pr.discount_code AS discount_code, pr.discount_amount AS discount_amount, CAST(NULL AS BIGINT) AS invoice
      FROM payment_records pr
      JOIN profiles p ON p.user_id = pr.client_id
      LEFT JOIN receipts r ON r.payment_record_id = pr.id
      LEFT JOIN profiles a ON a.user_id = pr.recorded_by
     WHERE pr.payment_date >= $1 AND pr.payment_date < $2
    UNION ALL
    SELECT 'refund' AS kind, rf.completed_at AS happened_at, r.number AS receipt,
           p.full_name AS client_name, p.email AS client_email, -rf.credits AS sessions,
           -rf.amount AS amount, rf.currency AS currency,
           CASE WHEN rf.method <> 'offline' THEN 'online_' || pr.payment_method ELSE pr.payment_method END AS method,
           rf.tran_ref AS reference_number, a.full_name AS recorded_by, rf.id AS id,
           NULL AS discount_code, 0 AS discount_amount, CAST(NULL AS BIGINT) AS invoice
      FROM payment_refunds rf
      JOIN payment_records pr ON pr.id = rf.payment_record_id
      JOIN profiles p ON p.user_id = rf.client_id
      LEFT JOIN receipts r ON r.payment_record_id = rf.payment_record_id
      LEFT JOIN profiles a ON a.user_id = rf.requested_by
     WHERE rf.status = 'completed' AND rf.completed_at >= $1 AND rf.completed_at < $2
    UNION ALL
    SELECT 'invoice_payment' AS kind, i.paid_at AS happened_at, NULL AS receipt,
           s.name AS client_name, s.contact_email AS client_email, e.credits AS sessions,
           i.total AS amount, i.currency AS currency, 'invoice_' || i.paid_via AS method,
           COALESCE(i.tran_ref, i.bank_reference) AS reference_number, NULL AS recorded_by, i.id AS id,
           NULL AS discount_code, 0 AS discount_amount, i.number AS invoice
      FROM invoices i
      JOIN engagements e ON e.id = i.engagement_id
      JOIN sponsors s ON s.id = e.sponsor_id
     WHERE i.status = 'paid' AND i.paid_at >= $1 AND i.paid_at < $2";

fn day(field: &str, raw: Option<&str>) -> AppResult<NaiveDate> {
    let raw = raw.map(str::trim).unwrap_or("");
    NaiveDate::parse_from_str(raw, "%Y-%m-%d")
        .map_err(|_| AppError::field(field, &format!("{field} must be a date (YYYY-MM-DD)")))
}

/// `-1234.50` for -123450 minor units: no grouping, always two decimals.
fn amount(minor: i64) -> String {
    let sign = if minor < 0 { "-" } else { "" };
    let m = minor.unsigned_abs();
    format!("{sign}{}.{:02}", m / 100, m % 100)
}

#[utoipa::path(get, path = "/api/admin/exports/payments", tag = "admin", params(ExportRange),
    responses((status = 200, content_type = "text/csv", body = String,
               description = "kind,date,receipt_number,client_name,client_email,sessions,amount,currency,method,reference_number,recorded_by,record_id,discount_code,discount_amount"),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn payments_csv(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppQuery(q): AppQuery<ExportRange>,
) -> AppResult<Response> {
    let from = day("from", q.from.as_deref())?;
    let to = day("to", q.to.as_deref())?;
    if to < from {
        return Err(AppError::field("to", "to must be on or after from"));
    }
    let end = to
        .succ_opt()
        .ok_or_else(|| AppError::field("to", "to must be a date (YYYY-MM-DD)"))?;
    let rows: Vec<ExportRow> = sqlx::query_as(&format!(
        "SELECT * FROM ({ROWS}) movements ORDER BY happened_at, id"
    ))
    .bind(start_of_local_day(&state, from))
    .bind(start_of_local_day(&state, end))
    .fetch_all(state.db.reader())
    .await?;
    let bytes = write_csv(&state, rows)?;
    Ok(csv_response(bytes, from, to))
}

const HEADER: [&str; 15] = [
    "kind",
    "date",
    "receipt_number",
    "client_name",
    "client_email",
    "sessions",
    "amount",
    "currency",
    "method",
    "reference_number",
    "recorded_by",
    "record_id",
    "discount_code",
    "discount_amount",
    "invoice_number",
];

/// The CSV document: the header, then one record per movement.
fn write_csv(state: &AppState, rows: Vec<ExportRow>) -> AppResult<Vec<u8>> {
    let mut out = csv::Writer::from_writer(Vec::new());
    let write = |out: &mut csv::Writer<Vec<u8>>, record: &[String]| {
        out.write_record(record)
            .map_err(|e| AppError::Internal(anyhow::anyhow!("writing CSV: {e}")))
    };
    write(&mut out, &HEADER.map(String::from))?;
    for r in rows {
        write(&mut out, &record(state, r))?;
    }
    out.into_inner()
        .map_err(|e| AppError::Internal(anyhow::anyhow!("writing CSV: {e}")))
}

/// One movement's cells, in `HEADER`'s order: the day in the coach's time zone, text cells
/// made safe for spreadsheets.
fn record(state: &AppState, r: ExportRow) -> [String; 15] {
    let date = parse_ts(&r.happened_at)
        .map(|t| {
            t.with_timezone(&state.site().time_zone)
                .format("%Y-%m-%d")
                .to_string()
        })
        .unwrap_or(r.happened_at);
    [
        r.kind,
        date,
        r.receipt.map(display_number).unwrap_or_default(),
        text_cell(r.client_name),
        text_cell(r.client_email),
        r.sessions.to_string(),
        amount(r.amount),
        r.currency,
        r.method,
        text_cell(r.reference_number.unwrap_or_default()),
        text_cell(r.recorded_by.unwrap_or_default()),
        r.id,
        text_cell(r.discount_code.unwrap_or_default()),
        if r.discount_amount > 0 {
            amount(r.discount_amount)
        } else {
            String::new()
        },
        r.invoice
            .map(crate::sponsors::invoices::display_number)
            .unwrap_or_default(),
    ]
}

/// The download: CSV, never cached, named after the range.
fn csv_response(bytes: Vec<u8>, from: NaiveDate, to: NaiveDate) -> Response {
    let filename = format!("attachment; filename=\"payments-{from}-to-{to}.csv\"");
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Ok(v) = HeaderValue::from_str(&filename) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    response
}

#[cfg(test)]
mod tests {
    #[test]
    fn amounts_have_two_decimals_and_no_grouping() {
        assert_eq!(super::amount(450050), "4500.50");
        assert_eq!(super::amount(5), "0.05");
        assert_eq!(super::amount(-123400), "-1234.00");
    }

    #[test]
    fn text_that_a_spreadsheet_would_run_is_quoted() {
        for formula in [
            "=HYPERLINK(\"http://evil.example\")",
            "+A1",
            "-2+3",
            "@SUM(A1:A2)",
            "\t=1",
            "\r=1",
            "＝1+1",
            "  =1+1",
        ] {
            assert_eq!(super::text_cell(formula.into()), format!("'{formula}"));
        }
        for plain in ["Mona Adel", "mona@example.com", "TST123", "", "O'Brien"] {
            assert_eq!(super::text_cell(plain.into()), plain);
        }
    }
}
