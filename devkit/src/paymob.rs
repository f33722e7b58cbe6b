//! A local Paymob for development and tests, served at /paymob-standin; never by the `api`
//! binary. The production client (`api::providers::paymob`) reaches it only through its
//! `base_url`, so the real code path runs. It checks requests the way Paymob does (`Authorization:
//! Token <secret key>`, integration ids it knows, currency EGP, a positive integer amount, items
//! that add up, the required billing fields, a `special_reference` used once), answers the
//! intention with its id and client secret, and serves the Unified Checkout at
//! `/paymob-standin/unifiedcheckout/?publicKey=…&clientSecret=…`:
//!
//! - a mobile wallet asks for the wallet number (an Egyptian mobile, 01[0125] and 8 digits),
//!   then for the code sent to it: any 6 digits approve, `000000` declines; Approve, Decline
//!   and Let it expire decide directly;
//! - a kiosk gives a bill reference and stays pending (its callback says so) until "Pay at
//!   kiosk" completes it;
//! - a card asks nothing and offers Approve and Decline.
//!
//! Each decision sends Paymob's signed processed callback (POST JSON to `notification_url` with
//! `?hmac=`) and sends the browser back with a 303 to `redirection_url`, the transaction in the
//! signed query. Refunds (`/api/acceptance/void_refund/refund`) are answered at once and then
//! notified with a signed callback, as Paymob does. Wordings Paymob does not document (the
//! duplicate reference, an over-refund) are the stand-in's own.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use rand::Rng;
use serde::Deserialize;
use serde_json::{Value, json};

use api::email::templates::escape;
use api::providers::paymob::{PaymobConfig, sign_callback, sign_redirect};

/// The merchant's user and profile, as Paymob writes them into every transaction.
const OWNER: i64 = 302852;
const PROFILE: i64 = 164295;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Pending,
    Approved,
    Declined,
}

#[derive(Clone)]
struct IntentionRecord {
    id: String,
    client_secret: String,
    order_id: i64,
    request: Value,
    /// (our method name, integration id), in the order asked for.
    methods: Vec<(String, i64)>,
}

#[derive(Clone)]
struct Transaction {
    id: i64,
    order_id: i64,
    client_secret: String,
    integration_id: i64,
    amount_cents: i64,
    currency: String,
    special_reference: String,
    created_at: String,
    /// `source_data`: (type, sub_type, pan).
    source: (String, String, String),
    outcome: Outcome,
    message: String,
    /// A refund names the sale it refunds.
    refund_of: Option<i64>,
    refunded_cents: i64,
    bill_reference: Option<String>,
}

#[derive(Default)]
struct Books {
    intentions: HashMap<String, IntentionRecord>,
    transactions: BTreeMap<i64, Transaction>,
    next_id: i64,
}

impl Books {
    fn next(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id
    }
}

pub struct StandIn {
    config: PaymobConfig,
    books: Mutex<Books>,
    http: reqwest::Client,
    /// Milliseconds to wait before sending a callback (tests race it with the redirect).
    pub callback_delay_ms: AtomicU64,
    /// Answer refunds with a declined refund transaction (`success: false`).
    pub decline_refunds: AtomicBool,
}

impl StandIn {
    /// The stand-in for the API of `config`, which must be a development API whose Paymob
    /// settings point here.
    pub fn for_api(config: &api::configuration::Config) -> anyhow::Result<Arc<StandIn>> {
        crate::guard::ensure_development(config, "PAYMOB_STANDIN")?;
        let Some(paymob) = &config.paymob else {
            anyhow::bail!(
                "PAYMOB_STANDIN needs PAYMOB_SECRET_KEY, PAYMOB_PUBLIC_KEY, PAYMOB_HMAC_SECRET, PAYMOB_INTEGRATIONS and PAYMOB_BASE_URL pointing at it"
            );
        };
        Ok(StandIn::new(paymob.clone()))
    }

    /// The Paymob of `config`: its keys, its integration ids, served where its base URL must
    /// point (`{API}/paymob-standin`).
    pub fn new(config: PaymobConfig) -> Arc<StandIn> {
        let books = Books {
            next_id: 190_000_000 + rand::thread_rng().gen_range(0..1_000_000),
            ..Books::default()
        };
        Arc::new(StandIn {
            config,
            books: Mutex::new(books),
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(10))
                .build()
                .expect("client"),
            callback_delay_ms: 0.into(),
            decline_refunds: false.into(),
        })
    }
}

pub fn router(standin: Arc<StandIn>) -> Router {
    Router::new()
        .route("/paymob-standin/v1/intention/", post(create_intention))
        .route("/paymob-standin/unifiedcheckout/", get(checkout))
        .route("/paymob-standin/unifiedcheckout/pay", post(pay))
        .route(
            "/paymob-standin/unifiedcheckout/transactions/{id}",
            post(decide),
        )
        .route("/paymob-standin/kiosk/{id}/pay", post(pay_at_kiosk))
        .route(
            "/paymob-standin/api/acceptance/void_refund/refund",
            post(refund),
        )
        .route(
            "/paymob-standin/api/acceptance/transactions/{id}",
            get(query),
        )
        .with_state(standin)
}

fn answer(status: StatusCode, body: Value) -> Response {
    (status, Json(body)).into_response()
}

/// Django REST framework's token authentication, as Paymob's secret-key APIs answer it.
fn unauthorised(s: &StandIn, headers: &HeaderMap) -> Option<Response> {
    let expected = format!("Token {}", s.config.secret_key.expose());
    match headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    {
        Some(given) if given == expected => None,
        Some(_) => Some(answer(
            StatusCode::UNAUTHORIZED,
            json!({"detail": "Invalid token."}),
        )),
        None => Some(answer(
            StatusCode::UNAUTHORIZED,
            json!({"detail": "Authentication credentials were not provided."}),
        )),
    }
}

fn field_error(field: &str, message: &str) -> Response {
    let (status, body) = field_refusal(field, message);
    answer(status, body)
}

/// A refusal before it becomes a response (small, so `Result`s stay cheap).
type Refusal = (StatusCode, Value);

fn field_refusal(field: &str, message: &str) -> Refusal {
    (StatusCode::BAD_REQUEST, json!({ field: [message] }))
}

/// The integration ids (or names) asked for, each one the merchant has, in our names.
fn known_methods(s: &StandIn, asked: &Value) -> Result<Vec<(String, i64)>, Refusal> {
    let not_found = || {
        (
            StatusCode::NOT_FOUND,
            json!({"detail": "Integration ID/Name does not exist in our system . You can find the list of Integration ID’/Names from Merchant Dashboard under Developers → Payment Integrations Tab"}),
        )
    };
    let list = asked
        .as_array()
        .filter(|l| !l.is_empty())
        .ok_or_else(|| field_refusal("payment_methods", "This field is required."))?;
    let mut methods = Vec::new();
    for item in list {
        let found =
            s.config.integration_ids.iter().find(|(name, id)| {
                item.as_i64() == Some(**id) || item.as_str() == Some(name.as_str())
            });
        match found {
            Some((name, id)) => methods.push((name.clone(), *id)),
            None => return Err(not_found()),
        }
    }
    Ok(methods)
}

/// Everything Paymob checks in an intention's body but the duplicate reference.
fn check_intention(s: &StandIn, body: &Value) -> Result<Vec<(String, i64)>, Refusal> {
    let Some(amount) = body["amount"].as_i64() else {
        return Err(field_refusal("amount", "A valid integer is required."));
    };
    if amount < 1 {
        return Err(field_refusal(
            "amount",
            "Ensure this value is greater than or equal to 1.",
        ));
    }
    if body["currency"].as_str() != Some("EGP") {
        return Err(field_refusal(
            "currency",
            "The currency must be the integrations' currency, EGP.",
        ));
    }
    let methods = known_methods(s, &body["payment_methods"])?;
    if let Some(items) = body["items"].as_array() {
        let mut total = 0;
        for item in items {
            for field in ["name", "amount"] {
                if item[field].is_null() {
                    return Err((
                        StatusCode::BAD_REQUEST,
                        json!({"items": {field: ["This field is required."]}}),
                    ));
                }
            }
            total += item["amount"].as_i64().unwrap_or(0) * item["quantity"].as_i64().unwrap_or(1);
        }
        if total != amount {
            return Err(field_refusal(
                "amount",
                "The items' amounts must add up to the amount.",
            ));
        }
    }
    for field in ["first_name", "last_name", "phone_number", "email"] {
        if body["billing_data"][field]
            .as_str()
            .is_none_or(|v| v.trim().is_empty())
        {
            return Err((
                StatusCode::BAD_REQUEST,
                json!({"billing_data": {field: ["This field is required."]}}),
            ));
        }
    }
    for field in ["notification_url", "redirection_url"] {
        let url = &body[field];
        if !url.is_null() && url.as_str().is_none_or(|u| reqwest::Url::parse(u).is_err()) {
            return Err(field_refusal(field, "Enter a valid URL."));
        }
    }
    Ok(methods)
}

fn random_hex() -> String {
    let bytes: [u8; 16] = rand::thread_rng().r#gen();
    hex::encode(bytes)
}

async fn create_intention(
    State(s): State<Arc<StandIn>>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if let Some(refusal) = unauthorised(&s, &headers) {
        return refusal;
    }
    let methods = match check_intention(&s, &body) {
        Ok(methods) => methods,
        Err((status, body)) => return answer(status, body),
    };
    let mut books = s.books.lock().unwrap();
    let reference = body["special_reference"].as_str().unwrap_or_default();
    let used = |i: &IntentionRecord| i.request["special_reference"].as_str() == Some(reference);
    if !reference.is_empty() && books.intentions.values().any(used) {
        return field_error(
            "special_reference",
            "An intention with this special reference already exists.",
        );
    }
    let order_id = books.next();
    let record = IntentionRecord {
        id: format!("pi_test_{}", random_hex()),
        client_secret: format!("egy_csk_test_{}", random_hex()),
        order_id,
        request: body.clone(),
        methods: methods.clone(),
    };
    books
        .intentions
        .insert(record.client_secret.clone(), record.clone());
    let payment_methods: Vec<Value> = methods
        .iter()
        .map(|(name, id)| json!({"integration_id": id, "name": name, "method_type": name, "currency": "EGP", "live": false}))
        .collect();
    answer(
        StatusCode::CREATED,
        json!({
            "payment_keys": methods.iter().map(|(_, id)| json!({"integration": id, "order_id": order_id})).collect::<Vec<_>>(),
            "intention_order_id": order_id, "id": record.id, "client_secret": record.client_secret,
            "intention_detail": {"amount": body["amount"], "currency": "EGP", "items": body["items"], "billing_data": body["billing_data"]},
            "payment_methods": payment_methods, "special_reference": body["special_reference"],
            "extras": {"creation_extras": body["extras"]}, "confirmed": false, "status": "intended",
            "created": now(), "card_detail": null, "card_tokens": [], "object": "paymentintention"
        }),
    )
}

/// Paymob's timestamps: local, microseconds, no zone.
fn now() -> String {
    chrono::Utc::now()
        .format("%Y-%m-%dT%H:%M:%S%.6f")
        .to_string()
}

/// The transaction object of the callbacks, the refund answer and the retrieve API.
fn transaction_json(t: &Transaction) -> Value {
    let (kind, sub_type, pan) = &t.source;
    json!({
        "id": t.id, "pending": t.outcome == Outcome::Pending, "amount_cents": t.amount_cents,
        "success": t.outcome == Outcome::Approved, "is_auth": false, "is_capture": false,
        "is_standalone_payment": true, "is_voided": false, "is_refunded": t.refunded_cents > 0,
        "is_3d_secure": false, "integration_id": t.integration_id, "profile_id": PROFILE,
        "has_parent_transaction": t.refund_of.is_some(),
        "order": {"id": t.order_id, "created_at": t.created_at, "delivery_needed": false,
                  "merchant_order_id": t.special_reference, "currency": t.currency,
                  "amount_cents": t.amount_cents, "api_source": "OTHER"},
        "created_at": t.created_at, "currency": t.currency,
        "source_data": {"pan": pan, "type": kind, "sub_type": sub_type},
        "api_source": "IFRAME", "is_void": false, "is_refund": t.refund_of.is_some(),
        "data": {"message": t.message, "bill_reference": t.bill_reference},
        "error_occured": false, "is_live": false, "refunded_amount_cents": t.refunded_cents,
        "parent_transaction": t.refund_of, "updated_at": now(), "owner": OWNER,
    })
}

/// The URL stored in the intention under `key`, if any.
fn intention_url(s: &StandIn, client_secret: &str, key: &str) -> Option<String> {
    let books = s.books.lock().unwrap();
    let intention = books.intentions.get(client_secret)?;
    intention.request[key].as_str().map(str::to_string)
}

/// Server to server: the JSON, signed in the query, sent on its own as Paymob does.
fn send_callback(s: &StandIn, t: &Transaction) {
    let Some(notification_url) = intention_url(s, &t.client_secret, "notification_url") else {
        return;
    };
    let Ok(mut url) = reqwest::Url::parse(&notification_url) else {
        return;
    };
    let obj = transaction_json(t);
    url.query_pairs_mut()
        .append_pair("hmac", &sign_callback(s.config.hmac_secret.expose(), &obj));
    let body = json!({"type": "TRANSACTION", "obj": obj, "issuer_bank": null,
                      "transaction_processed_callback_responses": ""});
    let (http, delay) = (s.http.clone(), s.callback_delay_ms.load(Ordering::Relaxed));
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(delay)).await;
        if let Err(e) = http.post(url).json(&body).send().await {
            tracing::warn!(error = %e.without_url(), "stand-in Paymob callback not delivered");
        }
    });
}

/// A JSON value as Paymob writes it into a query (booleans `true`/`false`, null empty).
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The browser's way back: the transaction flattened into query fields, signed.
fn redirect_fields(s: &StandIn, obj: &Value) -> Vec<(String, String)> {
    const FIELDS: [(&str, &str); 26] = [
        ("id", "id"),
        ("pending", "pending"),
        ("amount_cents", "amount_cents"),
        ("success", "success"),
        ("is_auth", "is_auth"),
        ("is_capture", "is_capture"),
        ("is_standalone_payment", "is_standalone_payment"),
        ("is_voided", "is_voided"),
        ("is_refunded", "is_refunded"),
        ("is_3d_secure", "is_3d_secure"),
        ("integration_id", "integration_id"),
        ("profile_id", "profile_id"),
        ("has_parent_transaction", "has_parent_transaction"),
        ("order", "order.id"),
        ("created_at", "created_at"),
        ("currency", "currency"),
        ("is_void", "is_void"),
        ("is_refund", "is_refund"),
        ("error_occured", "error_occured"),
        ("refunded_amount_cents", "refunded_amount_cents"),
        ("owner", "owner"),
        ("merchant_order_id", "order.merchant_order_id"),
        ("data.message", "data.message"),
        ("source_data.type", "source_data.type"),
        ("source_data.pan", "source_data.pan"),
        ("source_data.sub_type", "source_data.sub_type"),
    ];
    let mut fields: Vec<(String, String)> = FIELDS
        .iter()
        .map(|(key, path)| {
            let value = path
                .split('.')
                .fold(obj, |v, k| v.get(k).unwrap_or(&Value::Null));
            (key.to_string(), plain(value))
        })
        .collect();
    let hmac = sign_redirect(s.config.hmac_secret.expose(), &fields);
    fields.push(("hmac".into(), hmac));
    fields
}

/// 303 to `redirection_url` with the signed fields; a page when the intention has none.
fn redirect_browser(s: &StandIn, t: &Transaction) -> Response {
    let target = intention_url(s, &t.client_secret, "redirection_url")
        .and_then(|u| reqwest::Url::parse(&u).ok());
    let Some(mut url) = target else {
        return Html(page(
            "Payment finished",
            &format!("<p>{}</p>", escape(&t.message)),
        ))
        .into_response();
    };
    for (k, v) in redirect_fields(s, &transaction_json(t)) {
        url.query_pairs_mut().append_pair(&k, &v);
    }
    (StatusCode::SEE_OTHER, [(header::LOCATION, url.to_string())]).into_response()
}

fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><link rel=\"icon\" href=\"data:,\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>Paymob stand-in: {title}</title></head>\
<body style=\"font-family:system-ui,sans-serif;background:#eef2f7;margin:0\">\
<main style=\"max-width:30rem;margin:3rem auto;background:#fff;padding:2rem;border-radius:12px\">\
<p style=\"color:#9a3412;font-size:.9rem\">Local Paymob stand-in: no real payment is made.</p>\
<h1 style=\"font-size:1.3rem\">{title}</h1>{body}</main></body></html>",
        title = escape(title)
    )
}

fn not_found_page() -> Response {
    (
        StatusCode::NOT_FOUND,
        Html(page(
            "Checkout not found",
            "<p>This payment link is not valid.</p>",
        )),
    )
        .into_response()
}

fn egp(cents: i64) -> String {
    format!("{}.{:02} EGP", cents / 100, cents % 100)
}

/// One method's part of the checkout page.
fn method_section(client_secret: &str, method: &str, error: Option<&str>) -> String {
    let hidden = format!(
        "<input type=\"hidden\" name=\"client_secret\" value=\"{}\"><input type=\"hidden\" name=\"method\" value=\"{}\">",
        escape(client_secret),
        escape(method)
    );
    let form = |inner: &str| {
        format!(
            "<form method=\"post\" action=\"/paymob-standin/unifiedcheckout/pay\">{hidden}{inner}</form>"
        )
    };
    match method {
        "wallet" => {
            let alert = error
                .map(|e| {
                    format!(
                        "<p role=\"alert\" style=\"color:#b91c1c\">{}</p>",
                        escape(e)
                    )
                })
                .unwrap_or_default();
            format!(
                "<section aria-labelledby=\"m-wallet\"><h2 id=\"m-wallet\">Mobile wallet</h2>{alert}{}</section>",
                form(
                    "<p><label for=\"wallet_number\">Wallet number</label><br>\
<input id=\"wallet_number\" name=\"wallet_number\" inputmode=\"numeric\" autocomplete=\"tel-national\" required aria-describedby=\"wallet-hint\"></p>\
<p id=\"wallet-hint\">Vodafone Cash, Orange Cash, e&amp; money or WE Pay: 11 digits starting with 010, 011, 012 or 015.</p>\
<p><button type=\"submit\">Pay with wallet</button></p>"
                )
            )
        }
        "kiosk" => format!(
            "<section aria-labelledby=\"m-kiosk\"><h2 id=\"m-kiosk\">Pay at a kiosk (Aman, Masary)</h2>{}</section>",
            form("<p><button type=\"submit\">Get a kiosk reference</button></p>")
        ),
        "card" => format!(
            "<section aria-labelledby=\"m-card\"><h2 id=\"m-card\">Card</h2>{}</section>",
            form("<p><button type=\"submit\">Pay by card</button></p>")
        ),
        other => format!("<p>{}: not offered by the stand-in.</p>", escape(other)),
    }
}

fn checkout_html(i: &IntentionRecord, error: Option<&str>) -> String {
    let amount = i.request["amount"].as_i64().unwrap_or(0);
    let description = i.request["items"][0]["description"]
        .as_str()
        .or(i.request["items"][0]["name"].as_str())
        .unwrap_or("");
    let sections: String = i
        .methods
        .iter()
        .map(|(method, _)| method_section(&i.client_secret, method, error))
        .collect();
    page(
        &format!("Pay {}", egp(amount)),
        &format!(
            "<p>{}</p><p>Amount: <strong>{}</strong></p>{sections}",
            escape(description),
            egp(amount)
        ),
    )
}

#[derive(Deserialize)]
struct CheckoutQuery {
    #[serde(rename = "publicKey")]
    public_key: Option<String>,
    #[serde(rename = "clientSecret")]
    client_secret: Option<String>,
}

async fn checkout(State(s): State<Arc<StandIn>>, Query(q): Query<CheckoutQuery>) -> Response {
    if q.public_key.as_deref() != Some(s.config.public_key.as_str()) {
        return not_found_page();
    }
    let books = s.books.lock().unwrap();
    match q
        .client_secret
        .and_then(|cs| books.intentions.get(&cs).cloned())
    {
        Some(intention) => Html(checkout_html(&intention, None)).into_response(),
        None => not_found_page(),
    }
}

#[derive(Deserialize)]
struct PayForm {
    client_secret: String,
    method: String,
    wallet_number: Option<String>,
}

/// An Egyptian mobile wallet number (01 then 0, 1, 2 or 5, then 8 digits) and its wallet.
fn wallet_of(number: &str) -> Option<&'static str> {
    let digits: String = number.chars().filter(|c| !c.is_whitespace()).collect();
    if digits.len() != 11
        || !digits.starts_with("01")
        || !digits.chars().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    match &digits[..3] {
        "010" => Some("Vodafone Cash"),
        "011" => Some("e& money"),
        "012" => Some("Orange Cash"),
        "015" => Some("WE Pay"),
        _ => None,
    }
}

/// A new pending transaction of the intention, by one of its methods.
fn open_transaction(
    books: &mut Books,
    i: &IntentionRecord,
    integration_id: i64,
    source: (String, String, String),
) -> Transaction {
    let id = books.next();
    let t = Transaction {
        id,
        order_id: i.order_id,
        client_secret: i.client_secret.clone(),
        integration_id,
        amount_cents: i.request["amount"].as_i64().unwrap_or(0),
        currency: "EGP".into(),
        special_reference: i.request["special_reference"]
            .as_str()
            .unwrap_or_default()
            .into(),
        created_at: now(),
        source,
        outcome: Outcome::Pending,
        message: "Pending".into(),
        refund_of: None,
        refunded_cents: 0,
        bill_reference: None,
    };
    books.transactions.insert(id, t.clone());
    t
}

async fn pay(State(s): State<Arc<StandIn>>, Form(f): Form<PayForm>) -> Response {
    let mut books = s.books.lock().unwrap();
    let Some(intention) = books.intentions.get(&f.client_secret).cloned() else {
        return not_found_page();
    };
    let paid = books.transactions.values().any(|t| {
        t.client_secret == f.client_secret
            && t.refund_of.is_none()
            && t.outcome == Outcome::Approved
    });
    if paid {
        let body = page("Already paid", "<p>This payment is already complete.</p>");
        return (StatusCode::CONFLICT, Html(body)).into_response();
    }
    let Some(&(_, integration_id)) = intention.methods.iter().find(|(m, _)| *m == f.method) else {
        return not_found_page();
    };
    match f.method.as_str() {
        "wallet" => {
            let number: String = f
                .wallet_number
                .unwrap_or_default()
                .split_whitespace()
                .collect();
            let Some(wallet) = wallet_of(&number) else {
                let error = "Enter an Egyptian mobile wallet number: 11 digits starting with 010, 011, 012 or 015.";
                return (
                    StatusCode::BAD_REQUEST,
                    Html(checkout_html(&intention, Some(error))),
                )
                    .into_response();
            };
            let source = ("wallet".to_string(), "wallet".to_string(), number.clone());
            let t = open_transaction(&mut books, &intention, integration_id, source);
            Html(otp_html(&t, wallet)).into_response()
        }
        "kiosk" => {
            let source = (
                "aggregator".to_string(),
                "AGGREGATOR".to_string(),
                String::new(),
            );
            let mut t = open_transaction(&mut books, &intention, integration_id, source);
            t.bill_reference = Some(format!(
                "{:08}",
                rand::thread_rng().gen_range(0..100_000_000)
            ));
            books.transactions.insert(t.id, t.clone());
            drop(books);
            // Paymob notifies the reference at once, pending, and again when it is paid.
            send_callback(&s, &t);
            Html(kiosk_html(&t)).into_response()
        }
        _ => {
            let source = (
                "card".to_string(),
                "MasterCard".to_string(),
                "2346".to_string(),
            );
            let t = open_transaction(&mut books, &intention, integration_id, source);
            Html(card_html(&t)).into_response()
        }
    }
}

fn decision_form(t: &Transaction, inner: &str) -> String {
    format!(
        "<form method=\"post\" action=\"/paymob-standin/unifiedcheckout/transactions/{}\">{inner}</form>",
        t.id
    )
}

fn otp_html(t: &Transaction, wallet: &str) -> String {
    let form = decision_form(
        t,
        "<p><label for=\"otp\">Verification code</label><br>\
<input id=\"otp\" name=\"otp\" inputmode=\"numeric\" autocomplete=\"one-time-code\" maxlength=\"6\" aria-describedby=\"otp-hint\"></p>\
<p id=\"otp-hint\">Any 6 digits approve; 000000 declines.</p>\
<p><button type=\"submit\" name=\"action\" value=\"verify\">Verify</button></p>\
<p><button type=\"submit\" name=\"action\" value=\"approve\">Approve</button> \
<button type=\"submit\" name=\"action\" value=\"decline\">Decline</button> \
<button type=\"submit\" name=\"action\" value=\"expire\">Let it expire</button></p>",
    );
    page(
        "Confirm the payment in your wallet",
        &format!(
            "<p>{wallet} sent a 6-digit code to {} for {}.</p>{form}",
            escape(&t.source.2),
            egp(t.amount_cents)
        ),
    )
}

fn card_html(t: &Transaction) -> String {
    let form = decision_form(
        t,
        "<p>Test card 5123 4567 8901 2346</p>\
<p><button type=\"submit\" name=\"action\" value=\"approve\">Approve</button> \
<button type=\"submit\" name=\"action\" value=\"decline\">Decline</button></p>",
    );
    page(&format!("Pay {} by card", egp(t.amount_cents)), &form)
}

fn kiosk_html(t: &Transaction) -> String {
    page(
        "Pay at a kiosk",
        &format!(
            "<p>Your bill reference is <strong data-bill-reference>{}</strong>. Pay {} at any Aman or Masary kiosk.</p>\
<form method=\"post\" action=\"/paymob-standin/kiosk/{}/pay\"><p><button type=\"submit\">Pay at kiosk</button></p></form>",
            escape(t.bill_reference.as_deref().unwrap_or("")),
            egp(t.amount_cents),
            t.id
        ),
    )
}

#[derive(Deserialize)]
struct Decision {
    action: String,
    otp: Option<String>,
}

/// Settles a pending transaction once; a second decision changes nothing.
fn settle(s: &StandIn, id: i64, outcome: Outcome, message: &str) -> Option<(Transaction, bool)> {
    let mut books = s.books.lock().unwrap();
    let t = books.transactions.get_mut(&id)?;
    let changed = t.outcome == Outcome::Pending;
    if changed {
        t.outcome = outcome;
        t.message = message.to_string();
    }
    Some((t.clone(), changed))
}

async fn decide(
    State(s): State<Arc<StandIn>>,
    Path(id): Path<i64>,
    Form(d): Form<Decision>,
) -> Response {
    let otp = d.otp.unwrap_or_default();
    let (outcome, message) = match d.action.as_str() {
        "approve" => (
            Outcome::Approved,
            "Transaction has been completed successfully.",
        ),
        "decline" => (Outcome::Declined, "Transaction has been declined."),
        "expire" => (Outcome::Declined, "Transaction has expired."),
        "verify" if otp.len() == 6 && otp.chars().all(|c| c.is_ascii_digit()) => {
            if otp == "000000" {
                (
                    Outcome::Declined,
                    "Wrong OTP: transaction has been declined.",
                )
            } else {
                (
                    Outcome::Approved,
                    "Transaction has been completed successfully.",
                )
            }
        }
        _ => {
            let t = s.books.lock().unwrap().transactions.get(&id).cloned();
            let Some(t) = t else { return not_found_page() };
            let alert = "<p role=\"alert\" style=\"color:#b91c1c\">Enter the 6-digit code.</p>";
            let html = otp_html(&t, "Your wallet").replace("<form", &format!("{alert}<form"));
            return (StatusCode::BAD_REQUEST, Html(html)).into_response();
        }
    };
    let Some((t, changed)) = settle(&s, id, outcome, message) else {
        return not_found_page();
    };
    if changed {
        send_callback(&s, &t);
    }
    redirect_browser(&s, &t)
}

/// The kiosk's side: the customer paid the bill reference in cash.
async fn pay_at_kiosk(State(s): State<Arc<StandIn>>, Path(id): Path<i64>) -> Response {
    let is_kiosk = s
        .books
        .lock()
        .unwrap()
        .transactions
        .get(&id)
        .is_some_and(|t| t.bill_reference.is_some());
    if !is_kiosk {
        return not_found_page();
    }
    let Some((t, changed)) = settle(&s, id, Outcome::Approved, "Paid at kiosk.") else {
        return not_found_page();
    };
    if changed {
        send_callback(&s, &t);
    }
    Html(page(
        "Paid at the kiosk",
        &format!(
            "<p>{} received for reference {}.</p>",
            egp(t.amount_cents),
            escape(t.bill_reference.as_deref().unwrap_or(""))
        ),
    ))
    .into_response()
}

fn int_of(v: &Value) -> Option<i64> {
    v.as_i64()
        .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
}

/// A refund: of a paid sale only, never more than what is left of it. Answered at once with
/// the refund transaction, then notified.
async fn refund(
    State(s): State<Arc<StandIn>>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if let Some(refusal) = unauthorised(&s, &headers) {
        return refusal;
    }
    let Some(amount) = int_of(&body["amount_cents"]) else {
        return field_error("amount_cents", "A valid integer is required.");
    };
    let mut books = s.books.lock().unwrap();
    let Some(sale) =
        int_of(&body["transaction_id"]).and_then(|id| books.transactions.get(&id).cloned())
    else {
        return answer(StatusCode::NOT_FOUND, json!({"detail": "Not found."}));
    };
    if sale.refund_of.is_some() || sale.outcome != Outcome::Approved {
        return answer(
            StatusCode::BAD_REQUEST,
            json!({"message": "Transaction can not be refunded"}),
        );
    }
    if amount < 1 || amount + sale.refunded_cents > sale.amount_cents {
        return answer(
            StatusCode::BAD_REQUEST,
            json!({"message": "Refund amount exceeds the transaction amount"}),
        );
    }
    let declined = s.decline_refunds.load(Ordering::Relaxed);
    let id = books.next();
    let refund = Transaction {
        id,
        amount_cents: amount,
        created_at: now(),
        outcome: if declined {
            Outcome::Declined
        } else {
            Outcome::Approved
        },
        message: if declined {
            "Refund declined".into()
        } else {
            "Refund approved".into()
        },
        refund_of: Some(sale.id),
        refunded_cents: 0,
        bill_reference: None,
        ..sale.clone()
    };
    books.transactions.insert(id, refund.clone());
    if !declined {
        books
            .transactions
            .get_mut(&sale.id)
            .expect("the sale")
            .refunded_cents += amount;
    }
    drop(books);
    send_callback(&s, &refund);
    answer(StatusCode::OK, transaction_json(&refund))
}

async fn query(State(s): State<Arc<StandIn>>, headers: HeaderMap, Path(id): Path<i64>) -> Response {
    if let Some(refusal) = unauthorised(&s, &headers) {
        return refusal;
    }
    match s.books.lock().unwrap().transactions.get(&id) {
        Some(t) => answer(StatusCode::OK, transaction_json(t)),
        None => answer(StatusCode::NOT_FOUND, json!({"detail": "Not found."})),
    }
}
