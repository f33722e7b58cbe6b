//! What a request sends, read once at the boundary: a JSON body (`AppJson`), a query string
//! (`AppQuery`) and path segments (`AppPath`). Each answers in the one error shape:
//! 415 for a body that is not JSON, 413 for one too large, 400 for one of the wrong shape
//! (naming where), and 422 naming the field for text no database should store: control
//! characters (NUL included) or a string longer than any field takes. Because this runs before
//! any handler, SQLite and PostgreSQL can never see such input and so never answer differently.

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use serde::de::DeserializeOwned;
use serde_json::Value;

pub use crate::domain::text::text_problem;
use crate::error::AppError;

/// Longer than any text field the API stores (the longest, a contact message, takes 5,000).
pub const MAX_TEXT_CHARS: usize = 20_000;

/// The one 422 for a field whose text was refused at the boundary.
pub fn refused_text(field: &str, problem: &str) -> AppError {
    AppError::Validation {
        message: format!("{field}: {problem}"),
        fields: BTreeMap::from([(field.to_string(), problem.to_string())]),
    }
}

/// Finds the first string in a JSON document (keys included) that no field would take.
fn scan(value: &Value, path: &mut Vec<String>) -> Option<(String, String)> {
    let here = |path: &Vec<String>| {
        if path.is_empty() {
            "body".to_string()
        } else {
            path.join(".")
        }
    };
    match value {
        Value::String(s) => text_problem(s, MAX_TEXT_CHARS, true).map(|p| (here(path), p)),
        Value::Array(items) => items.iter().enumerate().find_map(|(i, v)| {
            path.push(i.to_string());
            let found = scan(v, path);
            path.pop();
            found
        }),
        Value::Object(map) => map.iter().find_map(|(k, v)| {
            if let Some(p) = text_problem(k, 200, false) {
                return Some((here(path), p));
            }
            path.push(k.clone());
            let found = scan(v, path);
            path.pop();
            found
        }),
        _ => None,
    }
}

/// Whether a request says its body is JSON (`application/json` or a `+json` type, any case).
pub fn sends_json(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|v| v.trim().to_ascii_lowercase())
        .is_some_and(|v| v == "application/json" || v.ends_with("+json"))
}

/// A JSON body. Requiring JSON is also half of the CSRF defence (a form post cannot send it).
pub struct AppJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for AppJson<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !sends_json(req.headers()) {
            return Err(AppError::UnsupportedMediaType);
        }
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|e: BytesRejection| match e.status() {
                StatusCode::PAYLOAD_TOO_LARGE => AppError::PayloadTooLarge,
                _ => AppError::BadRequest("The request body could not be read".into()),
            })?;
        let value: Value = serde_json::from_slice(&bytes).map_err(|e| {
            AppError::BadRequest(format!("The request body is not valid JSON ({e})"))
        })?;
        // Every request body the API takes is an object. serde would read a struct from an
        // array too (by position; `[]` for one with no fields), which the OpenAPI document
        // forbids, so the handler and the document agree by refusing it here.
        if !value.is_object() {
            return Err(AppError::BadRequest(
                "The request body is not of the expected shape (a JSON object)".into(),
            ));
        }
        if let Some((field, problem)) = scan(&value, &mut Vec::new()) {
            return Err(refused_text(&field, &problem));
        }
        serde_path_to_error::deserialize(value)
            .map(AppJson)
            .map_err(|e| {
                let path = e.path().to_string();
                let inner = e.into_inner();
                AppError::BadRequest(if path == "." {
                    format!("The request body is not of the expected shape ({inner})")
                } else {
                    format!("`{path}` is not of the expected type ({inner})")
                })
            })
    }
}

/// Decoded `name=value` pairs of the query string, each name at most once.
fn query_pairs(query: &str) -> Result<Vec<(String, String)>, AppError> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for piece in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = piece.split_once('=').unwrap_or((piece, ""));
        let decode = |s: &str| {
            let spaced = s.replace('+', " ");
            percent_decode(&spaced).ok_or_else(|| {
                AppError::BadRequest("The query string is not valid percent-encoded UTF-8".into())
            })
        };
        let (name, value) = (decode(name)?, decode(value)?);
        if let Some(p) = text_problem(&name, 200, false) {
            return Err(refused_text("query", &p));
        }
        if let Some(p) = text_problem(&value, 1_000, false) {
            return Err(refused_text(&name, &p));
        }
        if pairs.iter().any(|(n, _)| *n == name) {
            return Err(AppError::BadRequest(format!(
                "The query parameter `{name}` is given more than once"
            )));
        }
        pairs.push((name, value));
    }
    Ok(pairs)
}

/// Percent-decoding to UTF-8; `None` for a bad escape or bytes that are not UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A query string, read into `T` (its fields are all optional text or numbers).
pub struct AppQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for AppQuery<T> {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let pairs = query_pairs(parts.uri.query().unwrap_or(""))?;
        let object: serde_json::Map<String, Value> = pairs
            .into_iter()
            .map(|(k, v)| (k, Value::String(v)))
            .collect();
        serde_path_to_error::deserialize(Value::Object(object))
            .map(AppQuery)
            .map_err(|e| {
                let path = e.path().to_string();
                AppError::BadRequest(format!(
                    "The query parameter `{path}` is not valid ({})",
                    e.into_inner()
                ))
            })
    }
}

/// One path segment (an id or a token), decoded and checked like any other text.
pub struct AppPath(pub String);

impl<S: Send + Sync> FromRequestParts<S> for AppPath {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let axum::extract::Path(segment) =
            axum::extract::Path::<String>::from_request_parts(parts, state)
                .await
                .map_err(|_| AppError::BadRequest("The URL path is not valid".into()))?;
        if let Some(p) = text_problem(&segment, 200, false) {
            return Err(refused_text("id", &p));
        }
        Ok(AppPath(segment))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_overlong_text_are_refused_with_the_field() {
        let body = serde_json::json!({"name": "Mona", "notes": ["ok", "a\u{0}b"]});
        assert_eq!(
            scan(&body, &mut Vec::new()),
            Some((
                "notes.1".into(),
                "Must not contain control characters".into()
            ))
        );
        let long = serde_json::json!({"message": "x".repeat(MAX_TEXT_CHARS + 1)});
        assert_eq!(scan(&long, &mut Vec::new()).unwrap().0, "message");
        assert_eq!(
            scan(
                &serde_json::json!({"m": "line\nline\ttab"}),
                &mut Vec::new()
            ),
            None
        );
    }

    #[test]
    fn query_strings_are_decoded_once_and_checked() {
        assert_eq!(
            query_pairs("search=mona+adel&client_id=%41").unwrap(),
            vec![
                ("search".into(), "mona adel".into()),
                ("client_id".into(), "A".into())
            ]
        );
        assert!(matches!(
            query_pairs("a=1&a=2"),
            Err(AppError::BadRequest(_))
        ));
        assert!(matches!(query_pairs("a=%zz"), Err(AppError::BadRequest(_))));
        assert!(matches!(query_pairs("a=%ff"), Err(AppError::BadRequest(_))));
        assert!(matches!(
            query_pairs("search=%00"),
            Err(AppError::Validation { .. })
        ));
    }
}
