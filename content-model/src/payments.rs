//! The ways a client may pay online: the methods of PayTabs' hosted page. Which of them the
//! coach's profile has, and which a package offers, are `model::PaymentSettings` (`payments:`
//! in settings.yaml) and a package's `payment_methods`.
//!
//! The codes are PayTabs' own values of the payment request's `payment_methods` parameter, so
//! what the settings say is exactly what PayTabs is asked for.

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
}

impl PaymentMethod {
    pub const ALL: [PaymentMethod; 9] = [
        PaymentMethod::Creditcard,
        PaymentMethod::Meezaqr,
        PaymentMethod::Applepay,
        PaymentMethod::Valu,
        PaymentMethod::Souhoola,
        PaymentMethod::Forsa,
        PaymentMethod::Halan,
        PaymentMethod::Installment,
        PaymentMethod::Aman,
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
        assert_eq!(PaymentMethod::parse("wallet"), None);
        assert!(Valu.is_instalments() && Installment.is_instalments());
        assert!(!Meezaqr.is_instalments() && !Aman.is_instalments());
    }
}
