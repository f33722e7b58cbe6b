//! Purchases: the catalogue the server prices from, the PayTabs client and signatures, the
//! one function that applies a payment result (callback, return, query, reconciliation all
//! use it), and a local PayTabs stand-in for development and tests.

pub mod catalogue;
pub mod paytabs;
pub mod reconcile;
pub mod settle;
pub mod standin;
