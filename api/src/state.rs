//! What every request handler can reach: the database, the configuration, the site's
//! settings and catalogue, the rate limiter, the mail worker's wake-up, and the payment and scheduling
//! clients. Built once in `startup`; domain functions take only the part they need.

use std::sync::Arc;

use tokio::sync::Notify;

use crate::configuration::Config;
use crate::db::Db;
use crate::rate_limit::RateLimiter;
use crate::read_cache::{CachedBody, ReadCache};
use crate::sessions::SessionRow;
use crate::site::SiteInfo;

#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub config: Arc<Config>,
    /// The packages purchases are priced from, as the site publishes them.
    pub catalogue: Arc<crate::catalogue::Catalogues>,
    pub limiter: Arc<RateLimiter>,
    /// Wakes the email worker after a commit that queued mail.
    pub mail_wake: Arc<Notify>,
    /// What the email worker sends through (the status page's Retry uses it too); `None` in
    /// development without SMTP, where mail waits in the outbox.
    pub mail: Option<Arc<dyn crate::email::transport::MailTransport>>,
    pub paytabs: Option<crate::providers::paytabs::PayTabs>,
    /// Paymob (mobile wallets and kiosks), when its keys are set.
    pub paymob: Option<crate::providers::paymob::Paymob>,
    /// Calendly's API (cancel an event, refresh a meeting link), when CALENDLY_TOKEN is set.
    pub calendly: Option<crate::providers::calendly::Client>,
    /// Exact caches of the session lookup and the client's dashboard (`read_cache`).
    pub sessions: Arc<ReadCache<String, SessionRow>>,
    pub dashboards: Arc<ReadCache<(String, &'static str), CachedBody>>,
    /// What `/metrics` reports (off without `METRICS_TOKEN`).
    pub metrics: crate::monitoring::Metrics,
    /// The coach's editor (`/admin/content`), when a content repository is configured.
    pub content: Option<Arc<crate::content_editor::ContentEditor>>,
}

impl AppState {
    /// The site's settings the API uses, from the current catalogue: an edit on the site
    /// reaches them with the first purchase that brings its catalogue in (see `catalogue`).
    pub fn site(&self) -> Arc<SiteInfo> {
        self.catalogue.site()
    }

    /// What a domain change needs, as of now, with the settings of `site` (the caller
    /// holds them: `let site = state.site();`).
    pub fn context<'a>(&'a self, site: &'a SiteInfo) -> crate::domain::Context<'a> {
        crate::domain::Context {
            backend: self.db.backend,
            now: chrono::Utc::now(),
            site,
            base_url: &self.config.public_base_url,
        }
    }

    /// The configured provider that takes `provider`'s payments, if its keys are set.
    pub fn gateway(
        &self,
        provider: content_model::payments::Provider,
    ) -> Option<&dyn crate::payments::gateway::Gateway> {
        use content_model::payments::Provider;
        match provider {
            Provider::Paytabs => self
                .paytabs
                .as_ref()
                .map(|g| g as &dyn crate::payments::gateway::Gateway),
            Provider::Paymob => self
                .paymob
                .as_ref()
                .map(|g| g as &dyn crate::payments::gateway::Gateway),
        }
    }

    /// After a commit that queued `mail`: the worker sends it now rather than at its next poll.
    pub fn wake_mail<T>(&self, mail: &[T]) {
        if !mail.is_empty() {
            self.mail_wake.notify_one();
        }
    }
}
