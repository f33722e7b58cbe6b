//! What the domain refuses, in its own words: no HTTP here. `crate::error` maps both types to
//! the API's one error shape in one place.

/// A value a domain rule refuses: the field and the message a person reads (the spec's text
/// where it has one). The domain knows nothing of HTTP; `error.rs` maps this to the 422
/// answer in one place.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl FieldError {
    pub fn new(field: &str, message: &str) -> FieldError {
        FieldError {
            field: field.to_string(),
            message: message.to_string(),
        }
    }
}

/// What a domain function refuses, in the domain's words; `error.rs` maps it to HTTP (422,
/// 404, 409, 500) in one place.
#[derive(Debug, thiserror::Error)]
pub enum DomainError {
    /// A value a rule refuses (422).
    #[error(transparent)]
    Invalid(#[from] FieldError),
    /// The thing asked about does not exist, or is not the asker's to see (404).
    #[error("{0}")]
    NotFound(&'static str),
    /// The thing is not in a state that allows this (409).
    #[error("{0}")]
    Conflict(&'static str),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}
