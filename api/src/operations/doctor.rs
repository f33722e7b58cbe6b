//! The checks `api doctor` and the status page run, the same ones: the database (reachable,
//! migrations current), the SMTP login (connect and log in, no mail sent), PayTabs and Paymob
//! (a harmless call their key must authenticate), Calendly (the token, and a webhook
//! subscription for our address), the catalogue's address (fetched and parsed), and the clock
//! (against the `Date` of a server that answered).
//!
//! Each result is a [`Code`] with the values it names (an address, a version, the server's own
//! words), never a secret: every value is cleaned of the configuration's secrets before it
//! leaves. The API writes each in English with its fix (the CLI prints those); the status page
//! shows the code in the admin's language.

use std::collections::BTreeMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use content_model::catalogue::Catalogue;
use serde::Serialize;
use sqlx::migrate::Migrate;
use utoipa::ToSchema;

use crate::catalogue::Source;
use crate::configuration::{Config, Environment};
use crate::db::{Backend, Db, MIGRATOR};
use crate::email::transport::{LoginProblem, check_login};
use crate::providers::{Answer, calendly, paymob, paytabs};

/// What is checked, in the order shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CheckName {
    Database,
    Smtp,
    Paytabs,
    Paymob,
    Calendly,
    Catalogue,
    Clock,
}

impl CheckName {
    fn as_str(self) -> &'static str {
        match self {
            CheckName::Database => "database",
            CheckName::Smtp => "smtp",
            CheckName::Paytabs => "paytabs",
            CheckName::Paymob => "paymob",
            CheckName::Calendly => "calendly",
            CheckName::Catalogue => "catalogue",
            CheckName::Clock => "clock",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = CheckStatus)]
pub enum Status {
    Ok,
    Failed,
    /// Not configured (and optional here), or nothing to check against.
    Skipped,
}

/// What a check found. Its English words, with `{value}` for each value it names, are
/// [`Code::english`]; the status page has them in each language (`admin.system.check.<code>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = CheckCode)]
pub enum Code {
    DatabaseOk,
    DatabaseUnreachable,
    MigrationsPending,
    MigrationsUnknown,
    MigrationChanged,
    SmtpOk,
    SmtpOkNoLogin,
    SmtpNotConfigured,
    SmtpUnreachable,
    SmtpLoginRefused,
    PaytabsOk,
    PaytabsNotConfigured,
    PaytabsKeyRefused,
    PaytabsProfileRefused,
    PaytabsUnreachable,
    PaytabsUnexpected,
    PaymobOk,
    PaymobNotConfigured,
    PaymobKeyRefused,
    PaymobUnreachable,
    PaymobUnexpected,
    CalendlyOk,
    CalendlyNotConfigured,
    CalendlyTokenRefused,
    CalendlyUnreachable,
    CalendlyUnexpected,
    CalendlyNoSubscription,
    CalendlySubscriptionDisabled,
    CalendlyNoSigningKey,
    CatalogueOk,
    CatalogueUnreachable,
    CatalogueHttp,
    CatalogueInvalid,
    ClockOk,
    ClockAhead,
    ClockBehind,
    ClockUnknown,
}

impl Code {
    /// What it says and, for a failure, what to do, in English with `{name}` for its values.
    pub fn english(self) -> (&'static str, Option<&'static str>) {
        use Code::*;
        match self {
            DatabaseOk => (
                "{backend} answers, and the {applied} migrations of this build are applied",
                None,
            ),
            DatabaseUnreachable => (
                "The database cannot be reached: {error}",
                Some("Check DATABASE_URL, and that the database server is running"),
            ),
            MigrationsPending => (
                "{pending} migrations of this build are not applied yet (the first: {first})",
                Some("Run `api migrate` (`api serve` applies them too when it starts)"),
            ),
            MigrationsUnknown => (
                "The database has migration {version}, which this build does not have",
                Some(
                    "Deploy the build the database belongs to (a newer one), or restore a backup taken with this build",
                ),
            ),
            MigrationChanged => (
                "Migration {version} of this build differs from the one applied to the database",
                Some(
                    "Restore the file in api/migrations/ as it was applied: an applied migration is never edited",
                ),
            ),
            SmtpOk => (
                "The mail server {address} accepts our login as {username}",
                None,
            ),
            SmtpOkNoLogin => (
                "The mail server {address} answers (SMTP_USERNAME is not set, so no login was tried)",
                None,
            ),
            SmtpNotConfigured => (
                "SMTP_HOST is not set: email waits in the outbox",
                Some("Set SMTP_HOST, SMTP_PORT, SMTP_TLS, SMTP_USERNAME and SMTP_PASSWORD"),
            ),
            SmtpUnreachable => (
                "The mail server {address} cannot be reached: {error}",
                Some("Check SMTP_HOST / SMTP_PORT / SMTP_TLS (465 is implicit TLS, 587 STARTTLS)"),
            ),
            SmtpLoginRefused => (
                "SMTP login refused by {address}: {error}",
                Some("Check SMTP_USERNAME / SMTP_PASSWORD"),
            ),
            PaytabsOk => ("PayTabs accepts the server key of profile {profile}", None),
            PaytabsNotConfigured => (
                "PayTabs is not configured: card payments cannot start",
                Some("Set PAYTABS_PROFILE_ID and PAYTABS_SERVER_KEY"),
            ),
            PaytabsKeyRefused => (
                "PayTabs refused the server key: {error}",
                Some(
                    "Check PAYTABS_SERVER_KEY, and that PAYTABS_BASE_URL ({address}) is your account's region",
                ),
            ),
            PaytabsProfileRefused => (
                "PayTabs refused profile {profile}: {error}",
                Some("Check PAYTABS_PROFILE_ID"),
            ),
            PaytabsUnreachable => (
                "PayTabs cannot be reached at {address}: {error}",
                Some("Check PAYTABS_BASE_URL"),
            ),
            PaytabsUnexpected => (
                "PayTabs answered {status}: {error}",
                Some(
                    "Check PAYTABS_BASE_URL; if it is right, PayTabs may be down: try again later",
                ),
            ),
            PaymobOk => ("Paymob accepts the secret key", None),
            PaymobNotConfigured => (
                "Paymob is not configured (it is optional: wallets and kiosks)",
                None,
            ),
            PaymobKeyRefused => (
                "Paymob refused the secret key: {error}",
                Some("Check PAYMOB_SECRET_KEY"),
            ),
            PaymobUnreachable => (
                "Paymob cannot be reached at {address}: {error}",
                Some("Check PAYMOB_BASE_URL"),
            ),
            PaymobUnexpected => (
                "Paymob answered {status}: {error}",
                Some("Check PAYMOB_BASE_URL; if it is right, Paymob may be down: try again later"),
            ),
            CalendlyOk => (
                "Calendly accepts the token of {user}, and its webhook subscription for {address} is active",
                None,
            ),
            CalendlyNotConfigured => (
                "CALENDLY_TOKEN is not set, so the webhook subscription cannot be checked",
                Some(
                    "Set CALENDLY_TOKEN to a personal access token (Calendly: Integrations, API and webhooks)",
                ),
            ),
            CalendlyTokenRefused => (
                "Calendly refused the token: {error}",
                Some(
                    "Check CALENDLY_TOKEN (a personal access token: Calendly, Integrations, API and webhooks)",
                ),
            ),
            CalendlyUnreachable => (
                "Calendly cannot be reached at {address}: {error}",
                Some("Check CALENDLY_API_BASE (https://api.calendly.com)"),
            ),
            CalendlyUnexpected => (
                "Calendly answered {status}: {error}",
                Some(
                    "Check CALENDLY_API_BASE; if it is right, Calendly may be down: try again later",
                ),
            ),
            CalendlyNoSubscription => (
                "Calendly has no webhook subscription for {address}: bookings never reach the site",
                Some(
                    "Create one for {address} with the events invitee.created and invitee.canceled, signed with the key in CALENDLY_SIGNING_KEYS (README: Calendly)",
                ),
            ),
            CalendlySubscriptionDisabled => (
                "Calendly's webhook subscription for {address} is {state}: Calendly stops delivering after a day of failed deliveries",
                Some(
                    "Create the subscription again (README: Calendly); the status page lists the webhooks that were refused",
                ),
            ),
            CalendlyNoSigningKey => (
                "CALENDLY_SIGNING_KEYS is not set: every Calendly webhook is refused",
                Some("Set CALENDLY_SIGNING_KEYS to the signing key of the webhook subscription"),
            ),
            CatalogueOk => (
                "{address} has catalogue version {version} ({packages} packages)",
                None,
            ),
            CatalogueUnreachable => (
                "{address} cannot be reached: {error}",
                Some("Check CATALOGUE_URL: the site's address followed by /catalogue.json"),
            ),
            CatalogueHttp => (
                "{address} answered {status}",
                Some(
                    "Check CATALOGUE_URL (the site's address followed by /catalogue.json) and that the site is deployed",
                ),
            ),
            CatalogueInvalid => (
                "{address} is not a catalogue: {error}",
                Some("CATALOGUE_URL must be the /catalogue.json that `site build` publishes"),
            ),
            ClockOk => ("The clock agrees with {address} (within {skew} s)", None),
            ClockAhead => (
                "The clock is {skew} s ahead of {address}",
                Some(
                    "Synchronise the server's clock (NTP): Calendly's webhooks signed more than {tolerance} s away are refused",
                ),
            ),
            ClockBehind => (
                "The clock is {skew} s behind {address}",
                Some(
                    "Synchronise the server's clock (NTP): Calendly's webhooks signed more than {tolerance} s away are refused",
                ),
            ),
            ClockUnknown => (
                "No server answered with its time, so the clock was not compared",
                None,
            ),
        }
    }
}

/// One check's result.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = CheckResult)]
pub struct Check {
    pub check: CheckName,
    pub status: Status,
    pub code: Code,
    /// The values its words name (`address`, `version`, `error`…), none of them secret.
    pub values: BTreeMap<String, String>,
    /// In English: what was found.
    pub message: String,
    /// In English: what to do (failures, and what is not configured).
    pub fix: Option<String>,
}

/// Every check, in [`CheckName`]'s order.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = DoctorReport)]
pub struct Report {
    pub checks: Vec<Check>,
    /// How many failed.
    pub failed: usize,
    pub checked_at: String,
}

impl Report {
    /// As `api doctor` prints it: one line per check, its fix under a failure.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for c in &self.checks {
            let mark = match c.status {
                Status::Ok => "ok     ",
                Status::Failed => "FAILED ",
                Status::Skipped => "skipped",
            };
            out.push_str(&format!("{mark} {:<9} {}\n", c.check.as_str(), c.message));
            if let (Some(fix), Status::Failed) = (&c.fix, c.status) {
                out.push_str(&format!("{:18}fix: {fix}\n", ""));
            }
        }
        out
    }
}

/// How far the clock may be from a server's before the check fails.
const CLOCK_TOLERANCE: i64 = 60;

/// What one check found, before it is written out.
struct Found {
    status: Status,
    code: Code,
    values: Vec<(&'static str, String)>,
}

fn found(status: Status, code: Code, values: &[(&'static str, &str)]) -> Found {
    Found {
        status,
        code,
        values: values.iter().map(|(k, v)| (*k, v.to_string())).collect(),
    }
}

/// Runs every check against `config`; `db` is the application's own database, or `None` to
/// connect as `api doctor` does.
pub async fn run(config: &Config, db: Option<&Db>) -> Report {
    let http = reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(5))
        .timeout(Duration::from_secs(10))
        .build()
        .expect("a TLS backend is available");
    let (
        database,
        smtp,
        (paytabs, paytabs_date),
        (paymob, paymob_date),
        (calendly, calendly_date),
        (catalogue, catalogue_date),
    ) = tokio::join!(
        database(config, db),
        smtp(config),
        paytabs(config),
        paymob(config),
        calendly(config),
        catalogue(config, &http),
    );
    let dated = [catalogue_date, paytabs_date, calendly_date, paymob_date]
        .into_iter()
        .flatten()
        .next();
    let clock = clock(dated, config.calendly.tolerance_seconds);
    let secrets = secrets(config);
    let checks: Vec<Check> = [
        (CheckName::Database, database),
        (CheckName::Smtp, smtp),
        (CheckName::Paytabs, paytabs),
        (CheckName::Paymob, paymob),
        (CheckName::Calendly, calendly),
        (CheckName::Catalogue, catalogue),
        (CheckName::Clock, clock),
    ]
    .into_iter()
    .map(|(name, f)| write_out(name, f, &secrets))
    .collect();
    Report {
        failed: checks.iter().filter(|c| c.status == Status::Failed).count(),
        checks,
        checked_at: crate::domain::now(),
    }
}

/// The configuration's secrets, each of which is blotted out of whatever a check reports.
fn secrets(config: &Config) -> Vec<String> {
    let mut out = vec![
        config.database_url.expose().to_string(),
        config.app_secret.expose().to_string(),
    ];
    // A database address's password, should an error quote it alone.
    if let Ok(url) = reqwest::Url::parse(config.database_url.expose())
        && let Some(password) = url.password()
    {
        out.push(password.to_string());
    }
    if let Some(p) = config.smtp.as_ref().and_then(|s| s.password.as_ref()) {
        out.push(p.expose().to_string());
    }
    if let Some(p) = &config.paytabs {
        out.push(p.server_key.expose().to_string());
    }
    if let Some(p) = &config.paymob {
        out.push(p.secret_key.expose().to_string());
        out.push(p.hmac_secret.expose().to_string());
    }
    if let Some(t) = &config.calendly.token {
        out.push(t.expose().to_string());
    }
    out.extend(
        config
            .calendly
            .signing_keys
            .iter()
            .map(|k| k.expose().to_string()),
    );
    out.retain(|s| s.len() >= 4);
    out
}

fn write_out(name: CheckName, f: Found, secrets: &[String]) -> Check {
    let values: BTreeMap<String, String> = f
        .values
        .into_iter()
        .map(|(k, v)| {
            let clean = secrets
                .iter()
                .fold(v, |text, secret| text.replace(secret.as_str(), "****"));
            (k.to_string(), clean)
        })
        .collect();
    let fill = |text: &str| {
        values.iter().fold(text.to_string(), |t, (k, v)| {
            t.replace(&format!("{{{k}}}"), v)
        })
    };
    let (message, fix) = f.code.english();
    Check {
        check: name,
        status: f.status,
        code: f.code,
        message: fill(message),
        fix: fix.map(fill),
        values,
    }
}

async fn database(config: &Config, db: Option<&Db>) -> Found {
    let connected;
    let db = match db {
        Some(db) => db,
        None => match Db::connect(config.database_url.expose()).await {
            Ok(db) => {
                connected = db;
                &connected
            }
            Err(e) => {
                let error = format!("{e:#}");
                return found(
                    Status::Failed,
                    Code::DatabaseUnreachable,
                    &[("error", &error)],
                );
            }
        },
    };
    let applied = async {
        let mut conn = db.pool.acquire().await?;
        sqlx::query("SELECT 1").execute(&mut *conn).await?;
        anyhow::Ok(conn.list_applied_migrations().await)
    };
    let applied = match applied.await {
        Ok(Ok(applied)) => applied,
        // Reachable, but no migrations table: nothing was ever applied.
        Ok(Err(_)) => Vec::new(),
        Err(e) => {
            let error = format!("{e:#}");
            return found(
                Status::Failed,
                Code::DatabaseUnreachable,
                &[("error", &error)],
            );
        }
    };
    let ours: Vec<_> = MIGRATOR
        .iter()
        .filter(|m| m.migration_type.is_up_migration())
        .collect();
    if let Some(unknown) = applied
        .iter()
        .find(|a| !ours.iter().any(|m| m.version == a.version))
    {
        let version = unknown.version.to_string();
        return found(
            Status::Failed,
            Code::MigrationsUnknown,
            &[("version", &version)],
        );
    }
    if let Some(changed) = ours.iter().find(|m| {
        applied
            .iter()
            .any(|a| a.version == m.version && a.checksum != m.checksum)
    }) {
        let version = format!("{} ({})", changed.version, changed.description);
        return found(
            Status::Failed,
            Code::MigrationChanged,
            &[("version", &version)],
        );
    }
    let pending: Vec<_> = ours
        .iter()
        .filter(|m| !applied.iter().any(|a| a.version == m.version))
        .collect();
    if let Some(first) = pending.first() {
        let first = format!("{} ({})", first.version, first.description);
        return found(
            Status::Failed,
            Code::MigrationsPending,
            &[("pending", &pending.len().to_string()), ("first", &first)],
        );
    }
    let backend = match db.backend {
        Backend::Sqlite => "SQLite",
        Backend::Postgres => "PostgreSQL",
    };
    found(
        Status::Ok,
        Code::DatabaseOk,
        &[("backend", backend), ("applied", &ours.len().to_string())],
    )
}

async fn smtp(config: &Config) -> Found {
    let Some(smtp) = &config.smtp else {
        // Production does not start without it; in development mail waits in the outbox.
        let status = match config.environment {
            Environment::Production => Status::Failed,
            Environment::Development => Status::Skipped,
        };
        return found(status, Code::SmtpNotConfigured, &[]);
    };
    let address = format!("{}:{}", smtp.host, smtp.port);
    match check_login(smtp).await {
        Ok(()) => match (&smtp.username, &smtp.password) {
            (Some(username), Some(_)) => found(
                Status::Ok,
                Code::SmtpOk,
                &[("address", &address), ("username", username)],
            ),
            _ => found(Status::Ok, Code::SmtpOkNoLogin, &[("address", &address)]),
        },
        Err(LoginProblem::Refused(error)) => found(
            Status::Failed,
            Code::SmtpLoginRefused,
            &[("address", &address), ("error", &error)],
        ),
        Err(LoginProblem::Unreachable(error)) => found(
            Status::Failed,
            Code::SmtpUnreachable,
            &[("address", &address), ("error", &error)],
        ),
    }
}

type Dated = Option<(String, DateTime<Utc>, DateTime<Utc>)>;

/// The server's `Date` of an answer, with its host and our time when it answered.
fn dated(url: &str, answer: &Answer, ours: DateTime<Utc>) -> Dated {
    let host = reqwest::Url::parse(url).ok()?.host_str()?.to_string();
    Some((host, answer.date?, ours))
}

/// Our time halfway through a call that started at `started`.
fn midpoint(started: DateTime<Utc>) -> DateTime<Utc> {
    started + (Utc::now() - started) / 2
}

async fn paytabs(config: &Config) -> (Found, Dated) {
    let Some(c) = &config.paytabs else {
        let status = match config.environment {
            Environment::Production => Status::Failed,
            Environment::Development => Status::Skipped,
        };
        return (found(status, Code::PaytabsNotConfigured, &[]), None);
    };
    let address = c.base_url.clone();
    let profile = c.profile_id.to_string();
    let started = Utc::now();
    let answer = match paytabs::PayTabs::new(c.clone()).check_key().await {
        Ok(a) => a,
        Err(e) => {
            let error = format!("{e:#}");
            return (
                found(
                    Status::Failed,
                    Code::PaytabsUnreachable,
                    &[("address", &address), ("error", &error)],
                ),
                None,
            );
        }
    };
    let date = dated(&address, &answer, midpoint(started));
    let error = answer.message();
    let status = answer.status.as_u16().to_string();
    let f = match (answer.status.as_u16(), answer.body["code"].as_i64()) {
        // The key and the profile passed; PayTabs looked and found nothing (or, should that
        // reference ever exist, found it).
        (200..=299, _) => found(Status::Ok, Code::PaytabsOk, &[("profile", &profile)]),
        (401 | 403, _) | (_, Some(1)) => found(
            Status::Failed,
            Code::PaytabsKeyRefused,
            &[("address", &address), ("error", &error)],
        ),
        (_, Some(2)) => found(
            Status::Failed,
            Code::PaytabsProfileRefused,
            &[("profile", &profile), ("error", &error)],
        ),
        (400..=499, _) if answer.body.is_object() => {
            found(Status::Ok, Code::PaytabsOk, &[("profile", &profile)])
        }
        _ => found(
            Status::Failed,
            Code::PaytabsUnexpected,
            &[("status", &status), ("error", &error)],
        ),
    };
    (f, date)
}

async fn paymob(config: &Config) -> (Found, Dated) {
    let Some(c) = &config.paymob else {
        return (found(Status::Skipped, Code::PaymobNotConfigured, &[]), None);
    };
    let address = c.base_url.clone();
    let started = Utc::now();
    let answer = match paymob::Paymob::new(c.clone()).check_key().await {
        Ok(a) => a,
        Err(e) => {
            let error = format!("{e:#}");
            return (
                found(
                    Status::Failed,
                    Code::PaymobUnreachable,
                    &[("address", &address), ("error", &error)],
                ),
                None,
            );
        }
    };
    let date = dated(&address, &answer, midpoint(started));
    let error = answer.message();
    let status = answer.status.as_u16().to_string();
    let f = match answer.status.as_u16() {
        401 | 403 => found(Status::Failed, Code::PaymobKeyRefused, &[("error", &error)]),
        // Authenticated, then the empty body refused field by field.
        200..=299 | 400 | 422 => found(Status::Ok, Code::PaymobOk, &[]),
        _ => found(
            Status::Failed,
            Code::PaymobUnexpected,
            &[("status", &status), ("error", &error)],
        ),
    };
    (f, date)
}

async fn calendly(config: &Config) -> (Found, Dated) {
    let c = &config.calendly;
    let callback = format!("{}/api/webhooks/calendly", config.public_base_url);
    if c.token.is_none() {
        return (
            found(Status::Skipped, Code::CalendlyNotConfigured, &[]),
            None,
        );
    }
    let client = calendly::Client::new(c.clone());
    let unreachable = |e: anyhow::Error| {
        let error = format!("{e:#}");
        found(
            Status::Failed,
            Code::CalendlyUnreachable,
            &[("address", &c.api_base), ("error", &error)],
        )
    };
    let unexpected = |a: &Answer| {
        found(
            Status::Failed,
            Code::CalendlyUnexpected,
            &[
                ("status", &a.status.as_u16().to_string()),
                ("error", &a.message()),
            ],
        )
    };
    let started = Utc::now();
    let me = match client.me().await {
        Ok(a) => a,
        Err(e) => return (unreachable(e), None),
    };
    let date = dated(&c.api_base, &me, midpoint(started));
    match me.status.as_u16() {
        200..=299 => {}
        401 | 403 => {
            let error = me.message();
            return (
                found(
                    Status::Failed,
                    Code::CalendlyTokenRefused,
                    &[("error", &error)],
                ),
                date,
            );
        }
        _ => return (unexpected(&me), date),
    }
    let user = me.body["resource"]["uri"].as_str().unwrap_or_default();
    let organization = me.body["resource"]["current_organization"]
        .as_str()
        .unwrap_or_default();
    let who = me.body["resource"]["email"]
        .as_str()
        .or(me.body["resource"]["name"].as_str())
        .unwrap_or(user)
        .to_string();
    // Ours is a user subscription (README); an organization's covers it too.
    let mut subscription = None;
    for (scope, user) in [("user", Some(user)), ("organization", None)] {
        let list = match client
            .webhook_subscriptions(organization, scope, user)
            .await
        {
            Ok(a) => a,
            Err(e) => return (unreachable(e), date),
        };
        if !list.status.is_success() {
            // An organization's list needs an admin's token: not ours to require.
            if scope == "organization" {
                break;
            }
            return (unexpected(&list), date);
        }
        subscription = list.body["collection"].as_array().and_then(|all| {
            all.iter()
                .find(|s| s["callback_url"].as_str() == Some(callback.as_str()))
                .cloned()
        });
        if subscription.is_some() {
            break;
        }
    }
    let Some(subscription) = subscription else {
        return (
            found(
                Status::Failed,
                Code::CalendlyNoSubscription,
                &[("address", &callback)],
            ),
            date,
        );
    };
    let state = subscription["state"].as_str().unwrap_or("unknown");
    if state != "active" {
        return (
            found(
                Status::Failed,
                Code::CalendlySubscriptionDisabled,
                &[("address", &callback), ("state", state)],
            ),
            date,
        );
    }
    if c.signing_keys.is_empty() {
        return (found(Status::Failed, Code::CalendlyNoSigningKey, &[]), date);
    }
    (
        found(
            Status::Ok,
            Code::CalendlyOk,
            &[("user", &who), ("address", &callback)],
        ),
        date,
    )
}

/// The largest catalogue read (the real one is a few kilobytes).
const MAX_CATALOGUE: usize = 1024 * 1024;

async fn catalogue(config: &Config, http: &reqwest::Client) -> (Found, Dated) {
    let url = match config.catalogue_source() {
        Source::Url(url) => url,
        Source::ContentDir(dir) => {
            let address = dir.display().to_string();
            let read = tokio::task::spawn_blocking(move || Catalogue::from_content_dir(&dir)).await;
            let f = match read {
                Ok(Ok(c)) => catalogue_ok(&address, &c),
                Ok(Err(error)) => found(
                    Status::Failed,
                    Code::CatalogueInvalid,
                    &[("address", &address), ("error", &error)],
                ),
                Err(e) => found(
                    Status::Failed,
                    Code::CatalogueInvalid,
                    &[("address", &address), ("error", &e.to_string())],
                ),
            };
            return (f, None);
        }
    };
    let started = Utc::now();
    let response = match http
        .get(&url)
        .header(reqwest::header::ACCEPT, "application/json")
        .header(reqwest::header::CACHE_CONTROL, "no-cache")
        .send()
        .await
    {
        Ok(r) => r,
        Err(e) => {
            let error = e.without_url().to_string();
            return (
                found(
                    Status::Failed,
                    Code::CatalogueUnreachable,
                    &[("address", &url), ("error", &error)],
                ),
                None,
            );
        }
    };
    let status = response.status();
    let date = response
        .headers()
        .get(reqwest::header::DATE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| DateTime::parse_from_rfc2822(v).ok())
        .map(|d| d.with_timezone(&Utc));
    let ours = midpoint(started);
    let dated = reqwest::Url::parse(&url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .zip(date)
        .map(|(host, date)| (host, date, ours));
    if status != reqwest::StatusCode::OK {
        let status = status.to_string();
        return (
            found(
                Status::Failed,
                Code::CatalogueHttp,
                &[("address", &url), ("status", &status)],
            ),
            dated,
        );
    }
    let bytes = match response.bytes().await {
        Ok(b) if b.len() <= MAX_CATALOGUE => b,
        Ok(_) => {
            let error = format!("larger than {MAX_CATALOGUE} bytes");
            return (
                found(
                    Status::Failed,
                    Code::CatalogueInvalid,
                    &[("address", &url), ("error", &error)],
                ),
                dated,
            );
        }
        Err(e) => {
            let error = e.without_url().to_string();
            return (
                found(
                    Status::Failed,
                    Code::CatalogueUnreachable,
                    &[("address", &url), ("error", &error)],
                ),
                dated,
            );
        }
    };
    let f = match Catalogue::from_json(&bytes) {
        Ok(c) => catalogue_ok(&url, &c),
        Err(error) => found(
            Status::Failed,
            Code::CatalogueInvalid,
            &[("address", &url), ("error", &error)],
        ),
    };
    (f, dated)
}

fn catalogue_ok(address: &str, c: &Catalogue) -> Found {
    found(
        Status::Ok,
        Code::CatalogueOk,
        &[
            ("address", address),
            ("version", &c.version),
            ("packages", &c.packages.len().to_string()),
        ],
    )
}

/// Our clock against the first server that said what time it was. A `Date` has whole seconds,
/// so agreement within a second or two is all it can show.
fn clock(dated: Dated, tolerance: i64) -> Found {
    let Some((host, theirs, ours)) = dated else {
        return found(Status::Skipped, Code::ClockUnknown, &[]);
    };
    let skew = (ours - theirs).num_seconds();
    let values = |s: i64| {
        vec![
            ("address", host.clone()),
            ("skew", s.to_string()),
            ("tolerance", tolerance.to_string()),
        ]
    };
    let (status, code, values) = if skew > CLOCK_TOLERANCE {
        (Status::Failed, Code::ClockAhead, values(skew))
    } else if skew < -CLOCK_TOLERANCE {
        (Status::Failed, Code::ClockBehind, values(-skew))
    } else {
        (Status::Ok, Code::ClockOk, values(skew.abs().max(1)))
    };
    Found {
        status,
        code,
        values,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn the_clock_is_compared_with_the_servers_date_both_ways() {
        let theirs = DateTime::parse_from_rfc2822("Tue, 01 Dec 2026 10:00:00 GMT")
            .unwrap()
            .with_timezone(&Utc);
        let check = |ours: &str| clock(Some(("api.calendly.com".into(), theirs, at(ours))), 180);
        let ok = check("2026-12-01T10:00:01.400Z");
        assert_eq!((ok.status, ok.code), (Status::Ok, Code::ClockOk));
        let ahead = check("2026-12-01T10:02:05Z");
        assert_eq!(
            (ahead.status, ahead.code),
            (Status::Failed, Code::ClockAhead)
        );
        assert!(ahead.values.contains(&("skew", "125".into())));
        let behind = check("2026-12-01T09:58:00Z");
        assert_eq!(
            (behind.status, behind.code),
            (Status::Failed, Code::ClockBehind)
        );
        assert!(behind.values.contains(&("skew", "120".into())));
        let unknown = clock(None, 180);
        assert_eq!(
            (unknown.status, unknown.code),
            (Status::Skipped, Code::ClockUnknown)
        );
    }

    #[test]
    fn a_finding_is_written_out_with_its_values_and_without_secrets() {
        let f = found(
            Status::Failed,
            Code::SmtpLoginRefused,
            &[
                ("address", "smtp.example.com:587"),
                ("error", "535 bad password hunter22"),
            ],
        );
        let c = write_out(CheckName::Smtp, f, &["hunter22".into()]);
        assert_eq!(
            c.message,
            "SMTP login refused by smtp.example.com:587: 535 bad password ****"
        );
        assert_eq!(
            c.fix.as_deref(),
            Some("Check SMTP_USERNAME / SMTP_PASSWORD")
        );
        assert!(!format!("{c:?}").contains("hunter22"));
    }

    #[test]
    fn the_status_pages_english_says_what_the_cli_says() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../islands/src/i18n/en/system.json"
        );
        let catalogue: BTreeMap<String, String> =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let mut checked = 0;
        for (key, text) in &catalogue {
            let (kind, code) = match key.strip_prefix("admin.system.check.") {
                Some(code) => ("check", code),
                None => match key.strip_prefix("admin.system.fix.") {
                    Some(code) => ("fix", code),
                    None => continue,
                },
            };
            let code: Code = serde_json::from_value(serde_json::json!(code))
                .unwrap_or_else(|_| panic!("{key} names no finding of the API"));
            let (message, fix) = code.english();
            let ours = if kind == "check" { Some(message) } else { fix };
            assert_eq!(ours, Some(text.as_str()), "{key}");
            checked += 1;
        }
        assert!(checked > 60, "{checked}");
    }
}
