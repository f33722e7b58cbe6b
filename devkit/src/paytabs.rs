//! A local PayTabs for development and tests, served at /paytabs-standin by `devserver`
//! (unless PAYTABS_STANDIN=false) and by the API's tests; never by the `api` binary. It checks
//! requests the way PayTabs does (server key in `authorization`, profile, currency, duplicate
//! carts), serves a hosted payment page with Approve / Decline / Cancel, then sends the signed
//! callback and the signed browser return exactly as PayTabs does. Follow-up refunds
//! (`tran_type: refund` on an approved sale's `tran_ref`) are answered at once and then
//! notified with a signed callback, as PayTabs does. Invoices (`/payment/new/invoice`) are kept
//! under an `invoice_link` whose page takes a payment like the hosted page until one is approved
//! or the invoice is cancelled (`/payment/invoice/cancel`; `/payment/invoice/{id}/status`).
//! The production client reaches it only through PAYTABS_BASE_URL, so the real code path runs.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use rand::Rng;
use serde::Deserialize;
use serde_json::{Value, json};

use api::configuration::Config;
use api::email::templates::escape;
use api::payments::paytabs::{PayTabsConfig, parse_amount, sign, sign_return};

#[derive(Clone)]
struct Pending {
    request: Value,
    created: Instant,
    /// `A`, `D`, `C` once the customer chose; `None` before.
    result: Option<&'static str>,
    tran_ref: String,
    /// How the customer paid (PayTabs' method code), and the card number for a card.
    paid_with: Option<(String, String)>,
}

/// The methods of PayTabs' `payment_methods` parameter, with the names its page gives them.
const METHODS: [(&str, &str); 9] = [
    ("creditcard", "Card"),
    ("meezaqr", "Meeza QR"),
    ("applepay", "Apple Pay"),
    ("valu", "valU"),
    ("souhoola", "Souhoola"),
    ("forsa", "Forsa"),
    ("halan", "Halan"),
    ("installment", "NBE Installment"),
    ("aman", "Aman"),
];

/// Whether a request's `payment_methods`, when it has them, are a list of PayTabs' codes.
fn methods_known(request: &Value) -> bool {
    request.get("payment_methods").is_none_or(|methods| {
        methods.as_array().is_some_and(|list| {
            !list.is_empty()
                && list
                    .iter()
                    .all(|m| METHODS.iter().any(|(code, _)| m == code))
        })
    })
}

/// The methods a payment request lets its page offer: its `payment_methods`, or all.
fn offered(request: &Value) -> Vec<&'static str> {
    match request["payment_methods"].as_array() {
        Some(list) => METHODS
            .iter()
            .map(|(code, _)| *code)
            .filter(|code| list.iter().any(|m| m == code))
            .collect(),
        None => METHODS.iter().map(|(code, _)| *code).collect(),
    }
}

/// `payment_info` as PayTabs reports it for a payment made with `method` (a card by its
/// number: 5078… Meeza, 4… Visa, 5… Mastercard).
fn payment_info(method: &str, card: &str) -> Value {
    let digits: String = card.chars().filter(char::is_ascii_digit).collect();
    let masked = if digits.len() >= 10 {
        format!(
            "{} {}## #### {}",
            &digits[..4],
            &digits[4..6],
            &digits[digits.len() - 4..]
        )
    } else {
        "4111 11## #### 1111".into()
    };
    let scheme = if digits.starts_with("5078") {
        "Meeza"
    } else if digits.starts_with('5') {
        "MasterCard"
    } else {
        "Visa"
    };
    match method {
        "creditcard" => {
            json!({"payment_method": scheme, "card_type": "Debit", "card_scheme": scheme,
                                "payment_description": masked})
        }
        "applepay" => {
            json!({"payment_method": "ApplePay", "card_type": "Credit", "card_scheme": "Visa",
                              "payment_description": "4111 11## #### 1111"})
        }
        "meezaqr" => json!({"payment_method": "MeezaQR", "payment_description": "Meeza QR"}),
        "valu" => json!({"payment_method": "valU", "payment_description": "valU 6 months"}),
        "souhoola" => json!({"payment_method": "Souhoola"}),
        "forsa" => json!({"payment_method": "Forsa"}),
        "halan" => json!({"payment_method": "Halan"}),
        "installment" => json!({"payment_method": "NBE Installment", "card_scheme": "Visa"}),
        other => json!({"payment_method": other}),
    }
}

/// An invoice PayTabs keeps: its sale request (with `invoice`), and whether it was paid or
/// cancelled.
struct KeptInvoice {
    request: Value,
    status: &'static str,
}

pub struct StandIn {
    config: PayTabsConfig,
    transactions: Mutex<HashMap<String, Pending>>,
    invoices: Mutex<Vec<KeptInvoice>>,
    http: reqwest::Client,
    /// Milliseconds to wait before sending the callback (tests race it with the return).
    pub callback_delay_ms: std::sync::atomic::AtomicU64,
    /// Refunds asked for, as PayTabs recorded them (tran_ref → the refund's transaction).
    refunds: Mutex<Vec<Value>>,
    /// Answer refunds with `D` (declined) instead of `A` (tests of a declined refund).
    pub decline_refunds: std::sync::atomic::AtomicBool,
    /// Refuse refund requests outright with HTTP 400 "Transaction can not be refunded", as
    /// PayTabs does for a sale it will not refund (tests of a refused refund).
    pub refuse_refunds: std::sync::atomic::AtomicBool,
}

impl StandIn {
    /// The PayTabs of `config`: its profile and server key, served where its PAYTABS_BASE_URL
    /// must point (`{API}/paytabs-standin`).
    pub fn for_api(config: &Config) -> anyhow::Result<Arc<StandIn>> {
        crate::guard::ensure_development(config, "PAYTABS_STANDIN")?;
        let Some(paytabs) = &config.paytabs else {
            anyhow::bail!(
                "PAYTABS_STANDIN needs PAYTABS_PROFILE_ID, PAYTABS_SERVER_KEY and PAYTABS_BASE_URL pointing at it"
            );
        };
        Ok(StandIn::new(paytabs.clone()))
    }

    pub fn new(config: PayTabsConfig) -> Arc<StandIn> {
        Arc::new(StandIn {
            config,
            transactions: Mutex::new(HashMap::new()),
            invoices: Mutex::new(Vec::new()),
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(10))
                .build()
                .expect("client"),
            callback_delay_ms: 0.into(),
            refunds: Mutex::new(Vec::new()),
            decline_refunds: false.into(),
            refuse_refunds: false.into(),
        })
    }
}

pub fn router(standin: Arc<StandIn>) -> Router {
    Router::new()
        .route("/paytabs-standin/payment/request", post(request))
        .route("/paytabs-standin/payment/query", post(query))
        .route(
            "/paytabs-standin/payment/page/{tran_ref}",
            get(page).post(decide),
        )
        .route("/paytabs-standin/payment/new/invoice", post(new_invoice))
        .route(
            "/paytabs-standin/payment/invoice/cancel",
            post(cancel_invoice),
        )
        .route(
            "/paytabs-standin/payment/invoice/{id}/status",
            get(invoice_status),
        )
        .route(
            "/paytabs-standin/payment/invoice/{id}/link",
            get(invoice_page).post(invoice_decide),
        )
        .with_state(standin)
}

fn refuse(status: StatusCode, code: i64, message: &str) -> Response {
    (
        status,
        Json(json!({"code": code, "message": message, "trace": "STANDIN.0001"})),
    )
        .into_response()
}

fn authorised(s: &StandIn, headers: &HeaderMap) -> bool {
    headers.get("authorization").and_then(|v| v.to_str().ok()) == Some(s.config.server_key.expose())
}

async fn request(
    State(s): State<Arc<StandIn>>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if !authorised(&s, &headers) {
        return refuse(
            StatusCode::UNAUTHORIZED,
            1,
            "Authentication failed. Check authentication header.",
        );
    }
    if body["profile_id"].as_i64() != Some(s.config.profile_id) {
        return refuse(StatusCode::BAD_REQUEST, 2, "Profile ID is invalid");
    }
    if body["tran_type"]
        .as_str()
        .is_some_and(|t| t.eq_ignore_ascii_case("refund"))
    {
        return refund(&s, &body);
    }
    if let Some((code, message)) = invalid_sale(&body) {
        return refuse(StatusCode::BAD_REQUEST, code, &message);
    }
    let cart_id = body["cart_id"].as_str().unwrap_or("");
    let amount = body["cart_amount"].as_f64().unwrap_or(0.0);
    let description = body["cart_description"].as_str().unwrap_or("");
    let mut all = s.transactions.lock().unwrap();
    if all.values().any(|p| {
        p.request["cart_id"] == body["cart_id"] && p.created.elapsed() < Duration::from_secs(120)
    }) {
        return refuse(StatusCode::CONFLICT, 4, "Duplicate Request");
    }
    let tran_ref = new_tran_ref();
    let redirect_url = format!(
        "{}/payment/page/{tran_ref}",
        s.config.base_url.trim_end_matches('/')
    );
    all.insert(
        tran_ref.clone(),
        Pending {
            request: body.clone(),
            created: Instant::now(),
            result: None,
            tran_ref: tran_ref.clone(),
            paid_with: None,
        },
    );
    Json(json!({
        "tran_ref": tran_ref, "tran_type": "Sale", "cart_id": cart_id,
        "cart_description": description, "cart_currency": "EGP", "cart_amount": format!("{amount:.2}"),
        "callback": body["callback"], "return": body["return"], "redirect_url": redirect_url,
        "customer_details": body["customer_details"], "serviceId": 2, "profileId": s.config.profile_id,
        "merchantId": 1, "trace": "STANDIN.0002"
    }))
    .into_response()
}

/// An amount PayTabs was sent, as a number or a string, in minor units.
fn minor(v: &Value) -> Option<i64> {
    match v {
        Value::String(t) => parse_amount(t),
        other => parse_amount(&other.to_string()),
    }
}

fn new_tran_ref() -> String {
    format!(
        "TST{:013}",
        rand::thread_rng().gen_range(0..10_000_000_000_000u64)
    )
}

/// What PayTabs refuses in a sale request, as its code and message: a cart id, currency,
/// amount, description, method list or address it does not take.
fn invalid_sale(body: &Value) -> Option<(i64, String)> {
    let cart_id = body["cart_id"].as_str().unwrap_or("");
    let amount = body["cart_amount"].as_f64().unwrap_or(0.0);
    let description = body["cart_description"].as_str().unwrap_or("");
    let bad_url = ["callback", "return"]
        .into_iter()
        .find(|field| !body[*field].as_str().is_some_and(|u| u.starts_with("http")));
    if cart_id.is_empty() || cart_id.len() > 64 {
        Some((113, "Cart ID is invalid".into()))
    } else if body["cart_currency"].as_str() != Some("EGP") {
        Some((206, "Invalid currency code".into()))
    } else if !(0.01..=9_999_999_999.99).contains(&amount) {
        Some((207, "Invalid cart amount".into()))
    } else if description.is_empty() || description.len() > 128 {
        Some((208, "Invalid cart description".into()))
    } else if !matches!(body["paypage_lang"].as_str(), None | Some("en" | "ar")) {
        Some((209, "Invalid page language".into()))
    } else if !methods_known(body) {
        Some((225, "Payment method is not supported".into()))
    } else {
        bad_url.map(|field| (210, format!("Invalid {field} URL")))
    }
}

/// A follow-up refund: only of an approved sale, in its currency, never more than the sale
/// minus its earlier refunds; a cart id is used once. Answered at once, then notified.
fn refund(s: &Arc<StandIn>, body: &Value) -> Response {
    let sale_ref = body["tran_ref"].as_str().unwrap_or("");
    let cart_id = body["cart_id"].as_str().unwrap_or("");
    if cart_id.is_empty() || cart_id.len() > 64 {
        return refuse(StatusCode::BAD_REQUEST, 113, "Cart ID is invalid");
    }
    let Some(sale) = s.transactions.lock().unwrap().get(sale_ref).cloned() else {
        return refuse(StatusCode::BAD_REQUEST, 404, "Transaction not found");
    };
    let refused = s.refuse_refunds.load(std::sync::atomic::Ordering::Relaxed);
    if refused || sale.result != Some("A") {
        return refuse(
            StatusCode::BAD_REQUEST,
            340,
            "Transaction can not be refunded",
        );
    }
    if body["cart_currency"] != sale.request["cart_currency"] {
        return refuse(StatusCode::BAD_REQUEST, 206, "Invalid currency code");
    }
    let to_minor = |v: &Value| minor(v).unwrap_or(0);
    let amount = to_minor(&body["cart_amount"]);
    let mut refunds = s.refunds.lock().unwrap();
    if refunds.iter().any(|r| r["cart_id"] == cart_id) {
        return refuse(StatusCode::CONFLICT, 4, "Duplicate Request");
    }
    let already: i64 = refunds
        .iter()
        .filter(|r| {
            r["previous_tran_ref"] == sale_ref && r["payment_result"]["response_status"] == "A"
        })
        .map(|r| to_minor(&r["tran_total"]))
        .sum();
    if amount <= 0 || amount + already > to_minor(&sale.request["cart_amount"]) {
        return refuse(
            StatusCode::BAD_REQUEST,
            341,
            "Refund amount exceeds the transaction amount",
        );
    }
    let declined = s.decline_refunds.load(std::sync::atomic::Ordering::Relaxed);
    let (status, code, message) = if declined {
        ("D", "D52", "Refund declined")
    } else {
        ("A", "G54321", "Authorised")
    };
    let total = format!("{}.{:02}", amount / 100, amount % 100);
    let tran_ref = new_tran_ref();
    let transaction = json!({
        "tran_ref": tran_ref, "previous_tran_ref": sale_ref, "merchant_id": 1, "profile_id": s.config.profile_id,
        "cart_id": cart_id, "cart_description": body["cart_description"],
        "cart_currency": body["cart_currency"], "cart_amount": total, "tran_currency": body["cart_currency"], "tran_total": total,
        "tran_type": "Refund", "tran_class": "ECom", "customer_details": sale.request["customer_details"],
        "payment_result": {"response_status": status, "response_code": code, "response_message": message,
                           "transaction_time": chrono::Utc::now().to_rfc3339()},
        "ipn_trace": "STANDIN.IPN"
    });
    refunds.push(transaction.clone());
    if let Some(callback) = body["callback"].as_str().filter(|u| u.starts_with("http")) {
        send_callback(s, callback.to_string(), &transaction);
    }
    Json(transaction).into_response()
}

/// Server to server: JSON signed over the raw bytes, sent on its own like PayTabs' IPN.
fn send_callback(s: &StandIn, callback: String, transaction: &Value) {
    let body = serde_json::to_vec(transaction).expect("json");
    let signature = sign(s.config.server_key.expose(), &body);
    let (http, delay) = (
        s.http.clone(),
        s.callback_delay_ms
            .load(std::sync::atomic::Ordering::Relaxed),
    );
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(delay)).await;
        let sent = http
            .post(&callback)
            .header("content-type", "application/json")
            .header("Signature", signature)
            .body(body)
            .send()
            .await;
        if let Err(e) = sent {
            tracing::warn!(error = %e.without_url(), "stand-in callback not delivered");
        }
    });
}

/// The transaction object of the callback and the query API.
fn transaction_json(s: &StandIn, p: &Pending) -> Value {
    let r = &p.request;
    let (status, code, message) = match p.result {
        Some("A") => ("A", "G12345", "Authorised"),
        Some("D") => ("D", "D51", "Declined"),
        Some("C") => ("C", "C01", "Cancelled"),
        _ => ("P", "", "Pending"),
    };
    let amount = format!("{:.2}", r["cart_amount"].as_f64().unwrap_or(0.0));
    json!({
        "tran_ref": p.tran_ref, "merchant_id": 1, "profile_id": s.config.profile_id,
        "cart_id": r["cart_id"], "cart_description": r["cart_description"],
        "cart_currency": "EGP", "cart_amount": amount, "tran_currency": "EGP", "tran_total": amount,
        "tran_type": "Sale", "tran_class": "ECom", "customer_details": r["customer_details"],
        "payment_result": {"response_status": status, "response_code": code, "response_message": message,
                           "transaction_time": chrono::Utc::now().to_rfc3339()},
        "payment_info": match &p.paid_with {
            Some((method, card)) => payment_info(method, card),
            None => payment_info("creditcard", ""),
        },
        "invoice_id": r.get("invoice_id"),
        "ipn_trace": "STANDIN.IPN"
    })
}

#[derive(Deserialize)]
struct QueryBody {
    profile_id: Option<i64>,
    tran_ref: Option<String>,
    cart_id: Option<String>,
}

async fn query(
    State(s): State<Arc<StandIn>>,
    headers: HeaderMap,
    Json(body): Json<QueryBody>,
) -> Response {
    if !authorised(&s, &headers) {
        return refuse(
            StatusCode::UNAUTHORIZED,
            1,
            "Authentication failed. Check authentication header.",
        );
    }
    if body.profile_id != Some(s.config.profile_id) {
        return refuse(StatusCode::BAD_REQUEST, 2, "Profile ID is invalid");
    }
    let all = s.transactions.lock().unwrap();
    if let Some(tran_ref) = body.tran_ref {
        return match all.get(&tran_ref) {
            Some(p) => Json(transaction_json(&s, p)).into_response(),
            None => refuse(StatusCode::BAD_REQUEST, 404, "Transaction not found"),
        };
    }
    if let Some(cart) = body.cart_id {
        let list: Vec<Value> = all
            .values()
            .filter(|p| p.request["cart_id"] == cart.as_str())
            .map(|p| transaction_json(&s, p))
            .collect();
        return Json(Value::Array(list)).into_response();
    }
    refuse(
        StatusCode::BAD_REQUEST,
        5,
        "tran_ref or cart_id is required",
    )
}

async fn page(State(s): State<Arc<StandIn>>, Path(tran_ref): Path<String>) -> Response {
    let Some(p) = s.transactions.lock().unwrap().get(&tran_ref).cloned() else {
        return not_found("Payment page not found");
    };
    Html(page_html(&p.request)).into_response()
}

fn not_found(text: &str) -> Response {
    (StatusCode::NOT_FOUND, Html(format!("<h1>{text}</h1>"))).into_response()
}

/// The page where the customer pays a sale: its description, an invoice's lines, the methods
/// on offer and Approve / Decline / Cancel, posting back to the same address.
fn page_html(r: &Value) -> String {
    let lines: String = r["invoice"]["line_items"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|l| {
                    format!(
                        "<li>{} &times; {}: {} EGP</li>",
                        escape(l["description"].as_str().unwrap_or("")),
                        l["quantity"],
                        escape(&l["total"].to_string())
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><link rel=\"icon\" href=\"data:,\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>PayTabs stand-in: pay {amount} EGP</title></head>\
<body style=\"font-family:system-ui,sans-serif;background:#eef1f6;margin:0\"><main data-paypage-lang=\"{page_lang}\" style=\"max-width:28rem;margin:3rem auto;background:#fff;padding:2rem;border-radius:12px\">\
<p style=\"color:#b45309;font-size:.85rem\">Local PayTabs stand-in: no real payment is made.</p>\
<h1 style=\"font-size:1.3rem\">{description}</h1>{lines}<p>Amount: <strong>{amount} EGP</strong></p>\
<form method=\"post\"><fieldset><legend>Pay with</legend>{methods}</fieldset>\
<p><label>Card number <input name=\"card\" value=\"4111 1111 1111 1111\" autocomplete=\"off\" style=\"width:100%\"></label></p>\
<p><label>Expiry <input name=\"expiry\" value=\"12/30\" size=\"6\"></label> <label>CVV <input name=\"cvv\" value=\"123\" size=\"4\"></label></p>\
<p><button name=\"action\" value=\"approve\" data-action=\"approve\">Approve</button> \
<button name=\"action\" value=\"decline\" data-action=\"decline\">Decline</button> \
<button name=\"action\" value=\"cancel\" data-action=\"cancel\">Cancel</button></p></form></main></body></html>",
        amount = format!("{:.2}", r["cart_amount"].as_f64().unwrap_or(0.0)),
        description = escape(r["cart_description"].as_str().unwrap_or("")),
        lines = if lines.is_empty() { String::new() } else { format!("<ul data-invoice-lines>{lines}</ul>") },
        page_lang = escape(r["paypage_lang"].as_str().unwrap_or("en")),
        methods = offered(r)
            .iter()
            .enumerate()
            .map(|(i, code)| {
                let name = METHODS.iter().find(|(c, _)| c == code).map_or(*code, |(_, n)| n);
                let checked = if i == 0 { " checked" } else { "" };
                format!("<label style=\"display:block\"><input type=\"radio\" name=\"method\" value=\"{code}\"{checked}> {name}</label>")
            })
            .collect::<String>()
    )
}

#[derive(Deserialize)]
struct Decision {
    action: String,
    /// The method chosen on the page (one of those offered; the first when absent).
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    card: Option<String>,
}

/// Records the customer's choice on the page once (the method must be one offered), and
/// answers the transaction as it now is; a page not found or a method not offered is refused.
fn record_decision(
    s: &StandIn,
    tran_ref: &str,
    letter: &'static str,
    d: &Decision,
) -> Result<Pending, (StatusCode, &'static str)> {
    let refused = |status, text| Err((status, text));
    let mut all = s.transactions.lock().unwrap();
    let Some(p) = all.get_mut(tran_ref) else {
        return refused(StatusCode::NOT_FOUND, "Payment page not found");
    };
    if p.result.is_none() {
        let offered = offered(&p.request);
        let chosen = d
            .method
            .as_deref()
            .unwrap_or(offered.first().copied().unwrap_or(""));
        if !offered.contains(&chosen) {
            return refused(
                StatusCode::BAD_REQUEST,
                "This payment method is not offered",
            );
        }
        p.result = Some(letter);
        p.paid_with = Some((chosen.to_string(), d.card.clone().unwrap_or_default()));
    }
    Ok(p.clone())
}

async fn decide(
    State(s): State<Arc<StandIn>>,
    Path(tran_ref): Path<String>,
    Form(d): Form<Decision>,
) -> Response {
    decide_on(&s, &tran_ref, &d)
}

/// The customer's choice on a transaction's page: recorded once, then PayTabs' signed callback
/// and the browser's signed return.
fn decide_on(s: &StandIn, tran_ref: &str, d: &Decision) -> Response {
    let letter = match d.action.as_str() {
        "approve" => "A",
        "decline" => "D",
        _ => "C",
    };
    let pending = match record_decision(s, tran_ref, letter, d) {
        Ok(p) => p,
        Err((status, text)) => return (status, Html(format!("<h1>{text}</h1>"))).into_response(),
    };
    let callback = pending.request["callback"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    send_callback(s, callback, &transaction_json(s, &pending));
    // The browser: an auto-posting form to the return URL, signed like PayTabs signs it.
    let r = &pending.request;
    let (code, message) = match pending.result {
        Some("A") => ("G12345", "Authorised"),
        Some("D") => ("D51", "Declined"),
        _ => ("C01", "Cancelled"),
    };
    let mut fields: Vec<(String, String)> = vec![
        ("acquirerMessage".into(), String::new()),
        ("acquirerRRN".into(), String::new()),
        (
            "cartId".into(),
            r["cart_id"].as_str().unwrap_or_default().into(),
        ),
        (
            "customerEmail".into(),
            r["customer_details"]["email"]
                .as_str()
                .unwrap_or_default()
                .into(),
        ),
        ("respCode".into(), code.into()),
        ("respMessage".into(), message.into()),
        ("respStatus".into(), pending.result.unwrap_or("C").into()),
        ("token".into(), String::new()),
        ("tranRef".into(), pending.tran_ref.clone()),
    ];
    let signature = sign_return(s.config.server_key.expose(), &fields);
    fields.push(("signature".into(), signature));
    let inputs: String = fields
        .iter()
        .map(|(k, v)| {
            format!(
                "<input type=\"hidden\" name=\"{}\" value=\"{}\">",
                escape(k),
                escape(v)
            )
        })
        .collect();
    Html(format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><link rel=\"icon\" href=\"data:,\"><title>Returning to the merchant</title></head><body>\
<form id=\"back\" method=\"post\" action=\"{}\">{inputs}<button type=\"submit\">Return to the merchant</button></form>\
<script>document.getElementById('back').submit();</script></body></html>",
        escape(r["return"].as_str().unwrap_or_default())
    ))
    .into_response()
}

/// `/payment/new/invoice`: a sale request with `invoice.line_items` whose totals make the cart
/// amount; PayTabs keeps it and answers its id and link.
async fn new_invoice(
    State(s): State<Arc<StandIn>>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if !authorised(&s, &headers) {
        return refuse(
            StatusCode::UNAUTHORIZED,
            1,
            "Authentication failed. Check authentication header.",
        );
    }
    if body["profile_id"].as_i64() != Some(s.config.profile_id) {
        return refuse(StatusCode::BAD_REQUEST, 2, "Profile ID is invalid");
    }
    if let Some((code, message)) = invalid_sale(&body) {
        return refuse(StatusCode::BAD_REQUEST, code, &message);
    }
    let lines = body["invoice"]["line_items"].as_array();
    let lines_total: Option<i64> = lines.and_then(|l| l.iter().map(|l| minor(&l["total"])).sum());
    if lines.is_none_or(Vec::is_empty) || lines_total != minor(&body["cart_amount"]) {
        return refuse(
            StatusCode::BAD_REQUEST,
            230,
            "Invoice line items do not add up to the cart amount",
        );
    }
    let mut invoices = s.invoices.lock().unwrap();
    if invoices
        .iter()
        .any(|i| i.request["cart_id"] == body["cart_id"])
    {
        return refuse(StatusCode::CONFLICT, 4, "Duplicate Request");
    }
    let id = 900_000 + invoices.len() as i64;
    let mut request = body;
    request["invoice_id"] = json!(id);
    invoices.push(KeptInvoice {
        request,
        status: "unpaid",
    });
    let link = format!(
        "{}/payment/invoice/{id}/link",
        s.config.base_url.trim_end_matches('/')
    );
    Json(json!({"invoice_id": id, "invoice_link": link, "trace": "STANDIN.0003"})).into_response()
}

/// The kept invoice `id`, if any.
fn kept(s: &StandIn, id: i64) -> Option<(Value, &'static str)> {
    let invoices = s.invoices.lock().unwrap();
    usize::try_from(id - 900_000)
        .ok()
        .and_then(|i| invoices.get(i))
        .map(|i| (i.request.clone(), i.status))
}

fn set_invoice_status(s: &StandIn, id: i64, status: &'static str) {
    let mut invoices = s.invoices.lock().unwrap();
    if let Some(kept) = usize::try_from(id - 900_000)
        .ok()
        .and_then(|i| invoices.get_mut(i))
    {
        kept.status = status;
    }
}

async fn invoice_page(State(s): State<Arc<StandIn>>, Path(id): Path<i64>) -> Response {
    match kept(&s, id) {
        None => not_found("Invoice not found"),
        Some((_, "cancelled")) => (
            StatusCode::GONE,
            Html("<h1>This invoice was cancelled</h1>".to_string()),
        )
            .into_response(),
        Some((_, "paid")) => Html("<h1>This invoice is paid</h1>".to_string()).into_response(),
        Some((request, _)) => Html(page_html(&request)).into_response(),
    }
}

/// A payment on an invoice's page: a transaction of its own (a declined try leaves the invoice
/// open for another), decided like the hosted page's; approved, the invoice is paid.
async fn invoice_decide(
    State(s): State<Arc<StandIn>>,
    Path(id): Path<i64>,
    Form(d): Form<Decision>,
) -> Response {
    let request = match kept(&s, id) {
        None => return not_found("Invoice not found"),
        Some((_, "cancelled")) => {
            return (
                StatusCode::GONE,
                Html("<h1>This invoice was cancelled</h1>".to_string()),
            )
                .into_response();
        }
        Some((_, "paid")) => {
            return (
                StatusCode::CONFLICT,
                Html("<h1>This invoice is paid</h1>".to_string()),
            )
                .into_response();
        }
        Some((request, _)) => request,
    };
    let tran_ref = new_tran_ref();
    s.transactions.lock().unwrap().insert(
        tran_ref.clone(),
        Pending {
            request,
            created: Instant::now(),
            result: None,
            tran_ref: tran_ref.clone(),
            paid_with: None,
        },
    );
    let answer = decide_on(&s, &tran_ref, &d);
    let approved = s
        .transactions
        .lock()
        .unwrap()
        .get(&tran_ref)
        .is_some_and(|p| p.result == Some("A"));
    if approved {
        set_invoice_status(&s, id, "paid");
    }
    answer
}

#[derive(Deserialize)]
struct CancelBody {
    profile_id: Option<i64>,
    invoice_id: Option<i64>,
}

/// `/payment/invoice/cancel`: an unpaid invoice stops taking payments.
async fn cancel_invoice(
    State(s): State<Arc<StandIn>>,
    headers: HeaderMap,
    Json(body): Json<CancelBody>,
) -> Response {
    if !authorised(&s, &headers) {
        return refuse(
            StatusCode::UNAUTHORIZED,
            1,
            "Authentication failed. Check authentication header.",
        );
    }
    if body.profile_id != Some(s.config.profile_id) {
        return refuse(StatusCode::BAD_REQUEST, 2, "Profile ID is invalid");
    }
    let id = body.invoice_id.unwrap_or(0);
    match kept(&s, id) {
        None => refuse(StatusCode::BAD_REQUEST, 404, "Invoice not found"),
        Some((_, "paid")) => refuse(
            StatusCode::BAD_REQUEST,
            231,
            "A paid invoice cannot be cancelled",
        ),
        Some(_) => {
            set_invoice_status(&s, id, "cancelled");
            Json(json!({"invoice_id": id, "invoice_status": "cancelled"})).into_response()
        }
    }
}

/// `/payment/invoice/{id}/status`.
async fn invoice_status(
    State(s): State<Arc<StandIn>>,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Response {
    if !authorised(&s, &headers) {
        return refuse(
            StatusCode::UNAUTHORIZED,
            1,
            "Authentication failed. Check authentication header.",
        );
    }
    match kept(&s, id) {
        None => refuse(StatusCode::BAD_REQUEST, 404, "Invoice not found"),
        Some((request, status)) => Json(json!({
            "invoice_id": id, "invoice_status": status, "cart_id": request["cart_id"],
            "cart_amount": request["cart_amount"], "cart_currency": request["cart_currency"]
        }))
        .into_response(),
    }
}
