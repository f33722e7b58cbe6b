//! The API over HTTP, as the site's pages and other servers call it. Runs on SQLite, and on
//! PostgreSQL with TEST_DATABASE=postgres (scripts/test.sh runs both).

mod support;

mod accounts;
mod admin;
mod backups;
mod bookings;
mod cancellations;
mod care;
mod catalogue;
mod contact;
mod content_editor;
mod deactivation;
mod discount_purchases;
mod discounts;
mod exports;
mod hot_reads;
mod invitations;
mod keep_alive;
mod languages;
mod limits;
mod lots;
mod methods;
mod metrics;
mod needs_attention;
mod newsletter;
mod operations;
mod payments;
mod paymob;
mod platform;
mod refunds;
mod replicas;
mod spine;
mod sponsors;
mod stats;
mod traces;
mod transfers;
