//! Purchases: the catalogue the server prices from, the one function that applies a payment
//! result (callback, return, query, reconciliation all use it), and refunds. The PayTabs
//! client and its signatures are in `providers::paytabs` (re-exported here as `paytabs`).

pub mod catalogue;
pub mod discounts;
pub mod gateway;
pub mod orders;
pub mod reconcile;
pub mod refunds;
pub mod result;
pub mod settle;
pub mod transfers;

/// The PayTabs client, where the payment flows and their callers have always found it.
pub use crate::providers::paytabs;
