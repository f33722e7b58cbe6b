//! Wiring: configuration → database (migrated) → state → router → listener, plus the email
//! worker and graceful shutdown. Tests build the same `Application` on port 0.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{Method, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tower_http::trace::TraceLayer;

use crate::configuration::Config;
use crate::db::Db;
use crate::email::transport::Transport;
use crate::error::AppError;
use crate::rate_limit::RateLimiter;
use crate::routes;
use crate::site::SiteInfo;
use crate::state::AppState;

pub struct Application {
    listener: TcpListener,
    router: Router,
    state: AppState,
    shutdown: Arc<Notify>,
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
        let db = Db::connect(config.database_url.expose()).await?;
        db.migrate().await?;
        let site = SiteInfo::load(&config.content_dir)?;
        let transport = Arc::new(Transport::from_config(&config)?);
        let paytabs = config
            .paytabs
            .clone()
            .map(crate::payments::paytabs::PayTabs::new);
        let paytabs_standin = match (&config.paytabs, config.paytabs_standin) {
            (Some(pt), true) => Some(crate::payments::standin::StandIn::new(pt.clone())),
            (None, true) => anyhow::bail!(
                "PAYTABS_STANDIN needs PAYTABS_PROFILE_ID, PAYTABS_SERVER_KEY and PAYTABS_BASE_URL pointing at it"
            ),
            _ => None,
        };
        let calendly = config
            .calendly
            .token
            .is_some()
            .then(|| crate::scheduling::calendly::Client::new(config.calendly.clone()));
        let calendly_standin = if config.calendly_standin {
            let c = &config.calendly;
            let (Some(key), Some(token)) = (c.signing_keys.first(), &c.token) else {
                anyhow::bail!(
                    "CALENDLY_STANDIN needs CALENDLY_SIGNING_KEYS, CALENDLY_TOKEN and CALENDLY_API_BASE pointing at it"
                );
            };
            Some(crate::scheduling::standin::CalendlyStandIn::new(
                crate::scheduling::standin::StandInConfig {
                    public_base: c
                        .api_base
                        .trim_end_matches('/')
                        .trim_end_matches("/api")
                        .to_string(),
                    webhook_url: format!("{}/api/webhooks/calendly", config.public_base_url),
                    signing_key: key.expose().to_string(),
                    token: token.expose().to_string(),
                    time_zone: site.time_zone,
                    host_email: site.coach_email.clone(),
                    event_name: "Executive Coaching Session (60 min)".into(),
                },
            ))
        } else {
            None
        };
        let state = AppState {
            db: db.clone(),
            limiter: Arc::new(RateLimiter::for_database(&db, config.rate_limits)),
            config: Arc::new(config),
            site: Arc::new(site),
            mail_wake: Arc::new(Notify::new()),
            paytabs,
            paytabs_standin,
            calendly,
            calendly_standin,
        };
        let shutdown = Arc::new(Notify::new());
        let workers = vec![
            tokio::spawn(crate::email::run_worker(
                db,
                transport,
                state.config.mail_from.clone(),
                state.mail_wake.clone(),
                shutdown.clone(),
            )),
            tokio::spawn(crate::payments::reconcile::run(
                state.clone(),
                shutdown.clone(),
            )),
            tokio::spawn(crate::scheduling::jobs::run(
                state.clone(),
                shutdown.clone(),
            )),
        ];
        Ok(Application {
            listener,
            router: router(state.clone()),
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

    /// Serves until Ctrl+C or SIGTERM, finishing requests in flight, then stops the worker.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let service = self
            .router
            .into_make_service_with_connect_info::<SocketAddr>();
        let result = axum::serve(self.listener, service)
            .with_graceful_shutdown(shutdown_signal())
            .await;
        self.shutdown.notify_waiters();
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

pub fn router(state: AppState) -> Router {
    let mut app = Router::new()
        .merge(routes::health::router())
        .merge(routes::auth::router())
        .merge(routes::contact::router())
        .merge(routes::newsletter::router())
        .merge(routes::payments::router())
        .merge(routes::webhooks::router())
        .merge(routes::dashboard::router())
        .merge(routes::bookings::router())
        .merge(routes::admin::router())
        .merge(crate::openapi::router());
    if state.config.uses_local_mailbox() {
        app = app.merge(routes::dev::router());
    }
    let standin = state.paytabs_standin.clone();
    let calendly_standin = state.calendly_standin.clone();
    let app = app
        .fallback(|| async { AppError::NotFound("No such API route".into()) })
        .method_not_allowed_fallback(|| async { AppError::MethodNotAllowed })
        .layer(middleware::from_fn(crate::error::one_error_shape))
        .layer(middleware::from_fn_with_state(state.clone(), same_origin_only))
        // Log the path only: query strings carry emailed tokens.
        .layer(TraceLayer::new_for_http().make_span_with(|req: &Request<Body>| {
            tracing::info_span!("request", method = %req.method(), path = %req.uri().path())
        }))
        .with_state(state);
    // The stand-in plays PayTabs: outside our middleware, as a separate host would be.
    let app = match standin {
        Some(s) => app.merge(crate::payments::standin::router(s)),
        None => app,
    };
    match calendly_standin {
        Some(s) => app.merge(crate::scheduling::standin::router(s)),
        None => app,
    }
}

/// Routes that other servers or mail clients call, authenticated by a signature or a token
/// in the URL instead of a cookie, so they carry no Origin of ours.
const CROSS_SITE_ALLOWED: [&str; 4] = [
    "/api/newsletter/unsubscribe",
    "/api/webhooks/",
    "/api/payments/paytabs/callback",
    "/api/payments/paytabs/return",
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
