//! Settles transactions still pending 15 minutes after they started (a lost callback, a closed
//! browser) by asking PayTabs, with the same settlement as the callback. Carts that never got
//! a PayTabs reference within a day are marked failed. Transfer orders nobody confirmed in time
//! lapse, and sponsors' invoices past their due date are reminded once.

use std::time::Duration;

use chrono::Utc;
use tokio_util::sync::CancellationToken;

use super::settle;
use crate::domain::ts;
use crate::operations::jobs::{self, Job};
use crate::state::AppState;

/// One pass; returns how many transactions it settled to a final state.
pub async fn run_once(state: &AppState) -> anyhow::Result<usize> {
    super::transfers::lapse_due(state, Utc::now()).await?;
    remind_overdue_invoices(state).await?;
    let Some(paytabs) = &state.paytabs else {
        return Ok(0);
    };
    let cutoff = ts(Utc::now() - chrono::Duration::minutes(15));
    let stale: Vec<(String, String)> = sqlx::query_as(
        "SELECT cart_id, tran_ref FROM payment_transactions
          WHERE status = 'pending' AND provider = 'paytabs' AND flagged_reason IS NULL AND tran_ref IS NOT NULL AND created_at < $1
          ORDER BY created_at LIMIT 50",
    )
    .bind(&cutoff)
    .fetch_all(&state.db.pool)
    .await?;
    let mut settled = 0;
    for (cart_id, tran_ref) in stale {
        match paytabs.query(&tran_ref).await {
            Ok((tx, payload)) if tx.cart_id == cart_id => {
                let outcome =
                    settle::apply(state, &super::result::PaymentResult::from(&tx), &payload)
                        .await?;
                if matches!(
                    outcome,
                    settle::Outcome::Completed | settle::Outcome::Failed
                ) {
                    settled += 1;
                }
            }
            Ok(_) => tracing::error!(cart_id, "PayTabs answered a query for another cart"),
            Err(e) => tracing::warn!(
                cart_id,
                error = format!("{e:#}"),
                "reconciliation query failed"
            ),
        }
    }
    super::orders::fail_abandoned(&mut *state.db.pool.acquire().await?, Utc::now()).await?;
    Ok(settled)
}

/// Sponsors' invoices past their due date become overdue and their contact is reminded once.
async fn remind_overdue_invoices(state: &AppState) -> anyhow::Result<()> {
    let site = state.site();
    let ctx = state.context(&site);
    let mut tx = state.db.pool.begin().await?;
    let mail =
        crate::sponsors::invoices::remind_overdue(&mut tx, &ctx, state.config.app_secret.expose())
            .await?;
    crate::email::enqueue_all(&mut tx, &mail).await?;
    tx.commit().await?;
    state.wake_mail(&mail);
    Ok(())
}

/// Every 5 minutes until shutdown.
pub async fn run(state: AppState, shutdown: CancellationToken) {
    loop {
        if let Err(e) = jobs::run(
            &state.db,
            &state.metrics,
            Job::Reconciliation,
            run_once(&state),
        )
        .await
        {
            tracing::error!(error = format!("{e:#}"), "payment reconciliation failed");
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(300)) => {}
            _ = shutdown.cancelled() => break,
        }
    }
}
