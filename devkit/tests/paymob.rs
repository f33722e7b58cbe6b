//! The production Paymob client (`api::providers::paymob`) against devkit's Paymob stand-in,
//! over real HTTP: intention, hosted checkout, wallet and kiosk payments, the signed callback
//! and redirect, refunds. A browser is a reqwest client that does not follow redirects, so
//! every step is seen.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use api::providers::paymob::{
    CreateError, IntentionRequest, Paymob, PaymobConfig, PaymobTransaction, RefundAnswer,
    redirect_transaction, verify_callback, verify_redirect,
};
use api::secret::Secret;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::routing::post;
use devkit::paymob::{StandIn, router};
use tokio::sync::mpsc;

const HMAC_SECRET: &str = "test-hmac-secret";

async fn serve(app: Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

/// What the merchant's callback endpoint received: the `hmac` query value and the raw body.
type Received = (String, Bytes);

async fn receive(
    State(tx): State<mpsc::UnboundedSender<Received>>,
    RawQuery(query): RawQuery,
    body: Bytes,
) {
    let hmac = reqwest::Url::parse(&format!("http://x/?{}", query.unwrap_or_default()))
        .unwrap()
        .query_pairs()
        .find(|(k, _)| k == "hmac")
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default();
    tx.send((hmac, body)).unwrap();
}

struct World {
    standin: Arc<StandIn>,
    config: PaymobConfig,
    client: Paymob,
    browser: reqwest::Client,
    origin: String,
    /// The merchant's processed-callback endpoint.
    callback_url: String,
    callbacks: mpsc::UnboundedReceiver<Received>,
}

async fn world() -> World {
    let (tx, callbacks) = mpsc::unbounded_channel();
    let merchant = serve(
        Router::new()
            .route("/callback", post(receive))
            .with_state(tx),
    )
    .await;
    let integration_ids: BTreeMap<String, i64> =
        [("wallet", 4101), ("kiosk", 4102), ("card", 4103)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
    // The stand-in needs its own address in its base URL: bind first, then build.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let config = PaymobConfig {
        base_url: format!("{origin}/paymob-standin"),
        secret_key: Secret::new("egy_sk_test_standin"),
        public_key: "egy_pk_test_standin".into(),
        hmac_secret: Secret::new(HMAC_SECRET),
        integration_ids,
    };
    let standin = StandIn::new(config.clone());
    let app = router(standin.clone());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    World {
        standin,
        client: Paymob::new(config.clone()),
        config,
        browser: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
        origin,
        callback_url: format!("http://{merchant}/callback"),
        callbacks,
    }
}

impl World {
    fn request<'a>(&'a self, order_id: &'a str, methods: &'a [&'a str]) -> IntentionRequest<'a> {
        IntentionRequest {
            order_id,
            amount_cents: 450_050,
            currency: "EGP",
            methods,
            description: "Coaching package: 6 sessions",
            customer_name: "Mona Ahmed",
            customer_email: "mona@example.com",
            customer_phone: "+201001234567",
            notification_url: &self.callback_url,
            redirection_url: "https://coach.example/api/payments/paymob/return",
        }
    }

    async fn next_callback(&mut self) -> Received {
        tokio::time::timeout(Duration::from_secs(5), self.callbacks.recv())
            .await
            .expect("a callback within 5 s")
            .expect("the receiver is open")
    }

    async fn verified_callback(&mut self) -> PaymobTransaction {
        let (hmac, body) = self.next_callback().await;
        verify_callback(HMAC_SECRET, &body, &hmac).expect("the stand-in's callback verifies")
    }

    async fn post_form(&self, path: &str, form: &[(&str, &str)]) -> reqwest::Response {
        self.browser
            .post(format!("{}{path}", self.origin))
            .form(form)
            .send()
            .await
            .unwrap()
    }

    /// Intention, checkout page, wallet number: answers the client secret and the OTP form's path.
    async fn to_otp_page(&self, order_id: &str) -> (String, String) {
        let intention = self
            .client
            .create_intention(&self.request(order_id, &["wallet"]))
            .await
            .unwrap();
        let page = self
            .browser
            .get(&intention.checkout_url)
            .send()
            .await
            .unwrap();
        assert_eq!(page.status(), 200);
        let html = page.text().await.unwrap();
        assert!(
            html.contains("4500.50 EGP") && html.contains("<label for=\"wallet_number\">"),
            "{html}"
        );
        let form = [
            ("client_secret", intention.client_secret.as_str()),
            ("method", "wallet"),
            ("wallet_number", "010 1234 5678"),
        ];
        let otp = self
            .post_form("/paymob-standin/unifiedcheckout/pay", &form)
            .await;
        assert_eq!(otp.status(), 200);
        let html = otp.text().await.unwrap();
        assert!(
            html.contains("Vodafone Cash") && html.contains("Let it expire"),
            "{html}"
        );
        (intention.client_secret, form_action(&html))
    }
}

fn form_action(html: &str) -> String {
    let start = html.find("action=\"").expect("a form") + "action=\"".len();
    html[start..start + html[start..].find('"').unwrap()].to_string()
}

/// The 303's target, as the decoded query fields the merchant's return route reads.
fn redirect_fields(response: &reqwest::Response) -> Vec<(String, String)> {
    assert_eq!(response.status(), 303);
    let location = response.headers()["location"].to_str().unwrap();
    assert!(
        location.starts_with("https://coach.example/api/payments/paymob/return?"),
        "{location}"
    );
    reqwest::Url::parse(location)
        .unwrap()
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

#[tokio::test]
async fn a_wallet_payment_approved_by_its_code_is_signed_both_ways() {
    let mut w = world().await;
    let (_, action) = w.to_otp_page("cart-1").await;
    let back = w
        .post_form(&action, &[("otp", "123456"), ("action", "verify")])
        .await;
    let fields = redirect_fields(&back);
    assert!(verify_redirect(HMAC_SECRET, &fields));
    let returned = redirect_transaction(&fields).unwrap();
    assert!(returned.is_approved());

    let tx = w.verified_callback().await;
    assert!(tx.success && !tx.pending && !tx.is_refund);
    assert_eq!(tx.amount_cents, 450_050);
    assert_eq!(tx.currency, "EGP");
    assert_eq!(tx.merchant_order_id.as_deref(), Some("cart-1"));
    assert_eq!(
        (tx.source_type.as_str(), tx.source_sub_type.as_str()),
        ("wallet", "wallet")
    );
    assert_eq!(tx.integration_id, Some(4101));
    assert_eq!(
        tx.id, returned.id,
        "the callback and the redirect describe one transaction"
    );

    let (queried, _) = w.client.query(tx.id).await.unwrap();
    assert!(queried.is_approved());
    assert_eq!(queried.amount_cents, 450_050);
}

#[tokio::test]
async fn a_forged_or_altered_callback_is_refused_and_a_replay_keeps_its_id() {
    let mut w = world().await;
    let (_, action) = w.to_otp_page("cart-2").await;
    w.post_form(&action, &[("action", "decline")]).await;
    let (hmac, body) = w.next_callback().await;
    let first = verify_callback(HMAC_SECRET, &body, &hmac).unwrap();
    assert!(first.is_declined());

    // A declined payment presented as paid, with the original hmac.
    let mut forged: serde_json::Value = serde_json::from_slice(&body).unwrap();
    forged["obj"]["success"] = true.into();
    let forged = serde_json::to_vec(&forged).unwrap();
    assert!(verify_callback(HMAC_SECRET, &forged, &hmac).is_none());
    let mut other_hmac = hmac.clone().into_bytes();
    other_hmac[0] = if other_hmac[0] == b'0' { b'1' } else { b'0' };
    assert!(verify_callback(HMAC_SECRET, &body, &String::from_utf8(other_hmac).unwrap()).is_none());
    assert!(verify_callback("not-the-secret", &body, &hmac).is_none());
    assert!(verify_callback(HMAC_SECRET, &body, "").is_none());

    // Delivered twice, it verifies twice with the same id, by which the caller deduplicates.
    let replay = verify_callback(HMAC_SECRET, &body, &hmac).unwrap();
    assert_eq!(replay.id, first.id);
    // A second decision on the same page settles nothing new and sends nothing.
    let again = w.post_form(&action, &[("action", "approve")]).await;
    let fields = redirect_fields(&again);
    assert_eq!(redirect_transaction(&fields).unwrap().id, first.id);
    assert!(redirect_transaction(&fields).unwrap().is_declined());
    let nothing = tokio::time::timeout(Duration::from_millis(300), w.callbacks.recv()).await;
    assert!(nothing.is_err(), "no second callback");
}

#[tokio::test]
async fn the_code_000000_declines_and_an_expired_wallet_payment_is_declined() {
    let mut w = world().await;
    let (_, action) = w.to_otp_page("cart-3").await;
    let back = w
        .post_form(&action, &[("otp", "000000"), ("action", "verify")])
        .await;
    let fields = redirect_fields(&back);
    assert!(verify_redirect(HMAC_SECRET, &fields));
    assert!(redirect_transaction(&fields).unwrap().is_declined());
    let tx = w.verified_callback().await;
    assert!(!tx.success && !tx.pending);

    let (_, action) = w.to_otp_page("cart-4").await;
    w.post_form(&action, &[("action", "expire")]).await;
    let tx = w.verified_callback().await;
    assert!(tx.is_declined());
    assert_eq!(tx.message.as_deref(), Some("Transaction has expired."));
}

#[tokio::test]
async fn a_wrong_wallet_number_or_code_is_asked_again() {
    let w = world().await;
    let intention = w
        .client
        .create_intention(&w.request("cart-5", &["wallet"]))
        .await
        .unwrap();
    let form = [
        ("client_secret", intention.client_secret.as_str()),
        ("method", "wallet"),
        ("wallet_number", "01912345678"),
    ];
    let again = w
        .post_form("/paymob-standin/unifiedcheckout/pay", &form)
        .await;
    assert_eq!(again.status(), 400);
    assert!(again.text().await.unwrap().contains("role=\"alert\""));

    let (_, action) = w.to_otp_page("cart-6").await;
    let short = w
        .post_form(&action, &[("otp", "12345"), ("action", "verify")])
        .await;
    assert_eq!(short.status(), 400);
}

#[tokio::test]
async fn a_kiosk_payment_stays_pending_until_paid_at_the_kiosk() {
    let mut w = world().await;
    let intention = w
        .client
        .create_intention(&w.request("cart-7", &["wallet", "kiosk"]))
        .await
        .unwrap();
    let form = [
        ("client_secret", intention.client_secret.as_str()),
        ("method", "kiosk"),
    ];
    let page = w
        .post_form("/paymob-standin/unifiedcheckout/pay", &form)
        .await;
    let html = page.text().await.unwrap();
    assert!(
        html.contains("data-bill-reference") && html.contains("Pay at kiosk"),
        "{html}"
    );
    let pending = w.verified_callback().await;
    assert!(pending.pending && !pending.success);
    assert_eq!(pending.source_type, "aggregator");

    let paid = w.post_form(&form_action(&html), &[]).await;
    assert_eq!(paid.status(), 200);
    let tx = w.verified_callback().await;
    assert!(tx.is_approved());
    assert_eq!(tx.id, pending.id);
}

#[tokio::test]
async fn paymob_refuses_a_wrong_key_an_unknown_integration_and_a_reused_reference() {
    let w = world().await;
    let mut wrong_key = w.config.clone();
    wrong_key.secret_key = Secret::new("egy_sk_test_wrong");
    let refused = Paymob::new(wrong_key)
        .create_intention(&w.request("cart-8", &["wallet"]))
        .await;
    assert!(
        matches!(refused, Err(CreateError::Refused { status: 401, .. })),
        "{refused:?}"
    );

    let mut unknown = w.config.clone();
    unknown.integration_ids.insert("valu".into(), 999_999);
    let refused = Paymob::new(unknown)
        .create_intention(&w.request("cart-8", &["valu"]))
        .await;
    match refused {
        Err(CreateError::Refused {
            status: 404,
            message,
        }) => assert!(message.contains("Integration ID")),
        other => panic!("expected a 404, got {other:?}"),
    }

    w.client
        .create_intention(&w.request("cart-9", &["wallet"]))
        .await
        .unwrap();
    let again = w
        .client
        .create_intention(&w.request("cart-9", &["wallet"]))
        .await;
    assert!(
        matches!(again, Err(CreateError::Refused { status: 400, .. })),
        "{again:?}"
    );
}

#[tokio::test]
async fn a_paid_transaction_refunds_up_to_its_amount_and_each_refund_is_notified() {
    let mut w = world().await;
    let (_, action) = w.to_otp_page("cart-10").await;
    w.post_form(&action, &[("action", "approve")]).await;
    let sale = w.verified_callback().await;

    let RefundAnswer::Answered(refund) = w.client.refund(sale.id, 100_000).await.unwrap() else {
        panic!("a refund transaction")
    };
    assert!(refund.success && refund.is_refund && refund.has_parent_transaction);
    assert_eq!(refund.amount_cents, 100_000);
    assert_ne!(refund.id, sale.id);
    let notified = w.verified_callback().await;
    assert_eq!(notified, *refund);

    match w.client.refund(sale.id, 350_051).await.unwrap() {
        RefundAnswer::Refused { message } => assert!(message.contains("exceeds"), "{message}"),
        other => panic!("an over-refund is refused, got {other:?}"),
    }
    let RefundAnswer::Answered(rest) = w.client.refund(sale.id, 350_050).await.unwrap() else {
        panic!("the rest refunds")
    };
    assert!(rest.success);
    let (queried, _) = w.client.query(sale.id).await.unwrap();
    assert!(queried.is_refunded);

    w.standin
        .decline_refunds
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let (_, action) = w.to_otp_page("cart-11").await;
    w.post_form(&action, &[("action", "approve")]).await;
    let other_sale = loop {
        let tx = w.verified_callback().await;
        if tx.merchant_order_id.as_deref() == Some("cart-11") {
            break tx;
        }
    };
    let RefundAnswer::Answered(declined) = w.client.refund(other_sale.id, 1_000).await.unwrap()
    else {
        panic!("a declined refund is still a transaction")
    };
    assert!(!declined.success && !declined.pending && declined.is_refund);
}

#[tokio::test]
async fn a_declined_payment_cannot_be_refunded() {
    let mut w = world().await;
    let (_, action) = w.to_otp_page("cart-12").await;
    w.post_form(&action, &[("action", "decline")]).await;
    let sale = w.verified_callback().await;
    assert!(matches!(
        w.client.refund(sale.id, 100).await.unwrap(),
        RefundAnswer::Refused { .. }
    ));
}
