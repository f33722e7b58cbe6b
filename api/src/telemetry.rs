//! Logs: human-readable in development, JSON lines in production. `RUST_LOG` filters.

use tracing_subscriber::EnvFilter;

use crate::configuration::Environment;

pub fn init(environment: Environment) {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    let _ = match environment {
        Environment::Production => builder.json().flatten_event(true).try_init(),
        Environment::Development => builder.compact().try_init(),
    };
}
