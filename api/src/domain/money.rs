//! Money at the API's boundary (docs/ARCHITECTURE.md, decision 3): one type, integer minor units
//! (`content_model::Money`, piastres for EGP), read from a request once and exactly, and shown
//! in answers as `{ "minor": 450000, "currency": "EGP" }`. No float carries an amount anywhere:
//! a JSON number is read through its shortest decimal text, so `4500.5` is 450,050 piastres and
//! `0.1 + 0.2` mistakes cannot happen.

pub use content_model::model::Money;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type};
use utoipa::{PartialSchema, ToSchema};

/// The most one payment may be: 10,000,000.00 in the currency's major unit.
pub const MAX_PAYMENT: Money = Money(10_000_000 * 100);

/// Why an amount was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum AmountError {
    /// Not a number or a decimal text, negative, or more than two decimals.
    NotAnAmount,
    /// Above [`MAX_PAYMENT`].
    TooLarge,
}

/// An amount as a request sends it (a JSON number or text with at most two decimals), kept
/// as sent until the handler, which knows the field's name and message, reads it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(transparent)]
pub struct AmountInput(Option<Value>);

impl AmountInput {
    pub fn is_missing(&self) -> bool {
        match &self.0 {
            None | Some(Value::Null) => true,
            Some(Value::String(s)) => s.trim().is_empty(),
            _ => false,
        }
    }

    /// The amount, or `None` when the request left it out.
    pub fn read(&self) -> Option<Result<Money, AmountError>> {
        if self.is_missing() {
            return None;
        }
        let text = match self.0.as_ref()? {
            Value::String(s) => s.trim().to_string(),
            // Display gives the shortest text that reads back as the same number: what was sent.
            Value::Number(n) => match (n.as_u64(), n.as_f64()) {
                (Some(whole), _) => whole.to_string(),
                (None, Some(f)) if f.is_finite() && f >= 0.0 => format!("{f}"),
                _ => return Some(Err(AmountError::NotAnAmount)),
            },
            _ => return Some(Err(AmountError::NotAnAmount)),
        };
        if text.contains(['e', 'E', ',', '_']) {
            return Some(Err(AmountError::NotAnAmount));
        }
        let digits = text.split('.').next().unwrap_or("");
        Some(match Money::parse(&text) {
            Ok(m) if m > MAX_PAYMENT => Err(AmountError::TooLarge),
            Ok(m) => Ok(m),
            // Too many digits to be any amount we take.
            Err(_) if digits.len() > 12 && digits.chars().all(|c| c.is_ascii_digit()) => {
                Err(AmountError::TooLarge)
            }
            Err(_) => Err(AmountError::NotAnAmount),
        })
    }
}

impl PartialSchema for AmountInput {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(SchemaType::Type(Type::Number))
                    .minimum(Some(0.0))
                    .maximum(Some(10_000_000.0))
                    .multiple_of(Some(0.01)),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(SchemaType::Type(Type::String))
                    .pattern(Some(r"^\d{1,8}(\.\d{1,2})?$")),
            )
            .description(Some(
                "An amount in the currency's major unit with at most two decimals, as a number \
                 or text (`4500.50` or `\"4500.50\"`); 0 to 10,000,000.",
            ))
            .into()
    }
}

impl ToSchema for AmountInput {}

/// An amount in an answer: integer minor units and the ISO currency.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = Money)]
pub struct MoneyView {
    /// Minor units (piastres for EGP): 450050 is 4,500.50.
    pub minor: i64,
    /// ISO 4217, e.g. `EGP`.
    pub currency: String,
}

impl MoneyView {
    pub fn new(minor: i64, currency: &str) -> MoneyView {
        MoneyView {
            minor,
            currency: currency.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(v: Value) -> Option<Result<Money, AmountError>> {
        AmountInput(Some(v)).read()
    }

    #[test]
    fn amounts_are_read_exactly_from_numbers_and_text() {
        assert_eq!(read(serde_json::json!(4500.5)), Some(Ok(Money(450_050))));
        assert_eq!(read(serde_json::json!("4500.50")), Some(Ok(Money(450_050))));
        assert_eq!(read(serde_json::json!(0.07)), Some(Ok(Money(7))));
        assert_eq!(read(serde_json::json!(20250)), Some(Ok(Money(2_025_000))));
        assert_eq!(read(serde_json::json!(null)), None);
        assert_eq!(read(serde_json::json!("")), None);
    }

    #[test]
    fn amounts_out_of_bounds_or_shape_are_refused() {
        assert_eq!(
            read(serde_json::json!(1e300)),
            Some(Err(AmountError::TooLarge))
        );
        assert_eq!(
            read(serde_json::json!(10_000_000.01)),
            Some(Err(AmountError::TooLarge))
        );
        assert_eq!(read(serde_json::json!(10_000_000)), Some(Ok(MAX_PAYMENT)));
        assert_eq!(
            read(serde_json::json!(-1)),
            Some(Err(AmountError::NotAnAmount))
        );
        assert_eq!(
            read(serde_json::json!(12.345)),
            Some(Err(AmountError::NotAnAmount))
        );
        assert_eq!(
            read(serde_json::json!("1e3")),
            Some(Err(AmountError::NotAnAmount))
        );
        assert_eq!(
            read(serde_json::json!(true)),
            Some(Err(AmountError::NotAnAmount))
        );
        assert_eq!(
            read(serde_json::json!([1])),
            Some(Err(AmountError::NotAnAmount))
        );
    }
}
