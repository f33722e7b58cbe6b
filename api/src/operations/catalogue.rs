//! The catalogue versions the API loaded from the site, and the loads that failed, for the
//! status page: each process records its loads as `Catalogues::loads` tells them (its first at
//! start, then each new version a page brought in), the newest [`KEEP`] kept.

use std::sync::Arc;

use serde::Serialize;
use tokio_util::sync::CancellationToken;
use utoipa::ToSchema;

use crate::catalogue::{Catalogues, Load};
use crate::db::Db;
use crate::domain::{new_id, ts};

const KEEP: i64 = 50;

/// Records every load of `catalogue` until `shutdown`: the one it has now, then each next one.
pub async fn record_loads(db: Db, catalogue: Arc<Catalogues>, shutdown: CancellationToken) {
    let source = catalogue.source().to_string();
    let mut loads = catalogue.loads();
    loop {
        let load = loads.borrow_and_update().clone();
        if let Err(e) = record(&db, &source, &load).await {
            tracing::warn!(
                error = format!("{e:#}"),
                "could not record a catalogue load"
            );
        }
        tokio::select! {
            changed = loads.changed() => if changed.is_err() { break },
            _ = shutdown.cancelled() => break,
        }
    }
}

async fn record(db: &Db, source: &str, load: &Load) -> Result<(), sqlx::Error> {
    let (version, error) = match &load.outcome {
        Ok(version) => (Some(version.as_str()), None),
        Err(error) => (None, Some(error.as_str())),
    };
    let mut tx = db.pool.begin().await?;
    sqlx::query(
        "INSERT INTO catalogue_loads (id, at, version, source, error) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(new_id())
    .bind(ts(load.at))
    .bind(version)
    .bind(source)
    .bind(error)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "DELETE FROM catalogue_loads WHERE id NOT IN (SELECT id FROM catalogue_loads ORDER BY at DESC, id LIMIT $1)",
    )
    .bind(KEEP)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

/// The catalogue as the status page shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CatalogueStatus {
    /// The newest version an API process loaded, when, and from where; `null` before any.
    pub version: Option<String>,
    pub loaded_at: Option<String>,
    pub source: Option<String>,
    /// A load that failed after it (the last good catalogue stayed), and why.
    pub failed_at: Option<String>,
    pub error: Option<String>,
}

pub async fn status(db: &Db) -> Result<CatalogueStatus, sqlx::Error> {
    let loaded: Option<(String, String, String)> = sqlx::query_as(
        "SELECT version, at, source FROM catalogue_loads WHERE version IS NOT NULL ORDER BY at DESC, id LIMIT 1",
    )
    .fetch_optional(db.reader())
    .await?;
    let failed: Option<(String, String)> = sqlx::query_as(
        "SELECT at, error FROM catalogue_loads WHERE version IS NULL AND at > $1 ORDER BY at DESC, id LIMIT 1",
    )
    .bind(loaded.as_ref().map(|l| l.1.as_str()).unwrap_or(""))
    .fetch_optional(db.reader())
    .await?;
    let (version, loaded_at, source) = match loaded {
        Some((v, at, s)) => (Some(v), Some(at), Some(s)),
        None => (None, None, None),
    };
    let (failed_at, error) = match failed {
        Some((at, e)) => (Some(at), Some(e)),
        None => (None, None),
    };
    Ok(CatalogueStatus {
        version,
        loaded_at,
        source,
        failed_at,
        error,
    })
}
