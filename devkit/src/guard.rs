//! What every stand-in checks before it is built.

use api::configuration::{Config, Environment};

/// Stand-ins replace real services: refuse to build one for a production configuration.
pub fn ensure_development(config: &Config, what: &str) -> anyhow::Result<()> {
    anyhow::ensure!(
        config.environment == Environment::Development,
        "{what} is for development and tests; it cannot run in production"
    );
    Ok(())
}
