//! The closed sets of values the database stores as text: a booking's status and source, and
//! an online payment's status. Rows read them as text (`db::column_via`), queries bind
//! `as_str()`, answers serialize them in snake_case: no string comparison anywhere else.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

macro_rules! text_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            $($variant),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            pub fn parse(s: &str) -> Option<$name> {
                match s {
                    $($text => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        crate::db::column_via!($name, String);

        impl TryFrom<String> for $name {
            type Error = String;

            fn try_from(s: String) -> Result<$name, String> {
                $name::parse(&s).ok_or_else(|| format!("`{s}` is not a {}", stringify!($name)))
            }
        }
    };
}

text_enum! {
    /// Where a booking stands. `pending` waits for the admin (no credit was used).
    BookingStatus {
        Confirmed = "confirmed",
        Completed = "completed",
        Cancelled = "cancelled",
        NoShow = "no_show",
        Pending = "pending",
    }
}

text_enum! {
    /// How a booking was made.
    BookingSource {
        Calendly = "calendly",
        Phone = "phone",
        Admin = "admin",
    }
}

text_enum! {
    /// An online payment's state at PayTabs.
    PaymentStatus {
        Pending = "pending",
        Completed = "completed",
        Failed = "failed",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_reads_back_as_itself() {
        for s in BookingStatus::ALL {
            assert_eq!(BookingStatus::parse(s.as_str()), Some(*s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        assert_eq!(BookingStatus::parse("Confirmed"), None);
        assert!(PaymentStatus::try_from("paid".to_string()).is_err());
    }
}
