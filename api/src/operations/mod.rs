//! What keeps the coach informed when production stops working on its own (issue 24): the
//! record the status page (admin -> System) reads, the checks `api doctor` and the page run,
//! and the alerts emailed to the coach.
//!
//! - `webhooks`: each provider's last webhook and the recent ones not applied, with their
//!   reason; three refused or failed in a row email the coach once per incident.
//! - `jobs`: each scheduled job's last run (the minute loops and `api credits expire`).
//! - `catalogue`: the catalogue versions the API loaded from the site, and the loads that
//!   failed.
//! - `alerts`: the minute check that emails the coach once when mail has waited in the outbox
//!   for over an hour.
//! - `doctor`: the database, SMTP login, PayTabs, Paymob, Calendly, the catalogue's address and
//!   the clock, each failure named with its fix.
//!
//! Recording is beside the work it records, never inside its transaction, and a recording that
//! fails is logged and changes nothing else: the status page must never break what it watches.

pub mod alerts;
pub mod catalogue;
pub mod doctor;
pub mod jobs;
pub mod webhooks;
