//! The ways a client may pay online: the methods of PayTabs' hosted page, and the mobile
//! wallets and kiosks that only Paymob has. Which of them the coach's PayTabs and Paymob
//! accounts have, and which a package offers, are `model::PaymentSettings` (`payments:` in
//! settings.yaml) and a package's `payment_methods`.
//!
//! The codes are PayTabs' own values of the payment request's `payment_methods` parameter, so
//! what the settings say is exactly what PayTabs is asked for; `wallet` and `kiosk` are ours
//! (Paymob names its integrations by id, set in the API's `PAYMOB_INTEGRATIONS`).

use serde::{Deserialize, Serialize};

/// A method PayTabs' hosted page can offer (its `payment_methods` values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PaymentMethod {
    /// Visa, Mastercard and Meeza cards.
    Creditcard,
    /// Meeza's QR code, paid from a banking app.
    Meezaqr,
    Applepay,
    /// valU instalments.
    Valu,
    /// Souhoola instalments.
    Souhoola,
    /// Forsa instalments.
    Forsa,
    /// Halan instalments.
    Halan,
    /// The National Bank of Egypt's card instalments.
    Installment,
    /// Aman: pay cash at an Aman kiosk with a reference.
    Aman,
    /// A mobile wallet (Vodafone Cash, Orange, Etisalat, WE): Paymob only.
    Wallet,
    /// Cash at a Fawry or Aman kiosk with Paymob's bill reference: Paymob only.
    Kiosk,
}

/// Who takes a payment made online.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    Paytabs,
    Paymob,
}

impl Provider {
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Paytabs => "paytabs",
            Provider::Paymob => "paymob",
        }
    }

    /// `PayTabs`, `Paymob`: as the settings' errors name them.
    pub fn name(self) -> &'static str {
        match self {
            Provider::Paytabs => "PayTabs",
            Provider::Paymob => "Paymob",
        }
    }
}

impl PaymentMethod {
    pub const ALL: [PaymentMethod; 11] = [
        PaymentMethod::Creditcard,
        PaymentMethod::Meezaqr,
        PaymentMethod::Applepay,
        PaymentMethod::Valu,
        PaymentMethod::Souhoola,
        PaymentMethod::Forsa,
        PaymentMethod::Halan,
        PaymentMethod::Installment,
        PaymentMethod::Aman,
        PaymentMethod::Wallet,
        PaymentMethod::Kiosk,
    ];

    /// PayTabs' code, as the settings and the payment request write it.
    pub fn code(self) -> &'static str {
        match self {
            PaymentMethod::Creditcard => "creditcard",
            PaymentMethod::Meezaqr => "meezaqr",
            PaymentMethod::Applepay => "applepay",
            PaymentMethod::Valu => "valu",
            PaymentMethod::Souhoola => "souhoola",
            PaymentMethod::Forsa => "forsa",
            PaymentMethod::Halan => "halan",
            PaymentMethod::Installment => "installment",
            PaymentMethod::Aman => "aman",
            PaymentMethod::Wallet => "wallet",
            PaymentMethod::Kiosk => "kiosk",
        }
    }

    /// Whether `provider` can take this method at all: PayTabs has no Egyptian mobile wallet
    /// and no kiosk of its own beyond Aman; Paymob has no Meeza QR, Apple Pay, NBE instalments
    /// or Aman under these names (its kiosks are `kiosk`).
    pub fn offered_by(self, provider: Provider) -> bool {
        use PaymentMethod::*;
        match provider {
            Provider::Paytabs => !matches!(self, Wallet | Kiosk),
            Provider::Paymob => matches!(
                self,
                Creditcard | Wallet | Kiosk | Valu | Souhoola | Forsa | Halan
            ),
        }
    }

    pub fn parse(code: &str) -> Option<PaymentMethod> {
        PaymentMethod::ALL.into_iter().find(|m| m.code() == code)
    }

    /// Whether the client pays in instalments (the settings may keep these for larger packages).
    pub fn is_instalments(self) -> bool {
        matches!(
            self,
            PaymentMethod::Valu
                | PaymentMethod::Souhoola
                | PaymentMethod::Forsa
                | PaymentMethod::Halan
                | PaymentMethod::Installment
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PaymentMethod::*;

    #[test]
    fn codes_are_paytabs_own_and_round_trip() {
        for m in PaymentMethod::ALL {
            assert_eq!(PaymentMethod::parse(m.code()), Some(m));
            assert_eq!(serde_json::to_value(m).unwrap(), m.code());
        }
        assert_eq!(PaymentMethod::parse("vodafone"), None);
        assert!(Wallet.offered_by(Provider::Paymob) && !Wallet.offered_by(Provider::Paytabs));
        assert!(Meezaqr.offered_by(Provider::Paytabs) && !Meezaqr.offered_by(Provider::Paymob));
        assert!(Valu.is_instalments() && Installment.is_instalments());
        assert!(!Meezaqr.is_instalments() && !Aman.is_instalments());
    }
}
