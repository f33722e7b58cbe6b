//! A sponsor: the company, its billing contact, its address and tax registration number, and
//! the admin's own notes. Every statement that writes `sponsors` is here.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use crate::db::Backend;
use crate::domain::text::{Notes, Phone, short_text};
use crate::domain::{Email, FieldError, Language, new_id, ts};

/// A sponsor as stored.
#[derive(Debug, Clone, sqlx_macros::FromRow)]
pub struct Sponsor {
    pub id: String,
    pub name: String,
    pub contact_name: String,
    pub contact_email: String,
    pub contact_phone: Option<String>,
    pub address: Option<String>,
    pub tax_id: Option<String>,
    pub notes: Option<String>,
    pub language: Language,
    pub archived_at: Option<String>,
    pub created_at: String,
}

const COLUMNS: &str = "id, name, contact_name, contact_email, contact_phone, address, tax_id, notes, language, archived_at, created_at";

/// The sponsor form as the admin sends it.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SponsorForm {
    #[schema(max_length = 120)]
    name: Option<String>,
    #[schema(max_length = 100)]
    contact_name: Option<String>,
    contact_email: Option<String>,
    contact_phone: Option<String>,
    #[schema(max_length = 300)]
    address: Option<String>,
    /// The Egyptian tax registration number: 9 digits, dashes or spaces allowed.
    tax_id: Option<String>,
    /// The admin's own notes (never shown to the sponsor or the executives).
    #[schema(max_length = 2000)]
    notes: Option<String>,
    /// `en` or `ar`: the language of the emails to the billing contact and invited executives.
    language: Option<String>,
}

/// A checked sponsor form.
pub struct SponsorFields {
    pub name: String,
    pub contact_name: String,
    pub contact_email: Email,
    pub contact_phone: Option<String>,
    pub address: Option<String>,
    pub tax_id: Option<String>,
    pub notes: Option<String>,
    pub language: Language,
}

impl SponsorForm {
    /// Every field checked; each problem names its field.
    pub fn parse(self) -> Result<SponsorFields, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut keep = |r: Result<Option<String>, FieldError>| match r {
            Ok(v) => v,
            Err(e) => {
                errors.push(e);
                None
            }
        };
        let name = keep(short_text("name", self.name.as_deref(), 120));
        let contact_name = keep(short_text("contactName", self.contact_name.as_deref(), 100));
        let address = keep(
            Notes::parse_optional("address", self.address.as_deref(), 300)
                .map(|n| n.map(|n| n.as_str().to_string())),
        );
        let notes = keep(
            Notes::parse_optional("notes", self.notes.as_deref(), 2000)
                .map(|n| n.map(|n| n.as_str().to_string())),
        );
        let contact_phone = keep(
            Phone::parse_optional("contactPhone", self.contact_phone.as_deref())
                .map(|p| p.map(|p| p.as_str().to_string())),
        );
        if name.is_none() && !errors.iter().any(|e| e.field == "name") {
            errors.push(FieldError::new("name", "Company name is required"));
        }
        if contact_name.is_none() && !errors.iter().any(|e| e.field == "contactName") {
            errors.push(FieldError::new(
                "contactName",
                "Billing contact name is required",
            ));
        }
        let contact_email = self.contact_email.as_deref().and_then(Email::parse);
        if contact_email.is_none() {
            errors.push(FieldError::new("contactEmail", "Invalid email address"));
        }
        let tax_id = self
            .tax_id
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty());
        if let Some(t) = tax_id {
            let digits = t.chars().filter(char::is_ascii_digit).count();
            if digits != 9
                || !t
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '-' || c == ' ')
            {
                errors.push(FieldError::new(
                    "taxId",
                    "Enter the 9-digit tax registration number",
                ));
            }
        }
        let language = match self.language.as_deref().map(str::trim) {
            None | Some("") => Language::En,
            Some(code) => Language::parse(code).unwrap_or_else(|| {
                errors.push(FieldError::new("language", "Language must be en or ar"));
                Language::En
            }),
        };
        match (name, contact_name, contact_email) {
            (Some(name), Some(contact_name), Some(contact_email)) if errors.is_empty() => {
                Ok(SponsorFields {
                    name,
                    contact_name,
                    contact_email,
                    contact_phone,
                    address,
                    tax_id: tax_id.map(str::to_string),
                    notes,
                    language,
                })
            }
            _ => Err(errors),
        }
    }
}

pub async fn insert(
    conn: &mut AnyConnection,
    f: &SponsorFields,
    now: DateTime<Utc>,
) -> Result<Sponsor, sqlx::Error> {
    let id = new_id();
    sqlx::query(
        "INSERT INTO sponsors (id, name, contact_name, contact_email, contact_phone, address, tax_id, notes, language, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)",
    )
    .bind(&id)
    .bind(&f.name)
    .bind(&f.contact_name)
    .bind(f.contact_email.as_str())
    .bind(&f.contact_phone)
    .bind(&f.address)
    .bind(&f.tax_id)
    .bind(&f.notes)
    .bind(f.language.as_str())
    .bind(ts(now))
    .execute(&mut *conn)
    .await?;
    Ok(get(conn, &id).await?.expect("the sponsor just inserted"))
}

/// Replaces the sponsor's fields; `None` when there is no such sponsor.
pub async fn update(
    conn: &mut AnyConnection,
    id: &str,
    f: &SponsorFields,
    now: DateTime<Utc>,
) -> Result<Option<Sponsor>, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE sponsors SET name = $1, contact_name = $2, contact_email = $3, contact_phone = $4, address = $5,
                tax_id = $6, notes = $7, language = $8, updated_at = $9 WHERE id = $10",
    )
    .bind(&f.name)
    .bind(&f.contact_name)
    .bind(f.contact_email.as_str())
    .bind(&f.contact_phone)
    .bind(&f.address)
    .bind(&f.tax_id)
    .bind(&f.notes)
    .bind(f.language.as_str())
    .bind(ts(now))
    .bind(id)
    .execute(&mut *conn)
    .await?;
    if done.rows_affected() == 0 {
        return Ok(None);
    }
    get(conn, id).await
}

/// Archives the sponsor: it keeps its engagements and invoices but gets no new engagement.
/// `Ok(false)` when it was archived already.
pub async fn archive(
    conn: &mut AnyConnection,
    id: &str,
    now: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE sponsors SET archived_at = $1, updated_at = $1 WHERE id = $2 AND archived_at IS NULL",
    )
    .bind(ts(now))
    .bind(id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn get(conn: &mut AnyConnection, id: &str) -> Result<Option<Sponsor>, sqlx::Error> {
    sqlx::query_as(&format!("SELECT {COLUMNS} FROM sponsors WHERE id = $1"))
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// The sponsor `id`, locked until the caller's transaction ends, so an engagement is never
/// created for a sponsor being archived.
pub async fn lock(
    conn: &mut AnyConnection,
    backend: Backend,
    id: &str,
) -> Result<Option<Sponsor>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM sponsors WHERE id = $1{}",
        backend.for_update()
    ))
    .bind(id)
    .fetch_optional(conn)
    .await
}

pub async fn list(conn: &mut AnyConnection) -> Result<Vec<Sponsor>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM sponsors ORDER BY archived_at IS NOT NULL, name, id"
    ))
    .fetch_all(conn)
    .await
}

/// An executive a sponsor pays for.
#[derive(Debug, Clone, sqlx_macros::FromRow)]
pub struct Executive {
    pub sponsor_id: String,
    pub client_id: String,
    pub name: String,
    pub email: String,
}

/// Every sponsor's executives (joined members of its engagements), one row per pair.
pub async fn executives(conn: &mut AnyConnection) -> Result<Vec<Executive>, sqlx::Error> {
    sqlx::query_as(
        "SELECT DISTINCT e.sponsor_id, m.client_id, p.full_name AS name, p.email
           FROM engagement_members m JOIN engagements e ON e.id = m.engagement_id
           JOIN profiles p ON p.user_id = m.client_id
          WHERE m.client_id IS NOT NULL
          ORDER BY e.sponsor_id, p.full_name",
    )
    .fetch_all(conn)
    .await
}
