//! Scheduling with Calendly: webhook signatures, the API client, and the signed client reference
//! carried in `utm_content`. The local Calendly for development and tests is in `devkit`.

pub mod bookings;
pub mod calendly;
pub mod cancellation;
pub mod jobs;
