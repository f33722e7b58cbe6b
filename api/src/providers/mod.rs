//! The outside services the API talks to, each a client that knows its provider's protocol
//! and signatures and nothing of the app: PayTabs (payments) and Calendly (scheduling). The
//! flows that use them (`payments`, `scheduling`) sit above; the app's state holds the
//! clients. The local stand-ins for development and tests are in the `devkit` crate.

pub mod calendly;
pub mod paymob;
pub mod paytabs;
