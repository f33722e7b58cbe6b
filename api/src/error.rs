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
    /// 413: the body is larger than the API accepts.
    #[error("The request body is too large")]
    PayloadTooLarge,
    /// 415: a body that is not JSON where JSON is required.
    #[error("The request body must be JSON (Content-Type: application/json)")]
    UnsupportedMediaType,
    /// 405: the route exists, the method does not.
    #[error("This method is not allowed on this route")]
    MethodNotAllowed,
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
    /// Too many attempts (429). With `reset_hint` the refused sign-in may be the owner's,
    /// whom a password reset lets in at once, and the message says so.
    #[error("{}", rate_limited_message(*retry_after, *reset_hint))]
    RateLimited { retry_after: u64, reset_hint: bool },
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

fn rate_limited_message(retry_after: u64, reset_hint: bool) -> String {
    let minutes = retry_after.div_ceil(60).max(1);
    let unit = if minutes == 1 { "minute" } else { "minutes" };
    if reset_hint {
        format!("Too many attempts. Try again in {minutes} {unit}, or reset your password.")
    } else {
        format!("Too many attempts. Try again in {minutes} {unit}.")
    }
}

impl From<crate::domain::FieldError> for AppError {
    fn from(e: crate::domain::FieldError) -> AppError {
        AppError::field(&e.field, &e.message)
    }
}

impl From<crate::domain::DomainError> for AppError {
    fn from(e: crate::domain::DomainError) -> AppError {
        use crate::domain::DomainError;
        match e {
            DomainError::Invalid(field) => field.into(),
            DomainError::NotFound(m) => AppError::NotFound(m.into()),
            DomainError::Conflict(m) => AppError::Conflict(m.into()),
            DomainError::Database(e) => e.into(),
        }
    }
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
            AppError::PayloadTooLarge => (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large"),
            AppError::UnsupportedMediaType => {
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
            }
            AppError::MethodNotAllowed => (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed"),
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
    /// Stable, machine-readable: `validation_error`, `bad_request`, `payload_too_large`,
    /// `unsupported_media_type`, `method_not_allowed`, `unauthorized`, `forbidden`, `not_found`,
    /// `conflict`, `rate_limited`, `provider_error`, `internal_error`.
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
        if let AppError::RateLimited { retry_after, .. } = self
            && let Ok(v) = HeaderValue::from_str(&retry_after.to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, v);
        }
        response
    }
}

pub type AppResult<T> = Result<T, AppError>;

/// The safety net under every `/api` route: an error answer that something other than
/// `AppError` produced (a layer, a rejection we do not map ourselves, a 405 with an empty body)
/// is rewritten into the one error shape with the same status, so a client never has to parse
/// two kinds of error.
pub async fn one_error_shape(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let response = next.run(req).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        return response;
    }
    let error = match status {
        StatusCode::METHOD_NOT_ALLOWED => AppError::MethodNotAllowed,
        StatusCode::PAYLOAD_TOO_LARGE => AppError::PayloadTooLarge,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => AppError::UnsupportedMediaType,
        StatusCode::NOT_FOUND => AppError::NotFound("No such API route".into()),
        StatusCode::UNAUTHORIZED => AppError::unauthenticated(),
        StatusCode::FORBIDDEN => AppError::Forbidden("Forbidden".into()),
        StatusCode::TOO_MANY_REQUESTS => AppError::RateLimited {
            retry_after: 60,
            reset_hint: false,
        },
        s if s.is_server_error() => {
            AppError::Internal(anyhow::anyhow!("a layer answered {s} without a body"))
        }
        _ => AppError::BadRequest("The request could not be understood".into()),
    };
    let mut shaped = error.into_response();
    // Keep the status the layer chose (e.g. 408, 431) even where the variant maps elsewhere.
    *shaped.status_mut() = status;
    for name in [header::ALLOW, header::RETRY_AFTER] {
        if let Some(v) = response.headers().get(&name) {
            shaped.headers_mut().insert(name, v.clone());
        }
    }
    shaped
}
