//! Wiring: configuration → database (migrated) → state → router → listener, plus the email
//! worker and graceful shutdown. Tests build the same `Application` on port 0.
//!
//! [`Extensions`] is how code outside this crate adds to an application without the API
//! knowing what it is: routers served beside the API's own, and a mail transport to use instead
//! of SMTP. `devserver` and the tests mount the local PayTabs and Calendly and the mailbox
//! through it (the `devkit` crate); the `api` binary adds nothing.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{Method, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tower_http::trace::TraceLayer;

use crate::catalogue::Catalogues;
use crate::configuration::Config;
use crate::db::Db;
use crate::email::transport::{MailTransport, SmtpTransport};
use crate::error::AppError;
use crate::monitoring::track_requests;
use crate::rate_limit::RateLimiter;
use crate::routes;
use crate::site::SiteInfo;
use crate::state::AppState;

/// What a caller adds to the API (see the module's documentation). Empty by default.
#[derive(Default)]
pub struct Extensions {
    routers: Vec<Router>,
    mail: Option<Arc<dyn MailTransport>>,
}

impl Extensions {
    pub fn new() -> Extensions {
        Extensions::default()
    }

    /// Serves `router` beside the API, outside its middleware (same-origin check, request log,
    /// the JSON 404), as a separate host would be. Its routes win over the API's fallback.
    pub fn merge(mut self, router: Router) -> Extensions {
        self.routers.push(router);
        self
    }

    /// Sends mail through `transport` instead of the SMTP server of the configuration.
    pub fn mail_transport(mut self, transport: Arc<dyn MailTransport>) -> Extensions {
        self.mail = Some(transport);
        self
    }
}

pub struct Application {
    listener: TcpListener,
    router: Router,
    state: AppState,
    shutdown: CancellationToken,
    workers: Vec<tokio::task::JoinHandle<()>>,
}

impl Application {
    pub async fn build(config: Config) -> anyhow::Result<Application> {
        let listener = TcpListener::bind((config.host.as_str(), config.port)).await?;
        Self::build_on(config, listener).await
    }

    /// Builds on a listener bound by the caller (tests bind port 0 first, so the public base
    /// URL in emailed links can name the real port).
    pub async fn build_on(config: Config, listener: TcpListener) -> anyhow::Result<Application> {
        Self::build_with(config, listener, Extensions::default()).await
    }

    /// Like [`Application::build_on`], with what `extensions` adds.
    pub async fn build_with(
        config: Config,
        listener: TcpListener,
        extensions: Extensions,
    ) -> anyhow::Result<Application> {
        let db = Db::connect(config.database_url.expose()).await?;
        db.migrate().await?;
        let catalogue = Catalogues::load(config.catalogue_source()).await?;
        let site = SiteInfo::from_catalogue(&catalogue.current())?;
        adopt_existing_credits(&db, &site).await?;
        let transport: Option<Arc<dyn MailTransport>> = match (extensions.mail, &config.smtp) {
            (Some(transport), _) => Some(transport),
            (None, Some(smtp)) => Some(Arc::new(SmtpTransport::new(smtp)?)),
            // Only in development: production refuses to start without SMTP_HOST.
            (None, None) => {
                tracing::warn!("SMTP_HOST is not set: email is queued in the outbox but not sent");
                None
            }
        };
        let paytabs = config
            .paytabs
            .clone()
            .map(crate::providers::paytabs::PayTabs::new);
        let paymob = config
            .paymob
            .clone()
            .map(crate::providers::paymob::Paymob::new);
        let calendly = config
            .calendly
            .token
            .is_some()
            .then(|| crate::providers::calendly::Client::new(config.calendly.clone()));
        let metrics = match config.metrics_token {
            Some(_) => crate::monitoring::Metrics::enabled(),
            None => crate::monitoring::Metrics::disabled(),
        };
        let content = match &config.content_repo {
            Some(repo) => Some(Arc::new(
                crate::content_editor::ContentEditor::open(repo.clone()).await?,
            )),
            None => None,
        };
        let state = AppState {
            db: db.clone(),
            limiter: Arc::new(RateLimiter::for_database(&db, config.rate_limits)),
            config: Arc::new(config),
            catalogue: Arc::new(catalogue),
            mail_wake: Arc::new(Notify::new()),
            mail: transport.clone(),
            paytabs,
            paymob,
            calendly,
            sessions: Default::default(),
            dashboards: Default::default(),
            metrics,
            content: content.clone(),
        };
        // A token, not a Notify: a worker busy when the stop comes (sending an email, sweeping)
        // still sees it at its next wait; a Notify wakes only the waiters of that instant.
        let shutdown = CancellationToken::new();
        let mut workers = vec![
            tokio::spawn(crate::payments::reconcile::run(
                state.clone(),
                shutdown.clone(),
            )),
            tokio::spawn(crate::scheduling::jobs::run(
                state.clone(),
                shutdown.clone(),
            )),
            tokio::spawn(crate::lots::run(state.clone(), shutdown.clone())),
            tokio::spawn(state.metrics.clone().upkeep(shutdown.clone())),
            tokio::spawn(crate::operations::alerts::run(
                state.clone(),
                shutdown.clone(),
            )),
            tokio::spawn(crate::operations::catalogue::record_loads(
                db.clone(),
                state.catalogue.clone(),
                shutdown.clone(),
            )),
        ];
        if let Some(editor) = content {
            workers.push(tokio::spawn(editor.run_retries(shutdown.clone())));
        }
        if let Some(transport) = transport {
            workers.push(tokio::spawn(crate::email::run_worker(
                db,
                transport,
                state.config.mail_from.clone(),
                state.mail_wake.clone(),
                shutdown.clone(),
                state.metrics.clone(),
            )));
        }
        let router = extensions
            .routers
            .into_iter()
            .fold(router(state.clone()), Router::merge);
        Ok(Application {
            listener,
            router,
            state,
            shutdown,
            workers,
        })
    }

    pub fn port(&self) -> u16 {
        self.listener.local_addr().map(|a| a.port()).unwrap_or(0)
    }

    pub fn state(&self) -> AppState {
        self.state.clone()
    }

    /// The routes this application serves (its own and the extensions'), sharing its state:
    /// `devserver` mounts them in the site's server so `/api/*` needs no proxy hop.
    pub fn router(&self) -> Router {
        self.router.clone()
    }

    /// Serves until Ctrl+C or SIGTERM, finishing requests in flight, then stops the workers.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.run_until(shutdown_signal()).await
    }

    /// Serves until `stop` resolves, finishing requests in flight, then stops the workers and
    /// waits for each to finish what it is doing.
    pub async fn run_until(
        self,
        stop: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let service = self
            .router
            .into_make_service_with_connect_info::<SocketAddr>();
        let result = axum::serve(self.listener, service)
            .with_graceful_shutdown(stop)
            .await;
        self.shutdown.cancel();
        for worker in self.workers {
            let _ = worker.await;
        }
        result
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = terminate => {} }
    tracing::info!("shutting down");
}

/// The API's own routes and middleware.
pub fn router(state: AppState) -> Router {
    let (api, _) = routes::router().split_for_parts();
    Router::new()
        .merge(api)
        .merge(crate::openapi::router())
        .merge(routes::metrics::router())
        .fallback(|| async { AppError::NotFound("No such API route".into()) })
        .method_not_allowed_fallback(|| async { AppError::MethodNotAllowed })
        .layer(middleware::from_fn(crate::error::one_error_shape))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            same_origin_only,
        ))
        .layer(TraceLayer::new_for_http().make_span_with(request_span))
        // Whatever answers, the body has been read (see whole_body.rs).
        .layer(middleware::from_fn(crate::whole_body::read_whole_body))
        // Outermost: every answer is counted, whichever layer gave it.
        .layer(middleware::from_fn_with_state(
            state.metrics.clone(),
            track_requests,
        ))
        .with_state(state)
}

/// The span of a request. It logs the path only: query strings carry emailed tokens. Traces
/// (OTLP, when switched on) name it by the route's template, which holds no id.
fn request_span(req: &Request<Body>) -> tracing::Span {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str);
    tracing::info_span!(
        "request",
        method = %req.method(),
        path = %req.uri().path(),
        route,
        "otel.name" = format!("{} {route}", req.method()),
        "otel.kind" = "server",
    )
}

/// Routes that other servers or mail clients call, authenticated by a signature or a token
/// in the URL instead of a cookie, so they carry no Origin of ours.
const CROSS_SITE_ALLOWED: [&str; 6] = [
    "/api/newsletter/unsubscribe",
    "/api/webhooks/",
    "/api/payments/paytabs/callback",
    "/api/payments/paytabs/return",
    "/api/payments/paymob/callback",
    "/api/invoices/paytabs-return",
];

/// CSRF defence for cookie-authenticated routes: a state-changing request must come from the
/// site's own origin (the other half is that such routes only accept JSON bodies).
async fn same_origin_only(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let changes_state = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let path = req.uri().path();
    if !changes_state || CROSS_SITE_ALLOWED.iter().any(|p| path.starts_with(p)) {
        return next.run(req).await;
    }
    let origin = req
        .headers()
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
        .map(|o| o.trim_end_matches('/'));
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok());
    let allowed = origin.is_some_and(|o| {
        o == state.config.public_base_url
            || state.config.extra_origins.iter().any(|e| e == o)
            || host.is_some_and(|h| o == format!("http://{h}") || o == format!("https://{h}"))
    });
    if allowed {
        next.run(req).await
    } else {
        AppError::Forbidden("Cross-site request refused".into()).into_response()
    }
}

/// Credits an account had before lots existed become one lot lasting 12 months from the first
/// start after the upgrade: the longest validity the pricing cards promise, so nobody loses
/// credits sooner than any package said. Does nothing once every account has its lots.
pub async fn adopt_existing_credits(db: &Db, site: &SiteInfo) -> anyhow::Result<()> {
    let validity = crate::domain::validity::Validity::months_from(
        chrono::Utc::now(),
        ADOPTED_CREDITS_MONTHS,
        site.time_zone,
    );
    let adopted = crate::domain::credits::adopt_credits_without_lot(&db.pool, &validity).await?;
    if adopted > 0 {
        tracing::info!(
            accounts = adopted,
            expires_on = %validity.expires_on_text(),
            "credits from before lots became one lot per account"
        );
    }
    Ok(())
}

/// See [`adopt_existing_credits`].
pub const ADOPTED_CREDITS_MONTHS: u32 = 12;
