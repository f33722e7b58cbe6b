//! Paymob (Egypt): create a payment intention and its Unified Checkout link, refund and query a
//! transaction, and verify the HMAC of the processed callback and of the browser redirect.
//! It knows Paymob's protocol and nothing of the app.
//!
//! # The protocol, as Paymob documents it
//!
//! Sources (read 2026): developers.paymob.com
//! - "Create Intention": <https://developers.paymob.com/paymob-docs/developers/intention-apis/create-intention>
//! - "Unified Checkout (Redirection)": <https://developers.paymob.com/paymob-docs/developers/checkout-experiences/unified-checkout-redirection>
//! - "HMAC Transaction Callback": <https://developers.paymob.com/paymob-docs/developers/webhook-callbacks-and-hmac/hmac/hmac-transaction-callback>
//! - "Transaction Callbacks" (processed and response callbacks, their samples):
//!   <https://docs.paymob.com/docs/transaction-webhooks>
//! - "Refund Transaction" and "Retrieve A Transaction" (Accept API):
//!   <https://docs.paymob.com/docs/refund-transaction>, <https://docs.paymob.com/docs/retrieve-a-transaction>
//! - Paymob's own SDK and plugin, which fix the field order in code: `PaymobAccept/paymob-python`
//!   `paymob/web_hooks.py` (`hmac_calc`) and Paymob's WooCommerce plugin (`paymob-for-woocommerce`)
//!   `includes/helper/paymob.php` (`verifyAcceptHmac`, `createIntention`).
//!
//! **Create an intention**: `POST {base}/v1/intention/` (base `https://accept.paymob.com` in
//! Egypt), header `Authorization: Token <secret key>`, JSON body `amount` (integer, piastres),
//! `currency` (`EGP`, must match the integrations'), `payment_methods` (integration ids, or their
//! names), `items` (`name`, `amount`, `description`, `quantity`; the items' amounts must add up to
//! `amount`), `billing_data` (`first_name`, `last_name`, `email`, `phone_number` required; the
//! address fields take `NA` when unknown), `special_reference` (ours, unique; it comes back in
//! the callback as `obj.order.merchant_order_id`), `notification_url` (the processed callback)
//! and `redirection_url` (the browser's return); Paymob's page says the intention's
//! `notification_url` is honoured for card integrations only and `redirection_url` for card and
//! wallet ones, so the wallet and kiosk integrations' "Transaction processed callback" must be
//! set to the same endpoint in the dashboard. Paymob answers 201 with `id` (`pi_…`),
//! `client_secret` (`egy_csk_…`) and `intention_order_id`; a wrong integration id is a 404
//! `{"detail": "Integration ID/Name does not exist in our system …"}`, a missing field a 400 of
//! Django REST framework's shape (`{"billing_data": {"phone_number": ["This field is required."]}}`);
//! a bad key is refused with a 4xx (the stand-in answers DRF's 401 `{"detail": "Invalid token."}`).
//!
//! **Hosted checkout**: the browser goes to
//! `{base}/unifiedcheckout/?publicKey=<public key>&clientSecret=<client secret>`.
//!
//! **Processed callback** (server to server): `POST <notification_url>?hmac=<hex>` with the JSON
//! `{"type": "TRANSACTION", "obj": {…the transaction…}, "issuer_bank": …}`. `obj` has `id`,
//! `pending`, `success`, `amount_cents`, `currency`, `created_at`, `is_refund`, `is_void`,
//! `is_refunded`, `is_voided`, `error_occured` (sic), `has_parent_transaction`, `integration_id`,
//! `owner`, `order` (an object: `id`, `merchant_order_id`), `source_data` (`type`, `sub_type`,
//! `pan`: `card`/`MasterCard`/`2346`, `wallet`/`wallet`/the wallet number), `data.message`.
//! `success=false` with `pending=true` is pending (a kiosk bill not yet paid); with
//! `pending=false` it is declined. A refund is a transaction of its own (`is_refund: true`,
//! `has_parent_transaction: true`) and is notified the same way.
//!
//! **Response callback** (the browser): `GET <redirection_url>?id=…&pending=…&amount_cents=…&
//! success=…&order=<order id>&source_data.type=…&source_data.pan=…&source_data.sub_type=…&
//! data.message=…&…&hmac=<hex>`: the same transaction flattened into query fields. (The HMAC
//! page names the order field `order_id`; real redirects carry `order`; both are read.)
//!
//! **HMAC** (both callbacks): HMAC-SHA512 keyed with the HMAC secret (dashboard), lowercase hex,
//! over the concatenated values (no separator) of exactly these fields, in this order
//! ([`HMAC_FIELDS`]): `amount_cents`, `created_at`, `currency`, `error_occured`,
//! `has_parent_transaction`, `id`, `integration_id`, `is_3d_secure`, `is_auth`, `is_capture`,
//! `is_refunded`, `is_standalone_payment`, `is_voided`, `order.id` (the redirect's `order`),
//! `owner`, `pending`, `source_data.pan`, `source_data.sub_type`, `source_data.type`, `success`.
//! Booleans are written `true`/`false`. The published sample (`amount_cents` 100000 …,
//! concatenated `1000002024-06-13T11:33:44.592345EGPfalsefalse192036465…MasterCardcardtrue`,
//! HMAC `fa8ac0b7…e79930`) is the test vector below.
//!
//! **Refund**: `POST {base}/api/acceptance/void_refund/refund` with `transaction_id` and
//! `amount_cents`; the answer is the refund's transaction (success or not), and a refusal is a
//! 4xx with a message. The Accept docs show the legacy `auth_token` (from the API key) in the
//! body; this client sends `Authorization: Token <secret key>` as for the intention, as public
//! secret-key integrations do. To be confirmed against a test account before going live.
//!
//! **Retrieve a transaction**: `GET {base}/api/acceptance/transactions/{id}`. The Accept docs
//! show a Bearer auth token obtained with the API key (`/api/auth/tokens`); this client sends the
//! secret key as for the other calls. Unverified against the live service: see [`Paymob::query`].
//!
//! What is not documented and is chosen here: a `null` among the signed fields is written as
//! the empty string (as Paymob's WooCommerce plugin does); kiosk transactions carry
//! `source_data.type` `aggregator` and the bill reference in `data.bill_reference`.

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::Context;
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha512;

use crate::secret::Secret;

type HmacSha512 = Hmac<Sha512>;

/// The fields Paymob's transaction HMAC covers, in the order it concatenates them. The
/// processed callback reads them from `obj` (dots are nested objects); the redirect has them
/// as query fields, with `order` for `order.id`.
pub const HMAC_FIELDS: [&str; 20] = [
    "amount_cents",
    "created_at",
    "currency",
    "error_occured",
    "has_parent_transaction",
    "id",
    "integration_id",
    "is_3d_secure",
    "is_auth",
    "is_capture",
    "is_refunded",
    "is_standalone_payment",
    "is_voided",
    "order.id",
    "owner",
    "pending",
    "source_data.pan",
    "source_data.sub_type",
    "source_data.type",
    "success",
];

/// Paymob's account settings. `Debug` shows the keys as `Secret(****)`; the public key is
/// public (it goes to the browser).
#[derive(Debug, Clone)]
pub struct PaymobConfig {
    /// `https://accept.paymob.com` (Egypt), or the stand-in's `{API}/paymob-standin`.
    pub base_url: String,
    /// `egy_sk_…`: the `Authorization: Token` of every server call.
    pub secret_key: Secret,
    /// `egy_pk_…`: opens the Unified Checkout.
    pub public_key: String,
    /// Keys the callbacks' HMAC.
    pub hmac_secret: Secret,
    /// Our payment method ("wallet", "kiosk", "card", "valu") to its integration id.
    pub integration_ids: BTreeMap<String, i64>,
}

#[derive(Clone)]
pub struct Paymob {
    pub config: PaymobConfig,
    http: reqwest::Client,
}

/// What we ask Paymob for. The amount is the server's price, never the browser's.
pub struct IntentionRequest<'a> {
    /// Our order (cart) id, sent as `special_reference`.
    pub order_id: &'a str,
    /// Piastres.
    pub amount_cents: i64,
    pub currency: &'a str,
    /// Keys of [`PaymobConfig::integration_ids`]: the methods the customer may use.
    pub methods: &'a [&'a str],
    pub description: &'a str,
    pub customer_name: &'a str,
    pub customer_email: &'a str,
    pub customer_phone: &'a str,
    pub notification_url: &'a str,
    pub redirection_url: &'a str,
}

/// A created intention and where to send the browser.
pub struct Intention {
    /// `pi_…`.
    pub id: String,
    /// Opens the checkout for this intention only; it goes to the browser, never to a log.
    pub client_secret: String,
    /// Paymob's order: the transaction's `order.id`.
    pub order_id: Option<i64>,
    pub checkout_url: String,
}

impl std::fmt::Debug for Intention {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Intention")
            .field("id", &self.id)
            .field("order_id", &self.order_id)
            .field("client_secret", &"****")
            .finish()
    }
}

/// Why creating an intention failed.
#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    /// No answer, or one we cannot read: nothing certain happened.
    #[error("Failed to initiate payment. Please try again.")]
    Failed(#[source] anyhow::Error),
    /// Paymob said no (HTTP 4xx) with its reason.
    #[error("Paymob refused the payment (HTTP {status}): {message}")]
    Refused { status: u16, message: String },
    /// A method we have no integration id for: refused before asking Paymob.
    #[error("No Paymob integration is configured for `{0}`")]
    UnknownMethod(String),
}

/// Paymob's answer to a refund request (the same meaning as PayTabs' `RefundAnswer`).
#[derive(Debug)]
pub enum RefundAnswer {
    /// A refund transaction: `success` true or false.
    Answered(Box<PaymobTransaction>),
    /// Refused outright (HTTP 4xx) with Paymob's message: no transaction was made.
    Refused { message: String },
}

/// A transaction as the callbacks, the refund and the retrieve API describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymobTransaction {
    pub id: i64,
    pub success: bool,
    pub pending: bool,
    pub amount_cents: i64,
    pub currency: String,
    /// Paymob's order id.
    pub order_id: i64,
    /// Our `special_reference` (the callback's `order.merchant_order_id`).
    pub merchant_order_id: Option<String>,
    pub integration_id: Option<i64>,
    /// `card`, `wallet`, `aggregator` (kiosk)…
    pub source_type: String,
    /// `MasterCard`, `Visa`, `wallet`…
    pub source_sub_type: String,
    pub created_at: String,
    pub error_occured: bool,
    pub is_refund: bool,
    pub is_void: bool,
    pub is_refunded: bool,
    pub is_voided: bool,
    pub has_parent_transaction: bool,
    /// `data.message`: "Approved", the decline's reason…
    pub message: Option<String>,
}

impl PaymobTransaction {
    /// Paid: neither pending nor declined.
    pub fn is_approved(&self) -> bool {
        self.success && !self.pending
    }

    /// Declined: Paymob's final "no".
    pub fn is_declined(&self) -> bool {
        !self.success && !self.pending
    }

    /// Reads a transaction object (`obj` of the callback, or a bare answer). Paymob writes
    /// booleans and numbers sometimes as strings ("false", "100"), so both are read.
    pub fn from_json(obj: &Value) -> Option<PaymobTransaction> {
        let order = &obj["order"];
        let order_id = if order.is_object() {
            int_of(&order["id"])?
        } else {
            int_of(order)?
        };
        Some(PaymobTransaction {
            id: int_of(&obj["id"])?,
            success: bool_of(&obj["success"])?,
            pending: bool_of(&obj["pending"])?,
            amount_cents: int_of(&obj["amount_cents"])?,
            currency: text_of(&obj["currency"])?,
            order_id,
            merchant_order_id: text_of(&order["merchant_order_id"]).filter(|s| !s.is_empty()),
            integration_id: int_of(&obj["integration_id"]),
            source_type: text_of(&obj["source_data"]["type"]).unwrap_or_default(),
            source_sub_type: text_of(&obj["source_data"]["sub_type"]).unwrap_or_default(),
            created_at: text_of(&obj["created_at"]).unwrap_or_default(),
            error_occured: bool_of(&obj["error_occured"]).unwrap_or(false),
            is_refund: bool_of(&obj["is_refund"]).unwrap_or(false),
            is_void: bool_of(&obj["is_void"]).unwrap_or(false),
            is_refunded: bool_of(&obj["is_refunded"]).unwrap_or(false),
            is_voided: bool_of(&obj["is_voided"]).unwrap_or(false),
            has_parent_transaction: bool_of(&obj["has_parent_transaction"]).unwrap_or(false),
            message: text_of(&obj["data"]["message"]),
        })
    }
}

fn int_of(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn bool_of(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s == "true" => Some(true),
        Value::String(s) if s == "false" => Some(false),
        _ => None,
    }
}

fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A signed field's value as Paymob writes it into the HMAC string.
fn hmac_value(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        // Undocumented; Paymob's plugin concatenates PHP's null, the empty string.
        _ => String::new(),
    }
}

/// "Mona Ahmed Saleh" → ("Mona", "Ahmed Saleh"); Paymob requires both, so a single name gets
/// "NA" as its last name.
pub fn split_name(name: &str) -> (String, String) {
    let mut words = name.split_whitespace();
    let first = words.next().unwrap_or("NA").to_string();
    let rest = words.collect::<Vec<_>>().join(" ");
    (first, if rest.is_empty() { "NA".into() } else { rest })
}

/// The intention's JSON body: one item for the whole amount (Paymob requires the items to add
/// up to `amount`), the chosen methods' integration ids.
pub fn intention_body(
    config: &PaymobConfig,
    r: &IntentionRequest<'_>,
) -> Result<Value, CreateError> {
    let mut methods = Vec::with_capacity(r.methods.len());
    for method in r.methods {
        match config.integration_ids.get(*method) {
            Some(id) => methods.push(*id),
            None => return Err(CreateError::UnknownMethod((*method).to_string())),
        }
    }
    let (first_name, last_name) = split_name(r.customer_name);
    // Paymob caps an item's name; the description keeps the whole text.
    let item_name: String = r.description.chars().take(50).collect();
    Ok(json!({
        "amount": r.amount_cents,
        "currency": r.currency,
        "payment_methods": methods,
        "items": [{"name": item_name, "amount": r.amount_cents, "description": r.description, "quantity": 1}],
        "billing_data": {
            "first_name": first_name, "last_name": last_name,
            "email": r.customer_email, "phone_number": r.customer_phone,
            "apartment": "NA", "floor": "NA", "street": "NA", "building": "NA",
            "city": "NA", "state": "NA", "postal_code": "NA", "country": "EG",
        },
        "customer": {"first_name": first_name, "last_name": last_name, "email": r.customer_email},
        "special_reference": r.order_id,
        "notification_url": r.notification_url,
        "redirection_url": r.redirection_url,
    }))
}

/// `{base}/unifiedcheckout/?publicKey=…&clientSecret=…`, both encoded.
pub fn checkout_url(base_url: &str, public_key: &str, client_secret: &str) -> String {
    let base = format!("{}/unifiedcheckout/", base_url.trim_end_matches('/'));
    match reqwest::Url::parse(&base) {
        Ok(mut url) => {
            url.query_pairs_mut()
                .append_pair("publicKey", public_key)
                .append_pair("clientSecret", client_secret);
            url.to_string()
        }
        Err(_) => format!("{base}?publicKey={public_key}&clientSecret={client_secret}"),
    }
}

/// Paymob's reason in a 4xx: `message`, `detail`, or DRF's `{"field": ["…"]}` as text.
fn error_message(answer: &Value) -> String {
    for key in ["message", "detail"] {
        if let Some(m) = answer[key].as_str().filter(|m| !m.trim().is_empty()) {
            return m.to_string();
        }
    }
    match answer {
        Value::Null => "no reason given".into(),
        other => other.to_string(),
    }
}

impl Paymob {
    pub fn new(config: PaymobConfig) -> Paymob {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(20))
            .build()
            .expect("a TLS backend is available");
        Paymob { config, http }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.config.base_url.trim_end_matches('/'))
    }

    /// Sends a request with the secret key; answers the status and the JSON (Null when the
    /// body is not JSON, which a 4xx may be).
    async fn send(
        &self,
        request: reqwest::RequestBuilder,
        path: &str,
    ) -> anyhow::Result<(reqwest::StatusCode, Value)> {
        let authorization = format!("Token {}", self.config.secret_key.expose());
        let response = request
            .header("authorization", authorization)
            .send()
            .await
            .map_err(|e| anyhow::anyhow!("Paymob {path}: {}", e.without_url()))?;
        let status = response.status();
        let bytes = response
            .bytes()
            .await
            .with_context(|| format!("Paymob {path} answered {status} and then broke off"))?;
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Ok((status, body))
    }

    /// `POST /v1/intention/`: the intention and the Unified Checkout link for the browser.
    pub async fn create_intention(
        &self,
        r: &IntentionRequest<'_>,
    ) -> Result<Intention, CreateError> {
        let body = intention_body(&self.config, r)?;
        let path = "/v1/intention/";
        let (status, answer) = self
            .send(self.http.post(self.url(path)).json(&body), path)
            .await
            .map_err(CreateError::Failed)?;
        if status.is_client_error() {
            return Err(CreateError::Refused {
                status: status.as_u16(),
                message: error_message(&answer),
            });
        }
        if !status.is_success() {
            return Err(CreateError::Failed(anyhow::anyhow!(
                "Paymob answered the intention with HTTP {status}"
            )));
        }
        let (Some(id), Some(client_secret)) = (
            answer["id"].as_str().filter(|s| !s.is_empty()),
            answer["client_secret"].as_str().filter(|s| !s.is_empty()),
        ) else {
            return Err(CreateError::Failed(anyhow::anyhow!(
                "Paymob's intention answer has no id or client_secret"
            )));
        };
        Ok(Intention {
            id: id.to_string(),
            checkout_url: checkout_url(
                &self.config.base_url,
                &self.config.public_key,
                client_secret,
            ),
            client_secret: client_secret.to_string(),
            order_id: int_of(&answer["intention_order_id"]),
        })
    }

    /// `POST /api/acceptance/void_refund/refund` of `amount_cents` of a paid transaction.
    pub async fn refund(
        &self,
        transaction_id: i64,
        amount_cents: i64,
    ) -> anyhow::Result<RefundAnswer> {
        let path = "/api/acceptance/void_refund/refund";
        let body = json!({"transaction_id": transaction_id, "amount_cents": amount_cents});
        let (status, answer) = self
            .send(self.http.post(self.url(path)).json(&body), path)
            .await?;
        // A 4xx is Paymob's final word on this request: nothing was refunded. A 5xx says
        // nothing certain, so it is an error and the refund stays pending.
        if status.is_client_error() {
            return Ok(RefundAnswer::Refused {
                message: error_message(&answer),
            });
        }
        anyhow::ensure!(
            status.is_success(),
            "Paymob answered the refund with HTTP {status}"
        );
        let tx = transaction_of_answer(&answer)
            .context("Paymob's refund answer has an unexpected shape")?;
        Ok(RefundAnswer::Answered(Box::new(tx)))
    }

    /// `GET /api/acceptance/transactions/{id}`, for reconciliation. The Accept docs authorise
    /// this call with a Bearer token from `/api/auth/tokens` (the API key), which this client
    /// does not hold; it sends `Token <secret key>`, to be confirmed against a live account.
    pub async fn query(&self, transaction_id: i64) -> anyhow::Result<(PaymobTransaction, Value)> {
        let path = format!("/api/acceptance/transactions/{transaction_id}");
        let (status, answer) = self.send(self.http.get(self.url(&path)), &path).await?;
        anyhow::ensure!(
            status.is_success(),
            "Paymob answered the transaction query with HTTP {status}: {}",
            error_message(&answer)
        );
        let tx = transaction_of_answer(&answer)
            .context("Paymob's transaction answer has an unexpected shape")?;
        Ok((tx, answer))
    }
}

impl Paymob {
    /// `POST /v1/intention/` with an empty body: Paymob authenticates the secret key before it
    /// reads the body, so a wrong key answers 401 and a right one a 400 that names the missing
    /// fields, and no intention is made (`api doctor`).
    pub async fn check_key(&self) -> anyhow::Result<super::Answer> {
        let response = self
            .http
            .post(self.url("/v1/intention/"))
            .header(
                "authorization",
                format!("Token {}", self.config.secret_key.expose()),
            )
            .timeout(Duration::from_secs(10))
            .json(&json!({}))
            .send()
            .await
            .map_err(|e| anyhow::anyhow!("{}", e.without_url()))?;
        Ok(super::Answer::read(response).await)
    }
}

/// A bare transaction, or one wrapped as `{"type": "TRANSACTION", "obj": …}` (older answers).
fn transaction_of_answer(answer: &Value) -> Option<PaymobTransaction> {
    if answer["obj"].is_object() {
        PaymobTransaction::from_json(&answer["obj"])
    } else {
        PaymobTransaction::from_json(answer)
    }
}

/// The string the processed callback's HMAC signs: [`HMAC_FIELDS`] read from `obj`.
pub fn callback_hmac_string(obj: &Value) -> String {
    HMAC_FIELDS
        .iter()
        .map(|field| {
            let value = field
                .split('.')
                .fold(obj, |v, key| v.get(key).unwrap_or(&Value::Null));
            hmac_value(value)
        })
        .collect()
}

fn mac(secret: &str, msg: &[u8]) -> HmacSha512 {
    let mut mac = HmacSha512::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(msg);
    mac
}

/// Constant-time check of a hex HMAC.
fn verify(secret: &str, msg: &[u8], hmac_hex: &str) -> bool {
    let Ok(expected) = hex::decode(hmac_hex.trim()) else {
        return false;
    };
    mac(secret, msg).verify_slice(&expected).is_ok()
}

/// Lowercase hex HMAC-SHA512 of the processed callback's `obj`.
pub fn hmac_of_callback(secret: &str, obj: &Value) -> String {
    hex::encode(
        mac(secret, callback_hmac_string(obj).as_bytes())
            .finalize()
            .into_bytes(),
    )
}

/// The `hmac` query value Paymob sends with this `obj` (used by the stand-in).
pub fn sign_callback(secret: &str, obj: &Value) -> String {
    hmac_of_callback(secret, obj)
}

/// The processed callback: parses the raw body itself (so nothing upstream reshaped it),
/// checks the `?hmac=` in constant time and answers the transaction only when it verifies.
/// A replay verifies too and carries the same `id`: the caller deduplicates by it.
pub fn verify_callback(
    secret: &str,
    raw_body: &[u8],
    hmac_query: &str,
) -> Option<PaymobTransaction> {
    let body: Value = serde_json::from_slice(raw_body).ok()?;
    // Paymob also posts card tokens (`"type": "TOKEN"`) here, signed over other fields.
    if body["type"].as_str() != Some("TRANSACTION") || !body["obj"].is_object() {
        return None;
    }
    let obj = &body["obj"];
    if !verify(secret, callback_hmac_string(obj).as_bytes(), hmac_query) {
        return None;
    }
    PaymobTransaction::from_json(obj)
}

/// The redirect's field for a signed name: the redirect writes `order.id` as `order`.
fn redirect_key(field: &str) -> &str {
    if field == "order.id" { "order" } else { field }
}

/// The string the redirect's HMAC signs, or `None` when a signed field is repeated (two
/// `success=` would let the reader and the verifier see different values).
pub fn redirect_hmac_string(fields: &[(String, String)]) -> Option<String> {
    let mut out = String::new();
    for field in HMAC_FIELDS {
        let key = redirect_key(field);
        // Redirects seen in the wild say `order=`; Paymob's HMAC page calls it `order_id`.
        let key = if key == "order" && !fields.iter().any(|(k, _)| k == "order") {
            "order_id"
        } else {
            key
        };
        let mut values = fields.iter().filter(|(k, _)| k == key);
        let value = values.next().map(|(_, v)| v.as_str()).unwrap_or("");
        if values.next().is_some() {
            return None;
        }
        out.push_str(value);
    }
    Some(out)
}

/// The browser redirect's fields (decoded query pairs) verify against their `hmac`.
pub fn verify_redirect(secret: &str, fields: &[(String, String)]) -> bool {
    let mut hmacs = fields.iter().filter(|(k, _)| k == "hmac");
    let (Some((_, hmac)), None) = (hmacs.next(), hmacs.next()) else {
        return false;
    };
    match redirect_hmac_string(fields) {
        Some(s) => verify(secret, s.as_bytes(), hmac),
        None => false,
    }
}

/// The `hmac` Paymob appends to these redirect fields (used by the stand-in).
pub fn sign_redirect(secret: &str, fields: &[(String, String)]) -> String {
    let s = redirect_hmac_string(fields).unwrap_or_default();
    hex::encode(mac(secret, s.as_bytes()).finalize().into_bytes())
}

/// The transaction a (verified) redirect describes.
pub fn redirect_transaction(fields: &[(String, String)]) -> Option<PaymobTransaction> {
    let get = |k: &str| {
        fields
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    };
    let obj = json!({
        "id": get("id"), "success": get("success"), "pending": get("pending"),
        "amount_cents": get("amount_cents"), "currency": get("currency"),
        "order": {"id": get("order"), "merchant_order_id": get("merchant_order_id")},
        "integration_id": get("integration_id"), "created_at": get("created_at"),
        "source_data": {"type": get("source_data.type"), "sub_type": get("source_data.sub_type")},
        "error_occured": get("error_occured"), "is_refund": get("is_refund"), "is_void": get("is_void"),
        "is_refunded": get("is_refunded"), "is_voided": get("is_voided"),
        "has_parent_transaction": get("has_parent_transaction"),
        "data": {"message": get("data.message")},
    });
    PaymobTransaction::from_json(&obj)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The processed callback of Paymob's "HMAC Transaction Callback" page, trimmed to what
    /// matters (the HMAC ignores the rest).
    fn published_obj() -> Value {
        json!({
            "id": 192036465, "pending": false, "amount_cents": 100000, "success": true,
            "is_auth": false, "is_capture": false, "is_standalone_payment": true,
            "is_voided": false, "is_refunded": false, "is_3d_secure": true,
            "integration_id": 4097558, "profile_id": 164295, "has_parent_transaction": false,
            "order": {"id": 217503754, "merchant_order_id": null},
            "created_at": "2024-06-13T11:33:44.592345", "currency": "EGP",
            "source_data": {"pan": "2346", "type": "card", "tenure": null, "sub_type": "MasterCard"},
            "is_void": false, "is_refund": false, "error_occured": false, "owner": 302852,
            "data": {"message": "Approved"}
        })
    }

    /// The sample's key as public SDK tests carry it (Paymob's page shows it under "Used HMAC
    /// Secret"); with it the published HMAC below is reproduced exactly.
    const PUBLISHED_SECRET: &str = "04DC1A9490B8CC2094C011FC055ADCDB";
    const PUBLISHED_HMAC: &str = "fa8ac0b7f3852e60c50e7fdd4ea5ef0bda96030c19dea1d55df8c76d6c08ab1877774662cbb04981dc84839ad4da560bcc8cb53b8973548657f7e8f8d2e79930";

    fn callback_body(obj: &Value) -> Vec<u8> {
        serde_json::to_vec(&json!({"type": "TRANSACTION", "obj": obj, "issuer_bank": null}))
            .unwrap()
    }

    #[test]
    fn the_published_callback_vector_verifies() {
        let obj = published_obj();
        assert_eq!(
            callback_hmac_string(&obj),
            "1000002024-06-13T11:33:44.592345EGPfalsefalse1920364654097558truefalsefalsefalsetruefalse217503754302852false2346MasterCardcardtrue"
        );
        assert_eq!(hmac_of_callback(PUBLISHED_SECRET, &obj), PUBLISHED_HMAC);
        let tx = verify_callback(PUBLISHED_SECRET, &callback_body(&obj), PUBLISHED_HMAC)
            .expect("the published callback verifies");
        assert_eq!(
            (tx.id, tx.order_id, tx.amount_cents),
            (192036465, 217503754, 100000)
        );
        assert!(tx.is_approved());
        assert_eq!(
            (tx.source_type.as_str(), tx.source_sub_type.as_str()),
            ("card", "MasterCard")
        );
    }

    #[test]
    fn a_tampered_field_a_wrong_key_or_a_non_hex_hmac_fails() {
        let mut tampered = published_obj();
        tampered["amount_cents"] = json!(100);
        assert!(
            verify_callback(PUBLISHED_SECRET, &callback_body(&tampered), PUBLISHED_HMAC).is_none()
        );
        let mut declined_as_paid = published_obj();
        declined_as_paid["success"] = json!(false);
        assert!(
            verify_callback(
                PUBLISHED_SECRET,
                &callback_body(&declined_as_paid),
                PUBLISHED_HMAC
            )
            .is_none()
        );
        let body = callback_body(&published_obj());
        assert!(verify_callback("another-secret", &body, PUBLISHED_HMAC).is_none());
        assert!(verify_callback(PUBLISHED_SECRET, &body, "not-hex").is_none());
        assert!(verify_callback(PUBLISHED_SECRET, &body, "").is_none());
        assert!(
            verify_callback(PUBLISHED_SECRET, &body[..body.len() - 1], PUBLISHED_HMAC).is_none()
        );
    }

    #[test]
    fn a_token_callback_is_not_a_transaction() {
        let body = serde_json::to_vec(&json!({"type": "TOKEN", "obj": published_obj()})).unwrap();
        assert!(verify_callback(PUBLISHED_SECRET, &body, PUBLISHED_HMAC).is_none());
    }

    fn redirect_fields() -> Vec<(String, String)> {
        [
            ("id", "201972898"),
            ("pending", "false"),
            ("amount_cents", "200000"),
            ("success", "true"),
            ("is_auth", "false"),
            ("is_capture", "false"),
            ("is_standalone_payment", "true"),
            ("is_voided", "false"),
            ("is_refunded", "false"),
            ("is_3d_secure", "false"),
            ("integration_id", "1996388"),
            ("profile_id", "168651"),
            ("has_parent_transaction", "false"),
            ("order", "228276342"),
            ("created_at", "2024-07-21T11:25:08.633747"),
            ("currency", "EGP"),
            ("is_void", "false"),
            ("is_refund", "false"),
            ("error_occured", "false"),
            ("owner", "310964"),
            (
                "data.message",
                "Transaction has been completed successfully.",
            ),
            ("source_data.type", "wallet"),
            ("source_data.pan", "01010101010"),
            ("source_data.sub_type", "wallet"),
            ("merchant_order_id", "cart-7"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
    }

    #[test]
    fn the_redirect_signs_the_same_fields_in_the_same_order() {
        let mut fields = redirect_fields();
        // The same transaction as a processed callback gives the same string.
        assert_eq!(
            redirect_hmac_string(&fields).unwrap(),
            "2000002024-07-21T11:25:08.633747EGPfalsefalse2019728981996388falsefalsefalsefalsetruefalse228276342310964false01010101010walletwallettrue"
        );
        let hmac = sign_redirect("s3cret", &fields);
        fields.push(("hmac".into(), hmac.clone()));
        assert!(verify_redirect("s3cret", &fields));
        assert!(!verify_redirect("other", &fields));
        let tx = redirect_transaction(&fields).unwrap();
        assert_eq!(
            (tx.id, tx.amount_cents, tx.merchant_order_id.as_deref()),
            (201972898, 200000, Some("cart-7"))
        );

        let mut tampered = fields.clone();
        tampered.iter_mut().find(|(k, _)| k == "success").unwrap().1 = "false".into();
        assert!(!verify_redirect("s3cret", &tampered));
        let mut repeated = fields.clone();
        repeated.push(("success".into(), "true".into()));
        assert!(
            !verify_redirect("s3cret", &repeated),
            "a repeated signed field is refused"
        );
        let mut two_hmacs = fields.clone();
        two_hmacs.push(("hmac".into(), hmac));
        assert!(!verify_redirect("s3cret", &two_hmacs));
        let unsigned: Vec<_> = fields
            .iter()
            .filter(|(k, _)| k != "hmac")
            .cloned()
            .collect();
        assert!(!verify_redirect("s3cret", &unsigned));
        let mut not_hex = unsigned.clone();
        not_hex.push(("hmac".into(), "zz".into()));
        assert!(!verify_redirect("s3cret", &not_hex));
    }

    #[test]
    fn a_redirect_naming_the_order_order_id_signs_the_same_string() {
        let fields = redirect_fields();
        let renamed: Vec<_> = fields
            .iter()
            .map(|(k, v)| {
                (
                    if k == "order" {
                        "order_id".into()
                    } else {
                        k.clone()
                    },
                    v.clone(),
                )
            })
            .collect();
        assert_eq!(
            redirect_hmac_string(&renamed),
            redirect_hmac_string(&fields)
        );
    }

    fn config() -> PaymobConfig {
        PaymobConfig {
            base_url: "https://accept.paymob.com/".into(),
            secret_key: Secret::new("egy_sk_test_x"),
            public_key: "egy_pk_test_y".into(),
            hmac_secret: Secret::new("h"),
            integration_ids: [("wallet".to_string(), 11), ("kiosk".to_string(), 22)].into(),
        }
    }

    fn request<'a>(methods: &'a [&'a str]) -> IntentionRequest<'a> {
        IntentionRequest {
            order_id: "cart-42",
            amount_cents: 2_025_050,
            currency: "EGP",
            methods,
            description: "Coaching package of 6 sessions",
            customer_name: "Mona Ahmed Saleh",
            customer_email: "mona@example.com",
            customer_phone: "+201001234567",
            notification_url: "https://example.com/api/payments/paymob/callback",
            redirection_url: "https://example.com/api/payments/paymob/return",
        }
    }

    #[test]
    fn amounts_stay_integer_piastres_both_ways() {
        let body = intention_body(&config(), &request(&["wallet", "kiosk"])).unwrap();
        assert_eq!(body["amount"], json!(2_025_050));
        assert_eq!(body["items"][0]["amount"], json!(2_025_050));
        assert_eq!(body["payment_methods"], json!([11, 22]));
        assert_eq!(body["special_reference"], "cart-42");
        assert_eq!(body["billing_data"]["first_name"], "Mona");
        assert_eq!(body["billing_data"]["last_name"], "Ahmed Saleh");
        let mut obj = published_obj();
        obj["amount_cents"] = body["amount"].clone();
        assert_eq!(
            PaymobTransaction::from_json(&obj).unwrap().amount_cents,
            2_025_050
        );
        obj["amount_cents"] = json!("2025050");
        assert_eq!(
            PaymobTransaction::from_json(&obj).unwrap().amount_cents,
            2_025_050
        );
    }

    #[test]
    fn an_unknown_method_is_refused_before_asking_paymob() {
        let err = intention_body(&config(), &request(&["wallet", "valu"])).unwrap_err();
        assert!(matches!(err, CreateError::UnknownMethod(m) if m == "valu"));
    }

    #[test]
    fn names_split_with_paymobs_na_filler() {
        assert_eq!(split_name("Mona"), ("Mona".into(), "NA".into()));
        assert_eq!(split_name("  "), ("NA".into(), "NA".into()));
    }

    #[test]
    fn the_checkout_url_carries_both_keys_encoded() {
        assert_eq!(
            checkout_url(
                "https://accept.paymob.com/",
                "egy_pk_test_y",
                "egy_csk_test+z"
            ),
            "https://accept.paymob.com/unifiedcheckout/?publicKey=egy_pk_test_y&clientSecret=egy_csk_test%2Bz"
        );
    }

    #[test]
    fn debug_hides_the_keys() {
        let shown = format!("{:?}", config());
        assert!(!shown.contains("egy_sk_test_x"), "{shown}");
        assert!(shown.contains("Secret(****)"));
    }

    #[test]
    fn string_booleans_of_older_answers_are_read() {
        let mut obj = published_obj();
        obj["success"] = json!("false");
        obj["pending"] = json!("true");
        let tx = PaymobTransaction::from_json(&obj).unwrap();
        assert!(!tx.is_approved() && !tx.is_declined());
    }
}
