//! One catalogue in production: the API prices purchases from the `/catalogue.json` the site
//! publishes, loaded from the site's origin, here a small HTTP server of the test's serving a
//! file the test edits as a deploy would replace it. Nothing is copied to the API and it is
//! never restarted.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

use api::payments::catalogue::{CHANGED, UNAVAILABLE, UNKNOWN_VERSION};
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use content_model::catalogue::Catalogue;
use content_model::model::{Money, Package, Settings};
use content_model::yaml;
use serde_json::{Value, json};

use crate::payments::{client, post_return, press};
use crate::support::{TestApp, assert_ledger_verifies, error_of, spawn_app_with};

/// What the site's origin answers for `/catalogue.json`.
const SERVE_FILE: u8 = 0;
const SERVE_ERROR: u8 = 1;
const SERVE_HTML: u8 = 2;

/// The site's origin: serves `catalogue.json` from a folder, counting the requests.
struct Origin {
    file: PathBuf,
    url: String,
    hits: Arc<AtomicUsize>,
    mode: Arc<AtomicU8>,
    _dir: tempfile::TempDir,
}

#[derive(Clone)]
struct Served {
    file: PathBuf,
    hits: Arc<AtomicUsize>,
    mode: Arc<AtomicU8>,
}

async fn serve(State(s): State<Served>) -> Response {
    s.hits.fetch_add(1, Ordering::SeqCst);
    match s.mode.load(Ordering::SeqCst) {
        SERVE_FILE => match tokio::fs::read(&s.file).await {
            Ok(bytes) => ([("content-type", "application/json")], bytes).into_response(),
            Err(_) => StatusCode::NOT_FOUND.into_response(),
        },
        SERVE_ERROR => StatusCode::SERVICE_UNAVAILABLE.into_response(),
        _ => (
            [("content-type", "text/html")],
            "<!doctype html><title>Deploying</title>",
        )
            .into_response(),
    }
}

impl Origin {
    async fn start(catalogue: &Catalogue) -> Origin {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("catalogue.json");
        let origin = Origin {
            file: file.clone(),
            url: String::new(),
            hits: Default::default(),
            mode: Default::default(),
            _dir: dir,
        };
        origin.publish(catalogue);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!(
            "http://127.0.0.1:{}/catalogue.json",
            listener.local_addr().unwrap().port()
        );
        let router = Router::new()
            .route("/catalogue.json", get(serve))
            .with_state(Served {
                file,
                hits: origin.hits.clone(),
                mode: origin.mode.clone(),
            });
        tokio::spawn(async move { axum::serve(listener, router).await });
        Origin { url, ..origin }
    }

    /// A deploy: the site now publishes this catalogue.
    fn publish(&self, catalogue: &Catalogue) {
        std::fs::write(&self.file, catalogue.to_json()).unwrap();
    }

    fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }

    fn answer(&self, mode: u8) {
        self.mode.store(mode, Ordering::SeqCst);
    }
}

/// The catalogue the build publishes for the repository's content, with `edit` made to
/// `packages.yaml` first.
fn catalogue_with(edit: impl FnOnce(&mut Vec<Package>)) -> Catalogue {
    catalogue_with_settings(|_| {}, edit)
}

/// The same, with `settings.yaml` edited too.
fn catalogue_with_settings(
    edit_settings: impl FnOnce(&mut Settings),
    edit: impl FnOnce(&mut Vec<Package>),
) -> Catalogue {
    let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let read = |name: &str| std::fs::read_to_string(content.join(name)).unwrap();
    let mut settings: Settings = yaml::parse(&read("settings.yaml"), Path::new("settings.yaml"), 0)
        .expect("content/settings.yaml");
    edit_settings(&mut settings);
    let mut packages: Vec<Package> =
        yaml::parse(&read("packages.yaml"), Path::new("packages.yaml"), 0)
            .expect("content/packages.yaml");
    edit(&mut packages);
    Catalogue::new(&settings, &packages)
}

fn package<'a>(packages: &'a mut [Package], id: &str) -> &'a mut Package {
    packages.iter_mut().find(|p| p.id == id).expect(id)
}

/// A purchase as the purchase dialog sends it, from a page built with `version`.
fn purchase(sessions: u32, amount: f64, version: &str) -> Value {
    json!({
        "packageType": "individual", "sessions": sessions, "amount": amount,
        "customerName": "Mona Adel", "customerEmail": "mona@example.com",
        "customerPhone": "+201001234567", "isGuest": false, "catalogueVersion": version
    })
}

async fn buy(app: &TestApp, c: &reqwest::Client, body: Value) -> reqwest::Response {
    app.post_as(c, "/api/payments/paytabs/create", body).await
}

/// The customer approves on the hosted page: the purchase is paid and credited.
async fn approve(response: reqwest::Response) {
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let (action, fields) = press(body["redirectUrl"].as_str().unwrap(), "approve").await;
    assert!(
        post_return(&action, &fields)
            .await
            .contains("/payment/success")
    );
}

/// The amount charged and the last day of the credits of the newest online purchase.
async fn newest_purchase(app: &TestApp) -> (i64, i64, String) {
    sqlx::query_as(
        "SELECT pr.amount, l.granted, l.expires_on FROM payment_records pr
           JOIN credit_lots l ON l.payment_record_id = pr.id
          ORDER BY pr.created_at DESC LIMIT 1",
    )
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap()
}

fn months_from_today(months: u32) -> String {
    api::domain::validity::Validity::months_from(
        chrono::Utc::now(),
        months,
        chrono_tz::Africa::Cairo,
    )
    .expires_on_text()
}

/// The site as deployed with today's catalogue, and an API that loads its catalogue from it.
async fn deployed_site() -> (Catalogue, Origin, TestApp) {
    let v1 = catalogue_with(|_| {});
    let origin = Origin::start(&v1).await;
    let app = spawn_app_with(crate::support::Options {
        catalogue_url: Some(origin.url.clone()),
        ..Default::default()
    })
    .await;
    (v1, origin, app)
}

#[tokio::test]
async fn a_price_and_validity_edit_reaches_the_running_api_from_the_site() {
    let (v1, origin, app) = deployed_site().await;
    assert_eq!(origin.hits(), 1, "loaded once at start");
    let mona = client(&app, "mona@example.com").await;

    // A page of the deployed site: the price on its card is charged.
    approve(buy(&app, &mona, purchase(5, 20250.0, &v1.version)).await).await;
    assert_eq!(
        newest_purchase(&app).await,
        (2_025_000, 5, months_from_today(6))
    );
    assert_eq!(origin.hits(), 1, "a known version needs no fetch");

    // The coach raises the 5-session price and lengthens its validity; Netlify deploys.
    let v2 = catalogue_with(|all| {
        let five = package(all, "individual-5");
        five.price = Money(2_200_000);
        five.validity_months = 9;
    });
    assert_ne!(v2.version, v1.version);
    origin.publish(&v2);

    // The new page names the new version: the API loads it, charges it and grants its validity.
    approve(buy(&app, &mona, purchase(5, 22000.0, &v2.version)).await).await;
    assert_eq!(
        newest_purchase(&app).await,
        (2_200_000, 5, months_from_today(9))
    );
    assert_eq!(origin.hits(), 2, "one fetch for the new version");

    // A page still open from before the deploy gets the stale-price answer, from memory.
    let (status, error) = error_of(buy(&app, &mona, purchase(5, 20250.0, &v1.version)).await).await;
    assert_eq!(
        (status, error["message"].as_str()),
        (
            409,
            Some(
                "The price of this package has changed to 22,000 EGP. Please refresh the page to see the current price."
            )
        )
    );
    // The same old page's other cards did not change: they sell as shown.
    let single = buy(&app, &mona, purchase(1, 4500.0, &v1.version)).await;
    assert_eq!(single.status(), 200, "unchanged package from an older page");
    assert_eq!(origin.hits(), 2, "older versions are remembered");

    // A validity edit alone: the price is the same, the card of an older page is not.
    let v3 = catalogue_with(|all| {
        let five = package(all, "individual-5");
        five.price = Money(2_200_000);
        five.validity_months = 9;
        package(all, "individual-10").validity_months = 18;
    });
    origin.publish(&v3);
    assert_eq!(
        buy(&app, &mona, purchase(1, 4500.0, &v3.version))
            .await
            .status(),
        200
    );
    let (status, error) =
        error_of(buy(&app, &mona, purchase(10, 38250.0, &v2.version)).await).await;
    assert_eq!((status, error["message"].as_str()), (409, Some(CHANGED)));
    approve(buy(&app, &mona, purchase(10, 38250.0, &v3.version)).await).await;
    assert_eq!(
        newest_purchase(&app).await,
        (3_825_000, 10, months_from_today(18))
    );
    assert_eq!(origin.hits(), 3);

    // Payment views name the package from the catalogue too; the ledger is whole.
    let latest: Value = app
        .get_as(&mona, "/api/payments/latest")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(latest["packageName"], "Transformation Package", "{latest}");
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn an_unknown_version_is_refused_after_one_fetch_and_a_bad_site_keeps_the_last_good_catalogue()
 {
    let (v1, origin, app) = deployed_site().await;
    let mona = client(&app, "mona@example.com").await;
    assert_eq!(origin.hits(), 1);

    // A version the site does not publish, named by five requests at once: one fetch, five
    // clear refusals, and nothing recorded.
    let made_up = "0123456789abcdef";
    let ask = || buy(&app, &mona, purchase(5, 20250.0, made_up));
    let answers = tokio::join!(ask(), ask(), ask(), ask(), ask());
    for r in [answers.0, answers.1, answers.2, answers.3, answers.4] {
        let (status, error) = error_of(r).await;
        assert_eq!(
            (status, error["code"].as_str(), error["message"].as_str()),
            (409, Some("conflict"), Some(UNKNOWN_VERSION))
        );
    }
    assert_eq!(
        origin.hits(),
        2,
        "one fetch for an unseen version at a time"
    );
    let (status, _) = error_of(ask().await).await;
    assert_eq!(
        (status, origin.hits()),
        (409, 2),
        "a recent miss is not fetched again"
    );
    let transactions: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM payment_transactions")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(transactions, 0);

    // Not a version at all: the field is named.
    let (status, error) = error_of(buy(&app, &mona, purchase(5, 20250.0, "v1; DROP")).await).await;
    assert_eq!(
        (status, error["fields"]["catalogueVersion"].is_string()),
        (422, true)
    );

    // The site is down, then answers with a page instead of the catalogue: a new version cannot
    // be checked and the request is told so; the last good catalogue still sells.
    let v2 = catalogue_with(|all| package(all, "individual-5").price = Money(2_100_000));
    origin.publish(&v2);
    for mode in [SERVE_ERROR, SERVE_HTML] {
        origin.answer(mode);
        let (status, error) =
            error_of(buy(&app, &mona, purchase(5, 21000.0, &v2.version)).await).await;
        assert_eq!(
            (status, error["code"].as_str(), error["message"].as_str()),
            (502, Some("provider_error"), Some(UNAVAILABLE))
        );
        let still = buy(&app, &mona, purchase(5, 20250.0, &v1.version)).await;
        assert_eq!(still.status(), 200, "the last good catalogue stays");
    }
    assert_eq!(origin.hits(), 4);

    // The site is back: the same request goes through.
    origin.answer(SERVE_FILE);
    let r = buy(&app, &mona, purchase(5, 21000.0, &v2.version)).await;
    assert_eq!(r.status(), 200);
    assert_eq!(origin.hits(), 5);
    // A purchase that names no version is priced from the newest catalogue.
    let unnamed = app
        .post_as(
            &mona,
            "/api/payments/paytabs/create",
            json!({
                "packageType": "individual", "sessions": 5, "amount": 21000,
                "customerName": "Mona Adel", "customerEmail": "mona@example.com",
                "customerPhone": "+201001234567"
            }),
        )
        .await;
    assert_eq!(unnamed.status(), 200);
}

#[tokio::test]
async fn made_up_versions_cannot_make_the_api_fetch_the_catalogue_more_than_once_a_few_seconds() {
    let (_, origin, app) = deployed_site().await;
    let mona = client(&app, "mona@example.com").await;
    assert_eq!(origin.hits(), 1);
    // Twenty different made-up versions at once (issue 20, defect 9: 19 fetches before).
    let tasks: Vec<_> = (0..20)
        .map(|i| {
            let (c, url, origin_header) = (
                mona.clone(),
                app.url("/api/payments/paytabs/create"),
                app.url(""),
            );
            tokio::spawn(async move {
                c.post(url)
                    .header("Origin", origin_header)
                    .json(&purchase(5, 20250.0, &format!("{i:016x}")))
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .as_u16()
            })
        })
        .collect();
    for t in tasks {
        assert_eq!(t.await.unwrap(), 409, "each made-up version is refused");
    }
    assert!(
        origin.hits() <= 3,
        "at most one fetch per interval, not one per version: {} fetches",
        origin.hits() - 1
    );
}

/// The scheduling service the client's dashboard names (settings `scheduling.host_name`).
async fn scheduler(app: &TestApp, c: &reqwest::Client) -> String {
    let dash: Value = app.get_as(c, "/api/dashboard").await.json().await.unwrap();
    dash["schedulerName"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_settings_edit_on_the_site_reaches_the_running_api_with_its_catalogue() {
    let (v1, origin, app) = deployed_site().await;
    let mona = client(&app, "mona@example.com").await;
    assert_eq!(scheduler(&app, &mona).await, "Calendly");

    // The coach moves to another scheduling service; the site is deployed.
    let v2 = catalogue_with_settings(|s| s.scheduling.host_name = "Cal.com".into(), |_| {});
    assert_ne!(
        v2.version, v1.version,
        "the settings the API uses are in the version"
    );
    origin.publish(&v2);
    // The first purchase from the new pages brings the catalogue in, settings and all.
    approve(buy(&app, &mona, purchase(1, 4500.0, &v2.version)).await).await;
    assert_eq!(scheduler(&app, &mona).await, "Cal.com");
}
