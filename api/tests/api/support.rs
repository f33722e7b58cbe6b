//! Test harness: the real app on 127.0.0.1:0 against a fresh database (SQLite by default,
//! PostgreSQL with TEST_DATABASE=postgres), with a real SMTP server on loopback that speaks
//! the protocol the way a mail server does and keeps what it receives, and the local PayTabs
//! and Calendly of `devkit` served beside it.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use api::configuration::{Config, Environment, SmtpConfig, SmtpTls};
use api::secret::Secret;
use api::startup::Application;
use devkit::DevKit;
use devkit::calendly::CalendlyStandIn;
use devkit::paytabs::StandIn;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

// ---------------------------------------------------------------------------------------------
// SMTP

#[derive(Debug, Clone)]
pub struct ReceivedMail {
    /// The envelope sender (MAIL FROM).
    pub from: String,
    pub to: Vec<String>,
    pub raw: String,
}

impl ReceivedMail {
    pub fn header(&self, name: &str) -> Option<String> {
        let head = self.raw.split("\r\n\r\n").next().unwrap_or("");
        // Unfold continuation lines first.
        let unfolded = head.replace("\r\n ", " ").replace("\r\n\t", " ");
        unfolded.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    }

    /// The Subject, decoded (a non-ASCII subject travels as RFC 2047 encoded words).
    pub fn subject(&self) -> String {
        decode_words(&self.header("Subject").unwrap_or_default())
    }

    /// The decoded text/plain part.
    pub fn text(&self) -> String {
        self.part("text/plain")
    }

    /// The decoded text/html part.
    pub fn html(&self) -> String {
        self.part("text/html")
    }

    /// The decoded attachment or part of this content type (e.g. `text/calendar`).
    pub fn part(&self, content_type: &str) -> String {
        let lower = self.raw.to_ascii_lowercase();
        let Some(start) = lower.find(&format!("content-type: {content_type}")) else {
            return String::new();
        };
        let part = &self.raw[start..];
        let (headers, body) = part.split_once("\r\n\r\n").unwrap_or((part, ""));
        let body = body.split("\r\n--").next().unwrap_or(body);
        let encoding = headers.to_ascii_lowercase();
        if encoding.contains("content-transfer-encoding: base64") {
            use base64::Engine;
            let compact: String = body.split_whitespace().collect();
            String::from_utf8(
                base64::engine::general_purpose::STANDARD
                    .decode(compact)
                    .unwrap_or_default(),
            )
            .unwrap_or_default()
        } else if encoding.contains("content-transfer-encoding: quoted-printable") {
            decode_qp(body)
        } else {
            body.replace("\r\n", "\n")
        }
    }

    /// The first link in the text that starts with `prefix`.
    pub fn link(&self, prefix: &str) -> String {
        let text = self.text();
        let start = text
            .find(prefix)
            .unwrap_or_else(|| panic!("no link {prefix} in:\n{text}"));
        text[start..].split_whitespace().next().unwrap().to_string()
    }
}

/// A header's RFC 2047 encoded words (`=?utf-8?b?…?=`, `=?utf-8?q?…?=`) decoded; the space
/// between two encoded words is not part of the text.
fn decode_words(s: &str) -> String {
    use base64::Engine;
    let mut out = String::new();
    let mut pending: Vec<u8> = Vec::new();
    let mut rest = s;
    loop {
        let Some(i) = rest.find("=?") else {
            out.push_str(&String::from_utf8_lossy(&std::mem::take(&mut pending)));
            out.push_str(rest);
            return out;
        };
        let (before, after) = (&rest[..i], &rest[i + 2..]);
        let word = (|| {
            let (_charset, r) = after.split_once('?')?;
            let (encoding, r) = r.split_once('?')?;
            let (text, r) = r.split_once("?=")?;
            Some((encoding.to_ascii_lowercase(), text, r))
        })();
        let Some((encoding, text, r)) = word else {
            out.push_str(&String::from_utf8_lossy(&std::mem::take(&mut pending)));
            out.push_str(&rest[..i + 2]);
            rest = after;
            continue;
        };
        // Only the space between two encoded words is dropped.
        let between_words = before.trim().is_empty() && !pending.is_empty();
        if !between_words {
            out.push_str(&String::from_utf8_lossy(&std::mem::take(&mut pending)));
            out.push_str(before);
        }
        if encoding == "b" {
            pending.extend(
                base64::engine::general_purpose::STANDARD
                    .decode(text)
                    .unwrap_or_default(),
            );
        } else {
            pending.extend(decode_qp(&text.replace('_', " ")).into_bytes());
        }
        rest = r;
    }
}

fn decode_qp(s: &str) -> String {
    let joined = s.replace("=\r\n", "").replace("\r\n", "\n");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'=', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[derive(Clone, Default)]
pub struct MailServer {
    pub port: u16,
    pub received: Arc<Mutex<Vec<ReceivedMail>>>,
    /// Recipients refused for now (`451`, a temporary failure, as a full mailbox or a busy
    /// server answers): mail to them stays in the outbox until they are accepted again.
    pub refused: Arc<Mutex<Vec<String>>>,
}

fn valid_path(arg: &str) -> Option<String> {
    let inner = arg.trim().strip_prefix('<')?.strip_suffix('>')?;
    let (local, domain) = inner.split_once('@')?;
    (!local.is_empty() && domain.contains('.')).then(|| inner.to_string())
}

/// `AUTH PLAIN`'s `\0user\0password`, or `AUTH LOGIN`'s two answers, decoded.
fn b64(s: &str) -> String {
    use base64::Engine;
    String::from_utf8(
        base64::engine::general_purpose::STANDARD
            .decode(s.trim())
            .unwrap_or_default(),
    )
    .unwrap_or_default()
}

impl MailServer {
    pub async fn start() -> MailServer {
        MailServer::start_with(None).await
    }

    /// A server that, like a provider's, offers `AUTH PLAIN LOGIN`, takes only this username
    /// and password (535 otherwise), and takes no mail before a login (530).
    pub async fn start_with_login(username: &str, password: &str) -> MailServer {
        MailServer::start_with(Some((username.to_string(), password.to_string()))).await
    }

    async fn start_with(login: Option<(String, String)>) -> MailServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let server = MailServer {
            port: listener.local_addr().unwrap().port(),
            received: Default::default(),
            refused: Default::default(),
        };
        let received = server.received.clone();
        let refused = server.refused.clone();
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    break;
                };
                let received = received.clone();
                let refused = refused.clone();
                let login = login.clone();
                tokio::spawn(async move {
                    let (read, mut write) = stream.into_split();
                    let mut lines = BufReader::new(read).lines();
                    let _ = write.write_all(b"220 mail.test ESMTP ready\r\n").await;
                    let (mut greeted, mut from, mut to) = (false, None::<String>, Vec::new());
                    let mut logged_in = login.is_none();
                    while let Ok(Some(line)) = lines.next_line().await {
                        let upper = line.to_ascii_uppercase();
                        let reply: String = if upper.starts_with("EHLO")
                            || upper.starts_with("HELO")
                        {
                            greeted = true;
                            if login.is_some() {
                                "250-mail.test\r\n250-8BITMIME\r\n250-AUTH PLAIN LOGIN\r\n250 SMTPUTF8\r\n".into()
                            } else {
                                "250-mail.test\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n".into()
                            }
                        } else if upper.starts_with("AUTH ") && login.is_some() {
                            let (user, pass) = login.clone().unwrap_or_default();
                            let mut words = line.split_whitespace().skip(1);
                            let mechanism = words.next().unwrap_or("").to_ascii_uppercase();
                            let initial = words.next().map(str::to_string);
                            let mut ask = async |prompt: &str| {
                                let _ = write
                                    .write_all(format!("334 {prompt}\r\n").as_bytes())
                                    .await;
                                lines.next_line().await.ok().flatten().unwrap_or_default()
                            };
                            let given = match mechanism.as_str() {
                                "PLAIN" => {
                                    let answer = match initial {
                                        Some(a) => a,
                                        None => ask("").await,
                                    };
                                    let plain = b64(&answer);
                                    let mut parts = plain.split('\0').skip(1);
                                    Some((
                                        parts.next().unwrap_or("").to_string(),
                                        parts.next().unwrap_or("").to_string(),
                                    ))
                                }
                                "LOGIN" => {
                                    let u = match initial {
                                        Some(a) => b64(&a),
                                        None => b64(&ask("VXNlcm5hbWU6").await),
                                    };
                                    let p = b64(&ask("UGFzc3dvcmQ6").await);
                                    Some((u, p))
                                }
                                _ => None,
                            };
                            match given {
                                None => "504 5.5.4 Unrecognized authentication type\r\n".into(),
                                Some((u, p)) if u == user && p == pass => {
                                    logged_in = true;
                                    "235 2.7.0 Authentication successful\r\n".into()
                                }
                                Some(_) => {
                                    "535 5.7.8 Authentication credentials invalid\r\n".into()
                                }
                            }
                        } else if upper.starts_with("MAIL FROM:") {
                            match (
                                greeted,
                                logged_in,
                                valid_path(line[10..].split(' ').next().unwrap_or("")),
                            ) {
                                (false, _, _) => "503 5.5.1 EHLO first\r\n".into(),
                                (true, false, _) => "530 5.7.0 Authentication required\r\n".into(),
                                (true, true, None) => "501 5.1.7 Bad sender address\r\n".into(),
                                (true, true, Some(a)) => {
                                    from = Some(a);
                                    to.clear();
                                    "250 2.1.0 OK\r\n".into()
                                }
                            }
                        } else if upper.starts_with("RCPT TO:") {
                            match (from.is_some(), valid_path(&line[8..])) {
                                (false, _) => "503 5.5.1 MAIL first\r\n".into(),
                                (true, None) => "550 5.1.1 Bad recipient address\r\n".into(),
                                (true, Some(a)) if refused.lock().unwrap().contains(&a) => {
                                    "451 4.2.1 Mailbox busy, try again later\r\n".into()
                                }
                                (true, Some(a)) => {
                                    to.push(a);
                                    "250 2.1.5 OK\r\n".into()
                                }
                            }
                        } else if upper == "DATA" {
                            if to.is_empty() {
                                "503 5.5.1 RCPT first\r\n".into()
                            } else {
                                let _ = write
                                    .write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                                    .await;
                                let mut raw = String::new();
                                while let Ok(Some(l)) = lines.next_line().await {
                                    if l == "." {
                                        break;
                                    }
                                    raw.push_str(
                                        l.strip_prefix('.')
                                            .filter(|_| l.starts_with(".."))
                                            .unwrap_or(&l),
                                    );
                                    raw.push_str("\r\n");
                                }
                                received.lock().unwrap().push(ReceivedMail {
                                    from: from.take().unwrap_or_default(),
                                    to: std::mem::take(&mut to),
                                    raw,
                                });
                                "250 2.0.0 Queued\r\n".into()
                            }
                        } else if upper == "QUIT" {
                            let _ = write.write_all(b"221 2.0.0 Bye\r\n").await;
                            break;
                        } else if upper == "RSET" || upper == "NOOP" {
                            "250 2.0.0 OK\r\n".into()
                        } else {
                            "502 5.5.2 Command not recognised\r\n".into()
                        };
                        if write.write_all(reply.as_bytes()).await.is_err() {
                            break;
                        }
                    }
                });
            }
        });
        server
    }

    /// Refuses mail to `address` for now (451), or (`false`) takes it again.
    pub fn refuse(&self, address: &str, refuse: bool) {
        let mut refused = self.refused.lock().unwrap();
        refused.retain(|a| a != address);
        if refuse {
            refused.push(address.to_string());
        }
    }

    /// Waits (up to 10 s) for a message to `to` whose subject contains `subject`.
    pub async fn wait_for(&self, to: &str, subject: &str) -> ReceivedMail {
        for _ in 0..200 {
            if let Some(m) = self
                .received
                .lock()
                .unwrap()
                .iter()
                .find(|m| m.to.iter().any(|t| t == to) && m.subject().contains(subject))
            {
                return m.clone();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let seen: Vec<(Vec<String>, String)> = self
            .received
            .lock()
            .unwrap()
            .iter()
            .map(|m| (m.to.clone(), m.subject()))
            .collect();
        panic!("no mail to {to} with subject containing `{subject}`; received: {seen:?}");
    }

    pub fn count_to(&self, to: &str) -> usize {
        self.received
            .lock()
            .unwrap()
            .iter()
            .filter(|m| m.to.iter().any(|t| t == to))
            .count()
    }
}

// ---------------------------------------------------------------------------------------------
// Databases

pub fn using_postgres() -> bool {
    std::env::var("TEST_DATABASE").is_ok_and(|v| v == "postgres")
}

const PG_ADMIN_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";
static COUNTER: AtomicU32 = AtomicU32::new(0);
static CLEANED: tokio::sync::OnceCell<()> = tokio::sync::OnceCell::const_new();

/// A fresh, empty database URL, and a temp dir that holds the SQLite file if any.
pub async fn fresh_database() -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    if !using_postgres() {
        return (format!("sqlite://{}/test.db", dir.path().display()), dir);
    }
    sqlx::any::install_default_drivers();
    let mut admin = <sqlx::AnyConnection as sqlx::Connection>::connect(PG_ADMIN_URL)
        .await
        .expect("PostgreSQL on 127.0.0.1:5432 (start it; see .ci/run)");
    // Test binaries run one after another: databases left by an earlier binary are stale.
    CLEANED
        .get_or_init(|| async {
            let mut c = <sqlx::AnyConnection as sqlx::Connection>::connect(PG_ADMIN_URL)
                .await
                .unwrap();
            let stale: Vec<String> = sqlx::query_scalar(
                "SELECT datname::text FROM pg_database WHERE datname LIKE 'apitest_%'",
            )
            .fetch_all(&mut c)
            .await
            .unwrap();
            for name in stale {
                let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                    .execute(&mut c)
                    .await;
            }
        })
        .await;
    let name = format!(
        "apitest_{}_{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst)
    );
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .unwrap();
    (format!("postgres://postgres@127.0.0.1:5432/{name}"), dir)
}

// ---------------------------------------------------------------------------------------------
// The app

pub struct TestApp {
    /// Sending stops the server as SIGTERM does ([`TestApp::shut_down`]).
    stop: tokio::sync::oneshot::Sender<()>,
    stopped: tokio::task::JoinHandle<std::io::Result<()>>,
    pub base: String,
    pub mail: MailServer,
    pub client: reqwest::Client,
    pub state: api::state::AppState,
    /// The PayTabs the app's client talks to, unless `Options::paytabs_base` points elsewhere.
    pub paytabs_standin: Arc<StandIn>,
    /// The Paymob the app's client talks to.
    pub paymob_standin: Arc<devkit::paymob::StandIn>,
    /// The Calendly the app's client and webhook talk to.
    pub calendly_standin: Arc<CalendlyStandIn>,
    pub database_url: String,
    _dir: tempfile::TempDir,
}

pub struct Options {
    pub rate_limits: bool,
    pub session_idle: Duration,
    /// Where the PayTabs client goes; `None` = the app's own stand-in.
    pub paytabs_base: Option<String>,
    /// Behind a trusted proxy: the client address comes from `X-Forwarded-For`.
    pub trust_proxy: bool,
    /// Another replica: this database (already migrated) instead of a fresh one.
    pub database_url: Option<String>,
    /// Where the catalogue is loaded from (`CATALOGUE_URL`); `None` = the repository's
    /// `content/`, read as the build publishes it.
    pub catalogue_url: Option<String>,
    /// `METRICS_TOKEN` set ([`METRICS_TOKEN`]): `/metrics` answers, and the app counts.
    pub metrics: bool,
    /// The coach's editor's repository (`CONTENT_REPO`…), when the test uses the editor.
    pub content_repo: Option<api::configuration::ContentRepoConfig>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rate_limits: false,
            session_idle: Duration::from_secs(3600),
            paytabs_base: None,
            trust_proxy: false,
            database_url: None,
            catalogue_url: None,
            metrics: true,
            content_repo: None,
        }
    }
}

/// The HMAC secret the tests' Paymob (the stand-in) signs with.
pub const PAYMOB_HMAC: &str = "PAYMOB-TEST-HMAC-SECRET-0123456789";

/// The tests' Paymob integrations.
pub const PAYMOB_WALLET_INTEGRATION: i64 = 4_751_001;
pub const PAYMOB_KIOSK_INTEGRATION: i64 = 4_751_002;

/// The Calendly webhook signing key of the tests.
pub const CALENDLY_KEY: &str = "calendly-test-signing-key";

/// The bearer token of `/metrics` in the tests.
pub const METRICS_TOKEN: &str = "metrics-test-token-0123456789-abcdefghij";

/// The server key the tests' PayTabs (the stand-in) signs with.
pub const PAYTABS_KEY: &str = "STESTKEY01-TESTKEY002-TESTKEY003";

pub async fn spawn_app() -> TestApp {
    spawn_app_with(Options::default()).await
}

pub async fn spawn_app_with(options: Options) -> TestApp {
    let mail = MailServer::start().await;
    let (database_url, dir) = match options.database_url.clone() {
        Some(url) => (url, tempfile::tempdir().unwrap()),
        None => fresh_database().await,
    };
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let config = Config {
        environment: Environment::Development,
        host: "127.0.0.1".into(),
        port: 0,
        database_url: Secret::new(database_url.clone()),
        public_base_url: base.clone(),
        extra_origins: vec![],
        cookie_secure: false,
        trust_proxy: options.trust_proxy,
        smtp: Some(SmtpConfig {
            host: "127.0.0.1".into(),
            port: mail.port,
            tls: SmtpTls::None,
            username: None,
            password: None,
        }),
        mail_from: "Nadine Kamel Coaching <no-reply@coach.example.com>".into(),
        catalogue_url: options.catalogue_url.clone(),
        content_dir: std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content"),
        session_idle: options.session_idle,
        session_absolute: Duration::from_secs(86400),
        rate_limits: options.rate_limits,
        paytabs: Some(api::payments::paytabs::PayTabsConfig {
            base_url: options
                .paytabs_base
                .clone()
                .unwrap_or_else(|| format!("{base}/paytabs-standin")),
            profile_id: 4242,
            server_key: Secret::new(PAYTABS_KEY),
        }),
        paymob: Some(api::providers::paymob::PaymobConfig {
            base_url: format!("{base}/paymob-standin"),
            secret_key: Secret::new("egy_sk_test_apitests"),
            public_key: "egy_pk_test_apitests".into(),
            hmac_secret: Secret::new(PAYMOB_HMAC),
            integration_ids: [
                ("wallet".to_string(), PAYMOB_WALLET_INTEGRATION),
                ("kiosk".to_string(), PAYMOB_KIOSK_INTEGRATION),
            ]
            .into(),
        }),
        calendly: api::scheduling::calendly::CalendlyConfig {
            signing_keys: vec![Secret::new(CALENDLY_KEY)],
            tolerance_seconds: 180,
            api_base: format!("{base}/calendly-standin/api"),
            token: Some(Secret::new("calendly-test-token")),
            scheduling_url: format!("{base}/calendly-standin/book"),
        },
        app_secret: Secret::new("test-app-secret-test-app-secret-0123456789"),
        metrics_token: options.metrics.then(|| Secret::new(METRICS_TOKEN)),
        content_repo: options.content_repo.clone(),
    };
    let kit = DevKit {
        paytabs: Some(StandIn::for_api(&config).expect("the PayTabs stand-in")),
        paymob: Some(devkit::paymob::StandIn::for_api(&config).expect("the Paymob stand-in")),
        calendly: Some(CalendlyStandIn::for_api(&config).expect("the Calendly stand-in")),
        mailbox: None,
    };
    let app = Application::build_with(config, listener, kit.extensions())
        .await
        .expect("app builds");
    let state = app.state();
    let (stop, stop_asked) = tokio::sync::oneshot::channel::<()>();
    let stopped = tokio::spawn(app.run_until(async move {
        // A TestApp dropped without `shut_down` leaves the server to the end of the test.
        if stop_asked.await.is_err() {
            std::future::pending::<()>().await;
        }
    }));
    TestApp {
        stop,
        stopped,
        base,
        mail,
        client: new_client(),
        state,
        paytabs_standin: kit.paytabs.expect("built above"),
        paymob_standin: kit.paymob.expect("built above"),
        calendly_standin: kit.calendly.expect("built above"),
        database_url,
        _dir: dir,
    }
}

pub fn new_client() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

impl TestApp {
    /// Stops the server as SIGTERM does and waits until it has: its requests finished and its
    /// background workers stopped. Returns what serving returned.
    pub async fn shut_down(self) -> std::io::Result<()> {
        let _ = self.stop.send(());
        self.stopped.await.expect("the server task does not panic")
    }

    /// PayTabs' server-to-server callback with `body` (JSON bytes), signed with the test key.
    pub async fn paytabs_callback(&self, body: Vec<u8>) -> reqwest::Response {
        reqwest::Client::new()
            .post(self.url("/api/payments/paytabs/callback"))
            .header("Content-Type", "application/json")
            .header(
                "Signature",
                api::payments::paytabs::sign(PAYTABS_KEY, &body),
            )
            .body(body)
            .send()
            .await
            .unwrap()
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// A same-origin JSON POST, as the site's pages send it.
    pub async fn post(&self, path: &str, body: Value) -> reqwest::Response {
        self.post_as(&self.client, path, body).await
    }

    pub async fn post_as(
        &self,
        client: &reqwest::Client,
        path: &str,
        body: Value,
    ) -> reqwest::Response {
        client
            .post(self.url(path))
            .header("Origin", &self.base)
            .json(&body)
            .send()
            .await
            .unwrap()
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.unwrap()
    }

    pub async fn get_as(&self, client: &reqwest::Client, path: &str) -> reqwest::Response {
        client.get(self.url(path)).send().await.unwrap()
    }

    /// Signs a new client up with `client` and returns the email used.
    pub async fn sign_up(&self, client: &reqwest::Client, email: &str) -> reqwest::Response {
        self.post_as(client, "/api/auth/sign-up", serde_json::json!({
            "full_name": "Mona Adel", "email": email, "password": "nile-sunrise-42", "phone": "+20 100 123 4567"
        }))
        .await
    }
}

/// Signs up `email` and makes it an admin; returns its browser.
pub async fn admin_client(app: &TestApp, email: &str) -> reqwest::Client {
    let c = new_client();
    assert_eq!(app.sign_up(&c, email).await.status(), 201);
    sqlx::query("UPDATE profiles SET role = 'admin' WHERE email = $1")
        .bind(email)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    c
}

/// The error object of a response, asserting the one error shape.
pub async fn error_of(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let body: Value = response.json().await.expect("errors are JSON");
    let error = body
        .get("error")
        .cloned()
        .unwrap_or_else(|| panic!("no `error` in {body}"));
    assert!(
        error["code"].is_string() && error["message"].is_string(),
        "{body}"
    );
    (status, error)
}

/// The ledger equals every account's totals, as `api ledger verify` checks it.
pub async fn assert_ledger_verifies(app: &TestApp) {
    let (mismatches, lots) = api::domain::credits::verify(&app.state.db.pool)
        .await
        .unwrap();
    assert!(mismatches.is_empty(), "{mismatches:?}");
    assert!(lots.is_empty(), "{lots:?}");
    let (ok, output) = ledger_verify_command(app);
    assert!(ok, "api ledger verify failed:\n{output}");
}

/// Runs `api ledger verify` on the app's database: (exit 0, what it printed).
pub fn ledger_verify_command(app: &TestApp) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_api"))
        .args(["ledger", "verify"])
        .env("DATABASE_URL", &app.database_url)
        .env("APP_ENV", "development")
        .output()
        .expect("the api binary runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// Credits granted now lasting six months (tests that only need some credits).
pub fn six_months() -> api::domain::validity::Validity {
    api::domain::validity::Validity::months_from(chrono::Utc::now(), 6, chrono_tz::Africa::Cairo)
}

/// The coach's calendar day (Cairo) `days` from today, `YYYY-MM-DD` as the admin's forms send
/// payment and session dates. Tests date payments and sessions relative to now, never on a fixed
/// day, so that credits stay valid and sessions stay upcoming as the calendar moves.
pub fn cairo_day(days: i64) -> String {
    let today = chrono::Utc::now()
        .with_timezone(&chrono_tz::Africa::Cairo)
        .date_naive();
    (today + chrono::Duration::days(days))
        .format("%Y-%m-%d")
        .to_string()
}

/// `day` (`YYYY-MM-DD`) at `time` (`HH:MM`) on the coach's clock (Cairo: UTC+2 in winter, UTC+3
/// in summer), in UTC as the API stores and answers it: `2027-03-03T13:00:00.000000Z`.
pub fn cairo_to_utc(day: &str, time: &str) -> String {
    use chrono::TimeZone;
    let local = chrono::NaiveDateTime::parse_from_str(&format!("{day} {time}"), "%Y-%m-%d %H:%M")
        .expect("a day and an HH:MM time");
    let at = chrono_tz::Africa::Cairo
        .from_local_datetime(&local)
        .earliest()
        .expect("a time that exists in Cairo");
    api::domain::ts(at.with_timezone(&chrono::Utc))
}

/// An offline payment the admin records for `client_id`: `amount` (major units, as the form
/// sends it) for `sessions` credits, dated today on the coach's calendar; the payment's id.
pub async fn pay_offline_today(
    app: &TestApp,
    boss: &reqwest::Client,
    client_id: &str,
    amount: &str,
    sessions: i64,
) -> String {
    let r = app
        .post_as(
            boss,
            "/api/admin/payments",
            serde_json::json!({
                "clientId": client_id, "amount": amount, "sessionsPurchased": sessions,
                "paymentDate": cairo_day(0), "paymentMethod": "cash"
            }),
        )
        .await;
    assert_eq!(r.status(), 201);
    let body: Value = r.json().await.unwrap();
    body["id"].as_str().unwrap().to_string()
}

/// The id of the account with this email.
pub async fn user_id(app: &TestApp, email: &str) -> String {
    sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(email)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}
