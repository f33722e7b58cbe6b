//! The one interface every payment provider sits behind: open a hosted payment for an order,
//! and refund a settled sale. PayTabs and Paymob implement it here, over their clients in
//! `providers`; a third provider is one more `impl Gateway` (and its callback route, which
//! turns its signed notification into a [`PaymentResult`](super::result::PaymentResult) for
//! `settle`). Which provider takes a method is the site's `payments.paymob` setting.

use async_trait::async_trait;
use content_model::payments::{PaymentMethod, Provider};

use crate::domain::Language;
use crate::providers::{paymob, paytabs};

/// An order the server priced, to be paid on the provider's hosted page.
pub struct Checkout<'a> {
    pub cart_id: &'a str,
    /// Minor units.
    pub amount: i64,
    pub currency: &'a str,
    pub description: &'a str,
    pub customer_name: &'a str,
    pub customer_email: &'a str,
    pub customer_phone: &'a str,
    pub customer_ip: &'a str,
    /// The methods the page may offer (all of them this provider's).
    pub methods: &'a [PaymentMethod],
    /// The client's language, which the hosted page speaks where the provider can.
    pub language: Language,
    /// The API's public address, for the callback and return URLs.
    pub base_url: &'a str,
}

/// A hosted payment opened: the provider's reference for it, when it gives one before anybody
/// pays (PayTabs' `tran_ref`; Paymob's transaction comes with its callback), and where the
/// browser goes.
pub struct Started {
    pub reference: Option<String>,
    /// The provider's own order for ours, which its notifications sign (Paymob's).
    pub provider_order: Option<String>,
    pub redirect_url: String,
}

/// Why no hosted payment was opened: what the client is told, and the detail for the log.
#[derive(Debug)]
pub struct StartFailed {
    pub message: String,
    pub detail: anyhow::Error,
}

/// A refund of a settled sale, priced and recorded by `refunds` before it is sent.
pub struct RefundCall<'a> {
    /// Ours, new for each refund (PayTabs' follow-up cart id).
    pub refund_cart_id: &'a str,
    /// The sale's provider reference (PayTabs' `tran_ref`, Paymob's transaction id).
    pub sale_reference: &'a str,
    /// Minor units.
    pub amount: i64,
    pub currency: &'a str,
    pub base_url: &'a str,
}

/// The provider's answer to a refund request.
#[derive(Debug)]
pub enum RefundReply {
    /// A refund transaction, with its status as PayTabs' letter (`A` approved, `H`/`P`
    /// pending, anything else declined), which `refunds::settle` applies.
    Answered { reference: String, letter: String },
    /// Refused outright (HTTP 4xx) with the provider's reason: nothing was refunded.
    Refused(String),
}

#[async_trait]
pub trait Gateway: Send + Sync {
    fn provider(&self) -> Provider;
    /// Opens the hosted payment of `checkout`.
    async fn start(&self, checkout: &Checkout<'_>) -> Result<Started, StartFailed>;
    /// Asks for a refund. An error means no certain answer: the refund stays pending until
    /// the provider's notification.
    async fn refund(&self, call: &RefundCall<'_>) -> anyhow::Result<RefundReply>;
}

#[async_trait]
impl Gateway for paytabs::PayTabs {
    fn provider(&self) -> Provider {
        Provider::Paytabs
    }

    async fn start(&self, c: &Checkout<'_>) -> Result<Started, StartFailed> {
        let methods: Vec<&str> = c.methods.iter().map(|m| m.code()).collect();
        let request = paytabs::PageRequest {
            cart_id: c.cart_id,
            currency: c.currency,
            amount: c.amount,
            description: c.description,
            customer_name: c.customer_name,
            customer_email: c.customer_email,
            customer_phone: c.customer_phone,
            customer_ip: c.customer_ip,
            callback_url: &format!("{}/api/payments/paytabs/callback", c.base_url),
            return_url: &format!("{}/api/payments/paytabs/return", c.base_url),
            payment_methods: &methods,
            lang: c.language.as_str(),
        };
        match self.create_page(&request).await {
            Ok((tran_ref, redirect_url)) => Ok(Started {
                reference: Some(tran_ref),
                provider_order: None,
                redirect_url,
            }),
            Err(e) => Err(StartFailed {
                message: e.to_string(),
                detail: anyhow::Error::new(e),
            }),
        }
    }

    async fn refund(&self, call: &RefundCall<'_>) -> anyhow::Result<RefundReply> {
        let answer = paytabs::PayTabs::refund(
            self,
            &paytabs::RefundRequest {
                cart_id: call.refund_cart_id,
                currency: call.currency,
                amount: call.amount,
                description: "Refund of a coaching package",
                sale_tran_ref: call.sale_reference,
                callback_url: &format!("{}/api/payments/paytabs/callback", call.base_url),
            },
        )
        .await?;
        Ok(match answer {
            paytabs::RefundAnswer::Answered(tx) => RefundReply::Answered {
                reference: tx.tran_ref.clone(),
                letter: tx.payment_result.response_status.clone(),
            },
            paytabs::RefundAnswer::Refused { message } => RefundReply::Refused(message),
        })
    }
}

#[async_trait]
impl Gateway for paymob::Paymob {
    fn provider(&self) -> Provider {
        Provider::Paymob
    }

    async fn start(&self, c: &Checkout<'_>) -> Result<Started, StartFailed> {
        let methods: Vec<&str> = c.methods.iter().map(|m| m.code()).collect();
        let request = paymob::IntentionRequest {
            order_id: c.cart_id,
            amount_cents: c.amount,
            currency: c.currency,
            methods: &methods,
            description: c.description,
            customer_name: c.customer_name,
            customer_email: c.customer_email,
            customer_phone: c.customer_phone,
            notification_url: &format!("{}/api/payments/paymob/callback", c.base_url),
            redirection_url: &format!("{}/api/payments/paymob/return", c.base_url),
        };
        match self.create_intention(&request).await {
            // Paymob's transaction does not exist yet: its callback brings its id.
            Ok(intention) => Ok(Started {
                reference: None,
                provider_order: intention.order_id.map(|id| id.to_string()),
                redirect_url: intention.checkout_url,
            }),
            // The client is told what PayTabs' failures tell; Paymob's reason is logged.
            Err(e) => Err(StartFailed {
                message: "Failed to initiate payment. Please try again.".into(),
                detail: anyhow::Error::new(e),
            }),
        }
    }

    async fn refund(&self, call: &RefundCall<'_>) -> anyhow::Result<RefundReply> {
        let sale: i64 = call.sale_reference.parse().map_err(|_| {
            anyhow::anyhow!("`{}` is not a Paymob transaction id", call.sale_reference)
        })?;
        Ok(
            match paymob::Paymob::refund(self, sale, call.amount).await? {
                paymob::RefundAnswer::Answered(tx) => RefundReply::Answered {
                    reference: tx.id.to_string(),
                    letter: refund_letter(&tx).into(),
                },
                paymob::RefundAnswer::Refused { message } => RefundReply::Refused(message),
            },
        )
    }
}

/// A Paymob refund transaction's state as the letter `refunds::settle` reads.
pub fn refund_letter(tx: &paymob::PaymobTransaction) -> &'static str {
    if tx.is_approved() {
        "A"
    } else if tx.pending {
        "P"
    } else {
        "D"
    }
}
