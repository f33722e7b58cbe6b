//! The one error shape every endpoint answers with:
//! `{ "error": { "code": "…", "message": "…", "fields": { "email": "…" }? } }`.
//! 5xx bodies carry no internals; the cause goes to the log with the request's span.

use std::collections::BTreeMap;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// 422: the request is understood but a field is wrong. `message` is the spec's text.
    #[error("{message}")]
    Validation {
        message: String,
        fields: BTreeMap<String, String>,
    },
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// 502: a provider we depend on failed; the message is the spec's text for the user.
    #[error("{0}")]
    BadGateway(String),
    #[error("Too many attempts. Please try again in {retry_after} seconds.")]
    RateLimited { retry_after: u64 },
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> AppError {
        AppError::Internal(e.into())
    }
}

impl AppError {
    /// One invalid field, its message also the error's message.
    pub fn field(field: &str, message: &str) -> AppError {
        AppError::Validation {
            message: message.to_string(),
            fields: BTreeMap::from([(field.to_string(), message.to_string())]),
        }
    }

    pub fn unauthenticated() -> AppError {
        AppError::Unauthorized("Authentication required".into())
    }

    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            AppError::Validation { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "validation_error"),
            AppError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            AppError::Unauthorized(_) => (StatusCode::UNAUTHORIZED, "unauthorized"),
            AppError::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            AppError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            AppError::Conflict(_) => (StatusCode::CONFLICT, "conflict"),
            AppError::RateLimited { .. } => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            AppError::BadGateway(_) => (StatusCode::BAD_GATEWAY, "provider_error"),
            AppError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal_error"),
        }
    }
}

/// The body of every error response.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Stable, machine-readable: `validation_error`, `unauthorized`, `forbidden`, `not_found`,
    /// `conflict`, `rate_limited`, `bad_request`, `internal_error`.
    pub code: String,
    /// For people; the spec's wording where the spec has one.
    pub message: String,
    /// Per-field messages of a validation error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fields: Option<BTreeMap<String, String>>,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        let message = match &self {
            AppError::Internal(e) => {
                tracing::error!(error = format!("{e:#}"), "request failed");
                "Something went wrong on our side. Please try again.".to_string()
            }
            other => other.to_string(),
        };
        let fields = match &self {
            AppError::Validation { fields, .. } if !fields.is_empty() => Some(fields.clone()),
            _ => None,
        };
        let body = ErrorBody {
            error: ErrorDetail {
                code: code.into(),
                message,
                fields,
            },
        };
        let mut response = (status, axum::Json(body)).into_response();
        if let AppError::RateLimited { retry_after } = self
            && let Ok(v) = HeaderValue::from_str(&retry_after.to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, v);
        }
        response
    }
}

pub type AppResult<T> = Result<T, AppError>;
