//! Scheduling with Calendly: its webhooks applied to bookings (`webhook`; the bookings
//! themselves are `crate::bookings`), and the scheduled jobs. The Calendly client, its webhook signatures and the signed client
//! reference are in `providers::calendly` (re-exported here as `calendly`).

pub mod jobs;
pub mod webhook;

/// The Calendly client, where the scheduling flows and their callers have always found it.
pub use crate::providers::calendly;
