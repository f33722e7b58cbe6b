//! Scheduling with Calendly: bookings from its webhooks, cancellations with the 24-hour rule,
//! and the scheduled jobs. The Calendly client, its webhook signatures and the signed client
//! reference are in `providers::calendly` (re-exported here as `calendly`).

pub mod bookings;
pub mod cancellation;
pub mod jobs;

/// The Calendly client, where the scheduling flows and their callers have always found it.
pub use crate::providers::calendly;
