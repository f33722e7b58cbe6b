//! Purchases: the catalogue the server prices from, the PayTabs client and signatures, and the
//! one function that applies a payment result (callback, return, query, reconciliation all
//! use it). The local PayTabs for development and tests is in the `devkit` crate.

pub mod catalogue;
pub mod paytabs;
pub mod reconcile;
pub mod refunds;
pub mod settle;
