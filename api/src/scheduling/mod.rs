//! Scheduling with Calendly: webhook signatures, the API client, the signed client reference
//! carried in `utm_content`, and a local stand-in for development and tests.

pub mod bookings;
pub mod calendly;
pub mod jobs;
pub mod standin;
