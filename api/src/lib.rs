//! The portal's API: an axum service over SQLite (default) or PostgreSQL.
//!
//! `startup` wires the pieces; `routes/*` each export a `router()`; `extract` holds the
//! extractors that decide who is asking (`AuthUser`, `AdminUser`) and reject bad JSON with the
//! one error shape of `error`; `email` queues mail in an outbox drained by a worker.
//!
//! Production code only: the local PayTabs and Calendly, the dev mailbox, the demo accounts and
//! the local defaults of `devserver` live in the `devkit` crate, which plugs in through
//! `startup::Extensions` and which this crate never depends on.

pub mod backup;
pub mod bookings;
pub mod catalogue;
pub mod configuration;
pub mod content_editor;
pub mod data_generation;
pub mod db;
pub mod domain;
pub mod email;
pub mod error;
pub mod extract;
pub mod lots;
pub mod monitoring;
pub mod openapi;
pub mod operations;
pub mod payments;
pub mod providers;
pub mod rate_limit;
pub mod read_cache;
pub mod routes;
pub mod scheduling;
pub mod secret;
pub mod sessions;
pub mod site;
pub mod sponsors;
pub mod startup;
pub mod state;
pub mod telemetry;
pub mod whole_body;
