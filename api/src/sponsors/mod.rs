//! Companies that pay for their executives' coaching (issue 23).
//!
//! - `records`: the sponsor (company) itself, with its billing contact; archived, never deleted.
//! - `engagements`: a sponsor buys credits for named executives or a pool; the credits reach
//!   each executive's account as lots of the engagement, through the ledger, when the invoice
//!   is paid or the admin releases them on credit; moves between executives need a reason.
//! - `invoices`: one invoice per engagement, numbered in its own series, paid through PayTabs'
//!   hosted page (its signed callback settles it once) or by a bank transfer the admin records.
//! - `reports`: the signed, revocable, expiring link that shows a sponsor what its executives
//!   used, and nothing private.

pub mod engagements;
pub mod invoices;
pub mod records;
pub mod reports;
