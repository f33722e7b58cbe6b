//! A provider's word on a payment, in one shape: what settlement (`settle`), refunds and the
//! order's record need, whichever provider said it. Each provider's client reads its own
//! protocol; this is where its transaction becomes ours.

use content_model::payments::Provider;

use crate::domain::PaymentStatus;
use crate::providers::paymob::{PaymobConfig, PaymobTransaction};
use crate::providers::paytabs::{self, Transaction};

/// One transaction as a provider reported it (callback, browser return, query or refund
/// answer), after its signature was checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentResult {
    pub provider: Provider,
    /// Our order's id (PayTabs' `cart_id`, Paymob's `merchant_order_id`).
    pub cart_id: String,
    /// The provider's transaction: PayTabs' `tran_ref`, Paymob's transaction id.
    pub reference: String,
    /// The provider's own order, which it signs (Paymob's `order.id`); `None` for PayTabs,
    /// whose signature covers our `cart_id` itself.
    pub provider_order: Option<String>,
    pub status: PaymentStatus,
    /// The provider's own status as the order records it: PayTabs' letter (A, H, P, D, E…),
    /// Paymob's `approved`, `pending` or `declined`.
    pub provider_status: String,
    /// What was paid, in minor units, when the provider said it in a form we read.
    pub amount: Option<i64>,
    /// The amount as the provider wrote it, for the log of a mismatch.
    pub amount_text: String,
    pub currency: String,
    /// A sale (not an authorisation, a refund or a void).
    pub is_sale: bool,
    /// How the client paid (`card`, `meeza`, `wallet`, `kiosk`, `valu`…), as receipts and
    /// the CSV name it.
    pub method: String,
}

/// Maps PayTabs' status letter to ours (docs/integrations.md §1.6).
pub fn paytabs_status(letter: &str) -> PaymentStatus {
    match letter {
        "A" => PaymentStatus::Completed,
        "H" | "P" => PaymentStatus::Pending,
        _ => PaymentStatus::Failed,
    }
}

impl From<&Transaction> for PaymentResult {
    fn from(t: &Transaction) -> PaymentResult {
        let letter = t.payment_result.response_status.trim().to_uppercase();
        let amount_text = t
            .tran_total
            .as_ref()
            .or(t.cart_amount.as_ref())
            .cloned()
            .unwrap_or_default();
        PaymentResult {
            provider: Provider::Paytabs,
            cart_id: t.cart_id.clone(),
            reference: t.tran_ref.clone(),
            provider_order: None,
            status: paytabs_status(&letter),
            provider_status: letter,
            amount: paytabs::parse_amount(&amount_text),
            amount_text,
            currency: t
                .tran_currency
                .as_deref()
                .or(t.cart_currency.as_deref())
                .unwrap_or("")
                .to_string(),
            is_sale: t
                .tran_type
                .as_deref()
                .is_none_or(|k| k.eq_ignore_ascii_case("sale")),
            method: t.method(),
        }
    }
}

impl PaymentResult {
    /// Paymob's transaction for our order `merchant_order_id` (a refund has none of its own:
    /// it names the sale's). The method is the integration's name in our configuration
    /// (`wallet`, `kiosk`…), a card being `card` (or `meeza`) as PayTabs' are.
    pub fn from_paymob(config: &PaymobConfig, t: &PaymobTransaction) -> Option<PaymentResult> {
        let cart_id = t.merchant_order_id.clone()?;
        let (status, provider_status) = paymob_status(t);
        let configured = t.integration_id.and_then(|id| {
            config
                .integration_ids
                .iter()
                .find(|(_, i)| **i == id)
                .map(|(m, _)| m.as_str())
        });
        let method = match (configured, t.source_type.as_str()) {
            (Some("creditcard") | None, "card")
                if t.source_sub_type.eq_ignore_ascii_case("meeza") =>
            {
                "meeza".to_string()
            }
            (Some("creditcard"), _) | (None, "card") => "card".to_string(),
            (Some(m), _) => m.to_string(),
            (None, "wallet") => "wallet".to_string(),
            (None, "aggregator") => "kiosk".to_string(),
            (None, other) => other
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .take(32)
                .collect::<String>()
                .to_ascii_lowercase(),
        };
        Some(PaymentResult {
            provider: Provider::Paymob,
            cart_id,
            reference: t.id.to_string(),
            provider_order: Some(t.order_id.to_string()),
            status,
            provider_status: provider_status.to_string(),
            amount: Some(t.amount_cents),
            amount_text: t.amount_cents.to_string(),
            currency: t.currency.clone(),
            is_sale: !t.is_refund && !t.is_void && !t.has_parent_transaction,
            method,
        })
    }
}

/// Paymob's `success` and `pending` as our status and the word the order records.
pub fn paymob_status(t: &PaymobTransaction) -> (PaymentStatus, &'static str) {
    if t.is_approved() {
        (PaymentStatus::Completed, "approved")
    } else if t.pending {
        (PaymentStatus::Pending, "pending")
    } else {
        (PaymentStatus::Failed, "declined")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::paymob::PaymobTransaction;
    use crate::secret::Secret;

    fn config() -> PaymobConfig {
        PaymobConfig {
            base_url: "https://accept.paymob.com".into(),
            secret_key: Secret::new("sk"),
            public_key: "pk".into(),
            hmac_secret: Secret::new("hmac"),
            integration_ids: [("wallet".to_string(), 11), ("creditcard".to_string(), 12)].into(),
        }
    }

    fn transaction(integration: i64, kind: &str, sub_type: &str) -> PaymobTransaction {
        PaymobTransaction::from_json(&serde_json::json!({
            "id": 190_000_001, "success": true, "pending": false, "amount_cents": 450_000,
            "currency": "EGP", "integration_id": integration,
            "order": {"id": 55, "merchant_order_id": "ec_abc"},
            "source_data": {"type": kind, "sub_type": sub_type},
        }))
        .unwrap()
    }

    #[test]
    fn a_paymob_transaction_names_our_order_its_method_and_is_a_completed_sale() {
        let r =
            PaymentResult::from_paymob(&config(), &transaction(11, "wallet", "wallet")).unwrap();
        assert_eq!(r.cart_id, "ec_abc");
        assert_eq!(r.reference, "190000001");
        assert_eq!(r.provider_order.as_deref(), Some("55"));
        assert_eq!(
            (r.status, r.provider_status.as_str()),
            (PaymentStatus::Completed, "approved")
        );
        assert_eq!(
            (r.amount, r.currency.as_str(), r.is_sale),
            (Some(450_000), "EGP", true)
        );
        assert_eq!(r.method, "wallet");
        // A card is `card` (a Meeza card `meeza`), as PayTabs' are; an unknown integration
        // is named by its source.
        let card = |sub: &str| {
            PaymentResult::from_paymob(&config(), &transaction(12, "card", sub))
                .unwrap()
                .method
        };
        assert_eq!(
            (card("MasterCard"), card("Meeza")),
            ("card".to_string(), "meeza".to_string())
        );
        let kiosk =
            PaymentResult::from_paymob(&config(), &transaction(99, "aggregator", "AGGREGATOR"))
                .unwrap();
        assert_eq!(kiosk.method, "kiosk");
    }
}
