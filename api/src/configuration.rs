//! Typed configuration from the environment. Secrets are wrapped in [`Secret`] (its own
//! module, which the provider clients share), whose `Debug` prints nothing, so logging the
//! configuration never leaks them.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};

use crate::secret::Secret;

/// PayTabs (docs/integrations.md §1): the profile and the server key that authenticates our calls
/// and signs PayTabs' callbacks.
#[derive(Debug, Clone)]
pub struct PayTabsConfig {
    pub base_url: String,
    pub profile_id: i64,
    pub server_key: Secret,
}

/// Calendly (docs/integrations.md §2).
#[derive(Debug, Clone)]
pub struct CalendlyConfig {
    /// Webhook signing keys, newest first; any of them verifies (rotation).
    pub signing_keys: Vec<Secret>,
    /// Seconds a signature's timestamp may differ from now.
    pub tolerance_seconds: i64,
    /// `https://api.calendly.com` (or the stand-in's API).
    pub api_base: String,
    /// Personal access token for the API calls (refresh a meeting link, cancel an event).
    pub token: Option<Secret>,
    /// The page clients book on (`https://calendly.com/<host>/<event>`).
    pub scheduling_url: String,
}

/// The coach's editor (issue 25, `content_editor`): the git working copy it edits.
#[derive(Debug, Clone)]
pub struct ContentRepoConfig {
    /// The working copy (`CONTENT_REPO`): cloned from `remote` at start when missing.
    pub repo: PathBuf,
    /// The branch saves are committed and pushed to (`CONTENT_BRANCH`, default `main`).
    pub branch: String,
    /// Where saves are pushed (`CONTENT_REMOTE`, an `ssh://`, `git@…:` or `https://` address,
    /// or a path); without it saves are committed locally only.
    pub remote: Option<Secret>,
    /// A deploy key's file for an SSH remote (`CONTENT_GIT_SSH_KEY`).
    pub ssh_key: Option<PathBuf>,
    /// A token for an HTTPS remote (`CONTENT_GIT_TOKEN`), sent as git's HTTP header.
    pub token: Option<Secret>,
    /// Commit each save (`false`: write the files only; `devserver` on the project's own
    /// folder without `CONTENT_REPO`).
    pub commit: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Environment {
    Development,
    Production,
}

/// How to reach the SMTP server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpTls {
    /// TLS from the first byte (port 465).
    Implicit,
    /// Plain connection upgraded with STARTTLS, refusing to continue without it (port 587).
    StartTls,
    /// No encryption: only for a local test server.
    None,
}

#[derive(Debug, Clone)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub tls: SmtpTls,
    pub username: Option<String>,
    pub password: Option<Secret>,
}

#[derive(Debug, Clone)]
pub struct Config {
    pub environment: Environment,
    /// Address to listen on: 127.0.0.1 locally, 0.0.0.0 in a container or VM (`HOST`).
    pub host: String,
    pub port: u16,
    /// `sqlite://…` or `postgres://…`.
    pub database_url: Secret,
    /// The public site's origin, for links in emails and the allowed `Origin` of requests.
    pub public_base_url: String,
    /// More origins allowed to call state-changing routes (e.g. a deploy preview).
    pub extra_origins: Vec<String>,
    pub cookie_secure: bool,
    /// Take the client address from `X-Forwarded-For` (behind Netlify's proxy).
    pub trust_proxy: bool,
    /// Required in production. Without it (development), mail waits in the outbox unless the
    /// application is built with another transport (`startup::Extensions`).
    pub smtp: Option<SmtpConfig>,
    /// `From:` of every email, e.g. `Nadine Kamel Coaching <no-reply@example.com>`.
    pub mail_from: String,
    /// Where the API loads the catalogue (packages and settings) the site publishes
    /// (`CATALOGUE_URL`; in production `{PUBLIC_BASE_URL}/catalogue.json` by default, https
    /// only). `None` (development only): built from `content_dir` as the build would.
    pub catalogue_url: Option<String>,
    /// The site's `content/` folder, read for the catalogue in development when no
    /// `CATALOGUE_URL` is set (`CONTENT_DIR`). Production never reads it.
    pub content_dir: PathBuf,
    pub session_idle: Duration,
    pub session_absolute: Duration,
    /// Turn off the per-IP and per-account limits (load tests only).
    pub rate_limits: bool,
    /// PayTabs credentials; without them online purchases answer 'Failed to initiate payment'.
    pub paytabs: Option<PayTabsConfig>,
    /// Paymob credentials (wallets and kiosks); without them a Paymob method answers 'Failed
    /// to initiate payment' and its callbacks are refused.
    pub paymob: Option<crate::providers::paymob::PaymobConfig>,
    /// Calendly webhooks and API; without signing keys the webhook refuses every delivery.
    pub calendly: CalendlyConfig,
    /// Signs the client reference in booking links (`APP_SECRET`; required in production).
    pub app_secret: Secret,
    /// The bearer token of `/metrics` (`METRICS_TOKEN`); without it there are no metrics.
    pub metrics_token: Option<Secret>,
    /// The coach's editor at `/admin/content` (`CONTENT_REPO`…); off without it.
    pub content_repo: Option<ContentRepoConfig>,
}

/// Where configuration values come from: the process environment, or (for `devserver`) the
/// environment with local defaults behind it. Empty values count as unset.
struct Vars<'a>(&'a dyn Fn(&str) -> Option<String>);

impl Vars<'_> {
    fn var(&self, name: &str) -> Option<String> {
        (self.0)(name)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    }

    fn flag(&self, name: &str, default: bool) -> anyhow::Result<bool> {
        match self.var(name).as_deref() {
            None => Ok(default),
            Some("1" | "true" | "yes" | "on") => Ok(true),
            Some("0" | "false" | "no" | "off") => Ok(false),
            Some(other) => bail!("{name} must be true or false, not `{other}`"),
        }
    }
}

impl Vars<'_> {
    /// `APP_ENV`: development (default) or production.
    fn environment(&self) -> anyhow::Result<Environment> {
        match self.var("APP_ENV").as_deref() {
            None | Some("development" | "dev" | "local") => Ok(Environment::Development),
            Some("production" | "prod") => Ok(Environment::Production),
            Some(other) => bail!("APP_ENV must be development or production, not `{other}`"),
        }
    }

    /// A port number, `default` when unset.
    fn port(&self, name: &str, default: u16) -> anyhow::Result<u16> {
        match self.var(name) {
            Some(p) => p
                .parse()
                .with_context(|| format!("{name} must be a number, not `{p}`")),
            None => Ok(default),
        }
    }

    /// The SMTP server, if `SMTP_HOST` is set; the port defaults by the TLS mode.
    fn smtp(&self) -> anyhow::Result<Option<SmtpConfig>> {
        let Some(host) = self.var("SMTP_HOST") else {
            return Ok(None);
        };
        let tls = match self.var("SMTP_TLS").as_deref() {
            None | Some("starttls") => SmtpTls::StartTls,
            Some("implicit" | "tls") => SmtpTls::Implicit,
            Some("none") => SmtpTls::None,
            Some(other) => bail!("SMTP_TLS must be starttls, implicit or none, not `{other}`"),
        };
        let default_port = if tls == SmtpTls::Implicit { 465 } else { 587 };
        Ok(Some(SmtpConfig {
            host,
            port: self.port("SMTP_PORT", default_port)?,
            tls,
            username: self.var("SMTP_USERNAME"),
            password: self.var("SMTP_PASSWORD").map(Secret::new),
        }))
    }

    /// PayTabs' credentials: both or neither.
    fn paytabs(&self) -> anyhow::Result<Option<PayTabsConfig>> {
        match (
            self.var("PAYTABS_PROFILE_ID"),
            self.var("PAYTABS_SERVER_KEY"),
        ) {
            (Some(profile), Some(key)) => Ok(Some(PayTabsConfig {
                base_url: self
                    .var("PAYTABS_BASE_URL")
                    .unwrap_or_else(|| "https://secure-egypt.paytabs.com".into()),
                profile_id: profile.parse().with_context(|| {
                    format!("PAYTABS_PROFILE_ID must be a number, not `{profile}`")
                })?,
                server_key: Secret::new(key),
            })),
            (None, None) => Ok(None),
            _ => bail!("set both PAYTABS_PROFILE_ID and PAYTABS_SERVER_KEY, or neither"),
        }
    }

    /// Paymob's keys and integrations: `PAYMOB_SECRET_KEY`, `PAYMOB_PUBLIC_KEY`,
    /// `PAYMOB_HMAC_SECRET` and `PAYMOB_INTEGRATIONS` (`wallet=4751234,kiosk=4751235`): all
    /// or none.
    fn paymob(&self) -> anyhow::Result<Option<crate::providers::paymob::PaymobConfig>> {
        let names = [
            "PAYMOB_SECRET_KEY",
            "PAYMOB_PUBLIC_KEY",
            "PAYMOB_HMAC_SECRET",
            "PAYMOB_INTEGRATIONS",
        ];
        let values: Vec<Option<String>> = names.iter().map(|n| self.var(n)).collect();
        let [Some(secret), Some(public), Some(hmac), Some(integrations)] = &values[..] else {
            if values.iter().any(Option::is_some) {
                bail!("set all of {} or none", names.join(", "));
            }
            return Ok(None);
        };
        Ok(Some(crate::providers::paymob::PaymobConfig {
            base_url: self
                .var("PAYMOB_BASE_URL")
                .unwrap_or_else(|| "https://accept.paymob.com".into()),
            secret_key: Secret::new(secret),
            public_key: public.clone(),
            hmac_secret: Secret::new(hmac),
            integration_ids: parse_integrations(integrations)?,
        }))
    }

    /// Calendly's webhook keys (comma-separated, newest first), tolerance and API.
    fn calendly(&self) -> anyhow::Result<CalendlyConfig> {
        Ok(CalendlyConfig {
            signing_keys: self
                .var("CALENDLY_SIGNING_KEYS")
                .map(|v| {
                    v.split(',')
                        .map(|k| Secret::new(k.trim()))
                        .filter(|k| !k.expose().is_empty())
                        .collect()
                })
                .unwrap_or_default(),
            tolerance_seconds: match self.var("CALENDLY_WEBHOOK_TOLERANCE") {
                Some(v) => v.parse().with_context(|| {
                    format!("CALENDLY_WEBHOOK_TOLERANCE must be seconds, not `{v}`")
                })?,
                None => 180,
            },
            api_base: self
                .var("CALENDLY_API_BASE")
                .unwrap_or_else(|| "https://api.calendly.com".into()),
            token: self.var("CALENDLY_TOKEN").map(Secret::new),
            scheduling_url: self.var("CALENDLY_SCHEDULING_URL").unwrap_or_default(),
        })
    }

    /// `APP_SECRET`: at least 32 characters; required in production.
    fn app_secret(&self, environment: Environment) -> anyhow::Result<Secret> {
        match (self.var("APP_SECRET"), environment) {
            (Some(s), _) if s.len() >= 32 => Ok(Secret::new(s)),
            (Some(_), _) => bail!("APP_SECRET must be at least 32 characters"),
            (None, Environment::Production) => {
                bail!("APP_SECRET is required in production (it signs booking links)")
            }
            (None, Environment::Development) => Ok(Secret::new(
                "development-only-secret-not-for-production-use",
            )),
        }
    }

    /// `METRICS_TOKEN`: at least 32 characters, like `APP_SECRET`; optional.
    fn metrics_token(&self) -> anyhow::Result<Option<Secret>> {
        match self.var("METRICS_TOKEN") {
            Some(t) if t.len() >= 32 => Ok(Some(Secret::new(t))),
            Some(_) => {
                bail!("METRICS_TOKEN must be at least 32 characters (e.g. `openssl rand -hex 32`)")
            }
            None => Ok(None),
        }
    }

    /// `CATALOGUE_URL`, in production by default `{PUBLIC_BASE_URL}/catalogue.json`; an
    /// http(s) address, https in production.
    fn catalogue_url(&self, environment: Environment) -> anyhow::Result<Option<String>> {
        let catalogue_url = match (self.var("CATALOGUE_URL"), environment) {
            (Some(url), _) => Some(url),
            (None, Environment::Production) => self
                .var("PUBLIC_BASE_URL")
                .map(|base| format!("{}/catalogue.json", base.trim_end_matches('/'))),
            (None, Environment::Development) => None,
        };
        if let Some(url) = &catalogue_url {
            let https = url.starts_with("https://");
            if environment == Environment::Production && !https && !on_a_private_network(url) {
                bail!(
                    "CATALOGUE_URL must be an https:// address in production, not `{url}` \
                     (it is the site's /catalogue.json; by default {{PUBLIC_BASE_URL}}/catalogue.json; \
                     http:// only to a container's name, such as http://web/catalogue.json)"
                );
            }
            if !https && !url.starts_with("http://") {
                bail!("CATALOGUE_URL must be an http(s):// address, not `{url}`");
            }
        }
        Ok(catalogue_url)
    }

    /// `ALLOWED_ORIGINS`: comma-separated, without trailing slashes.
    fn extra_origins(&self) -> Vec<String> {
        self.var("ALLOWED_ORIGINS")
            .map(|v| {
                v.split(',')
                    .map(|o| o.trim().trim_end_matches('/').to_string())
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// Production refuses to start without the values that matter: mail would go nowhere, links
/// in emails would point at localhost.
fn require_for_production(
    v: &Vars<'_>,
    environment: Environment,
    smtp: &Option<SmtpConfig>,
) -> anyhow::Result<()> {
    if environment == Environment::Production {
        if smtp.is_none() {
            bail!("SMTP_HOST is required in production (mail would otherwise go nowhere)");
        }
        if v.var("PUBLIC_BASE_URL").is_none() {
            bail!("PUBLIC_BASE_URL is required in production (links in emails use it)");
        }
    }
    Ok(())
}

impl Vars<'_> {
    /// `CONTENT_REPO` and the rest of the editor's repository, when set.
    fn content_repo(&self) -> Option<ContentRepoConfig> {
        let repo = PathBuf::from(self.var("CONTENT_REPO")?);
        Some(ContentRepoConfig {
            repo,
            branch: self.var("CONTENT_BRANCH").unwrap_or_else(|| "main".into()),
            remote: self.var("CONTENT_REMOTE").map(Secret::new),
            ssh_key: self.var("CONTENT_GIT_SSH_KEY").map(PathBuf::from),
            token: self.var("CONTENT_GIT_TOKEN").map(Secret::new),
            commit: true,
        })
    }
}

impl Config {
    /// Reads the environment. Unset values have local-development defaults; production
    /// (`APP_ENV=production`) requires the ones that matter.
    pub fn from_env() -> anyhow::Result<Config> {
        Config::from_lookup(&|name| std::env::var(name).ok())
    }

    /// Like [`Config::from_env`], with the values `lookup` gives for each variable's name.
    /// Reads (and refuses) the variables in a fixed order, so the first problem is reported.
    pub fn from_lookup(lookup: &dyn Fn(&str) -> Option<String>) -> anyhow::Result<Config> {
        let v = Vars(lookup);
        let environment = v.environment()?;
        let port = v.port("PORT", 8080)?;
        let smtp = v.smtp()?;
        require_for_production(&v, environment, &smtp)?;
        let paytabs = v.paytabs()?;
        let paymob = v.paymob()?;
        let calendly = v.calendly()?;
        let app_secret = v.app_secret(environment)?;
        let catalogue_url = v.catalogue_url(environment)?;
        let metrics_token = v.metrics_token()?;
        let content_repo = v.content_repo();
        let database_url = v
            .var("DATABASE_URL")
            .unwrap_or_else(|| "sqlite://data/app.db".into());
        Ok(Config {
            environment,
            host: v.var("HOST").unwrap_or_else(|| "127.0.0.1".into()),
            port,
            database_url: Secret::new(database_url),
            public_base_url: v
                .var("PUBLIC_BASE_URL")
                .unwrap_or_else(|| "http://127.0.0.1:8000".into())
                .trim_end_matches('/')
                .to_string(),
            extra_origins: v.extra_origins(),
            cookie_secure: v.flag("COOKIE_SECURE", true)?,
            trust_proxy: v.flag("TRUST_PROXY", false)?,
            smtp,
            mail_from: v
                .var("MAIL_FROM")
                .unwrap_or_else(|| "Coaching <no-reply@localhost>".into()),
            catalogue_url,
            content_dir: v
                .var("CONTENT_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| "content".into()),
            session_idle: Duration::from_secs(60 * 60 * 24 * 7),
            session_absolute: Duration::from_secs(60 * 60 * 24 * 30),
            rate_limits: v.flag("RATE_LIMITS", true)?,
            paytabs,
            paymob,
            calendly,
            app_secret,
            metrics_token,
            content_repo,
        })
    }
}

impl Config {
    /// Where the catalogue comes from: `CATALOGUE_URL`, else (development) `content_dir`.
    pub fn catalogue_source(&self) -> crate::catalogue::Source {
        match &self.catalogue_url {
            Some(url) => crate::catalogue::Source::Url(url.clone()),
            None => crate::catalogue::Source::ContentDir(self.content_dir.clone()),
        }
    }
}

/// `wallet=4751234,kiosk=4751235`: each of our Paymob methods to its integration id.
fn parse_integrations(text: &str) -> anyhow::Result<std::collections::BTreeMap<String, i64>> {
    let mut out = std::collections::BTreeMap::new();
    for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let parsed = pair.split_once('=').and_then(|(method, id)| {
            let method = content_model::payments::PaymentMethod::parse(method.trim())
                .filter(|m| m.offered_by(content_model::payments::Provider::Paymob))?;
            Some((method.code().to_string(), id.trim().parse::<i64>().ok()?))
        });
        let Some((method, id)) = parsed else {
            bail!(
                "PAYMOB_INTEGRATIONS: `{pair}` is not method=integration id (methods: wallet, kiosk, creditcard, valu, souhoola, forsa, halan)"
            );
        };
        out.insert(method, id);
    }
    anyhow::ensure!(!out.is_empty(), "PAYMOB_INTEGRATIONS names no integration");
    Ok(out)
}

/// An `http://` address whose host is a bare name (no dot, not an IP address): a service on a
/// private container network, such as compose's `http://web/catalogue.json`, which no one on
/// the Internet can answer for. Production accepts plain http for the catalogue only there.
fn on_a_private_network(url: &str) -> bool {
    let Some(rest) = url.strip_prefix("http://") else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit_once(':').map_or(authority, |(h, _)| h);
    !host.is_empty()
        && !host.contains(['.', '@', '[', ']'])
        && host.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && !host.chars().all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_do_not_print() {
        let s = Secret::new("hunter2");
        assert_eq!(format!("{s:?}"), "Secret(****)");
        let smtp = SmtpConfig {
            host: "h".into(),
            port: 1,
            tls: SmtpTls::None,
            username: None,
            password: Some(s),
        };
        assert!(!format!("{smtp:?}").contains("hunter2"));
    }

    fn config(vars: &[(&str, &str)]) -> anyhow::Result<Config> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_lookup(&|name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()))
    }

    #[test]
    fn the_catalogue_comes_from_the_site_in_production_and_from_content_in_development() {
        use crate::catalogue::Source;
        let dev = config(&[]).unwrap();
        assert_eq!(dev.catalogue_source(), Source::ContentDir("content".into()));
        let dev = config(&[("CATALOGUE_URL", "http://127.0.0.1:8000/catalogue.json")]).unwrap();
        assert_eq!(
            dev.catalogue_source(),
            Source::Url("http://127.0.0.1:8000/catalogue.json".into())
        );
        let production = [
            ("APP_ENV", "production"),
            ("SMTP_HOST", "smtp.example.com"),
            ("PUBLIC_BASE_URL", "https://www.example.com/"),
            ("APP_SECRET", "0123456789abcdef0123456789abcdef"),
        ];
        assert_eq!(
            config(&production).unwrap().catalogue_source(),
            Source::Url("https://www.example.com/catalogue.json".into())
        );
        let plain = [
            &production[..],
            &[("CATALOGUE_URL", "http://www.example.com/c.json")],
        ]
        .concat();
        let e = config(&plain).unwrap_err().to_string();
        assert!(e.contains("https"), "{e}");
        // Plain http only to a container's bare name (compose's `web`), never to an address.
        for (url, allowed) in [
            ("http://web/catalogue.json", true),
            ("http://web:8080/catalogue.json", true),
            ("http://localhost.example.com/c.json", false),
            ("http://10.0.0.7/catalogue.json", false),
            ("http://[::1]/catalogue.json", false),
            ("http://user@web/catalogue.json", false),
        ] {
            let env = [&production[..], &[("CATALOGUE_URL", url)]].concat();
            assert_eq!(config(&env).is_ok(), allowed, "{url}");
        }
        let e = config(&[("CATALOGUE_URL", "content/catalogue.json")])
            .unwrap_err()
            .to_string();
        assert!(e.contains("http(s)://"), "{e}");
    }

    #[test]
    fn paymob_needs_all_its_keys_and_integrations_our_methods_can_use() {
        let keys = [
            ("PAYMOB_SECRET_KEY", "egy_sk_test_1"),
            ("PAYMOB_PUBLIC_KEY", "egy_pk_test_1"),
            ("PAYMOB_HMAC_SECRET", "hmac-secret"),
            ("PAYMOB_INTEGRATIONS", " wallet=4751234 , kiosk=4751235"),
        ];
        let paymob = config(&keys).unwrap().paymob.unwrap();
        assert_eq!(paymob.base_url, "https://accept.paymob.com");
        assert_eq!(paymob.integration_ids["wallet"], 4_751_234);
        assert_eq!(paymob.integration_ids["kiosk"], 4_751_235);
        assert!(!format!("{paymob:?}").contains("hmac-secret"));
        assert!(config(&[]).unwrap().paymob.is_none());
        let e = config(&keys[..3]).unwrap_err().to_string();
        assert!(e.contains("PAYMOB_INTEGRATIONS"), "{e}");
        for bad in ["wallet", "wallet=abc", "meezaqr=1", ","] {
            let vars = [&keys[..3], &[("PAYMOB_INTEGRATIONS", bad)]].concat();
            assert!(config(&vars).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_metrics_token_is_optional_but_never_short() {
        assert!(config(&[]).unwrap().metrics_token.is_none());
        let token = "0123456789abcdef0123456789abcdef";
        let set = config(&[("METRICS_TOKEN", token)]).unwrap();
        assert_eq!(set.metrics_token.unwrap().expose(), token);
        let short = config(&[("METRICS_TOKEN", &token[1..])]).unwrap_err();
        assert!(
            short
                .to_string()
                .contains("METRICS_TOKEN must be at least 32 characters")
        );
    }
}
